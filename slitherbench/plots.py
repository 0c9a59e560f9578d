"""Figures from the tidy tables. Every formulation keeps one line style, every backend one
marker, and every formulation x backend series its own colour, across all figures made from
the same trials, so they read in black and white too. Every panel has a title or a legend;
a panel that pools board sizes says so in its title. No matplotlib backend is chosen here:
the command-line entry points choose a file backend, a notebook keeps its inline one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib
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
    "#bcbd22",
    "#8c564b",
    "#17becf",
)
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 2)))
MARKERS = ("o", "s", "D", "^", "v", "*", "x", "P", "h", "<", ">")


def _pick(name: str, names: Sequence[str], values: Sequence) -> object:
    ordered = sorted(set(map(str, names)) | {name})
    return values[ordered.index(name) % len(values)]


class Styles:
    """Every formulation keeps one colour, line style and marker (figures with one line per
    form), every formulation x backend series its own colour, the form's line style and the
    backend's marker, across all figures made from the same trials (readable in black and
    white)."""

    def __init__(self, trials: pd.DataFrame) -> None:
        self.forms = sorted(set(map(str, trials["form_variant"])))
        self.backends = sorted(set(map(str, trials["backend"])))
        self.cells = sorted(
            {f"{f} / {b}" for f, b in zip(trials["form_variant"], trials["backend"], strict=True)}
        )

    def form(self, form: str) -> dict:
        return {
            "color": _pick(form, self.forms, COLORS),
            "linestyle": _pick(form, self.forms, LINESTYLES),
            "marker": _pick(form, self.forms, MARKERS),
        }

    def cell(self, form: str, backend: str) -> dict:
        """The series' own colour, line style from the formulation, marker from the backend."""
        return {
            "color": _pick(f"{form} / {backend}", self.cells, COLORS),
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


def _legend(ax: plt.Axes, **kw: object) -> None:
    if ax.get_legend_handles_labels()[0]:  # a panel whose cells all skipped has no lines
        ax.legend(**kw)


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


def _ran(trials: pd.DataFrame) -> pd.DataFrame:
    # Skipped and error trials never enter a figure's fraction or statistic.
    return trials[trials.status.isin(("solved", "max_iterations", "timeout"))]


def ecdf_with_band(
    ax: plt.Axes, solved_values: np.ndarray, n_ran: int, style: dict, label: str, x0: float = 0.0
) -> None:
    """Fraction of the n_ran trials solved within x, with a 95% DKW confidence band drawn as
    two thin dotted lines of the series' colour (filled bands of several series overlap into
    grey)."""
    if n_ran == 0:
        return
    xs = np.sort(np.asarray(solved_values, dtype=float))
    frac = np.arange(1, len(xs) + 1) / n_ran
    lab = f"{label} ({len(xs)}/{n_ran})"
    if not len(xs):
        ax.plot([], [], label=lab, color=style["color"], linestyle=style["linestyle"])
        return
    x = np.r_[x0, xs]
    y = np.r_[0.0, frac]
    eps = np.sqrt(np.log(2 / 0.05) / (2 * n_ran))  # Dvoretzky-Kiefer-Wolfowitz
    ax.step(x, y, where="post", label=lab, color=style["color"], linestyle=style["linestyle"])
    for bound in (np.clip(y - eps, 0, 1), np.clip(y + eps, 0, 1)):
        ax.step(x, bound, where="post", color=style["color"], linestyle=":", lw=0.8, alpha=0.7)
    ax.plot(xs, frac, style["marker"], color=style["color"], ms=3, markevery=max(1, len(xs) // 25))


def _sizes_of(d: pd.DataFrame) -> list[str]:
    """The board sizes of these trials, smallest first (``5x5``; other boards by label)."""
    if "size" not in d:
        d = d.assign(size=d["rows"].astype(str) + "x" + d["cols"].astype(str))
    cells = d["rows"] * d["cols"]
    return list(dict.fromkeys(d.assign(_c=cells).sort_values("_c", kind="stable")["size"]))


def _panel_title(name: object, d: pd.DataFrame, panel: str) -> str:
    """The panel's name, and the board sizes it pools when it holds more than one."""
    sizes = _sizes_of(d) if len(d) else []
    if panel in ("size", "puzzle") or len(sizes) < 2:
        return str(name)
    shown = ", ".join(sizes[:4]) + (", ..." if len(sizes) > 4 else "")
    return f"{name}: {len(sizes)} sizes pooled ({shown})"


def iterations_figure(trials: pd.DataFrame, out: Path, panel: str = "backend") -> list[Path]:
    """Fraction of the trials that ran solved within k iterations (ECDF with 95% band): one
    panel per backend with a line per formulation (a panel's title says which board sizes it
    pools), or one panel per puzzle (or size) with a line per formulation x backend."""
    ran = _ran(trials)
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
        ax.set_title(_panel_title(name, trials[trials[panel] == name], panel), fontsize=8)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_xlabel("iterations to the answer")
        ax.set_ylim(0, 1.02)
        _legend(ax, fontsize=6, loc="lower right")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("fraction of trials solved\n(dotted: 95% DKW band)")
    fig.tight_layout()
    return _finish(fig, provenance_note(trials), out, f"iterations_by_{panel}")


def time_to_solution_figure(
    trials: pd.DataFrame, out: Path, panel: str | None = None
) -> list[Path]:
    """Time to target: fraction of the trials that ran solved within t seconds (wall clock),
    per formulation x backend, with 95% DKW bands; one panel per backend (titled with the
    sizes it pools), or per puzzle (or size) when ``panel`` says so."""
    ran = _ran(trials)
    styles = Styles(trials)
    by = panel or "backend"
    panels = list(dict.fromkeys(trials[by]))
    ncols = min(4, len(panels))
    nrows = int(np.ceil(len(panels) / ncols))
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(4.2 * ncols, 3.0 * nrows), squeeze=False, sharey=True
    )
    for ax in axes.ravel()[len(panels) :]:
        ax.axis("off")
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
        _legend(ax, fontsize=6, loc="upper left")
        ax.set_title(_panel_title(name, trials[trials[by] == name], by), fontsize=8)
    for row in axes:
        row[0].set_ylabel("fraction of trials solved\n(dotted: 95% DKW band)")
    fig.tight_layout()
    stem = f"time_to_target_by_{panel}" if panel else "time_to_solution"
    return _finish(fig, provenance_note(trials), out, stem)


def _by_size(d: pd.DataFrame) -> np.ndarray:
    """Per board size: cells, success rate and Wilson bounds, TTS99 and its bounds, and the
    median and quartiles of the solved trials' iterations."""
    from . import stats

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
    t = _ran(trials).assign(cells=trials["rows"] * trials["cols"])
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
    _legend(a1, fontsize=6)
    fig.tight_layout()
    return _finish(fig, provenance_note(trials), out, "scaling")


def performance_profile_figure(
    summary: pd.DataFrame, trials: pd.DataFrame, out: Path
) -> list[Path]:
    """Dolan-Moré profile of TTS99 over the suite's puzzles: for each cell, the fraction of
    puzzles on which its TTS99 is within a factor r of the best cell's."""
    from . import stats

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
    _legend(ax, fontsize=6, loc="lower right")
    fig.tight_layout()
    return _finish(fig, provenance_note(trials), out, "performance_profile")


def draw_board(
    ax: plt.Axes,
    puzzle: Puzzle,
    loops: Sequence[Sequence[int]],
    answer_loop: Sequence[int] | None = None,
) -> None:
    """Clues, grid points, each loop (grey dashes) and the answer loop (thick black), on any
    board, from its coordinates (:func:`slitherbench.drawing.draw_board`)."""
    from .drawing import draw_board as draw

    draw(ax, puzzle, loops, answer_loop)


def _aspect(p: Puzzle) -> float:
    """Height over width of the board's drawing (Colorlink: one colour layer's board)."""
    board = p.source.board if p.variant == "colorlink" else p.board  # type: ignore[attr-defined]
    pts = np.asarray(board.points, dtype=float)
    return float(np.ptp(pts[:, 1]) / max(np.ptp(pts[:, 0]), 1e-9))


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
        figsize=(2.6 * ncols, 2.6 * nrows * _aspect(p) + 0.4),
        squeeze=False,
    )
    for ax in axes.ravel():
        ax.axis("off")
    for ax, (_, it) in zip(axes.ravel(), its.iterrows(), strict=False):
        edges = answer_from_bits(p, str(it["edges"]))
        loops = split_loops(p, edges)
        if p.variant == "colorlink":  # each colour's lines in its colour on the one board
            sizes = _draw_colorlink_iteration(ax, p, edges, loops)
        else:
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


def _draw_colorlink_iteration(ax: plt.Axes, p: Puzzle, edges: list[bool], loops: list) -> str:
    """One Colorlink iteration drawn on its board; returns the loop sizes per colour."""
    from .colorlink.drawing import draw_colorlink

    draw_colorlink(ax, p.source, p.colour_answer(edges))  # type: ignore[attr-defined]
    E = p.source.board.num_edges  # type: ignore[attr-defined]
    return ", ".join(
        f"{c} " + " ".join(str(len(lp)) for lp in loops if lp[0] // E == k)
        for k, c in enumerate(p.colours)  # type: ignore[attr-defined]
    )


def pick_board_trial(trials: pd.DataFrame, iterations: pd.DataFrame) -> pd.Series | None:
    """The solved trial with the most energy-0 iterations (ties: fewest retries, then key),
    among those whose iterations are stored; None if there is none."""
    ok = trials[trials.status == "solved"]
    if ok.empty or iterations.empty or "energy" not in iterations:
        return None
    zero = iterations[iterations.energy == 0].groupby("key").size()
    ok = ok[ok["key"].isin(zero.index)]
    if ok.empty:
        return None
    ok = ok.assign(_zero=ok["key"].map(zero))
    return ok.sort_values(["_zero", "retries", "key"], ascending=[False, True, True]).iloc[0]


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
        grid[i, j] = r.success
        ax.text(j, i, r.solved, ha="center", va="center", fontsize=7)
        if r.frontier:
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, lw=2, color="k"))
    for i, j in zip(*np.where(np.isnan(grid)), strict=True):
        ax.text(j, i, "-", ha="center", va="center", fontsize=7, color="#777777")
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(sizes)), sizes, fontsize=7)
    ax.set_yticks(range(len(cells)), [f"{f} / {b}" for f, b in cells], fontsize=7)
    ax.set_xlabel("board size; - = none ran (the cell stopped earlier, or was skipped)")
    fig.colorbar(im, ax=ax, fraction=0.03, label="solved / ran")
    fig.tight_layout()
    return _finish(fig, provenance_note(trials), out, "frontier")


