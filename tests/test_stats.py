"""Statistics against known values, and the report's intervals and paired tests on synthetic
stores whose answer is known, recomputed here from the raw rows."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from slitherbench.analysis import stats, tables
from slitherbench.analysis.compare import compare
from slitherbench.analysis.report import build_report
from slitherbench.method.record import Iteration, Trial
from slitherbench.store.result_store import ResultStore


def test_wilson_interval_known_values() -> None:
    # Wilson 95% for 8/10: (0.4902, 0.9433) (Newcombe 1998, table I); 0/10 and 10/10 ends.
    lo, hi = stats.wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert stats.wilson(0, 10)[0] == 0 and stats.wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert stats.wilson(10, 10)[1] == pytest.approx(1.0)
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


def test_tts99_at_p_0_half_and_1() -> None:
    assert stats.tts99(10.0, 0.0) == math.inf
    assert stats.tts99(10.0, 0.5) == pytest.approx(10 * math.log(0.01) / math.log(0.5))  # 66.44
    assert stats.tts99(10.0, 0.5) == pytest.approx(66.4386, abs=1e-3)
    assert stats.tts99(10.0, 1.0) == 10.0
    tts, lo, hi = stats.tts99_ci(10.0, 5, 10)
    w_lo, w_hi = stats.wilson(5, 10)
    assert tts == stats.tts99(10.0, 0.5)
    assert lo == pytest.approx(stats.tts99(10.0, w_hi)) and hi == pytest.approx(
        stats.tts99(10.0, w_lo)
    )
    assert stats.tts99_ci(10.0, 0, 10)[2] == math.inf
    assert stats.tts99(10.0, 1e-300) > 1e300  # a Wilson bound next to 0: huge, never a crash
    assert stats.tts99(10.0, 5e-324) == math.inf


def test_mcnemar_on_a_hand_made_table() -> None:
    # 10 discordant pairs all one way: exact two-sided p = 2 * 0.5^10 = 0.001953125.
    pairs = pd.DataFrame(
        {
            "solved_a": [True] * 10 + [True] * 5 + [False] * 5,
            "solved_b": [False] * 10 + [True] * 5 + [False] * 5,
            "wall_s_a": 1.0,
            "wall_s_b": 2.0,
            "iterations_a": 1,
            "iterations_b": 1,
        }
    )
    r = stats.paired_test(pairs, "A", "B")
    assert (r.a_only, r.b_only, r.both, r.neither) == (10, 0, 5, 5)
    assert r.mcnemar_p == pytest.approx(2 * 0.5**10)
    assert r.verdict.startswith("A solves more than B")
    same = pairs.assign(solved_b=pairs.solved_a)
    r2 = stats.paired_test(same, "A", "B")
    assert r2.mcnemar_p == 1.0 and r2.verdict.startswith("no significant difference")


def test_median_interval_matches_a_resampling_bootstrap() -> None:
    from scipy.stats import bootstrap

    rng = np.random.default_rng(1)
    for n in (9, 40, 301):
        x = rng.exponential(size=n)
        med, lo, hi = stats.median_ci(x)
        assert med == np.median(x) and lo < med < hi
        ref = bootstrap((x,), np.median, method="percentile", n_resamples=20000, random_state=rng)
        # The exact bounds are order statistics; resampling lands on or next to them.
        xs = np.sort(x)
        for exact, approx in (
            (lo, ref.confidence_interval.low),
            (hi, ref.confidence_interval.high),
        ):
            k = int(np.searchsorted(xs, exact))
            assert xs[max(k - 1, 0)] <= approx <= xs[min(k + 1, n - 1)], (n, exact, approx)
    assert stats.median_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    assert math.isnan(stats.median_ci([])[0]) and math.isnan(stats.median_ci([3.0])[1])


def test_performance_profile_ratios() -> None:
    tts = pd.DataFrame({"a": [1.0, 4.0, math.inf], "b": [2.0, 2.0, 5.0]}, index=["p1", "p2", "p3"])
    r = stats.performance_profile(tts)
    assert r.loc["p1", "a"] == 1 and r.loc["p1", "b"] == 2
    assert r.loc["p2", "a"] == 2 and r.loc["p3", "a"] == math.inf and r.loc["p3", "b"] == 1


def _store(
    root: Path, outcomes: dict[str, list[str]], time_limit: float = 10.0, graded: bool = False
) -> ResultStore:
    """Cells -> per-seed statuses on one puzzle; wall time grows with the seed. ``graded``:
    even seeds on a look-ahead 1 board, odd seeds on a look-ahead 2 board of the same size."""
    store = ResultStore(root)
    for cell, statuses in outcomes.items():
        form, backend = cell.split("/")
        for seed, status in enumerate(statuses):
            ran = status in ("solved", "max_iterations", "timeout")
            t = Trial(
                key=f"{cell.replace('/', '_')}-r{seed}",
                experiment="syn",
                config_hash=cell,
                cell=cell,
                puzzle="q" if graded and seed % 2 else "p",
                grade=("lookahead2" if seed % 2 else "lookahead1") if graded else "",
                rows=5,
                cols=5,
                puzzle_rows="/".join(["....."] * 5),
                form_variant=form,
                formulation=form,
                backend=backend,
                seed=seed,
                repetition=seed,
                status=status,
                time_limit_s=time_limit,
                iterations=2 + seed % 3 if ran else 0,
                retries=0,
                wall_s=1.0 + seed if ran else 0.0,
                solve_s=0.5 + seed if ran else 0.0,
                timestamp=f"2026-01-01T00:00:{seed:02d}",
            )
            its = [
                Iteration(iteration=k, energy=int(status != "solved"), solve_s=0.1, edges="0" * 60)
                for k in range(1, t.iterations + 1)
            ]
            store.write(t, its)
    store.compact()
    return store


def test_skipped_and_error_trials_enter_no_statistic(tmp_path: Path) -> None:
    store = _store(tmp_path, {"hubo/x": ["solved"] * 4 + ["skipped"] * 3 + ["error"] * 2})
    t = store.trials()
    row = tables.summarise(t, tables.CELL_KEYS, iterations=store.iterations()).iloc[0]
    ran = t[t.status.isin(tables.RAN)]
    assert (row.trials, row.skipped, row.errors, row.solved) == (4, 3, 2, "4/4")
    assert row.success == 1.0
    assert row.wall_median_s == ran.wall_s.median() == 2.5  # not pulled down by the zeros
    assert row.solve_median_s == ran.solve_s.median()
    assert row.iter_median == ran.iterations.median()
    assert row.zero_rate == 1.0  # the skipped/errored trials' solves are not counted
    summary = tables.run_summary(t)
    assert summary.iloc[0].median_wall_s == 2.5 and summary.iloc[0].solved == "4/4"


@pytest.mark.slow
def test_report_intervals_and_paired_test_on_a_known_answer(tmp_path: Path) -> None:
    n = 12
    store = _store(tmp_path / "s", {"hubo/sa": ["solved"] * n, "qubo/sa": ["max_iterations"] * n})
    trials, iters = store.trials(), store.iterations()
    build_report(trials, iters, tmp_path / "rep", compare_spec="hubo,qubo")
    csv = pd.read_csv(tmp_path / "rep" / "table_by_puzzle.csv").set_index("form_variant")
    # Recomputed from the raw rows.
    lo, _ = stats.wilson(n, n)
    assert csv.loc["hubo", "success_lo"] == pytest.approx(lo)
    assert csv.loc["hubo", "tts99_s"] == 10.0  # p = 1: one budget
    assert csv.loc["qubo", "success"] == 0 and csv.loc["qubo", "tts99_s"] == math.inf
    assert csv.loc["qubo", "success_hi"] == pytest.approx(stats.wilson(0, n)[1])
    text = (tmp_path / "rep" / "compare_hubo_vs_qubo.md").read_text()
    assert f"hubo solves more than qubo (McNemar exact p = {2 * 0.5**n:.3g}, {n} pairs)" in text
    ((r_label, r),) = compare(trials, "hubo", "qubo")
    assert r_label == "backend=sa" and (r.a_only, r.b_only) == (n, 0)
    md = (tmp_path / "rep" / "table_by_puzzle.md").read_text()
    assert "**1 [" in md  # the best success rate of the puzzle's group is bold


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no LaTeX engine (CI installs one)")
def test_every_generated_latex_table_compiles(tmp_path: Path) -> None:
    store = _store(
        tmp_path / "s",
        {
            "hubo[aux]/sa": ["solved", "timeout"] * 3,
            "qubo/open_jij": ["solved"] * 6,
            "cons/exact": ["skipped"] * 6,
        },
        graded=True,  # two grades on one size: the grade test's table too
    )
    manifest = build_report(store.trials(), store.iterations(), tmp_path / "rep")
    texs = sorted((tmp_path / "rep").glob("*.tex"))
    # Every table the report wrote, as its manifest names them (a new table item is compiled
    # here without editing this test); the summary tables and the grids are among them.
    assert [t.name for t in texs] == sorted(f for f in manifest["files"] if f.endswith(".tex"))
    names = {t.stem for t in texs}
    assert {"table_by_puzzle", "table_by_form_backend", "solved_within", "table_by_grade",
            "table_grade_test"} <= names, names  # fmt: skip
    for tex in texs:
        doc = tmp_path / f"doc-{tex.stem}.tex"
        doc.write_text(
            "\\documentclass{article}\n\\usepackage{booktabs,graphicx}\n\\usepackage[margin=1cm,landscape]{geometry}\n"
            f"\\begin{{document}}\n\\input{{{tex}}}\n\\end{{document}}\n"
        )
        r = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert r.returncode == 0, r.stdout[-3000:]
        assert (tmp_path / f"doc-{tex.stem}.pdf").stat().st_size > 1000


def test_tuned_and_untuned_runs_are_never_paired_with_each_other() -> None:
    rows = []
    for cell in ("hubo/sa", "qubo/sa", "hubo/sa+tuned", "qubo/sa+tuned"):
        form = cell.split("/")[0]
        for seed in range(5):
            rows.append(
                {
                    "cell": cell,
                    "formulation": form,
                    "form_variant": form,
                    "backend": "sa",
                    "puzzle": "p",
                    "seed": seed,
                    "status": "solved",
                    "wall_s": 1.0,
                    "iterations": 1,
                }
            )
    results = dict(compare(pd.DataFrame(rows), "hubo", "qubo"))
    untuned, tuned = "backend=sa, tuning=untuned", "backend=sa, tuning=tuned"
    assert set(results) == {untuned, tuned, "all pairs"}
    assert results[untuned].pairs == 5
    assert results["all pairs"].pairs == 10  # not 20 cross pairs


def test_untuned_tuned_compares_each_cell_with_its_tuned_self() -> None:
    """``--compare untuned,tuned``: per cell, the tuned run against the untuned one on the same
    puzzles and seeds; a cell without a tuned run is not paired with another cell's."""
    rows = []
    for cell, solved_seeds in (("hubo/sa", 5), ("hubo/sa+tuned", 2), ("qubo/sa", 3)):
        form = cell.split("/")[0]
        for seed in range(5):
            rows.append({"cell": cell, "formulation": form, "form_variant": form,
                         "backend": "sa", "puzzle": "p", "seed": seed,
                         "status": "solved" if seed < solved_seeds else "timeout",
                         "wall_s": 1.0, "iterations": 1})  # fmt: skip
    results = compare(pd.DataFrame(rows), "untuned", "tuned")
    assert [label for label, _ in results] == ["form_variant=hubo, backend=sa"]
    ((_, r),) = results
    assert (r.pairs, r.a_only, r.b_only, r.both) == (5, 3, 0, 2)
    untuned_only = pd.DataFrame([row for row in rows if not row["cell"].endswith("+tuned")])
    with pytest.raises(ValueError, match="no tuned trials in the store"):
        compare(untuned_only, "untuned", "tuned")


