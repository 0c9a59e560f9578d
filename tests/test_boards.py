"""Boards beyond the square: Loopy game IDs, every form's energy per point degree, every
exact family on Loopy's own puzzles, the generator and every form x backend on each type.

``shared/corpus/loopy_grids_dev.jsonl`` (58 Loopy puzzles on all 16 grid types, with Loopy's
solutions) is the reference; ``tests/test_loopy_geometry.py`` checks the geometry itself.
"""

from __future__ import annotations

import functools
import itertools
import random
from pathlib import Path

import pytest
from conftest import (
    BACKENDS,
    SWEEP_LIMITS,
    corpus_answer,
    formulation_factories,
    grid_records,
    make_backend,
    skip_kind,
)

from slitherbench.models.formulations import ConsFormulation, Model
from slitherbench.models.formulations.base import evaluate
from slitherbench.puzzles.boards import (
    Board,
    board_from_key,
    board_kinds,
    board_with_faces,
    loopy_board,
    square_board,
)
from slitherbench.puzzles.boards.loopy import grid_type, grid_types
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.formats import write_loopy
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError, answer_from_bits
from slitherbench.run.runner import run_trial
from slitherbench.solvers.constraints import solve_lazily
from slitherbench.solvers.cplex_mip import CplexBackend
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.exact import ExactBackend
from slitherbench.solvers.mip import HighsBackend
from slitherbench.solvers.sat import SatBackend
from slitherbench.solvers.smt import Z3Backend
from slitherbench.solvers.zdd import ZddBackend
from slitherbench.sources.generate import generate_on

ROOT = Path(__file__).resolve().parents[1]
RECORDS = grid_records()  # ../shared's 58 Loopy puzzles: missing, collection stops (conftest)
OTHER = [r for r in RECORDS if r["loopy_type"] != 0]

FORMS = formulation_factories()


def small_board(kind: str, seed: int = 1) -> Board:
    """The board of a kind nearest 8 faces (Loopy's smallest kites board has 54)."""
    return board_with_faces(kind, 8, seed)


# -- Loopy game IDs ---------------------------------------------------------------------------
@pytest.mark.parametrize("record", OTHER, ids=[r["id"] for r in OTHER])
def test_game_id_reads_back_and_loopys_answer_checks(record: dict) -> None:
    p = Puzzle.parse(record["loopy_id"])
    assert p.board.kind == grid_type(record["loopy_type"]).kind
    assert (p.num_points, p.num_edges, p.num_faces) == (
        record["num_dots"],
        record["num_edges"],
        record["num_faces"],
    )
    assert write_loopy(p) == record["loopy_id"]  # ID -> board -> ID
    assert Puzzle.parse(p.to_text()) == p
    assert check_answer(p, corpus_answer(record, p)) == []
    assert check_answer(p, [False] * p.num_edges) != []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("5x5t99:abc", "unknown Loopy grid type t99"),
        ("3x3t2:7h", "clue 7 but the face has 6 sides"),
        ("3x3t2:0a", "covers 2 of the 9 faces"),
        ("3x3t2:0a%", "not a clue"),
        ("3x3t2:zzz", "runs past the 9 faces"),
        ("6x6t11dn:Gnonsense_a", "grid description 'Gnonsense'"),
        ("99999x99999t2:a", "at most"),
        ("1x1t2:a", "at least"),
    ],
)
def test_bad_game_ids_are_one_line_errors(text: str, problem: str) -> None:
    with pytest.raises(PuzzleFormatError, match=problem) as err:
        Puzzle.parse(text)
    assert "\n" not in str(err.value)


def test_fuzzed_game_ids_parse_or_fail_in_one_line() -> None:
    rng = random.Random(18)
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:,-tdxG"
    seen = {"read": 0, "refused": 0}
    for _ in range(1500):
        text = list(rng.choice(OTHER)["loopy_id"])
        for _ in range(rng.choice((1, 1, 2))):
            k = rng.randrange(len(text))
            op = rng.randrange(3)
            if op == 0:
                text[k] = rng.choice(alphabet)
            elif op == 1:
                del text[k]
            else:
                text.insert(k, rng.choice(alphabet))
        try:
            p = Puzzle.parse("".join(text))
        except PuzzleFormatError as exc:
            assert "\n" not in str(exc) and str(exc)
            seen["refused"] += 1
        else:
            assert len(p.face_clues) == p.num_faces
            seen["read"] += 1
    assert seen["read"] > 20 and seen["refused"] > 500, seen


