"""Region (connectivity) cuts: proven exhaustively on 2x2 and 3x3 boards never to remove a
single loop (so never the answer, whatever the clues), encoded with energy 0 exactly where
they hold in every form, and run by every exact family, iteratively and directly."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from conftest import CORPUS_RECORDS, FAST_CORPUS, constraint_backends, skip_for
from hydra.utils import instantiate
from omegaconf import OmegaConf

from slitherbench.models.formulations import (
    ConsFormulation,
    HuboFormulation,
    Model,
    QuboFormulation,
    region_constraint,
)
from slitherbench.models.formulations.base import evaluate
from slitherbench.puzzles.check import split_loops
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits

CONF = Path(__file__).resolve().parents[1] / "conf"


def blank(n: int) -> Puzzle:
    return Puzzle.from_rows(["." * n] * n)


def degree_ok_subgraphs(p: Puzzle) -> list[tuple[bool, ...]]:
    """Every edge set with degree 0 or 2 at each point (unions of disjoint loops), by
    backtracking over the edges: a point is checked once its last edge is decided."""
    last_edge = {q: max(edges) for q, edges in enumerate(p.point_edges)}
    closes = {e: [q for q, m in last_edge.items() if m == e] for e in range(p.num_edges)}
    out: list[tuple[bool, ...]] = []
    edges = [False] * p.num_edges
    deg = [0] * p.num_points

    def go(e: int) -> None:
        if e == p.num_edges:
            out.append(tuple(edges))
            return
        a, b = p.edge_points[e]
        for on in (False, True):
            if on and (deg[a] == 2 or deg[b] == 2):
                continue
            edges[e] = on
            deg[a] += on
            deg[b] += on
            if all(deg[q] in (0, 2) for q in closes[e]):
                go(e + 1)
            deg[a] -= on
            deg[b] -= on
        edges[e] = False

    go(0)
    return out


# Cycles in the (n+1)x(n+1) point grid: OEIS A140517 (1, 13, 213, 9349).
# 3x3 (5 s) in the full suite; the fast subset proves it on 2x2.
@pytest.mark.parametrize(("n", "cycles"), [(2, 13), pytest.param(3, 213, marks=pytest.mark.slow)])
def test_no_region_cut_ever_removes_a_single_loop(n: int, cycles: int) -> None:
    p = blank(n)
    configs = [(c, split_loops(p, list(c))) for c in degree_ok_subgraphs(p)]
    singles = [c for c, loops in configs if len(loops) == 1]
    several = [loops for _, loops in configs if len(loops) >= 2]
    assert len(singles) == cycles
    assert several or n == 2  # a 2x2 board has no room for two loops
    checked = 0
    for loops in several:
        sample = [any(e in lp for lp in loops) for e in range(p.num_edges)]
        for lp, other in itertools.permutations(loops, 2):
            for e, f in itertools.product(lp, other):  # every e of L, every f of another loop
                cut = region_constraint(p, lp, f, 0, edge=e)
                assert not cut.holds(sample)  # it forbids the sample it came from
                bad = [s for s in singles if not cut.holds(s)]
                assert not bad, (lp, e, f, bad[0])
                checked += 1
    assert checked > 0 or n == 2


def test_a_region_cut_forbids_more_than_its_sample() -> None:
    # 3x3: L = the unit loop of cell (0,0), f on the bottom row: one cut forbids L beside
    # every loop through f (several samples); a no-good on the sample would forbid one.
    p = blank(3)
    lp = sorted(p.face_edges[0])
    f = p.h(3, 1)
    cut = region_constraint(p, lp, f, 0)
    with_f = [
        c
        for c in degree_ok_subgraphs(p)
        if c[f] and all(c[e] for e in lp) and len(split_loops(p, list(c))) >= 2
    ]
    assert len(with_f) >= 2 and not any(cut.holds(c) for c in with_f)


def test_region_cut_needs_f_outside_the_loop() -> None:
    p = blank(2)
    lp = sorted(p.face_edges[0])
    with pytest.raises(ValueError, match="outside"):
        region_constraint(p, lp, p.h(1, 1), 0)  # touches the loop's points


FORMS = {
    **{
        f"conf-{c.stem}": (lambda c=c: instantiate(OmegaConf.load(c), cut="region"))
        for c in (CONF / "formulation").glob("*.yaml")
    },
    "hubo-exact": lambda: HuboFormulation(degree_mode="exact", cut="region"),
    "qubo-w3": lambda: QuboFormulation(degree_weight=2, cut_weight=3, cut="region"),
}


def min_piece_energy(model: Model, piece_index: int, edges: tuple[int, ...]) -> int:
    piece = model.pieces[piece_index]
    if piece.native is not None:
        return piece.native.weight * piece.constraint.distance(piece.constraint.total(edges)) ** 2
    base = dict(enumerate(edges))
    assert piece.poly is not None
    return min(
        evaluate(piece.poly, {**base, **dict(zip(piece.aux, bits, strict=True))})
        for bits in itertools.product((0, 1), repeat=len(piece.aux))
    )


# The fast subset proves cons and the QUBO (the slack encoding every annealing form uses for
# region cuts); the HUBO's forms and qubo-w3 (weights), about 1 s each, in the full suite.
@pytest.mark.parametrize(
    "form",
    [f if f in ("conf-cons", "conf-qubo") else pytest.param(f, marks=pytest.mark.slow)
     for f in sorted(FORMS)],
)  # fmt: skip
def test_region_cut_energy_is_zero_exactly_where_it_holds(form: str) -> None:
    p = blank(2)
    model = Model.build(p, FORMS[form]())
    model.add_region(sorted(p.face_edges[0]), p.h(2, 1))
    k = len(model.pieces) - 1
    cut = model.pieces[k].constraint
    assert cut.kind == "region"
    for edges in itertools.product((0, 1), repeat=p.num_edges):
        e = min_piece_energy(model, k, edges)
        assert (e == 0) == cut.holds(edges), (form, edges, e)
        if e == 0:  # the hint completion reaches it
            sample = model.complete([bool(x) for x in edges])
            piece = model.pieces[k]
            assert piece.poly is None or evaluate(piece.poly, sample) == 0


def test_formulation_cut_setting() -> None:
    assert ConsFormulation(cut="region").describe() == "cons+region"
    assert HuboFormulation(cut="region").describe() == "hubo[aux]+region"
    assert "cut" not in QuboFormulation().params()  # the default stays out of stored settings
    with pytest.raises(ValueError, match="cut must be one of"):
        QuboFormulation(cut="wall")


def _region_boards() -> list:
    """Every corpus board up to 10x10, and the first of each larger size (full suite only:
    the loop-cut test already covers all 60 per family); the fast subset has one board per
    size up to 10x10 (conftest.FAST_CORPUS)."""
    seen: set[str] = set()
    out = []
    for d in CORPUS_RECORDS:
        size = f"{d['rows']}x{d['cols']}"
        if d["rows"] * d["cols"] <= 100:
            slow = [] if d["id"] in FAST_CORPUS else [pytest.mark.slow]
            out.append(pytest.param(d, id=d["id"], marks=slow))
        elif size not in seen:
            seen.add(size)
            out.append(pytest.param(d, id=d["id"], marks=pytest.mark.slow))
    return out


# Every exact family, in the iterative method with region cuts and in direct mode (the
# lazy loop with region cuts; CP-SAT: its circuit model): the corpus answer each time.
@pytest.mark.parametrize("corpus_record", _region_boards())
@pytest.mark.parametrize("mode", ["iterative", "direct"])
@pytest.mark.parametrize("backend", constraint_backends())
def test_every_exact_family_solves_with_region_cuts(
    backend: str, mode: str, corpus_record: dict
) -> None:
    from slitherbench.run.runner import run_trial

    b = instantiate(OmegaConf.load(CONF / "backend" / f"{backend}.yaml"), mode=mode)
    if b.available():
        skip_for(b.available())
    p = Puzzle.from_rows(corpus_record["clues"])
    r = run_trial(p, ConsFormulation(cut="region"), b, seed=2, max_iterations=500, time_limit_s=120)
    if r.status == "skipped":  # a size limit (CPLEX Community Edition) only, else a failure
        skip_for(r.trial.reason)
    assert r.status == "solved", r.trial.reason
    assert r.trial.iterations == 1 or mode == "iterative"
    truth = [c == "1" for c in corpus_record["solution_H"] + corpus_record["solution_V"]]
    assert answer_from_bits(p, r.trial.answer) == truth


def test_top_level_cut_reaches_every_cell_and_the_hash_only_when_region() -> None:
    from hydra import compose, initialize_config_dir

    from slitherbench.run.plan import CONF_DIR, resolve_cells

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        base = compose(config_name="config", overrides=["experiment=smoke"])
        same = compose(config_name="config", overrides=["experiment=smoke", "cut=loop"])
        other = compose(config_name="config", overrides=["experiment=smoke", "cut=region"])
    loop_cells, region_cells = resolve_cells(base), resolve_cells(other)
    assert all(c.formulation.cut == "region" for c in region_cells)
    assert all(c.formulation.cut == "loop" for c in loop_cells)
    assert [c.config_hash(base) for c in loop_cells] == [
        c.config_hash(same) for c in resolve_cells(same)
    ]
    assert all(
        a.config_hash(base) != b.config_hash(other)
        for a, b in zip(loop_cells, region_cells, strict=True)
    )


def test_a_cell_may_set_a_base_class_setting_its_yaml_leaves_out() -> None:
    # exact.yaml has no `mode`: it is ConstraintBackend's, reached through **params.
    from slitherbench.run.plan import compose_cell

    cell = compose_cell(
        {"formulation": "cons", "backend": "exact", "backend_params": {"mode": "direct"}}
    )
    assert cell.backend.params["mode"] == "direct"


def test_survey_and_target_boards_are_shipped_with_their_answers() -> None:
    from slitherbench.puzzles.check import check_answer
    from slitherbench.sources.library import get_suite

    survey = get_suite("survey")
    sizes = {p.size_label for p in survey}
    assert sizes == {"11x11", "19x11", "25x15", "37x21", "32x46"}
    assert len(survey) >= 2 * len(sizes)
    for p in [*survey, *get_suite("targets")]:
        assert check_answer(p, p.meta["answer"]) == []  # the independent judge


def _survey_params() -> list:
    """The survey's boards; those above 300 faces (2.5-6 s each to prove unique on 2 cores)
    run with the experiment scripts' quick runs (``pytest -m experiments``, in .ci/run)."""
    from slitherbench.sources.library import get_suite

    return [
        pytest.param(p, id=p.name, marks=[pytest.mark.experiments] if p.num_faces > 300 else [])
        for p in get_suite("survey")
    ]


@pytest.mark.slow
@pytest.mark.parametrize("p", _survey_params())
def test_shipped_survey_boards_are_unique(p) -> None:
    from slitherbench.solvers.cpsat_model import solve_exact

    r = solve_exact(p, time_limit_s=300, method="sat")
    assert r.status == "unique" and r.answer == p.meta["answer"], p.name


def test_the_sat_judged_generator_makes_the_cp_sat_judged_boards(monkeypatch) -> None:
    import slitherbench.sources.generate as gen

    fast = [gen.generate(5, 5, s).to_rows() for s in (1, 2)]
    monkeypatch.setattr(gen, "find_spec", lambda name: None)  # as if python-sat were absent
    assert fast == [gen.generate(5, 5, s).to_rows() for s in (1, 2)]