def test_warm_starts_compare_each_cell_with_either_hint(capsys) -> None:
    """``--compare previous,none`` (experiment=warm_starts runs each hint into one store):
    per cell, the same puzzles and seeds with each hint; the hint itself is what differs, so
    no note about unequal settings."""
    rows = []
    for warm, solved_by in (("previous", {"qubo": 4, "hubo": 2}), ("none", {"qubo": 1, "hubo": 2})):
        for form in ("qubo", "hubo"):
            for seed in range(4):
                rows.append({"cell": f"{form}/sa", "formulation": form, "form_variant": form,
                             "backend": "sa", "puzzle": "p", "seed": seed, "warm_start": warm,
                             "time_limit_s": 20.0, "max_iterations": 200,
                             "status": "solved" if seed < solved_by[form] else "timeout",
                             "wall_s": 1.0, "iterations": 1})  # fmt: skip
    results = dict(compare(pd.DataFrame(rows), "previous", "none"))
    qubo = results["form_variant=qubo, backend=sa"]
    assert (qubo.pairs, qubo.a_only, qubo.b_only) == (4, 3, 0)
    assert results["all pairs"].pairs == 8
    assert "different settings" not in capsys.readouterr().err


def test_wilson_interval_holds_the_rate_at_all_or_nothing() -> None:
    # statsmodels gave 1 - 1e-16 at k = n = 7, 9, 12, ...: an error bar below the point
    # broke the scaling figure ("'yerr' must not contain negative values").
    for n in range(1, 200):
        assert stats.wilson(n, n)[1] == 1.0 and stats.wilson(0, n)[0] == 0.0


