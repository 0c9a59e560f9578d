"""Out of time: would more time have helped? Each trial that ran out of time, by what its
solves did before the budget ended:

* *never at energy 0*: no solve returned a valid multi-loop solution, so nothing was cut;
* *stalled*: it cut loops (energy-0 solves, the method's rounds), but the last of them came in
  the first half of the budget and every solve after it broke a constraint;
* *still cutting*: an energy-0 solve came in the second half.

A stalled trial would not have been saved by a longer budget at the rate it ended with; one
still cutting might have been. Time into a trial is its solves' own times summed (model
build, start, reduction and solve of each row), which leaves out the harness's share (a few
per cent), so a round counted in the first half may sit a little later on the wall clock.

>>> import pandas as pd
>>> trials = pd.DataFrame({"key": ["a", "b"], "rows": [5, 5], "cols": [5, 5],
...     "form_variant": ["hubo", "hubo"], "backend": ["sa", "sa"],
...     "status": ["timeout", "timeout"], "time_limit_s": [10.0, 10.0]})
>>> iterations = pd.DataFrame({"key": ["a"] * 4 + ["b"] * 2, "iteration": [1, 2, 3, 4, 1, 2],
...     "energy": [0, 2, 1, 2, 0, 0], "solve_s": [1.0, 2.0, 3.0, 3.0, 3.0, 4.0]})
>>> rows = timeouts(trials, iterations)
>>> print(rows[["out_of_time", "never", "stalled", "cutting", "last_round_s", "since"]].to_string())
   out_of_time  never  stalled  cutting  last_round_s  since
0            2      0        1        1           1.0    3.0

Trial ``a`` cut once, 1 s in, then broke a constraint three times until its 10 s were up:
stalled. Trial ``b`` had its second round 7 s in: still cutting.

A trial whose store holds fewer solves than it made (``iterations``: a store kept without
some of its rows) cannot be told apart: it is counted under ``unstored``, in no other group,
and the grid gains a column for it only where there is one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from slitherbench.analysis import render, tables
from slitherbench.analysis.plots.base import ReportData, ReportItem, write_grid
from slitherbench.analysis.plots.style import (
    Styles,
    legend,
    panel_grid,
    provenance_note,
    save_figure,
)

# The share of the budget after which a trial's last round no longer counts as a stall.
STALL_FRACTION = 0.5
# The per-row times that make up time into the trial (absent columns count as 0).
ROW_TIMES = ("build_s", "start_s", "reduction_s", "solve_s")

TIMEOUTS_CAPTION = (
    "Trials that ran out of time, by what their solves did: never at energy 0 (nothing was "
    "cut); stalled (the last energy-0 solve, a round of cuts, came in the first half of the "
    "budget, and every later solve broke a constraint); still cutting (a round in the second "
    "half). Time into a trial: its solves' own times summed. Rounds: the energy-0 solves of "
    "the trials out of time (median); last round and solves since: medians over the stalled "
    "trials."
)


def _trial_rounds(iterations: pd.DataFrame) -> pd.DataFrame:
    """Per trial key: its rounds (energy-0 solves), the time into the trial of the last one
    (NaN: none) and the solves after it."""
    it = iterations.sort_values(["key", "iteration"], kind="stable")
    spent = it.reindex(columns=list(ROW_TIMES)).fillna(0.0).sum(axis=1)
    it = it.assign(_at=spent.groupby(it["key"]).cumsum(), _zero=it["energy"].eq(0))
    rows = []
    for key, g in it.groupby("key", sort=False):
        zero = g[g["_zero"]]
        last = float(zero["_at"].iloc[-1]) if len(zero) else np.nan
        since = int((g["iteration"] > zero["iteration"].iloc[-1]).sum()) if len(zero) else 0
        rows.append({"key": key, "stored": len(g), "rounds": len(zero),
                     "last_round_s": last, "since": since})  # fmt: skip
    return pd.DataFrame(rows, columns=["key", "stored", "rounds", "last_round_s", "since"])


def out_of_time_trials(trials: pd.DataFrame, iterations: pd.DataFrame) -> pd.DataFrame:
    """One row per trial out of time, with its size, ``rounds``, ``last_round_s`` (NaN: no
    round), ``since``, and the flags ``_unstored`` (fewer solves stored than made) and
    ``_stalled``; empty where no trial ran out of time or no solve is stored."""
    out_of_time = tables.with_size(trials[trials["status"] == "timeout"])
    if out_of_time.empty or iterations.empty:
        return pd.DataFrame()
    per_trial = out_of_time.merge(_trial_rounds(iterations), on="key", how="left")
    per_trial["rounds"] = per_trial["rounds"].fillna(0).astype(int)
    stored = per_trial["stored"].fillna(0)
    # Without the solve count (an older store) every stored row is taken as all there was.
    made = per_trial["iterations"] if "iterations" in per_trial else stored
    unstored = stored.lt(made.fillna(0))
    stalled = (
        ~unstored
        & per_trial["rounds"].gt(0)
        & per_trial["last_round_s"].lt(STALL_FRACTION * per_trial["time_limit_s"])
    )
    return per_trial.assign(_stalled=stalled, _unstored=unstored)


def shared_out_of_time(data: ReportData) -> pd.DataFrame:
    """:func:`out_of_time_trials` of the report's data, made once for the table, the page
    section and the figure (a second or so on a 3,000-trial store)."""
    return data.shared("out_of_time", lambda: out_of_time_trials(data.trials, data.iterations))


def timeouts(trials: pd.DataFrame, iterations: pd.DataFrame) -> pd.DataFrame:
    """Per board size and cell with a trial out of time: ``out_of_time``, ``unstored``,
    ``never``, ``stalled`` and ``cutting`` (counts), ``rounds`` (median energy-0 solves of those
    trials), and over the stalled ones ``last_round_s`` and ``since`` (medians: the time into
    the trial of the last round, the solves after it). Smallest board first."""
    return summarise_out_of_time(out_of_time_trials(trials, iterations))


def shared_timeouts(data: ReportData) -> pd.DataFrame:
    """:func:`timeouts` of the report's data, from :func:`shared_out_of_time`."""
    return data.shared("timeouts", lambda: summarise_out_of_time(shared_out_of_time(data)))


