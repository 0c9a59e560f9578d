"""Write each shipped board's deduction grade into its data file, or check the files hold it.

    python experiments/grade_library.py            # grade every board in slitherbench/sources/data/
    python experiments/grade_library.py --check    # exit 1 if a stored grade differs from a fresh one
    python experiments/grade_library.py --only loopy_dev,generated_grids

Each record gains ``grade`` (the lowest level that solves the board without assuming its
answer is unique: ``rules``, ``lookahead1``, ``lookahead2`` or ``beyond``) and
``grade_shares`` (the share of edges fixed after each level), from
:func:`slitherbench.deduction.grade`; every other field and the records' order stay as they
were. Run it again whenever the deduction engine changes what it fixes: ``--check`` says which
boards changed. The library reads the grades back (``puzzle.meta``), so a run never grades a
shipped board itself.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.sources import library
from slitherbench.sources.grades import grade_columns

DATA = Path(library.__file__).resolve().parent / "data"


def boards_of(stem: str) -> list:
    """The file's boards as the library loads them (in the file's order)."""
    if stem == "loopy_dev":
        return list(library.loopy_dev())
    return list(library.shipped(stem.removeprefix("generated_")))


def fresh_grade(p) -> tuple[str, dict[str, float]]:
    """The board graded now, whatever its data file says."""
    graded = p.with_rules(p.rules)  # a copy: the same board, its meta (and stored grade) kept
    graded.meta.pop("grade", None)
    level, shares = grade_columns(graded)
    return level, json.loads(shares)


def main() -> int:
    ap = OneLineArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare, write nothing")
    ap.add_argument("--only", default="", help="file stems, comma-separated (default: all)")
    args = ap.parse_args()
    stems = [s for s in args.only.split(",") if s] or sorted(p.stem for p in DATA.glob("*.jsonl"))
    changed = 0
    for stem in stems:
        path = DATA / f"{stem}.jsonl"
        if not path.exists():
            print(f"no data file {path}", file=sys.stderr)
            return 2
        records = [json.loads(line) for line in path.read_text().splitlines()]
        boards = boards_of(stem)
        counts: dict[str, int] = {}
        t0 = time.perf_counter()
        for record, p in zip(records, boards, strict=True):
            level, shares = fresh_grade(p)
            counts[level] = counts.get(level, 0) + 1
            if record.get("grade") != level or record.get("grade_shares") != shares:
                changed += 1
                if args.check:
                    print(f"{stem} {record['id']}: stored {record.get('grade')!r}, now {level!r}")
            record["grade"], record["grade_shares"] = level, shares
        took = time.perf_counter() - t0
        print(f"{stem}: {len(records)} boards graded in {took:.1f} s: {counts}", flush=True)
        if not args.check:
            path.write_text("".join(json.dumps(r) + "\n" for r in records))
    if args.check and changed:
        print(f"{changed} stored grade(s) differ from the engine's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    run_command(main)
