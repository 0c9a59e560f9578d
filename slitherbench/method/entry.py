"""The rule every entry point follows for bad input: one ``error:`` line on standard error
and exit 2, never a traceback (the app, the report, the exporter, the reference page, the
sampler reader and every script under ``experiments/``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn


class OneLineArgumentParser(argparse.ArgumentParser):
    """argparse with the harness's rule for bad input: one ``error:`` line and exit 2 (not
    argparse's usage line above it; ``--help`` still shows the usage)."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {' '.join(message.split())} (see --help)", file=sys.stderr)
        sys.exit(2)


def run_command(main: Callable[[], object]) -> NoReturn:
    """A script's ``__main__``: its bad input (a ``ValueError``: the harness's ConfigError,
    ExportError, PuzzleFormatError, ...) or an output it cannot write (``OSError``) is one
    ``error:`` line and exit 2; an int it returns is its exit status."""
    try:
        result = main()
    except OSError as exc:
        where = f"cannot write {exc.filename}: " if exc.filename else ""
        print(f"error: {where}{' '.join(str(exc.strerror or exc).split())}", file=sys.stderr)
        sys.exit(2)
    except ValueError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        sys.exit(2)
    sys.exit(result if isinstance(result, int) else 0)