def test_other_formats_say_they_hold_squares_only() -> None:
    from slitherbench.puzzles.formats import WRITERS

    hexes = Puzzle.on_board(loopy_board("honeycomb", 3, 3), [None] * 9)
    for name, write in WRITERS.items():
        if name == "loopy":
            continue
        with pytest.raises(PuzzleFormatError, match="square"):
            write(hexes)


# -- the board model --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kind",
    [k if k in ("honeycomb", "floret") else pytest.param(k, marks=pytest.mark.slow)
     for k in board_kinds() if k != "square"],
)  # fmt: skip
def test_board_from_its_key_and_inside_outside(kind: str) -> None:
    b = small_board(kind)
    assert board_from_key(b.kind, b.width, b.height, b.desc) == b
    p = generate_on(b, seed=2)
    inside = b.inside(p.meta["answer"])
    assert 0 < sum(inside) < b.num_faces
    assert b.boundary(inside) == list(p.meta["answer"])


def test_square_board_keeps_the_page_numbering() -> None:
    p = Puzzle.from_rows(["2..", ".3.", "..."])
    assert p.board == square_board(3, 3) == loopy_board("square", 3, 3)
    assert p.face_edges[0] == (p.h(0, 0), p.v(0, 1), p.h(1, 0), p.v(0, 0))
    assert p.to_text() == "2../.3./..."


# -- every form's energy, per point degree and on whole tiny boards --------------------------------
def piece_min_energy(model: Model, piece, edges: dict[int, int]) -> int:
    if piece.native is not None:
        return piece.native.weight * piece.constraint.distance(piece.constraint.total(edges)) ** 2
    best = None
    for bits in itertools.product((0, 1), repeat=len(piece.aux)):
        e = evaluate(piece.poly, {**edges, **dict(zip(piece.aux, bits, strict=True))})
        best = e if best is None else min(best, e)
    return best or 0


@functools.cache
def boards_by_degree() -> dict[int, Board]:
    """One board for each point degree the grid types have (2 to 7: Penrose rhombs reach 7);
    built on first use, not at collection."""
    out: dict[int, Board] = {}
    for kind in board_kinds():
        b = board_with_faces(kind, 50)
        for edges in b.point_edges:
            out.setdefault(len(edges), b)
    return dict(sorted(out.items()))


DEGREES = range(2, 8)


@pytest.mark.slow
def test_the_degrees_that_occur() -> None:
    assert set(boards_by_degree()) == set(DEGREES)


# A board with a point of each degree (the fast subset keeps the square's 2-4 and the
# triangles' 6; snub squares have 5, Penrose rhombs 7).
DEGREE_BOARDS = {2: ("square", 9), 3: ("square", 9), 4: ("square", 9), 5: ("snubsquare", 21),
                 6: ("triangular", 19), 7: ("penrose_p3", 50)}  # fmt: skip


@pytest.mark.parametrize(
    "degree", [d if d != 5 and d != 7 else pytest.param(d, marks=pytest.mark.slow) for d in DEGREES]
)
@pytest.mark.parametrize("form", sorted(FORMS))
def test_degree_energy_is_zero_exactly_at_0_or_2_lines(form: str, degree: int) -> None:
    board = board_with_faces(*DEGREE_BOARDS[degree])
    p = Puzzle.on_board(board, [None] * board.num_faces)
    model = Model.build(p, FORMS[form]())
    point = next(q for q, es in enumerate(board.point_edges) if len(es) == degree)
    pieces = [
        pc for pc in model.pieces if pc.constraint.kind == "degree" and pc.constraint.index == point
    ]
    assert pieces
    for bits in itertools.product((0, 1), repeat=degree):
        edges = dict(zip(board.point_edges[point], bits, strict=True))
        energy = sum(piece_min_energy(model, pc, edges) for pc in pieces)
        assert (energy == 0) == (sum(bits) in (0, 2)), (form, degree, bits, energy)
        assert energy >= 0


def fan(spokes: int) -> Board:
    """A polygon cut into triangles around one centre point of degree ``spokes``."""
    import math

    pts = [(0.0, 0.0)] + [
        (math.cos(2 * math.pi * k / spokes), math.sin(2 * math.pi * k / spokes))
        for k in range(spokes)
    ]
    edges = [(0, k + 1) for k in range(spokes)] + [
        (k + 1, (k + 1) % spokes + 1) for k in range(spokes)
    ]
    faces = [(k, spokes + k, (k + 1) % spokes) for k in range(spokes)]
    return Board(
        f"fan{spokes}", 1, 1, points=tuple(pts), edge_points=tuple(edges), face_edges=tuple(faces)
    )


