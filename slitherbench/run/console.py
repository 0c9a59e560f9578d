"""What a run prints besides the progress bar: the reference page's trace of a trial, the
answer board of a run on one puzzle, and how a stopped run ends."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from slitherbench.method.entry import OneLineArgumentParser, run_command  # noqa: F401  (their home before)
from slitherbench.method.record import Status
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits

if TYPE_CHECKING:
    import pandas as pd

    from slitherbench.run.runner import TrialResult


def loops_text(sizes: Sequence[int]) -> str:
    """``one loop of 34 edges``, ``3 loops of 12, 8 and 4 edges``: what a sample split into."""
    sizes = [int(s) for s in sizes]
    if not sizes:
        return "no loops (energy above 0: not split, solved again)"
    if len(sizes) == 1:
        return f"one loop of {sizes[0]} edges"
    return f"{len(sizes)} loops of {', '.join(map(str, sizes[:-1]))} and {sizes[-1]} edges"


def _board(
    puzzle: Puzzle, answer: str | Sequence[bool], picture: Path | None = None, title: str = ""
) -> str:
    """The page's ASCII board on squares; on any other board a picture (PNG, drawn from the
    board's coordinates) at ``picture``, and its path."""
    edges = answer_from_bits(puzzle, answer) if isinstance(answer, str) else list(answer)
    text = puzzle.sample_text(edges)
    if text is not None:
        return text
    if picture is None:
        return f"(a {puzzle.board.label}: the report's board figure draws it)"
    from slitherbench.puzzles.drawing import board_picture

    board_picture(puzzle, edges, picture, title)
    return f"(a {puzzle.board.label}: picture at {picture})"


def print_trace(
    puzzle: Puzzle, result: TrialResult, label: str, pictures: Path | None = None
) -> None:
    """Per-iteration energy and loop sizes, then the first board and the labelled answer
    (pictures of boards beyond the square go to ``pictures``)."""
    t = result.trial
    if t.status == Status.SKIPPED:
        return  # the fallback line (or the summary's note) says why, once
    head = f"\n== {puzzle.name or puzzle.size_label}  {label}  seed {t.seed}: {t.status} {t.reason}"
    print(head.rstrip())
    for it in result.iterations:
        print(f"iteration {it.iteration}: energy = {it.energy}, {loops_text(it.loop_sizes)}")
        if it.iteration == 1:
            where = pictures / f"{t.key or 'trial'}-iteration1.png" if pictures else None
            print(_board(puzzle, it.edges, where, f"{label}, iteration 1"))
    if t.status == Status.SOLVED:
        print(f"answer (iteration {t.iterations}, {puzzle.answer_words(t.answer_loop_size)}):")
        where = pictures / f"{t.key or 'trial'}-answer.png" if pictures else None
        print(_board(puzzle, t.answer, where, f"{label}: answer"))


def print_answer(trials: pd.DataFrame, pictures: Path | None = None) -> None:
    """A run on one puzzle ends with its answer board, as the trace does (``trace=true``
    prints it for every trial): the first solved trial's, labelled with its cell and seed."""
    if trials.empty or "puzzle_rows" not in trials or trials["puzzle_rows"].nunique() != 1:
        return
    solved = trials[trials["status"] == Status.SOLVED.value]
    if solved.empty:
        return
    t = solved.iloc[0]
    p = Puzzle.parse(str(t["puzzle_rows"]), name=str(t["puzzle"]))
    print(
        f"answer ({t['cell']}, seed {t['seed']}, iteration {t['iterations']}: "
        f"{p.answer_words(t['answer_loop_size'])}):"
    )
    where = pictures / f"{t['key']}-answer.png" if pictures else None
    print(_board(p, str(t["answer"]), where, f"{t['cell']}, seed {t['seed']}: answer"))


def exit_stopped(results_dir: Path) -> NoReturn:
    """A run stopped by SIGTERM or Ctrl-C, cleanly (claims released, files compacted): say
    where its finished trials are and exit with 130, as a shell reports a stop by Ctrl-C.
    Not ``sys.exit``: CPython ends its process by SIGINT (code -2) when the KeyboardInterrupt
    passed through C-level evaluation (``PyRun_*``) on its way here, even once caught (about
    one stop in 25 while a solve ran)."""
    print(
        f"interrupted: finished trials are in {results_dir.resolve()}; "
        "run the same command again to resume",
        file=sys.stderr,
    )
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)
