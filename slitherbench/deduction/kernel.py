"""The compiled rules behind :mod:`slitherbench.deduction.compiled` (numba).

Each function mirrors the engine method of the same name (``assign`` is ``Engine._assign``
and so on) on flat arrays: ``T`` holds the board, clues and cuts, ``S`` the state (their
order: ``compiled._static`` and ``compiled._state``). A function returns ``OK``, ``NO_ANSWER`` (a contradiction) or
``OVERFLOW`` (a work list outgrew its array) instead of raising.
"""

from __future__ import annotations

from typing import Any

import numba

# status codes
OK, NO_ANSWER, OVERFLOW = 0, 1, 2
# trail entry kinds
_EDGE, _ROOT, _PAR, _OTHER, _SEG, _TAIL, _SIZE = 0, 1, 2, 3, 4, 5, 6
# slots of the scalar state ``sc`` (S[20]): the first eight are saved at a probe's start
ON, UNK, DEF, UNIQ, _QN, _DN, _TN, CN = 0, 1, 2, 3, 4, 5, 6, 7

# No reference counting (numba's _nrt=False, an option its type stubs do not list): the
# arrays come from the caller and outlive the call, and with counting on, the atomic count
# updates at each use of an array took about 80% of the time (a 30x40 board's look-ahead 1:
# 40 ms with them, 8 ms without). Without it nothing here may allocate an array.
OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
jit = numba.njit(**OPTIONS)


@jit
def put(rows, sc, slot, a, b, c):
    """Append (a, b, c) to ``rows``, whose length is the scalar ``sc[slot]``."""
    n = sc[slot]
    if n >= rows.shape[0]:
        return OVERFLOW
    rows[n, 0] = a
    rows[n, 1] = b
    rows[n, 2] = c
    sc[slot] = n + 1
    return OK


@jit
def push(S, e, v, u):
    """Queue edge e = v (u: the move assumes uniqueness)."""
    return put(S[15], S[20], _QN, e, v, u)


@jit
def trail(S, kind, i, old):
    return put(S[18], S[20], _TN, kind, i, old)


@jit
def dirty_face(S, f):
    flag, stack, sc = S[17], S[16], S[20]
    if flag[f] == 0:
        flag[f] = 1
        stack[sc[_DN]] = f
        sc[_DN] += 1


@jit
def check_point(T, S, p):
    pon, punk, edge = S[1], S[2], S[0]
    pe_ptr, pe = T[4], T[5]
    o, u = pon[p], punk[p]
    if o > 2:
        return NO_ANSWER
    if u == 0:
        if o == 1:
            return NO_ANSWER
        return OK
    if o == 2:
        for k in range(pe_ptr[p], pe_ptr[p + 1]):
            e = pe[k]
            if edge[e] == -1:
                if push(S, e, 0, 0):
                    return OVERFLOW
    elif u == 1:
        for k in range(pe_ptr[p], pe_ptr[p + 1]):
            e = pe[k]
            if edge[e] == -1:
                if push(S, e, o, 0):
                    return OVERFLOW
    return OK


@jit
def check_cut(T, S, k):
    ce_ptr, ce = T[17], T[18]
    cut_on, cut_unk, edge = S[13], S[14], S[0]
    size = ce_ptr[k + 1] - ce_ptr[k]
    if cut_on[k] == size:
        return NO_ANSWER
    if cut_on[k] == size - 1 and cut_unk[k] == 1:
        for j in range(ce_ptr[k], ce_ptr[k + 1]):
            e = ce[j]
            if edge[e] == -1:
                if push(S, e, 0, 0):
                    return OVERFLOW
    return OK


@jit
def completes(T, S, e, length):
    sc, clue, fon = S[20], T[12], S[3]
    erf_ptr, erf = T[2], T[3]
    if sc[ON] != length:
        return False
    short = 0
    for k in range(erf_ptr[e], erf_ptr[e + 1]):
        f = erf[k]
        c = clue[f]
        if c < 0:
            continue
        if fon[f] == c:
            return False
        if fon[f] == c - 1:
            short += 1
    return sc[DEF] == short


