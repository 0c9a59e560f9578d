"""The rows of :mod:`.constraints` as a QUBO (a dimod BQM), sampled by dwave-samplers'
simulated annealing.

Penalties, each 0 exactly when its row holds (with the best auxiliary values):

* clue and black clue: (sum - n)^2;
* exclusive: the sum of x_a x_b over pairs of colours on the edge (0 with at most one on);
* degree: (deg - 2 y)^2 with one auxiliary y per (colour, point), as the harness's QUBO form;
* cut and nonempty: (sum + s - hi)^2 and (sum - lo - s)^2 with a binary slack s whose bits
  reach exactly 0..hi - lo (as :mod:`slitherbench.formulations.qubo` writes its cuts).

A sample is judged by the rows themselves (every row holds: energy 0), never by the sampler's
energy.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import dimod

from .constraints import Row


def slack_weights(span: int) -> list[int]:
    """Bit weights whose subsets reach every value 0..span and nothing above."""
    if span <= 0:
        return []
    weights = [1 << k for k in range(span.bit_length() - 1)]
    return [*weights, span - sum(weights)]


class QuboModel:
    """The penalty BQM of every row added so far; auxiliary labels come after the ``num_vars``
    edge variables."""

    def __init__(self, num_vars: int, rows: Sequence[Row], weight: float = 1.0) -> None:
        self.num_vars = num_vars
        self.weight = weight
        self.bqm = dimod.BinaryQuadraticModel(dimod.BINARY)
        self.bqm.add_variables_from((v, 0.0) for v in range(num_vars))
        self.rows: list[Row] = []
        self.aux: list[tuple[Row, list[tuple[int, int]]]] = []  # (row, [(label, weight)])
        self._next = num_vars
        self.add(rows)

    def add(self, rows: Sequence[Row]) -> None:
        for row in rows:
            self.rows.append(row)
            self._add_row(row)

    def _new(self, n: int) -> list[int]:
        labels = list(range(self._next, self._next + n))
        self._next += n
        return labels

    def _add_row(self, row: Row) -> None:
        if row.kind == "exclusive":
            for a, b in combinations(row.variables, 2):
                self.bqm.add_quadratic(a, b, self.weight)
            return
        lo, hi = row.allowed[0], row.allowed[-1]
        terms = {v: 1 for v in row.variables}
        if row.kind == "degree":
            (y,) = self._new(1)
            terms[y] = -2
            self.aux.append((row, [(y, 2)]))
            self._add_square(terms, 0)
            return
        bits = slack_weights(hi - lo)
        labels = self._new(len(bits))
        # (sum - lo - s)^2: s takes up whatever of hi - lo the sum leaves.
        terms.update((lab, -w) for lab, w in zip(labels, bits, strict=True))
        self.aux.append((row, list(zip(labels, bits, strict=True))))
        self._add_square(terms, -lo)

    def _add_square(self, terms: dict[int, int], const: int) -> None:
        """weight * (sum a_i z_i + const)^2 with binary z (z^2 = z)."""
        w = self.weight
        items = list(terms.items())
        for v, a in items:
            self.bqm.add_linear(v, w * (a * a + 2 * a * const))
        for (u, a), (v, b) in combinations(items, 2):
            self.bqm.add_quadratic(u, v, 2 * w * a * b)
        self.bqm.offset += w * const * const

    def holds(self, x: Sequence[bool]) -> bool:
        return all(row.holds(x) for row in self.rows)

    def broken(self, x: Sequence[bool]) -> int:
        return sum(not row.holds(x) for row in self.rows)

    def full_state(self, x: Sequence[bool]) -> dict[int, int]:
        """A sample of the BQM from edge variables, each auxiliary at its best value."""
        state = {v: int(bool(x[v])) for v in range(self.num_vars)}
        for row, bits in self.aux:
            total = row.total(x)
            if row.kind == "degree":
                state[bits[0][0]] = int(total >= 2)
                continue
            s = min(max(total - row.allowed[0], 0), row.allowed[-1] - row.allowed[0])
            for label, w in reversed(bits):  # greedy from the largest weight fits exactly
                state[label] = int(s >= w)
                s -= w * state[label]
        return state


def anneal(
    model: QuboModel,
    seed: int,
    deadline: float,
    hint: Sequence[bool] | None = None,
    num_sweeps: int = 2000,
    beta_range: tuple[float, float] = (2.0, 10.0),
    warm_beta_range: tuple[float, float] = (4.5, 10.0),
) -> tuple[list[bool], int, int]:
    """Reads (one at a time) until one breaks no row or the deadline passes: the best edge
    variables, the rows it breaks, and the reads taken.

    A hint (the previous solution) starts every other read, on the harness's colder warm
    schedule; the reads between start cold. Measured on generated two-colour puzzles (3
    puzzles x 3 seeds): warm reads only timed out on 6 of 9 4x4 runs (10 s) with the colder
    schedule and on 3 of 9 5x5 runs (20 s) with the cold one's; cold reads only on 1 of 9 5x5
    runs, at 2-13 s a solve; alternating on 1 of 9, at 0.3-10 s (4x4: 0 of 9).
    """
    from dwave.samplers import SimulatedAnnealingSampler

    sampler = SimulatedAnnealingSampler()
    cold: dict[str, Any] = {"num_sweeps": num_sweeps, "beta_range": beta_range}
    warm = dict(cold)
    if hint is not None:
        start = model.full_state(hint)
        order = list(model.bqm.variables)
        warm["initial_states"] = ([[start.get(v, 0) for v in order]], order)
        warm["beta_range"] = warm_beta_range
    best: list[bool] = []
    best_broken, reads = -1, 0
    while True:
        params = warm if reads % 2 == 0 else cold
        rec = sampler.sample(model.bqm, num_reads=1, seed=(seed + reads) % 2**31, **params).first
        reads += 1
        x = [bool(rec.sample[v]) for v in range(model.num_vars)]
        broken = model.broken(x)
        if best_broken < 0 or broken < best_broken:
            best, best_broken = x, broken
        if best_broken == 0 or time.perf_counter() >= deadline:
            return best, best_broken, reads