TINY = {
    "fan6": (fan(6), [2, None, None, 1, None, None]),
    "fan7": (fan(7), [None, 2, None, None, None, None, 1]),
}


@pytest.mark.parametrize("tiny", ["fan6", pytest.param("fan7", marks=pytest.mark.slow)])
@pytest.mark.parametrize(
    "form",
    [
        f if f in ("cons", "hubo-exact") else pytest.param(f, marks=pytest.mark.slow)
        for f in sorted(FORMS)
    ],
)
def test_energy_zero_exactly_when_clues_and_degrees_hold(form: str, tiny: str) -> None:
    board, clues = TINY[tiny]
    p = Puzzle.on_board(board, clues)
    model = Model.build(p, FORMS[form]())
    zero = 0
    for bits in itertools.product((0, 1), repeat=board.num_edges):
        edges = dict(enumerate(bits))
        energy = sum(piece_min_energy(model, pc, edges) for pc in model.pieces)
        ok = all(sum(bits[e] for e in board.face_edges[f]) == n for f, n in p.clue_faces) and all(
            sum(bits[e] for e in es) in (0, 2) for es in board.point_edges
        )
        assert (energy == 0) == ok, (form, bits, energy)
        zero += ok
    assert zero >= 1


# -- exact families agree on Loopy's puzzles ----------------------------------------------------
LAZY = {
    "sat": SatBackend,
    "cpsat-lazy": ExactBackend,
    "mip": HighsBackend,
    "smt": Z3Backend,
    "cplex": CplexBackend,
}
FAST_RECORD = "loopy-5x5t2dn-00"


@pytest.mark.parametrize(
    "record",
    [r if r["id"] == FAST_RECORD else pytest.param(r, marks=pytest.mark.slow) for r in OTHER],
    ids=[r["id"] for r in OTHER],
)
def test_every_exact_family_finds_loopys_answer_and_proves_it_unique(record: dict) -> None:
    p = Puzzle.parse(record["loopy_id"])
    answer = corpus_answer(record, p)
    r = solve_exact(p, time_limit_s=60, method="cpsat")
    assert (r.status, r.answer) == ("unique", answer), "cpsat-circuit"
    for name, backend in LAZY.items():
        if name == "cplex" and backend().unsupported_reason(ConsFormulation()):
            continue
        r = solve_lazily(backend(), p, time_limit_s=60)
        assert (r.status, r.answer) == ("unique", answer), name
    if p.num_faces <= 40:
        t = run_trial(p, ConsFormulation(), ZddBackend(), seed=0, max_iterations=1).trial
        assert t.status == "solved" and answer_from_bits(p, t.answer) == answer
        assert '"solutions": 1' in t.extras


# -- the generator on every grid type ----------------------------------------------------------
@pytest.mark.parametrize(
    "kind",
    [
        k if k in ("square", "honeycomb") else pytest.param(k, marks=pytest.mark.slow)
        for k in board_kinds()
    ],
)
def test_generator_makes_a_unique_puzzle_on_every_kind(kind: str) -> None:
    board = board_with_faces(kind, 25)
    p = generate_on(board, seed=7)
    again = generate_on(board, seed=7)
    assert p == again and p.meta["answer"] == again.meta["answer"]
    assert check_answer(p, p.meta["answer"]) == []
    r = solve_exact(p, time_limit_s=30)
    assert r.status == "unique" and r.answer == p.meta["answer"]
    assert p.num_clues < p.num_faces  # clues were removed


# -- every form x backend on a small board of each type --------------------------------------
@functools.cache
def small_puzzle(kind: str) -> Puzzle:
    """A generated puzzle on the board nearest 8 faces of a grid type."""
    return generate_on(small_board(kind, seed=3), seed=1)


# Forms that every backend accepts between them: cons (native-constraint backends) and the
# HUBO (every sampler); the first one a backend accepts is its form here.
ONE_FORM = ("cons", "hubo", "qubo")


# The iterative method on every grid type: CP-SAT and SAT (every exact family also solves
# Loopy's puzzles of every type whole, above), and simulated annealing on the QUBO.
EVERY_TYPE = ("exact", "sat")