@jit
def closing_candidate(T, S, e, x, y, length):
    if not completes(T, S, e, length):
        return push(S, e, 0, 0)
    if T[19][2]:  # assume_unique
        return push(S, e, 1, 1)
    return put(S[19], S[20], CN, e, x, y)


@jit
def recheck_candidates(T, S):
    edge, other, pon, seg, cand, sc = S[0], S[11], S[1], S[12], S[19], S[20]
    for i in range(sc[CN]):
        e, x, y = cand[i, 0], cand[i, 1], cand[i, 2]
        if edge[e] == -1 and pon[x] == 1 and pon[y] == 1 and other[x] == y:
            if not completes(T, S, e, seg[x]):
                if push(S, e, 0, 0):
                    return OVERFLOW
    return OK


@jit
def join_segments(T, S, e, a, b):
    pon, other, seg, edge, sc = S[1], S[11], S[12], S[0], S[20]
    ep, pe_ptr, pe = T[0], T[4], T[5]
    for p in (a, b):
        if pon[p] == 1:  # the point had no line before this edge
            if trail(S, _OTHER, p, other[p]) or trail(S, _SEG, p, seg[p]):
                return OVERFLOW
            other[p] = p
            seg[p] = 0
    x, y = other[a], other[b]
    if x == b:  # this edge closes a loop: it must be the whole answer
        length = seg[a] + 1
        if sc[ON] != length:
            return NO_ANSWER
        for f in range(edge.shape[0]):
            if edge[f] == -1:
                if push(S, f, 0, 0):
                    return OVERFLOW
        return OK
    length = seg[a] + seg[b] + 1
    if (
        trail(S, _OTHER, x, other[x])
        or trail(S, _OTHER, y, other[y])
        or trail(S, _SEG, x, seg[x])
        or trail(S, _SEG, y, seg[y])
    ):
        return OVERFLOW
    other[x] = y
    other[y] = x
    seg[x] = length
    seg[y] = length
    for k in range(pe_ptr[x], pe_ptr[x + 1]):
        f = pe[k]
        if edge[f] == -1 and (ep[f, 0] == y or ep[f, 1] == y):
            rc = closing_candidate(T, S, f, x, y, length)
            if rc:
                return rc
    return OK


@jit
def union(T, S, x, y, rel):
    root, par, head, tail, nxt, size = S[5], S[6], S[7], S[8], S[9], S[10]
    edge, clue = S[0], T[12]
    ns_ptr, ns = T[8], T[9]
    F = T[19][0]
    rx, ry = root[x], root[y]
    px, py = par[x], par[y]
    if rx == ry:
        return NO_ANSWER if (px ^ py) != rel else OK
    if size[rx] < size[ry]:
        rx, ry, px, py = ry, rx, py, px
    flip = px ^ py ^ rel
    g = head[ry]
    while g != -1:
        if trail(S, _ROOT, g, root[g]) or trail(S, _PAR, g, par[g]):
            return OVERFLOW
        root[g] = rx
        par[g] ^= flip
        g = nxt[g]
    if trail(S, _SIZE, rx, size[rx]) or trail(S, _TAIL, rx, tail[rx]):
        return OVERFLOW
    nxt[tail[rx]] = head[ry]
    tail[rx] = tail[ry]
    size[rx] += size[ry]
    g = head[ry]
    while g != -1:
        pg = par[g]
        for k in range(ns_ptr[g], ns_ptr[g + 1]):
            e, h = ns[k, 0], ns[k, 1]
            if edge[e] == -1:
                if root[h] == rx:
                    if push(S, e, pg ^ par[h], 0):
                        return OVERFLOW
                elif h < F and clue[h] >= 0:
                    dirty_face(S, h)
        if g < F and clue[g] >= 0:
            dirty_face(S, g)
        g = nxt[g]
    return OK


