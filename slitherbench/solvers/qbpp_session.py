"""Building a pyqbpp expression from a Model, variable by variable, inside the licence budget.

pyqbpp without a licence key allows 100 binary variables per *process*, counted over every
variable ever created, and aborts the process past that. So variables are created once per
label (never rebuilt per iteration), the budget is checked before each creation, and the
runner puts every pyqbpp trial in a fresh child process.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slitherbench.models.formulations import Model
from slitherbench.models.formulations.base import Piece
from slitherbench.solvers.base import BackendUnavailable


def licence_reason(needed: int, limit: int) -> str:
    return f"license_limit (needs {needed}, limit {limit}; set QBPP_LICENSE_KEY)"


class QbppSession:
    def __init__(self) -> None:
        import pyqbpp  # imported here: only child processes that solve with pyqbpp load it

        self.qbpp = pyqbpp
        self.vars: dict[int, Any] = {}
        self.expr: Any = 0
        self.synced = 0

    def budget_left(self) -> int:
        return int(self.qbpp.max_var_count()) - int(self.qbpp.used_var_count())

    def _var(self, model: Model, label: int) -> Any:
        v = self.vars.get(label)
        if v is None:
            v = self.vars[label] = self.qbpp.var(model.label_name(label))
        return v

    def sync(self, model: Model) -> None:
        """Add the pieces not yet in the expression (creating only the variables they need)."""
        new_pieces = model.pieces[self.synced :]
        if not new_pieces:
            return
        needed = set()
        for p in new_pieces:
            needed.update(p.labels)
        missing = needed - set(self.vars)
        left = self.budget_left()
        if len(missing) > left:
            total = len(set(self.vars) | needed)
            raise BackendUnavailable(licence_reason(total, int(self.qbpp.max_var_count())))
        for label in sorted(missing):
            self._var(model, label)
        for p in new_pieces:
            self.expr += self._piece_expr(p)
        self.expr.simplify_as_binary()
        self.synced = len(model.pieces)

    def _piece_expr(self, p: Piece) -> Any:
        q = self.qbpp
        if p.native is not None:
            c = p.constraint
            if p.lhs is not None:  # face variables: a polynomial (XOR sums)
                total = self._poly_expr(p.lhs)
            else:
                total = q.sum([a * self.vars[e] for e, a in c.linear().items()])
            lo, hi = min(c.allowed), max(c.allowed)
            if len(c.allowed) == 1:
                con = q.cons(total, equal=c.allowed[0])
            elif list(c.allowed) == list(range(lo, hi + 1)):
                con = q.cons(total, between=(lo, hi))
            else:
                con = q.cons(total, equal=list(c.allowed))
            return p.native.weight * con if p.native.weight != 1 else con
        assert p.poly is not None
        return self._poly_expr(p.poly)

    def _poly_expr(self, poly: Mapping[tuple[int, ...], int]) -> Any:
        out: Any = 0
        for term, coeff in poly.items():
            t: Any = coeff
            for label in term:
                t = t * self.vars[label]
            out += t
        return out

    def hint(self, sample: Mapping[int, int]) -> Any:
        """A qbpp.Sol of the current expression holding ``sample`` (edges and auxiliaries)."""
        sol = self.qbpp.Sol(self.expr)
        for label, v in self.vars.items():
            if sol.has(v):
                sol.set(v, int(sample.get(label, 0)))
        return sol

    def read(self, sol: Any) -> dict[int, int]:
        return {label: int(sol(v)) for label, v in self.vars.items()}
