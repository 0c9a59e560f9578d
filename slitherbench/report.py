"""``python -m slitherbench.report``: the report command (:mod:`slitherbench.analysis.report`).

Imports: the analysis."""

import sys

from slitherbench.analysis.report import main

if __name__ == "__main__":
    sys.exit(main())