@jit
def assign(T, S, e, v, u):
    edge, pon, punk, fon, funk = S[0], S[1], S[2], S[3], S[4]
    root, par, cut_on, cut_unk, sc = S[5], S[6], S[13], S[14], S[20]
    ep, en, erf_ptr, erf, clue = T[0], T[1], T[2], T[3], T[12]
    pcf_ptr, pcf, ec_ptr, ec = T[13], T[14], T[15], T[16]
    cur = edge[e]
    if cur != -1:
        return NO_ANSWER if cur != v else OK
    a, b = ep[e, 0], ep[e, 1]
    if v and (pon[a] >= 2 or pon[b] >= 2):
        return NO_ANSWER
    if trail(S, _EDGE, e, -1):
        return OVERFLOW
    edge[e] = v
    if u:
        sc[UNIQ] += 1
    sc[UNK] -= 1
    sc[ON] += v
    punk[a] -= 1
    punk[b] -= 1
    pon[a] += v
    pon[b] += v
    for k in range(erf_ptr[e], erf_ptr[e + 1]):
        f = erf[k]
        funk[f] -= 1
        if v:
            fon[f] += 1
            c = clue[f]
            if c >= 0 and fon[f] == c:
                sc[DEF] -= 1
    for k in range(ec_ptr[e], ec_ptr[e + 1]):
        c = ec[k]
        cut_unk[c] -= 1
        cut_on[c] += v
    fa, fb = en[e, 0], en[e, 1]
    if root[fa] != root[fb]:
        rc = union(T, S, fa, fb, v)
        if rc:
            return rc
    elif (par[fa] ^ par[fb]) != v:
        return NO_ANSWER
    for k in range(ec_ptr[e], ec_ptr[e + 1]):
        rc = check_cut(T, S, ec[k])
        if rc:
            return rc
    if v:
        rc = join_segments(T, S, e, a, b)
        if rc:
            return rc
    for p in (a, b):
        if pon[p] >= 2 or punk[p] <= 1:
            rc = check_point(T, S, p)
            if rc:
                return rc
        for k in range(pcf_ptr[p], pcf_ptr[p + 1]):
            dirty_face(S, pcf[k])
    return OK


@jit
def side_groups(T, S, f):
    """The open sides of face f (scratch rows 0-1) grouped by the class of the face across
    them, in order of first appearance (rows 2-5: each side's group; per group its class,
    a0 the sides whose neighbour has parity 1 in it, a1 parity 0). Returns (sides, groups)."""
    root, par, edge, W = S[5], S[6], S[0], S[21]
    ns_ptr, ns = T[8], T[9]
    open_e, open_h, side_group = W[0], W[1], W[2]
    g_root, g_a0, g_a1 = W[3], W[4], W[5]
    n_open = 0
    for k in range(ns_ptr[f], ns_ptr[f + 1]):
        if edge[ns[k, 0]] == -1:
            open_e[n_open] = ns[k, 0]
            open_h[n_open] = ns[k, 1]
            n_open += 1
    n = 0
    for i in range(n_open):
        h = open_h[i]
        R = root[h]
        j = 0
        while j < n and g_root[j] != R:
            j += 1
        if j == n:
            g_root[n] = R
            g_a0[n] = 0
            g_a1[n] = 0
            n += 1
        if par[h]:
            g_a0[j] += 1
        else:
            g_a1[j] += 1
        side_group[i] = j
    return n_open, n


