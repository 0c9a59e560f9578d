"""The lazy loop of :mod:`.sat_sides` compiled with numba: one sample's loops and their cuts.

Profiling a 30x40 board's solve (about 76 samples, 9 loops each) put half of its time in the
Python that splits a sample into loops and works out each loop's cut (its points, the edges
inside and leaving them, the clue counts), more than Glucose itself. :func:`analyse` does the
same work on flat arrays, one call per sample; :class:`.sat_sides._Cuts` keeps the Python
version, which the tests hold this one to, cut for cut.

A loop whose edges give every clue its count is only *flagged* here: the caller confirms it
with the independent checker before it counts as an answer.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

# What the analysis makes of a loop, as numbers in the compiled code and as names outside:
# a candidate answer (the checker decides), the page's loop cut, a cut-set cut.
ANSWER, LOOP_CUT, CUT_SET = 0, 1, 2
KINDS = ("answer", "loop cut", "cut set")


class Board:
    """The arrays :func:`analyse` reads and the work arrays it reuses, built once per
    puzzle."""

    def __init__(self, puzzle: Any) -> None:
        i64 = np.int64
        E, P, F = puzzle.num_edges, puzzle.num_points, puzzle.num_faces
        self.E = E
        self.ep = np.asarray(puzzle.edge_points, dtype=i64).reshape(E, 2)
        self.ef = np.asarray(puzzle.board.edge_faces, dtype=i64).reshape(E, 2)
        sizes = [len(x) for x in puzzle.point_edges]
        self.pe_ptr = np.zeros(P + 1, dtype=i64)
        self.pe_ptr[1:] = np.cumsum(sizes)
        self.pe = np.asarray([e for x in puzzle.point_edges for e in x], dtype=i64)
        self.clue = np.full(F, -1, dtype=i64)
        for f, n in puzzle.clue_faces:
            self.clue[f] = n
        self.wanted = int(sum(1 for _, n in puzzle.clue_faces if n > 0))
        # work and output arrays: components are point-disjoint, so an edge is inside at
        # most one component and leaves at most two
        self.seen = np.zeros(E, dtype=i64)
        self.pstamp = np.zeros(P, dtype=i64)
        self.fstamp = np.zeros(F, dtype=i64)
        self.fcount = np.zeros(F, dtype=i64)
        self.comp = np.zeros(E, dtype=i64)
        self.comp_ptr = np.zeros(E + 1, dtype=i64)
        self.kind = np.zeros(E, dtype=i64)
        self.inside = np.zeros(E, dtype=i64)
        self.inside_ptr = np.zeros(E + 1, dtype=i64)
        self.leaving = np.zeros(2 * E, dtype=i64)
        self.leaving_ptr = np.zeros(E + 1, dtype=i64)
        self.counts = np.zeros(1, dtype=i64)  # the last stamp used

    def analyse(self, model: list[int]) -> list[tuple[str, Any, Any, Any]]:
        """The sample's loops, each as (kind, its edges, inside edges, leaving edges), the
        kind one of :data:`KINDS`; the last two only for a cut-set cut. ``model``: pysat's
        model (edge e is variable e + 1)."""
        on = np.fromiter(model, dtype=np.int64, count=self.E) > 0
        n = analyse(
            on, self.ep, self.ef, self.pe_ptr, self.pe, self.clue, self.wanted,
            self.seen, self.pstamp, self.fstamp, self.fcount,
            self.comp, self.comp_ptr, self.kind,
            self.inside, self.inside_ptr, self.leaving, self.leaving_ptr, self.counts,
        )  # fmt: skip
        cp, ip, lp = self.comp_ptr, self.inside_ptr, self.leaving_ptr
        return [
            (
                KINDS[self.kind[i]],
                self.comp[cp[i] : cp[i + 1]],
                self.inside[ip[i] : ip[i + 1]],
                self.leaving[lp[i] : lp[i + 1]],
            )
            for i in range(n)
        ]


@numba.njit(cache=True, nogil=True)
def _walk(start, on, ep, pe_ptr, pe, seen, pstamp, comp, top, on_loop):
    """The component of ``start``, breadth first from point to point (as the checker's
    ``split_loops``), appended to ``comp`` from ``top``; its points get the stamp
    ``on_loop``. Returns the new end of ``comp``."""
    seen[start] = 1
    comp[top] = start
    top += 1
    k = top - 1
    while k < top:
        e = comp[k]
        k += 1
        for j in range(2):
            p = ep[e, j]
            pstamp[p] = on_loop
            for m in range(pe_ptr[p], pe_ptr[p + 1]):
                x = pe[m]
                if on[x] and not seen[x]:
                    seen[x] = 1
                    comp[top] = x
                    top += 1
    return top


@numba.njit(cache=True, nogil=True)
def _meets_clues(edges, ef, clue, wanted, fstamp, fcount, on_loop, visited):
    """Whether these edges give every clue face its count (a candidate answer)."""
    for e in edges:
        for j in range(2):
            f = ef[e, j]
            if f >= 0 and clue[f] >= 0:
                if fstamp[f] != on_loop:
                    fstamp[f] = on_loop
                    fcount[f] = 0
                fcount[f] += 1
    answer = True
    met = 0  # faces with a positive clue that the loop touches
    for e in edges:
        for j in range(2):
            f = ef[e, j]
            if f >= 0 and fstamp[f] == on_loop:
                if fcount[f] != clue[f]:
                    answer = False
                if clue[f] > 0:
                    met += 1
                fstamp[f] = visited  # each face once
    return answer and met == wanted  # else a face the loop does not touch wants lines


@numba.njit(cache=True, nogil=True)
def _around(edges, ep, pe_ptr, pe, pstamp, inside, ni, leaving, nl, on_loop, visited):
    """The edges inside the loop's points (both ends on it) and those leaving them, from
    each point once, appended from ``ni`` and ``nl``; returns their new ends."""
    for e0 in edges:
        for j in range(2):
            p = ep[e0, j]
            if pstamp[p] != on_loop:
                continue
            pstamp[p] = visited
            for m in range(pe_ptr[p], pe_ptr[p + 1]):
                e = pe[m]
                q = ep[e, 1] if ep[e, 0] == p else ep[e, 0]
                if pstamp[q] == on_loop:
                    inside[ni] = e  # listed from its first point only
                    ni += 1
                elif pstamp[q] != visited:
                    leaving[nl] = e
                    nl += 1
    return ni, nl


@numba.njit(cache=True, nogil=True)
def _proves_cut_set(inside, ef, clue, wanted, fstamp, fcount, counted):
    """Whether the clues prove an edge off the points: a face wants more lines than the
    inside edges give it (a face with a positive clue they never touch included)."""
    touched = 0
    for e in inside:
        for j in range(2):
            f = ef[e, j]
            if f >= 0 and clue[f] > 0:
                if fstamp[f] != counted:
                    fstamp[f] = counted
                    fcount[f] = 0
                    touched += 1
                fcount[f] += 1
    if touched < wanted:
        return True
    for e in inside:
        for j in range(2):
            f = ef[e, j]
            if f >= 0 and clue[f] > fcount[f]:
                return True
    return False


@numba.njit(cache=True, nogil=True)
def analyse(
    on, ep, ef, pe_ptr, pe, clue, wanted,
    seen, pstamp, fstamp, fcount,
    comp, comp_ptr, kind, inside, inside_ptr, leaving, leaving_ptr, counts,
):  # fmt: skip
    """Split the on edges into components and give each its kind and cut; returns the
    count of components. ``counts[0]`` numbers the stamps across calls, so the stamp arrays
    never need clearing."""
    seen[:] = 0
    n = top = ni = nl = 0  # components; ends of comp, inside and leaving
    comp_ptr[0] = inside_ptr[0] = leaving_ptr[0] = 0
    for start in range(on.shape[0]):
        if not on[start] or seen[start]:
            continue
        g = counts[0]
        counts[0] = g + 3
        on_loop, visited, counted = g + 1, g + 2, g + 3  # stamps of this component
        first = top
        top = _walk(start, on, ep, pe_ptr, pe, seen, pstamp, comp, top, on_loop)
        comp_ptr[n + 1] = top
        edges = comp[first:top]
        if _meets_clues(edges, ef, clue, wanted, fstamp, fcount, on_loop, visited):
            kind[n] = ANSWER
        else:
            i0, l0 = ni, nl
            ni, nl = _around(
                edges, ep, pe_ptr, pe, pstamp, inside, ni, leaving, nl, on_loop, visited
            )
            if _proves_cut_set(inside[i0:ni], ef, clue, wanted, fstamp, fcount, counted):
                kind[n] = CUT_SET
            else:
                kind[n] = LOOP_CUT
                ni, nl = i0, l0
        inside_ptr[n + 1] = ni
        leaving_ptr[n + 1] = nl
        n += 1
    return n
