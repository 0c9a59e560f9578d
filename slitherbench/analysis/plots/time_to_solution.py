"""Time to target: the fraction of the trials that ran solved within t seconds."""

from __future__ import annotations

from pathlib import Path

import matplotlib.ticker
import numpy as np
import pandas as pd

from slitherbench.analysis import render, tables
from slitherbench.analysis.plots.base import ReportData, ReportItem, ran_only, write_grid
from slitherbench.analysis.plots.style import (
    Styles,
    ecdf_with_band,
    legend,
    panel_grid,
    panel_title,
    provenance_note,
    puzzle_panel,
    save_figure,
)


def time_to_solution_figure(
    trials: pd.DataFrame, out: Path, panel: str | None = None
) -> list[Path]:
    """Time to target: fraction of the trials that ran solved within t seconds (wall clock),
    per formulation x backend, with 95% DKW bands; one panel per backend (titled with the
    sizes it pools), or per puzzle (or size) when ``panel`` says so."""
    ran = ran_only(trials)
    styles = Styles(trials)
    by = panel or "backend"
    panels = list(dict.fromkeys(trials[by]))
    fig, axes = panel_grid(len(panels))
    for ax, name in zip(axes.ravel(), panels, strict=False):
        d = ran[ran[by] == name]
        for (form, backend), g in d.groupby(["form_variant", "backend"], sort=False):
            x = g.loc[g.status == "solved", "wall_s"].to_numpy()
            ecdf_with_band(
                ax, x, len(g), styles.cell(form, backend), f"{form} / {backend}", x0=1e-3
            )
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.set_xlabel("wall time per trial (s)")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3, which="both")
        legend(ax, fontsize=6, loc="upper left")
        ax.set_title(panel_title(name, trials[trials[by] == name], by), fontsize=8)
    for row in axes:
        row[0].set_ylabel("fraction of trials solved\n(dotted: 95% DKW band)")
    fig.tight_layout()
    stem = f"time_to_target_by_{panel}" if panel else "time_to_solution"
    return save_figure(fig, provenance_note(trials), out, stem)


def within_grid(
    within: pd.DataFrame, fractions: tuple[float, ...] = tables.WITHIN_FRACTIONS
) -> pd.DataFrame:
    """:func:`solved_within` as text: ``k/n`` per checkpoint, headed in seconds where every
    group has one budget (else as a fraction of it), and iterations as min / median / max."""
    one_budget = within["budget_s"].nunique() == 1
    budget = float(within["budget_s"].iloc[0]) if len(within) else np.nan

    def head(f: float) -> str:
        if one_budget:
            return f"within {render.fmt(f * budget)} s"
        return "within the budget" if f == 1 else f"within budget x {f:g}"

    out = within[tables.SIZE_KEYS].rename(columns={"form_variant": "form"}).astype(str)
    if not one_budget:
        out["budget (s)"] = within["budget_s"].map(render.fmt)
    for f in fractions:
        out[head(f)] = [
            f"{k}/{n}" for k, n in zip(within[f"within_{f:g}"], within["ran"], strict=True)
        ]
    out["iterations, solved: min / median / max"] = [
        "-"
        if pd.isna(lo)
        else f"{render.fmt(float(lo))} / {render.fmt(float(md))} / {render.fmt(float(hi))}"
        for lo, md, hi in zip(
            within["iter_min"], within["iter_median"], within["iter_max"], strict=True
        )
    ]
    return out


WITHIN_CAPTION = (
    "Solved within t: of the trials that ran, how many solved within each fraction of their "
    "time budget (wall clock; the time-to-solution figure read at four points); iterations: "
    "the fewest, median and most solves of the solved trials."
)


class SolvedWithin(ReportItem):
    """``solved_within``: per board size and cell, solved within 1/8, 1/4, 1/2 and all of the
    budget, and the solved trials' iterations (min / median / max)."""

    name = "solved_within"
    kind = "table"
    needs = ("trials",)
    order = 62

    def applies(self, data: ReportData) -> bool:
        return not ran_only(data.trials).empty

    def write(self, data: ReportData) -> list[Path]:
        within = tables.solved_within(data.trials)
        caption = f"{WITHIN_CAPTION} {data.note}".strip()
        return write_grid(within_grid(within), within, data.out, self.name, caption)


class TimeToSolution(ReportItem):
    """One panel per backend, a line per formulation x backend: ``time_to_solution``."""

    name = "time_to_solution"
    needs = ("trials",)
    order = 60

    def write(self, data: ReportData) -> list[Path]:
        return time_to_solution_figure(data.sized, data.out)


class TimeToTargetByPuzzle(ReportItem):
    """One panel per puzzle (per board size past 12 puzzles): ``time_to_target_by_puzzle``
    (or ``time_to_target_by_size``); more than one puzzle."""

    name = "time_to_target_by_puzzle"
    needs = ("trials",)
    order = 80

    def applies(self, data: ReportData) -> bool:
        return data.sized["puzzle"].nunique() > 1

    def write(self, data: ReportData) -> list[Path]:
        return time_to_solution_figure(data.sized, data.out, panel=puzzle_panel(data.sized))
