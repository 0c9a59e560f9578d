"""Seconds per instance in the survey's layout: one row per instance, one column per solver."""

from __future__ import annotations

from pathlib import Path

from slitherbench.analysis import tables
from slitherbench.analysis.plots.base import ReportData, ReportItem, write_grid

SURVEY_CAPTION = (
    "Seconds per instance in the survey's layout: median wall time of the solved trials of "
    "each solver (backend: form; k/n when only some solved); '-' no answer: (T) out of time, "
    "(M) out of memory, (L) a size or licence limit, (I) the iteration limit, (E) an error."
)


class SurveyLayout(ReportItem):
    """``survey_layout`` (Markdown, LaTeX, CSV)."""

    name = "survey_layout"
    kind = "table"
    needs = ("trials",)
    order = 40

    def write(self, data: ReportData) -> list[Path]:
        grid = tables.instance_times(data.trials)
        return write_grid(grid, grid, data.out, "survey_layout", SURVEY_CAPTION)