def summarise_out_of_time(per_trial: pd.DataFrame) -> pd.DataFrame:
    """:func:`timeouts` from the rows of :func:`out_of_time_trials`."""
    if per_trial.empty:
        return per_trial
    rows = []
    for key, g in per_trial.groupby(tables.SIZE_KEYS, sort=False):
        s = g[g["_stalled"]]
        lost = int(g["_unstored"].sum())
        never = int((g["rounds"].eq(0) & ~g["_unstored"]).sum())
        rows.append({**dict(zip(tables.SIZE_KEYS, key, strict=True)),
                     "out_of_time": len(g), "unstored": lost, "never": never,
                     "stalled": len(s), "cutting": len(g) - lost - never - len(s),
                     "rounds": float(g.loc[~g["_unstored"], "rounds"].median()),
                     "last_round_s": float(s["last_round_s"].median()) if len(s) else np.nan,
                     "since": float(s["since"].median()) if len(s) else np.nan,
                     "_cells": g["cells"].iloc[0]})  # fmt: skip
    others = [k for k in tables.SIZE_KEYS if k != "size"]
    return tables.smallest_first(pd.DataFrame(rows), others).drop(columns="_cells")


def timeouts_grid(rows: pd.DataFrame) -> pd.DataFrame:
    """:func:`timeouts` as text ("–": no stalled trial in the group)."""
    out = rows[tables.SIZE_KEYS].rename(columns={"form_variant": "form"}).astype(str)
    out["out of time"] = rows["out_of_time"].astype(str)
    if rows["unstored"].any():
        out["solves not stored"] = rows["unstored"].astype(str)
    out["never at energy 0"] = rows["never"].astype(str)
    out["stalled"] = rows["stalled"].astype(str)
    out["still cutting"] = rows["cutting"].astype(str)
    out["rounds"] = rows["rounds"].map(render.fmt)
    out["last round at (s), stalled"] = rows["last_round_s"].map(render.fmt)
    out["solves since, stalled"] = rows["since"].map(render.fmt)
    return out


