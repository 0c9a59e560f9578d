"""LP and MPS files of the constraint description, built by the MIP backend's own rows
(:class:`slitherbench.models.encode.HighsEncoder`, the one the MIP backend solves) and written by HiGHS (``writeModel``; the
extension picks the format): binaries ``x<e>`` per edge, clue rows sum x = n, degree rows
sum x - 2 z = 0 with a binary ``z<k>``, one row sum x <= |L| - 1 per loop cut; No-Square adds
binaries ``c<f>`` per face and their rows. A pure feasibility problem (objective 0): a
feasible point's edges are an assignment of energy 0."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

from slitherbench.models.encode import HighsEncoder, quiet_highs
from slitherbench.models.export.common import ExportError, edge_variables
from slitherbench.models.export.description import description_cuts, kind_counts
from slitherbench.models.formulations import Model

FAMILY, QUADRATIC = "constraints", False


def build(model: Model, fmt: str) -> Any:
    """A HiGHS model of the description and the model's cuts, its columns named."""
    cuts = description_cuts(model, fmt)
    back = HighsEncoder()
    back.build(model.puzzle)
    for c in cuts:
        back.add_constraint(c)
    h = back._h
    e, faces = model.puzzle.num_edges, len(back._vars) - model.puzzle.num_edges
    for i in range(h.getNumCol()):
        name = f"x{i}" if i < e else f"c{i - e}" if i < e + faces else f"z{i}"
        h.passColName(i, name)
    for r in range(h.getNumRow()):
        h.passRowName(r, f"r{r}")
    return h


def write_highs(model: Model, path: Path, fmt: str) -> dict[str, Any]:
    h = build(model, fmt)
    h.writeModel(str(path))
    return {
        "variables": edge_variables(model.puzzle),
        "stats": {
            "file_variables": h.getNumCol(),
            "constraints": h.getNumRow(),
            "constraints_by_kind": kind_counts(model),
        },
    }


@dataclass
class HighsFile:
    h: Any
    names: list[str]

    def rows(self) -> list[tuple[float, float, list[tuple[int, float]]]]:
        lp = self.h.getLp()
        a = lp.a_matrix_
        by_row: list[list[tuple[int, float]]] = [[] for _ in range(lp.num_row_)]
        for col in range(lp.num_col_):
            for k in range(a.start_[col], a.start_[col + 1]):
                by_row[a.index_[k]].append((col, a.value_[k]))
        return [(lp.row_lower_[r], lp.row_upper_[r], by_row[r]) for r in range(lp.num_row_)]

    def accepts(self, values: dict[str, int]) -> bool:
        """Row by row, without a solver: every row holds for some integer values of its
        columns not in ``values`` (each such column appears in one row only, as the
        degree rows' z do)."""
        lp = self.h.getLp()
        col = {n: i for i, n in enumerate(self.names)}
        fixed = {col[n]: v for n, v in values.items()}
        seen: set[int] = set()
        for lo, hi, terms in self.rows():
            total = sum(a * fixed[c] for c, a in terms if c in fixed)
            free = [(c, a) for c, a in terms if c not in fixed]
            if any(c in seen for c, _ in free):
                raise ExportError("a free column in two rows: check it with a solver")
            seen.update(c for c, _ in free)
            domains = [range(int(lp.col_lower_[c]), int(lp.col_upper_[c]) + 1) for c, _ in free]
            if not any(
                lo - 1e-9
                <= total + sum(a * z for (_, a), z in zip(free, zs, strict=True))
                <= hi + 1e-9
                for zs in product(*domains)
            ):
                return False
        return True

    def accepts_all(self, names: list[str], x: Any) -> Any:
        """:meth:`accepts` for every row of the 0/1 matrix ``x`` (columns: ``names``), at
        once: a boolean array."""
        import numpy as np

        lp = self.h.getLp()
        col = {n: i for i, n in enumerate(self.names)}
        where = {col[n]: k for k, n in enumerate(names)}
        ok = np.ones(len(x), dtype=bool)
        seen: set[int] = set()
        for lo, hi, terms in self.rows():
            fixed = [(where[c], a) for c, a in terms if c in where]
            free = [(c, a) for c, a in terms if c not in where]
            if any(c in seen for c, _ in free):
                raise ExportError("a free column in two rows: check it with a solver")
            seen.update(c for c, _ in free)
            total = x[:, [k for k, _ in fixed]] @ np.array([a for _, a in fixed])
            domains = [range(int(lp.col_lower_[c]), int(lp.col_upper_[c]) + 1) for c, _ in free]
            row_ok = np.zeros(len(x), dtype=bool)
            for zs in product(*domains):
                v = total + sum(a * z for (_, a), z in zip(free, zs, strict=True))
                row_ok |= (v >= lo - 1e-9) & (v <= hi + 1e-9)
            ok &= row_ok
        return ok

    def solve_fixed(self, values: dict[str, int]) -> bool:
        """Whether HiGHS finds the model feasible with these columns fixed."""
        import highspy

        col = {n: i for i, n in enumerate(self.names)}
        for n, v in values.items():
            self.h.changeColBounds(col[n], float(v), float(v))
        self.h.run()
        return self.h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def read_highs(path: Path) -> HighsFile:
    import highspy

    h = quiet_highs()
    if h.readModel(str(path)) == highspy.HighsStatus.kError:
        raise ExportError(f"{path.name}: HiGHS could not read it")
    lp = h.getLp()
    return HighsFile(h, list(lp.col_names_))
