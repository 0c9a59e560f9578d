"""What every figure shares: one colour, line style and marker per formulation, backend and
series across the figures made from the same trials (readable in black and white), the
provenance footer and the files (PNG and PDF) a figure is saved as, the ECDF with its
confidence band, and panel titles that say which board sizes a panel pools. No matplotlib
backend is chosen here: the command-line entry points choose a file backend, a notebook
keeps its inline one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

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
        # the distinct pairs first: a store holds thousands of trials per cell
        pairs = trials[["form_variant", "backend"]].drop_duplicates()
        self.forms = sorted(set(map(str, pairs["form_variant"])))
        self.backends = sorted(set(map(str, pairs["backend"])))
        self.cells = sorted(
            {f"{f} / {b}" for f, b in zip(pairs["form_variant"], pairs["backend"], strict=True)}
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
    """The experiments, config hashes and number of trials a figure was drawn from."""
    exps = (
        ",".join(sorted(map(str, trials["experiment"].unique()))) if "experiment" in trials else "?"
    )
    hashes = sorted(map(str, trials["config_hash"].unique())) if "config_hash" in trials else []
    shown = ", ".join(hashes[:3]) + (", …" if len(hashes) > 3 else "")
    return (
        f"experiment {exps}; {len(hashes)} config hash(es): {shown} (all in manifest.json); "
        f"{len(trials)} trials"
    )


def legend(ax: plt.Axes, **kw: object) -> None:
    if ax.get_legend_handles_labels()[0]:  # a panel whose cells all skipped has no lines
        ax.legend(**kw)


def save_figure(fig: plt.Figure, note: str, out: Path, stem: str) -> list[Path]:
    """``out/stem.png`` and ``.pdf``, the provenance ``note`` in the footer and metadata."""
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


# An ECDF drawn from more values than this is drawn through this many of them, evenly spaced
# in rank (the last kept): a 100,000-trial store's curves draw as fast as a small one's and
# look the same (the 95% band is wider than the largest step left out).
MAX_STEPS = 2000


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
    if len(xs) > MAX_STEPS:  # thinned: each dropped rise is under 1/MAX_STEPS of the axis
        keep = np.unique(np.linspace(0, len(xs) - 1, MAX_STEPS).round().astype(int))
        xs, frac = xs[keep], frac[keep]
    x = np.r_[x0, xs]
    y = np.r_[0.0, frac]
    eps = np.sqrt(np.log(2 / 0.05) / (2 * n_ran))  # Dvoretzky-Kiefer-Wolfowitz
    ax.step(x, y, where="post", label=lab, color=style["color"], linestyle=style["linestyle"])
    for bound in (np.clip(y - eps, 0, 1), np.clip(y + eps, 0, 1)):
        ax.step(x, bound, where="post", color=style["color"], linestyle=":", lw=0.8, alpha=0.7)
    ax.plot(xs, frac, style["marker"], color=style["color"], ms=3, markevery=max(1, len(xs) // 25))


def panel_grid(n: int, ncols: int = 4) -> tuple[plt.Figure, np.ndarray]:
    """A figure of ``n`` panels sharing the y axis, at most ``ncols`` to a row (4.2 x 3.0
    inches each), the spare axes of the last row hidden; the axes as a 2-D array."""
    ncols = min(ncols, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(4.2 * ncols, 3.0 * nrows), squeeze=False, sharey=True
    )
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    return fig, axes


def _sizes_of(d: pd.DataFrame) -> list[str]:
    """The board sizes of these trials, smallest first (``5x5``; other boards by label)."""
    d = d[[c for c in ("size", "rows", "cols") if c in d]].drop_duplicates()  # first seen kept
    if "size" not in d:
        d = d.assign(size=d["rows"].astype(str) + "x" + d["cols"].astype(str))
    cells = d["rows"] * d["cols"]
    return list(dict.fromkeys(d.assign(_c=cells).sort_values("_c", kind="stable")["size"]))


def panel_title(name: object, d: pd.DataFrame, panel: str) -> str:
    """The panel's name, and the board sizes it pools when it holds more than one."""
    sizes = _sizes_of(d) if len(d) else []
    if panel in ("size", "puzzle") or len(sizes) < 2:
        return str(name)
    shown = ", ".join(sizes[:4]) + (", ..." if len(sizes) > 4 else "")
    return f"{name}: {len(sizes)} sizes pooled ({shown})"


MAX_PANELS = 12  # beyond this many puzzles, per-puzzle figures are drawn per board size


def puzzle_panel(trials: pd.DataFrame) -> str:
    """What a per-puzzle figure's panels are: ``puzzle``, or ``size`` past :data:`MAX_PANELS`
    puzzles."""
    return "puzzle" if trials["puzzle"].nunique() <= MAX_PANELS else "size"
