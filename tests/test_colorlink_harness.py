"""Colorlink through the harness (slitherbench.puzzles.colorlink.harness), the only way it is solved:
the layered board, the description against the Colorlink rows, exhaustive energies of every
form (edge and face variables), colours that cross, the variant's cuts, every form x backend
through the runner, the checker, the text forms, the reason a puzzle has no answer, the app
and the store."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from conftest import BACKENDS, SWEEP_LIMITS, make_backend, skip_kind
from hydra import compose, initialize_config_dir
from test_faces import FACE_FORMS, _exhaust, aux_minimum

from slitherbench.models.formulations import (
    ConsFormulation,
    FormUnavailable,
    HuboFormulation,
    Model,
    QuboFormulation,
)
from slitherbench.puzzles.check import check_answer, split_loops
from slitherbench.puzzles.colorlink import read_colorlink
from slitherbench.puzzles.colorlink.constraints import base_rows
from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle, layered_board, why_infeasible
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError, answer_from_bits
from slitherbench.run.app import CONF_DIR, run_experiment
from slitherbench.run.runner import run_trial
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.sources.colorlink import crossings, generated_colorlink
from slitherbench.store.results import load

SMALL = "2g../.2g3r/.3k."  # 3x3, colours r and g, a black 3: one answer


def _puzzle(text: str = SMALL) -> ColorlinkPuzzle:
    return ColorlinkPuzzle.of(read_colorlink(text))


def test_layered_board_numbers_each_colour_as_a_copy() -> None:
    p = _puzzle()
    base = p.source.board
    E, P, F = base.num_edges, base.num_points, base.num_faces
    board = layered_board(base, 2)
    assert (board.num_edges, board.num_points, board.num_faces) == (2 * E, 2 * P, 2 * F)
    assert board.edge_points[E + 5] == tuple(q + P for q in base.edge_points[5])
    assert board.point_edges[P + 3] == tuple(e + E for e in base.point_edges[3])
    assert board.face_edges[F + 4] == tuple(e + E for e in base.face_edges[4])
    assert board.edge_faces[E + 0] == (F + base.edge_faces[0][0], -1)  # the outside stays -1
    assert p.board == board and p.colours == ("r", "g") and p.num_edges == 2 * E


def test_description_is_the_colorlink_rows() -> None:
    """The layers' clue and degree rules plus the variant's rows are exactly the Colorlink
    package's own rows (computed there without the layered board)."""
    from slitherbench.models.formulations import base_constraints

    for text in (SMALL, "0r1g/2k.", generated_colorlink(5, 5, 3, 1).to_text()):
        p = Puzzle.parse(text if text.startswith("colorlink=") else "colorlink=" + text)
        ours = sorted((c.kind, tuple(sorted(c.edges)), c.allowed) for c in base_constraints(p))
        theirs = sorted(
            (r.kind, tuple(sorted(r.variables)), r.allowed) for r in base_rows(p.source)
        )
        assert ours == theirs


# -- exhaustive energies -----------------------------------------------------------------------
EDGE_FORMS = {
    "cons": ConsFormulation,
    "hubo[aux]": HuboFormulation,
    "hubo[exact]": lambda: HuboFormulation(degree_mode="exact"),
    "qubo": QuboFormulation,
}