# -- one grouping rule: never pair or pool across configurations ---------------
def _two_configurations_rows() -> list[Trial]:
    """The documented main job (20 s, 3 seeds) and a quick run (5 s, 1 seed) of the same two
    cells into one store: the same puzzles and seeds, two configurations of each cell."""
    rows = []
    for limit, seeds in ((20.0, 3), (5.0, 1)):
        for form in ("hubo", "qubo"):
            for puzzle in range(5):
                for seed in range(seeds):
                    # hubo solves everything; qubo solves the 20 s trials of seed 0 only
                    solved = form == "hubo" or (limit == 20.0 and seed == 0)
                    t = Trial(
                        key=f"{form}{limit:g}-p{puzzle}-r{seed}",
                        experiment="syn",
                        config_hash=f"{form}-{limit:g}",
                        cell=f"{form}/openjij",
                        puzzle=f"p{puzzle}",
                        rows=5,
                        cols=5,
                        puzzle_rows="/".join(["....."] * 5),
                        form_variant=form,
                        formulation=form,
                        backend="openjij",
                        seed=100 * puzzle + seed,
                        repetition=seed,
                        status="solved" if solved else "max_iterations",
                        time_limit_s=limit,
                        max_iterations=40,
                        iterations=2,
                        wall_s=1.0,
                        solve_s=0.5,
                        timestamp=f"2026-01-01T00:{int(limit):02d}:{seed:02d}",
                        write_id=f"w-{form}{limit:g}-p{puzzle}-r{seed}",
                    )
                    rows.append(t)
    return rows


