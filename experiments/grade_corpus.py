"""The deduction engine's grade of every shared-corpus board beside Loopy's own label.

Loopy's label is the ``d`` letter of the game ID's parameters (``5x5t0de``: e Easy,
n Normal, t Tricky, h Hard). The engine's grade is the lowest level that solves the board
without assuming uniqueness (:func:`slitherbench.deduction.grade`: rules, look-ahead 1,
look-ahead 2, beyond). Every board's fixed edges are checked against the corpus answer.

    python experiments/grade_corpus.py [CORPUS.jsonl ...]   # default: both shared corpus files
    python experiments/grade_corpus.py --quick              # the 5x5 boards only, seconds

Prints per file a table of counts (Loopy's label x the engine's grade) and per label the
median share of edges the rules and look-ahead 1 fix, and the slowest grading.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from slitherbench.deduction import deduce, grade
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"
DEFAULT = [SHARED / "loopy_dev.jsonl", SHARED / "loopy_grids_dev.jsonl"]
LABELS = {"e": "Easy", "n": "Normal", "t": "Tricky", "h": "Hard"}
GRADES = ("rules", "lookahead1", "lookahead2", "beyond")


def loopy_label(loopy_id: str) -> str:
    found = re.search(r"d([a-z])", loopy_id.split(":", 1)[0])
    return LABELS.get(found.group(1), found.group(1)) if found else "?"


def square_answer(record: dict, p: Puzzle) -> list[bool]:
    """Loopy's answer on a square board, moved from Loopy's edge order to the board's (the
    page's) by the edges' end points: Loopy's dots are the board's points, scaled."""
    scale = max(max(xy) for xy in record["dots"]) / max(max(xy) for xy in p.board.points)
    point = {(round(x), round(y)): k for k, (x, y) in enumerate(p.board.points)}
    dot = [point[(round(x / scale), round(y / scale))] for x, y in record["dots"]]
    edge = {frozenset(ab): e for e, ab in enumerate(p.board.edge_points)}
    on = {
        edge[frozenset((dot[a], dot[b]))]
        for a, b in (record["edges"][i] for i in record["solution_edges"])
    }
    return [e in on for e in range(p.num_edges)]


def read(path: Path) -> list[tuple[str, Puzzle, list[bool]]]:
    """(label, puzzle, answer) for every record of a corpus file."""
    out = []
    for line in path.read_text().splitlines():
        d = json.loads(line)
        p = Puzzle.parse(d["loopy_id"], name=d["id"])
        if "solution_edges" in d and p.is_square:
            answer = square_answer(d, p)
        elif "solution_edges" in d:
            on = set(d["solution_edges"])
            answer = [e in on for e in range(p.num_edges)]
        else:  # squares: the page's edge order, horizontal edges first
            answer = [c == "1" for c in d["solution_H"] + d["solution_V"]]
        out.append((loopy_label(d["loopy_id"]), p, answer))
    return out


def table(path: Path, quick: bool) -> None:
    boards = read(path)
    if quick:
        boards = [b for b in boards if b[1].num_faces <= 25]
    counts: Counter[tuple[str, str]] = Counter()
    shares: dict[str, list[tuple[float, float]]] = {}
    slowest = (0.0, "")
    for label, p, answer in boards:
        start = time.perf_counter()
        g = grade(p)
        seconds = time.perf_counter() - start
        slowest = max(slowest, (seconds, p.name))
        found = deduce(p, "lookahead2")
        if any(v not in (-1, int(answer[e])) for e, v in enumerate(found.edges)):
            raise SystemExit(f"{p.name}: an edge fixed against the corpus answer")
        counts[(label, g.level)] += 1
        shares.setdefault(label, []).append((g.shares["rules"], g.shares["lookahead1"]))
    labels = [x for x in LABELS.values() if any(k[0] == x for k in counts)]
    kinds = sorted({p.board.kind for _, p, _ in boards})
    print(f"\n{path.name}: {len(boards)} boards ({', '.join(kinds)})")
    print(f"| Loopy label | {' | '.join(GRADES)} | rules fix (median) | look-ahead 1 fixes |")
    print(f"|---|{'---|' * len(GRADES)}---|---|")
    for label in labels:
        row = " | ".join(str(counts[(label, g)]) for g in GRADES)
        r = statistics.median(s[0] for s in shares[label])
        a = statistics.median(s[1] for s in shares[label])
        print(f"| {label} | {row} | {r:.0%} | {a:.0%} |")
    print(f"slowest grade: {slowest[0]:.2f} s ({slowest[1]})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="*", type=Path, help="corpus .jsonl files (default: both)")
    ap.add_argument("--quick", action="store_true", help="boards of at most 25 faces only")
    args = ap.parse_args(argv)
    paths = args.corpus or DEFAULT
    for path in paths:
        if not path.exists():
            print(f"{path}: no such corpus file", file=sys.stderr)
            return 2
    print("engine grade (never assuming uniqueness) vs Loopy's label, fixed edges checked")
    for path in paths:
        try:
            table(path, args.quick)
        except (KeyError, ValueError, PuzzleFormatError) as exc:
            print(f"{path}: not a corpus file ({exc})", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
