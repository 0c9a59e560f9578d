"""By difficulty grade: one table and one figure of each cell's solved rate and iterations
on boards of each deduction grade (the trial's ``grade`` column: the lowest level that
solves the board without assuming uniqueness, :mod:`slitherbench.sources.grades`).

Board sizes are pooled within a grade (grades and sizes go together: the per-size table has
each size). Trials stored before grades were recorded have no grade: the table says "no
grades recorded" when none has one and counts them under ``not recorded`` otherwise; the
figure is drawn only where some trial has a grade.

Whether a harder grade costs a cell solves is a test on boards, not on trials
(:func:`grade_tests`): a board's seeds share its difficulty, so they are not independent
samples of its grade, and boards are compared only with boards of their own size."""

from __future__ import annotations

import itertools
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from slitherbench.analysis import stats, tables
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


def grade_tests(trials: pd.DataFrame) -> pd.DataFrame:
    """Per cell and each two neighbouring grades it ran (rules vs look-ahead 1, look-ahead 1 vs
    2, ...): the boards of the two grades on the sizes that hold both, their trials' solved
    rates and :func:`stats.board_permutation_test`'s two-sided p (board as the unit, grade
    labels permuted among boards of one size). A pair with no size in common has no row."""
    t = ran_only(graded(trials))
    t = t[t["grade"] != NOT_RECORDED]
    rows = []
    for (form, backend), cell in t.groupby(["form_variant", "backend"], sort=False):
        present = sorted(set(cell["grade"]), key=_grade_rank)
        for a, b in itertools.pairwise(present):
            pair = cell[cell["grade"].isin([a, b])]
            boards = tables.per_board(
                pair, ["puzzle"], True, stratum=("size", "first"), grade=("grade", "first")
            )
            both = boards.groupby("stratum")["grade"].transform("nunique") == 2
            if not both.any():
                continue
            res = stats.board_permutation_test(boards.assign(in_a=boards["grade"] == a))
            shared = pair[pair["puzzle"].isin(boards.index[both])]
            rows.append(
                {"form_variant": form, "backend": backend, "grade_a": a, "grade_b": b,
                 "sizes": _size_span(shared), "boards_a": res.boards_a, "boards_b": res.boards_b,
                 "solved_a": res.solved_a, "ran_a": res.ran_a, "solved_b": res.solved_b,
                 "ran_b": res.ran_b, "rate_a": res.solved_a / res.ran_a,
                 "rate_b": res.solved_b / res.ran_b, "diff": res.diff, "p": res.p,
                 "relabellings": res.relabellings, "exact": res.exact}
            )  # fmt: skip
    return pd.DataFrame(rows)


GRADE_TEST_CAPTION = (
    "Per formulation x backend and each two neighbouring grades it ran, on the board sizes "
    "that hold boards of both: boards and solved/ran per grade, the difference of the solved "
    "rates, and the two-sided p of a permutation test with the board as the unit (a board's "
    "trials move together; grade labels are permuted only among boards of one size; every "
    f"relabelling, or {stats.EXACT_PERMUTATIONS:,} seeded draws where there are more). A "
    "board's seeds are not independent samples of its grade: a test on trials would count "
    "them as if they were. With one board per grade at each of k sizes there are 2^k "
    "relabellings, so p cannot fall below 2/2^k however large the difference."
)


def shared_grade_tests(data: ReportData) -> pd.DataFrame:
    """:func:`grade_tests` of ``data``, made once per report (the item and a page share it)."""
    return data.shared("grade_tests", lambda: grade_tests(data.sized))


def grade_test_grid(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`grade_tests` as the table's text."""
    if rows.empty:
        return rows
    relabel = [
        "every relabelling" if r.exact else f"{r.relabellings:,} draws" for r in rows.itertuples()
    ]
    grid = pd.DataFrame({
        "Form": rows.form_variant, "Backend": rows.backend,
        "Grades": rows.grade_a + " vs " + rows.grade_b, "Sizes": rows.sizes,
        "Boards": rows.boards_a.astype(str) + " vs " + rows.boards_b.astype(str),
        "Solved": [f"{r.solved_a}/{r.ran_a} vs {r.solved_b}/{r.ran_b}" for r in rows.itertuples()],
        "Difference": rows["diff"].map(lambda d: f"{d:+.3f}"),
        "p": [f"{p:.3g} ({how})" for p, how in zip(rows.p, relabel, strict=True)],
    })  # fmt: skip
    return grid


class TableGradeTest(ReportItem):
    """``table_grade_test``: does a harder grade cost each cell solves? Neighbouring grades
    compared with the board as the unit, within board sizes (:func:`grade_tests`); only where
    some cell ran two grades on boards of one size."""

    name = "table_grade_test"
    kind = "table"
    order = 33

    def applies(self, data: ReportData) -> bool:
        return has_grades(data.trials) and not shared_grade_tests(data).empty

    def write(self, data: ReportData) -> list[Path]:
        rows = shared_grade_tests(data)
        return write_grid(grade_test_grid(rows), rows, data.out, self.name,
                          f"{GRADE_TEST_CAPTION} {data.note}")  # fmt: skip


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
