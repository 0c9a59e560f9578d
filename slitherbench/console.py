"""What a run prints besides the progress bar: the reference page's trace of a trial."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .puzzle import Puzzle, answer_from_bits
from .record import Status

if TYPE_CHECKING:
    from .runner import TrialResult


def print_trace(puzzle: Puzzle, result: TrialResult, label: str) -> None:
    """Per-iteration energy and loop sizes, then the first board and the labelled answer."""
    t = result.trial
    if t.status == Status.SKIPPED:
        return  # the fallback line (or the summary's note) says why, once
    head = f"\n== {puzzle.name or puzzle.size_label}  {label}  seed {t.seed}: {t.status} {t.reason}"
    print(head.rstrip())
    for it in result.iterations:
        sizes = " ".join(str(s) for s in it.loop_sizes)
        print(f"iteration {it.iteration}: energy = {it.energy}, loops = {sizes}")
        if it.iteration == 1:
            print(puzzle.render(answer_from_bits(puzzle, it.edges)))
    if t.status == Status.SOLVED:
        print(f"answer (iteration {t.iterations}, one loop of {t.answer_loop_size} edges):")
        print(puzzle.render(answer_from_bits(puzzle, t.answer)))
