"""Every rule, No-Square included, proved in every form x variables on small boards: the
form's energy, its auxiliaries minimised out, is 0 exactly on the
assignments an independent judge calls feasible, and at least 1 everywhere else.

The judge here shares nothing with the formulations: degrees, clue counts and cuts are
counted from the board's edge lists, a cell is inside the loop by ray casting (an odd number
of vertical lines left of it), No-Square is "no 2x2 block of cells all inside". The cons
form's energy is recomputed from the rules (squared distance to the nearest allowed value,
written out per kind here) and compared with ``Model.energy`` on every assignment, so its
``Constraint.distance`` is checked, not trusted.

Assignments: with face variables, every colouring of the board (all of them: they are the
variables). With edge variables, on 2x2 boards every edge set and every value of the face
variables a rule on faces adds; on 3x3 boards every edge set that is the border of a colouring
(every even-degree set, each loop of the 213 among them), with the face variables at that
colouring: any other value breaks a channel row, and each channel piece is proved on all
its own assignments (:func:`test_every_channel_piece_is_exact`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf
from test_faces import aux_minimum

from slitherbench.models.formulations import HuboFormulation, Model, QuboFormulation, region_parts
from slitherbench.puzzles.check import check_answer, split_loops
from slitherbench.puzzles.puzzle import Puzzle

CONF = Path(__file__).resolve().parents[1] / "conf"


def _conf_form(stem: str, **kw) -> Callable:
    return lambda: instantiate(
        OmegaConf.merge(OmegaConf.load(CONF / "formulation" / f"{stem}.yaml"), kw)
    )


# Every formulation config in edge and face variables, the HUBO's exact degree rule, and the
# QUBO's lazy face form (its deferred degree rule added up front: what it converges to).
FORMS: dict[str, Callable] = {}
for _p in sorted((CONF / "formulation").glob("*.yaml")):
    for _v in ("edge", "face"):
        FORMS[f"{_p.stem}/{_v}"] = _conf_form(_p.stem, variables=_v)
for _v in ("edge", "face"):
    FORMS[f"hubo[exact]/{_v}"] = lambda v=_v: HuboFormulation(degree_mode="exact", variables=v)
FORMS["qubo[lazy]/face"] = lambda: QuboFormulation(degree_mode="lazy", variables="face")
assert {"cons/edge", "cons/face", "hubo/edge", "qubo/face"} <= set(FORMS)

# Boards with answers (each holds at least one feasible assignment, asserted below).
BOARDS = {
    # Under No-Square only the plus fits; as plain Slitherlink 16 answers.
    "plus-ns": "rules=no_square;.../.0./..2",
    "blank3-ns": "rules=no_square;.../.../...",
    "clued3": ".3./1.3/1..",
    "clued2": "2./.2",
    "blank2-ns": "rules=no_square;../..",
    "clued2-ns": "rules=no_square;.3/..",
}


# -- the independent judge ------------------------------------------------------------------
def inside_by_rays(p: Puzzle, edges: np.ndarray) -> np.ndarray:
    """Cells inside, per row of ``edges``: an odd number of vertical lines left of the cell."""
    cols = []
    for i in range(p.rows):
        parity = np.zeros(len(edges), dtype=np.int64)
        for j in range(p.cols):
            parity = parity ^ edges[:, p.v(i, j)]
            cols.append(parity.copy())
    return np.stack(cols, axis=1)  # face r * cols + c, row-major as the board numbers them


def feasible(p: Puzzle, edges: np.ndarray, cuts: list[list[int]], regions=()) -> np.ndarray:
    """``regions``: (border, e, f) of region cuts: a loop through e and f crosses the border
    of the cut loop's points at least twice."""
    ok = np.ones(len(edges), dtype=bool)
    for border, e, f in regions:
        ok &= edges[:, list(border)].sum(axis=1) >= 2 * (edges[:, e] + edges[:, f] - 1)
    for pe in p.point_edges:
        ok &= np.isin(edges[:, list(pe)].sum(axis=1), (0, 2))
    for f, n in p.clue_faces:
        ok &= edges[:, list(p.face_edges[f])].sum(axis=1) == n
    for loop in cuts:
        ok &= edges[:, loop].sum(axis=1) < len(loop)
    if "no_square" in p.rules:
        inside = inside_by_rays(p, edges)
        for r in range(p.rows - 1):
            for c in range(p.cols - 1):
                block = [r * p.cols + c, r * p.cols + c + 1, (r + 1) * p.cols + c]
                block.append((r + 1) * p.cols + c + 1)
                ok &= inside[:, block].sum(axis=1) < 4
    return ok


