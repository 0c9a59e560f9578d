"""The stronger samplers (OpenJij threads/updaters, SQA, parallel tempering, simulated
bifurcation), warm starts with the cut loops broken, and the frontier rule."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from slitherbench.method.record import ConfigError
from slitherbench.models.formulations import HuboFormulation, Model, QuboFormulation
from slitherbench.puzzles.check import check_answer, split_loops
from slitherbench.run.app import CONF_DIR, run_experiment
from slitherbench.run.frontier import FrontierGate, size_order
from slitherbench.run.plan import plan_jobs, resolve_cells, validate_config
from slitherbench.run.runner import run_trial, warm_hint
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.openjij_sa import OpenJijBackend
from slitherbench.solvers.openjij_sqa import OpenJijSQABackend
from slitherbench.solvers.tempering import ParallelTemperingBackend
from slitherbench.sources.library import generated, generated_frontier, get_suite
from slitherbench.store.result_store import ResultStore
from slitherbench.store.results import load


# -- OpenJij: threads, updaters, effort --------------------------------------------------
def test_openjij_records_threads_updater_and_sweeps() -> None:
    p = generated(4, 4, 1)
    b = OpenJijBackend(num_sweeps=500, num_reads=4, updater="HEAT_BATH", num_threads=2)
    r = run_trial(p, HuboFormulation(), b, seed=1, max_iterations=30, time_limit_s=20)
    assert r.status == "solved", r.trial.reason
    assert r.trial.sweeps == 500 * 4 * r.trial.iterations
    assert all(it.sweeps == 2000 for it in r.iterations)
    assert '"threads": 2' in r.iterations[0].extras
    assert OpenJijBackend().threads >= 1  # null: every core this process may use


def test_openjij_rejects_an_unknown_updater() -> None:
    with pytest.raises(ValueError, match="updater must be one of"):
        OpenJijBackend(updater="GIBBS")


@pytest.mark.parametrize("updater", ["METROPOLIS", "HEAT_BATH", "k-local"])
def test_every_openjij_updater_solves_a_tiny_board(updater: str) -> None:
    p = generated(3, 3, 1)
    b = OpenJijBackend(num_sweeps=300, num_reads=4, updater=updater)
    r = run_trial(p, HuboFormulation(degree_mode="exact"), b, seed=2, max_iterations=30)
    assert r.status == "solved", r.trial.reason


# -- warm starts ---------------------------------------------------------------------------
def test_broken_hint_switches_off_exactly_the_forbidden_loops() -> None:
    # Two disjoint unit squares: cut one of them; "broken" switches off its 4 edges only.
    p = get_suite("tiny")[1]  # 4x4
    m = Model.build(p, QuboFormulation())
    sq1 = [p.face_edges[0][k] for k in range(4)]
    sq2 = list(p.face_edges[p.cols * p.rows - 1])
    edges = [False] * p.num_edges
    for e in sq1 + sq2:
        edges[e] = True
    assert sorted(map(sorted, split_loops(p, edges))) == sorted([sorted(sq1), sorted(sq2)])
    m.add_cut(sq1)
    prev = warm_hint(m, edges, "previous")
    broken = warm_hint(m, edges, "broken")
    assert warm_hint(m, edges, "none") is None and warm_hint(m, None, "broken") is None
    assert all(prev[e] == 1 for e in sq1 + sq2)
    assert all(broken[e] == 0 for e in sq1) and all(broken[e] == 1 for e in sq2)
    # auxiliaries follow the edges: the broken hint's energy is the best for its edges
    assert m.energy(broken) == min(
        m.energy({**broken, **dict(zip(m.pieces[-1].aux, bits, strict=True))})
        for bits in itertools.product((0, 1), repeat=len(m.pieces[-1].aux))
    )


# The fast subset: "broken" (the previous sample with its loops switched off); "previous",
# the default every other sampler test runs too, and "none" (2.6 s) in the full suite.
@pytest.mark.parametrize(
    "warm",
    [pytest.param(w, marks=pytest.mark.slow) if w != "broken" else w
     for w in ("previous", "broken", "none")],
)  # fmt: skip
def test_warm_start_modes_run_and_are_recorded(warm: str) -> None:
    p = get_suite("loopy5")[0]
    b = OpenJijSQABackend(num_sweeps=300, num_reads=4)
    r = run_trial(
        p, QuboFormulation(), b, seed=4, max_iterations=60, time_limit_s=30, warm_start=warm
    )
    assert r.trial.warm_start == warm
    later = [it.hint_used for it in r.iterations[1:]]
    assert not r.iterations[0].hint_used
    assert all(later) if warm != "none" else not any(later)


def test_a_bad_warm_start_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match="warm_start must be one of"):
        run_trial(
            generated(3, 3, 1), QuboFormulation(), OpenJijSQABackend(), seed=1, warm_start="hot"
        )
    cfg = OmegaConf.create({"repetitions": 1, "max_iterations": 1, "base_seed": 0,
                            "time_limit_s": 1.0, "workers": 1, "overwrite": False,
                            "progress": False, "trace": False, "frontier": False,
                            "warm_start": "hot"})  # fmt: skip
    with pytest.raises(ConfigError, match="warm_start must be one of previous, broken, none"):
        validate_config(cfg)


def test_warm_start_enters_the_config_hash_only_when_not_the_default() -> None:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        base = compose(config_name="config", overrides=["experiment=smoke"])
        same = compose(config_name="config", overrides=["experiment=smoke", "warm_start=previous"])
        other = compose(config_name="config", overrides=["experiment=smoke", "warm_start=broken"])
    cell = resolve_cells(base)[0]
    assert cell.config_hash(base) == cell.config_hash(same) != cell.config_hash(other)


# -- samplers' own properties ----------------------------------------------------------------
def test_parallel_tempering_stops_at_a_hinted_answer() -> None:
    p = get_suite("loopy5")[0]
    m = Model.build(p, QuboFormulation())
    hint = m.complete(p.meta["answer"])
    assert m.energy(hint) == 0
    r = ParallelTemperingBackend(num_replicas=4, num_sweeps=10).solve(
        m, seed=1, hint=hint, time_limit_s=30
    )
    assert r.energy == 0 and r.hint_used
    assert r.sweeps == r.extras["rounds"] * 4 * 10 and r.extras["rounds"] >= 1


def test_parallel_tempering_is_reproducible_per_seed() -> None:
    p = generated(4, 4, 1)
    m = Model.build(p, QuboFormulation())
    b = ParallelTemperingBackend(
        num_replicas=4, num_sweeps=5, beta_range=(0.01, 0.02), max_rounds=3
    )
    # hot replicas never reach energy 0: exactly 3 rounds, the same for the same seed
    a, c = (b.solve(m, seed=7, hint=None, time_limit_s=60) for _ in range(2))
    assert a.extras["rounds"] == c.extras["rounds"] == 3
    assert a.sample == c.sample
    assert b.solve(m, seed=8, hint=None, time_limit_s=60).sample != a.sample


def test_sb_quadratic_and_ising_arrays_are_the_model_energy() -> None:
    # The arrays SB is handed: x'Qx + l'x + c is the model's energy, and the Ising energy
    # -1/2 s'Js + h's of s = 2x - 1 differs from it by one constant over all assignments.
    import numpy as np

    from slitherbench.solvers.bifurcation import ising_arrays, quadratic_arrays

    p = generated(3, 3, 1)
    m = Model.build(p, QuboFormulation())
    m.add_cut(list(p.face_edges[0]))
    labels, quad, lin, const = quadratic_arrays(m)
    J, h = ising_arrays(quad.astype(np.float64), lin.astype(np.float64))
    assert not np.diag(J).any()
    rng = random.Random(0)
    offsets = set()
    for _ in range(50):
        x = np.array([rng.randint(0, 1) for _ in labels], dtype=np.float64)
        energy = m.energy(dict(zip(labels, x.astype(int).tolist(), strict=True)))
        assert float(x @ quad @ x + lin @ x + const) == energy
        s = 2 * x - 1
        offsets.add(round(energy - float(-0.5 * s @ J @ s + h @ s), 6))
    assert len(offsets) == 1, offsets


@pytest.mark.slow
def test_sb_records_device_and_solves_a_small_board() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("simulated_bifurcation")
    from slitherbench.solvers.bifurcation import SimulatedBifurcationBackend

    p = get_suite("loopy5")[0]
    b = SimulatedBifurcationBackend(device="cpu", num_threads=1)
    r = run_trial(p, QuboFormulation(), b, seed=0, max_iterations=30, time_limit_s=60)
    assert r.status == "solved", r.trial.reason
    assert r.trial.mode == "CPU" and '"device": "cpu"' in r.iterations[0].extras
    assert r.trial.sweeps > 0 and check_answer(p, p.meta["answer"]) == []


# -- the frontier suite and rule -------------------------------------------------------------
@pytest.mark.slow
def test_frontier_suite_is_one_unique_board_per_size_smallest_first() -> None:
    boards = get_suite("frontier")
    sizes = [p.size_label for p in boards]
    assert sizes == ["5x5", "7x7", "10x10", "12x12", "10x18", "15x15", "14x24", "20x36"]
    for p in generated_frontier():
        r = solve_exact(p)
        assert r.status == "unique" and r.answer == p.meta["answer"]


@pytest.mark.slow
def test_shipped_12x12_is_what_generate_makes() -> None:
    shipped = generated_frontier()[0]
    assert shipped.to_rows() == generated(12, 12, 2026).to_rows()


# The 120 s frontier runs on look-ahead squares: edge variables, then face variables.
FRONTIER_RUNS = ("frontier_graded", "frontier_graded_faces")


def _experiments(*names: str) -> list:
    """The composed config of each ``experiment=NAME``."""
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return [compose(config_name="config", overrides=[f"experiment={n}"]) for n in names]


def test_the_long_budget_run_takes_the_frontier_cells_that_reached_15x15_to_20x20() -> None:
    # frontier_graded_long must measure the same paths on the same boards, only for longer.
    long, edges, faces = _experiments("frontier_graded_long", *FRONTIER_RUNS)
    boards = get_suite(long.puzzle.name)
    assert [p.name for p in boards] == [
        p.name for p in get_suite(edges.puzzle.name) if p.size_label == "20x20"
    ]
    assert {p.meta["grade"] for p in boards} == {"lookahead1", "lookahead2"}
    assert long.presolve.level == "rules" and long.time_limit_s > edges.time_limit_s
    cells = OmegaConf.to_container(long.cells)
    assert {"formulation": "cons", "backend": "exact"} in cells
    paths = {(c["formulation"], c["backend"]) for c in cells if c["backend"] != "exact"}
    hubo = next(c for c in OmegaConf.to_container(edges.cells) if c["formulation"] == "hubo")
    assert ("hubo", "openjij") in paths and hubo["backend"] == "openjij"
    face_pt = {"formulation": "qubo", "formulation_params": {"variables": "face"}, "backend": "pt"}
    assert face_pt in cells and face_pt in OmegaConf.to_container(faces.cells)


def test_the_run_between_takes_the_frontier_paths_from_15x15_to_18x18() -> None:
    # frontier_graded_between must measure the same two paths, set as the 120 s runs set them,
    # on look-ahead squares of every size from the last one solved (15x15) to 18x18, two
    # boards per grade where the step is (15x15 and 16x16), smallest first.
    between, edges, faces = _experiments("frontier_graded_between", *FRONTIER_RUNS)
    boards = get_suite(between.puzzle.name)
    sizes = [p.size_label for p in boards]
    assert sizes == sorted(sizes, key=lambda s: int(s.split("x")[0]))
    per_grade = {"15x15": 2, "16x16": 2, "17x17": 1, "18x18": 1}
    for size, n in per_grade.items():
        grades = sorted(p.meta["grade"] for p in boards if p.size_label == size)
        assert grades == ["lookahead1"] * n + ["lookahead2"] * n, size
    first = {p.name for p in get_suite(edges.puzzle.name) if p.size_label == "15x15"}
    assert first <= {p.name for p in boards}  # the frontier run's own 15x15 boards
    assert between.presolve.level == "rules" and between.frontier
    assert between.time_limit_s == edges.time_limit_s
    cells = OmegaConf.to_container(between.cells)
    hubo = next(c for c in OmegaConf.to_container(edges.cells) if c["formulation"] == "hubo")
    face_pt = next(c for c in OmegaConf.to_container(faces.cells) if c["backend"] == "pt")
    assert cells == [hubo, face_pt]


def test_the_spread_run_takes_the_between_runs_paths_on_three_to_nine_boards_per_grade() -> None:
    # frontier_graded_spread must measure exactly what frontier_graded_between measured (cells,
    # budget, presolve, seeds, frontier rule), on boards no other run measured or tuned on: three
    # per grade from 10x10 to 14x14 (nine at 11x11 and 12x12, six at 13x13), and at 15x15 the
    # third board per grade, smallest first.
    spread, between = _experiments("frontier_graded_spread", "frontier_graded_between")
    boards = get_suite(spread.puzzle.name)
    six, nine = (1, 2, 3, 4, 5, 6), tuple(range(1, 10))
    seeds = {"10x10": (4, 5, 6), "11x11": nine, "12x12": nine, "13x13": six,
             "14x14": (1, 2, 3), "15x15": (3,)}  # fmt: skip
    assert [p.size_label for p in boards] == [
        s for s, k in seeds.items() for _ in range(2 * len(k))
    ]
    for size, wanted in seeds.items():
        names = {p.name for p in boards if p.size_label == size}
        assert names == {
            f"gen-{size}-{g}-s{s}" for g in ("lookahead1", "lookahead2") for s in wanted
        }
        grades = sorted(p.meta["grade"] for p in boards if p.size_label == size)
        assert grades == ["lookahead1"] * len(wanted) + ["lookahead2"] * len(wanted), size
    others = {p.name for s in ("graded_between", "graded_small", "graded_training")
              for p in get_suite(s)}  # fmt: skip
    assert between.puzzle.name == "graded_between" and not {p.name for p in boards} & others
    _assert_same_settings(
        spread, between, ("cells", "presolve", "time_limit_s", "repetitions", "frontier",
                          "workers", "max_iterations"),
    )  # fmt: skip
    assert spread.experiment_name == "frontier_graded_spread"


def _assert_same_settings(run, base, keys: tuple[str, ...]) -> None:
    """``run`` sets each of ``keys`` as ``base`` does (the key named where one differs)."""
    for key in keys:
        assert run[key] == base[key], key


def _assert_the_hubo_with_exact_degree(exact, base, keys: tuple[str, ...]) -> None:
    """``exact`` runs one cell, ``base``'s HUBO cell with degree_mode=exact and nothing else
    changed, under ``base``'s settings ``keys``: its trials pair with ``base``'s."""
    hubo = next(c for c in OmegaConf.to_container(base.cells) if c["formulation"] == "hubo")
    assert OmegaConf.to_container(exact.cells) == [
        {**hubo, "formulation_params": {"degree_mode": "exact"}}
    ]
    _assert_same_settings(exact, base, keys)


def test_the_exact_degree_hubo_run_pairs_with_the_aux_hubos_boards() -> None:
    # frontier_graded_exact must differ from the HUBO of frontier_graded_between only in
    # degree_mode (exact: no point auxiliaries), with the same budget, presolve, seeds and
    # frontier rule, on boards whose auxiliary-HUBO trials are kept (spread, between, graded),
    # so every trial has a pair: same board, same repetition, same seed.
    exact, between, spread, edges = _experiments(
        "frontier_graded_exact", "frontier_graded_between", "frontier_graded_spread",
        FRONTIER_RUNS[0],
    )  # fmt: skip
    _assert_the_hubo_with_exact_degree(
        exact, between, ("presolve", "time_limit_s", "repetitions", "frontier", "workers",
                         "max_iterations", "base_seed"),
    )  # fmt: skip
    boards = [p.name for p in get_suite(exact.puzzle.name)]
    sizes = [int(n.split("-")[1].split("x")[0]) for n in boards]
    assert sizes == sorted(sizes) and set(sizes) == {13, 14, 16, 18, 20}
    ran = {p.name for c in (between, spread, edges) for p in get_suite(c.puzzle.name)}
    assert set(boards) <= ran
    assert edges.repetitions >= exact.repetitions  # the 20x20 boards' seeds are among its


def test_the_exact_degree_hubo_below_its_first_run_pairs_with_the_spread_run() -> None:
    # frontier_graded_exact_below must be frontier_graded_exact's cell and settings on the
    # spread run's 10x10 to 12x12 boards (same names, same seeds), which that run left out: the
    # two exact runs together cover every size from 10x10 to 16x16, each trial with a pair.
    below, exact, spread = _experiments(
        "frontier_graded_exact_below", "frontier_graded_exact", "frontier_graded_spread"
    )
    _assert_same_settings(
        below, exact, ("cells", "presolve", "time_limit_s", "repetitions", "frontier", "workers",
                       "max_iterations", "base_seed"),
    )  # fmt: skip
    boards = [p.name for p in get_suite(below.puzzle.name)]
    spread_boards = [p.name for p in get_suite(spread.puzzle.name)]
    assert boards == [n for n in spread_boards if n.split("-")[1] in ("10x10", "11x11", "12x12")]
    assert len(boards) == 2 * (3 + 9 + 9)
    assert not set(boards) & {p.name for p in get_suite(exact.puzzle.name)}
    assert below.experiment_name == "frontier_graded_exact_below"


def test_the_exact_degree_hubo_with_lookahead_presolve_runs_the_lookahead2_squares() -> None:
    # frontier_graded_exact_lookahead must be frontier_graded_exact's cell and settings with
    # presolve=lookahead (look-ahead 1) in place of rules and no frontier rule, on look-ahead 2
    # squares only (look-ahead 1 would settle the others before any solve), 15x15 to 20x20,
    # every one of them a board the auxiliary HUBO ran on with presolve=rules.
    deep, exact, between, spread, edges = _experiments(
        "frontier_graded_exact_lookahead", "frontier_graded_exact", "frontier_graded_between",
        "frontier_graded_spread", FRONTIER_RUNS[0],
    )  # fmt: skip
    _assert_same_settings(
        deep, exact, ("cells", "time_limit_s", "repetitions", "workers", "max_iterations",
                      "base_seed"),
    )  # fmt: skip
    assert deep.presolve.level == "lookahead1" and exact.presolve.level == "rules"
    assert not deep.frontier
    boards = get_suite(deep.puzzle.name)
    assert {p.meta["grade"] for p in boards} == {"lookahead2"}
    sizes = [int(p.size_label.split("x")[0]) for p in boards]
    assert sizes == sorted(sizes) and set(sizes) == {15, 16, 17, 18, 20}
    ran = {p.name for c in (between, spread, edges) for p in get_suite(c.puzzle.name)}
    assert {p.name for p in boards} <= ran


def test_the_auxiliary_paths_with_lookahead_presolve_pair_with_the_exact_hubos_run() -> None:
    # frontier_graded_lookahead must be frontier_graded_between's cells and settings with
    # presolve=lookahead in place of rules, on the boards frontier_graded_exact_lookahead ran
    # on with that run's presolve, budget and seeds: every trial pairs with one of the exact
    # HUBO's (same board, presolve and seed) and, where the cell ran there, its own on rules.
    aux, between, exact = _experiments(
        "frontier_graded_lookahead", "frontier_graded_between", "frontier_graded_exact_lookahead"
    )
    _assert_same_settings(
        aux, between, ("cells", "time_limit_s", "repetitions", "workers", "max_iterations",
                       "base_seed", "frontier"),
    )  # fmt: skip
    _assert_same_settings(
        aux, exact, ("puzzle", "presolve", "time_limit_s", "repetitions", "max_iterations",
                     "base_seed"),
    )  # fmt: skip
    assert aux.presolve.level == "lookahead1" and between.presolve.level == "rules"
    assert [c.formulation for c in aux.cells] == ["hubo", "qubo"]
    _assert_the_hubo_with_exact_degree(exact, aux, ())  # the same HUBO cell but its degree rule


def test_the_auxiliary_paths_at_20x20_run_the_exact_hubos_fresh_boards() -> None:
    # frontier_graded_lookahead_20 must run frontier_graded_lookahead's cells on the boards,
    # presolve, budget and seeds of frontier_graded_exact_lookahead_20: its trials pair.
    twenty, aux, exact = _experiments(
        "frontier_graded_lookahead_20", "frontier_graded_lookahead",
        "frontier_graded_exact_lookahead_20",
    )  # fmt: skip
    _assert_same_settings(twenty, aux, ("cells", "presolve", "time_limit_s", "max_iterations"))
    _assert_same_settings(
        twenty, exact, ("puzzle", "presolve", "time_limit_s", "repetitions", "workers",
                        "max_iterations", "base_seed"),
    )  # fmt: skip
    assert twenty.experiment_name == "frontier_graded_lookahead_20"


def test_the_lookahead_presolve_run_at_30x30_runs_both_hubos_as_their_runs_set_them() -> None:
    # frontier_graded_lookahead_30 must run the auxiliary HUBO of frontier_graded_lookahead
    # and the exact one of frontier_graded_exact_lookahead, with their presolve, budget and
    # seeds (their three and seven more), on the 30x30 look-ahead 2 square alone.
    thirty, aux, exact = _experiments(
        "frontier_graded_lookahead_30", "frontier_graded_lookahead",
        "frontier_graded_exact_lookahead",
    )  # fmt: skip
    cells = OmegaConf.to_container(thirty.cells)
    assert cells == [OmegaConf.to_container(aux.cells)[0], *OmegaConf.to_container(exact.cells)]
    for base in (aux, exact):
        _assert_same_settings(
            thirty, base, ("presolve", "time_limit_s", "max_iterations", "base_seed")
        )
        assert thirty.repetitions > base.repetitions
    (board,) = get_suite(thirty.puzzle.name)
    assert (board.size_label, board.meta["grade"]) == ("30x30", "lookahead2")


def test_the_lookahead_presolve_run_at_20x20_takes_fresh_lookahead2_boards() -> None:
    # frontier_graded_exact_lookahead_20 must run what frontier_graded_exact_lookahead runs
    # (cell, presolve, budget, seeds) on six generated 20x20 squares of look-ahead 2 or more,
    # seeds no library board was made from.
    twenty, deep = _experiments(
        "frontier_graded_exact_lookahead_20", "frontier_graded_exact_lookahead"
    )
    _assert_same_settings(
        twenty, deep, ("cells", "presolve", "time_limit_s", "repetitions", "workers",
                       "max_iterations", "base_seed", "frontier"),
    )  # fmt: skip
    puzzle = twenty.puzzle
    assert puzzle._target_.endswith("puzzle_sources.generated")
    assert (puzzle.rows, puzzle.cols, puzzle.count, puzzle.min_grade) == (20, 20, 6, "lookahead2")
    library = {p.name for p in get_suite("lookahead")}
    assert not {f"gen-20x20-lookahead2-s{puzzle.seed + i}" for i in range(6)} & library


def test_the_long_exact_degree_run_is_the_long_runs_hubo_without_point_auxiliaries() -> None:
    # frontier_graded_long_exact: the 900 s run's HUBO cell with degree_mode=exact and nothing
    # else changed (boards, seeds, budget, presolve), so its trials pair with the long run's.
    exact, long = _experiments("frontier_graded_long_exact", "frontier_graded_long")
    _assert_the_hubo_with_exact_degree(
        exact, long, ("puzzle", "presolve", "time_limit_s", "repetitions", "max_iterations",
                      "base_seed", "workers"),
    )  # fmt: skip
    assert exact.time_limit_s == 900 and exact.puzzle.name == "graded_20"


def _frontier_cfg(extra: list[str]):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose(
            config_name="config",
            overrides=["experiment=frontier", "puzzle=small", "repetitions=2", "workers=1",
                       "progress=false", "time_limit_s=5", "max_iterations=3", *extra],
        )  # fmt: skip


def test_a_cell_stops_at_the_first_size_where_it_solved_nothing(tmp_path: Path) -> None:
    # Steepest descent with 3 iterations solves nothing; the exact method solves everything.
    cells = "cells=[{formulation: qubo, backend: steepest},{formulation: cons, backend: exact}]"
    cfg = _frontier_cfg([cells])
    table = run_experiment(cfg, tmp_path / "store")
    steep = table[table.backend == "steepest"]
    exact = table[table.backend == "exact"]
    assert set(steep.rows * steep.cols) == {16}  # the two 4x4 boards only: 5x5, 6x6 not run
    assert len(steep) == 4 and not (steep.status == "solved").any()
    assert len(exact) == 8 and (exact.status == "solved").all()
    # resuming keeps the rule: nothing more runs
    again = run_experiment(cfg, tmp_path / "store")
    assert len(again) == len(table)
    trials, _ = load(tmp_path / "store")
    assert len(trials) == 12


def test_gate_waits_until_a_size_is_complete(tmp_path: Path) -> None:
    cfg = _frontier_cfg(["cells=[{formulation: qubo, backend: steepest}]"])
    cells = resolve_cells(cfg)
    from slitherbench.run.plan import puzzles_from_config

    jobs = size_order(plan_jobs(cfg, cells, puzzles_from_config(cfg.puzzle)))
    assert [j.puzzle.rows * j.puzzle.cols for j in jobs] == sorted(
        j.puzzle.rows * j.puzzle.cols for j in jobs
    )
    store = ResultStore(tmp_path / "s")
    gate = FrontierGate(store, jobs)
    big = jobs[-1]
    assert gate.blocked(big) is None  # nothing known about smaller sizes yet


def test_cell_params_may_set_constructor_settings_but_not_unknown_names() -> None:
    spec = "cells=[{formulation: qubo, backend: pt, backend_params: {max_rounds: 2}}]"
    cfg = _frontier_cfg([spec])
    (cell,) = resolve_cells(cfg)
    assert cell.backend.params["max_rounds"] == 2
    bad = _frontier_cfg(
        ["cells=[{formulation: qubo, backend: pt, backend_params: {max_round: 2}}]"]
    )
    with pytest.raises(ConfigError, match=r"pt has no setting max_round .*max_rounds"):
        resolve_cells(bad)


def test_a_size_the_presolve_settled_does_not_stop_the_cell(tmp_path: Path) -> None:
    # Forced moves settle the tiny suite's 3x3 board: the backend never ran there, so the
    # cell goes on to the next size (before, a presolved size counted as "solved nothing").
    cfg = _frontier_cfg(
        ["puzzle=tiny", "presolve=rules", "repetitions=1",
         "cells=[{formulation: qubo, backend: steepest}]"]
    )  # fmt: skip
    table = run_experiment(cfg, tmp_path / "store")
    by_size = table.groupby(table.rows * table.cols)["status"].agg(list).to_dict()
    assert by_size[9] == ["presolved"]
    assert len(by_size) == 2, by_size  # the next size ran too
