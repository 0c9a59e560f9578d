"""The reference page's board (``reference10``) beside the page's reported iteration ranges,
as a table and a figure."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from slitherbench.analysis import tables
from slitherbench.analysis.plots.base import ReportData, ReportItem, ran_only, write_grid
from slitherbench.analysis.plots.style import Styles, legend, provenance_note, save_figure

PAGE_CAPTION = (
    "reference10 beside the reference page: solved/ran, solves (every solve, retries of a "
    "non-zero-energy sample included, as the page counts) and rounds (energy-0 solves) of the "
    "solved trials, median wall time and the mode each ran in; the page's rows are its own "
    "reported ranges."
)
PAGE_PUZZLE = "reference10"


def page_iterations_figure(
    trials: pd.DataFrame, out: Path, puzzle: str = "reference10"
) -> list[Path]:
    """The solved trials' iteration counts on the page's board per form x backend (each trial a
    dot, the median a bar), beside the page's reported ranges as shaded bands."""
    d = trials[(trials.puzzle == puzzle) & (trials.status == "solved")]
    if d.empty:
        return []
    styles = Styles(trials)
    cells = list(dict.fromkeys(zip(d.form_variant, d.backend, strict=True)))
    fig, ax = plt.subplots(figsize=(max(4.5, 1.4 * len(cells) + 2.5), 3.6))
    for (label, (lo, hi)), shade in zip(
        tables.PAGE_RANGES.items(), ("#9ecae1", "#fdd0a2"), strict=True
    ):
        ax.axhspan(lo, hi, color=shade, alpha=0.35, label=f"{label}: {lo}-{hi}")
    rng = np.random.default_rng(0)
    for k, (form, backend) in enumerate(cells):
        its = d[(d.form_variant == form) & (d.backend == backend)]["iterations"].to_numpy()
        ran = ran_only(
            trials[
                (trials.puzzle == puzzle)
                & (trials.form_variant == form)
                & (trials.backend == backend)
            ]
        )
        st = styles.cell(form, backend)
        ax.plot(k + rng.uniform(-0.15, 0.15, len(its)), its, st["marker"], color=st["color"], ms=4)
        ax.hlines(np.median(its), k - 0.3, k + 0.3, color=st["color"], lw=2)
        ax.text(k + 0.32, np.median(its), f"{len(its)}/{len(ran)} solved", va="center", fontsize=7)
    top = max([hi for _, hi in tables.PAGE_RANGES.values()] + [int(d["iterations"].max())])
    ax.set_ylim(0, top + 2)
    ax.set_xlim(-0.6, len(cells) - 0.4 + 0.5)
    ax.set_xticks(range(len(cells)), [f"{f}\n{b}" for f, b in cells], fontsize=8)
    ax.set_ylabel("solves to the answer (solved trials)")
    ax.set_title(f"{puzzle}: iterations beside the page's ranges")
    legend(ax, fontsize=7, loc="lower left")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return save_figure(fig, provenance_note(trials), out, "page_iterations")


class _OnThePagesBoard(ReportItem):
    """Shown where the trials include the page's board."""

    def applies(self, data: ReportData) -> bool:
        return PAGE_PUZZLE in set(data.sized["puzzle"])


class PageTable(_OnThePagesBoard):
    """``page_iterations`` (Markdown, LaTeX, CSV)."""

    name = "page_table"
    kind = "table"
    needs = ("trials",)
    order = 130

    def write(self, data: ReportData) -> list[Path]:
        rows = tables.page_table(data.sized)
        return write_grid(rows, rows, data.out, "page_iterations", PAGE_CAPTION)


class PageFigure(_OnThePagesBoard):
    """``page_iterations`` (PNG, PDF): each solved trial a dot, the page's ranges shaded."""

    name = "page_figure"
    needs = ("trials",)
    order = 140

    def write(self, data: ReportData) -> list[Path]:
        return page_iterations_figure(data.sized, data.out)
