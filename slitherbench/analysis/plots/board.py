"""One trial's iterations drawn on its board, the answer loop highlighted."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from slitherbench.analysis.plots.base import ReportData, ReportItem
from slitherbench.analysis.plots.style import save_figure
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits


def draw_board(
    ax: plt.Axes,
    puzzle: Puzzle,
    loops: Sequence[Sequence[int]],
    answer_loop: Sequence[int] | None = None,
) -> None:
    """Clues, grid points, each loop (grey dashes) and the answer loop (thick black), on any
    board, from its coordinates (:func:`slitherbench.puzzles.drawing.draw_board`)."""
    from slitherbench.puzzles.drawing import draw_board as draw

    draw(ax, puzzle, loops, answer_loop)


def _aspect(p: Puzzle) -> float:
    """Height over width of the board's drawing."""
    pts = np.asarray(p.drawing_board.points, dtype=float)
    return float(np.ptp(pts[:, 1]) / max(np.ptp(pts[:, 0]), 1e-9))


def board_figure(
    trial: pd.Series,
    iterations: pd.DataFrame,
    out: Path,
    stem: str = "board_iterations",
    max_panels: int = 12,
) -> list[Path]:
    """Each iteration's loops on the board (energy-0 iterations), the answer loop highlighted."""
    from slitherbench.puzzles.check import split_loops

    p = Puzzle.parse(str(trial["puzzle_rows"]), name=str(trial["puzzle"]))
    its = drawable(iterations)
    its = its[its.key == trial["key"]].sort_values("iteration")
    if len(its) > max_panels:  # first and last iterations matter most
        its = pd.concat([its.head(max_panels // 2), its.tail(max_panels - max_panels // 2)])
    answer = None
    if trial["status"] == "solved" and trial["answer"]:
        a = answer_from_bits(p, str(trial["answer"]))
        answer = [e for e, x in enumerate(a) if x]
    n = max(1, len(its))
    ncols = min(4, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(2.6 * ncols, 2.6 * nrows * _aspect(p) + 0.4),
        squeeze=False,
    )
    for ax in axes.ravel():
        ax.axis("off")
    for ax, (_, it) in zip(axes.ravel(), its.iterrows(), strict=False):
        edges = answer_from_bits(p, str(it["edges"]))
        loops = split_loops(p, edges)
        sizes = p.draw_sample(ax, loops, answer, edges)
        if sizes is None:
            draw_board(ax, p, loops, answer)
            sizes = " ".join(str(len(lp)) for lp in loops)
        ax.set_title(f"iteration {int(it['iteration'])}: loops {sizes}", fontsize=7)
    fig.suptitle(
        f"{trial['puzzle']} — {trial['form_variant']} / {trial['backend']}, seed {trial['seed']}: {trial['status']}",
        fontsize=9,
    )
    fig.tight_layout()
    note = f"experiment {trial.get('experiment', '?')}; config {trial.get('config_hash', '?')}; trial {trial['key']}"
    return save_figure(fig, note, out, stem)


def drawable(iterations: pd.DataFrame) -> pd.DataFrame:
    """The energy-0 iterations whose sample is stored. A kept store drops each solve's
    sample, so a store extended from one holds trials with and without samples."""
    if not {"key", "energy", "edges"} <= set(iterations.columns):  # none stored, or no samples
        return pd.DataFrame(columns=["key", "iteration", "energy", "edges"])
    return iterations[(iterations.energy == 0) & iterations["edges"].notna()]


def pick_board_trial(trials: pd.DataFrame, iterations: pd.DataFrame) -> pd.Series | None:
    """The solved trial with the most energy-0 iterations (ties: fewest retries, then key),
    among those whose samples are stored (:func:`drawable`); None if there is none."""
    ok = trials[trials.status == "solved"]
    zero = drawable(iterations).groupby("key").size()
    ok = ok[ok["key"].isin(zero.index)]
    if ok.empty:
        return None
    ok = ok.assign(_zero=ok["key"].map(zero))
    return ok.sort_values(["_zero", "retries", "key"], ascending=[False, True, True]).iloc[0]


class BoardIterations(ReportItem):
    """``board_iterations``: the trial ``--board-trial`` names, or the solved trial with the
    most energy-0 iterations (:func:`pick_board_trial`); a trial whose samples are
    stored. A ``--board-trial`` that names no trial of the store is one error line."""

    name = "board_iterations"
    needs = ("trials", "iterations")
    order = 150

    def chosen(self, data: ReportData) -> pd.Series | None:
        trials, key = data.sized, data.board_trial
        if key and key not in set(trials["key"]):
            raise ValueError(f"--board-trial {key}: no such trial key in the store")
        return (
            trials[trials.key == key].iloc[0] if key else pick_board_trial(trials, data.iterations)
        )

    def applies(self, data: ReportData) -> bool:
        chosen = self.chosen(data)
        return chosen is not None and chosen["key"] in set(drawable(data.iterations)["key"])

    def write(self, data: ReportData) -> list[Path]:
        return board_figure(self.chosen(data), data.iterations, data.out)
