"""The Dolan-Moré performance profile of TTS99 over a suite's puzzles."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd

from slitherbench.analysis import tables
from slitherbench.analysis.plots.base import ReportData, ReportItem
from slitherbench.analysis.plots.style import Styles, legend, provenance_note, save_figure


def performance_profile_figure(
    summary: pd.DataFrame, trials: pd.DataFrame, out: Path
) -> list[Path]:
    """Dolan-Moré profile of TTS99 over the suite's puzzles: for each cell, the fraction of
    puzzles on which its TTS99 is within a factor r of the best cell's."""
    from slitherbench.analysis import stats

    tts = summary.pivot_table(
        index="puzzle", columns=["form_variant", "backend"], values="tts99_s", aggfunc="first"
    )
    ratios = stats.performance_profile(tts)
    styles = Styles(trials)
    fig, ax = plt.subplots(figsize=(4.6, 3.2))
    finite = ratios.replace(np.inf, np.nan).max().max()
    top = max(2.0, float(finite) * 1.5 if finite == finite else 2.0)
    for (form, backend), r in ratios.items():
        x = np.sort(r.to_numpy())
        y = np.arange(1, len(x) + 1) / len(x)
        xs = np.r_[1.0, np.minimum(x, top)]
        ys = np.r_[0.0, np.where(np.isfinite(x), y, np.nan)]
        ys = pd.Series(ys).ffill().fillna(0).to_numpy()
        ax.step(
            xs,
            ys,
            where="post",
            label=f"{form} / {backend}",
            **{k: v for k, v in styles.cell(form, backend).items() if k != "marker"},
        )
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.set_xlim(1, top)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("r: TTS99 within r x the best cell's")
    ax.set_ylabel("fraction of puzzles")
    ax.grid(alpha=0.3, which="both")
    legend(ax, fontsize=6, loc="lower right")
    fig.tight_layout()
    return save_figure(fig, provenance_note(trials), out, "performance_profile")


class PerformanceProfile(ReportItem):
    """``performance_profile``: over the puzzles of the store; more than one puzzle."""

    name = "performance_profile"
    needs = ("trials",)
    order = 90

    def applies(self, data: ReportData) -> bool:
        return data.sized["puzzle"].nunique() > 1

    def write(self, data: ReportData) -> list[Path]:
        by_puzzle = tables.tts99_by(data.sized, ["puzzle", *tables.CELL_KEYS])
        return performance_profile_figure(by_puzzle, data.sized, data.out)