def _two_configurations() -> pd.DataFrame:
    return pd.DataFrame([vars(t) for t in _two_configurations_rows()])


def _two_configurations_store(root: Path) -> ResultStore:
    store = ResultStore(root)
    for t in _two_configurations_rows():
        store.write(t, [Iteration(iteration=k, energy=0, edges="0" * 60) for k in (1, 2)])
    store.compact()
    return store


def test_compare_never_pairs_across_configurations() -> None:
    trials = _two_configurations()
    results = dict(compare(trials, "hubo", "qubo"))
    # 15 real pairs at 20 s and 5 at 5 s; pairing on puzzle and seed alone made 30.
    assert {label: r.pairs for label, r in results.items()} == {
        "backend=openjij, time_limit_s=20.0": 15,
        "backend=openjij, time_limit_s=5.0": 5,
    }
    at20 = results["backend=openjij, time_limit_s=20.0"]
    assert (at20.a_only, at20.b_only, at20.both) == (10, 0, 5)
    at5 = results["backend=openjij, time_limit_s=5.0"]
    assert (at5.a_only, at5.b_only, at5.both) == (5, 0, 0)
    assert at20.mcnemar_p == pytest.approx(2 * 0.5**10)  # the 20 s trials' own test
    # --pool pairs across them on purpose (the old behaviour).
    assert [r.pairs for _, r in compare(trials, "hubo", "qubo", pool=True)] == [30]


