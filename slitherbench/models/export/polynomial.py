"""The model's penalty polynomial as the polynomial files hold it, and what their readers give
back: :class:`PolynomialFile`, the file's variables (names, in file order) and its
polynomial over them (a :class:`dimod.BinaryPolynomial`, so every reader answers alike)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from slitherbench.models.export.common import ExportError, label_variables, polynomial_stats
from slitherbench.models.formulations import Model


@dataclass
class PolynomialFile:
    names: list[str]  # the file's variables in file order
    poly: Any  # dimod.BinaryPolynomial over the names

    def energy(self, values: Mapping[str, int]) -> float:
        return float(self.poly.energy({v: int(values.get(v, 0)) for v in self.poly.variables}))

    @property
    def degree(self) -> int:
        return max((len(t) for t in self.poly), default=0)


def named_polynomial(model: Model, quadratic: bool, fmt: str) -> tuple[list[dict], dict]:
    """(variables, polynomial by names) of a model a polynomial format can hold."""
    form = model.formulation
    if form.native:
        raise ExportError(
            f"the {form.describe()} form has native constraints, no penalty polynomial: "
            f"format {fmt} needs form=hubo or form=qubo (write cons as cnf, lp, mps or smt2)"
        )
    poly = model.polynomial()
    degree = max((len(t) for t in poly), default=0)
    if quadratic and degree > 2:
        raise ExportError(
            f"format {fmt} holds terms of degree 2 at most; the {form.describe()} model has "
            f"degree {degree}: write it as hubo-json, or use form=qubo"
        )
    variables = label_variables(model)
    name = {v["label"]: v["name"] for v in variables}
    return variables, {tuple(name[lb] for lb in t): c for t, c in poly.items()}


def info(variables: list[dict], poly: Mapping[tuple[str, ...], int]) -> dict[str, Any]:
    return {"variables": variables, "stats": polynomial_stats(poly)}
