"""Make the shipped generated boards that are too slow to make on demand: the survey's sizes
(11x11, 19x11, 25x15, 37x21, 32x46, rows x cols) and the speed targets' 30x40 and 60x60.

    python experiments/make_boards.py survey     # -> slitherbench/sources/data/generated_survey.jsonl
    python experiments/make_boards.py targets    # -> slitherbench/sources/data/generated_targets.jsonl
    python experiments/make_boards.py grids      # -> slitherbench/sources/data/generated_grids.jsonl
    python experiments/make_boards.py survey --quick    # tiny boards into a temp dir, seconds

``grids``: every board kind (the square and Loopy's 15 other grid types) at the sizes nearest
25, 50 and 100 faces (``board_with_faces``; a kind whose smallest board is larger keeps it
once), each ``generate_on(board, 1, time_limit_s=10)``, written as its Loopy game ID.

Each board is ``generate(rows, cols, seed, time_limit_s)`` (fixed below), written as soon as
it is made, with the seconds it took (on whatever else the machine was doing: a check that
runs out of time keeps its clue, so the clue count can differ by a few between machines); the uniqueness of each is proved again by the exact solver
(SAT) before it is written. Boards already in the file are kept (the script resumes).
``--out DIR`` writes ``generated_<name>.jsonl`` there instead of ``slitherbench/sources/data/``;
``--quick`` makes a tiny set the same way (4x4 and 5x5 boards; for ``grids``, the square and
honeycomb kinds at about 9 faces) into a temporary directory unless ``--out`` is given, and
never touches ``slitherbench/sources/data/``.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.puzzles.boards import board_kinds, board_with_faces
from slitherbench.puzzles.formats import write_loopy
from slitherbench.puzzles.puzzle import answer_to_bits
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.sources.generate import generate, generate_on

DATA = Path(__file__).resolve().parents[1] / "slitherbench" / "sources" / "data"
# (rows, cols, seed, seconds allowed per clue-removal check: a check out of time keeps its
# clue, so a shorter limit makes boards with a few more clues, much faster; still unique).
SETS = {
    "survey": [
        (r, c, s, 5.0 if r * c < 1000 else 1.0)
        for r, c in ((11, 11), (19, 11), (25, 15), (37, 21), (32, 46))
        for s in (1, 2)
    ],
    # 60x60: two boards (each took 10 minutes to make here); 30x40 seeds 4-9 were added
    # later, after the 60x60 boards in the file, so that the 30x40 median is not one board's.
    "targets": [(30, 40, s, 1.0) for s in (1, 2, 3)]
    + [(60, 60, s, 0.5) for s in (1, 2)]
    + [(30, 40, s, 1.0) for s in range(4, 10)],
}


GRID_FACES = (25, 50, 100)
QUICK_SET = [(4, 4, 1, 1.0), (5, 5, 1, 1.0)]
QUICK_KINDS, QUICK_FACES = ("square", "honeycomb"), (9,)


def write_checked(out: Path, ident: str, p, made_s: float, record: dict) -> None:
    """Prove the board unique again (SAT), then append its record with its answer."""
    check = solve_exact(p, time_limit_s=600)
    if check.status != "unique" or check.answer != p.meta["answer"]:
        raise SystemExit(f"{ident}: the exact check says {check.status}")
    record = {"id": ident, **record, "answer": answer_to_bits(p.meta["answer"])}
    with out.open("a") as f:
        f.write(json.dumps(record) + "\n")
    print(f"{ident}: {p.num_faces} faces, {p.num_clues} clues, made in {made_s:.2f} s", flush=True)


def make_grids(out: Path, done: set[str], quick: bool = False) -> None:
    for kind in QUICK_KINDS if quick else board_kinds():
        seen = set()
        for faces in QUICK_FACES if quick else GRID_FACES:
            board = board_with_faces(kind, faces)
            ident = f"grids-{board.label.replace(' ', '-')}"
            if board in seen or ident in done:
                continue
            seen.add(board)
            t0 = time.perf_counter()
            p = generate_on(board, 1, time_limit_s=10.0)
            made_s = time.perf_counter() - t0
            record = {
                "kind": kind,
                "faces": board.num_faces,
                "target_faces": faces,
                "seed": 1,
                "made_by": f"slitherbench.sources.generate.generate_on(board_with_faces({kind!r}, "
                f"{faces}), 1, time_limit_s=10)",
                "made_s": round(made_s, 2),
                "loopy_id": write_loopy(p),
            }
            write_checked(out, ident, p, made_s, record)


def main() -> None:
    ap = OneLineArgumentParser()
    ap.add_argument("name", nargs="?", default="survey", choices=[*SETS, "grids"])
    ap.add_argument("--out", type=Path, help=f"directory (default: {DATA}; --quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="a tiny set (checks the script runs)")
    args = ap.parse_args()
    name = args.name
    folder = args.out or (Path(tempfile.mkdtemp(prefix="make_boards-")) if args.quick else DATA)
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"generated_{name}.jsonl"
    print(f"boards: {out}")
    done = set()
    if out.exists():
        done = {json.loads(line)["id"] for line in out.read_text().splitlines()}
    if name == "grids":
        make_grids(out, done, args.quick)
        return
    for rows, cols, seed, limit_s in QUICK_SET if args.quick else SETS[name]:
        ident = f"generated-{rows}x{cols}-s{seed}"
        if ident in done:
            continue
        t0 = time.perf_counter()
        p = generate(rows, cols, seed, time_limit_s=limit_s)
        made_s = time.perf_counter() - t0
        record = {
            "rows": rows,
            "cols": cols,
            "seed": seed,
            "made_by": f"slitherbench.sources.generate.generate({rows}, {cols}, {seed}, time_limit_s={limit_s:g})",
            "made_s": round(made_s, 1),
            "clues": list(p.to_rows()),
        }
        write_checked(out, ident, p, made_s, record)


if __name__ == "__main__":
    run_command(main)