def _exhaust_edges(model: Model) -> int:
    """Every edge assignment at once: each piece's minimum over its auxiliaries is >= 0 and 0
    exactly where its constraint holds; ``complete`` reaches that minimum. Returns the number
    of energy-0 assignments."""
    E = model.puzzle.num_edges
    table = np.array(list(itertools.product((0, 1), repeat=E)), dtype=np.int64)
    n = len(table)
    columns = {e: table[:, e] for e in range(E)}
    energy = np.zeros(n, dtype=np.int64)
    every = np.ones(n, dtype=bool)
    for piece in model.pieces:
        c = piece.constraint
        ok = np.isin(table @ np.array([c.linear().get(e, 0) for e in range(E)]), c.allowed)
        every &= ok
        if piece.native is not None:
            energy += ~ok
            continue
        m = aux_minimum(piece, columns, n)
        assert (m >= 0).all() and np.array_equal(m == 0, ok), c
        energy += m
    assert np.array_equal(energy == 0, every)
    for r in list(np.flatnonzero(energy == 0)) + list(range(0, n, max(1, n // 30))):
        full = model.complete([bool(v) for v in table[r]])
        assert (model.energy(full) == 0) == (energy[r] == 0)
    return int((energy == 0).sum())


@pytest.mark.parametrize("form", sorted(EDGE_FORMS))
@pytest.mark.parametrize("text", ["0r1g", "3g3k"])  # "every colour a line", a black clue
def test_edge_forms_are_zero_exactly_on_the_rules(form: str, text: str) -> None:
    p = _puzzle(text)
    model = Model.build(p, EDGE_FORMS[form]())
    kinds = {pc.constraint.kind for pc in model.pieces}
    assert kinds >= ({"nonempty", "exclusive"} if text == "0r1g" else {"black"})
    # 0r1g: red needs a line yet every loop of a 1x2 touches its 0 (no answer, and none found)
    assert _exhaust_edges(model) >= (text != "0r1g")


@pytest.mark.slow
@pytest.mark.parametrize("form", ["hubo[aux]", "hubo[exact]", "qubo"])  # cons: native rows
def test_every_piece_is_zero_exactly_where_its_rule_holds(form: str) -> None:
    """Piece by piece over every value of the labels it reads (black clues across three
    colours included): the minimum over its auxiliaries is >= 0, and 0 exactly where the
    rule holds; the energy is their sum, so this is the whole model's check on boards too big
    to enumerate. (A colour's "some line" reads all its edges: the 1x2 cases above.)"""
    from slitherbench.models.formulations.base import evaluate

    p = generated_colorlink(5, 5, 3, 1)
    model = Model.build(p, EDGE_FORMS[form]())
    assert {pc.constraint.kind for pc in model.pieces} >= {"black", "exclusive", "degree", "clue"}
    for piece in model.pieces:
        if piece.native is not None:
            continue
        c = piece.constraint
        labels = sorted(piece.labels - set(piece.aux))
        for bits in itertools.product((0, 1), repeat=len(labels)):
            x = dict(zip(labels, bits, strict=True))
            m = min(
                evaluate(piece.poly, {**x, **dict(zip(piece.aux, a, strict=True))})
                for a in itertools.product((0, 1), repeat=len(piece.aux))
            )
            assert m >= 0 and (m == 0) == c.holds(x), (c, x)


@pytest.mark.parametrize("form", ["cons/face", "hubo[exact]/face", "hubo[aux]/face"])
@pytest.mark.parametrize("text", ["4r1g/2k.", "0r1g/.."])
def test_face_forms_are_zero_exactly_on_the_rules(form: str, text: str) -> None:
    """Two colours on a 2x2: 8 face variables, every assignment."""
    model = Model.build(_puzzle(text), FACE_FORMS[form]())
    assert _exhaust(model) >= 1


def test_qubo_face_form_takes_one_colour_and_skips_what_spans_colours() -> None:
    model = Model.build(_puzzle("1r./3k."), QuboFormulation(variables="face"))
    assert _exhaust(model) >= 1  # one colour: a black clue is a clue, quadratic
    with pytest.raises(FormUnavailable, match="black rule quadratically"):
        Model.build(_puzzle("1r1g/2k."), QuboFormulation(variables="face"))
    t = run_trial(_puzzle(), QuboFormulation(variables="face"), make_backend("sa"), 0).trial
    assert t.status == "skipped" and "\n" not in t.reason and "use hubo/face" in t.reason


# -- colours that cross ---------------------------------------------------------------------
def test_a_crossing_answer_is_energy_zero_in_every_form_and_solved() -> None:
    """A generated puzzle whose colours cross: its answer has energy 0 in every form with edge
    or face variables (qubo/face takes one colour only) and is the SAT backend's answer
    through the runner, checked."""
    p = generated_colorlink(4, 4, 2, 0, cross=True)
    assert crossings(p.source.board, p.source.meta["answer"])
    answer = p.meta["answer"]
    forms = {**EDGE_FORMS, **{k: f for k, f in FACE_FORMS.items() if k != "qubo/face"}}
    for name, form in forms.items():
        model = Model.build(p, form())
        assert model.energy(model.complete(answer)) == 0, name
    t = run_trial(p, ConsFormulation(), make_backend("sat"), seed=0).trial
    assert t.status == "solved" and t.verified and answer_from_bits(p, t.answer) == answer
    assert solve_exact(p).status == "unique"


# -- the variant's stopping rule and cuts --------------------------------------------------------
@pytest.mark.parametrize("cut", ["loop", pytest.param("region", marks=pytest.mark.slow)])
def test_cuts_never_forbid_the_answer(cut: str) -> None:
    """On every multi-loop sample of real runs: the stopping rule refuses it, and each of the
    variant's cuts forbids the sample while the (unique) answer keeps it. A sample that holds
    one loop per colour beside extra loops stops there, as the page stops beside them."""
    seen = 0
    for seed in range(4):
        p = generated_colorlink(5, 5, 2, seed)
        result = run_trial(p, ConsFormulation(cut=cut), make_backend("sat"), seed)
        t = result.trial
        assert t.status == "solved" and t.verified
        answer = answer_from_bits(p, t.answer)
        assert answer == p.meta["answer"]  # the generator's (unique) answer
        for it in result.iterations[:-1]:
            sample = answer_from_bits(p, it.edges)
            loops = split_loops(p, sample)
            assert p.variant_answer(loops) is None
            cuts = p.variant_cuts(loops, cut, 0)
            assert cuts and all(c.holds(answer) and not c.holds(sample) for c in cuts)
            seen += len(cuts)
        extra = _with_extra_loop(p, answer)
        if extra is not None:
            assert p.variant_answer(split_loops(p, extra)) == [
                e for e, on in enumerate(answer) if on
            ]
    assert seen >= 4


def _with_extra_loop(p: ColorlinkPuzzle, answer: list[bool]) -> list[bool] | None:
    """The answer plus a unit square in the first colour around a cell whose sides no colour
    uses and whose corners the first colour's loop does not touch (others may cross there)."""
    board, K = p.source.board, len(p.colours)
    E = board.num_edges
    lines = [any(answer[k * E + e] for k in range(K)) for e in range(E)]
    touched = {q for e in range(E) if answer[e] for q in board.edge_points[e]}
    for sides in board.face_edges:
        corners = {q for e in sides for q in board.edge_points[e]}
        if not any(lines[e] for e in sides) and not corners & touched:
            out = list(answer)
            for e in sides:
                out[e] = True
            return out
    return None


# -- every form x backend ---------------------------------------------------------------------
ALL_FORMS = {
    **{k: (lambda f=f: f()) for k, f in EDGE_FORMS.items()},
    **{k: (lambda f=f: f()) for k, f in FACE_FORMS.items()},
}
FAST_PAIRS = {("sat", "cons/face"), ("tabu", "qubo")}


@pytest.mark.parametrize(
    ("backend", "form"),
    [
        (b, f) if (b, f) in FAST_PAIRS else pytest.param(b, f, marks=pytest.mark.slow)
        for b in BACKENDS
        for f in sorted(ALL_FORMS)
    ],
)
def test_every_form_on_every_backend(backend: str, form: str) -> None:
    """Exact families solve it; an annealer may run out of iterations, never answer wrong;
    every skip is one line. The answer is the puzzle's only one."""
    p = _puzzle()
    answer = solve_exact(p).answer
    f, b = ALL_FORMS[form](), make_backend(backend)
    must_solve = backend in ("sat", "exact", "mip", "smt", "cplex", "abs3", "easy")
    # the samplers only need to hold the rules here: a short budget keeps the sweep quick
    t = run_trial(
        p, f, b, seed=3, max_iterations=8 if must_solve else 5, time_limit_s=10 if must_solve else 1
    ).trial
    if t.status == "skipped":  # only a documented limit, in one line; else a failure
        skip_kind(t.reason, SWEEP_LIMITS)
        return
    if must_solve:
        assert t.status == "solved", t.reason
    assert t.status in ("solved", "max_iterations", "timeout"), t.reason
    if t.status == "solved":
        got = answer_from_bits(p, t.answer)
        assert t.verified and check_answer(p, got) == [] and got == answer


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "form"), [("openjij", "hubo[aux]"), ("tabu", "qubo")])
def test_annealers_solve_a_small_colorlink(backend: str, form: str) -> None:
    t = run_trial(_puzzle(), ALL_FORMS[form](), make_backend(backend), 1, 40, 20).trial
    assert t.status == "solved" and t.verified


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["exact", "sat"])
def test_direct_mode_solves_one_loop_per_colour(backend: str) -> None:
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    b = instantiate(
        OmegaConf.merge(
            OmegaConf.load(CONF_DIR / "backend" / f"{backend}.yaml"), {"mode": "direct"}
        )
    )
    p = generated_colorlink(5, 5, 3, 2)
    t = run_trial(p, ConsFormulation(), b, seed=0, time_limit_s=20).trial
    assert t.status == "solved" and t.iterations == 1
    assert answer_from_bits(p, t.answer) == p.meta["answer"]


