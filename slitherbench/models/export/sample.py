"""A small command-line solver for every instance format, bundled so that the ``external``
backend's default command works out of the box (and as an example of the contract).

    python -m slitherbench.models.export.sample INSTANCE OUTPUT [--seed S] [--time-limit T]

It reads the instance and its sidecar (INSTANCE.json), solves it and writes one 0/1 per
line to OUTPUT, for the sidecar's ``variables`` in order. Polynomial files (qplib, bqm,
hubo-json): dwave-samplers' simulated annealing, through dimod's ``make_quadratic`` where a
term has degree > 2; CNF: pysat's Glucose; LP/MPS: HiGHS; SMT-LIB 2: z3. Exit code 0 with a
sample; 1 when no assignment was found (the reason on stderr).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from slitherbench.method.entry import OneLineArgumentParser
from slitherbench.models.export import format_module, read_sidecar


def _anneal(path: Path, fmt: str, names: list[str], args: argparse.Namespace) -> list[int]:
    import dimod
    from dwave.samplers import SimulatedAnnealingSampler

    pf = format_module(fmt).read(path)
    bqm = dimod.make_quadratic(pf.poly, args.strength, dimod.BINARY)
    res = SimulatedAnnealingSampler().sample(
        bqm,
        num_reads=args.reads,
        num_sweeps=args.sweeps,
        beta_range=(2.0, 10.0),
        beta_schedule_type="linear",
        seed=args.seed % (2**32),
    )
    best = min(res.samples(), key=lambda s: pf.energy({v: s[v] for v in pf.poly.variables}))
    return [int(best.get(n, 0)) for n in names]


def _sat(path: Path, index: list[int], args: argparse.Namespace) -> list[int] | None:
    from pysat.solvers import Solver

    cnf = format_module("cnf").read(path)
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
        if not s.solve():
            return None
        on = {v for v in s.get_model() if v > 0}
    return [int(i in on) for i in index]


def _highs(path: Path, fmt: str, names: list[str], args: argparse.Namespace) -> list[int] | None:
    import highspy

    hf = format_module(fmt).read(path)
    h = hf.h
    h.setOptionValue("time_limit", max(float(args.time_limit), 0.01))
    h.setOptionValue("random_seed", args.seed % (2**31))
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    values = h.getSolution().col_value
    col = {n: i for i, n in enumerate(hf.names)}
    return [int(values[col[n]] > 0.5) for n in names]


def _z3(path: Path, names: list[str], args: argparse.Namespace) -> list[int] | None:
    import z3

    s = format_module("smt2").read(path).solver()
    s.set("timeout", max(1, int(1000 * args.time_limit)))
    s.set("random_seed", args.seed % (2**31))
    if s.check() != z3.sat:
        return None
    m = s.model()
    return [int(z3.is_true(m.eval(z3.Bool(n), model_completion=True))) for n in names]


def solve(path: Path, args: argparse.Namespace) -> list[int] | None:
    side = read_sidecar(path)
    fmt, variables = side["format"], side["variables"]
    names = [v["name"] for v in variables]
    if format_module(fmt).FAMILY == "polynomial":
        return _anneal(path, fmt, names, args)
    if fmt == "cnf":
        return _sat(path, [v["index"] for v in variables], args)
    if fmt in ("lp", "mps"):
        return _highs(path, fmt, names, args)
    return _z3(path, names, args)


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(
        prog="python -m slitherbench.models.export.sample", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("instance", type=Path)
    ap.add_argument("output", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds (exact solvers)")
    ap.add_argument("--reads", type=int, default=8, help="annealing reads")
    ap.add_argument("--sweeps", type=int, default=1000, help="annealing sweeps per read")
    ap.add_argument("--strength", type=float, default=4.0, help="make_quadratic's penalty")
    args = ap.parse_args(argv)
    try:
        values: Any = solve(args.instance, args)
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if values is None:
        print("error: no assignment found (infeasible or out of time)", file=sys.stderr)
        return 1
    args.output.write_text("".join(f"{v}\n" for v in values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
