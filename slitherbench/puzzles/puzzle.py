"""A Slitherlink puzzle: a board (:mod:`slitherbench.puzzles.boards`) and a clue per face.

On the square grid the clues are rows, and the board keeps the reference page's numbering
(shared/reference/qubopp_slitherlink_en.txt):
horizontal h(i, j) = i*C + j          for 0 <= i <= R, 0 <= j < C
vertical   v(i, j) = (R+1)*C + i*(C+1) + j  for 0 <= i < R, 0 <= j <= C
grid point (i, j) = i*(C+1) + j.
On any other board the clues are one per face, in the board's face order (Loopy's, for its
grid types). An answer is a sequence of one boolean per edge, in the board's edge order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from slitherbench.puzzles.boards import Board, square_board
from slitherbench.puzzles.rules import adopt_rules, normal_rules, rule_problem, travelling_rules

Clue = int | None
Answer = Sequence[bool] | Sequence[int]

# Reading and writing text is :mod:`slitherbench.puzzles.formats`' job; it imports this module and
# registers its readers and writer here (the package imports it first), so the board model
# itself imports nothing of the package.
TEXT_IO: dict[str, Callable[..., Any]] = {}


class PuzzleFormatError(ValueError):
    """Raised for text that is not a readable Slitherlink puzzle; the message says where."""


@dataclass(frozen=True, eq=False)
class Puzzle:
    """Clues on a board: R rows x C columns of clues 0-3 on the square grid (``board`` left
    out), or one clue per face of ``board`` (0 up to the face's number of sides) otherwise.
    ``rules`` names the variant's extra rules (:mod:`slitherbench.puzzles.rules`; ``()``: plain
    Slitherlink)."""

    clues: tuple
    name: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    board: Board = None  # type: ignore[assignment]  # None: the square grid of ``clues``
    rules: tuple[str, ...] = ()

    # A puzzle type built on this model beside Slitherlink ("colorlink": one loop per colour on
    # a board of colour layers, :mod:`slitherbench.puzzles.colorlink.harness`). Such a subclass adds
    # ``variant_constraints()``, ``variant_answer(loops)``, ``variant_cuts(loops, cut, first)``
    # and ``variant_problems(answer)``; the description, the stopping rule, the cuts and the
    # checker call them where ``variant`` is set. "": Slitherlink (with its ``rules``).
    variant: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self._place_on_board()
        object.__setattr__(self, "rules", normal_rules(self.rules))
        problem = rule_problem(self.rules, self.board)
        if problem is not None:
            raise PuzzleFormatError(problem)

    def __getstate__(self) -> dict[str, Any]:
        # A rule registered from outside slitherbench.puzzles.rules travels with the pickled puzzle
        # (its class, by reference), so a trial's fresh process knows it as well.
        state = dict(self.__dict__)
        extra = travelling_rules(self.rules)
        if extra:
            state["_rule_classes"] = extra
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        adopt_rules(state.pop("_rule_classes", {}))
        self.__dict__.update(state)

    def _place_on_board(self) -> None:
        if self.board is None or self.board.kind == "square":
            self._check_rows()
            board = square_board(len(self.clues), len(self.clues[0]))
            if self.board is not None and self.board != board:
                raise PuzzleFormatError(f"{len(self.clues)} rows of clues on a {self.board.label}")
            object.__setattr__(self, "board", board)
            return
        if len(self.clues) != self.board.num_faces:
            raise PuzzleFormatError(
                f"{len(self.clues)} clues for the {self.board.num_faces} faces of a {self.board.label}"
            )
        for f, n in enumerate(self.clues):
            sides = len(self.board.face_edges[f])
            if n is not None and not (isinstance(n, int) and 0 <= n <= sides):
                raise PuzzleFormatError(f"face {f + 1}: clue {n!r} is not 0-{sides}")

    def _check_rows(self) -> None:
        if not self.clues or not self.clues[0] or not isinstance(self.clues[0], tuple):
            raise PuzzleFormatError("a puzzle needs at least one row and one column")
        width = len(self.clues[0])
        for r, row in enumerate(self.clues):
            if len(row) != width:
                raise PuzzleFormatError(
                    f"row {r + 1} has {len(row)} cells, row 1 has {width} (ragged rows)"
                )
            for c, n in enumerate(row):
                if n is not None and not (isinstance(n, int) and 0 <= n <= 3):
                    raise PuzzleFormatError(f"row {r + 1}, column {c + 1}: clue {n!r} is not 0-3")

    # -- construction -----------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[str], name: str = "", rules: Sequence[str] = ()) -> Puzzle:
        """Rows of '.'/'-' (no clue) and digits, e.g. [".11..0.0.0", ...]."""
        p = TEXT_IO["rows"]("\n".join(rows), name=name)
        return p.with_rules(rules) if rules else p

    @classmethod
    def parse(cls, text: str, name: str = "") -> Puzzle:
        """Detect the format of ``text`` and read it (see :mod:`slitherbench.puzzles.formats`)."""
        return TEXT_IO["parse"](text, name=name)

    @classmethod
    def on_board(
        cls,
        board: Board,
        face_clues: Sequence[Clue],
        name: str = "",
        rules: Sequence[str] = (),
        **meta: Any,
    ) -> Puzzle:
        """A puzzle from one clue per face (any board; squares get their rows back)."""
        if board.kind == "square":
            C = board.width
            rows = tuple(tuple(face_clues[i * C : (i + 1) * C]) for i in range(board.height))
            if len(face_clues) != board.num_faces:
                raise PuzzleFormatError(
                    f"{len(face_clues)} clues for the {board.num_faces} faces of a {board.label}"
                )
            return cls(rows, name=name, meta=dict(meta), rules=tuple(rules))
        return cls(tuple(face_clues), name=name, meta=dict(meta), board=board, rules=tuple(rules))

    def with_rules(self, rules: Sequence[str] | str) -> Puzzle:
        """The same clues (name, meta) under ``rules`` instead of this puzzle's."""
        if self.is_square:  # no board given: the square grid of the rows, as built
            return Puzzle(self.clues, self.name, dict(self.meta), rules=normal_rules(rules))
        return Puzzle(self.clues, self.name, dict(self.meta), self.board, normal_rules(rules))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Puzzle)
            and self.board == other.board
            and self.face_clues == other.face_clues
            and self.rules == other.rules
        )

    def __hash__(self) -> int:
        # Without rules the hash is what it always was (puzzles are cached and keyed by it).
        if not self.rules:
            return hash((self.board, self.face_clues))
        return hash((self.board, self.face_clues, self.rules))

    # -- sizes and numbering --------------------------------------------------------------
    @property
    def is_square(self) -> bool:
        return self.board.kind == "square"

    @property
    def rows(self) -> int:
        """Rows of a square board; Loopy's height otherwise."""
        return self.board.height

    @property
    def cols(self) -> int:
        """Columns of a square board; Loopy's width otherwise."""
        return self.board.width

    @property
    def num_edges(self) -> int:
        return self.board.num_edges

    @property
    def num_points(self) -> int:
        return self.board.num_points

    @property
    def num_faces(self) -> int:
        return self.board.num_faces

    @property
    def num_clues(self) -> int:
        return sum(n is not None for n in self.face_clues)

    @property
    def size_label(self) -> str:
        """``5x5`` on squares (as every stored trial names them), ``honeycomb 7x7`` otherwise."""
        return f"{self.rows}x{self.cols}" if self.is_square else self.board.label

    def _square_only(self, what: str) -> None:
        if not self.is_square:
            raise TypeError(f"{what} is the square grid's numbering; this is a {self.board.label}")

    def h(self, i: int, j: int) -> int:
        self._square_only("h(i, j)")
        return i * self.cols + j

    def v(self, i: int, j: int) -> int:
        self._square_only("v(i, j)")
        return (self.rows + 1) * self.cols + i * (self.cols + 1) + j

    def point(self, i: int, j: int) -> int:
        self._square_only("point(i, j)")
        return i * (self.cols + 1) + j

    # -- adjacency (the board's) ------------------------------------------------------------
    @property
    def edge_points(self) -> tuple[tuple[int, int], ...]:
        """The two points of every edge, in edge order."""
        return self.board.edge_points

    @property
    def point_edges(self) -> tuple[tuple[int, ...], ...]:
        """The edges at every point."""
        return self.board.point_edges

    @property
    def face_edges(self) -> tuple[tuple[int, ...], ...]:
        """Every face's sides, in order around it (squares: top, right, bottom, left)."""
        return self.board.face_edges

    @cached_property
    def face_clues(self) -> tuple[Clue, ...]:
        """One clue (or None) per face, in face order (squares: row-major)."""
        if self.is_square:
            return tuple(n for row in self.clues for n in row)
        return tuple(self.clues)

    @cached_property
    def clue_faces(self) -> tuple[tuple[int, int], ...]:
        """(face index, clue) for every numbered face."""
        return tuple((f, n) for f, n in enumerate(self.face_clues) if n is not None)

    def face_name(self, f: int) -> str:
        """How messages name a face: ``cell (row,col)`` on squares, ``face 12`` otherwise."""
        if self.is_square:
            return f"cell ({f // self.cols},{f % self.cols})"
        return f"face {f}"

    def point_name(self, p: int) -> str:
        if self.is_square:
            return f"point ({p // (self.cols + 1)},{p % (self.cols + 1)})"
        return f"point {p}"

    # -- output -----------------------------------------------------------------------------
    def to_rows(self) -> list[str]:
        self._square_only("rows of clues")
        return ["".join("." if n is None else str(n) for n in row) for row in self.clues]

    def to_text(self) -> str:
        """One line that reads back as this puzzle: rows joined by ``/`` on squares, the Loopy
        game ID otherwise; a puzzle with rules starts with ``rules=NAME[,NAME];``
        (:mod:`slitherbench.puzzles.formats`)."""
        text = "/".join(self.to_rows()) if self.is_square else TEXT_IO["loopy"](self)
        if self.rules and not text.startswith("rules="):
            return f"rules={','.join(self.rules)};{text}"
        return text

    # -- how a sample is shown: a variant overrides these (the console and the report's board
    # figure call them, never a variant's name) ------------------------------------------------
    @property
    def drawing_board(self) -> Board:
        """The board a picture of this puzzle is drawn on (its size sets the figure's)."""
        return self.board

    def draw_sample(
        self,
        ax: Any,
        loops: Sequence[Sequence[int]],
        answer_loop: Sequence[int] | None = None,
        edges: Sequence[bool] | None = None,
    ) -> str | None:
        """A variant's own drawing of one sample's ``loops`` (``edges``: the sample itself) on
        a matplotlib ``ax``, ``answer_loop`` highlighted; returns the loop sizes as a panel's
        title says them. None: not drawn here, the board's drawing
        (:func:`slitherbench.puzzles.drawing.draw_board`) draws it."""
        return None

    def sample_text(self, edges: Sequence[bool]) -> str | None:
        """The sample drawn as text, or None where this board has no text drawing."""
        return self.render(edges) if self.is_square else None

    def answer_words(self, size: int) -> str:
        """What an answer of ``size`` edges is, in words (the console's summary)."""
        return f"one loop of {size} edges"

    def infeasible_words(self, solve_exact: Any = None) -> str:
        """Why no answer exists, once an exact solver proved it (the precheck's error).
        ``solve_exact``: the exact solve, for a kind that asks it more to say why (Colorlink:
        the colour at fault); passed in, as a puzzle knows no solver."""
        under = f" under rule {', '.join(self.rules)}" if self.rules else ""
        return f"the clues admit no single loop{under}"

    def render(self, answer: Answer | None = None) -> str:
        """The reference page's ASCII board, with ``+---+`` and ``|`` for answer edges."""
        self._square_only("the ASCII board")
        return TEXT_IO["ascii"](self, answer)

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        rules = "".join(f", {r}" for r in self.rules)
        return f"Puzzle({label}{self.size_label}, {self.num_clues} clues{rules})"


def answer_from_bits(puzzle: Puzzle, bits: str) -> list[bool]:
    """An answer from a string of '0'/'1' in edge order (as stored in results)."""
    if len(bits) != puzzle.num_edges or set(bits) - {"0", "1"}:
        raise PuzzleFormatError(
            f"an answer for a {puzzle.size_label} board is {puzzle.num_edges} bits of 0/1, "
            f"got {len(bits)} characters"
        )
    return [b == "1" for b in bits]


def answer_to_bits(answer: Answer) -> str:
    return "".join("1" if x else "0" for x in answer)