def test_zdd_is_a_one_line_skip() -> None:
    t = run_trial(_puzzle(), ConsFormulation(), make_backend("zdd"), seed=0).trial
    assert t.status == "skipped" and "one loop per colour" in t.reason and "\n" not in t.reason


# -- checker, text -------------------------------------------------------------------------------
def test_checker_judges_the_layers() -> None:
    p = next(
        q
        for s in range(10)
        if _with_extra_loop(q := generated_colorlink(5, 5, 2, s), q.meta["answer"])
    )
    answer = p.meta["answer"]
    assert check_answer(p, answer) == []
    E = p.source.board.num_edges
    both = list(answer)
    e = next(e for e in range(E) if answer[e])  # a red edge also green
    both[E + e] = True
    assert any("carries 2 colours" in s for s in check_answer(p, both))
    extra = _with_extra_loop(p, answer)
    assert extra is not None
    assert any("loops" in s for s in check_answer(p, extra))  # a colour in two loops
    assert check_answer(p, answer[:-1]) == [f"answer has {2 * E - 1} edges, the board has {2 * E}"]


def test_text_round_trip_and_one_line_errors() -> None:
    p = _puzzle()
    assert p.to_text() == "colorlink=" + SMALL and Puzzle.parse(p.to_text()) == p
    assert Puzzle.parse(p.to_text()) != _puzzle("2g../.2g3r/.2k.")  # black clues count
    assert hash(Puzzle.parse(p.to_text())) == hash(p)
    for bad, says in [
        ("colorlink=2x../...", "unknown colour 'x'"),
        ("colorlink=5r/..", "larger than"),
        ("colorlink=1r../..", "ragged"),
    ]:
        with pytest.raises(PuzzleFormatError, match=says) as err:
            Puzzle.parse(bad)
        assert "\n" not in str(err.value)
    with pytest.raises(PuzzleFormatError, match="no extra rules"):
        p.with_rules("no_square")
    assert "colour g, row 1, column 1" == p.face_name(9)


