"""The size of a model at each solve: its variables by role, its terms by degree and the range
of its coefficients, the figures the model-size report item
(:mod:`slitherbench.analysis.plots.model_sizes`) reads from the stored iterations.

Variables by role, by the model's own names (:meth:`~slitherbench.models.formulations.Model.label_name`):
``board`` (the edge variables x or the face variables c, the face variables a rule on faces
adds to an edge form included), ``point`` (the degree rule's point auxiliaries y),
``reduction`` (the products z of the form's own HUBO -> QUBO reduction: ``hubo2qubo``) and
``slack`` (every other auxiliary: s); the four add up to the model's variables. Terms by
degree count the polynomial's non-constant terms, and a native constraint as one term of its
variables' count, as :attr:`~slitherbench.models.formulations.Model.num_terms` and ``max_degree`` do.
The coefficient range is the smallest and largest |c| over the polynomial's non-constant terms
(0 where there are none: a native form hands its constraints to the solver as they are). The
product variables a *backend's* own reduction adds (the dimod backends on the ``hubo`` form)
exist only in that backend's copy of the model: they are read from the solve's extras
(``reduction_added``), 0 elsewhere.

A model only grows (pieces are appended, never removed), so :class:`SizeTracker` reads only
the pieces added since its last look: the first solve of a trial costs one pass over the
model (about 1 ms on reference10, 10x10, against 6-14 ms to build it), every later solve the
terms its cuts added (about 0.07 ms for the HUBO; for the QUBO, whose slack cuts add a term
per pair of the loop's edges and slack bits, less than adding those cuts cost: 2-3 ms after
3-5 cuts, against 3-4 ms), against solves of 0.6-0.8 s with dwave SA (conf/backend/sa.yaml).
Python 3.11 on a 2-core machine, 2026-12-02; ``tests/test_model_sizes.py`` holds the HUBO
under 1 ms per solve. :func:`measure` computes the same from the whole model, for checking.

>>> from slitherbench.models.formulations import HuboFormulation, Model
>>> from slitherbench.puzzles.puzzle import Puzzle
>>> model = Model.build(Puzzle.from_rows(["3.", ".1"]), HuboFormulation())
>>> size = SizeTracker()
>>> first = size.update(model)
>>> first["board_variables"], first["point_auxiliaries"], first["slack_variables"]
(12, 9, 0)
>>> first["terms_by_degree"], first["coeff_min_abs"], first["coeff_max_abs"]
([21, 50], 1.0, 4.0)
>>> _ = model.add_cut([0, 1, 2, 3])  # a cut on four edges: one term of degree 4
>>> after = size.update(model)
>>> after["terms_by_degree"], after == measure(model)
([21, 50, 0, 1], True)
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Mapping
from typing import Any

from slitherbench.method.record import SolveResult
from slitherbench.models.formulations import Model
from slitherbench.models.formulations.base import add_poly

# A label's role by the first letter of its name (Model.label_name).
ROLE_OF_PREFIX = {"x": "board", "c": "board", "y": "point", "z": "reduction", "s": "slack"}
# The Iteration columns of each role.
ROLE_COLUMNS = {
    "board": "board_variables",
    "point": "point_auxiliaries",
    "slack": "slack_variables",
    "reduction": "reduction_auxiliaries",
}


def _role(model: Model, label: int) -> str:
    return ROLE_OF_PREFIX.get(model.label_name(label)[:1], "slack")


def _columns(
    roles: Mapping[str, int], degrees: Mapping[int, int], magnitudes: Mapping[float, int]
) -> dict[str, Any]:
    top = max((d for d, n in degrees.items() if n), default=0)
    present = [m for m, n in magnitudes.items() if n]
    return {
        **{col: int(roles.get(role, 0)) for role, col in ROLE_COLUMNS.items()},
        "terms_by_degree": [int(degrees.get(d, 0)) for d in range(1, top + 1)],
        "coeff_min_abs": float(min(present, default=0)),
        "coeff_max_abs": float(max(present, default=0)),
    }


def measure(model: Model) -> dict[str, Any]:
    """The size columns of ``model`` as it is, from the whole model."""
    roles = Counter(_role(model, label) for label in model.labels)
    degrees: Counter[int] = Counter()
    magnitudes: Counter[float] = Counter()
    for term, c in model._poly.items():  # read only: the model's running polynomial
        if term and c:
            degrees[len(term)] += 1
            magnitudes[abs(c)] += 1
    for piece in model.pieces:
        if piece.native is not None:
            degrees[len(piece.constraint.edges)] += 1
    return _columns(roles, degrees, magnitudes)


class SizeTracker:
    """The size columns of one growing model, updated from the pieces added since the last
    :meth:`update` (the model's polynomial holds the sums: a cut's term that meets an existing
    one changes that term's coefficient, read back from it)."""

    def __init__(self) -> None:
        self.pieces = 0  # pieces of the model already counted
        self.terms = 0  # the polynomial's non-constant terms then
        self.roles: Counter[str] = Counter()
        self.degrees: dict[int, int] = {}  # terms by degree (a count may fall to 0)
        self.magnitudes: dict[float, int] = {}  # terms by |coefficient| (the same)

    def update(self, model: Model) -> dict[str, Any]:
        """The size columns of ``model`` now (it has only grown since the last call)."""
        start = self.pieces == 0
        if start:  # the variables the model starts with (no piece made them)
            self.roles["board"] += model.variables.count + len(model.face_labels)
        added = model.pieces[self.pieces :]
        self.pieces = len(model.pieces)
        degrees, magnitudes = self.degrees, self.magnitudes
        polys = []
        for piece in added:
            for label in piece.aux:
                self.roles[_role(model, label)] += 1
            if piece.poly:
                polys.append(piece.poly)
            if piece.native is not None:
                n = len(piece.constraint.edges)
                degrees[n] = degrees.get(n, 0) + 1
        poly = model._poly  # read only: the model's running polynomial
        # What the added pieces changed, term by term: at the start the whole polynomial;
        # later their polynomials side by side where they share no term (the usual case: one
        # cut's terms), summed where they do.
        delta: dict[tuple[int, ...], int] = dict(poly) if start else {}
        if not start:
            for piece_poly in polys:
                delta.update(piece_poly)
            if len(delta) != sum(map(len, polys)):
                delta = {}
                for piece_poly in polys:
                    add_poly(delta, piece_poly)
        delta.pop((), None)
        terms = len(poly) - (() in poly)
        grew, self.terms = terms - self.terms, terms
        if grew == len(delta):  # every changed term is new (none left): counted in C
            for counts, keys in (
                (degrees, map(len, delta)),
                (magnitudes, map(abs, delta.values())),
            ):
                for key, n in Counter(keys).items():
                    counts[key] = counts.get(key, 0) + n
            return self._columns(model)
        coefficient = poly.get
        for term, change in delta.items():
            now = coefficient(term, 0)
            before = now - change
            n = len(term)
            if before:
                degrees[n] -= 1
                magnitudes[abs(before)] -= 1
            if now:
                degrees[n] = degrees.get(n, 0) + 1
                magnitudes[abs(now)] = magnitudes.get(abs(now), 0) + 1
        return self._columns(model)

    def _columns(self, model: Model) -> dict[str, Any]:
        if sum(self.roles.values()) != model.num_variables:  # a label two pieces share
            self.roles = Counter(_role(model, label) for label in model.labels)
        return _columns(self.roles, self.degrees, self.magnitudes)


# One tracker per model a trial is solving (a model is unhashable: found by identity).
_trackers: dict[int, tuple[weakref.ref[Model], SizeTracker]] = {}


def tracker_of(model: Model) -> SizeTracker:
    """The tracker of this model, made at its first solve and dropped with the model."""
    found = _trackers.get(id(model))
    if found is None or found[0]() is not model:
        for key in [k for k, (ref, _) in _trackers.items() if ref() is None]:
            del _trackers[key]
        found = (weakref.ref(model), SizeTracker())
        _trackers[id(model)] = found
    return found[1]


def iteration_columns(model: Model, result: SolveResult | None) -> dict[str, Any]:
    """The size columns of one solve's :class:`~slitherbench.method.record.Iteration` row: the model
    as the solve saw it, and the variables the backend's own reduction added (its extras)."""
    out = tracker_of(model).update(model)
    extras = result.extras if result is not None else {}
    out["backend_reduction_auxiliaries"] = int(extras.get("reduction_added", 0) or 0)
    return out
