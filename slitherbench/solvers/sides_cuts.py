"""The lazy loop of :mod:`.sat_sides` compiled with numba: one sample's loops and their cuts.

Profiling a 30x40 board's solve (about 76 samples, 9 loops each) put half of its time in the
Python that splits a sample into loops and works out each loop's cut (its closed disc or its
points, the edges inside and leaving them, the clue counts), more than Glucose itself.
:func:`analyse` does the same work on flat arrays, one call per sample;
:class:`.sat_sides._Cuts` keeps the Python version, which the tests hold this one to, cut
for cut.

A loop whose edges give every clue its count is only *flagged* here: the caller confirms it
with the independent checker before it counts as an answer.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from slitherbench.deduction.compiled import csr

# What the analysis makes of a loop, as numbers in the compiled code and as names outside:
# a candidate answer (the checker decides), the page's loop cut, a cut-set cut.
ANSWER, LOOP_CUT, CUT_SET = 0, 1, 2
KINDS = ("answer", "loop cut", "cut set")


class Board:
    """The arrays :func:`analyse` reads and the work arrays it reuses, built once per
    puzzle."""

    def __init__(self, puzzle: Any, discs: bool = True) -> None:
        i64 = np.int64
        self.first_set = 0 if discs else 1  # the first set a cut is tried on: disc, points
        E, P, F = puzzle.num_edges, puzzle.num_points, puzzle.num_faces
        self.E = E
        self.ep = np.asarray(puzzle.edge_points, dtype=i64).reshape(E, 2)
        self.ef = np.asarray(puzzle.board.edge_faces, dtype=i64).reshape(E, 2)
        self.pe_ptr, self.pe = csr(puzzle.point_edges)
        self.fe_ptr, self.fe = csr(puzzle.face_edges)
        self.clue = np.full(F, -1, dtype=i64)
        for f, n in puzzle.clue_faces:
            self.clue[f] = n
        self.wanted = int(sum(1 for _, n in puzzle.clue_faces if n > 0))
        # work and output arrays; a loop's disc can hold other loops, so an edge can be
        # inside several cuts of one sample: the cut arrays grow when a sample needs it
        self.seen = np.zeros(E, dtype=i64)
        self.estamp = np.zeros(E, dtype=i64)
        self.pstamp = np.zeros(P, dtype=i64)
        self.fstamp = np.zeros(F, dtype=i64)
        self.fside = np.zeros(F, dtype=i64)
        self.fcount = np.zeros(F, dtype=i64)
        self.fstack = np.zeros(F, dtype=i64)
        self.flist = np.zeros(F, dtype=i64)
        self.points = np.zeros(P, dtype=i64)
        self.comp = np.zeros(E, dtype=i64)
        self.comp_ptr = np.zeros(E + 1, dtype=i64)
        self.kind = np.zeros(E, dtype=i64)
        self.inside = np.zeros(2 * E, dtype=i64)
        self.inside_ptr = np.zeros(E + 1, dtype=i64)
        self.leaving = np.zeros(2 * E, dtype=i64)
        self.leaving_ptr = np.zeros(E + 1, dtype=i64)
        self.counts = np.zeros(1, dtype=i64)  # the last stamp used

    def analyse(self, model: list[int]) -> list[tuple[str, Any, Any, Any]]:
        """The sample's loops, each as (kind, its edges, inside edges, leaving edges), the
        kind one of :data:`KINDS`; the last two only for a cut-set cut. ``model``: pysat's
        model (edge e is variable e + 1)."""
        on = np.fromiter(model, dtype=np.int64, count=self.E) > 0
        while True:
            n = analyse(
                on, self.first_set, self.ep, self.ef, self.pe_ptr, self.pe, self.fe_ptr, self.fe,
                self.clue, self.wanted, self.seen, self.estamp, self.pstamp, self.fstamp,
                self.fside, self.fcount, self.fstack, self.flist, self.points,
                self.comp, self.comp_ptr, self.kind,
                self.inside, self.inside_ptr, self.leaving, self.leaving_ptr, self.counts,
            )  # fmt: skip
            if n >= 0:
                break
            self.inside = np.zeros(2 * self.inside.shape[0], dtype=np.int64)
            self.leaving = np.zeros(2 * self.leaving.shape[0], dtype=np.int64)
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
def _disc(edges, ep, ef, fe_ptr, fe, estamp, fside, fstack, flist, pstamp, points, stamps):
    """The points of the closed disc the loop bounds: its own and the corners of every face
    on its inner side, stamped ``in_set`` and listed in ``points``; returns their count.
    The faces on the two sides of one loop edge are searched in turns without crossing the
    loop; the side that first reaches a rim edge off the loop is the outside, and the other
    is searched to its end (about twice the disc's faces, not the board's). ``fstack`` and
    ``flist`` (faces to search, faces found) hold one side from each end."""
    on_loop, in_set, side_a, side_b = stamps
    for e in edges:
        estamp[e] = on_loop
    n = _stamp_points(edges, ep, pstamp, points, 0, in_set)
    F = fside.shape[0]
    # per side: stack top, list end (side a grows up from 0, side b down from F)
    ends = np.array([0, 0, F, F])
    a, b = ef[edges[0], 0], ef[edges[0], 1]
    _push(a, 0, side_a, fside, fstack, flist, ends)
    inner = 0  # a rim edge of the loop: its face lies inside
    if b >= 0:
        _push(b, 1, side_b, fside, fstack, flist, ends)
        inner = -1
    while inner < 0:
        for side in range(2):
            if ends[0] == 0 if side == 0 else ends[2] == F:
                inner = side  # searched to its end without meeting the rim
                break
            stamp = side_a if side == 0 else side_b
            if _step(side, stamp, ef, fe_ptr, fe, estamp, on_loop, fside, fstack, flist, ends):
                inner = 1 - side  # this side met the rim
                break
    stamp = side_a if inner == 0 else side_b
    while ends[0] > 0 if inner == 0 else ends[2] < F:
        _step(inner, stamp, ef, fe_ptr, fe, estamp, on_loop, fside, fstack, flist, ends)
    lo, hi = (0, ends[1]) if inner == 0 else (ends[3], F)
    for f in flist[lo:hi]:
        n = _stamp_points(fe[fe_ptr[f] : fe_ptr[f + 1]], ep, pstamp, points, n, in_set)
    return n


@numba.njit(cache=True, nogil=True)
def _push(f, side, stamp, fside, fstack, flist, ends):
    """Stamp face f found on this side, onto its stack and list."""
    fside[f] = stamp
    if side == 0:
        fstack[ends[0]] = flist[ends[1]] = f
        ends[0] += 1
        ends[1] += 1
    else:
        ends[2] -= 1
        ends[3] -= 1
        fstack[ends[2]] = flist[ends[3]] = f


@numba.njit(cache=True, nogil=True)
def _step(side, stamp, ef, fe_ptr, fe, estamp, on_loop, fside, fstack, flist, ends):
    """Take one face off a side's stack and push its neighbours across edges off the loop
    not found yet; True where the face has a rim edge off the loop."""
    if side == 0:
        ends[0] -= 1
        f = fstack[ends[0]]
    else:
        f = fstack[ends[2]]
        ends[2] += 1
    rim = False
    for m in range(fe_ptr[f], fe_ptr[f + 1]):
        e = fe[m]
        if estamp[e] != on_loop:
            g = ef[e, 1] if ef[e, 0] == f else ef[e, 0]
            if g < 0:
                rim = True
            elif fside[g] != stamp:
                _push(g, side, stamp, fside, fstack, flist, ends)
    return rim


@numba.njit(cache=True, nogil=True)
def _stamp_points(edges, ep, pstamp, points, n, in_set):
    """The ends of these edges not yet stamped ``in_set``: stamped and listed from ``n``."""
    for e in edges:
        for j in range(2):
            p = ep[e, j]
            if pstamp[p] != in_set:
                pstamp[p] = in_set
                points[n] = p
                n += 1
    return n


@numba.njit(cache=True, nogil=True)
def _around(points, ep, pe_ptr, pe, pstamp, inside, ni, leaving, nl, in_set, visited):
    """The edges inside these points (both ends stamped ``in_set``) and those leaving them,
    from each point once, appended from ``ni`` and ``nl``; returns their new ends, or -1
    where the arrays are full."""
    for p in points:
        pstamp[p] = visited
        for m in range(pe_ptr[p], pe_ptr[p + 1]):
            e = pe[m]
            q = ep[e, 1] if ep[e, 0] == p else ep[e, 0]
            if pstamp[q] == in_set:
                if ni == inside.shape[0]:
                    return -1, -1
                inside[ni] = e  # listed from its first point only
                ni += 1
            elif pstamp[q] != visited:
                if nl == leaving.shape[0]:
                    return -1, -1
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
    on, first_set, ep, ef, pe_ptr, pe, fe_ptr, fe, clue, wanted,
    seen, estamp, pstamp, fstamp, fside, fcount, fstack, flist, points,
    comp, comp_ptr, kind, inside, inside_ptr, leaving, leaving_ptr, counts,
):  # fmt: skip
    """Split the on edges into components and give each its kind and cut: a cut set on the
    loop's closed disc (``first_set`` 0; 1 skips it), else on its points, where the clues
    prove one. Returns the count of components, or -1 where the cut arrays are too small.
    ``counts[0]`` numbers the stamps across calls, so the stamp arrays never need clearing."""
    seen[:] = 0
    n = top = ni = nl = 0  # components; ends of comp, inside and leaving
    comp_ptr[0] = inside_ptr[0] = leaving_ptr[0] = 0
    for start in range(on.shape[0]):
        if not on[start] or seen[start]:
            continue
        g = counts[0]
        counts[0] = g + 8
        on_loop, visited = g + 1, g + 2  # stamps of this component
        first = top
        top = _walk(start, on, ep, pe_ptr, pe, seen, pstamp, comp, top, on_loop)
        comp_ptr[n + 1] = top
        edges = comp[first:top]
        if _meets_clues(edges, ef, clue, wanted, fstamp, fcount, on_loop, visited):
            kind[n] = ANSWER
        else:
            kind[n] = LOOP_CUT
            for attempt in range(first_set, 2):  # the disc, then the loop's points
                # stamps: the set's points, those visited, the faces counted
                in_set, seen_here = g + 3 + 2 * attempt, g + 4 + 2 * attempt
                if attempt == 0:
                    k = _disc(edges, ep, ef, fe_ptr, fe, estamp, fside, fstack, flist, pstamp,
                              points, (on_loop, in_set, g + 7, g + 8))  # fmt: skip
                else:
                    k = _stamp_points(edges, ep, pstamp, points, 0, in_set)
                i0, l0 = ni, nl
                ni, nl = _around(points[:k], ep, pe_ptr, pe, pstamp, inside, ni, leaving, nl,
                                 in_set, seen_here)  # fmt: skip
                if ni < 0:
                    return -1
                if _proves_cut_set(inside[i0:ni], ef, clue, wanted, fstamp, fcount, in_set):
                    kind[n] = CUT_SET
                    break
                ni, nl = i0, l0
        inside_ptr[n + 1] = ni
        leaving_ptr[n + 1] = nl
        n += 1
    return n
