"""Colorlink over face variables per colour, as a HUBO for the annealing path.

Label ``k * F + f`` is face f's colouring in the puzzle's k-th colour (1 inside colour k's
loop, 0 outside; the board's outside is 0), and colour k's edge e is on exactly when its two
faces differ: X_k(e) = c_f + c_g - 2 c_f c_g (:func:`slitherbench.formulations.faces.edge_poly`
in colour k's labels). Every row of :mod:`.constraints` is written over those XORs, each
penalty 0 exactly when its row holds (with the best auxiliary values):

* clue: (sum X_k - n)^2, exactly quadratic in colour k's faces (the cubic terms cancel);
* black clue: (sum over colours of sum X_k - n)^2: the products of two colours' XORs make it
  quartic (s_a s_b N_a N_b with s = 1 - 2 c_f and N the neighbours' sum has no cancellation);
* exclusive: the sum over pairs of colours of X_a(e) X_b(e) (quartic; quadratic on the rim);
* degree: a colour's degree at a point is the number of colour changes around it, always even,
  so the rule is "never 4": ``ban``, the exact ban of :func:`~slitherbench.formulations.faces.
  degree_ban_poly` (quartic, no auxiliary), or ``gadget``, the quadratic DEGREE_GADGETS rule
  with one auxiliary per (colour, point);
* nonempty (a colour whose clues are all 0): at least one face of the colour inside, by a
  slack over the face sum (quadratic);
* cut of one loop L in colour k: the loop's two on-patterns over colour k's face literals
  (:func:`~slitherbench.formulations.faces.pattern_polys`), each "at most m - 1 literals
  hold" by a slack (quadratic); a cut over several loops at once (colours whose clues are all
  0) has one pattern per flip of each loop, so it is written as sum X_k <= |L| - 1 by a slack
  over the XOR sum (quartic) instead.

The polynomial is sampled by OpenJij's HUBO annealer (``openjij``: no initial state) or by
dwave SA on dimod's ``make_quadratic`` reduction (``dwave``: warm starts from the previous
solution). Samples decode to the edge variables of :mod:`.constraints` (``k * E + e``) and are
judged by the rows themselves, so the iterative method's step and the checker are unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, product
from typing import Any

from ..formulations.base import Poly, add_poly, evaluate
from ..formulations.faces import (
    DEGREE_GADGETS,
    degree_ban_poly,
    edge_poly,
    faces_around,
    pattern_polys,
    poly_mul,
)
from ..formulations.penalties import slack_bits, slack_coefficients
from .check import components
from .constraints import Row
from .model import ColorPuzzle

DEGREE_RULES = ("ban", "gadget")
SAMPLERS = ("openjij", "dwave")
Fill = Callable[[Mapping[int, int]], dict[int, int]]


def shifted(poly: Mapping[tuple[int, ...], int], offset: int) -> Poly:
    """A face polynomial moved to one colour's labels (``offset`` = k * F)."""
    return {tuple(lb + offset for lb in t): a for t, a in poly.items()}


