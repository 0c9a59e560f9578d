"""By difficulty grade: one table and one figure of each cell's solved rate and iterations
on boards of each deduction grade (the trial's ``grade`` column: the lowest level that
solves the board without assuming uniqueness, :mod:`slitherbench.sources.grades`).

Board sizes are pooled within a grade (grades and sizes go together: the per-size table has
each size). Trials stored before grades were recorded have no grade: the table says "no
grades recorded" when none has one and counts them under ``not recorded`` otherwise; the
figure is drawn only where some trial has a grade."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from slitherbench.analysis import stats
from slitherbench.analysis.plots.base import ReportData, ReportItem, cell_grid, ran_only, write_grid
from slitherbench.analysis.plots.style import Styles, legend, provenance_note, save_figure
from slitherbench.sources.grades import GRADES

NOT_RECORDED = "not recorded"


def graded(trials: pd.DataFrame) -> pd.DataFrame:
    """The trials with their ``grade`` as text: ``not recorded`` where the store has none
    (a store from before grades, or a board the engine does not grade, such as Colorlink)."""
    grade = trials["grade"] if "grade" in trials else pd.Series("", index=trials.index)
    grade = grade.fillna("").astype(str).replace("", NOT_RECORDED)
    return trials.assign(grade=grade)


def has_grades(trials: pd.DataFrame) -> bool:
    return bool(len(trials)) and bool((graded(trials)["grade"] != NOT_RECORDED).any())


def _grade_rank(grade: str) -> int:
    return GRADES.index(grade) if grade in GRADES else len(GRADES)


def by_grade(trials: pd.DataFrame) -> pd.DataFrame:
    """Per cell (form x backend) and grade: boards, the sizes they span, solved, ran, the
    rate with its 95% Wilson interval, and the median iterations of the solved trials with
    their exact bootstrap 95% interval. Skipped and error trials are not counted."""
    t = ran_only(graded(trials))
    if t.empty:
        return pd.DataFrame()
    rows = []
    for (form, backend, grade), g in t.groupby(["form_variant", "backend", "grade"], sort=False):
        solved, ran = int((g.status == "solved").sum()), len(g)
        lo, hi = stats.wilson(solved, ran)
        it_med, it_lo, it_hi = stats.median_ci(g.loc[g.status == "solved", "iterations"])
        span = _size_span(g)
        rows.append(
            {"form_variant": form, "backend": backend, "grade": grade,
             "grade_rank": _grade_rank(grade), "boards": g["puzzle"].nunique(), "sizes": span,
             "solved": solved, "ran": ran, "rate": solved / ran, "rate_lo": lo, "rate_hi": hi,
             "iterations_median": it_med, "iterations_lo": it_lo, "iterations_hi": it_hi}
        )  # fmt: skip
    out = pd.DataFrame(rows).sort_values("grade_rank", kind="stable")
    return out.reset_index(drop=True)


GRADE_CAPTION = (
    "Per formulation x backend and difficulty grade (the lowest deduction level that solves "
    "the board without assuming uniqueness: rules, look-ahead 1, look-ahead 2, or beyond), "
    "board sizes pooled within a grade: solved/ran and the median iterations of the solved "
    "trials (every solve counted); skipped and error trials are not counted. The column head "
    "gives the boards of that grade and their sizes."
)


def _size_span(trials: pd.DataFrame) -> str:
    """The board sizes of ``trials``, smallest to largest (``7x7..15x15``)."""
    sizes = trials.drop_duplicates("puzzle").sort_values("cells", kind="stable")["size"]
    return sizes.iloc[0] if sizes.nunique() == 1 else f"{sizes.iloc[0]}..{sizes.iloc[-1]}"


def _boards_text(trials: pd.DataFrame) -> str:
    n = trials["puzzle"].nunique()
    return f"{n} board{'s' if n != 1 else ''}, {_size_span(trials)}"


def _iterations_text(v: float) -> str:
    return "–" if v != v else f"{v:g} it"


def grade_grid(trials: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The table of :func:`by_grade` as text (a row per cell, a column per grade,
    "solved/ran, median iterations") and the rows it is made from."""
    rows = by_grade(trials)
    heads = {g: f"{g} ({_boards_text(d)})" for g, d in ran_only(graded(trials)).groupby("grade")}
    counts = rows.solved.astype(str) + "/" + rows.ran.astype(str)
    text = rows.assign(
        head=rows["grade"].map(heads),
        text=counts + ", " + rows.iterations_median.map(_iterations_text),
    )
    return cell_grid(text, "head"), rows


