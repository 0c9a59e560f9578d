"""The frontier: success rate per formulation x backend and board size, as a table and a
figure; the frontier is the largest size solved in at least half of its trials."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from slitherbench.analysis import stats, tables
from slitherbench.analysis.plots.base import ReportData, ReportItem, write_grid
from slitherbench.analysis.plots.style import provenance_note, save_figure

FRONTIER_CAPTION = (
    "Frontier: solved/ran per formulation x backend and board size ('-': none ran there: the "
    "cell stopped at a smaller size where it solved nothing, or its trials were skipped, e.g. "
    "at a licence limit; 'k/n, m stopped': m more trials ran and then stopped when a cut grew "
    "the model past such a limit); frontier = the largest size solved in at least half of "
    "its trials, a stopped trial counted as not solved."
)

FRONTIER_BOARDS_CAPTION = (
    "The frontier with the board as the unit, where a cell ran several boards of one size: "
    "the boards it solved in at least half of their own trials, of the boards it ran, and "
    "the 95% interval of its solved share by a percentile bootstrap over boards "
    f"({stats.BOOTSTRAP_DRAWS:,} seeded draws, a board's trials drawn together; given from "
    f"{stats.BOOTSTRAP_MIN_BOARDS} boards up, as resampling fewer understates the spread). A "
    "board's seeds share its difficulty, so where boards differ this interval is wider than "
    "the Wilson interval over trials: it says what other boards of the same kind would give."
)


def frontier_figure(summary: pd.DataFrame, trials: pd.DataFrame, out: Path) -> list[Path]:
    """Success rate per cell (rows) and board size (columns, by cells): colour and k/n in each
    square, "-" where the size was not run; a black frame on the cell's frontier (its largest
    size solved in >= 50% of trials)."""
    sizes = summary.drop_duplicates("size").sort_values("cells")["size"].tolist()
    cells = list(dict.fromkeys(zip(summary.form_variant, summary.backend, strict=True)))
    fig, ax = plt.subplots(figsize=(3.4 + 0.8 * len(sizes), 1.2 + 0.38 * len(cells)))
    grid = np.full((len(cells), len(sizes)), np.nan)
    for r in summary.itertuples(index=False):
        i, j = cells.index((r.form_variant, r.backend)), sizes.index(r.size)
        grid[i, j] = r.reach
        text = f"{r.solved}\n+{r.stopped} stopped" if r.stopped else r.solved
        ax.text(j, i, text, ha="center", va="center", fontsize=5.5 if r.stopped else 7)
        if r.frontier:
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, lw=2, color="k"))
    for i, j in zip(*np.where(np.isnan(grid)), strict=True):
        ax.text(j, i, "-", ha="center", va="center", fontsize=7, color="#777777")
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(sizes)), sizes, fontsize=7)
    ax.set_yticks(range(len(cells)), [f"{f} / {b}" for f, b in cells], fontsize=7)
    ax.set_xlabel("board size; - = none ran (the cell stopped earlier, or was skipped)")
    fig.colorbar(im, ax=ax, fraction=0.03, label="solved / (ran + stopped)")
    fig.tight_layout()
    return save_figure(fig, provenance_note(trials), out, "frontier")


def shared_summary(data: ReportData) -> pd.DataFrame:
    """The frontier summary of ``data``, made once per report (the items and a page share it)."""
    return data.shared("frontier_summary", lambda: tables.frontier_summary(data.sized))


class _OverSizes(ReportItem):
    """Shown where the trials span more than one board size and some size ran."""

    def applies(self, data: ReportData) -> bool:
        sizes = (data.sized["rows"] * data.sized["cols"]).nunique()
        return sizes > 1 and not shared_summary(data).empty


class FrontierTable(_OverSizes):
    """``frontier`` (Markdown, LaTeX; the summary as CSV)."""

    name = "frontier_table"
    kind = "table"
    needs = ("trials",)
    order = 110

    def write(self, data: ReportData) -> list[Path]:
        summary = shared_summary(data)
        grid = tables.frontier_grid(summary)
        files = write_grid(grid, summary, data.out, "frontier", FRONTIER_CAPTION)
        boards = tables.frontier_board_grid(summary)
        if not boards.empty:  # several boards of one size: the frontier board by board too
            files += write_grid(boards, summary, data.out, "frontier_boards",
                                FRONTIER_BOARDS_CAPTION)  # fmt: skip
        return files


class FrontierFigure(_OverSizes):
    """``frontier`` (PNG, PDF): the table's rates as colours, the frontier framed."""

    name = "frontier_figure"
    needs = ("trials",)
    order = 120

    def write(self, data: ReportData) -> list[Path]:
        return frontier_figure(shared_summary(data), data.sized, data.out)
