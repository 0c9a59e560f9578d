"""What a run prints besides the progress bar: the reference page's trace of a trial, and the
answer board of a run on one puzzle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .puzzle import Puzzle, answer_from_bits
from .record import Status

if TYPE_CHECKING:
    import pandas as pd

    from .runner import TrialResult


def loops_text(sizes: Sequence[int]) -> str:
    """``one loop of 34 edges``, ``3 loops of 12, 8 and 4 edges``: what a sample split into."""
    sizes = [int(s) for s in sizes]
    if not sizes:
        return "no loops (energy above 0: not split, solved again)"
    if len(sizes) == 1:
        return f"one loop of {sizes[0]} edges"
    return f"{len(sizes)} loops of {', '.join(map(str, sizes[:-1]))} and {sizes[-1]} edges"


def _board(puzzle: Puzzle, answer: str | Sequence[bool]) -> str:
    if puzzle.is_square:
        return puzzle.render(answer_from_bits(puzzle, answer))
    return f"(a {puzzle.board.label}: the report's board figure draws it)"


def print_trace(puzzle: Puzzle, result: TrialResult, label: str) -> None:
    """Per-iteration energy and loop sizes, then the first board and the labelled answer."""
    t = result.trial
    if t.status == Status.SKIPPED:
        return  # the fallback line (or the summary's note) says why, once
    head = f"\n== {puzzle.name or puzzle.size_label}  {label}  seed {t.seed}: {t.status} {t.reason}"
    print(head.rstrip())
    for it in result.iterations:
        print(f"iteration {it.iteration}: energy = {it.energy}, {loops_text(it.loop_sizes)}")
        if it.iteration == 1:
            print(_board(puzzle, it.edges))
    if t.status == Status.SOLVED:
        print(f"answer (iteration {t.iterations}, one loop of {t.answer_loop_size} edges):")
        print(_board(puzzle, t.answer))


def print_answer(trials: pd.DataFrame) -> None:
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
        f"one loop of {t['answer_loop_size']} edges):"
    )
    print(_board(p, str(t["answer"])))
