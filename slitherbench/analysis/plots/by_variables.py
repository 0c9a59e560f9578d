"""Board by board: what a board leaves the solver, against how often the solver solves it.

Boards of one size differ: the presolve settles more of one than of another, so the model a
backend is given at the first solve (``first_variables``) differs too. Per cell, each board
is one point, its solved share against the variables left at its first solve (the median over
its trials), coloured by its grade; a logistic fit over the boards (binomial, its scale taken
from the boards' spread, so a board's seeds are not counted as independent) gives the number
of variables at which the cell solves half its trials, with a 95% interval (delta method).
Shown where some cell ran at least :data:`stats.BOOTSTRAP_MIN_BOARDS` boards with recorded
model sizes."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from slitherbench.analysis import stats, tables
from slitherbench.analysis.plots.base import ReportData, ReportItem, ran_only, write_grid
from slitherbench.analysis.plots.by_grade import graded
from slitherbench.analysis.plots.style import legend, provenance_note, save_figure

GRADE_COLORS = {"rules": "#1b9e77", "lookahead1": "#d95f02", "lookahead2": "#7570b3",
                "beyond": "#e7298a"}  # fmt: skip


def board_points(trials: pd.DataFrame) -> pd.DataFrame:
    """One row per cell and board that ran with a recorded model size: solved, ran, the
    solved share, the median variables at the first solve, the grade and the size."""
    t = ran_only(graded(trials))
    if "first_variables" not in t:
        return pd.DataFrame()
    t = t[t["first_variables"].notna() & (t["first_variables"] > 0)]
    if t.empty:
        return pd.DataFrame()
    out = tables.per_board(
        t, ["form_variant", "backend", "puzzle"], False, variables=("first_variables", "median"),
        grade=("grade", "first"), size=("size", "first"), cells=("cells", "first"),
    )  # fmt: skip
    out["share"] = out["solved"] / out["ran"]
    return out.reset_index()


def half_point(boards: pd.DataFrame) -> dict[str, float]:
    """The logistic fit of the boards' solved shares on their variables: intercept, slope per
    variable and the variables at a share of 1/2 with its 95% interval (delta method, the
    binomial scale estimated from the boards' Pearson chi-square, at least 1). NaN where
    the fit has nothing to say: fewer than the minimum boards, every board solved alike, a
    slope that does not fall, or a fit that does not converge."""
    nan = {"intercept": math.nan, "slope": math.nan, "half": math.nan, "half_lo": math.nan,
           "half_hi": math.nan}  # fmt: skip
    if len(boards) < stats.BOOTSTRAP_MIN_BOARDS or boards["share"].nunique() < 2:
        return nan
    import statsmodels.api as sm  # seconds to import: lazily

    x = sm.add_constant(boards["variables"].to_numpy(float))
    y = np.column_stack([boards["solved"], boards["ran"] - boards["solved"]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # perfect separation and friends: judged below
        try:
            fit = sm.GLM(y, x, family=sm.families.Binomial()).fit()
            # read inside: a steep fit's fitted shares overflow to 0 or 1 as they are computed
            chi2, cov = float(fit.pearson_chi2), np.asarray(fit.cov_params())
        except Exception:  # a fit that fails says nothing; the points stay
            return nan
    b0, b1 = (float(v) for v in fit.params)
    if not fit.converged or not b1 < 0 or not np.isfinite([b0, b1]).all():
        return nan
    cov = cov * max(1.0, chi2 / max(fit.df_resid, 1))
    half = -b0 / b1
    grad = np.array([-1 / b1, b0 / b1**2])  # d half / d (b0, b1)
    se = float(np.sqrt(grad @ cov @ grad))
    from scipy.stats import norm

    z = float(norm.ppf(1 - stats.ALPHA / 2))
    return {"intercept": b0, "slope": b1, "half": half, "half_lo": half - z * se,
            "half_hi": half + z * se}  # fmt: skip


def half_points(points: pd.DataFrame) -> pd.DataFrame:
    """Per cell of :func:`board_points`: its boards and :func:`half_point`."""
    if points.empty:
        return pd.DataFrame()
    rows = []
    for (form, backend), d in points.groupby(["form_variant", "backend"], sort=False):
        rows.append({"form_variant": form, "backend": backend, "boards": len(d),
                     "solved": int(d["solved"].sum()), "ran": int(d["ran"].sum()),
                     "variables_min": float(d["variables"].min()),
                     "variables_max": float(d["variables"].max()), **half_point(d)})  # fmt: skip
    return pd.DataFrame(rows)


CAPTION = (
    "Per formulation x backend, board by board: the boards it ran, the variables left at "
    "their first solve (board medians over the trials; after the presolve where there is "
    "one), and the number of variables at which it solves half its trials, from a logistic "
    "fit of each board's solved share on its variables (binomial, the scale taken from the "
    "boards' spread so that a board's seeds do not count as independent; 95% interval by the "
    "delta method; a bound past the boards' range shown as <lowest or >highest, a half point "
    "past it as below or above the range; '–' where the fit says nothing: too few boards, a "
    "slope that does not fall, or none or all solved)."
)


def half_text(row: pd.Series | dict) -> str:
    """The half point as the table gives it: "359 [342, 376]"; a bound past the boards'
    range of variables as "<lo" or ">hi" (the fit says nothing there); a half point outside
    that range as "below LO" or "above HI" (every board solved more, or less, than half the
    time at the sizes run); "–" where the fit says nothing."""
    half, lo, hi = row["half"], row["half_lo"], row["half_hi"]
    low, high = row["variables_min"], row["variables_max"]
    if half != half:
        return "–"
    if half < low:
        return f"below {low:.0f}"
    if half > high:
        return f"above {high:.0f}"
    left = f"<{low:.0f}" if lo < low else f"{lo:.0f}"
    right = f">{high:.0f}" if hi > high else f"{hi:.0f}"
    return f"{half:.0f} [{left}, {right}]"


def half_grid(rows: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "Form": rows.form_variant, "Backend": rows.backend, "Boards": rows.boards,
        "Solved": rows.solved.astype(str) + "/" + rows.ran.astype(str),
        "Variables (boards)": [f"{a:.0f}-{b:.0f}" for a, b in
                               zip(rows.variables_min, rows.variables_max, strict=True)],
        "Half solved at": [half_text(r) for _, r in rows.iterrows()],
    })  # fmt: skip


def shared_board_points(data: ReportData) -> pd.DataFrame:
    """:func:`board_points` of ``data``, made once per report (table, figure and page)."""
    return data.shared("board_points", lambda: board_points(data.sized))


def shared_half_points(data: ReportData) -> pd.DataFrame:
    """:func:`half_points` of ``data``, made once per report (table, figure and page)."""
    return data.shared("half_points", lambda: half_points(shared_board_points(data)))


def _applies(data: ReportData) -> bool:
    points = shared_board_points(data)
    if points.empty:
        return False
    return bool(
        (points.groupby(["form_variant", "backend"]).size() >= stats.BOOTSTRAP_MIN_BOARDS).any()
    )


class TableByVariables(ReportItem):
    """``table_by_variables``: per cell, the variables at which it solves half its trials,
    fitted over its boards."""

    name = "table_by_variables"
    kind = "table"
    order = 34

    def applies(self, data: ReportData) -> bool:
        return _applies(data)

    def write(self, data: ReportData) -> list[Path]:
        rows = shared_half_points(data)
        return write_grid(half_grid(rows), rows, data.out, self.name, f"{CAPTION} {data.note}")


class FigureByVariables(ReportItem):
    """``solved_by_variables``: one panel per cell that ran enough boards, each board its
    solved share against the variables left at its first solve, coloured by grade, with the
    logistic fit and the half point."""

    name = "solved_by_variables"
    kind = "figure"
    order = 53

    def applies(self, data: ReportData) -> bool:
        return _applies(data)

    def write(self, data: ReportData) -> list[Path]:
        points = shared_board_points(data)
        fits = shared_half_points(data).set_index(["form_variant", "backend"])
        cells = [
            (key, d)
            for key, d in points.groupby(["form_variant", "backend"], sort=False)
            if len(d) >= stats.BOOTSTRAP_MIN_BOARDS  # fewer: the table lists them, no panel
        ]
        cols = min(3, len(cells))
        nrows = math.ceil(len(cells) / cols)
        fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.4 * nrows), squeeze=False)
        for ax in axes.flat[len(cells) :]:
            ax.set_visible(False)
        for ax, ((form, backend), d) in zip(axes.flat, cells, strict=False):
            for grade, g in d.groupby("grade", sort=False):
                ax.scatter(g["variables"], g["share"], s=12 + 4 * g["ran"], alpha=0.7,
                           color=GRADE_COLORS.get(grade, "#666666"), label=grade)  # fmt: skip
            fit = fits.loc[(form, backend)]  # the table's fit and the boards' range
            title = f"{form} / {backend}"
            low, high = fit["variables_min"], fit["variables_max"]
            if low <= fit["half"] <= high:  # the fit draws only inside the boards' range
                xs = np.linspace(low, high, 100)
                from scipy.special import expit  # saturates without overflow on a steep fit

                ax.plot(xs, expit(fit["intercept"] + fit["slope"] * xs), color="black", lw=1)
                ax.axvspan(fit["half_lo"], fit["half_hi"], color="#999999", alpha=0.2, lw=0)
                ax.axvline(fit["half"], color="black", ls=":", lw=1)
            if fit["half"] == fit["half"]:
                title += f"\nhalf solved at (variables): {half_text(fit)}"
            ax.set_title(title, fontsize=9)
            pad = max(1.0, 0.04 * (high - low))
            ax.set_xlim(low - pad, high + pad)
            ax.set_ylim(-0.04, 1.04)
            ax.set_xlabel("variables at the first solve (board median)", fontsize=8)
            ax.set_ylabel("board's solved share", fontsize=8)
            ax.grid(alpha=0.3)
            legend(ax, fontsize=7, title="grade", title_fontsize=7)
        fig.tight_layout(rect=(0, 0.04, 1, 1))  # room for the provenance footer
        return save_figure(fig, provenance_note(data.trials), data.out, self.name)