class Timeouts(ReportItem):
    """``timeouts`` (Markdown, LaTeX, CSV): the trials out of time, never at energy 0,
    stalled or still cutting; where some trial ran out of time and the solves are stored."""

    name = "timeouts"
    kind = "table"
    needs = ("trials", "iterations")
    order = 64

    def applies(self, data: ReportData) -> bool:
        return not data.iterations.empty and bool((data.trials["status"] == "timeout").any())

    def write(self, data: ReportData) -> list[Path]:
        rows = shared_timeouts(data)
        caption = f"{TIMEOUTS_CAPTION} {data.note}".strip()
        return write_grid(timeouts_grid(rows), rows, data.out, self.name, caption)


def last_round_figure(trials: pd.DataFrame, iterations: pd.DataFrame, out: Path) -> list[Path]:
    """When the trials out of time made their last round of cuts: per board size a panel, per
    cell the fraction of its trials out of time (solves all stored) whose last energy-0 solve
    came by each fraction of the budget. A curve flat after the dotted half-way line is a
    cell that stalled; its height at the right edge is 1 less the share never at energy 0."""
    return _draw_last_round(out_of_time_trials(trials, iterations), trials, out)


def _draw_last_round(per_trial: pd.DataFrame, trials: pd.DataFrame, out: Path) -> list[Path]:
    """:func:`last_round_figure` from the rows of :func:`out_of_time_trials`."""
    per_trial = per_trial[~per_trial["_unstored"]] if len(per_trial) else per_trial
    if per_trial.empty:  # nothing to draw (LastRoundFigure.applies says so first)
        return []
    styles = Styles(trials)
    ordered = tables.smallest_first(per_trial.assign(_cells=per_trial["cells"]), [])
    sizes = list(dict.fromkeys(ordered["size"]))
    fig, axes = panel_grid(len(sizes))
    for ax, size in zip(axes.ravel(), sizes, strict=False):
        d = per_trial[per_trial["size"] == size]
        for (form, backend), g in d.groupby(["form_variant", "backend"], sort=False):
            at = np.sort((g["last_round_s"] / g["time_limit_s"]).dropna().to_numpy())
            st = styles.cell(form, backend)
            label = f"{form} / {backend} ({len(at)} of {len(g)} cut)"
            x = np.r_[0.0, np.clip(at, 0.0, 1.0), 1.0]
            y = np.r_[0.0, np.arange(1, len(at) + 1), len(at)] / len(g)
            ax.step(x, y, where="post", label=label, color=st["color"],
                    linestyle=st["linestyle"], marker=st["marker"], markevery=[len(x) - 1],
                    ms=4)  # fmt: skip
        ax.axvline(STALL_FRACTION, color="#777777", linestyle=":", lw=0.8)
        ax.set_xlim(0, 1.0)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("time into the trial / its budget")
        ax.grid(alpha=0.3)
        legend(ax, fontsize=6, loc="best")
        ax.set_title(f"{size}: {len(d)} trial{'s' if len(d) > 1 else ''} out of time", fontsize=8)
    for row in axes:
        row[0].set_ylabel("fraction of trials out of time\nwith their last round by then")
    fig.tight_layout()
    return save_figure(fig, provenance_note(trials), out, "last_round")


class LastRoundFigure(ReportItem):
    """``last_round``: when the trials out of time made their last round of cuts, per board
    size and cell; where some trial ran out of time and its solves are stored."""

    name = "last_round"
    kind = "figure"
    needs = ("trials", "iterations")
    order = 65

    def applies(self, data: ReportData) -> bool:
        if not Timeouts().applies(data):
            return False
        per_trial = shared_out_of_time(data)
        return not (per_trial.empty or per_trial["_unstored"].all())

    def write(self, data: ReportData) -> list[Path]:
        return _draw_last_round(shared_out_of_time(data), data.trials, data.out)