def test_compare_names_a_configuration_without_counterpart_or_refuses(capsys) -> None:
    trials = _two_configurations()
    no_quick_qubo = trials[~((trials.formulation == "qubo") & (trials.time_limit_s == 5.0))]
    ((label, r),) = compare(no_quick_qubo, "hubo", "qubo")
    assert (label, r.pairs) == ("backend=openjij, time_limit_s=20.0", 15)
    err = capsys.readouterr().err
    assert "hubo at time_limit_s=5.0 has no counterpart and is left out" in err
    crossed = trials[
        ((trials.formulation == "qubo") & (trials.time_limit_s == 5.0))
        | ((trials.formulation == "hubo") & (trials.time_limit_s == 20.0))
    ]
    crossed = pd.concat([crossed, crossed[crossed.formulation == "hubo"].assign(
        config_hash="hubo-7", time_limit_s=7.0)])  # fmt: skip
    with pytest.raises(ValueError, match=r"several configurations .*time_limit_s=20.0.*--pool"):
        compare(crossed, "hubo", "qubo")


def test_tables_and_the_notebooks_grouping_never_pool_configurations() -> None:
    trials = _two_configurations()
    split = tables.summarise(tables.by_configuration(trials), tables.SIZE_KEYS)
    qubo = split[split.form_variant.str.startswith("qubo")].set_index("form_variant")
    assert qubo.loc["qubo [time_limit_s=20.0]", "solved"] == "5/15"
    assert qubo.loc["qubo [time_limit_s=5.0]", "solved"] == "0/5"
    assert set(split.tts99_tau_s) == {20.0, 5.0}  # each with its own budget as tau
    pooled = tables.summarise(tables.by_configuration(trials, pool=True), tables.SIZE_KEYS)
    assert list(pooled[pooled.form_variant == "qubo"].solved) == ["5/20"]


@pytest.mark.slow  # the report draws every figure (6 s); the rule itself is tested above
def test_report_compare_pairs_within_each_configuration(tmp_path: Path) -> None:
    store = _two_configurations_store(tmp_path / "s")
    build_report(store.trials(), store.iterations(), tmp_path / "rep", compare_spec="hubo,qubo")
    text = (tmp_path / "rep" / "compare_hubo_vs_qubo.md").read_text()
    assert "| backend=openjij, time_limit_s=20.0 | 15 |" in text
    assert "| backend=openjij, time_limit_s=5.0 | 5 |" in text
    assert "| 30 |" not in text


def test_markdown_tables_have_human_headers_and_say_why_rows_did_not_run(tmp_path: Path) -> None:
    from slitherbench.analysis import render

    store = _store(tmp_path, {"hubo/x": ["solved"] * 2, "qubo/abs3": ["skipped"] * 3})
    why = {"skipped": "license_limit (needs 176, limit 100)", "solved": ""}
    t = store.trials().assign(reason=lambda d: d.status.map(why))
    summary = tables.summarise(t, tables.CELL_KEYS)
    md = render.to_markdown(summary, tables.CELL_KEYS, list(render.DEFAULT_COLUMNS))
    header = md.splitlines()[0]
    assert header.startswith("| Form | Backend | Success: solved | Success: rate [95% CI] |")
    assert "Time (s): TTS99 [CI]" in header and "Solves: E=0 rate" in header
    for code in ("form_variant", "iter_median", "rounds_median", "wall_median_s", "tts99_s"):
        assert code not in header
    skipped = next(ln for ln in md.splitlines() if ln.startswith("| qubo | abs3 |"))
    assert "0/0 (3 skipped: license_limit (needs 176, limit 100))" in skipped
    tex = render.to_latex(summary, tables.CELL_KEYS, list(render.DEFAULT_COLUMNS))
    assert "3 skipped: license\\_limit (needs 176, limit 100)" in tex


