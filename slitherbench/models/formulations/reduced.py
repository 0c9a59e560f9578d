"""The HUBO reduced to a quadratic model by the formulation (``formulation=hubo2qubo``), so
every sampler that takes a QUBO runs the same reduced HUBO, beside the QUBO form's slack cuts
and, on the samplers that take a polynomial, beside the HUBO itself.

**The reduction** is dimod's ``make_quadratic`` for binary variables: while a term of degree 3
or more is left, the pair of variables that most such terms share (the smallest pair among
equals, so the model is the same in every process: dimod breaks ties by set order, which
changes with the hash seed) is replaced in those terms by a new *product* variable z, and
``M * AND(u, v, z)`` is added, dimod's gate ``3 z + u v - 2 u z - 2 v z`` (0 exactly where
z = u v, at least 1 elsewhere; :func:`gate_poly`). Each piece of the model (a clue, a point's
degree rule, a loop cut) is reduced on its own when it is made, a cut's when the cut is added:
its products are its own (a pair in many loop products gets one product per cut), so a
piece's strengths are final when it is made, a backend's copy of the model only grows, and
each piece is exact on its own, as every other form's pieces are (the per-piece proofs of
``tests/test_formulations.py`` and ``tests/test_rule_proofs.py`` cover this form too).

**The strength** of each product is chosen from the coefficients it carries: with P the sum
of the positive and N the sum of |c| of the negative coefficients of the terms in which the
pair was replaced (as in the HUBO: a term keeps its coefficient through every substitution),
``carried = max(P, N)`` and ``strength = floor(strength_scale * carried) + 1``
(``strength_scale`` >= 1; 1 gives the smallest integer above the bound). **Bound:** a strength
M > max(P, N) keeps every ground state, and more: the reduced polynomial R, minimised over the
products, equals the HUBO's H on every assignment, at each product equal to the product of
its pair. Proof: let P_k be the polynomial after the k-th substitution (P_0 = H), the pair
(u, v) replaced by z in terms t = c_t u v r_t. Then P_k - P_{k-1} = sum_t c_t (z - u v) r_t +
M G(u, v, z), with r_t in {0, 1} and G >= 1 wherever z != u v. Where z = u v this is 0; where
z = 1 > u v it is at least M - N > 0; where z = 0 < u v it is -sum_t c_t r_t + M >= M - P > 0.
Hence min over z of P_k = P_{k-1} for every value of every other variable, reached only at
z = u v, and by induction from the last product back to the first, min over all products of
R = H. The gates are never substituted (they are quadratic), and a later product's terms pass
through an earlier one's only after it was made, so each step's P and N are those above. A
loop product of weight w carries w (strength w + 1); a square point's exact rule
4 e3 - 7 e4 gives its first pair 4 + 4 against 7 (strength 9). ``tests/test_reduced_hubo.py``
checks it exhaustively on 2x2 boards (edge and face variables, before and after cuts) and
shows the fixed strength 4 of the dimod backends failing on points of five and six edges.

The model's energy (what the runner judges by) sets each product to its pair's product
first, whatever the sample holds (:meth:`~.base.Model.energy`): the reduced polynomial with the
reduction's auxiliaries minimised, which is the HUBO's energy. The products are model labels
named ``z`` (:meth:`~.base.Model.label_name`; their role: reduction auxiliaries), filled in
hints by :meth:`~.base.Model.complete`; :meth:`~.base.Model.reduction_summary` gives their
number and largest strength (the sa, tabu, steepest and sqa backends record it in each
solve's extras).

The dimod backends (``sa``, ``tabu``, ``pt``, ``sqa``, ``steepest``) take this form as the
quadratic model it is and do no reduction of their own; their ``reduction_strength`` is used
only for the plain ``hubo`` form, so configs written for it run as before.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from slitherbench.method.record import Capability
from slitherbench.models.formulations.base import Constraint, Gate, Model, Piece, Poly, add_poly
from slitherbench.models.formulations.hubo import HuboFormulation


def gate_poly(gate: Gate) -> Poly:
    """``strength`` times dimod's AND gate (``dimod.generators.and_gate``) for z = u v."""
    z, u, v, m = gate
    return {
        (z,): 3 * m,
        tuple(sorted((u, v))): m,
        tuple(sorted((u, z))): -2 * m,
        tuple(sorted((v, z))): -2 * m,
    }


