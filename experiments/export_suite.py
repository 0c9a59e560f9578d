"""Measure writing a whole instance set: files, total size and time.

    python experiments/export_suite.py                       # the headline suite (below)
    python experiments/export_suite.py --quick               # one 5x5 corpus board, about 1 s
    python experiments/export_suite.py --suite loopy_dev --out results/instances/loopy_dev

The headline suite (two 5x5, two 7x7, one 10x10 Loopy board and reference10), every form
(cons, hubo, qubo), edge and face variables, each form in its default formats (qubo: qplib
and bqm; hubo: hubo-json; cons: cnf, lp and smt2; cons/face has no file format and is
left out), through ``python -m slitherbench.export suite=...``'s own code. Prints one line
and returns the summary; ``--out`` keeps the files (default: a temporary directory).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.run.export_cli import export_suite
from slitherbench.sources.library import loopy_dev


def main(argv: list[str] | None = None) -> dict:
    ap = OneLineArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default="headline")
    ap.add_argument("--quick", action="store_true", help="one 5x5 corpus board")
    ap.add_argument("--out", type=Path, default=None, help="keep the files here")
    args = ap.parse_args(argv)
    suite = "quick" if args.quick else args.suite
    puzzles = [next(p for p in loopy_dev() if p.size_label == "5x5")] if args.quick else None
    out = args.out or Path(tempfile.mkdtemp(prefix="export-suite-"))
    settings = {"forms": "cons,hubo,qubo", "variables": "edge,face", "out": str(out)}
    try:
        _index, files, size, secs = export_suite({"suite": suite, **settings}, puzzles)
        sidecars = sum(p.stat().st_size for p in out.glob("*.json") if p.is_file())
        summary = {
            "suite": suite,
            "files": files,
            "bytes": size,
            "sidecar_bytes": sidecars,
            "seconds": round(secs, 2),
        }
    finally:
        if args.out is None:
            shutil.rmtree(out, ignore_errors=True)
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    run_command(main)
