"""SMT-LIB 2 of the constraint description (logic QF_LIA), written by z3 (``to_smt2``): one
Bool ``x<e>`` per edge (``c<f>`` per face where a rule is on faces), each row of
:func:`slitherbench.models.encode.linear_row` as a linear sum of ``(ite x 1 0)``: a clue
``(= sum n)``, a degree rule ``(or (= sum 0) (= sum 2))``, a loop cut ``(<= sum |L|-1)``.
Plain integer arithmetic, no z3 pseudo-Boolean extension, so any SMT-LIB 2 solver reads it.
A model's edges are an assignment of energy 0."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slitherbench.models.encode import linear_row
from slitherbench.models.export.common import ExportError, edge_variables
from slitherbench.models.export.description import description_cuts, kind_counts
from slitherbench.models.formulations import Constraint, Model
from slitherbench.models.formulations.base import base_constraints, needs_faces, over_labels

NAME, EXTENSION, FAMILY, QUADRATIC = "smt2", ".smt2", "constraints", False


def z3_row(c: Constraint, x: list[Any]) -> Any:
    import z3

    row = linear_row(c)
    total = z3.Sum([z3.If(x[e], a, 0) for e, a in row.terms])
    if row.step:
        return z3.Or([total == v for v in range(row.lo, row.hi + 1, row.step)])
    if row.lo == row.hi:
        return total == row.lo
    lo, hi = row.bounds()
    parts = [total >= lo] if lo is not None else []
    parts += [total <= hi] if hi is not None else []
    return z3.And(parts) if len(parts) > 1 else parts[0] if parts else z3.BoolVal(True)


def write(model: Model, path: Path, title: str = "") -> dict[str, Any]:
    import z3

    cuts = description_cuts(model, NAME)
    p = model.puzzle
    x = [z3.Bool(f"x{e}") for e in range(p.num_edges)]
    constraints = base_constraints(p)
    labels = None
    if needs_faces(constraints):
        labels = list(range(p.num_edges, p.num_edges + p.num_faces))
        x += [z3.Bool(f"c{f}") for f in range(p.num_faces)]
    s = z3.Solver()
    rows = [*over_labels(p, constraints, labels), *cuts]
    for c in rows:
        s.add(z3_row(c, x))
    head = [
        f"; {title or path.stem}: Slitherlink constraint description (slitherbench)",
        "; x<e>: edge e on the loop; c<f>: face f inside (rules on faces only)",
        "(set-logic QF_LIA)",
    ]
    body = s.to_smt2().replace("; benchmark generated from python API\n", "")
    path.write_text("\n".join(head) + "\n" + body)
    return {
        "variables": edge_variables(p),
        "stats": {
            "file_variables": len(x),
            "constraints": len(rows),
            "constraints_by_kind": kind_counts(model),
        },
    }


@dataclass
class SmtFile:
    assertions: Any

    def solver(self) -> Any:
        import z3

        s = z3.Solver()
        s.add(self.assertions)
        return s

    def accepts(self, values: dict[str, int], solver: Any = None) -> bool:
        import z3

        s = solver or self.solver()
        lits = [z3.Bool(n) if v else z3.Not(z3.Bool(n)) for n, v in values.items()]
        return s.check(*lits) == z3.sat


def read(path: Path) -> SmtFile:
    import z3

    try:
        return SmtFile(z3.parse_smt2_file(str(path)))
    except z3.Z3Exception as exc:
        raise ExportError(f"{path.name}: z3 could not read it ({exc})") from None