def _sweep() -> list:
    """Full suite: every backend x form on the triangles (points of degree 6, faces of 3
    sides: the grid furthest from the square); CP-SAT, SAT and SA (QUBO) on every grid type.
    Every form's energy is proven per point degree above; ``experiment=grids`` runs every
    backend x form on the shipped suite of every type (README). Fast subset: CP-SAT and SAT
    with the cons form on the honeycomb and the triangles."""
    out = []
    for backend, t in itertools.product(BACKENDS, sorted(grid_types())):
        kind = grid_types()[t].kind
        if kind == "triangular":
            forms: list = sorted(FORMS)
        elif backend in EVERY_TYPE:
            forms = [None]
        elif backend == "sa":
            forms = ["qubo"]
        else:
            continue
        for form in forms:
            if backend == "external" and form == "hubo-exact":
                # A Python process per solve (1 s each) times out at 20 s here: the command
                # path is the same as for hubo, which runs (and tests/test_external.py).
                continue
            fast = (
                backend in ("exact", "sat")
                and form in ("cons", None)
                and kind in ("honeycomb", "triangular")
            )
            marks = () if fast else (pytest.mark.slow,)
            name = f"{backend}-{form or 'any'}-{kind}"
            out.append(pytest.param(backend, form, kind, marks=marks, id=name))
    return out


# The pairs that solve the sweep's triangles (19 faces) reliably within the test's budget: each
# solved seeds 0, 1 and 2 with max_iterations=20, time_limit_s=20 on 2 CPU cores (measured by
# running the sweep's own trials, tests/ as the working directory). The sweep demands a solve of
# these; the rest did not solve every seed (hubo-exact through a reduction: see below; sqa on
# the QUBO and on hubo-exact, the external command on hubo-exact: timeouts) or are not expected
# to (steepest), and are held to "never a wrong answer" only. sb was not installed there.
SOLVES_ON_TRIANGLES = {
    *(("abs3", f) for f in ("cons", "hubo", "hubo-exact", "qubo")),
    *(("easy", f) for f in ("cons", "hubo", "hubo-exact", "qubo")),
    *((b, "cons") for b in ("cplex", "exact", "mip", "sat", "smt", "zdd", "external")),
    *(("external", f) for f in ("hubo", "qubo")),
    *(("openjij", f) for f in ("hubo", "hubo-exact", "qubo")),
    *((b, f) for b in ("pt", "sa", "tabu") for f in ("hubo", "qubo")),
    ("sqa", "hubo"),
}


@pytest.mark.parametrize(("backend", "form", "kind"), _sweep())
def test_every_form_and_backend_on_every_grid_type(backend: str, form: str, kind: str) -> None:
    pytest.importorskip("pysat")
    if backend == "sb":
        pytest.importorskip("simulated_bifurcation", reason="the [sb] extra is not installed")
    p = small_puzzle(kind)
    b = make_backend(backend)
    if form is None:
        form = next((f for f in ONE_FORM if not b.unsupported_reason(FORMS[f]())), ONE_FORM[0])
    f = FORMS[form]()
    # The HUBO's exact degree polynomial has terms of |coefficient| 4 and more at points of
    # degree >= 3; dimod's make_quadratic at the configured strength (4) then admits BQM
    # states below the true minimum (measured: -145 vs 0 on the 8-face triangular board), so
    # the reduced samplers are not expected to solve it: one seed, and no "solved" demand.
    reduced_exact = form == "hubo-exact" and not b.unsupported_reason(FORMS["hubo-exact"]())
    demand = (
        b.expects_solutions and p.num_faces <= 12 and not (reduced_exact and kind != "square")
    ) or (kind == "triangular" and (backend, form) in SOLVES_ON_TRIANGLES)
    # Samplers are stochastic: up to six seeds where a solve is demanded; elsewhere one short
    # trial holds the pair to "never a wrong answer" (six 20 s trials of a pair that does not
    # solve cost the suite minutes for nothing).
    seeds, budget_s = (6, 20) if demand else (1, 5)
    for seed in range(seeds):
        t = run_trial(p, f, b, seed=seed, max_iterations=20, time_limit_s=budget_s).trial
        if t.status in ("solved", "skipped", "error"):
            break
    if b.unsupported_reason(f) or t.status == "skipped":
        assert t.status == "skipped"
        skip_kind(t.reason, SWEEP_LIMITS)  # a documented limit only
        return
    assert t.board == kind and t.faces == p.num_faces
    assert t.status in ("solved", "max_iterations", "timeout"), t.reason
    if t.status == "solved":
        assert t.verified is True
        assert answer_from_bits(p, t.answer) == p.meta["answer"]  # unique: the one answer
    if demand:
        assert t.status == "solved", (t.status, t.reason)


