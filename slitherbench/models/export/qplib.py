"""QPLIB's text format for a binary quadratic program without constraints (type ``QBN``):
minimise 1/2 x^T Q x + b^T x + q0 over x in {0, 1}^n (QPLIB, Furini et al. 2019, appendix B).

Each line holds one field, with a ``#`` comment after it: the name, ``QBN``, ``minimize``,
n, the number of entries of Q's lower triangle, one ``i j Q_ij`` per entry (1-based, i > j:
Q_ij multiplies x_i x_j once, the 1/2 cancelling the symmetric pair), b's default value (0),
the number of other entries of b and one ``i b_i`` each, q0, the value of infinity, the
starting point's default (0) and its count of other entries (0), the bound duals' default and
count, then the variable names (``i name``, every variable) and the constraint names (0).
Linear terms go in b (x_i^2 = x_i), never on Q's diagonal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from slitherbench.models.export.common import ExportError
from slitherbench.models.export.polynomial import PolynomialFile, info, named_polynomial
from slitherbench.models.formulations import Model

NAME, EXTENSION, FAMILY, QUADRATIC = "qplib", ".qplib", "polynomial", True


def _num(c: float) -> str:
    return str(int(c)) if float(c).is_integer() else repr(float(c))


def write(model: Model, path: Path, title: str = "") -> dict[str, Any]:
    variables, poly = named_polynomial(model, QUADRATIC, NAME)
    index = {v["name"]: v["index"] + 1 for v in variables}
    quad = sorted(
        (max(index[u], index[v]), min(index[u], index[v]), c)
        for (u, v), c in ((t, c) for t, c in poly.items() if len(t) == 2)
    )
    lin = sorted((index[t[0]], c) for t, c in poly.items() if len(t) == 1)
    n = len(variables)
    lines = [
        f"{title or path.stem} # name",
        "QBN # problem type: quadratic objective, binary variables, no constraints",
        "minimize # sense",
        f"{n} # variables",
        f"{len(quad)} # entries in the lower triangle of Q",
        *(f"{i} {j} {_num(c)}" for i, j, c in quad),
        "0 # default value of b",
        f"{len(lin)} # entries of b with another value",
        *(f"{i} {_num(c)}" for i, c in lin),
        f"{_num(poly.get((), 0))} # objective constant",
        "1.0E+30 # infinity",
        "0 # default starting value of the variables",
        "0 # starting values with another value",
        "0 # default starting value of the bound duals",
        "0 # bound duals with another value",
        f"{n} # variable names",
        *(f"{v['index'] + 1} {v['name']}" for v in variables),
        "0 # constraint names",
    ]
    path.write_text("\n".join(lines) + "\n")
    return info(variables, poly)


def _fields(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text and not text.startswith(("!", "%")):
            out.append(text)
    return out


def read(path: Path) -> PolynomialFile:
    import dimod

    f = _fields(path)
    try:
        kind, sense = f[1].split()[0], f[2].split()[0].lower()
        if kind not in ("QBN", "QBB"):
            raise ExportError(f"{path.name}: problem type {kind}; this reader takes QBN and QBB")
        n, k = int(f[3]), 4
        names = [f"v{i}" for i in range(1, n + 1)]
        terms: dict[tuple[int, ...], float] = {}  # by the file's variable indices (from 1)
        nq = int(f[k])
        for line in f[k + 1 : k + 1 + nq]:
            row, col, value = line.split()
            i, j, c = int(row), int(col), float(value)
            key: tuple[int, ...] = (i,) if i == j else (max(i, j), min(i, j))
            # Q's diagonal entry is halved (1/2 x^T Q x); an off-diagonal one is not
            terms[key] = terms.get(key, 0.0) + (c / 2 if i == j else c)
        k += 1 + nq
        default_b, nb = float(f[k]), int(f[k + 1])
        b = dict.fromkeys(range(1, n + 1), default_b)
        for line in f[k + 2 : k + 2 + nb]:
            index, value = line.split()
            b[int(index)] = float(value)
        k += 2 + nb
        constant = float(f[k])
        k += 2  # the constant, infinity
        k += 2 + int(f[k + 1])  # starting point: default, count, entries
        k += 2 + int(f[k + 1])  # bound duals: default, count, entries
        if k < len(f):
            for line in f[k + 1 : k + 1 + int(f[k])]:
                index, name = line.split(maxsplit=1)
                names[int(index) - 1] = name.strip()
    except (IndexError, ValueError) as exc:
        raise ExportError(f"{path.name}: not a QPLIB QBN file ({exc})") from None
    poly: dict[tuple[str, ...], float] = {(): constant} if constant else {}
    for i, c in b.items():
        if c:
            terms[(i,)] = terms.get((i,), 0.0) + c
    for key, c in terms.items():
        poly[tuple(names[i - 1] for i in key)] = c
    sign = -1.0 if sense == "maximize" else 1.0
    return PolynomialFile(
        names, dimod.BinaryPolynomial({t: sign * c for t, c in poly.items()}, "BINARY")
    )