def test_why_infeasible_names_the_colour_at_fault() -> None:
    assert why_infeasible(read_colorlink("3r3r1g/3r3r1g"), solve_exact) == (
        "colour r: its clues cannot form one loop"
    )
    both = read_colorlink("2r2r./2r2r./..3g")  # each colour alone has a loop, not together
    assert solve_exact(ColorlinkPuzzle.of(both)).status == "infeasible"
    assert "cannot share the board" in why_infeasible(both, solve_exact)


# -- the app and the store ----------------------------------------------------------------------
@pytest.mark.slow
def test_the_app_runs_colorlink_into_a_store(tmp_path: Path) -> None:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[
                "experiment=colorlink",
                "puzzle=text",
                f"puzzle.text='colorlink={SMALL}'",
                "puzzle.name=small",
                "repetitions=1",
                "time_limit_s=10",
                "progress=false",
                "cells=[{formulation: cons, backend: sat}, {formulation: cons, backend: zdd}]",
            ],
        )
    table = run_experiment(cfg, tmp_path / "store")
    assert list(table.status) == ["solved", "skipped"]
    trials, _ = load(tmp_path / "store")
    assert set(trials.board) == {"colorlink"} and set(trials.puzzle_rows.str[:10]) == {"colorlink="}
    for t in trials[trials.status == "solved"].itertuples():
        p = Puzzle.parse(t.puzzle_rows, name=t.puzzle)
        assert check_answer(p, answer_from_bits(p, t.answer)) == []
    from slitherbench.analysis.report import main as report_main

    report_main([str(tmp_path / "store")])
    assert (tmp_path / "store" / "report" / "board_iterations.png").exists()


