"""The report item: one table or figure of ``python -m slitherbench.report``, as a class.

A report item says what it is called (``name``: ``--items`` selects by it), whether it is a
table or a figure (``kind``), which of the store's tables it reads (``needs``), where in the
report it comes (``order``), when it has something to show (``applies``) and how it writes
its files (``write``, returning them, so ``manifest.json`` lists them). Every item is handed
one :class:`ReportData`. The package :mod:`slitherbench.analysis.plots` finds each item by scanning
its modules: a new table or figure is one module there, and the report, its ``--items``
option and the generic tests take it up.

A worked example: a table of the solved trials per backend.

>>> import tempfile
>>> from pathlib import Path
>>> import pandas as pd
>>> class SolvedPerBackend(ReportItem):
...     '''Solved trials per backend (skipped and error trials are not counted as ran).'''
...
...     name = "solved_per_backend"
...     kind = "table"
...     order = 45
...
...     def write(self, data):
...         path = data.out / f"{self.name}.csv"
...         ran = ran_only(data.trials)
...         solved = ran.status.eq("solved").groupby(ran.backend).sum()
...         solved.rename("solved").to_csv(path)
...         return [path]
>>> trials = pd.DataFrame(
...     {"backend": ["sa", "sa", "exact"], "status": ["solved", "timeout", "solved"]}
... )
>>> data = ReportData(trials, pd.DataFrame(), Path(tempfile.mkdtemp()))
>>> item = SolvedPerBackend()
>>> item.applies(data), [p.name for p in item.write(data)]
(True, ['solved_per_backend.csv'])
>>> print((data.out / "solved_per_backend.csv").read_text().strip())
backend,solved
exact,1
sa,1

Saved as ``slitherbench/plots/solved_per_backend.py``, ``python -m slitherbench.report STORE``
writes it with the rest and ``--items solved_per_backend`` writes it alone. An item from
outside the package is passed to :func:`slitherbench.analysis.report.build_report` (``items=``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, Literal

import pandas as pd

from slitherbench.analysis import render, tables

# Outcomes of a trial that ran; skipped and error trials never enter a statistic.
RAN = tables.RAN


def ran_only(trials: pd.DataFrame) -> pd.DataFrame:
    """The trials that ran (solved, out of iterations or of time)."""
    return trials[trials.status.isin(RAN)]


@dataclass
class ReportData:
    """What every report item is given.

    ``trials``: one row per trial, configurations apart (``form_variant`` says what differs
    unless ``--pool``), in the order they ran; ``iterations``: one row per solve of those
    trials (empty when the store lost them); ``out``: the report's directory; ``note``: the
    provenance sentence tables end their caption with; ``group_by``, ``columns``,
    ``reference`` and ``board_trial``: the report's options (``--group-by``, ``--columns``,
    the exact iteration reference, ``--board-trial``)."""

    trials: pd.DataFrame
    iterations: pd.DataFrame
    out: Path
    note: str = ""
    group_by: list[str] | None = None
    columns: list[str] | None = None
    reference: pd.DataFrame | None = None
    board_trial: str | None = None
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    @cached_property
    def sized(self) -> pd.DataFrame:
        """The trials with their ``size`` and ``board`` columns (what figures group by)."""
        return tables.with_size(self.trials)

    def shared(self, key: str, make: Callable[[], Any]) -> Any:
        """A value several items use (a summary), made once per report."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]


class ReportItem:
    """One table or figure of the report (see the module's example).

    Subclasses set ``name`` (unique; ``--items`` selects by it), ``kind``, ``needs`` (the
    store's tables it reads: ``trials``, ``iterations``), ``order`` (where it comes in the
    report and its manifest), and write ``write``; ``applies`` is true unless overridden
    (e.g. a figure against board size needs more than one size)."""

    name: ClassVar[str] = ""
    kind: ClassVar[Literal["table", "figure"]] = "figure"
    needs: ClassVar[tuple[str, ...]] = ("trials",)
    order: ClassVar[int] = 1000

    def applies(self, data: ReportData) -> bool:
        """Whether the data has what this item shows."""
        return True

    def write(self, data: ReportData) -> list[Path]:
        """Write the item's files into ``data.out``; return them."""
        raise NotImplementedError(f"report item {self.name!r} writes nothing")


def cell_grid(text: pd.DataFrame, column: str) -> pd.DataFrame:
    """A text table with a row per cell (form x backend) and a column per value of
    ``column`` in first-seen order, from rows holding their cell text in ``text`` ("–": none)."""
    grid = text.pivot_table(
        index=["form_variant", "backend"], columns=column, values="text",
        aggfunc="first", sort=False,
    )  # fmt: skip
    grid = grid.reindex(columns=list(dict.fromkeys(text[column]))).fillna("–")
    grid = grid.reset_index().rename(columns={"form_variant": "Form", "backend": "Backend"})
    grid.columns.name = None
    return grid


def write_grid(
    grid: pd.DataFrame, rows: pd.DataFrame, out: Path, stem: str, caption: str
) -> list[Path]:
    """A text grid as Markdown and LaTeX, and ``rows`` (its data) as CSV."""
    md, tex, csv = (out / f"{stem}.{ext}" for ext in ("md", "tex", "csv"))
    md.write_text(render.grid_markdown(grid, caption))
    tex.write_text(render.grid_latex(grid, caption, f"tab:{stem}"))
    rows.to_csv(csv, index=False)
    return [md, tex, csv]