class _PairIndex:
    """The terms of degree 3 or more still to reduce, and which of them hold each pair: the
    most shared pair comes first, the smallest among equals (a heap; a count that changed is
    pushed again and the old entry skipped when it comes up)."""

    def __init__(self, terms: list[tuple[tuple[int, ...], int]]) -> None:
        self.terms = {k: (set(t), c) for k, (t, c) in enumerate(terms)}  # number -> (labels, c)
        self.pair_terms: dict[tuple[int, int], set[int]] = {}
        for k, (labels, _) in self.terms.items():
            term = sorted(labels)
            for i, a in enumerate(term):
                for b in term[i + 1 :]:
                    self.pair_terms.setdefault((a, b), set()).add(k)
        self.heap = [(-len(ks), pair) for pair, ks in self.pair_terms.items()]
        heapq.heapify(self.heap)

    def next_pair(self) -> tuple[tuple[int, int], list[int]] | None:
        """The pair to replace next and the terms holding it (taken out of the index)."""
        while self.heap:
            count, pair = heapq.heappop(self.heap)
            if len(self.pair_terms.get(pair, ())) == -count:
                return pair, sorted(self.pair_terms.pop(pair))
        return None

    def _drop(self, pair: tuple[int, int], k: int) -> None:
        ks = self.pair_terms.get(pair)
        if ks is None:
            return
        ks.discard(k)
        if ks:
            heapq.heappush(self.heap, (-len(ks), pair))
        else:
            del self.pair_terms[pair]

    def replace(self, pair: tuple[int, int], z: int, k: int) -> tuple[tuple[int, ...], int] | None:
        """Term k with ``pair`` replaced by z (the newest label); it leaves the index and is
        returned once it is quadratic."""
        u, v = pair
        labels, c = self.terms[k]
        rest = sorted(labels - {u, v})
        for w in rest:
            self._drop((min(u, w), max(u, w)), k)
            self._drop((min(v, w), max(v, w)), k)
        if len(rest) <= 1:  # quadratic now (rest holds no pair)
            del self.terms[k]
            return (*rest, z), c
        self.terms[k] = ({*rest, z}, c)
        for w in rest:  # w < z
            ks = self.pair_terms.setdefault((w, z), set())
            ks.add(k)
            heapq.heappush(self.heap, (-len(ks), (w, z)))
        return None


def reduce_polynomial(
    poly: Poly, new_label: Callable[[], int], strength_scale: float = 1.0
) -> tuple[Poly, list[Gate]]:
    """``poly`` as a quadratic polynomial and the gates of its products (their penalties
    included in it): dimod's ``reduce_binary_polynomial`` with the ties broken by the smallest
    pair, each product's strength from the coefficients it carries (module docstring).
    ``new_label`` gives each product's label."""
    out: Poly = {}
    add_poly(out, {t: c for t, c in poly.items() if len(t) <= 2})
    high = [(t, c) for t, c in poly.items() if len(t) > 2]
    if len(high) == 1:  # a loop cut's product: the same choices without the pair index
        return _reduce_product(*high[0], out, new_label, strength_scale)
    index = _PairIndex(high)
    gates: list[Gate] = []
    while (found := index.next_pair()) is not None:
        pair, ks = found
        coeffs = [index.terms[k][1] for k in ks]
        # The coefficients the pair carries, by sign: a wrong product gains at most the
        # negative ones (z = 1 > u v) or the positive ones (z = 0 < u v), never both.
        carried = max(sum(c for c in coeffs if c > 0), -sum(c for c in coeffs if c < 0))
        gate = Gate(new_label(), *pair, math.floor(strength_scale * carried) + 1)
        gates.append(gate)
        add_poly(out, gate_poly(gate))
        for k in ks:
            done = index.replace(pair, gate.product, k)
            if done is not None:
                add_poly(out, {done[0]: done[1]})
    return out, gates


def _reduce_product(
    term: tuple[int, ...],
    c: int,
    out: Poly,
    new_label: Callable[[], int],
    strength_scale: float,
) -> tuple[Poly, list[Gate]]:
    """One term alone, as :func:`reduce_polynomial` reduces it: every pair is in it once, so
    the smallest pair goes first, the two smallest labels left, each product (the newest
    label) joining at the end: a queue, O(|term|) where the pair index takes O(|term|^2)."""
    left = deque(sorted(term))
    strength = math.floor(strength_scale * abs(c)) + 1  # the term's coefficient, either sign
    gates: list[Gate] = []
    while len(left) > 2:
        u, v = left.popleft(), left.popleft()
        gate = Gate(new_label(), u, v, strength)
        gates.append(gate)
        add_poly(out, gate_poly(gate))
        left.append(gate.product)
    add_poly(out, {tuple(left): c})
    return out, gates


def reduce_piece(piece: Piece, model: Model, strength_scale: float = 1.0) -> Piece:
    """The piece with its terms of degree 3 or more reduced, its products' labels made by the
    model and added to its auxiliaries (after its own)."""
    if piece.poly is None or all(len(t) <= 2 for t in piece.poly):
        return piece
    poly, gates = reduce_polynomial(piece.poly, lambda: model.new_labels(1)[0], strength_scale)
    return replace(
        piece, poly=poly, aux=(*piece.aux, *(g.product for g in gates)), gates=tuple(gates)
    )


class ReducedHuboFormulation(HuboFormulation):
    """The HUBO (:class:`~.hubo.HuboFormulation`, the same pieces and settings) with every
    term of degree 3 or more reduced to a quadratic by :func:`reduce_piece`: a quadratic
    model, so every QUBO sampler takes it."""

    name = "hubo2qubo"
    produces = frozenset({Capability.QUADRATIC, Capability.POLYNOMIAL})

    def __init__(self, strength_scale: float = 1.0, **params: Any) -> None:
        super().__init__(**params)
        if not float(strength_scale) >= 1:
            raise ValueError(
                "strength_scale must be at least 1 (a smaller strength may lose ground "
                f"states), got {strength_scale!r}"
            )
        self.strength_scale = float(strength_scale)

    def encode_piece(self, c: Constraint, model: Model) -> Piece:
        return reduce_piece(super().encode_piece(c, model), model, self.strength_scale)

    def params(self) -> dict[str, object]:
        return {**super().params(), "strength_scale": self.strength_scale}

    def describe(self) -> str:
        scale = "" if self.strength_scale == 1 else f",x{self.strength_scale:g}"
        return f"hubo2qubo[{self.degree_mode}{scale}]{self.variables_suffix}{self.cut_suffix}"
