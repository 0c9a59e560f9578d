"""DIMACS CNF of the constraint description, written by the SAT backend's own encoder
(:class:`slitherbench.models.encode.SatEncoder`, the one the SAT backend solves): variable e + 1 is edge e; a clue sum is
pysat's cardinality encoding (``seqcounter``, the sequential counter, by default; its
auxiliary variables follow the edges); a degree rule {0, 2} is "no point with exactly one
edge" plus "no three of its edges together"; a loop cut is one clause "not every edge of the
loop"; a region cut one clause by parity; No-Square one variable per face (after the edges)
tied by XOR clauses. A model of the CNF restricted to 1..E is an assignment of energy 0.
The encoding is stated in the file's comment lines and in the sidecar."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slitherbench.models.encode import SatEncoder
from slitherbench.models.export.common import ExportError, edge_variables
from slitherbench.models.export.description import description_cuts, kind_counts
from slitherbench.models.formulations import Model

NAME, EXTENSION, FAMILY, QUADRATIC = "cnf", ".cnf", "constraints", False
INDEX_BASE = 1  # the sidecar's index is the DIMACS variable number: edge e is e + 1
ENCODING = "seqcounter"


class _ClauseWriter(SatEncoder):
    def __init__(self, encoding: str) -> None:
        self.encoding = encoding


def model_clauses(model: Model, encoding: str = ENCODING) -> tuple[int, list[list[int]]]:
    cuts = description_cuts(model, NAME)
    w = _ClauseWriter(encoding=encoding)
    w.build(model.puzzle)
    for c in cuts:
        w.add_constraint(c)
    clauses = w._sat.clauses
    nv = max([model.puzzle.num_edges, *(abs(v) for cl in clauses for v in cl)])
    return nv, clauses


def write(model: Model, path: Path, title: str = "", encoding: str = ENCODING) -> dict[str, Any]:
    nv, clauses = model_clauses(model, encoding)
    e = model.puzzle.num_edges
    head = [
        f"c {title or path.stem}: Slitherlink constraint description (slitherbench)",
        f"c variables 1..{e}: edge e is variable e+1 (x<e> in the sidecar)",
        f"c variables {e + 1}..{nv}: auxiliaries (pysat {encoding} cardinality encoding of "
        "the clue sums; face variables first where a rule is on faces)",
        "c degree {0,2}: no point with exactly one edge, no three edges together; "
        "loop cut: one clause per loop",
        f"p cnf {nv} {len(clauses)}",
    ]
    body = (" ".join(map(str, cl)) + " 0" for cl in clauses)
    path.write_text("\n".join([*head, *body]) + "\n")
    return {
        "variables": edge_variables(model.puzzle, first=INDEX_BASE),
        "cardinality_encoding": f"pysat {encoding}",
        "stats": {
            "file_variables": nv,
            "constraints": len(clauses),
            "constraints_by_kind": kind_counts(model),
        },
    }


@dataclass
class CnfFile:
    nv: int
    clauses: list[list[int]]

    def solver(self) -> Any:
        from pysat.solvers import Solver

        return Solver(name="glucose4", bootstrap_with=self.clauses)

    def accepts(self, values: dict[int, int], solver: Any = None) -> bool:
        """Whether some assignment of the other variables completes ``values`` (DIMACS
        variable -> 0/1) to a model."""
        s = solver or self.solver()
        try:
            return bool(s.solve(assumptions=[v if on else -v for v, on in values.items()]))
        finally:
            if solver is None:
                s.delete()


def read(path: Path) -> CnfFile:
    from pysat.formula import CNF

    try:
        cnf = CNF(from_file=str(path))
    except (ValueError, OSError) as exc:
        raise ExportError(f"{path.name}: not a DIMACS CNF file ({exc})") from None
    return CnfFile(cnf.nv, [list(c) for c in cnf.clauses])
