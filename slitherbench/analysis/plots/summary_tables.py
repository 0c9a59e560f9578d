"""The report's summary tables (Markdown, LaTeX booktabs and CSV): per puzzle, per board
size, and per board kind, each row a formulation x backend."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from slitherbench.analysis import render, tables
from slitherbench.analysis.plots.base import ReportData, ReportItem

CAPTION = (
    "Solved: solved/ran (skipped and error trials are counted apart, never measured); rate "
    "with its 95% Wilson interval; iterations over solved trials only (every solve; rounds: "
    "energy-0 solves) with bootstrap 95% intervals; times over the trials that ran; TTS99 = "
    "tau ln(0.01)/ln(1-p) with tau = the trial's time budget, its interval from p's; E=0 rate: "
    "share of solves reaching energy 0; exact: CP-SAT running the same iterative method (from "
    "the store's exact cell or its exact_reference)."
)


class SummaryTable(ReportItem):
    """A table of :func:`slitherbench.analysis.tables.summarise` grouped by ``keys`` (empty: the
    report's ``--group-by``, default puzzle, size, clues, form and backend), its rows in the
    order they ran, the columns ``--columns`` chose (the CSV has all)."""

    kind = "table"
    needs = ("trials", "iterations")
    keys: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""

    def write(self, data: ReportData) -> list[Path]:
        cols = render.check_columns(data.columns)
        keys = list(self.keys) or data.group_by or [*tables.PUZZLE_KEYS, *tables.CELL_KEYS]
        summary = tables.summarise(data.trials, keys, data.reference, data.iterations)
        first = {v: k for k, v in enumerate(dict.fromkeys(summary[keys[0]]))}
        summary = summary.sort_values(keys[0], key=lambda s: s.map(first), kind="stable")
        summary = summary.reset_index(drop=True)  # rows of one group together, run order kept
        caption = f"{self.title} {CAPTION} {data.note}"
        md, tex, csv = (data.out / f"{self.name}.{ext}" for ext in ("md", "tex", "csv"))
        md.write_text(render.to_markdown(summary, keys, cols, caption))
        tex.write_text(render.to_latex(summary, keys, cols, caption, label=f"tab:{self.name}"))
        summary.to_csv(csv, index=False)
        return [md, tex, csv]


class TableByPuzzle(SummaryTable):
    """``table_by_puzzle``: per puzzle (or the ``--group-by`` grouping)."""

    name = "table_by_puzzle"
    order = 10
    title = "Per puzzle, formulation and backend."


class TableByFormBackend(SummaryTable):
    """``table_by_form_backend``: per board size (statistics that depend on size are never
    pooled across sizes)."""

    name = "table_by_form_backend"
    order = 20
    keys = tuple(tables.SIZE_KEYS)
    title = "Per board size, formulation and backend."


class TableByBoard(SummaryTable):
    """``table_by_board``: per board kind, its sizes pooled; only where the trials hold more
    than one board kind (experiment=grids)."""

    name = "table_by_board"
    order = 30
    keys = ("board", *tables.CELL_KEYS)
    title = (
        "Per board kind (its sizes pooled; table_by_form_backend has each), formulation and "
        "backend."
    )

    def applies(self, data: ReportData) -> bool:
        return len(data.trials) > 0 and data.sized["board"].nunique() >= 2
