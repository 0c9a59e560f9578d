"""Polynomials over binary labels: a :data:`Poly` maps a sorted tuple of labels to an integer
coefficient (``()`` is the constant); b^2 = b, so every term is a set of labels. What the
forms build their penalties with and the exports read."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any, NamedTuple

Poly = dict[tuple[int, ...], int]  # sorted label tuple -> integer coefficient; () is the constant


def add_poly(acc: Poly, poly: Mapping[tuple[int, ...], int], scale: int = 1) -> None:
    for term, c in poly.items():
        v = acc.get(term, 0) + scale * c
        if v:
            acc[term] = v
        else:
            acc.pop(term, None)


def square_linear(coeffs: Mapping[int, int], const: int) -> Poly:
    """(sum a_i x_i + const)^2 over binary x (x^2 = x)."""
    out: Poly = defaultdict(int)
    items = sorted(coeffs.items())
    for label, a in items:
        out[(label,)] += a * a + 2 * a * const
    for (u, a), (v, b) in combinations(items, 2):
        out[(u, v)] += 2 * a * b
    out[()] += const * const
    return {k: v for k, v in out.items() if v}


def poly_mul(p: Mapping[tuple[int, ...], int], q: Mapping[tuple[int, ...], int]) -> Poly:
    """The product over binary labels (b^2 = b: each term's labels as a sorted set)."""
    if p is q and all(len(t) <= 1 for t in p):  # a linear form squared (the slack cuts)
        return square_linear({t[0]: a for t, a in p.items() if t}, p.get((), 0))
    out: Poly = {}
    for s, a in p.items():
        for t, b in q.items():
            term = tuple(sorted(set(s) | set(t)))
            v = out.get(term, 0) + a * b
            if v:
                out[term] = v
            else:
                out.pop(term, None)
    return out


def add_to_bqm(bqm: Any, terms: Iterable[tuple[tuple[Any, ...], float]]) -> None:
    """Add polynomial terms of degree <= 2 to a dimod BQM, the constant to its offset."""
    for term, c in terms:
        if len(term) == 0:
            bqm.offset += c
        elif len(term) == 1:
            bqm.add_linear(term[0], c)
        elif len(term) == 2:
            bqm.add_quadratic(term[0], term[1], c)
        else:
            raise TypeError(f"a term of degree {len(term)} in a quadratic model")


def evaluate(poly: Mapping[tuple[int, ...], int], sample: Mapping[int, int]) -> int:
    """The polynomial's value on a binary sample (a label missing from it is 0). A term
    counts when every label in it is 1: a set test in C, since the runner judges every
    sample with the model's energy and a loop product holds 60+ labels."""
    ones = {label for label, v in sample.items() if v}
    return sum(c for term, c in poly.items() if ones.issuperset(term))


def with_products(gates: Iterable[Gate], ones: set[int]) -> set[int]:
    """The labels that are 1 (``ones``, changed in place) with every product set to the
    product of its pair, in the order the products were made (a pair may hold an earlier
    product): the reduction's auxiliaries at their minimum (:mod:`.reduced`)."""
    for g in gates:
        if g.u in ones and g.v in ones:
            ones.add(g.product)
        else:
            ones.discard(g.product)
    return ones


class Gate(NamedTuple):
    """One product of a HUBO -> QUBO reduction (:mod:`.reduced`): ``product`` stands for
    ``u * v``, held there by ``strength`` times dimod's AND gate."""

    product: int
    u: int
    v: int
    strength: int