def test_a_puzzle_on_a_board_is_named_by_its_game_id() -> None:
    p = Puzzle.parse("3x3t2:a2b1d")
    assert p.to_text() == "3x3t2:a2b1d"
    assert p.size_label == "honeycomb 3x3"
    with pytest.raises(PuzzleFormatError, match="0-6"):
        Puzzle.on_board(p.board, [7] + [None] * 8)


def test_console_prints_a_picture_path_beyond_the_square(tmp_path: Path, capsys) -> None:
    import pandas as pd

    from slitherbench.puzzles.puzzle import answer_to_bits
    from slitherbench.run.console import print_answer

    p = generate_on(board_with_faces("honeycomb", 9), seed=1)
    trials = pd.DataFrame([{
        "puzzle_rows": p.to_text(), "puzzle": "hex", "status": "solved", "cell": "cons/sat",
        "seed": 1, "iterations": 1, "answer_loop_size": sum(p.meta["answer"]), "key": "k-r0",
        "answer": answer_to_bits(p.meta["answer"]),
    }])  # fmt: skip
    print_answer(trials, tmp_path / "pictures")
    out = capsys.readouterr().out
    picture = tmp_path / "pictures" / "k-r0-answer.png"
    assert f"picture at {picture}" in out and picture.stat().st_size > 1000
    square = Puzzle.from_rows(["3."])
    trials.loc[0, ["puzzle_rows", "answer"]] = "3.", "1010010101"[: square.num_edges]
    print_answer(trials, tmp_path / "pictures")
    assert "+---+" in capsys.readouterr().out  # squares stay ASCII


@pytest.mark.slow
def test_experiment_grids_runs_and_reports_by_board(tmp_path: Path) -> None:
    from hydra import compose, initialize_config_dir

    from slitherbench.analysis.report import main as report_main
    from slitherbench.run.app import CONF_DIR, run_experiment

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=["experiment=grids", "cell=0", "repetitions=1", "progress=false",
                       f"results_dir={tmp_path / 'grids'}"],
        )  # fmt: skip
    trials = run_experiment(cfg)
    assert len(trials) == 47 and set(trials.status) == {"solved"}
    assert set(trials.board) == set(board_kinds())
    # The two items by board kind (the per-size figures draw 47 panels: a minute for nothing here)
    items = "table_by_board,board_iterations,table_by_faces"
    assert report_main([str(tmp_path / "grids"), "--out", str(tmp_path / "report"),
                        "--items", items]) == 0  # fmt: skip
    by_board = (tmp_path / "report" / "table_by_board.md").read_text()
    for kind in board_kinds():
        assert f"| {kind} | cons | sat |" in by_board
    assert (tmp_path / "report" / "board_iterations.png").exists()
    by_faces = (tmp_path / "report" / "table_by_faces.md").read_text()
    assert "| cons | sat | 15/15 | 16/16 | 16/16 |" in by_faces  # ~25, ~50, ~100 faces
    # A published page pools the kinds by faces too (its per-size figure would plot 47 boards)
    assert (
        report_main([str(tmp_path / "grids"), "--publish", str(tmp_path / "page" / "grids")]) == 0
    )
    page = (tmp_path / "page" / "grids.md").read_text()
    assert "## Every board kind pooled by faces" in page and "| cons | sat | 15/15 |" in page
    assert (tmp_path / "page" / "grids" / "success_by_faces.png").exists()
    assert not (tmp_path / "page" / "grids" / "scaling.png").exists()


@pytest.mark.slow
@pytest.mark.parametrize("text", ["5x5t99:abc", "3x3t2:a9b1d", "3x3t2:a2b", "6x6t11:Gx_a"])
def test_a_bad_game_id_on_the_command_line_is_one_line_and_writes_nothing(
    tmp_path: Path, text: str
) -> None:
    import subprocess
    import sys

    out = tmp_path / "run"
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench", "puzzle=text", f"puzzle.text='{text}'",
         f"results_dir={out}"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []
