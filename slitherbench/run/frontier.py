"""The frontier rule: run a cell's boards smallest first and stop the cell at the first board
size where it solved nothing (every trial there final, none solved); larger boards are not run.
A size whose boards the presolve settled (every trial ``presolved``) never ran the backend,
so it does not stop the cell.

The rule reads the store, so it holds across resumed runs and workers sharing the store.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from slitherbench.method.record import FINAL_STATUSES, Status
from slitherbench.run.plan import Job
from slitherbench.store.result_store import ResultStore


def size_order(jobs: Sequence[Job]) -> list[Job]:
    """Smallest board first; within a size, repetition first, then the cells in order."""
    first = {id(j.cell): k for k, j in reversed(list(enumerate(jobs)))}
    return sorted(
        jobs, key=lambda j: (j.puzzle.rows * j.puzzle.cols, j.repetition, first[id(j.cell)])
    )


class FrontierGate:
    """Says which jobs lie beyond their cell's frontier."""

    def __init__(self, store: ResultStore, jobs: Sequence[Job]) -> None:
        self.store = store
        # (config hash, board cells) -> the keys of that cell's trials at that size
        self.keys: dict[tuple[str, int], list[str]] = defaultdict(list)
        for j in jobs:
            self.keys[(j.config_hash, j.puzzle.rows * j.puzzle.cols)].append(j.key)
        self.labels = {j.puzzle.rows * j.puzzle.cols: j.puzzle.size_label for j in jobs}
        self.stopped: dict[str, str] = {}  # config hash -> reason, once known

    def blocked(self, job: Job) -> str | None:
        """Why ``job`` is not run, or None."""
        h, cells = job.config_hash, job.puzzle.rows * job.puzzle.cols
        if h in self.stopped:
            return self.stopped[h]
        smaller = sorted(c for hh, c in self.keys if hh == h and c < cells)
        if not smaller:
            return None
        df = self.store.trials(["status"])
        status = dict(zip(df["key"], df["status"], strict=True)) if not df.empty else {}
        final = {s.value for s in FINAL_STATUSES}
        for c in smaller:
            got = [status.get(k) for k in self.keys[(h, c)]]
            tried = [s for s in got if s != Status.PRESOLVED.value]  # the backend ran
            if all(s in final for s in got) and tried and Status.SOLVED.value not in got:
                self.stopped[h] = (
                    f"frontier: nothing solved at {self.labels[c]} ({len(got)} trials), "
                    "so larger boards are not run"
                )
                return self.stopped[h]
        return None
