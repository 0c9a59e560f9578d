"""Puzzle sources: the callables ``conf/puzzle/*.yaml`` name as their ``_target_``.

A puzzle config names the callable that yields its puzzles and gives its keyword arguments,
as every other config group names its class (lightning-hydra-template's ``_target_``)::

    # conf/puzzle/tiny.yaml
    _target_: slitherbench.sources.puzzle_sources.suite
    name: tiny

:func:`slitherbench.run.plan.puzzles_from_config` calls it with the config's other keys (a key
left ``???`` is left out, so the source's own default or message applies) and expects a
list of :class:`~slitherbench.puzzles.puzzle.Puzzle`; bad input is one
:class:`~slitherbench.method.record.ConfigError` line. A new source is one callable (here or in any
importable module) and one config file. Puzzle configs never enter a config hash: a trial's
key comes from its puzzle's text.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from omegaconf import OmegaConf

from slitherbench.method.record import ConfigError
from slitherbench.puzzles.boards import board_kinds
from slitherbench.puzzles.boards.loopy import MAX_FACES, grid_type
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError
from slitherbench.sources.configured import config_rules as _config_rules
from slitherbench.sources.configured import precheck
from slitherbench.sources.generate import MIN_GRADES
from slitherbench.sources.library import generated as generated_board
from slitherbench.sources.library import get_suite


def _rules(rules: str | Sequence[str]) -> tuple[str, ...]:
    """``puzzle.rules`` checked (an unknown rule is one line)."""
    return _config_rules(OmegaConf.create({"rules": rules}))


def _whole(key: str, value: object, least: int | None) -> int:
    """``puzzle.<key>`` as a whole number (at least ``least``), or one line."""
    try:
        number = int(str(value))
    except ValueError:
        raise ConfigError(f"puzzle.{key}={value}: a whole number") from None
    if least is not None and number < least:
        raise ConfigError(f"puzzle.{key}={value}: at least {least}")
    return number


def suite(name: str) -> list[Puzzle]:
    """A shipped suite of :mod:`slitherbench.sources.library` (``puzzle=tiny``, ``puzzle=loopy_dev``)."""
    try:
        return list(get_suite(str(name)))
    except KeyError as exc:
        raise ConfigError(str(exc.args[0])) from None


def generated(
    rows: int,
    cols: int,
    count: int,
    seed: int,
    rules: str | Sequence[str] = (),
    min_grade: str | None = None,
    board: str = "square",
) -> list[Puzzle]:
    """``count`` fresh boards with one answer (under ``rules``), seeds ``seed``, ``seed + 1``,
    ...: square, or of a Loopy grid type (``board``; ``rows`` x ``cols`` as Loopy's height x
    width). ``min_grade`` (``lookahead1``, ``lookahead2``): boards that deduction needs that
    level for (:func:`~slitherbench.sources.generate.generate_graded`). A board beyond the
    harness's size (:data:`MAX_FACES`, a 300x300 board) or an unknown grade or board kind is
    refused in one line before anything is generated."""
    rows, cols = _whole("rows", rows, 2), _whole("cols", cols, 2)
    count, seed = _whole("count", count, 1), _whole("seed", seed, None)
    faces = rows * cols
    if faces > MAX_FACES:
        raise ConfigError(
            f"puzzle: a {rows}x{cols} board has {faces} faces; the harness takes at "
            f"most {MAX_FACES} (a 300x300 square board)"
        )
    if min_grade is not None and str(min_grade) not in MIN_GRADES:
        raise ConfigError(
            f"puzzle.min_grade: {min_grade!r} is not one of {', '.join(MIN_GRADES)} "
            "(null: any board with one answer)"
        )
    grade = None if min_grade is None else str(min_grade)
    kind = _board_kind(str(board), int(rows), int(cols))
    checked = _rules(rules)
    # Making a board of a grade takes a while (a 20x20 look-ahead 2 square: about 25 s, more
    # where the first draw misses the grade): one line per board says what is being made.
    say = count > 1 or grade is not None
    try:
        boards = []
        for k in range(count):
            if say:
                print(f"puzzle: making board {k + 1} of {count}: {kind} {rows}x{cols}, "
                      f"seed {seed + k}" + (f", grade {grade} or more" if grade else ""),
                      file=sys.stderr, flush=True)  # fmt: skip
            boards.append(generated_board(rows, cols, seed + k, checked, grade, kind))
        return boards
    except ValueError as exc:  # no board of that grade drawn, or the rules fit no loop there
        raise ConfigError(f"puzzle: {' '.join(str(exc).split())}") from None


def _board_kind(kind: str, rows: int, cols: int) -> str:
    """``puzzle.board`` checked: a known kind, of a size Loopy allows (one line if not)."""
    if kind == "square":
        return kind
    if kind not in board_kinds():
        raise ConfigError(
            f"puzzle.board: unknown board kind {kind!r}; known: {', '.join(board_kinds())}"
        )
    problem = grid_type(kind).check_size(cols, rows)
    if problem is not None:
        raise ConfigError(f"puzzle: {problem} (rows {rows}, cols {cols})")
    return kind


def text(
    text: str | None = None,
    name: str = "custom",
    precheck_time_limit_s: float = 10.0,
    allow_multiple: bool = False,
    rules: str | Sequence[str] = (),
) -> list[Puzzle]:
    """One puzzle in any text :meth:`Puzzle.parse` reads, under ``rules`` beside any
    ``rules=`` of the text, checked by the exact solver first
    (:func:`~slitherbench.sources.configured.precheck`: one answer, or ``allow_multiple``)."""
    if text is None:
        raise ConfigError("puzzle=text needs puzzle.text='...' (rows, URL, Loopy ID, ...)")
    try:
        p = Puzzle.parse(str(text), name=str(name))
        if extra := _rules(rules):  # puzzle.rules=[NAME]: beside any rules= in the text
            p = p.with_rules((*p.rules, *extra))
    except PuzzleFormatError as exc:
        raise ConfigError(f"puzzle.text: {exc}") from None
    precheck(p, float(precheck_time_limit_s), bool(allow_multiple))
    return [p]


def colorlink(
    rows: int,
    cols: int,
    colours: int,
    count: int,
    seed: int,
    black: float = 0.25,
    cross: bool = False,
) -> list[Puzzle]:
    """``count`` generated square Colorlink puzzles (:mod:`slitherbench.puzzles.colorlink`), each with
    one answer; ``cross``: colours that cross."""
    from slitherbench.puzzles.colorlink.model import ColorlinkError
    from slitherbench.sources.colorlink import generated_colorlink

    try:
        return [
            generated_colorlink(
                int(rows),
                int(cols),
                int(colours),
                int(seed) + k,
                black=float(black),
                cross=bool(cross),
            )
            for k in range(int(count))
        ]
    except ColorlinkError as exc:
        raise ConfigError(f"puzzle: {exc}") from None
