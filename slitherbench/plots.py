"""Figures from the tidy tables. Every formulation keeps one colour, line style and marker,
every backend one colour, across all figures, so they read in black and white too."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd

from .puzzle import Puzzle, answer_from_bits

# Styles are assigned from the sorted names present, so a new formulation or backend needs
# no entry here and the same table always draws the same way.
COLORS = (
    "#1b9e77",
    "#d95f02",
    "#7570b3",
    "#e7298a",
    "#66a61e",
    "#e6ab02",
    "#a6761d",
    "#1f77b4",
    "#000000",
    "#8c564b",
    "#17becf",
)
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 2)))
MARKERS = ("o", "s", "D", "^", "v", "*", "x", "P", "h", "<", ">")


def _pick(name: str, names: Sequence[str], values: Sequence) -> object:
    ordered = sorted(set(map(str, names)) | {name})
    return values[ordered.index(name) % len(values)]


class Styles:
    """Every formulation keeps one colour, line style and marker, every backend one colour
    and marker, across all figures made from the same trials (readable in black and white)."""

    def __init__(self, trials: pd.DataFrame) -> None:
        self.forms = sorted(set(map(str, trials["form_variant"])))
        self.backends = sorted(set(map(str, trials["backend"])))

    def form(self, form: str) -> dict:
        return {
            "color": _pick(form, self.forms, COLORS),
            "linestyle": _pick(form, self.forms, LINESTYLES),
            "marker": _pick(form, self.forms, MARKERS),
        }

    def cell(self, form: str, backend: str) -> dict:
        """Line style from the formulation, colour and marker from the backend."""
        return {
            "color": _pick(backend, self.backends, COLORS[::-1]),
            "linestyle": self.form(form)["linestyle"],
            "marker": _pick(backend, self.backends, MARKERS[::-1]),
        }


def provenance_note(trials: pd.DataFrame) -> str:
    exps = (
        ",".join(sorted(map(str, trials["experiment"].unique()))) if "experiment" in trials else "?"
    )
    hashes = sorted(map(str, trials["config_hash"].unique())) if "config_hash" in trials else []
    shown = ", ".join(hashes[:3]) + (", …" if len(hashes) > 3 else "")
    return (
        f"experiment {exps}; {len(hashes)} config hash(es): {shown} (all in manifest.json); "
        f"{len(trials)} trials"
    )


def _finish(fig: plt.Figure, note: str, out: Path, stem: str) -> list[Path]:
    fig.text(0.01, 0.005, note, fontsize=6, color="#555555", ha="left", va="bottom")
    paths = []
    for ext in ("png", "pdf"):
        p = out / f"{stem}.{ext}"
        meta = (
            {"Title": stem, "Subject": note}
            if ext == "pdf"
            else {"Title": stem, "Description": note}
        )
        fig.savefig(p, dpi=150, bbox_inches="tight", metadata=meta)
        paths.append(p)
    plt.close(fig)
    return paths


def _ecdf(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = np.sort(x)
    return x, np.arange(1, len(x) + 1) / len(x)


def iterations_figure(trials: pd.DataFrame, out: Path, panel: str = "backend") -> list[Path]:
    """ECDF of iteration counts of solved trials, one line per formulation, one panel per
    backend (or puzzle)."""
    ok = trials[trials.status == "solved"]
    styles = Styles(trials)
    panels = list(dict.fromkeys(trials[panel]))
    n = max(1, len(panels))
    fig, axes = plt.subplots(1, n, figsize=(3.2 * n, 2.8), sharey=True, squeeze=False)
    for ax, name in zip(axes[0], panels, strict=False):
        d = ok[ok[panel] == name]
        for form in dict.fromkeys(trials.form_variant):
            x = d.loc[d.form_variant == form, "iterations"].to_numpy()
            total = int(((trials[panel] == name) & (trials.form_variant == form)).sum())
            if total == 0:
                continue
            st = styles.form(form)
            if len(x):
                xs, ys = _ecdf(x)
                ax.step(
                    np.r_[0, xs],
                    np.r_[0, ys * len(x) / total],
                    where="post",
                    label=f"{form} ({len(x)}/{total})",
                    color=st["color"],
                    linestyle=st["linestyle"],
                )
                ax.plot(xs, ys * len(x) / total, st["marker"], color=st["color"], ms=3)
            else:
                ax.plot(
                    [],
                    [],
                    label=f"{form} (0/{total})",
                    color=st["color"],
                    linestyle=st["linestyle"],
                )
        ax.set_title(str(name), fontsize=9)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_xlabel("iterations to the answer")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=6, loc="lower right")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("fraction of trials solved")
    fig.tight_layout()
    return _finish(fig, provenance_note(trials), out, f"iterations_by_{panel}")


def time_to_solution_figure(trials: pd.DataFrame, out: Path) -> list[Path]:
    """Fraction of trials solved within t seconds (wall clock), per formulation x backend."""
    fig, ax = plt.subplots(figsize=(4.6, 3.2))
    styles = Styles(trials)
    for (form, backend), d in trials.groupby(["form_variant", "backend"], sort=False):
        x = d.loc[d.status == "solved", "wall_s"].to_numpy()
        st = styles.cell(form, backend)
        if not len(x):
            ax.plot([], [], label=f"{form} / {backend} (0/{len(d)})", **st)
            continue
        xs, ys = _ecdf(x)
        frac = ys * len(x) / len(d)
        ax.step(
            xs,
            frac,
            where="post",
            color=st["color"],
            linestyle=st["linestyle"],
            label=f"{form} / {backend} ({len(x)}/{len(d)})",
        )
        ax.plot(xs, frac, st["marker"], color=st["color"], ms=3)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.set_xlabel("wall time per trial (s)")
    ax.set_ylabel("fraction of trials solved")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=6, loc="upper left")
    fig.tight_layout()
    return _finish(fig, provenance_note(trials), out, "time_to_solution")


def scaling_figure(trials: pd.DataFrame, out: Path) -> list[Path]:
    """Median iterations and wall time against board size, with 25-75 % bands (solved trials)."""
    t = trials.assign(cells=trials["rows"] * trials["cols"])
    ok = t[t.status == "solved"]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(8, 3.2))
    styles = Styles(trials)
    for (form, backend), d in ok.groupby(["form_variant", "backend"], sort=False):
        st = styles.cell(form, backend)
        for ax, col in ((a1, "iterations"), (a2, "wall_s")):
            g = d.groupby("cells")[col]
            x = np.array(sorted(g.groups))
            med = g.median().reindex(x).to_numpy()
            lo, hi = g.quantile(0.25).reindex(x).to_numpy(), g.quantile(0.75).reindex(x).to_numpy()
            ax.plot(x, med, label=f"{form} / {backend}", **st)
            ax.fill_between(x, lo, hi, color=st["color"], alpha=0.15)
    for ax, lab in ((a1, "iterations (median, 25-75 %)"), (a2, "wall time per trial (s)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        # Board sizes read as plain numbers (25, 100, 720), not 3x10^1.
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("board size (cells, R x C)")
        ax.set_ylabel(lab)
        ax.grid(alpha=0.3, which="both")
    a1.legend(fontsize=6)
    fig.tight_layout()
    return _finish(fig, provenance_note(trials), out, "scaling")


def draw_board(
    ax: plt.Axes,
    puzzle: Puzzle,
    loops: Sequence[Sequence[int]],
    answer_loop: Sequence[int] | None = None,
) -> None:
    """Clues, grid points, each loop (grey dashes) and the answer loop (thick black)."""
    R, C = puzzle.rows, puzzle.cols
    ax.set_xlim(-0.3, C + 0.3)
    ax.set_ylim(R + 0.3, -0.3)
    ax.set_aspect("equal")
    ax.axis("off")
    ii, jj = np.meshgrid(range(R + 1), range(C + 1), indexing="ij")
    ax.plot(jj.ravel(), ii.ravel(), ".", color="#888888", ms=2)
    for i, row in enumerate(puzzle.clues):
        for j, n in enumerate(row):
            if n is not None:
                ax.text(
                    j + 0.5,
                    i + 0.5,
                    str(n),
                    ha="center",
                    va="center",
                    fontsize=max(4, 60 / max(R, C)),
                )
    ans = set(answer_loop or ())
    C1 = C + 1
    for loop in loops:
        is_answer = bool(ans) and set(loop) == ans
        for e in loop:
            a, b = puzzle.edge_points[e]
            y = [a // C1, b // C1]
            x = [a % C1, b % C1]
            if is_answer:
                ax.plot(x, y, color="black", lw=2.2, solid_capstyle="round")
            else:
                ax.plot(x, y, color="#777777", lw=1.2, linestyle=(0, (2, 1.5)))


def board_figure(
    trial: pd.Series,
    iterations: pd.DataFrame,
    out: Path,
    stem: str = "board_iterations",
    max_panels: int = 12,
) -> list[Path]:
    """Each iteration's loops on the board (energy-0 iterations), the answer loop highlighted."""
    from .check import split_loops

    p = Puzzle.parse(str(trial["puzzle_rows"]), name=str(trial["puzzle"]))
    its = iterations[iterations.key == trial["key"]].sort_values("iteration")
    its = its[its.energy == 0]
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
        figsize=(2.6 * ncols, 2.6 * nrows * p.rows / max(p.cols, 1) + 0.4),
        squeeze=False,
    )
    for ax in axes.ravel():
        ax.axis("off")
    for ax, (_, it) in zip(axes.ravel(), its.iterrows(), strict=False):
        edges = answer_from_bits(p, str(it["edges"]))
        loops = split_loops(p, edges)
        draw_board(ax, p, loops, answer)
        sizes = " ".join(str(len(lp)) for lp in loops)
        ax.set_title(f"iteration {int(it['iteration'])}: loops {sizes}", fontsize=7)
    fig.suptitle(
        f"{trial['puzzle']} — {trial['form_variant']} / {trial['backend']}, seed {trial['seed']}: {trial['status']}",
        fontsize=9,
    )
    fig.tight_layout()
    note = f"experiment {trial.get('experiment', '?')}; config {trial.get('config_hash', '?')}; trial {trial['key']}"
    return _finish(fig, note, out, stem)


def pick_board_trial(trials: pd.DataFrame, iterations: pd.DataFrame) -> pd.Series | None:
    """The solved trial with the most energy-0 iterations (ties: fewest retries, then key)."""
    ok = trials[trials.status == "solved"]
    if ok.empty:
        return None
    zero = iterations[iterations.energy == 0].groupby("key").size()
    ok = ok.assign(_zero=ok["key"].map(zero).fillna(0))
    return ok.sort_values(["_zero", "retries", "key"], ascending=[False, True, True]).iloc[0]