def rule_distance(p: Puzzle, kind: str, index: int, total: np.ndarray, size: int) -> np.ndarray:
    """How far a left-hand side is from the rule, from the rule's own statement."""
    if kind == "clue":
        return np.abs(total - dict(p.clue_faces)[index])
    if kind in ("degree", "channel"):  # 0 or 2 (a channel row x_e + c_f + c_g is even)
        return np.minimum(np.abs(total), np.abs(total - 2))
    if kind == "no_square":  # at most 3 of the block's 4 cells inside
        return np.maximum(total - 3, 0)
    if kind == "cut":  # not every edge of the loop
        return np.maximum(total - (size - 1), 0)
    if kind == "region":  # border - 2 x_e - 2 x_f >= -2
        return np.maximum(-2 - total, 0)
    raise AssertionError(f"no independent rule for {kind}")


# -- the energy, auxiliaries minimised out --------------------------------------------------
def form_energy(model: Model, columns, edges: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """The form's energy at each row: penalty pieces at their auxiliaries' minimum; native
    (cons) pieces by :func:`rule_distance` on the row's edges and colours."""
    n = len(edges)
    p = model.puzzle
    total = np.zeros(n, dtype=np.int64)
    for piece in model.pieces:
        c = piece.constraint
        if piece.native is None:
            m = aux_minimum(piece, columns, n)
            assert (m >= 0).all(), c
            total += m
            continue
        if c.faces:
            lhs = colours[:, list(c.faces)].sum(axis=1)
        elif model.faces:  # face variables: a constraint's edges are edge indices
            lhs = edges[:, list(c.edges)] @ np.array(c.coeffs or (1,) * len(c.edges))
        else:  # edge variables: labels (edges, and the face labels of a rule on faces)
            lhs = sum(
                a * columns[lb]
                for lb, a in zip(c.edges, c.coeffs or (1,) * len(c.edges), strict=True)
            )
        size = len(c.source) if c.kind == "cut" else 0
        total += piece.native.weight * rule_distance(p, c.kind, c.index, lhs, size) ** 2
    return total


def assignments(model: Model, exhaustive_edges: bool):
    """(label columns, edges, colours, group): ``group`` maps each row to the edge set it
    stands for, so the energy is minimised over the face labels of an edge form."""
    p = model.puzzle
    board = p.board
    F, E = p.num_faces, p.num_edges
    if model.faces or not exhaustive_edges:
        colours = np.array(list(itertools.product((0, 1), repeat=F)), dtype=np.int64)
        edges = np.stack(
            [colours[:, f] ^ (colours[:, g] if g >= 0 else 0) for f, g in board.edge_faces], axis=1
        )
        if model.faces:
            columns = {f: colours[:, f] for f in range(F)}
        else:
            columns = {e: edges[:, e] for e in range(E)}
            columns.update({lb: colours[:, f] for f, lb in enumerate(model.face_labels)})
        return columns, edges, colours, np.arange(len(colours))
    face_values = list(itertools.product((0, 1), repeat=len(model.face_labels)))
    grid = np.array(
        [(*es, *fs) for es in itertools.product((0, 1), repeat=E) for fs in face_values],
        dtype=np.int64,
    )
    edges = grid[:, :E]
    columns = {e: edges[:, e] for e in range(E)}
    columns.update({lb: grid[:, E + k] for k, lb in enumerate(model.face_labels)})
    colours = grid[:, E:] if model.face_labels else np.zeros((len(grid), F), dtype=np.int64)
    return columns, edges, colours, np.repeat(np.arange(2**E), len(face_values))


def prove(model: Model, exhaustive_edges: bool, cuts: list[list[int]], regions=()) -> int:
    """Energy 0 exactly where the judge says feasible, >= 1 elsewhere, and the auxiliaries
    ``Model.complete`` picks for a feasible edge set (the hints') reach 0; returns the number
    of feasible edge sets."""
    columns, edges, colours, group = assignments(model, exhaustive_edges)
    energy = form_energy(model, columns, edges, colours)
    groups = group.max() + 1
    best = np.full(groups, np.iinfo(np.int64).max)
    np.minimum.at(best, group, energy)
    first = np.zeros(groups, dtype=np.int64)
    first[group[::-1]] = np.arange(len(group))[::-1]
    ok = feasible(model.puzzle, edges[first], cuts, regions)
    bad = np.flatnonzero((best == 0) != ok)
    assert bad.size == 0, [(edges[first[r]].tolist(), int(best[r]), bool(ok[r])) for r in bad[:3]]
    for r in np.flatnonzero(ok)[:64]:
        sample = model.complete([bool(x) for x in edges[first[r]]])
        assert model.energy(sample) == 0, edges[first[r]].tolist()
    if model.formulation.native:  # the cons form's own energy agrees with the rules' energy
        for r in range(0, len(group), max(1, len(group) // 64)):
            sample = {lb: int(col[r]) for lb, col in columns.items()}
            assert model.energy(sample) == energy[r], (r, sample)
    return int(ok.sum())


def _lazy_ready(model: Model) -> Model:
    model.add_deferred(model.deferred[:])  # the lazy form once every degree rule entered
    return model


# The fast subset proves every form on the No-Square plus and on every edge set of the clued
# 2x2 (0.03-0.07 s each);
# every other case (each 0.1-1.5 s) is in the full suite.
FAST = {(f, b) for f in FORMS for b in ("plus-ns", "clued2")}


@pytest.mark.parametrize(
    ("form", "board"),
    [
        (f, b) if (f, b) in FAST else pytest.param(f, b, marks=pytest.mark.slow)
        for f in sorted(FORMS)
        for b in sorted(BOARDS)
    ],
)
def test_energy_zero_exactly_when_feasible_in_every_form(form: str, board: str) -> None:
    p = Puzzle.parse(BOARDS[board])
    model = _lazy_ready(Model.build(p, FORMS[form]()))
    exhaustive = p.num_edges <= 12
    zero = prove(model, exhaustive, [])
    assert zero >= 1, "the board must have a feasible assignment for the proof to mean much"
    # with a cut: the first loop of the first feasible non-empty assignment forbidden
    _, edges, _, _ = assignments(model, False)
    row = int(np.flatnonzero(feasible(p, edges, []) & edges.any(axis=1))[0])
    first = split_loops(p, [bool(x) for x in edges[row]])[0]
    model.add_cut(first)
    after = prove(model, exhaustive, [first])
    assert after < zero


def test_no_square_proofs_cover_every_3x3_loop() -> None:
    """The blank No-Square 3x3: of the 213 single loops the checker finds, exactly those
    without a 2x2 block inside are feasible for the judge used above (the same judge as the
    checker's, counted the other way)."""
    p = Puzzle.parse(BOARDS["blank3-ns"])
    colours = np.array(list(itertools.product((0, 1), repeat=9)), dtype=np.int64)
    edges = np.stack(
        [colours[:, f] ^ (colours[:, g] if g >= 0 else 0) for f, g in p.board.edge_faces], axis=1
    )
    ok = feasible(p, edges, [])
    plain = Puzzle.parse(".../.../...")
    loops = [
        r
        for r in range(len(edges))
        if edges[r].any() and not check_answer(plain, edges[r].tolist())
    ]
    assert len(loops) == 213
    judged = {r for r in loops if ok[r]}
    checker = {r for r in loops if check_answer(p, edges[r].tolist()) == []}
    assert judged == checker and 0 < len(judged) < 213


@pytest.mark.parametrize("form", [f for f in sorted(FORMS) if f.endswith("/edge")])
def test_every_channel_piece_is_exact(form: str) -> None:
    """An edge form's face variables for No-Square are tied to the edges by channel rows
    x_e + c_f + c_g in {0, 2}: each piece is 0 (auxiliaries minimised) exactly on its even
    assignments, so face labels other than the edges' colouring always cost energy."""
    p = Puzzle.parse(BOARDS["plus-ns"])
    model = Model.build(p, FORMS[form]())
    channels = [pc for pc in model.pieces if pc.constraint.kind == "channel"]
    assert len(channels) == p.num_edges
    for piece in channels:
        labels = list(piece.constraint.edges)
        table = np.array(list(itertools.product((0, 1), repeat=len(labels))), dtype=np.int64)
        columns = {lb: table[:, k] for k, lb in enumerate(labels)}
        if piece.native is not None:
            value = piece.native.weight * rule_distance(p, "channel", 0, table.sum(axis=1), 0) ** 2
        else:
            value = aux_minimum(piece, columns, len(table))
        assert ((value == 0) == (table.sum(axis=1) % 2 == 0)).all(), piece.constraint
        assert (value >= 0).all()


@pytest.mark.parametrize("form", [f for f in sorted(FORMS) if f.endswith("/edge")])
def test_region_cuts_hold_exactly_where_the_border_is_crossed(form: str) -> None:
    """A region cut (``cut: region``) on every edge set of a 1x3: from the loop round the
    left cell and the right edge of the board, each form is 0 exactly where any loop through
    both crosses the left loop's border at least twice (and the other rules hold); the two
    unit loops at the ends, feasible before, are cut."""
    p = Puzzle.parse("...")
    model = Model.build(p, FORMS[form]())
    loop = sorted(p.face_edges[0])
    model.add_region(loop, p.v(0, 3))
    c = model.pieces[-1].constraint
    region = (region_parts(c)[0], min(loop), p.v(0, 3))
    assert region_parts(c)[1:] == region[1:]
    # and the same loop's loop cut: the loop round the two left cells keeps 3 of its 4 edges,
    # so the cut's slack must be 0 there (what ``Model.complete`` picks for the hints)
    model.add_cut(loop)
    with_region = prove(model, True, [loop], [region])
    assert 0 < with_region < prove(Model.build(p, FORMS[form]()), True, [])
