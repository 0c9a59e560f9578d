"""dimod's own serialisation of a :class:`dimod.BinaryQuadraticModel` (``bqm.to_file()``,
read by ``dimod.BinaryQuadraticModel.from_file``), labelled by the variables' names
(``x0``, ``y3``, ``s57``, ...). Binary variables; the energy is the model's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from slitherbench.models.export.polynomial import PolynomialFile, info, named_polynomial
from slitherbench.models.formulations import Model
from slitherbench.models.formulations.base import add_to_bqm

NAME, EXTENSION, FAMILY, QUADRATIC = "bqm", ".bqm", "polynomial", True


def write(model: Model, path: Path, title: str = "") -> dict[str, Any]:
    import dimod

    variables, poly = named_polynomial(model, QUADRATIC, NAME)
    bqm = dimod.BinaryQuadraticModel(dimod.BINARY)
    bqm.add_variables_from((v["name"], 0) for v in variables)  # file order: the labels'
    add_to_bqm(bqm, poly.items())
    with bqm.to_file() as src, path.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return info(variables, poly)


def read(path: Path) -> PolynomialFile:
    import dimod

    with path.open("rb") as f:
        bqm = dimod.BinaryQuadraticModel.from_file(f)
    if bqm.vartype is not dimod.BINARY:
        bqm = bqm.change_vartype(dimod.BINARY, inplace=False)
    poly: dict[tuple[Any, ...], float] = {(): float(bqm.offset)}
    poly.update(((v,), float(c)) for v, c in bqm.linear.items())
    poly.update(((u, v), float(c)) for (u, v), c in bqm.quadratic.items())
    names = [str(v) for v in bqm.variables]
    return PolynomialFile(names, dimod.BinaryPolynomial(poly, dimod.BINARY))