class FaceModel:
    """The penalty polynomial of every row added so far over face labels ``0..K*F-1``;
    auxiliaries (slack bits, gadget auxiliaries) come after."""

    def __init__(self, puzzle: ColorPuzzle, rows: Sequence[Row], degree: str = "ban") -> None:
        if degree not in DEGREE_RULES:
            raise ValueError(f"degree must be one of {', '.join(DEGREE_RULES)}, got {degree!r}")
        self.puzzle, self.board, self.degree = puzzle, puzzle.board, degree
        self.K, self.F, self.E = len(puzzle.colours), puzzle.board.num_faces, puzzle.board.num_edges
        self.num_faces = self.K * self.F
        self.poly: Poly = {}
        self.rows: list[Row] = []
        self.fills: list[Fill] = []
        self.version = 0  # bumped by every add: samplers rebuild what they cached
        self._next = self.num_faces
        self._points = {frozenset(es): p for p, es in enumerate(self.board.point_edges)}
        self._bans: dict[int, Poly] = {}
        self.add(rows)

    # -- building ------------------------------------------------------------------------
    def new_labels(self, n: int) -> list[int]:
        labels = list(range(self._next, self._next + n))
        self._next += n
        return labels

    @property
    def num_labels(self) -> int:
        return self._next

    def xor(self, v: int) -> Poly:
        """Edge variable v = k * E + e as colour k's XOR of e's two faces."""
        k, e = divmod(v, self.E)
        return shifted(edge_poly(self.board, e), k * self.F)

    def lhs(self, variables: Sequence[int]) -> Poly:
        out: Poly = {}
        for v in variables:
            add_poly(out, self.xor(v))
        return out

    def add(self, rows: Sequence[Row]) -> None:
        for row in rows:
            self.rows.append(row)
            self._add_row(row)
        self.version += 1

    def _add_row(self, row: Row) -> None:
        kind = row.kind
        if kind in ("clue", "black"):
            p = self.lhs(row.variables)
            add_poly(p, {(): -row.allowed[0]})
            add_poly(self.poly, poly_mul(p, p))
        elif kind == "exclusive":
            for a, b in combinations(row.variables, 2):
                add_poly(self.poly, poly_mul(self.xor(a), self.xor(b)))
        elif kind == "degree":
            k = row.variables[0] // self.E
            p = self._points[frozenset(v % self.E for v in row.variables)]
            self._add_degree(k, p)
        elif kind == "nonempty":
            k = row.variables[0] // self.E
            faces = {(k * self.F + f,): 1 for f in range(self.F)}
            self._add_slack(faces, 1, self.F)
        elif kind == "cut":
            k = row.variables[0] // self.E
            edges = [v % self.E for v in row.variables]
            layer = [False] * self.E
            for e in edges:
                layer[e] = True
            if components(self.board, layer) == 1:
                for lhs, m in pattern_polys(self.board, edges):
                    self._add_slack(shifted(lhs, k * self.F), 0, m - 1)
            else:
                self._add_slack(self.lhs(row.variables), 0, len(edges) - 1)
        else:
            raise ValueError(f"no face encoding for a {kind!r} row")

    def _add_degree(self, k: int, p: int) -> None:
        if self.degree == "ban":
            if p not in self._bans:
                self._bans[p] = degree_ban_poly(self.board, p)
            add_poly(self.poly, shifted(self._bans[p], k * self.F))
            return
        wedges = faces_around(self.board, p)
        if len(wedges) <= 3:
            return
        if len(wedges) not in DEGREE_GADGETS:
            raise ValueError(f"no quadratic degree gadget for points of {len(wedges)} faces")
        n_aux, gadget = DEGREE_GADGETS[len(wedges)]
        aux = self.new_labels(n_aux)
        slot = [k * self.F + w if w >= 0 else -1 for w in wedges] + aux
        poly: Poly = {}
        for term, a in gadget.items():
            labels = [slot[i] for i in term]
            if all(lb >= 0 for lb in labels):  # a term with the outside (0) vanishes
                add_poly(poly, {tuple(sorted(set(labels))): a})
        add_poly(self.poly, poly)

        def fill(sample: Mapping[int, int]) -> dict[int, int]:
            options = (dict(zip(aux, bits, strict=True)) for bits in product((0, 1), repeat=n_aux))
            return min(options, key=lambda d: evaluate(poly, {**sample, **d}))

        self.fills.append(fill)

    def _add_slack(self, lhs: Poly, lower: int, upper: int) -> None:
        """lower <= lhs <= upper as (lhs - lower - s)^2, s in 0..upper - lower in slack bits."""
        coeffs = slack_coefficients(upper - lower)
        labels = self.new_labels(len(coeffs))
        p = dict(lhs)
        add_poly(p, {(): -lower})
        add_poly(p, {(s,): -a for s, a in zip(labels, coeffs, strict=True)})
        add_poly(self.poly, poly_mul(p, p))

        def fill(sample: Mapping[int, int]) -> dict[int, int]:
            s = min(max(evaluate(lhs, sample) - lower, 0), upper - lower)
            return dict(zip(labels, slack_bits(s, coeffs), strict=True))

        self.fills.append(fill)

    # -- reading samples -------------------------------------------------------------------
    def edges_of(self, faces: Mapping[int, int] | Sequence[int]) -> list[bool]:
        """The edge variables (``k * E + e``) of a face sample."""
        get = faces.get if isinstance(faces, Mapping) else (lambda i, d=0: faces[i])
        out = []
        for k in range(self.K):
            base = k * self.F
            for f, g in self.board.edge_faces:
                cf = bool(get(base + f, 0))
                cg = bool(get(base + g, 0)) if g >= 0 else False
                out.append(cf != cg)
        return out

    def full_state(self, faces: Mapping[int, int]) -> dict[int, int]:
        """Every label: the face bits given, each auxiliary at its best value."""
        state = {v: int(bool(faces.get(v, 0))) for v in range(self.num_faces)}
        for fill in self.fills:
            state.update(fill(state))
        return state

    def energy(self, state: Mapping[int, int]) -> int:
        return evaluate(self.poly, state)

    def broken(self, x: Sequence[bool]) -> int:
        return sum(not row.holds(x) for row in self.rows)

    def max_degree(self) -> int:
        return max((len(t) for t in self.poly), default=0)