@jit
def clue_sides(T, S, f, r):
    root, par, W = S[5], S[6], S[21]
    open_e, open_h, side_group = W[0], W[1], W[2]
    g_root, g_a0, g_a1 = W[3], W[4], W[5]
    opt_n, amt0, amt1, prefix, suffix = W[6], W[7], W[8], W[9], W[10]
    n_open, n = side_groups(T, S, f)
    if n == n_open:
        return OK  # every class one side: the plain count rule says all there is
    fr, pf = root[f], par[f]
    # options per group: amounts for side 0 and side 1, or one amount when f's side to the
    # class is known (then amt0 holds it and the side is pf)
    for j in range(n):
        if g_root[j] == fr:
            opt_n[j] = 1
            amt0[j] = g_a1[j] if pf else g_a0[j]
        else:
            opt_n[j] = 2
            amt0[j] = g_a0[j]
            amt1[j] = g_a1[j]
    prefix[0] = 1
    for j in range(n):
        mask = prefix[j] << amt0[j]
        if opt_n[j] == 2:
            mask |= prefix[j] << amt1[j]
        prefix[j + 1] = mask
    suffix[n] = 1
    for j in range(n - 1, -1, -1):
        mask = suffix[j + 1] << amt0[j]
        if opt_n[j] == 2:
            mask |= suffix[j + 1] << amt1[j]
        suffix[j] = mask
    if not (prefix[n] >> r) & 1:
        return NO_ANSWER
    for j in range(n):
        if opt_n[j] == 1:
            continue
        n_ok = 0
        x_ok = 0
        for o in range(2):
            left = prefix[j]
            need = r - (amt0[j] if o == 0 else amt1[j])
            s = 0
            found = False
            while left and s <= need:
                if left & 1 and (suffix[j + 1] >> (need - s)) & 1:
                    found = True
                    break
                left >>= 1
                s += 1
            if found:
                n_ok += 1
                x_ok = o
        if n_ok == 1:
            for i in range(n_open):
                if side_group[i] == j:
                    val = 1 if x_ok != par[open_h[i]] else 0
                    if push(S, open_e[i], val, 0):
                        return OVERFLOW
    return OK


@jit
def check_face(T, S, f):
    clue, fe_ptr, fe, fc_ptr, fc = T[12], T[6], T[7], T[10], T[11]
    edge, pon, punk, fon, funk = S[0], S[1], S[2], S[3], S[4]
    c = clue[f]
    if c < 0:
        return OK
    u = funk[f]
    r = c - fon[f]
    if r < 0 or r > u:
        return NO_ANSWER
    if u == 0:
        return OK
    lo, hi = fe_ptr[f], fe_ptr[f + 1]
    if r == 0 or r == u:
        v = 1 if r else 0
        for k in range(lo, hi):
            e = fe[k]
            if edge[e] == -1:
                if push(S, e, v, 0):
                    return OVERFLOW
        return OK
    rc = clue_sides(T, S, f, r)
    if rc:
        return rc
    for k in range(fc_ptr[f], fc_ptr[f + 1]):
        p, a, b = fc[k, 0], fc[k, 1], fc[k, 2]
        if edge[a] != -1 or edge[b] != -1:
            continue
        o = pon[p]
        if o == 1:  # p needs one more line: at most one of a, b
            if u - r == 1:
                for j in range(lo, hi):
                    e = fe[j]
                    if e != a and e != b and edge[e] == -1:
                        if push(S, e, 1, 0):
                            return OVERFLOW
            if punk[p] == 2 and r == 1:
                for j in range(lo, hi):
                    e = fe[j]
                    if e != a and e != b and edge[e] == -1:
                        if push(S, e, 0, 0):
                            return OVERFLOW
        elif o == 0 and punk[p] == 2:  # a and b are both on or both off
            if u - r < 2:
                if push(S, a, 1, 0) or push(S, b, 1, 0):
                    return OVERFLOW
            elif r < 2:
                if push(S, a, 0, 0) or push(S, b, 0, 0):
                    return OVERFLOW
    return OK


