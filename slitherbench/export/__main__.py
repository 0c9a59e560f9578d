import sys

from slitherbench.run.export_cli import main

if __name__ == "__main__":
    sys.exit(main())
