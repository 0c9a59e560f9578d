"""Iterations to the answer: the fraction of the trials that ran solved within k iterations."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import matplotlib.ticker
import pandas as pd

from slitherbench.analysis.plots.base import ReportData, ReportItem, ran_only
from slitherbench.analysis.plots.style import (
    Styles,
    ecdf_with_band,
    legend,
    panel_title,
    provenance_note,
    puzzle_panel,
    save_figure,
)


def iterations_figure(trials: pd.DataFrame, out: Path, panel: str = "backend") -> list[Path]:
    """Fraction of the trials that ran solved within k iterations (ECDF with 95% band): one
    panel per backend with a line per formulation (a panel's title says which board sizes it
    pools), or one panel per puzzle (or size) with a line per formulation x backend."""
    ran = ran_only(trials)
    styles = Styles(trials)
    panels = list(dict.fromkeys(trials[panel]))
    n = max(1, len(panels))
    fig, axes = plt.subplots(1, n, figsize=(3.2 * n, 2.8), sharey=True, squeeze=False)
    series = ["form_variant"] if panel == "backend" else ["form_variant", "backend"]
    for ax, name in zip(axes[0], panels, strict=False):
        d = ran[ran[panel] == name]
        for key, f in d.groupby(series, sort=False):
            key = key if isinstance(key, tuple) else (key,)
            style = styles.form(key[0]) if len(key) == 1 else styles.cell(*key)
            x = f.loc[f.status == "solved", "iterations"].to_numpy()
            ecdf_with_band(ax, x, len(f), style, " / ".join(map(str, key)))
        ax.set_title(panel_title(name, trials[trials[panel] == name], panel), fontsize=8)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_xlabel("iterations to the answer")
        ax.set_ylim(0, 1.02)
        legend(ax, fontsize=6, loc="lower right")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("fraction of trials solved\n(dotted: 95% DKW band)")
    fig.tight_layout()
    return save_figure(fig, provenance_note(trials), out, f"iterations_by_{panel}")


class IterationsByBackend(ReportItem):
    """One panel per backend, a line per formulation: ``iterations_by_backend``."""

    name = "iterations_by_backend"
    needs = ("trials",)
    order = 50

    def write(self, data: ReportData) -> list[Path]:
        return iterations_figure(data.sized, data.out, panel="backend")


class IterationsByPuzzle(ReportItem):
    """One panel per puzzle (per board size past 12 puzzles), a line per formulation x
    backend: ``iterations_by_puzzle`` (or ``iterations_by_size``); more than one puzzle."""

    name = "iterations_by_puzzle"
    needs = ("trials",)
    order = 70

    def applies(self, data: ReportData) -> bool:
        return data.sized["puzzle"].nunique() > 1

    def write(self, data: ReportData) -> list[Path]:
        return iterations_figure(data.sized, data.out, panel=puzzle_panel(data.sized))
