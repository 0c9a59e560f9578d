"""The report's items: one class per table or figure (:class:`~.base.ReportItem`), one or a
few per module of this package, found by scanning it. :func:`report_items` lists them in
report order; ``python -m slitherbench.report`` writes every item that applies to the store
(``--items`` names some). A new table or figure is one module here (the example in
:mod:`slitherbench.analysis.plots.base`).

Every formulation keeps one line style, every backend one marker, and every formulation x
backend series its own colour, across all figures made from the same trials, so they read in
black and white too (:mod:`.style`). Every panel has a title or a legend; a panel that pools
board sizes says so in its title. No matplotlib backend is chosen here: the command-line
entry points choose a file backend, a notebook keeps its inline one.

The figure functions (``iterations_figure``, ``scaling_figure``, ...) stay callable on their
own, for the notebook and the findings pages.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache

from slitherbench.analysis.plots.base import ReportData, ReportItem, ran_only, write_grid
from slitherbench.analysis.plots.board import board_figure, draw_board, pick_board_trial
from slitherbench.analysis.plots.frontier import frontier_figure
from slitherbench.analysis.plots.iterations import iterations_figure
from slitherbench.analysis.plots.page import page_iterations_figure
from slitherbench.analysis.plots.performance_profile import performance_profile_figure
from slitherbench.analysis.plots.scaling import scaling_figure
from slitherbench.analysis.plots.style import (
    COLORS,
    LINESTYLES,
    MARKERS,
    Styles,
    ecdf_with_band,
    provenance_note,
    save_figure,
)
from slitherbench.analysis.plots.time_to_solution import time_to_solution_figure

__all__ = [
    "COLORS",
    "LINESTYLES",
    "MARKERS",
    "ReportData",
    "ReportItem",
    "Styles",
    "board_figure",
    "draw_board",
    "ecdf_with_band",
    "frontier_figure",
    "iterations_figure",
    "page_iterations_figure",
    "performance_profile_figure",
    "pick_board_trial",
    "provenance_note",
    "ran_only",
    "report_items",
    "save_figure",
    "scaling_figure",
    "time_to_solution_figure",
    "write_grid",
]

_NOT_ITEMS = {"base", "style"}  # what the items share


@cache
def report_items() -> dict[str, type[ReportItem]]:
    """Every report item of this package, by name, in report order: each module's
    :class:`ReportItem` subclasses with a ``name`` (a base class without one is skipped)."""
    found: dict[str, type[ReportItem]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name in _NOT_ITEMS or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and issubclass(cls, ReportItem) and cls.name):
                continue
            if cls.__module__ != module.__name__:
                continue  # imported from another module: found there
            if cls.name in found and found[cls.name] is not cls:
                raise RuntimeError(f"two report items are named {cls.name!r}")
            found[cls.name] = cls
    return dict(sorted(found.items(), key=lambda kv: (kv[1].order, kv[0])))