@pytest.mark.slow
def test_an_infeasible_colorlink_text_is_one_error_line(tmp_path: Path) -> None:
    from test_app import run_cli

    out = run_cli("puzzle=text", "puzzle.text='colorlink=4r4r/..'", f"results_dir={tmp_path / 'r'}")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1] == (
        "error: puzzle.text: no answer: colour r: its clues cannot form one loop (the exact "
        "check proved it, ColorlinkPuzzle('custom', colorlink 2x2, 2 clues, colours r))"
    )
    assert not (tmp_path / "r").exists()


def test_the_module_tutorial_runs() -> None:
    import doctest

    import slitherbench.puzzles.colorlink.harness as harness

    result = doctest.testmod(harness)
    assert result.failed == 0 and result.attempted >= 6


def test_a_sample_is_shown_through_the_puzzles_hooks() -> None:
    """The console and the report draw a Colorlink sample through the puzzle's own hooks:
    each line in its colour's letter, a sample with an edge in two colours said so."""
    from slitherbench.puzzles.colorlink.text import render_answer

    p = ColorlinkPuzzle.of(read_colorlink(SMALL))
    answer = solve_exact(p).answer
    assert p.sample_text(answer) == render_answer(p.source, p.colour_answer(answer))
    E = p.source.board.num_edges
    both = list(answer)
    e = next(e for e in range(E) if answer[e])
    both[E + e] = True  # the same edge in the second colour too
    assert p.sample_text(both).startswith("(not drawn: ")
    assert p.answer_words(12) == "one loop per colour, 12 edges in all"
    assert p.drawing_board == p.source.board != p.board
    assert Puzzle.from_rows(["3."]).answer_words(4) == "one loop of 4 edges"


@pytest.mark.slow  # parses every module (0.6 s)
def test_no_module_outside_the_variants_package_asks_for_a_variant_by_name() -> None:
    """The harness calls a variant's hooks; only ``slitherbench/puzzles/colorlink`` knows Colorlink."""
    import ast

    root = Path(__file__).resolve().parents[1] / "slitherbench"
    found = []
    for path in sorted(root.rglob("*.py")):
        if "colorlink" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                named = any(isinstance(s, ast.Attribute) and s.attr == "variant" for s in sides)
                text = any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides)
                if named and text:
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []
