"""The propagation engine behind :func:`slitherbench.deduction.deduce`.

State lives in flat lists (one slot per edge, point, face), changed only through a work queue
of forced assignments, so each move costs time near the edges it touches. Look-ahead probes
write through a trail and undo it, so a probe costs what it propagates, not a copy of the
board. Face sides are a union-find with parity over the faces plus one node for the outside;
each class keeps its member list (small-to-large merges), so a face's class and its side
relative to the class are one list read each.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Any

from slitherbench.deduction import compiled
from slitherbench.puzzles.boards import Board
from slitherbench.puzzles.check import rule_problems
from slitherbench.puzzles.rules import get_rule

LEVELS = ("none", "rules", "lookahead1", "lookahead2")
UNIQUE_RULE = "loop-completes-answer"  # the one rule that assumes the answer is unique


class Contradiction(Exception):
    """No answer agrees with the state: the message is one line saying why."""


class Tables:
    """A board's adjacency as the engine reads it (built once per board)."""

    def __init__(self, board: Board) -> None:
        E, P, F = board.num_edges, board.num_points, board.num_faces
        self.E, self.P, self.F = E, P, F
        self.edge_points = board.edge_points
        self.point_edges = board.point_edges
        # The outside is node F in the face union-find.
        self.edge_nodes = tuple((f, g if g >= 0 else F) for f, g in board.edge_faces)
        self.edge_real_faces = tuple(tuple(x for x in pair if x >= 0) for pair in board.edge_faces)
        sides: list[list[tuple[int, int]]] = [[] for _ in range(F + 1)]
        for e, (f, g) in enumerate(self.edge_nodes):
            sides[f].append((e, g))
            sides[g].append((e, f))
        self.node_sides = tuple(tuple(s) for s in sides)
        self.face_edges = board.face_edges
        corners: list[tuple[tuple[int, int, int], ...]] = []
        point_faces: list[list[int]] = [[] for _ in range(P)]
        for f, (edges, pts) in enumerate(zip(board.face_edges, board.face_points, strict=True)):
            corners.append(tuple((p, edges[k - 1], edges[k]) for k, p in enumerate(pts)))
            for p in pts:
                point_faces[p].append(f)
        self.face_corners = tuple(corners)
        self.point_faces = tuple(tuple(x) for x in point_faces)


@lru_cache(maxsize=32)
def tables(board: Board) -> Tables:
    return Tables(board)


class Engine:
    """One puzzle's deduction state. ``propagate`` runs the rules to a fixpoint;
    ``lookahead1``/``lookahead2`` probe; every public entry raises :class:`Contradiction`."""

    NEAR_RINGS = 1  # how far from a level-2 probe's changes its inner look-ahead 1 probes

    def __init__(
        self,
        puzzle: Any,
        cuts: Sequence[Collection[int]] = (),
        assume_unique: bool = False,
    ) -> None:
        t = tables(puzzle.board)
        self.t = t
        self.puzzle = puzzle
        self.assume_unique = assume_unique
        E, P, F = t.E, t.P, t.F
        self.clue = list(puzzle.face_clues)
        self.edge = [-1] * E
        self.pon = [0] * P
        self.punk = [len(x) for x in t.point_edges]
        self.fon = [0] * F
        self.funk = [len(x) for x in t.face_edges]
        self.root = list(range(F + 1))
        self.par = [0] * (F + 1)
        self.members = [[n] for n in range(F + 1)]
        self.other_end = list(range(P))
        self.seg_len = [0] * P
        self.on_total = 0
        self.unknown = E
        self.deficit = sum(1 for c in self.clue if c)  # clue faces with fewer lines than clue
        self.uniq = 0  # moves so far that assumed uniqueness
        self._init_cuts(cuts)
        self._init_rules(puzzle)
        # the clue faces around each point: what a change at the point may wake
        self.point_clue_faces = tuple(
            tuple(f for f in faces if self.clue[f] is not None) for faces in t.point_faces
        )
        self._init_work()

    def _init_work(self) -> None:
        """The queues, and the first work: every clue face and nogood, every dead end."""
        t, F, P = self.t, self.t.F, self.t.P
        self.queue: list[tuple[int, int, str, bool]] = []
        self.fqueue: list[tuple[int, int, str]] = []
        self.dirty_faces: list[int] = []
        self.face_flag = [False] * F
        self.dirty_nogoods: list[int] = []
        self.nogood_flag = [False] * len(self.nogoods)
        self.candidates: list[tuple[int, int, int]] = []
        # None: not probing (moves are not undone); a list while a probe may be undone.
        self.trail: list[tuple[list, int, Any]] | None = None
        self.depth = 0  # probe nesting: moves are traced only at depth 0
        self.stage = "rules"
        self.trace: list[tuple[str, str, int, int, str, bool]] = []
        self.changed_at_stage: dict[str, int] = {}
        for f, c in enumerate(self.clue):
            if c is not None:
                self._dirty_face(f)
        for k in range(len(self.nogoods)):
            self._dirty_nogood(k)
        for p in range(P):
            if self.punk[p] == 1:  # a dead end
                self.queue.append((t.point_edges[p][0], 0, "point-degree", False))
        for c in self.cut_edges:
            if len(c) == 1:
                self.queue.append((c[0], 0, "cut", False))

    def _init_cuts(self, cuts: Sequence[Collection[int]]) -> None:
        """Cuts: sets of edges that are not all on, with their counts of on and unknown."""
        E = self.t.E
        self.cut_edges = [tuple(sorted(set(c))) for c in cuts]
        for c in self.cut_edges:
            if not c or not all(0 <= e < E for e in c):
                raise ValueError(f"a cut names edges outside 0..{E - 1}: {c[:5]}")
        edge_cuts: list[list[int]] = [[] for _ in range(E)]
        for k, c in enumerate(self.cut_edges):
            for e in c:
                edge_cuts[e].append(k)
        self.edge_cuts = edge_cuts
        self.cut_on = [0] * len(self.cut_edges)
        self.cut_unk = [len(c) for c in self.cut_edges]

    def _init_rules(self, puzzle: Any) -> None:
        """The rule hooks' face nogoods: sets of (face, side) that must not all hold."""
        F = self.t.F
        self.nogoods: list[tuple[tuple[int, int], ...]] = []
        for name in puzzle.rules:
            found = get_rule(name).face_nogoods(puzzle.board)
            if found is None:
                continue
            for ng in found:
                ng = tuple((int(f), int(v)) for f, v in ng)
                if not ng or not all(0 <= f < F and v in (0, 1) for f, v in ng):
                    raise ValueError(
                        f"rule {name}: a face nogood {ng[:4]} names no faces 0..{F - 1}"
                    )
                self.nogoods.append(ng)
        face_nogoods: list[list[int]] = [[] for _ in range(F + 1)]
        for k, ng in enumerate(self.nogoods):
            for f, _ in ng:
                face_nogoods[f].append(k)
        self.face_nogoods = face_nogoods

    # -- small helpers ---------------------------------------------------------------------
    def _dirty_face(self, f: int) -> None:
        if not self.face_flag[f]:
            self.face_flag[f] = True
            self.dirty_faces.append(f)

    def _dirty_nogood(self, k: int) -> None:
        if not self.nogood_flag[k]:
            self.nogood_flag[k] = True
            self.dirty_nogoods.append(k)

    def face_value(self, f: int) -> int:
        F = self.t.F
        if self.root[f] != self.root[F]:
            return -1
        return self.par[f] ^ self.par[F]

    # -- assignment ------------------------------------------------------------------------
    def _assign(self, e: int, v: int, rule: str, unique: bool) -> None:
        edge = self.edge
        cur = edge[e]
        if cur != -1:
            if cur != v:
                raise Contradiction(f"edge {e} is forced both on and off ({rule})")
            return
        t = self.t
        tr = self.trail
        pon, punk = self.pon, self.punk
        a, b = t.edge_points[e]
        if v and (pon[a] >= 2 or pon[b] >= 2):
            raise Contradiction(f"edge {e} would give a point three lines ({rule})")
        if tr is not None:
            tr.append((edge, e, -1))
        edge[e] = v
        if self.depth == 0:
            self.trace.append((rule, "edge", e, v, self.stage, unique))
            if rule != "input":
                self.changed_at_stage[self.stage] = self.changed_at_stage.get(self.stage, 0) + 1
        if unique:
            self.uniq += 1
        self.unknown -= 1
        self.on_total += v
        # counts are undone from the edge (_undo): none is trailed, all change before a raise
        punk[a] -= 1
        punk[b] -= 1
        pon[a] += v
        pon[b] += v
        fon, funk, clue = self.fon, self.funk, self.clue
        for f in t.edge_real_faces[e]:
            funk[f] -= 1
            if v:
                fon[f] += 1
                c = clue[f]
                if c is not None and fon[f] == c:
                    self.deficit -= 1
        for k in self.edge_cuts[e]:
            self.cut_unk[k] -= 1
            self.cut_on[k] += v
        # The queue is a stack: the moves pushed last are made first, so the trace names
        # the most specific rule (point degrees, then the loop, cuts, and face sides last).
        fa, fb = t.edge_nodes[e]
        root = self.root
        if root[fa] != root[fb]:
            self._union(fa, fb, v)
        elif self.par[fa] ^ self.par[fb] != v:
            raise Contradiction(f"faces {fa} and {fb} must be on both sides at once (colour)")
        for k in self.edge_cuts[e]:
            self._check_cut(k)
        if v:
            self._join_segments(e, a, b)
        face_flag, dirty_faces = self.face_flag, self.dirty_faces
        for p in (a, b):
            if pon[p] >= 2 or punk[p] <= 1:  # otherwise the point forces nothing
                self._check_point(p)
            for f in self.point_clue_faces[p]:
                if not face_flag[f]:
                    face_flag[f] = True
                    dirty_faces.append(f)

    def _check_point(self, p: int) -> None:
        o, u = self.pon[p], self.punk[p]
        if o > 2:
            raise Contradiction(f"point {p} has {o} lines")
        if u == 0:
            if o == 1:
                raise Contradiction(f"point {p} is a dead end of a line")
            return
        edge = self.edge
        if o == 2:
            for e in self.t.point_edges[p]:
                if edge[e] == -1:
                    self.queue.append((e, 0, "point-degree", False))
        elif u == 1:
            for e in self.t.point_edges[p]:
                if edge[e] == -1:
                    self.queue.append((e, o, "point-degree", False))

    def _check_cut(self, k: int) -> None:
        size = len(self.cut_edges[k])
        if self.cut_on[k] == size:
            raise Contradiction(f"cut {k} ({size} edges) is all on")
        if self.cut_on[k] == size - 1 and self.cut_unk[k] == 1:
            for e in self.cut_edges[k]:
                if self.edge[e] == -1:
                    self.queue.append((e, 0, "cut", False))

    # -- segments and the loop rule --------------------------------------------------------
    def _join_segments(self, e: int, a: int, b: int) -> None:
        tr = self.trail
        other, seg = self.other_end, self.seg_len
        for p in (a, b):
            if self.pon[p] == 1:  # the point had no line before this edge
                if tr is not None:
                    tr.append((other, p, other[p]))
                    tr.append((seg, p, seg[p]))
                other[p] = p
                seg[p] = 0
        x, y = other[a], other[b]
        if x == b:  # this edge closes a loop: it must be the whole answer
            length = seg[a] + 1
            if self.on_total != length:
                raise Contradiction(f"edge {e} closes a loop while other lines lie elsewhere")
            for f in range(len(self.edge)):
                if self.edge[f] == -1:
                    self.queue.append((f, 0, "loop-closed", False))
            return
        length = seg[a] + seg[b] + 1
        if tr is not None:
            tr.append((other, x, other[x]))
            tr.append((other, y, other[y]))
            tr.append((seg, x, seg[x]))
            tr.append((seg, y, seg[y]))
        other[x] = y
        other[y] = x
        seg[x] = length
        seg[y] = length
        for f in self.t.point_edges[x]:
            if self.edge[f] == -1 and y in self.t.edge_points[f]:
                self._closing_candidate(f, x, y, length)

    def _completes(self, e: int, length: int) -> bool:
        """Whether turning ``e`` on closes a loop that is an answer by itself."""
        if self.on_total != length:
            return False
        short = 0
        clue, fon = self.clue, self.fon
        for f in self.t.edge_real_faces[e]:
            c = clue[f]
            if c is None:
                continue
            if fon[f] == c:
                return False
            if fon[f] == c - 1:
                short += 1
        if self.deficit != short:
            return False
        if self.puzzle.rules:
            answer = [x == 1 for x in self.edge]
            answer[e] = True
            return not rule_problems(self.puzzle, answer)
        return True

    def _closing_candidate(self, e: int, x: int, y: int, length: int) -> None:
        if not self._completes(e, length):
            self.queue.append((e, 0, "no-premature-loop", False))
        elif self.assume_unique:
            self.queue.append((e, 1, UNIQUE_RULE, True))
        else:
            self.candidates.append((e, x, y))

    def _recheck_candidates(self) -> None:
        edge, other, pon = self.edge, self.other_end, self.pon
        for e, x, y in self.candidates:
            if edge[e] == -1 and pon[x] == 1 and pon[y] == 1 and other[x] == y:
                if not self._completes(e, self.seg_len[x]):
                    self.queue.append((e, 0, "no-premature-loop", False))

    # -- face sides --------------------------------------------------------------------------
    def _union(self, x: int, y: int, rel: int, rule: str = "colour") -> None:
        """Faces (nodes) x and y are on different sides (rel 1) or the same side (rel 0)."""
        root, par, members = self.root, self.par, self.members
        rx, ry = root[x], root[y]
        px, py = par[x], par[y]
        if rx == ry:
            if px ^ py != rel:
                raise Contradiction(f"faces {x} and {y} must be on both sides at once ({rule})")
            return
        if len(members[rx]) < len(members[ry]):
            rx, ry, px, py = ry, rx, py, px
        flip = px ^ py ^ rel
        small = members[ry]
        big = members[rx]
        tr = self.trail
        F = self.t.F
        outside_root = root[F]
        for g in small:
            if tr is not None:
                tr.append((root, g, root[g]))
                tr.append((par, g, par[g]))
            root[g] = rx
            par[g] ^= flip
        before = len(big)
        if tr is not None:
            tr.append((big, -1, before))
        big.extend(small)
        edge, clue, sides = self.edge, self.clue, self.t.node_sides
        face_nogoods = self.face_nogoods
        for g in small:
            pg = par[g]
            for e, h in sides[g]:
                if edge[e] == -1:
                    if root[h] == rx:
                        self.queue.append((e, pg ^ par[h], rule, False))
                    elif h < F and clue[h] is not None:
                        self._dirty_face(h)
            if g < F and clue[g] is not None:
                self._dirty_face(g)
            for k in face_nogoods[g]:
                self._dirty_nogood(k)
        if outside_root in (rx, ry):  # a class joins the outside's: its faces are known
            known = big[:before] if outside_root == ry else small
            outside_par = par[F]
            for g in known:
                for k in face_nogoods[g]:
                    self._dirty_nogood(k)
                if self.depth == 0 and g < F:
                    self.trace.append((rule, "face", g, par[g] ^ outside_par, self.stage, False))

    def _check_nogood(self, k: int) -> None:
        root, par = self.root, self.par
        F = self.t.F
        outside_root, outside_par = root[F], par[F]
        open_root = -1
        want = -1  # the colour of open_root that makes every open literal true
        for f, val in self.nogoods[k]:
            r = root[f]
            if r == outside_root:
                if par[f] ^ outside_par != val:
                    return  # a literal is false: the nogood holds
                continue
            need = val ^ par[f]
            if open_root == -1:
                open_root, want = r, need
            elif r != open_root:
                return  # two undecided classes: nothing forced
            elif need != want:
                return  # two literals of one class that cannot both hold
        if open_root == -1:
            raise Contradiction(f"faces {[f for f, _ in self.nogoods[k]]} break a rule")
        self.fqueue.append((open_root, want ^ 1, "rule"))

    # -- clue faces --------------------------------------------------------------------------
    def _check_face(self, f: int) -> None:
        c = self.clue[f]
        if c is None:
            return
        u = self.funk[f]
        r = c - self.fon[f]
        if r < 0 or r > u:
            raise Contradiction(f"face {f}: clue {c} cannot be met")
        if u == 0:
            return
        edge = self.edge
        sides = self.t.face_edges[f]
        q = self.queue
        if r == 0 or r == u:
            v = 1 if r else 0
            for e in sides:
                if edge[e] == -1:
                    q.append((e, v, "clue", False))
            return
        self._clue_sides(f, r)  # its moves are pushed first, so the corner moves go first
        pon, punk = self.pon, self.punk
        for p, a, b in self.t.face_corners[f]:
            if edge[a] != -1 or edge[b] != -1:
                continue
            o = pon[p]
            if o == 1:  # p needs one more line: at most one of a, b
                if u - r == 1:  # the face's one off side is a or b
                    for e in sides:
                        if e != a and e != b and edge[e] == -1:
                            q.append((e, 1, "corner", False))
                if punk[p] == 2 and r == 1:  # exactly one of a, b: the face's one line
                    for e in sides:
                        if e != a and e != b and edge[e] == -1:
                            q.append((e, 0, "corner", False))
            elif o == 0 and punk[p] == 2:  # a and b are both on or both off
                if u - r < 2:
                    q.append((a, 1, "corner", False))
                    q.append((b, 1, "corner", False))
                elif r < 2:
                    q.append((a, 0, "corner", False))
                    q.append((b, 0, "corner", False))

    def _clue_sides(self, f: int, r: int) -> None:
        """The clue over the sides' classes: neighbours in one class all change side with f
        or none do, so each class adds one of two counts; keep the choices that reach r."""
        root, par, edge = self.root, self.par, self.edge
        open_sides = [(e, h) for e, h in self.t.node_sides[f] if edge[e] == -1]
        if len({root[h] for _, h in open_sides}) == len(open_sides):
            return  # every class one side: the plain count rule says all there is
        groups: dict[int, list] = {}
        for e, h in open_sides:
            g = groups.get(root[h])
            if g is None:
                groups[root[h]] = [1 if par[h] else 0, 0 if par[h] else 1, [(e, h)]]
            else:
                g[0 if par[h] else 1] += 1
                g[2].append((e, h))
        fr, pf = root[f], par[f]
        glist = list(groups.items())
        n = len(glist)
        options: list[tuple[tuple[int, int], ...]] = []
        for R, (a0, a1, _) in glist:
            if R == fr:  # f's side relative to this class is known
                options.append(((a1 if pf else a0, pf),))
            else:
                options.append(((a0, 0), (a1, 1)))
        prefix = [1]
        for opts in options:
            m = 0
            for amount, _ in opts:
                m |= prefix[-1] << amount
            prefix.append(m)
        suffix = [1] * (n + 1)
        for i in range(n - 1, -1, -1):
            m = 0
            for amount, _ in options[i]:
                m |= suffix[i + 1] << amount
            suffix[i] = m
        if not (prefix[n] >> r) & 1:
            raise Contradiction(f"face {f}: clue {self.clue[f]} cannot be met by its sides")
        for i, opts in enumerate(options):
            if len(opts) == 1:
                continue
            ok = []
            for amount, x in opts:
                left = prefix[i]
                need = r - amount
                s = 0
                found = False
                while left and s <= need:
                    if left & 1 and (suffix[i + 1] >> (need - s)) & 1:
                        found = True
                        break
                    left >>= 1
                    s += 1
                if found:
                    ok.append(x)
            if len(ok) == 1:
                x = ok[0]
                for e, h in glist[i][1][2]:
                    self.queue.append((e, 1 if x != par[h] else 0, "clue-sides", False))

    # -- the fixpoint ------------------------------------------------------------------------
    def propagate(self) -> None:
        q, fq = self.queue, self.fqueue
        dirty_faces, face_flag = self.dirty_faces, self.face_flag
        dirty_nogoods, nogood_flag = self.dirty_nogoods, self.nogood_flag
        F = self.t.F
        while True:
            while q:
                e, v, rule, unique = q.pop()
                self._assign(e, v, rule, unique)
            if fq:
                node, colour, rule = fq.pop()
                self._union(node, F, colour, rule)
                continue
            if dirty_faces:
                f = dirty_faces.pop()
                face_flag[f] = False
                self._check_face(f)
                continue
            if dirty_nogoods:
                k = dirty_nogoods.pop()
                nogood_flag[k] = False
                self._check_nogood(k)
                continue
            if self.candidates:
                self._recheck_candidates()
                if q:
                    continue
            break
        if self.unknown == 0:
            if self.on_total == 0:
                raise Contradiction("every edge is off: no loop")
            if self.puzzle.rules and rule_problems(self.puzzle, [x == 1 for x in self.edge]):
                raise Contradiction(rule_problems(self.puzzle, [x == 1 for x in self.edge])[0])

    def apply(self, e: int, v: int, rule: str, unique: bool = False) -> None:
        self.queue.append((e, v, rule, unique))
        self.propagate()

    # -- probing -------------------------------------------------------------------------------
    def _mark(self) -> tuple:
        if self.trail is None:
            self.trail = []
        return (
            len(self.trail),
            self.on_total,
            self.unknown,
            self.deficit,
            len(self.candidates),
            self.uniq,
        )

    def _undo(self, mark: tuple, implied: set[int] | None = None) -> None:
        """Back to ``mark``. Counts are undone from the edges (each edge's points, faces and
        cuts), the rest from the trail; ``implied`` collects each undone edge value (as
        ``2 * edge + value``)."""
        tr = self.trail
        assert tr is not None, "undo outside a probe"
        n = mark[0]
        edge = self.edge
        t = self.t
        pon, punk, fon, funk = self.pon, self.punk, self.fon, self.funk
        cut_on, cut_unk, edge_cuts = self.cut_on, self.cut_unk, self.edge_cuts
        for arr, i, old in reversed(tr[n:]):
            if arr is edge:
                v = edge[i]
                if implied is not None:
                    implied.add(2 * i + v)
                a, b = t.edge_points[i]
                punk[a] += 1
                punk[b] += 1
                for f in t.edge_real_faces[i]:
                    funk[f] += 1
                if v:
                    pon[a] -= 1
                    pon[b] -= 1
                    for f in t.edge_real_faces[i]:
                        fon[f] -= 1
                for k in edge_cuts[i]:
                    cut_unk[k] += 1
                    cut_on[k] -= v
                edge[i] = -1
            elif i < 0:
                del arr[old:]
            else:
                arr[i] = old
        del tr[n:]
        self.on_total, self.unknown, self.deficit = mark[1], mark[2], mark[3]
        del self.candidates[mark[4] :]
        self.uniq = mark[5]
        self.queue.clear()
        self.fqueue.clear()
        for f in self.dirty_faces:
            self.face_flag[f] = False
        self.dirty_faces.clear()
        for k in self.dirty_nogoods:
            self.nogood_flag[k] = False
        self.dirty_nogoods.clear()

    def _probe(
        self, e: int, v: int, inner: bool, implied: set[int] | None = None
    ) -> tuple[bool, bool]:
        """Whether setting edge e to v (and propagating; ``inner``: and look-ahead 1 near
        what changed) ends in a contradiction, and whether that used uniqueness. A probe that
        holds adds the edge values it implied to ``implied``."""
        mark = self._mark()
        self.depth += 1
        try:
            self.apply(e, v, "probe")
            # look-ahead 1 near what changed, the neighbourhood growing with its own moves
            while inner and self.lookahead1(self._near(mark[0])):
                pass
            failed = False
        except Contradiction:
            failed = True
        used = self.uniq > mark[5]
        self._undo(mark, None if failed else implied)
        self.depth -= 1
        return failed, used

    def _near(self, start: int) -> list[int]:
        """Unknown edges within :attr:`NEAR_RINGS` steps (sharing a point or a face) of an
        edge set since trail position ``start``, or of a line segment's end that moved since
        (the loop rule reaches from one end of a segment to the other)."""
        t, edge, other = self.t, self.edge, self.other_end
        seen: set[int] = set()
        assert self.trail is not None, "a probe keeps a trail"
        for arr, i, _ in self.trail[start:]:
            if arr is edge:
                seen.add(i)
            elif arr is other:
                seen.update(t.point_edges[i])
        ring = seen
        for _ in range(self.NEAR_RINGS):
            grown: set[int] = set()
            for i in ring:
                for p in t.edge_points[i]:
                    grown.update(t.point_edges[p])
                for f in t.edge_real_faces[i]:
                    grown.update(t.face_edges[f])
            ring = grown - seen
            seen |= grown
        return sorted(e for e in seen if edge[e] == -1)

    def lookahead1(self, edges: Sequence[int] | None = None) -> bool:
        """Probe each unknown edge (of ``edges``; None: all) both ways, to a fixpoint; a value
        that contradicts is rejected (the other value is applied). The edges are taken in
        a cycle that ends once every one was probed since the last move. Returns whether
        anything was fixed."""
        if edges is None and self.depth == 0 and compiled.covers(self):
            found = compiled.lookahead1(self)
            if found is not None:  # None: too small arrays or no compiled code; loop below
                for e, v, used in found:
                    self.apply(e, v, "lookahead1", used)
                    if self.trail is not None:  # nothing below the base to undo
                        self.trail.clear()
                return bool(found)
        todo = list(range(self.t.E)) if edges is None else list(edges)
        progress = False
        # A value implied by a probe that held since the last move needs no probe of its
        # own: were it to fail, so would that probe (propagation only grows with more fixed).
        implied: set[int] = set()
        since, k = 0, 0  # edges taken since the last move; the cycle's position
        while since < len(todo):
            e = todo[k]
            k = (k + 1) % len(todo)
            since += 1
            if self.edge[e] != -1:
                continue
            for v in (1, 0):
                if 2 * e + v in implied:
                    continue
                failed, used = self._probe(e, v, False, implied)
                if failed:
                    self.apply(e, 1 - v, "lookahead1", used)
                    if self.depth == 0:
                        if self.trail is not None:  # nothing below the base to undo
                            self.trail.clear()
                    progress = True
                    implied.clear()
                    since = 0
                    break
        return progress

    def lookahead2(self) -> bool:
        """Probe each unknown edge both ways with look-ahead 1 inside each probe (see
        :meth:`_near`), in a cycle as :meth:`lookahead1` does; each rejection is followed by
        look-ahead 1 on the whole board. Returns whether anything was fixed."""
        E = self.t.E
        progress = False
        since, e = 0, 0
        while since < E:
            e = (e + 1) % E
            since += 1
            if self.edge[e] != -1:
                continue
            for v in (1, 0):
                failed, used = self._probe(e, v, inner=True)
                if failed:
                    self.apply(e, 1 - v, "lookahead2", used)
                    if self.trail is not None:
                        self.trail.clear()
                    saved, self.stage = self.stage, "lookahead2"
                    self.lookahead1()
                    self.stage = saved
                    progress = True
                    since = 0
                    break
        return progress
