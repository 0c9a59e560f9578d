"""Racing settings (``tune.method=race``): a centred search and successive halving.

The settings raced are drawn around the cell's own (untuned) one: each penalty weight in
``[w * lo, w * hi]`` for ``tune.weight_factors: [lo, hi]`` and the backend's effort parameter
(``Backend.effort``, e.g. sweeps) in ``[e * lo, e * hi]`` for ``tune.effort_factors``, log-uniform
(a factor 2 up is as likely as a factor 2 down), the untuned setting itself first. Weights are
whole numbers of at least 1 (the forms take no other), so a drawn weight is rounded to the
nearest one; an effort is rounded to two significant figures. Drawn settings are distinct.

The race (successive halving, as in irace or Hyperband's inner loop): every setting runs the
first ``first_runs`` runs (a run is one training board with one seed: run k is board
``k mod B`` with seed ``k div B``, so every setting meets the same runs in the same order);
the better half of the other settings by the objective goes on to twice as many runs (the
runs it already has, and as many again), and so on until the runs reach ``final_runs``; those
left are the finalists. The untuned setting always goes on besides, so at the end it has run
the finalists' runs too (16 settings at 8, 16 and 32 runs: 16, then 1 + 8, then 1 + 4).

The objective over a setting's runs: its success rate (solved / runs; a run skipped or ended
by an error counts as not solved), then, between equal rates, the median wall time of its
solved runs (lower wins), then the earlier setting (the untuned one is the first). The winner
is the best finalist; it beats the untuned setting only when strictly better on the same runs.

Pure logic: the runs come from a callable, so the race can be checked without a solver.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

WEIGHTS = ("clue_weight", "degree_weight", "cut_weight")


@dataclass(frozen=True)
class Outcome:
    """One run of one setting on one training board and seed."""

    solved: bool
    wall_s: float
    ran: bool = True  # False: skipped or an error (counted as not solved)
    reason: str = ""


@dataclass(frozen=True)
class Score:
    """A setting's objective over its first ``runs`` runs."""

    solved: int
    runs: int
    ran: int
    median_s: float  # median wall time of the solved runs (inf: none solved)

    @property
    def rate(self) -> float:
        return self.solved / self.runs if self.runs else 0.0

    def key(self) -> tuple[float, float]:
        """Smaller is better: the success rate first, then the median time of solved runs."""
        return (-self.rate, self.median_s)

    def beats(self, other: Score) -> bool:
        return self.key() < other.key()


def score(outcomes: Sequence[Outcome]) -> Score:
    times = [o.wall_s for o in outcomes if o.solved]
    return Score(
        solved=len(times),
        runs=len(outcomes),
        ran=sum(o.ran for o in outcomes),
        median_s=float(statistics.median(times)) if times else math.inf,
    )


def centred_box(
    untuned: Mapping[str, int],
    weight_factors: Sequence[float],
    effort_factors: Sequence[float],
) -> dict[str, tuple[float, float]]:
    """Each searched parameter's range: its untuned value times the factors (weights by
    ``weight_factors``, everything else, the backend's effort, by ``effort_factors``)."""
    out = {}
    for name, value in untuned.items():
        lo, hi = weight_factors if name in WEIGHTS else effort_factors
        out[name] = (float(value) * float(lo), float(value) * float(hi))
    return out


def _round(name: str, value: float) -> int:
    if name in WEIGHTS:
        return max(1, round(value))  # the forms take whole weights of at least 1
    return max(1, round(float(f"{value:.2g}")))  # efforts: two significant figures


def candidates(
    untuned: Mapping[str, int],
    weight_factors: Sequence[float],
    effort_factors: Sequence[float],
    n: int,
    seed: int,
) -> list[dict[str, int]]:
    """The untuned setting, then up to ``n - 1`` distinct settings drawn log-uniformly from the
    box centred on it (fewer where the box holds fewer whole-number settings)."""
    box = centred_box(untuned, weight_factors, effort_factors)
    rng = random.Random(seed)
    out = [dict(untuned)]
    seen = {tuple(sorted(untuned.items()))}
    for _ in range(100 * n):
        if len(out) >= n:
            break
        drawn = {
            name: _round(name, math.exp(rng.uniform(math.log(lo), math.log(hi))))
            for name, (lo, hi) in box.items()
        }
        key = tuple(sorted(drawn.items()))
        if key not in seen:
            seen.add(key)
            out.append(drawn)
    return out


def rung_runs(first_runs: int, final_runs: int) -> list[int]:
    """The runs per setting at each rung: ``first_runs``, doubled each rung, the last one
    ``final_runs`` (a doubling past it stops at it)."""
    runs = [first_runs]
    while runs[-1] < final_runs:
        runs.append(min(2 * runs[-1], final_runs))
    return runs


def planned_runs(n: int, first_runs: int, final_runs: int) -> list[tuple[int, int]]:
    """(settings, runs each) per rung: the untuned setting and half the others (rounded up)
    go on each rung."""
    out = []
    alive = n
    for k, runs in enumerate(rung_runs(first_runs, final_runs)):
        if k:
            alive = 1 + math.ceil((alive - 1) / 2)
        out.append((alive, runs))
    return out


@dataclass
class Rung:
    runs: int
    settings: list[int]  # indices into the candidates, best first
    scores: dict[int, Score]
    kept: list[int] = field(default_factory=list)  # those going on (empty at the last rung)


@dataclass
class RaceResult:
    rungs: list[Rung]
    winner: int  # index of the best finalist (0: the untuned setting)

    @property
    def finalists(self) -> list[int]:
        return self.rungs[-1].settings

    @property
    def final(self) -> dict[int, Score]:
        return self.rungs[-1].scores

    @property
    def beats_untuned(self) -> bool:
        return self.winner != 0 and self.final[self.winner].beats(self.final[0])


def race(
    n: int,
    measure: Callable[[int, int], Outcome],
    first_runs: int,
    final_runs: int,
    on_rung: Callable[[Rung], None] | None = None,
) -> RaceResult:
    """Race settings ``0 .. n-1`` (0: the untuned one): ``measure(setting, run)`` runs one;
    each (setting, run) is measured once."""
    outcomes: dict[int, list[Outcome]] = {c: [] for c in range(n)}
    alive = list(range(n))
    rungs = []
    schedule = rung_runs(first_runs, final_runs)
    for k, runs in enumerate(schedule):
        for c in alive:
            while len(outcomes[c]) < runs:
                outcomes[c].append(measure(c, len(outcomes[c])))
        scores = {c: score(outcomes[c][:runs]) for c in alive}
        ranked = sorted(alive, key=lambda c: (*scores[c].key(), c))
        rung = Rung(runs, ranked, scores)
        if k + 1 < len(schedule):
            others = [c for c in ranked if c != 0]
            best = set(others[: math.ceil(len(others) / 2)])
            rung.kept = [c for c in ranked if c == 0 or c in best]
            alive = rung.kept
        rungs.append(rung)
        if on_rung is not None:
            on_rung(rung)
    return RaceResult(rungs, winner=rungs[-1].settings[0])