def test_optimal_cutoff_tts99_tells_fast_from_slow() -> None:
    # Rønnow et al.: min over t of t ln 0.01 / ln(1 - P(t)); P jumps at each solve time.
    assert stats.tts99_optimal([0.01] * 5) == pytest.approx(0.01)  # always solved: one run
    # t = 1: P = 1/4, 16.0 s; t = 2: P = 1/2, 2 * ln 0.01 / ln 0.5 = 13.29 s (the minimum).
    assert stats.tts99_optimal([1, 2, math.inf, math.inf]) == pytest.approx(
        2 * math.log(0.01) / math.log(0.5)
    )
    assert stats.tts99_optimal([math.inf] * 3) == math.inf
    # Two cells that always solve within a 20 s budget: the budget-based TTS99 reads 20 s for
    # both; the optimal cutoff separates them, with intervals that do not overlap.
    fast = stats.tts99_optimal_ci([0.01, 0.02, 0.015, 0.012, 0.011])
    slow = stats.tts99_optimal_ci([0.13, 0.15, 0.14, 0.13, 0.15])
    assert stats.tts99_ci(20.0, 5, 5)[0] == 20.0
    assert fast[1] <= fast[0] <= fast[2] < slow[1] <= slow[0] <= slow[2]
    est, lo, hi = stats.tts99_optimal_ci([5, math.inf, math.inf, math.inf])
    assert lo <= est and hi == math.inf  # a draw without a solve has no finite TTS


