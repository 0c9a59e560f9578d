"""Against board size: success rate, TTS99 and the solved trials' iterations."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd

from slitherbench.analysis.plots.base import ReportData, ReportItem, ran_only
from slitherbench.analysis.plots.style import Styles, legend, provenance_note, save_figure


def _by_size(d: pd.DataFrame) -> np.ndarray:
    """Per board size: cells, success rate and Wilson bounds, TTS99 and its bounds, and the
    median and quartiles of the solved trials' iterations."""
    from slitherbench.analysis import stats

    rows = []
    for cells, g in d.groupby("cells"):
        k, n = int((g.status == "solved").sum()), len(g)
        lo, hi = stats.wilson(k, n)
        tts = stats.tts99_ci(float(g["time_limit_s"].median()), k, n)
        ok = g.loc[g.status == "solved", "iterations"]
        rows.append((cells, k / n, lo, hi, *tts, ok.median(), ok.quantile(0.25), ok.quantile(0.75)))
    return np.array(rows, dtype=float)


SCALING_PANELS = (
    ("success rate", "solved / ran (95% Wilson)"),
    ("time to solution", "TTS99 (s), tau = budget; missing = never solved"),
    ("iterations of solved trials", "iterations, solved trials only (median, IQR)"),
)


def _size_axes(axes: Sequence[plt.Axes], sizes: pd.DataFrame) -> None:
    for ax, (title, lab) in zip(axes, SCALING_PANELS, strict=True):
        ax.set_title(title, fontsize=9)
        ax.set_xscale("log")
        if ax is not axes[0]:
            ax.set_yscale("log")
            ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        # One tick per board size present, labelled as the board (plain, not 3x10^1).
        ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(sizes["cells"].tolist()))
        ax.xaxis.set_major_formatter(
            matplotlib.ticker.FixedFormatter(
                [f"{r}x{c}" for r, c in zip(sizes.rows, sizes.cols, strict=True)]
            )
        )
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.tick_params(axis="x", labelsize=7, rotation=30)
        ax.set_xlabel("board size (log of faces; squares R x C)")
        ax.set_ylabel(lab, fontsize=8)
        ax.grid(alpha=0.3, which="both")
    axes[0].set_ylim(-0.02, 1.02)


def scaling_figure(trials: pd.DataFrame, out: Path) -> list[Path]:
    """Against board size: success rate (95% Wilson), TTS99 (tau = budget, its interval) and
    the iterations of solved trials (median, 25-75 %), labelled as such."""
    t = ran_only(trials).assign(cells=trials["rows"] * trials["cols"])
    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(12, 3.6))
    styles = Styles(trials)
    groups = list(t.groupby(["form_variant", "backend"], sort=False))
    for k, ((form, backend), d) in enumerate(groups):
        st = styles.cell(form, backend)
        bar = {"capsize": 2, "ecolor": st["color"], "elinewidth": 1.0, **st}
        r = _by_size(d)
        # Series side by side (a few % apart on the log axis): no bar hides another.
        x = r[:, 0] * 1.04 ** (k - (len(groups) - 1) / 2)
        err = [r[:, 1] - r[:, 2], r[:, 3] - r[:, 1]]
        a1.errorbar(x, r[:, 1], yerr=err, label=f"{form} / {backend}", **bar)
        fin = np.isfinite(r[:, 4])
        up = np.where(np.isfinite(r[fin, 6]), r[fin, 6] - r[fin, 4], 0)
        a2.errorbar(x[fin], r[fin, 4], yerr=[r[fin, 4] - r[fin, 5], up], **bar)
        a3.plot(x, r[:, 7], **st)
        a3.fill_between(x, r[:, 8], r[:, 9], color=st["color"], alpha=0.12)
    _size_axes([a1, a2, a3], t.drop_duplicates("cells").sort_values("cells"))
    legend(a1, fontsize=6)
    fig.tight_layout()
    return save_figure(fig, provenance_note(trials), out, "scaling")


class Scaling(ReportItem):
    """``scaling``: three panels against board size; more than one board size."""

    name = "scaling"
    needs = ("trials",)
    order = 100

    def applies(self, data: ReportData) -> bool:
        return (data.sized["rows"] * data.sized["cols"]).nunique() > 1

    def write(self, data: ReportData) -> list[Path]:
        return scaling_figure(data.sized, data.out)
