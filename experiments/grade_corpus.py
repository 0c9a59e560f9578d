"""The deduction engine's grade of every shared-corpus board beside Loopy's own label.

Loopy's label is the ``d`` letter of the game ID's parameters (``5x5t0de``: e Easy,
n Normal, t Tricky, h Hard). The engine's grade is the lowest level that solves the board
without assuming uniqueness (:func:`slitherbench.deduction.grade`: rules, look-ahead 1,
look-ahead 2, beyond). Every board's fixed edges are checked against the corpus answer.

    python experiments/grade_corpus.py [CORPUS.jsonl ...]   # default: both shared corpus files
    python experiments/grade_corpus.py --quick              # the 5x5 boards only, seconds
    python experiments/grade_corpus.py --publish docs/findings/grades   # the findings page

Prints per file a table of counts (Loopy's label x the engine's grade) and per label the
median share of edges the rules and look-ahead 1 fix, and the slowest grading; then (not with
``--quick``) the grades of the harness's own boards (suites headline, frontier, presolve).
``--publish DEST`` writes the findings page from the stamped rows (``--rows`` again from them).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page
from slitherbench.deduction import deduce, grade
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"
DEFAULT = [SHARED / "loopy_dev.jsonl", SHARED / "loopy_grids_dev.jsonl"]
LABELS = {"e": "Easy", "n": "Normal", "t": "Tricky", "h": "Hard"}
GRADES = ("rules", "lookahead1", "lookahead2", "beyond")
COMMAND = "python experiments/grade_corpus.py"


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


def graded_rows(path: Path, quick: bool) -> list[dict]:
    """One row per board of a corpus file: its label, grade, shares fixed and grading time;
    every edge deduction fixes is checked against the corpus answer."""
    boards = read(path)
    if quick:
        boards = [b for b in boards if b[1].num_faces <= 25]
    rows = []
    for label, p, answer in boards:
        rows.append(_row(path.name, p, label, answer))
    return rows


def _row(source: str, p: Puzzle, label: str, answer: list[bool] | None) -> dict:
    start = time.perf_counter()
    g = grade(p)
    seconds = time.perf_counter() - start
    if answer is not None:
        found = deduce(p, "lookahead2")
        if any(v not in (-1, int(answer[e])) for e, v in enumerate(found.edges)):
            raise SystemExit(f"{p.name}: an edge fixed against the corpus answer")
    return {
        "source": source, "board": p.name, "kind": p.board.kind, "size": p.size_label,
        "label": label, "grade": g.level, "rules_share": round(g.shares["rules"], 4),
        "lookahead1_share": round(g.shares["lookahead1"], 4), "grade_s": round(seconds, 4),
    }  # fmt: skip


def suite_rows() -> list[dict]:
    """The harness's own boards (the headline, frontier and presolve suites): their grades."""
    from slitherbench.sources.library import get_suite

    rows, seen = [], set()
    for suite in ("headline", "frontier", "presolve"):
        for p in get_suite(suite):
            if p.name not in seen:
                seen.add(p.name)
                name = p.name or ""
                label = loopy_label(name.removeprefix("tatham-")) if "tatham" in name else "-"
                rows.append(_row(f"suite {suite}", p, label, p.meta.get("answer")))
    return rows


def label_table(df: pd.DataFrame) -> str:
    """Counts of Loopy's label x the engine's grade, with the median shares fixed."""
    lines = [f"| Loopy label | {' | '.join(GRADES)} | rules fix (median) | look-ahead 1 fixes |"]
    lines.append(f"|---|{'---|' * len(GRADES)}---|---|")
    for label in [x for x in LABELS.values() if x in set(df["label"])]:
        d = df[df["label"] == label]
        row = " | ".join(str(int((d["grade"] == g).sum())) for g in GRADES)
        r, a = d["rules_share"].median(), d["lookahead1_share"].median()
        lines.append(f"| {label} | {row} | {r:.0%} | {a:.0%} |")
    return "\n".join(lines) + "\n"


def print_tables(df: pd.DataFrame) -> None:
    for source, d in df.groupby("source", sort=False):
        kinds = sorted(set(d["kind"]))
        print(f"\n{source}: {len(d)} boards ({', '.join(kinds)})")
        if source.startswith("suite"):
            for r in d.itertuples():
                print(f"  {r.board} {r.size}: {r.grade} (rules fix {r.rules_share:.0%})")
            continue
        print(label_table(d), end="")
        slow = d.loc[d["grade_s"].idxmax()]
        print(f"slowest grade: {slow.grade_s:.2f} s ({slow.board})")


def page_sections(df: pd.DataFrame) -> list[tuple[str, str]]:
    out = []
    for source, d in df.groupby("source", sort=False):
        if source.startswith("suite"):
            continue
        text = label_table(d) + (
            f"\n{len(d)} boards ({', '.join(sorted(set(d['kind'])))}); slowest grading "
            f"{d['grade_s'].max():.2f} s.\n"
        )
        out.append((f"`{source}`: the engine's grade beside Loopy's label", text))
    suites = df[df["source"].str.startswith("suite")]
    if not suites.empty:
        lines = [
            "| board | size | suites | Loopy label | grade | rules fix |",
            "|---|---|---|---|---|---|",
        ]
        for r in suites.itertuples():
            lines.append(
                f"| {r.board} | {r.size} | {r.source.removeprefix('suite ')} | {r.label} | "
                f"{r.grade} | {r.rules_share:.0%} |"
            )
        out.append(("The harness's own boards", "\n".join(lines) + "\n"))
    return out


def publish(df: pd.DataFrame, dest: Path) -> Path:
    return benchmark_page.write_page(
        dest,
        df,
        title="Grades: how much deduction settles, on the corpus and the harness's boards",
        script=COMMAND,
        sections=page_sections(df),
    )


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="*", type=Path, help="corpus .jsonl files (default: both)")
    ap.add_argument("--quick", action="store_true", help="boards of at most 25 faces only")
    benchmark_page.add_options(ap)
    args = ap.parse_args(argv)
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    paths = args.corpus or DEFAULT
    for path in paths:
        if not path.exists():
            print(f"{path}: no such corpus file", file=sys.stderr)
            return 2
    print("engine grade (never assuming uniqueness) vs Loopy's label, fixed edges checked")
    rows = []
    for path in paths:
        try:
            rows += graded_rows(path, args.quick)
        except (KeyError, ValueError, PuzzleFormatError) as exc:
            print(f"{path}: not a corpus file ({exc})", file=sys.stderr)
            return 2
    if not args.quick:
        rows += suite_rows()
    shown = [COMMAND, *(["--quick"] if args.quick else [])]
    df = benchmark_page.stamp(pd.DataFrame(rows), (), " ".join(shown))
    print_tables(df)
    if args.publish:
        print(f"page: {publish(df, args.publish)}")
    return 0


if __name__ == "__main__":
    run_command(main)
