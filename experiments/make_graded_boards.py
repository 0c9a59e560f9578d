"""Make the shipped boards that rules do not settle, and count the grades of plain unique boards.

    python experiments/make_graded_boards.py            # -> slitherbench/sources/data/generated_lookahead.jsonl
    python experiments/make_graded_boards.py --quick    # two tiny boards into a temp dir, seconds
    python experiments/make_graded_boards.py census     # grades of plain unique boards (prints a table)
    python experiments/make_graded_boards.py census --quick

Boards (suite ``lookahead``, ``puzzle=lookahead``): each is
``generate_on(board, seed, min_grade=LEVEL)`` (:func:`slitherbench.sources.generate.generate_graded`):
its grade is LEVEL, the lowest deduction level that solves it without assuming uniqueness.
Squares 7x7, 10x10, 11x11, 12x12, 13x13, 14x14 and 15x15 at look-ahead 1 and 2 (seeds 1-3;
10x10, 11x11, 12x12 and 13x13 seeds 4-6 too, 11x11 and 12x12 seeds 7-9), 16x16 at both
(seeds 1-2), 17x17, 18x18, 20x20 and 30x30 at both (seed 1), and honeycomb and cairo boards
of about 50 and 100 faces at both levels (seeds 1-2).
Each board's uniqueness is proved again by the exact solver (SAT) and its grade again by the
engine before it is written, with the seconds it took and its ``made_by`` call; boards
already in the file are kept (the script resumes).

``census``: plain unique boards (``generate``/``generate_on``, clues removed while a SAT solver
finds no other answer) on the same board kinds, each graded; prints the count per grade and
size, and how many are beyond look-ahead 2.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from make_boards import DATA, write_checked

from slitherbench.deduction import grade
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.puzzles.boards import Board, board_with_faces, square_board
from slitherbench.puzzles.formats import write_loopy
from slitherbench.sources.generate import generate_on
from slitherbench.sources.grades import GRADES, grade_columns

# (kind, size: rows=cols for squares or faces for other kinds, level, seeds)
BOARDS = [
    *[("square", n, lv, (1, 2, 3)) for n in (7, 10, 11, 12, 13, 14, 15)
      for lv in ("lookahead1", "lookahead2")],
    # 10x10 seeds 4-6: fresh boards at the size whose seeds 2-3 train tuning (graded_training);
    # 11x11, 12x12 and 13x13 seeds 4-6: six boards per grade where the frontier paths stop;
    *[("square", n, lv, (4, 5, 6)) for n in (10, 11, 12, 13)
      for lv in ("lookahead1", "lookahead2")],
    # 11x11 and 12x12 seeds 7-9: nine boards per grade where the two paths' frontiers sit on
    # the 50 % line
    *[("square", n, lv, (7, 8, 9)) for n in (11, 12) for lv in ("lookahead1", "lookahead2")],
    *[("square", 16, lv, (1, 2)) for lv in ("lookahead1", "lookahead2")],
    *[("square", n, lv, (1,)) for n in (17, 18, 20, 30) for lv in ("lookahead1", "lookahead2")],
    *[(k, f, lv, (1, 2)) for k in ("honeycomb", "cairo") for f in (50, 100)
      for lv in ("lookahead1", "lookahead2")],
]  # fmt: skip
QUICK_BOARDS = [("square", 5, "lookahead1", (1,)), ("honeycomb", 25, "lookahead1", (1,))]
# 30x30: three seeds (a plain 30x30 board took 274 s to make on 2 cores).
CENSUS = [("square", n, tuple(range(1, 11))) for n in (7, 10, 15, 20)] + [
    ("square", 30, (1, 2, 3)),
    *[(k, f, tuple(range(1, 6))) for k in ("honeycomb", "cairo") for f in (50, 100, 200)],
]
QUICK_CENSUS = [("square", 5, (1, 2)), ("honeycomb", 25, (1,))]


def board_of(kind: str, size: int) -> tuple[Board, str]:
    """The board and the call that makes it (for ``made_by``)."""
    if kind == "square":
        return square_board(size, size), f"square_board({size}, {size})"
    return board_with_faces(kind, size), f"board_with_faces({kind!r}, {size})"


def graded_name(board: Board, level: str, seed: int) -> str:
    """The name :func:`generate_graded` gives the board (checked on each board made)."""
    if board.kind == "square":
        stem = f"{board.height}x{board.width}"
    else:
        stem = board.label.replace(" ", "-") + (f"-{board.desc}" if board.desc else "")
    return f"gen-{stem}-{level}-s{seed}"


def make(out: Path, done: set[str], boards: list) -> None:
    for kind, size, level, seeds in boards:
        board, call = board_of(kind, size)
        for seed in seeds:
            if graded_name(board, level, seed) in done:
                continue
            t0 = time.perf_counter()
            p = generate_on(board, seed, min_grade=level)
            made_s = time.perf_counter() - t0
            if p.name != graded_name(board, level, seed):  # resuming relies on the name
                raise SystemExit(f"{p.name}: expected {graded_name(board, level, seed)}")
            again = grade(p)
            if again.level != level or p.meta["grade"] != level:
                raise SystemExit(f"{p.name}: graded {again.level}, asked for {level}")
            record = {"kind": kind, "faces": board.num_faces, "seed": seed, "min_grade": level}
            record["made_by"] = (
                f"slitherbench.sources.generate.generate_on({call}, {seed}, min_grade={level!r})"
            )
            record["made_s"] = round(made_s, 2)
            record["tries"] = p.meta["grade_tries"]
            if kind == "square":
                record |= {"rows": size, "cols": size, "clues": list(p.to_rows())}
            else:
                record["loopy_id"] = write_loopy(p)
            record["grade"], record["grade_shares"] = level, json.loads(p.meta["grade_shares"])
            write_checked(out, p.name, p, made_s, record)


def census(plan: list) -> None:
    """Plain unique boards graded: count per grade and board size."""
    counts: dict[str, Counter] = {}
    faces: dict[str, int] = {}
    for kind, size, seeds in plan:
        board, _ = board_of(kind, size)
        faces[board.label] = board.num_faces
        for seed in seeds:
            t0 = time.perf_counter()
            p = generate_on(board, seed)
            made_s = time.perf_counter() - t0
            level, shares = grade_columns(p)
            counts.setdefault(board.label, Counter())[level] += 1
            print(f"{p.name}: {p.num_clues} clues, {level} {shares} (made in {made_s:.1f} s)",
                  flush=True)  # fmt: skip
    print("\n| board | faces | " + " | ".join(GRADES) + " | boards |")
    print("|---|---|" + "---|" * (len(GRADES) + 1))
    total: Counter = Counter()
    for label, c in counts.items():
        total += c
        cells = " | ".join(str(c[g]) for g in GRADES)
        print(f"| {label} | {faces[label]} | {cells} | {sum(c.values())} |")
    n = sum(total.values())
    print(f"| all | | {' | '.join(str(total[g]) for g in GRADES)} | {n} |")
    print(f"\nbeyond look-ahead 2: {total['beyond']} of {n} plain unique boards")


def main() -> int:
    ap = OneLineArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", nargs="?", default="boards", choices=["boards", "census"])
    ap.add_argument("--out", type=Path, help=f"directory (default: {DATA}; --quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="a tiny set (checks the script runs)")
    args = ap.parse_args()
    if args.what == "census":
        census(QUICK_CENSUS if args.quick else CENSUS)
        return 0
    folder = args.out or (Path(tempfile.mkdtemp(prefix="graded-")) if args.quick else DATA)
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "generated_lookahead.jsonl"
    print(f"boards: {out}")
    done = set()
    if out.exists():
        done = {json.loads(line)["id"] for line in out.read_text().splitlines()}
    make(out, done, QUICK_BOARDS if args.quick else BOARDS)
    return 0


if __name__ == "__main__":
    run_command(main)
