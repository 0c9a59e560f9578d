"""MPS file (free MPS, column names as in the LP file) of the constraint description, by HiGHS (see :mod:`.highs`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from slitherbench.models.export.highs import FAMILY, QUADRATIC, HighsFile, read_highs, write_highs
from slitherbench.models.formulations import Model

NAME, EXTENSION = "mps", ".mps"
__all__ = ["EXTENSION", "FAMILY", "NAME", "QUADRATIC", "read", "write"]


def write(model: Model, path: Path, title: str = "") -> dict[str, Any]:
    return write_highs(model, path, NAME)


def read(path: Path) -> HighsFile:
    return read_highs(path)
