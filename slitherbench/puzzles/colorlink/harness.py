"""Colorlink in the harness: every form on every backend, the runner and the store.

A Colorlink puzzle with K colours on a board becomes a :class:`ColorlinkPuzzle`, a harness
:class:`~slitherbench.puzzles.puzzle.Puzzle` on :func:`layered_board`: K disjoint copies of the board,
copy k holding colour k's lines. Edge label ``k * E + e`` is "edge e carries colour k" (the
variables of :mod:`.constraints`), face label ``k * F + f`` "face f lies inside colour k's
loop" (face variables per colour). Each copy holds the clues of its colour as plain clues
and its points keep the degree rule, so the forms (edge or face variables), the exact
families and the loop splitting work unchanged. The variant adds what spans colours
(``Puzzle.variant``):

* ``variant_constraints``: black clues (every colour around a face), one colour per edge
  (``exclusive``, at most one of the K copies of an edge), a line in every colour whose
  clues are all 0 (``nonempty``);
* ``variant_answer``: the stopping rule, one loop per colour that together pass the checker
  (:func:`.constraints.choose_loops`);
* ``variant_cuts``: each colour's extra loops cut separately (a region cut per loop with
  ``cut=region``, its f on another loop of the same colour);
* ``variant_problems``: the independent Colorlink checker (:func:`.check.check_colorlink`).

So a trial is solved when every colour is one loop and every clue holds, and every
``solved`` has passed the Colorlink checker. Run one trial:

>>> from slitherbench.solvers.sat import SatBackend
>>> from slitherbench.models.formulations import ConsFormulation
>>> from slitherbench.run.runner import run_trial
>>> from slitherbench.puzzles.colorlink import read_colorlink
>>> p = ColorlinkPuzzle.of(read_colorlink("2g../.2g3r/.3k."))
>>> p, p.num_edges
(ColorlinkPuzzle(colorlink 3x3, 4 clues, colours rg), 48)
>>> run_trial(p, ConsFormulation(), SatBackend(), seed=0).trial.status.value
'solved'

This is the only way Colorlink is solved: from the command line, ``python -m slitherbench
puzzle=colorlink formulation=qubo backend=sa`` (generated puzzles,
``conf/puzzle/colorlink.yaml``; ``puzzle.cross=true``: puzzles whose colours cross), or
``experiment=colorlink`` for every form x backend. ``puzzle=text
puzzle.text='colorlink=2g../.2g3r/.3k.'`` runs one text. The generator decides uniqueness
through the same harness (:mod:`.generate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from slitherbench.puzzles.boards import Board
from slitherbench.puzzles.colorlink.check import check_colorlink
from slitherbench.puzzles.colorlink.constraints import base_rows, choose_loops, extra_loop_cuts
from slitherbench.puzzles.colorlink.model import ColorAnswer, ColorlinkError, ColorPuzzle
from slitherbench.puzzles.colorlink.text import read_colorlink, write_colorlink
from slitherbench.puzzles.description import Constraint, cut_constraint, region_constraint
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError

PREFIX = "colorlink="  # a Colorlink text among the harness's puzzle texts
SPANNING = ("black", "exclusive", "nonempty")  # the rows of .constraints across colours


def layered_board(board: Board, layers: int) -> Board:
    """``layers`` disjoint copies of ``board`` side by side: copy k's point p is
    ``k * P + p``, its edge e ``k * E + e``, its face f ``k * F + f``."""
    P, E = board.num_points, board.num_edges
    xs = [x for x, _ in board.points]
    shift = max(xs) - min(xs) + 1
    return Board(
        kind="colorlink",
        width=board.width,
        height=board.height,
        points=tuple((x + k * shift, y) for k in range(layers) for x, y in board.points),
        edge_points=tuple(
            (a + k * P, b + k * P) for k in range(layers) for a, b in board.edge_points
        ),
        face_edges=tuple(
            tuple(e + k * E for e in sides) for k in range(layers) for sides in board.face_edges
        ),
        desc=f"{board.kind}:{board.desc or ''}:{layers}",
    )


@dataclass(frozen=True, eq=False)
class ColorlinkPuzzle(Puzzle):
    """A Colorlink puzzle as the harness runs it (see the module docstring); ``source`` is
    the :class:`ColorPuzzle` it stands for. Build it with :meth:`of`."""

    source: ColorPuzzle | None = None
    variant: ClassVar[str] = "colorlink"

    @classmethod
    def of(cls, puzzle: ColorPuzzle) -> ColorlinkPuzzle:
        board, K = puzzle.board, len(puzzle.colours)
        clues = tuple(
            c.number if c is not None and c.colour == colour else None
            for colour in puzzle.colours
            for c in puzzle.clues
        )
        meta = dict(puzzle.meta)
        if isinstance(meta.get("answer"), ColorAnswer):  # -> flags over the layers
            meta["answer"] = _flags(puzzle, meta["answer"])
        return cls(clues, puzzle.name, meta, layered_board(board, K), source=puzzle)

    # -- what the puzzle is -------------------------------------------------------------------
    @property
    def colours(self) -> tuple[str, ...]:
        return self._source.colours

    @property
    def _source(self) -> ColorPuzzle:
        if self.source is None:
            raise TypeError("a ColorlinkPuzzle is built with ColorlinkPuzzle.of(ColorPuzzle)")
        return self.source

    def with_rules(self, rules: Sequence[str] | str) -> Puzzle:
        if not rules:
            return self
        raise PuzzleFormatError(f"a Colorlink puzzle takes no extra rules (got {rules!r})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ColorlinkPuzzle) and self.source == other.source

    def __hash__(self) -> int:
        return hash(("colorlink", self.source))

    @property
    def num_clues(self) -> int:
        return sum(c is not None for c in self._source.clues)

    def _layer(self, index: int, per_layer: int) -> tuple[str, int]:
        return self.colours[index // per_layer], index % per_layer

    def face_name(self, f: int) -> str:
        colour, g = self._layer(f, self._source.board.num_faces)
        return f"colour {colour}, {self._source.face_name(g)}"

    def point_name(self, p: int) -> str:
        colour, q = self._layer(p, self._source.board.num_points)
        return f"colour {colour}, {self._source.point_name(q)}"

    def to_text(self) -> str:
        """``colorlink=`` and the Colorlink text (square boards: the format's)."""
        try:
            return PREFIX + write_colorlink(self._source)
        except ColorlinkError as exc:
            raise PuzzleFormatError(str(exc)) from None

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        colours = "".join(self.colours)
        return (
            f"ColorlinkPuzzle({label}{self.size_label}, {self.num_clues} clues, colours {colours})"
        )

    # -- the variant's four hooks ---------------------------------------------------------------
    def variant_constraints(self) -> list[Constraint]:
        """The rows across colours (the clue and degree rows are the layers' own)."""
        out, index = [], {"black": 0, "exclusive": 0, "nonempty": 0}
        for row in base_rows(self._source):
            if row.kind in SPANNING:
                out.append(Constraint(row.kind, index[row.kind], row.variables, row.allowed))
                index[row.kind] += 1
        return out

    def _by_colour(self, loops: Sequence[Sequence[int]]) -> dict[str, list[list[int]]]:
        E = self._source.board.num_edges
        out: dict[str, list[list[int]]] = {c: [] for c in self.colours}
        for lp in loops:
            out[self.colours[lp[0] // E]].append([e % E for e in lp])
        return out

    def variant_answer(self, loops: Sequence[Sequence[int]]) -> list[int] | None:
        """The labels of one loop per colour that together pass the checker, or None."""
        answer = choose_loops(self._source, self._by_colour(loops))
        if answer is None:
            return None
        flags = _flags(self._source, answer)
        return [e for e, on in enumerate(flags) if on]

    def variant_cuts(
        self, loops: Sequence[Sequence[int]], cut: str, first: int
    ) -> list[Constraint]:
        """Each colour's extra loops, cut separately (:func:`.constraints.extra_loop_cuts`): a loop that
        alone breaks a clue of its colour, or all of a colour's loops together when each alone
        keeps its clues (all 0). ``cut="region"``: a single loop gets a region cut whose f is
        the lowest edge of another loop of its colour (the first in the sample's order)."""
        # the answer was looked for already (variant_answer): only the cuts are left to find
        rows = extra_loop_cuts(self._source, self._by_colour(loops))
        single = {tuple(lp): lp for lp in (sorted(lp) for lp in loops)}
        E = self._source.board.num_edges
        out = []
        for k, row in enumerate(rows):
            lp = single.get(tuple(sorted(row.variables)))
            others = [
                o for o in single.values() if o is not lp and o[0] // E == row.variables[0] // E
            ]
            if cut == "region" and lp is not None and others:
                out.append(region_constraint(self, lp, min(others[0]), first + k))
            else:
                out.append(cut_constraint(row.variables, first + k))
        return out

    def variant_problems(self, answer: Sequence[Any]) -> list[str]:
        """What the Colorlink checker finds wrong with flags over the layers (an edge in two
        colours included)."""
        return check_colorlink(self._source, self.layers(answer))

    def layers(self, answer: Sequence[Any]) -> dict[str, list[bool]]:
        """Flags over the layers as one flag list per colour (the checker's layers)."""
        E = self._source.board.num_edges
        return {
            c: [bool(v) for v in answer[k * E : (k + 1) * E]] for k, c in enumerate(self.colours)
        }

    # -- how a sample is shown (Puzzle's hooks) ---------------------------------------------
    @property
    def drawing_board(self) -> Board:
        return self._source.board  # one colour layer's board: the lines share it

    def draw_sample(
        self,
        ax: Any,
        loops: Sequence[Sequence[int]],
        answer_loop: Sequence[int] | None = None,
        edges: Sequence[bool] | None = None,
    ) -> str:
        """Each colour's lines in its colour on the one board; the loop sizes per colour."""
        from slitherbench.puzzles.colorlink.drawing import draw_colorlink

        if edges is None:
            on = {e for lp in loops for e in lp}
            edges = [e in on for e in range(self.num_edges)]
        draw_colorlink(ax, self._source, self.colour_answer(edges))
        E = self._source.board.num_edges
        return ", ".join(
            f"{c} " + " ".join(str(len(lp)) for lp in loops if lp[0] // E == k)
            for k, c in enumerate(self.colours)
        )

    def sample_text(self, edges: Sequence[bool]) -> str | None:
        """Each line drawn in its colour's letter."""
        from slitherbench.puzzles.colorlink.text import render_answer

        try:
            return render_answer(self._source, self.colour_answer(edges))
        except ColorlinkError as exc:  # a sample above energy 0 may put two colours on an edge
            return f"(not drawn: {exc})"

    def answer_words(self, size: int) -> str:
        return f"one loop per colour, {size} edges in all"

    def infeasible_words(self, solve_exact: Any = None) -> str:
        if solve_exact is None:
            return "no answer: the colours' clues admit no loop per colour"
        return f"no answer: {why_infeasible(self._source, solve_exact)}"  # the colour at fault, if one is

    def colour_answer(self, answer: Sequence[Any]) -> ColorAnswer:
        """Flags over the layers as a :class:`ColorAnswer` (raises on an edge of two colours)."""
        return ColorAnswer.from_layers(self.layers(answer), self._source.board.num_edges)


def _flags(puzzle: ColorPuzzle, answer: ColorAnswer) -> list[bool]:
    return [answer.edges[e] == c for c in puzzle.colours for e in range(puzzle.board.num_edges)]


def read_colorlink_puzzle(text: str, name: str = "") -> ColorlinkPuzzle:
    """A ``colorlink=...`` text (or a bare Colorlink text) as a harness puzzle; a bad text is
    a :class:`PuzzleFormatError` with the Colorlink reader's one line."""
    body = text.strip()
    body = body[len(PREFIX) :] if body.startswith(PREFIX) else body
    try:
        return ColorlinkPuzzle.of(read_colorlink(body, name=name))
    except ColorlinkError as exc:
        raise PuzzleFormatError(f"colorlink: {exc}") from None


def why_infeasible(puzzle: ColorPuzzle, solve_exact: Any, time_limit_s: float = 10.0) -> str:
    """For a puzzle without an answer: a colour whose own clues cannot form one loop, where
    there is one (each colour alone, black clues left out, by
    ``solve_exact``, :func:`~slitherbench.solvers.cpsat_model.solve_exact` as the precheck
    passes it); else the colours' sharing of the board."""
    if len(puzzle.colours) > 1:
        for c in puzzle.colours:
            alone = ColorPuzzle(
                puzzle.board, tuple(k if k and k.colour == c else None for k in puzzle.clues)
            )
            if solve_exact(ColorlinkPuzzle.of(alone), time_limit_s).status == "infeasible":
                return f"colour {c}: its clues cannot form one loop"
        return "the colours' loops cannot share the board (black clues and one colour per edge)"
    return f"colour {puzzle.colours[0]}: its clues cannot form one loop"
