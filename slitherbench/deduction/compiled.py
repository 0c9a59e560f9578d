"""Look-ahead 1 compiled with numba: the same probes, in the same order, as
:meth:`Engine.lookahead1 <slitherbench.deduction.engine.Engine.lookahead1>`.

The pure-Python engine spends a 30x40 board's look-ahead 1 in thousands of probes of about
13 microseconds each, most of it interpreter overhead. This module runs that loop on flat
arrays: the engine's state is copied in, each probe propagates and undoes through an integer
trail, and the moves found (an edge, the value left when the other one failed, whether the
failure assumed uniqueness) come back in order. The engine then applies them itself, so its
state, trace and stage counts are built exactly as without this module; the module decides
only which moves there are. Every rule the engine applies during a probe is mirrored here
line for line (clue counts, corners, clue sides, point degrees, the loop rule, face sides,
cuts), in the same order, so both find the same moves: the tests compare them board by
board.

Not covered, so left to the Python engine: rule hooks (face nogoods and rule checks need the
rule's own Python code), look-ahead 1 inside a look-ahead 2 probe (it runs on a few nearby
edges, where copying the state in would cost more than it saves), and a work list that
would outgrow the arrays sized here (reported, never truncated).
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import warnings
from typing import Any

import numpy as np

# numba is a dependency; where it has no wheel the Python engine runs alone. Imported only
# when a board is large enough to use it (the import itself takes about half a second).
AVAILABLE = importlib.util.find_spec("numba") is not None

# Boards with fewer edges run the Python engine: there the compiled loop's fixed cost (copying
# the state in, loading the compiled code in a fresh process) is larger than what it saves.
MIN_EDGES = 1000
# SLITHERBENCH_DEDUCTION=python turns the compiled loop off (for comparisons); =compiled
# uses it on every board it covers, whatever its size.
ENV = "SLITHERBENCH_DEDUCTION"

MAX_FACE_SIDES = 60  # clue-sides counts live in 64-bit masks
# Array sizes per edge of the board (queue, trail, loop-closing candidates), plus SLACK. A
# probe that needs more reports it and the Python loop runs instead.
PER_EDGE = (32, 64, 4)
SLACK = 1024


def mode() -> str:
    """``auto`` (the default), ``python`` or ``compiled``, from :data:`ENV`."""
    value = os.environ.get(ENV, "auto").strip().lower() or "auto"
    if value not in ("auto", "python", "compiled"):
        raise ValueError(f"{ENV}={value!r}: use auto, python or compiled")
    return value


def covers(engine: Any) -> bool:
    """Whether :func:`lookahead1` runs this engine's whole-board look-ahead 1."""
    chosen = mode()
    if chosen == "python" or engine.nogoods or engine.puzzle.rules:
        return False
    if not AVAILABLE:
        if chosen == "compiled":
            raise ImportError(f"{ENV}=compiled needs numba (pip install numba)")
        return False
    if max((len(s) for s in engine.t.face_edges), default=0) > MAX_FACE_SIDES:
        return False
    return chosen == "compiled" or engine.t.E >= MIN_EDGES


