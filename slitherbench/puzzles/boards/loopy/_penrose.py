"""Loopy's Penrose grids (types t11 and t12), from ``grid.c`` and ``penrose.c`` of
sgt-puzzles 20230122: the recursive half-tile subdivision keyed by a "G<x>,<y>,<angle>"
description.

``penrose.c`` builds the tiling in a 36-degree basis: a vector is four integers (a, b, c, d)
meaning a*A + b*B + c*C + d*D for unit vectors A..D at 54, 18, -18 and -54 degrees
(y down), so rotating by 36 degrees and scaling by phi are exact integer maps. A triangle
(half a tile) is subdivided ``depth`` times; at the last level each tile is handed to
``grid.c``'s ``set_faces``, which converts its corners to doubles with rounded
trigonometric constants, rounds them to integers (half away from zero) and keeps the tile
if every corner lies in the requested rectangle. ``grid_trim_vigorously`` then keeps the
largest connected part. Everything here follows the C arithmetic step by step: the same
integer maps, the same double expressions in the same order, the same rounding.

One addition, which changes no result: subtrees of the subdivision that cannot reach the
rectangle are skipped (Loopy visits them all and rejects every tile). See ``_Tiler``.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from random import Random

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType

PENROSE_P2 = 0  # kite and dart
PENROSE_P3 = 1  # thick and thin rhombs

PENROSE_TILESIZE = 100
PHI = 1.6180339887  # penrose.h's PHI, not the exact value
INCIRCLE_RADIUS = 0.22426

# v_x / v_y's constants, as penrose.c rounds them
COS54 = 0.5877852
SIN54 = 0.8090169
COS18 = 0.9510565
SIN18 = 0.3090169

Vec = tuple[int, int, int, int]


# --- 36-degree basis vector arithmetic (penrose.c) -------------------------------------


def _rotate_36(v: Vec) -> Vec:
    a, b, c, d = v
    return (-d, d + a, -d + b, d + c)


def _rot_count(ang: int) -> int:
    """How many 36-degree notches v_rotate(v, ang) applies (it counts 360 - ang after
    bringing ang up to non-negative; ten notches are the identity, exactly)."""
    assert ang % 36 == 0
    while ang < 0:
        ang += 360
    ang = 360 - ang
    return max(ang // 36, 0) % 10  # ang is at most 360 here; C's loop runs ang/36 times


def v_rotate(v: Vec, ang: int) -> Vec:
    for _ in range(_rot_count(ang)):
        v = _rotate_36(v)
    return v


def v_trans(v: Vec, t: Vec) -> Vec:
    return (v[0] + t[0], v[1] + t[1], v[2] + t[2], v[3] + t[3])


def v_growphi(v: Vec) -> Vec:
    a, b, c, d = v
    return (a + b - d, c + d, a + b, c + d - a)


def v_shrinkphi(v: Vec) -> Vec:
    a, b, c, d = v
    return (b - d, c + d - b, a + b - c, c - a)


def v_x(v: Vec) -> float:
    # ints added first, then converted to double, as in C
    return (v[0] + v[3]) * COS54 + (v[1] + v[2]) * COS18


def v_y(v: Vec) -> float:
    return (v[0] - v[3]) * SIN54 + (v[1] - v[2]) * SIN18


def xform_coord(vo: Vec, shrink: int, vtrans: Vec, ang: int) -> Vec:
    if shrink < 0:
        vo = v_shrinkphi(vo)
    elif shrink > 0:
        vo = v_growphi(vo)
    vo = v_rotate(vo, ang)
    return v_trans(vo, vtrans)


def round_int_nearest_away(r: float) -> int:
    return int(math.floor(r + 0.5) if r > 0.0 else math.ceil(r - 0.5))


# --- sizes (penrose_calculate_size) ----------------------------------------------------


def calculate_size(which: int, tilesize: int, w: int, h: int) -> tuple[float, int, int]:
    """(required_radius, start_size, depth)."""
    # Fudge factor: P2 and P3 tiles scaled differently (C integer arithmetic, positive).
    if which == PENROSE_P2:
        tilesize = tilesize * 3 // 2
    else:
        tilesize = tilesize * 5 // 4
    rradius = tilesize * 3.11 * math.sqrt(float(w * w + h * h))
    size = float(tilesize)
    n = 0
    while (size * INCIRCLE_RADIUS) < rradius:
        n += 1
        size = size * PHI
    return rradius, int(size), n


def _inner_radius(which: int, w: int, h: int) -> int:
    outer, _, _ = calculate_size(which, PENROSE_TILESIZE, w, h)
    # (int)(double): truncation toward zero
    return int(outer - math.sqrt(w * w + h * h))


# --- the tiling and set_faces ----------------------------------------------------------


class _Tiler:
    """``penrose()`` with grid.c's ``set_faces`` as the callback: collects each kept tile's
    rounded corners, in the order Loopy adds the faces.

    Pruning: every tile and sub-triangle below a call with edge vector ``e`` lies within
    phi^3 * |e| of that call's ``v_orig`` (a child's origin is at most phi * |e| away and
    its edge is |e| / phi, and phi + phi^3 / phi = phi^3), so a call whose disc of that
    radius, widened for the rounded constants and the final rounding, misses the
    rectangle cannot add a face, and is skipped. Loopy makes no callbacks that matter
    there either (set_faces rejects those tiles), so the faces and their order are the
    same.
    """

    def __init__(self, max_depth: int, xmin: int, xmax: int, ymin: int, ymax: int) -> None:
        self.max_depth = max_depth
        self.xmin, self.xmax, self.ymin, self.ymax = xmin, xmax, ymin, ymax
        self.faces: list[list[tuple[int, int]]] = []

    def reachable(self, orig: Vec, edge: Vec) -> bool:
        # |e| from the rounded-constant map; the margin covers its error (relative, tiny)
        # plus the error on offsets, bounded by their coefficient sizes, and rounding.
        ex, ey = v_x(edge), v_y(edge)
        r = (
            4.2361 * math.hypot(ex, ey) * 1.01
            + 8.0
            + 1e-6 * (abs(edge[0]) + abs(edge[1]) + abs(edge[2]) + abs(edge[3])) * 4.2361 * 4
        )
        x, y = v_x(orig), v_y(orig)
        return (
            x + r >= self.xmin and x - r <= self.xmax and y + r >= self.ymin and y - r <= self.ymax
        )

    def new_tile(self, vs: list[Vec], depth: int) -> None:
        """set_faces: only tiles at the last level, all corners inside the rectangle."""
        if depth < self.max_depth:
            return
        pts = []
        for v in vs:
            x = round_int_nearest_away(v_x(v))
            y = round_int_nearest_away(v_y(v))
            if x < self.xmin or x > self.xmax:
                return
            if y < self.ymin or y > self.ymax:
                return
            pts.append((x, y))
        self.faces.append(pts)

    # penrose_p2_large / _small: half a kite / half a dart
    def p2_large(self, depth: int, flip: int, orig: Vec, edge: Vec) -> None:
        if not self.reachable(orig, edge):
            return
        if flip > 0:
            vs = [
                orig,
                xform_coord(edge, 0, orig, -36),
                xform_coord(edge, 0, orig, 0),
                xform_coord(edge, 0, orig, 36),
            ]
            self.new_tile(vs, depth)
        if depth >= self.max_depth:
            return
        vv_orig = v_trans(orig, v_rotate(edge, -36 * flip))
        vv_edge = v_rotate(edge, 108 * flip)
        self.p2_small(depth + 1, flip, orig, v_shrinkphi(edge))
        self.p2_large(depth + 1, flip, vv_orig, v_shrinkphi(vv_edge))
        self.p2_large(depth + 1, -flip, vv_orig, v_shrinkphi(vv_edge))

    def p2_small(self, depth: int, flip: int, orig: Vec, edge: Vec) -> None:
        if not self.reachable(orig, edge):
            return
        if flip > 0:
            vs = [
                orig,
                xform_coord(edge, 0, orig, -72),
                xform_coord(edge, -1, orig, -36),
                xform_coord(edge, 0, orig, 0),
            ]
            self.new_tile(vs, depth)
        if depth >= self.max_depth:
            return
        vv_orig = v_trans(orig, edge)
        self.p2_large(depth + 1, -flip, orig, v_shrinkphi(v_rotate(edge, -36 * flip)))
        self.p2_small(depth + 1, flip, vv_orig, v_shrinkphi(v_rotate(edge, -144 * flip)))

    # penrose_p3_large / _small: half a thick / half a thin rhomb
    def p3_large(self, depth: int, flip: int, orig: Vec, edge: Vec) -> None:
        if not self.reachable(orig, edge):
            return
        if flip > 0:
            vs = [
                orig,
                xform_coord(edge, 0, orig, -36),
                xform_coord(edge, 1, orig, 0),
                xform_coord(edge, 0, orig, 36),
            ]
            self.new_tile(vs, depth)
        if depth >= self.max_depth:
            return
        vv_orig = v_trans(orig, edge)
        self.p3_large(depth + 1, -flip, vv_orig, v_shrinkphi(v_rotate(edge, 180)))
        self.p3_small(depth + 1, flip, vv_orig, v_shrinkphi(v_rotate(edge, -108 * flip)))
        vv_orig = v_trans(orig, v_growphi(edge))
        self.p3_large(depth + 1, flip, vv_orig, v_shrinkphi(v_rotate(edge, -144 * flip)))

    def p3_small(self, depth: int, flip: int, orig: Vec, edge: Vec) -> None:
        if not self.reachable(orig, edge):
            return
        if flip > 0:
            v3 = xform_coord(edge, 0, orig, 0)
            vs = [
                orig,
                xform_coord(edge, 0, orig, -36),
                xform_coord(edge, 0, v3, -36),  # XFORM(2, 3, 0, -36): from corner 3
                v3,
            ]
            self.new_tile(vs, depth)
        if depth >= self.max_depth:
            return
        # the same as p3_large's first two
        vv_orig = v_trans(orig, edge)
        self.p3_large(depth + 1, -flip, vv_orig, v_shrinkphi(v_rotate(edge, 180)))
        self.p3_small(depth + 1, flip, vv_orig, v_shrinkphi(v_rotate(edge, -108 * flip)))


def _penrose(tiler: _Tiler, which: int, start_size: int, angle: int) -> None:
    """penrose(): the starting triangle, rotated by angle."""
    vo: Vec = (0, -start_size, -start_size, 0)
    vo = v_shrinkphi(v_shrinkphi(vo))
    vb: Vec = (0, start_size, 0, 0)
    vo = v_rotate(vo, angle)
    vb = v_rotate(vb, angle)
    if which == PENROSE_P2:
        tiler.p2_large(0, 1, vo, vb)
    else:
        tiler.p3_small(0, 1, vo, vb)


# --- descriptions ----------------------------------------------------------------------

# Loopy reads the description with sscanf("G%d,%d,%d"); we take exactly what its sprintf
# writes, and nothing after it.
_DESC = re.compile(r"G(-?[0-9]+),(-?[0-9]+),(-?[0-9]+)")


def parse_desc(desc: str) -> tuple[int, int, int] | None:
    m = _DESC.fullmatch(desc)
    if m is None:
        return None
    x, y, a = (int(g) for g in m.groups())
    return x, y, a


@lru_cache(maxsize=64)
def _trimmed(
    which: int, width: int, height: int, desc: str | None
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    """grid_new_penrose up to grid_make_consistent: the dots and faces left by
    grid_trim_vigorously (no faces: Loopy returns no grid)."""
    _, start_size, max_depth = calculate_size(which, PENROSE_TILESIZE, width, height)
    if desc is not None:
        parsed = parse_desc(desc)
        if parsed is None:
            raise ValueError(f"invalid Penrose grid description {desc!r}")
        xoff, yoff, aoff = parsed
    else:
        xoff = yoff = aoff = 0
    xsz = width * PENROSE_TILESIZE
    ysz = height * PENROSE_TILESIZE
    # xsz, ysz are positive, so // is C's division here
    tiler = _Tiler(max_depth, xoff - xsz // 2, xoff + xsz // 2, yoff - ysz // 2, yoff + ysz // 2)
    _penrose(tiler, which, start_size, aoff)
    if not tiler.faces:
        return (), ()
    b = GridBuilder()
    for f in tiler.faces:
        b.face(f)
    b.trim_vigorously()
    if not b.faces or not b.dots:
        return (), ()
    return tuple(b.dots), tuple(b.faces)


def build(which: int, width: int, height: int, desc: str | None) -> GridBuilder:
    dots, faces = _trimmed(which, width, height, desc)
    # a fresh builder each time (the cached result is shared)
    return GridBuilder(
        dots=list(dots), faces=list(faces), _index={xy: k for k, xy in enumerate(dots)}
    )


def face_bound(width: int, height: int) -> int:
    """grid_new_penrose's max_faces ("somewhat paranoid")."""
    return (width * 3) * (height * 3)