class TableByGrade(ReportItem):
    """``table_by_grade``: solved/ran and median iterations per cell and difficulty grade
    (sizes pooled within a grade); a store without grades gets a one-line table saying so."""

    name = "table_by_grade"
    kind = "table"
    order = 32

    def applies(self, data: ReportData) -> bool:
        return len(data.trials) > 0

    def write(self, data: ReportData) -> list[Path]:
        if not has_grades(data.trials):
            path = data.out / f"{self.name}.md"
            path.write_text(
                "No grades recorded: these trials were stored before each board's "
                "difficulty grade was (the trial column `grade`); a new run records it.\n"
            )
            return [path]
        if by_grade(data.sized).empty:
            path = data.out / f"{self.name}.md"
            path.write_text(
                "No trial ran a backend: the presolve settled every board (status "
                "`presolved`), or every trial was skipped or failed.\n"
            )
            return [path]
        grid, rows = grade_grid(data.sized)
        return write_grid(grid, rows, data.out, self.name, f"{GRADE_CAPTION} {data.note}")


class FigureByGrade(ReportItem):
    """``success_by_grade``: solved rate (95% Wilson) and median iterations of the solved
    trials (exact bootstrap 95%) against difficulty grade, one series per cell; only where
    some trial has a grade."""

    name = "success_by_grade"
    kind = "figure"
    order = 52

    def applies(self, data: ReportData) -> bool:
        # nothing to draw where no graded trial ran a backend (every board presolved)
        return has_grades(data.trials) and not by_grade(data.sized).empty

    def write(self, data: ReportData) -> list[Path]:
        rows = by_grade(data.sized)
        styles = Styles(data.trials)
        fig, (rate_ax, it_ax) = plt.subplots(1, 2, figsize=(10.5, 4.2))
        groups = list(rows.groupby(["form_variant", "backend"], sort=False))
        for i, ((form, backend), d) in enumerate(groups):
            st = styles.cell(form, backend)
            x = d.grade_rank.to_numpy() + 0.06 * (i - (len(groups) - 1) / 2)  # side by side
            err = np.array([d.rate - d.rate_lo, d.rate_hi - d.rate])
            rate_ax.errorbar(x, d.rate, yerr=err, capsize=2, label=f"{form} / {backend}", **st)
            solved = d[d.iterations_median.notna()]
            xs = x[d.iterations_median.notna().to_numpy()]
            it_err = np.array(
                [solved.iterations_median - solved.iterations_lo,
                 solved.iterations_hi - solved.iterations_median]
            )  # fmt: skip
            it_ax.errorbar(xs, solved.iterations_median, yerr=np.nan_to_num(it_err), capsize=2,
                           **st)  # fmt: skip
        ticks = rows.drop_duplicates("grade_rank").sort_values("grade_rank")
        for ax in (rate_ax, it_ax):
            ax.set_xticks(ticks.grade_rank, ticks.grade, fontsize=8)
            ax.set_xlabel("difficulty grade (board sizes pooled)")
            ax.grid(alpha=0.3)
        rate_ax.set_ylim(-0.02, 1.02)
        rate_ax.set_ylabel("solved / ran (95% Wilson)")
        rate_ax.set_title("Solved rate by grade")
        it_ax.set_ylabel("iterations, solved trials (median, 95% CI)")
        it_ax.set_title("Iterations by grade")
        legend(rate_ax)
        fig.tight_layout(rect=(0, 0.04, 1, 1))  # room for the provenance footer
        return save_figure(fig, provenance_note(data.trials), data.out, self.name)