@jit
def propagate(T, S):
    q, stack, flag, sc = S[15], S[16], S[17], S[20]
    while True:
        while sc[_QN] > 0:
            n = sc[_QN] - 1
            sc[_QN] = n
            rc = assign(T, S, q[n, 0], q[n, 1], q[n, 2])
            if rc:
                return rc
        if sc[_DN] > 0:
            sc[_DN] -= 1
            f = stack[sc[_DN]]
            flag[f] = 0
            rc = check_face(T, S, f)
            if rc:
                return rc
            continue
        if sc[CN] > 0:
            rc = recheck_candidates(T, S)
            if rc:
                return rc
            if sc[_QN] > 0:
                continue
        break
    if sc[UNK] == 0 and sc[ON] == 0:
        return NO_ANSWER  # every edge off: no loop
    return OK


@jit
def undo(T, S, mark, implied, epoch):
    edge, pon, punk, fon, funk = S[0], S[1], S[2], S[3], S[4]
    root, par, tail, nxt, size = S[5], S[6], S[8], S[9], S[10]
    other, seg, cut_on, cut_unk = S[11], S[12], S[13], S[14]
    stack, flag, tr, sc = S[16], S[17], S[18], S[20]
    ep, erf_ptr, erf, ec_ptr, ec = T[0], T[2], T[3], T[15], T[16]
    for j in range(sc[_TN] - 1, mark[_TN] - 1, -1):
        kind, i, old = tr[j, 0], tr[j, 1], tr[j, 2]
        if kind == _EDGE:
            v = edge[i]
            if epoch >= 0:
                implied[2 * i + v] = epoch
            a, b = ep[i, 0], ep[i, 1]
            punk[a] += 1
            punk[b] += 1
            for k in range(erf_ptr[i], erf_ptr[i + 1]):
                funk[erf[k]] += 1
            if v:
                pon[a] -= 1
                pon[b] -= 1
                for k in range(erf_ptr[i], erf_ptr[i + 1]):
                    fon[erf[k]] -= 1
            for k in range(ec_ptr[i], ec_ptr[i + 1]):
                cut_unk[ec[k]] += 1
                cut_on[ec[k]] -= v
            edge[i] = -1
        elif kind == _ROOT:
            root[i] = old
        elif kind == _PAR:
            par[i] = old
        elif kind == _OTHER:
            other[i] = old
        elif kind == _SEG:
            seg[i] = old
        elif kind == _TAIL:
            nxt[old] = -1
            tail[i] = old
        else:
            size[i] = old
    for k in range(sc[_DN]):
        flag[stack[k]] = 0
    for k in range(8):
        sc[k] = mark[k]
    sc[_QN] = 0
    sc[_DN] = 0


@jit
def kernel(T, S, moves):
    edge, sc = S[0], S[20]
    E = T[19][1]
    implied, mark = S[22], S[23]  # implied[2 * edge + value] == epoch: a probe implied it
    epoch = 0
    n_moves = 0
    since = 0
    k = 0
    while since < E:
        e = k
        k = (k + 1) % E
        since += 1
        if edge[e] != -1:
            continue
        for v in (1, 0):
            if implied[2 * e + v] == epoch:
                continue
            for j in range(8):
                mark[j] = sc[j]
            rc = push(S, e, v, 0)
            if rc == OK:
                rc = propagate(T, S)
            if rc == OVERFLOW:
                return OVERFLOW, n_moves
            failed = rc == NO_ANSWER
            used = sc[UNIQ] > mark[UNIQ]
            undo(T, S, mark, implied, -1 if failed else epoch)
            if failed:
                moves[n_moves, 0] = e
                moves[n_moves, 1] = 1 - v
                moves[n_moves, 2] = used
                n_moves += 1
                rc = push(S, e, 1 - v, used)
                if rc == OK:
                    rc = propagate(T, S)
                sc[_TN] = 0  # moves at the base are kept: nothing below it to undo
                if rc:
                    return rc, n_moves  # NO_ANSWER: the engine finds it applying the move
                epoch += 1
                since = 0
                break
    return OK, n_moves
