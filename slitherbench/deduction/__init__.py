"""Deduction: the edges a careful player can fix without guessing, and how hard that is.

:func:`deduce` takes a puzzle on any board (squares and every Loopy grid: faces and points as
the board gives them), optionally with edges already fixed and the loop cuts found so far,
and applies forced moves to a fixpoint:

* ``clue``: a face's lines equal its clue (all its unknown sides off, or all on);
* ``point-degree``: every point has 0 or 2 lines;
* ``no-premature-loop``: an edge that joins the two ends of one line segment is off unless the
  loop it closes is an answer by itself; ``loop-closed``: once a loop closes, every other edge
  is off. The converse, "closing this loop completes an answer, so it is on"
  (``loop-completes-answer``), holds only if the answer is unique: it is used only with
  ``assume_unique=True`` and flags the result (:attr:`Deduction.used_uniqueness`);
* ``colour``: faces on the two sides of an off edge are on the same side of the loop, of an
  on edge on different sides (a union-find with parity; the board's outside is outside);
* ``corner`` (Loopy's Easy and Normal corner moves, on any face shape): at a corner whose
  point already has one line, at most one of the face's two sides there is on; at a corner
  whose point has no line and only those two unknown edges, both or neither are; either
  fact, set against how many more lines the clue needs, fixes the face's other sides or
  the pair;
* ``clue-sides``: neighbours of a clue face that lie in one side class all change side with
  the face or none do, so the clue is a sum over classes; a class whose only choice reaches
  the clue fixes its sides (Loopy's colour deductions on clue faces);
* ``cut``: a cut (a loop found earlier) is never all on;
* ``rule``: a rule plugin takes part through its optional hook
  :meth:`slitherbench.puzzles.rules.Rule.face_nogoods` (No-Square implements it); a rule without the
  hook adds no moves, though an answer that breaks it is still rejected by its checker.

On top of the rules come look-ahead levels: ``lookahead1`` sets one unknown edge to a value,
propagates, and rejects the value on a contradiction; ``lookahead2`` also runs look-ahead 1
inside each probe, on the unknown edges beside what the probe changed and beside the ends of
the line segments it moved (the set grows with the inner moves). Neither ever guesses; each
level runs to its fixpoint, and a level-2 move is followed by look-ahead 1 again.
:func:`grade` names the lowest level that solves a board, never relying on uniqueness.
Colorlink puzzles join per colour (:mod:`.colours`): each colour is deduced as a plain
puzzle with its own clues, and two rules join the colours (``one-colour``: an edge carries
at most one colour; ``black-clue``: a black clue counts every colour). Edges and faces are
then the layered board's (``k * E + e``, ``k * F + f``).

The trace names each move's rule (the first rule that made it: several may force one edge)
and level. For a presolve, deduce with the cuts so far and substitute the fixed edges:

>>> from slitherbench.puzzles.puzzle import Puzzle
>>> p = Puzzle.from_rows(["3..", "...", "..1"])
>>> found = deduce(p, "lookahead1", cuts=[])
>>> found.level, found.solved, found.used_uniqueness
('rules', False, False)
>>> [found.edges[e] for e in p.face_edges[0]]  # a 3 in a corner: its two rim sides are on
[1, -1, -1, 1]

Modules: :mod:`.engine` (the state, the rules, the probes); :mod:`.colours` (Colorlink, per
colour); this module (the results and the two entry points).

Imports: :mod:`slitherbench.puzzles` only (the board model, the puzzle, the rule plugins and
the checker); never a solver, a formulation or model, the runner or the store, so any of
them may call it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from slitherbench.deduction.engine import LEVELS, UNIQUE_RULE, Contradiction, Engine

__all__ = ["LEVELS", "Deduction", "Grade", "Move", "deduce", "grade"]

GRADE_LEVELS = ("rules", "lookahead1", "lookahead2")


@dataclass(frozen=True)
class Move:
    """One fixed edge or face side: the rule that fixed it, the stage it was found at, and
    whether it assumed the answer is unique."""

    rule: str
    kind: str  # "edge" or "face"
    index: int
    value: int  # edges: 1 on, 0 off; faces: 1 inside, 0 outside
    level: str
    assumes_unique: bool = False


@dataclass(frozen=True)
class Deduction:
    """What :func:`deduce` fixed: ``edges`` (-1 unknown, 0 off, 1 on, in board edge order),
    ``faces`` (-1 unknown, 0 outside, 1 inside), the lowest ``level`` that reaches this
    (``none``: nothing beyond the input), a ``contradiction`` (one line: no answer agrees
    with the input) or None, the ``trace`` of moves, whether any move ``used_uniqueness``,
    and ``fixed_share``: the share of edges fixed after each level that ran."""

    edges: tuple[int, ...]
    faces: tuple[int, ...]
    level: str
    solved: bool
    contradiction: str | None
    trace: tuple[Move, ...]
    used_uniqueness: bool
    fixed_share: dict[str, float] = field(default_factory=dict)

    @property
    def num_fixed(self) -> int:
        return sum(v != -1 for v in self.edges)


@dataclass(frozen=True)
class Grade:
    """The lowest level that solves a board (``beyond``: none does) and the share of edges
    fixed at each level."""

    level: str
    shares: dict[str, float]


def _run_levels(engine: Engine, level: str, shares: dict[str, float]) -> str:
    """Each level up to ``level`` to its fixpoint, filling ``shares``; returns the highest
    level that fixed an edge (``none``: none did). Raises :class:`Contradiction`."""
    E = engine.t.E
    asked = GRADE_LEVELS[: GRADE_LEVELS.index(level) + 1]
    reached = "none"
    for k, stage in enumerate(asked):
        engine.stage = stage
        if stage == "rules":
            # the input's own consequences count as rules moves; only the input is not one
            engine.propagate()
        elif engine.unknown:
            if stage == "lookahead1":
                engine.lookahead1()
            else:
                engine.lookahead2()
        shares[stage] = (E - engine.unknown) / E
        if engine.changed_at_stage.get(stage):
            reached = stage
        if not engine.unknown:  # solved: the levels above fix nothing more
            shares.update(dict.fromkeys(asked[k + 1 :], 1.0))
            break
    return reached


def deduce(
    puzzle: Any,
    level: str = "rules",
    fixed: Mapping[int, int] | None = None,
    cuts: Sequence[Collection[int]] = (),
    assume_unique: bool = False,
) -> Deduction:
    """Forced moves on ``puzzle`` up to ``level`` (``rules``, ``lookahead1`` or
    ``lookahead2``), from the edges ``fixed`` (edge -> 0/1) and with ``cuts`` (edge sets that
    are not all on). ``assume_unique=False`` (the default) never uses uniqueness."""
    if level not in GRADE_LEVELS:
        raise ValueError(f"level {level!r} is not one of {', '.join(GRADE_LEVELS)}")
    variant = getattr(puzzle, "variant", "")
    if variant == "colorlink":
        return _deduce_colours(puzzle, level, fixed, cuts)
    if variant:
        raise ValueError(f"deduction covers Slitherlink, its rules and Colorlink, not {variant}")
    engine = Engine(puzzle, cuts, assume_unique)
    E = engine.t.E
    shares: dict[str, float] = {}
    reached = "none"
    problem: str | None = None
    try:
        engine.stage = "input"
        for e, v in (fixed or {}).items():
            if not (0 <= e < E) or v not in (0, 1, True, False):
                raise ValueError(f"fixed edge {e}={v!r}: edges are 0..{E - 1}, values 0/1")
            engine.queue.append((e, int(v), "input", False))
        reached = _run_levels(engine, level, shares)
    except Contradiction as exc:
        problem = str(exc)
        shares[engine.stage] = (E - engine.unknown) / E
        if engine.stage != "input":
            reached = max(reached, engine.stage, key=LEVELS.index)
    trace = tuple(
        Move(rule, kind, index, value, stage, unique)
        for rule, kind, index, value, stage, unique in engine.trace
        if rule != "input"
    )
    return Deduction(
        edges=tuple(engine.edge),
        faces=tuple(engine.face_value(f) for f in range(engine.t.F)),
        level=reached,
        solved=problem is None and engine.unknown == 0,
        contradiction=problem,
        trace=trace,
        used_uniqueness=any(m.assumes_unique for m in trace),
        fixed_share=shares,
    )


def _deduce_colours(
    puzzle: Any,
    level: str,
    fixed: Mapping[int, int] | None,
    cuts: Sequence[Collection[int]],
) -> Deduction:
    """:func:`deduce` on a Colorlink puzzle (:mod:`.colours`); no move assumes uniqueness."""
    from slitherbench.deduction.colours import deduce_colours

    levels = GRADE_LEVELS[: GRADE_LEVELS.index(level) + 1]
    state, reached, shares, problem = deduce_colours(puzzle, levels, fixed, cuts, deduce)
    trace = tuple(Move(rule, kind, i, v, stage) for rule, kind, i, v, stage in state.trace)
    return Deduction(
        edges=tuple(state.edges),
        faces=tuple(state.faces),
        level=reached,
        solved=problem is None and state.unknown == 0,
        contradiction=problem,
        trace=tuple(m for m in trace if m.rule != "input"),
        used_uniqueness=False,
        fixed_share=shares,
    )


def grade(puzzle: Any) -> Grade:
    """The lowest level that solves ``puzzle`` completely without assuming uniqueness
    (``beyond`` when look-ahead 2 does not), with the share of edges fixed at each level."""
    found = deduce(puzzle, level="lookahead2", assume_unique=False)
    if found.contradiction is not None:
        raise ValueError(f"{puzzle!r} has no answer: {found.contradiction}")
    if not found.solved:
        return Grade("beyond", found.fixed_share)
    level = found.level if found.level != "none" else "rules"
    return Grade(level, dict(found.fixed_share))


# The rule whose moves assume uniqueness, for callers that filter traces.
UNIQUENESS_RULE = UNIQUE_RULE