def csr(rows: Any, width: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Rows of ints (``width`` 1) or of ``width``-tuples as offsets and a flat array."""
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    flat: list[int] = []
    for i, row in enumerate(rows):
        for item in row:
            if width == 1:
                flat.append(item)
            else:
                flat.extend(item)
        ptr[i + 1] = len(flat) // width
    data = np.asarray(flat, dtype=np.int64)
    return ptr, data.reshape(-1, width) if width > 1 else data


def _board_arrays(t: Any) -> tuple:
    """The board's adjacency as arrays, built once per board (kept on its tables)."""
    cached = getattr(t, "_compiled_arrays", None)
    if cached is not None:
        return cached
    ep = np.asarray(t.edge_points, dtype=np.int64).reshape(-1, 2)
    en = np.asarray(t.edge_nodes, dtype=np.int64).reshape(-1, 2)
    erf = csr(t.edge_real_faces)
    pe = csr(t.point_edges)
    fe = csr(t.face_edges)
    ns = csr(t.node_sides, 2)
    fc = csr(t.face_corners, 3)
    arrays = (ep, en, erf[0], erf[1], pe[0], pe[1], fe[0], fe[1], ns[0], ns[1], fc[0], fc[1])
    t._compiled_arrays = arrays
    return arrays


def lookahead1(engine: Any) -> list[tuple[int, int, bool]] | None:
    """The moves whole-board look-ahead 1 makes from the engine's state, in order: (edge,
    value, whether the failed probe assumed uniqueness). The last move may end in a
    contradiction (the engine finds it when it applies the move). None: the work lists
    outgrew their arrays, or (in ``auto`` mode, with a warning) the compiled code cannot be
    loaded; the caller runs the Python loop instead. The engine is not changed."""
    try:
        from slitherbench.deduction import kernel as K  # numba loads here, not at import
    except Exception as exc:  # e.g. a numba release that refuses an option the kernel uses
        if mode() == "compiled":
            raise
        warnings.warn(
            f"the compiled look-ahead 1 loop cannot be loaded ({exc}); the Python loop runs "
            f"(set {ENV}=python to silence this)",
            RuntimeWarning,
            stacklevel=2,
        )
        return None

    moves = np.zeros((engine.t.E + 1, 3), dtype=np.int64)
    status, n = K.kernel(_static(engine), _state(engine, K), moves)
    if status == K.OVERFLOW:
        return None
    return [(int(e), int(v), bool(u)) for e, v, u in moves[:n]]


def _static(engine: Any) -> tuple:
    """``T``: the board's arrays, the clues, the cuts and (F, E, assume_unique); none of
    them changes during an engine's life, so they are built once per engine (look-ahead 2
    runs look-ahead 1 after each of its moves)."""
    cached = getattr(engine, "_compiled_static", None)
    if cached is not None:
        return cached
    t = engine.t
    i64 = np.int64
    clue = np.asarray([-1 if c is None else c for c in engine.clue], dtype=i64)
    pcf = csr(engine.point_clue_faces)
    ec = csr(engine.edge_cuts)
    ce = csr(engine.cut_edges)
    params = np.asarray([t.F, t.E, int(engine.assume_unique)], dtype=i64)
    static = (*_board_arrays(t), clue, pcf[0], pcf[1], ec[0], ec[1], ce[0], ce[1], params)
    engine._compiled_static = static
    return static


def _classes(engine: Any) -> tuple[np.ndarray, ...]:
    """The members of each face-side class as linked lists (head, tail, next, size), in the
    order of the engine's member lists."""
    F, i64 = engine.t.F, np.int64
    head = np.arange(F + 1, dtype=i64)
    tail = np.arange(F + 1, dtype=i64)
    nxt = np.full(F + 1, -1, dtype=i64)
    size = np.ones(F + 1, dtype=i64)
    for r, members in enumerate(engine.members):
        if engine.root[r] != r:
            continue
        head[r], tail[r], size[r] = members[0], members[-1], len(members)
        for a, b in itertools.pairwise(members):
            nxt[a] = b
    return head, tail, nxt, size


def _state(engine: Any, K: Any) -> tuple:
    """``S``: a copy of the engine's state, the work arrays and the scalars."""
    t = engine.t
    E, F, i64 = t.E, t.F, np.int64
    n_cand = len(engine.candidates)
    cap_q, cap_t, cap_c = (n * E + SLACK for n in PER_EDGE)
    cap_t += 8 * (F + 1) * max(1, int(F + 2).bit_length())  # face-class relabelling
    cand = np.zeros((cap_c + n_cand, 3), dtype=i64)
    if n_cand:
        cand[:n_cand] = np.asarray(engine.candidates, dtype=i64)
    sc = np.zeros(8, dtype=i64)
    sc[K.ON], sc[K.UNK], sc[K.DEF], sc[K.UNIQ] = (
        engine.on_total,
        engine.unknown,
        engine.deficit,
        engine.uniq,
    )
    sc[K.CN] = n_cand

    def copy(values: list[int]) -> np.ndarray:
        return np.asarray(values, dtype=i64) if values else np.zeros(1, dtype=i64)

    return (
        *(copy(x) for x in (engine.edge, engine.pon, engine.punk, engine.fon, engine.funk)),
        copy(engine.root),
        copy(engine.par),
        *_classes(engine),
        copy(engine.other_end),
        copy(engine.seg_len),
        copy(engine.cut_on),
        copy(engine.cut_unk),
        np.zeros((cap_q, 3), dtype=i64),  # queue: edge, value, assumes uniqueness
        np.zeros(F + 1, dtype=i64),  # dirty faces (a stack)
        np.zeros(F + 1, dtype=i64),  # dirty flags
        np.zeros((cap_t, 3), dtype=i64),  # trail: kind, index, old value
        cand,
        sc,
        np.zeros((11, max(len(s) for s in t.node_sides) + 2), dtype=i64),  # clue-sides rows
        np.full(2 * E, -1, dtype=i64),  # values implied by probes that held, by epoch
        np.zeros(8, dtype=i64),  # the scalars at a probe's start
    )
