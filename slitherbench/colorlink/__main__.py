"""``python -m slitherbench.colorlink solve FILE|TEXT`` and ``... generate 5x5``: see
:mod:`slitherbench.colorlink.cli`."""

import sys

from .cli import main

sys.exit(main())
