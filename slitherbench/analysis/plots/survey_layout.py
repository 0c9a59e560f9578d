"""Seconds per instance in the survey's layout: one row per instance, one column per solver."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from slitherbench.analysis import tables
from slitherbench.analysis.plots.base import ReportData, ReportItem, write_grid

SURVEY_CAPTION = (
    "Seconds per instance in the survey's layout: median wall time of the solved trials of "
    "each solver (backend: form; k/n when only some solved); '-' no answer: (T) out of time, "
    "(M) out of memory, (L) a size or licence limit, (I) the iteration limit, (E) an error."
)
PRESOLVED_NOTE = " (P): settled by the presolve, no solve."


def survey_caption(trials: pd.DataFrame) -> str:
    """The caption, naming (P) only where a trial was presolved (older pages stay as they were)."""
    presolved = "status" in trials and bool((trials["status"] == "presolved").any())
    return SURVEY_CAPTION + (PRESOLVED_NOTE if presolved else "")


class SurveyLayout(ReportItem):
    """``survey_layout`` (Markdown, LaTeX, CSV)."""

    name = "survey_layout"
    kind = "table"
    needs = ("trials",)
    order = 40

    def write(self, data: ReportData) -> list[Path]:
        grid = tables.instance_times(data.trials)
        return write_grid(grid, grid, data.out, "survey_layout", survey_caption(data.trials))