def _boards(rows: list[tuple[str, bool, int, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["stratum", "in_a", "solved", "ran"])


def test_the_board_test_equals_scipys_permutation_test_on_one_stratum() -> None:
    # One stratum: relabelling boards within it is scipy's independent-samples permutation
    # test with each board's (solved, ran) moving together (encoded as solved + ran*1j).
    from scipy import stats as sps

    a = [(5, 6), (6, 6), (2, 6), (4, 5)]
    b = [(1, 6), (0, 6), (3, 6), (0, 4), (2, 6)]
    boards = _boards([("9x9", True, s, r) for s, r in a] + [("9x9", False, s, r) for s, r in b])
    res = stats.board_permutation_test(boards)

    def distance(x: np.ndarray, y: np.ndarray, axis: int) -> np.ndarray:  # |pooled A - B|
        return abs(x.real.sum(axis) / x.imag.sum(axis) - y.real.sum(axis) / y.imag.sum(axis))

    xs, ys = (np.array([s + r * 1j for s, r in g]) for g in (a, b))
    ref = sps.permutation_test(
        (xs, ys),
        distance,
        permutation_type="independent",
        vectorized=True,
        n_resamples=10_000,
        alternative="greater",
    )
    assert res.exact and res.relabellings == math.comb(9, 4) == 126
    assert res.diff == pytest.approx(17 / 23 - 6 / 28)
    assert res.p == pytest.approx(ref.pvalue)
    assert (res.boards_a, res.solved_a, res.ran_a, res.solved_b, res.ran_b) == (4, 17, 23, 6, 28)


def test_the_board_test_counts_a_boards_seeds_once_and_compares_within_sizes() -> None:
    # One board per grade, 20 seeds each, 20/20 against 0/20: Fisher's test on the trials
    # finds p < 1e-10, but two boards can be labelled only two ways, both as far from 0: p = 1.
    one_each = stats.board_permutation_test(_boards([("5x5", True, 20, 20), ("5x5", False, 0, 20)]))
    assert one_each.diff == 1.0 and one_each.p == 1.0 and one_each.relabellings == 2
    from scipy.stats import fisher_exact

    assert fisher_exact([[20, 0], [0, 20]]).pvalue < 1e-10
    # Grade A's boards are mostly small, B's mostly large; within each size they solve alike.
    # Pooled, A solves more (0.75 vs 0.25), but no relabelling within a size changes that: p = 1.
    confounded = _boards(
        [("5x5", True, 3, 3)] * 3 + [("5x5", False, 3, 3)]
        + [("9x9", True, 0, 3)] + [("9x9", False, 0, 3)] * 3
    )  # fmt: skip
    res = stats.board_permutation_test(confounded)
    assert res.diff == pytest.approx(0.5) and res.p == 1.0
    # Seven sizes of one board per grade, A solving and B not at every size: 2^7 relabellings,
    # the two extremes as far from 0: p = 2/128 (the smallest this design can give).
    sizes = [f"{n}x{n}" for n in range(5, 12)]
    apart = _boards([(s, True, 3, 3) for s in sizes] + [(s, False, 0, 3) for s in sizes])
    res = stats.board_permutation_test(apart)
    assert res.exact and res.relabellings == 128 and res.p == pytest.approx(2 / 128)
    # A size holding one grade only compares nothing: left out.
    extra = pd.concat([apart, _boards([("20x20", True, 0, 3)])])
    again = stats.board_permutation_test(extra)
    assert (again.boards_a, again.p) == (7, res.p)
    empty = stats.board_permutation_test(_boards([("5x5", True, 1, 1), ("7x7", False, 0, 1)]))
    assert empty.boards_a == 0 and math.isnan(empty.p)


def test_the_board_test_draws_relabellings_where_there_are_too_many_to_list() -> None:
    # Two sizes of 10 + 10 boards: C(20, 10)^2 = 3.4e10 relabellings, 20,000 drawn, seeded.
    rows = [(s, True, 4, 4) for s in ("a", "b") for _ in range(10)]
    rows += [(s, False, k % 2, 4) for s in ("a", "b") for k in range(10)]
    res = stats.board_permutation_test(_boards(rows))
    assert not res.exact and res.relabellings == stats.EXACT_PERMUTATIONS
    # Every A board solves everything, every B board at most 1 in 4: no draw comes as far.
    assert res.p == pytest.approx(1 / (stats.EXACT_PERMUTATIONS + 1))
    # Same data, same p; no difference between the groups, p near 1.
    assert stats.board_permutation_test(_boards(rows)).p == res.p
    even = [(s, i < 10, i % 3, 3) for s in ("a", "b") for i in range(20)]
    assert stats.board_permutation_test(_boards(even)).p > 0.5


def test_the_board_sign_test_takes_each_board_once() -> None:
    # Three boards that differ, all for A: 2^3 sign flips, the two extremes as far from 0.
    assert stats.board_sign_test([0.5, 0.8, 0.0, 0.7]) == pytest.approx(2 / 8)
    assert stats.board_sign_test([0.5, -0.5]) == 1.0
    assert stats.board_sign_test([0.0, 0.0]) == 1.0
    # Twenty boards, all for A: 2^20 flips, 20,000 seeded draws; none as far from 0.
    many = stats.board_sign_test([0.1] * 20)
    assert many < 0.001 and many == stats.board_sign_test([0.1] * 20)
    # One board, 20 seeds all for A: McNemar on 20 pairs gives p < 1e-5, the board test 1.
    pairs = pd.DataFrame({"puzzle": "p", "solved_a": [True] * 20, "solved_b": [False] * 20,
                          "wall_s_a": 1.0, "wall_s_b": 1.0, "iterations_a": 1,
                          "iterations_b": 1})  # fmt: skip
    r = stats.paired_test(pairs, "A", "B")
    assert r.mcnemar_p < 1e-5 and (r.boards, r.boards_a, r.boards_b, r.board_p) == (1, 1, 0, 1.0)
    assert r.verdict.endswith("board by board, A solves more on 1 and B on 0 of 1 boards "
                              "(sign-flip p = 1)")  # fmt: skip
