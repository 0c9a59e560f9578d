"""The command line: solve a puzzle (a file or the text itself), or generate one.

    python -m slitherbench.colorlink solve "2r../.3k./..1g" --method sat --figure out.png
    python -m slitherbench.colorlink solve "2r../.3k./..1g" --method sa --variables face
    python -m slitherbench.colorlink generate 5x5 --colours 2 --seed 1

Any error (unreadable input, a puzzle without an answer, a bad option) is one ``error:`` line
on stderr and exit code 2, with nothing written: the figure is drawn only for a solved puzzle.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from .model import ColorlinkError, ColorPuzzle
from .solve import METHODS, VARIABLES, solve_colorlink
from .text import read_colorlink, render_answer, write_colorlink


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise ColorlinkError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m slitherbench.colorlink", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    s = sub.add_parser("solve", help="solve a puzzle: a file, or the puzzle's text")
    s.add_argument("puzzle", help="a file, or text such as 2r../.3k./..1g")
    s.add_argument("--method", choices=METHODS, default="sat")
    s.add_argument(
        "--variables",
        choices=VARIABLES,
        default="edge",
        help="sa only: one binary per (colour, edge), or per (colour, face) (a HUBO, OpenJij)",
    )
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--time-limit", type=float, default=60.0, help="seconds (default 60)")
    s.add_argument("--max-iterations", type=int, default=200)
    s.add_argument("--figure", type=Path, help="write the puzzle and its answer as a PNG")
    g = sub.add_parser("generate", help="print a unique puzzle's text")
    g.add_argument("size", help="ROWSxCOLS, e.g. 5x5")
    g.add_argument("--colours", type=int, default=2)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--spaced", action="store_true", help="one line per row")
    return p


def read_input(arg: str) -> ColorPuzzle:
    path = Path(arg)
    if path.is_file():
        try:
            return read_colorlink(path.read_text(), name=path.stem)
        except UnicodeDecodeError:
            raise ColorlinkError(f"{arg} is not a text file") from None
    if path.suffix == ".txt":  # meant as a file: say so rather than read its name as clues
        raise ColorlinkError(f"no such file: {arg}")
    return read_colorlink(arg)


def _solve(args: argparse.Namespace) -> int:
    if args.variables == "face" and args.method != "sa":
        raise ColorlinkError("--variables face needs --method sa")
    puzzle = read_input(args.puzzle)
    r = solve_colorlink(
        puzzle, args.method, args.seed, args.time_limit, args.max_iterations, args.variables
    )
    how = args.method if args.method == "sat" else f"{args.method}, {args.variables} variables"
    if r.status == "infeasible":
        raise ColorlinkError(f"the puzzle has no answer: {r.reason}")
    if r.answer is None:
        raise ColorlinkError(
            f"{r.status} after {r.iterations} iterations, {r.seconds:.1f} s ({how})"
        )
    if args.figure is not None:
        from .drawing import colorlink_picture

        colorlink_picture(puzzle, r.answer, args.figure)
    print(f"solved: {r.iterations} iterations, {r.cuts} cuts, {r.seconds:.3f} s ({how})")
    print(render_answer(puzzle, r.answer))
    return 0


def _generate(args: argparse.Namespace) -> int:
    from .generate import generate_colorlink

    m = re.fullmatch(r"(\d+)x(\d+)", args.size)
    if m is None:
        raise ColorlinkError(f"size {args.size!r} is not ROWSxCOLS (e.g. 5x5)")
    rows, cols = int(m[1]), int(m[2])
    if rows * cols > 400:
        raise ColorlinkError(f"{args.size} is larger than the generator takes (400 cells)")
    puzzle = generate_colorlink(rows, cols, args.colours, args.seed)
    print(write_colorlink(puzzle, spaced=args.spaced))
    return 0


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    if "MPLBACKEND" not in os.environ:  # a command line draws to files only (--figure)
        matplotlib.use("Agg")
    try:
        args = _parser().parse_args(argv)
        return _solve(args) if args.command == "solve" else _generate(args)
    except (ColorlinkError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