def page_iterations_figure(
    trials: pd.DataFrame, out: Path, puzzle: str = "reference10"
) -> list[Path]:
    """The solved trials' iteration counts on the page's board per form x backend (each trial a
    dot, the median a bar), beside the page's reported ranges as shaded bands."""
    from .tables import PAGE_RANGES

    d = trials[(trials.puzzle == puzzle) & (trials.status == "solved")]
    if d.empty:
        return []
    styles = Styles(trials)
    cells = list(dict.fromkeys(zip(d.form_variant, d.backend, strict=True)))
    fig, ax = plt.subplots(figsize=(max(4.5, 1.4 * len(cells) + 2.5), 3.6))
    for (label, (lo, hi)), shade in zip(PAGE_RANGES.items(), ("#9ecae1", "#fdd0a2"), strict=True):
        ax.axhspan(lo, hi, color=shade, alpha=0.35, label=f"{label}: {lo}-{hi}")
    rng = np.random.default_rng(0)
    for k, (form, backend) in enumerate(cells):
        its = d[(d.form_variant == form) & (d.backend == backend)]["iterations"].to_numpy()
        ran = _ran(
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
    top = max([hi for _, hi in PAGE_RANGES.values()] + [int(d["iterations"].max())])
    ax.set_ylim(0, top + 2)
    ax.set_xlim(-0.6, len(cells) - 0.4 + 0.5)
    ax.set_xticks(range(len(cells)), [f"{f}\n{b}" for f, b in cells], fontsize=8)
    ax.set_ylabel("solves to the answer (solved trials)")
    ax.set_title(f"{puzzle}: iterations beside the page's ranges")
    _legend(ax, fontsize=7, loc="lower left")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return _finish(fig, provenance_note(trials), out, "page_iterations")