def validate_desc(which: int, width: int, height: int, desc: str | None) -> str | None:
    """grid_validate_desc_penrose."""
    if desc is None:
        return "Missing grid description string."
    inner_radius = _inner_radius(which, width, height)
    parsed = parse_desc(desc)
    if parsed is None:
        return "Invalid format grid description string."
    xoff, yoff, aoff = parsed
    if math.sqrt(xoff * xoff + yoff * yoff) > inner_radius:
        return "Patch offset out of bounds."
    if aoff % 36 != 0 or aoff < 0 or aoff >= 360:
        return "Angle offset out of bounds."
    if not _trimmed(which, width, height, desc)[1]:
        return "Patch coordinates do not identify a usable grid fragment"
    return None


def new_desc(which: int, width: int, height: int, rng: Random) -> str:
    """grid_new_desc_penrose: a random offset within the generated patch and a random
    rotation (a multiple of 36 degrees), retried until the grid is not empty."""
    while True:
        inner_radius = _inner_radius(which, width, height)
        while True:
            xoff = rng.randrange(2 * inner_radius) - inner_radius
            yoff = rng.randrange(2 * inner_radius) - inner_radius
            if not math.sqrt(xoff * xoff + yoff * yoff) > inner_radius:
                break
        aoff = rng.randrange(360 // 36) * 36
        gd = f"G{xoff},{yoff},{aoff}"
        if _trimmed(which, width, height, gd)[1]:
            return gd


def penrose_grid_type(which: int, loopy_type: int, kind: str, title: str) -> GridType:
    """The grid type of one Penrose tiling: the same code, ``which`` picks the tiles."""
    return GridType(
        loopy_type=loopy_type,
        kind=kind,
        title=title,
        amin=3,
        omin=3,
        build=lambda w, h, desc: build(which, w, h, desc),
        face_bound=face_bound,
        validate_desc=lambda w, h, desc: validate_desc(which, w, h, desc),
        new_desc=lambda w, h, rng: new_desc(which, w, h, rng),
    )