def anneal_faces(
    model: FaceModel,
    seed: int,
    deadline: float,
    hint: Mapping[int, int] | None = None,
    sampler: str = "openjij",
    num_sweeps: int = 1000,
    num_reads: int = 4,
    beta_range: tuple[float, float] = (2.0, 10.0),
    warm_beta_range: tuple[float, float] = (4.5, 10.0),
    reduction_strength: float = 4.0,
    cache: dict[str, Any] | None = None,
) -> tuple[dict[int, int], list[bool], int, int]:
    """Sample until a read breaks no row or the deadline passes: the best read's face bits,
    its edge variables, the rows it breaks, and the reads taken. ``openjij`` takes
    ``num_reads`` reads a call, cold; ``dwave`` one read a call, every other one warm from the
    hint (the previous solution's faces), as the edge path does. ``cache`` keeps the sampler's
    model between calls while no row is added."""
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler must be one of {', '.join(SAMPLERS)}, got {sampler!r}")
    cache = {} if cache is None else cache
    if cache.get("version") != model.version:
        cache.clear()
        cache["version"] = model.version
        terms = {t: float(a) for t, a in model.poly.items() if t}
        if sampler == "openjij":
            cache["J"] = terms
        else:
            import dimod
            from dimod.higherorder.utils import make_quadratic

            poly = dimod.BinaryPolynomial(terms, dimod.BINARY)
            cache["bqm"] = make_quadratic(poly, reduction_strength, vartype=dimod.BINARY)
    best: tuple[dict[int, int], list[bool], int] | None = None
    reads = 0
    while True:
        if sampler == "openjij":
            samples = _openjij_reads(cache["J"], seed + reads, num_sweeps, num_reads, beta_range)
        else:
            samples = _dwave_read(
                cache["bqm"], seed + reads, num_sweeps, beta_range, warm_beta_range,
                model.full_state(hint) if hint is not None and reads % 2 == 0 else None,
            )  # fmt: skip
        reads += len(samples)
        for s in samples:
            faces = {v: int(s.get(v, 0)) for v in range(model.num_faces)}
            x = model.edges_of(faces)
            broken = model.broken(x)
            if best is None or broken < best[2]:
                best = (faces, x, broken)
        assert best is not None
        if best[2] == 0 or time.perf_counter() >= deadline:
            return best[0], best[1], best[2], reads


def _openjij_reads(
    J: dict[tuple[int, ...], float],
    seed: int,
    num_sweeps: int,
    num_reads: int,
    beta_range: tuple[float, float],
) -> list[dict[int, int]]:
    import openjij as oj

    if not J:
        return [{}]
    res = oj.SASampler().sample_hubo(
        J,
        vartype="BINARY",
        num_sweeps=num_sweeps,
        num_reads=num_reads,
        beta_min=beta_range[0],
        beta_max=beta_range[1],
        temperature_schedule="LINEAR",
        seed=seed % 2**31,
    )
    return [dict(s) for s in res.samples()]


def _dwave_read(
    bqm: Any,
    seed: int,
    num_sweeps: int,
    beta_range: tuple[float, float],
    warm_beta_range: tuple[float, float],
    start: dict[int, int] | None,
) -> list[dict[int, int]]:
    from dwave.samplers import SimulatedAnnealingSampler

    params: dict[str, Any] = {"num_sweeps": num_sweeps, "beta_range": beta_range}
    if start is not None:
        full = dict(start)
        pending = dict(bqm.info.get("reduction", {}))  # a product variable = its pair's product
        while pending:
            for (u, v), rec in list(pending.items()):
                if u in full and v in full:
                    full[rec["product"]] = full[u] * full[v]
                    del pending[(u, v)]
        order = list(bqm.variables)
        params["initial_states"] = ([[full.get(v, 0) for v in order]], order)
        params["beta_range"] = warm_beta_range
    rec = SimulatedAnnealingSampler().sample(bqm, num_reads=1, seed=seed % 2**31, **params)
    return [dict(rec.first.sample)]
