"""Deduction on Colorlink puzzles: each colour as a Slitherlink puzzle of its own, joined by
the rows that span colours.

A Colorlink answer is one loop per colour (:mod:`slitherbench.puzzles.colorlink.harness`):
colour k's lines are edges ``k * E + e`` of the layered board, its inside faces
``k * F + f``. So each colour alone is a plain puzzle on the base board with that colour's
clues, and every rule of :mod:`.engine` holds for it: its points have 0 or 2 lines of the
colour, it is one loop (so the loop rule and "once a loop closes, every other edge is off"
hold), the board's outside lies outside it. Black clues (every colour counts) give a colour
no clue of its own. Across colours two rules join them:

* ``one-colour``: an edge with a line of one colour has no line of another;
* ``black-clue``: a black clue's face counts the edges that carry any colour; met, the
  face's other edges carry none; where every open edge is needed, an edge with one colour
  still possible carries it.

The levels run in order over the whole puzzle: each colour to the level's fixpoint from
everything known, then the two rules, again until nothing changes; then the next level. A
look-ahead probe sees its own colour only (weaker than probing the whole puzzle, never
wrong). Cuts of the elimination loop are a colour's own (every edge in one layer) and join
that colour's deduction; a cut over several colours is left out (leaving a fact out is safe).
No move assumes the answer is unique.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from slitherbench.puzzles.puzzle import Puzzle


class _Contradiction(Exception):
    pass


class Colours:
    """The state of a Colorlink deduction: the layered edge and face values and the moves."""

    def __init__(
        self, puzzle: Any, cuts: Sequence[Collection[int]], deduce: Callable[..., Any]
    ) -> None:
        from slitherbench.puzzles.colorlink.model import BLACK

        self.deduce = deduce  # the package's own deduce, for one colour's plain puzzle
        source = puzzle.source
        self.board = source.board
        self.colours = source.colours
        self.E, self.F, self.K = self.board.num_edges, self.board.num_faces, len(self.colours)
        self.plain = []
        self.full: list[int] = []  # layered edges of faces whose clue takes every side
        for k, colour in enumerate(self.colours):
            clues: list[int | None] = [None] * self.F
            for f, n in source.clue_faces(colour):
                sides = self.board.face_edges[f]
                if n == len(sides):  # a square's 4 is no plain clue: its sides are on
                    self.full += [k * self.E + e for e in sides]
                else:
                    clues[f] = n
            p = Puzzle.on_board(self.board, clues, name=f"colour {colour}")
            if p.board.edge_points != self.board.edge_points:  # the layers' numbering
                raise ValueError("a colour's plain puzzle numbers its edges otherwise")
            self.plain.append(p)
        self.black = source.clue_faces(BLACK)
        self.cuts: list[list[list[int]]] = [[] for _ in self.colours]
        for cut in cuts:
            layers = {e // self.E for e in cut}
            if len(layers) == 1:
                self.cuts[layers.pop()].append([e % self.E for e in cut])
        self.edges = [-1] * (self.K * self.E)
        self.faces = [-1] * (self.K * self.F)
        self.trace: list[tuple[str, str, int, int, str]] = []

    @property
    def unknown(self) -> int:
        return self.edges.count(-1)

    def set_edge(self, e: int, v: int, rule: str, stage: str) -> bool:
        """Fix layered edge ``e``; whether it was new. Raises on a clash."""
        if self.edges[e] == v:
            return False
        if self.edges[e] != -1:
            raise _Contradiction(f"edge {e % self.E} of colour {self.colours[e // self.E]}")
        self.edges[e] = v
        self.trace.append((rule, "edge", e, v, stage))
        return True

    def colour_round(self, k: int, level: str, stage: str) -> bool:
        """Colour k deduced to ``level`` from what is known; whether anything new came."""
        E, F = self.E, self.F
        fixed = {e: v for e, v in enumerate(self.edges[k * E : (k + 1) * E]) if v >= 0}
        found = self.deduce(self.plain[k], level, fixed=fixed, cuts=self.cuts[k])
        if found.contradiction:
            raise _Contradiction(f"colour {self.colours[k]}: {found.contradiction}")
        rules = {(m.kind, m.index): m.rule for m in found.trace}
        new = False
        for e, v in enumerate(found.edges):
            if v >= 0:
                new |= self.set_edge(k * E + e, v, rules.get(("edge", e), "rules"), stage)
        for f, v in enumerate(found.faces):
            if v >= 0 and self.faces[k * F + f] == -1:
                self.faces[k * F + f] = v
                self.trace.append((rules.get(("face", f), "colour"), "face", k * F + f, v, stage))
        return new

    def across(self, stage: str) -> bool:
        """The two rules across colours once; whether they fixed anything."""
        E, K = self.E, self.K
        new = False
        for e in range(E):
            on = [k for k in range(K) if self.edges[k * E + e] == 1]
            if len(on) > 1:
                raise _Contradiction(f"edge {e} carries two colours")
            if on:
                for k in range(K):
                    if k != on[0]:
                        new |= self.set_edge(k * E + e, 0, "one-colour", stage)
        for f, n in self.black:
            new |= self._black(f, n, stage)
        return new

    def _black(self, f: int, n: int, stage: str) -> bool:
        E, K = self.E, self.K
        sides = self.board.face_edges[f]
        lit = [e for e in sides if any(self.edges[k * E + e] == 1 for k in range(K))]
        open_ = [
            e for e in sides if e not in lit and any(self.edges[k * E + e] == -1 for k in range(K))
        ]
        if len(lit) > n or len(lit) + len(open_) < n:
            raise _Contradiction(f"black clue {n} at face {f}")
        new = False
        for e in open_:
            maybe = [k for k in range(K) if self.edges[k * E + e] == -1]
            if len(lit) == n:  # met: no colour on the rest
                for k in maybe:
                    new |= self.set_edge(k * E + e, 0, "black-clue", stage)
            elif len(lit) + len(open_) == n and len(maybe) == 1:  # needed, one colour left
                new |= self.set_edge(maybe[0] * E + e, 1, "black-clue", stage)
        return new

    def run(self, level: str, stage: str) -> bool:
        """Every colour to ``level`` and the rules across, to the fixpoint; whether anything
        new was fixed."""
        changed = False
        while True:
            new = False
            for k in range(self.K):
                new |= self.colour_round(k, level, stage)
            new |= self.across(stage)
            if not new:
                return changed
            changed = True


def deduce_colours(
    puzzle: Any,
    levels: Sequence[str],
    fixed: Mapping[int, int] | None,
    cuts: Sequence[Collection[int]],
    deduce: Callable[..., Any],
) -> tuple[Colours, str, dict[str, float], str | None]:
    """The state after each of ``levels`` in turn (from the layered edges ``fixed``), the
    highest level that fixed an edge (``none``: none did), the share of edges fixed after
    each level, and a contradiction (one line) or None. ``deduce``: the function that
    deduces one colour's plain puzzle (the package's :func:`deduce`)."""
    state = Colours(puzzle, cuts, deduce)
    total = len(state.edges)
    shares: dict[str, float] = {}
    reached, problem, stage = "none", None, "input"
    try:
        for e, v in (fixed or {}).items():
            if not (0 <= e < total) or v not in (0, 1, True, False):
                raise ValueError(f"fixed edge {e}={v!r}: edges are 0..{total - 1}, values 0/1")
            state.set_edge(e, int(v), "input", "input")
        stage = "rules"
        for e in state.full:
            if state.set_edge(e, 1, "clue", stage):
                reached = stage
        for k, stage in enumerate(levels):
            if state.run(stage, stage):
                reached = stage
            shares[stage] = (total - state.unknown) / total
            if not state.unknown:
                shares.update(dict.fromkeys(levels[k + 1 :], 1.0))
                break
    except _Contradiction as exc:
        problem = str(exc)
        shares[stage] = (total - state.unknown) / total
        if stage != "input":
            reached = stage
    return state, reached, shares, problem
