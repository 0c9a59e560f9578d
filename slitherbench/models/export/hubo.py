"""The HUBO as a JSON document of terms (any degree), in a ``.hubo`` file; schema
``slitherbench-hubo`` version 1:

.. code-block:: json

    {"format": "slitherbench-hubo", "version": 1, "vartype": "BINARY", "sense": "minimize",
     "variables": ["x0", "x1", "y0", ...],
     "offset": 4,
     "terms": [[[0, 1], 2], [[0], -3], [[3, 7, 12, 19], 1], ...]}

The energy of x in {0, 1}^n is ``offset + sum(c * prod(x[i] for i in idx) for idx, c in
terms)``; ``idx`` are 0-based positions in ``variables`` (sorted, no repeats, each term
once). Coefficients are integers. The reader gives a :class:`dimod.BinaryPolynomial`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from slitherbench.models.export.common import ExportError
from slitherbench.models.export.polynomial import PolynomialFile, info, named_polynomial
from slitherbench.models.formulations import Model

NAME, EXTENSION, FAMILY, QUADRATIC = "hubo-json", ".hubo", "polynomial", False
SCHEMA = "slitherbench-hubo"


def write(model: Model, path: Path, title: str = "") -> dict[str, Any]:
    variables, poly = named_polynomial(model, QUADRATIC, NAME)
    index = {v["name"]: v["index"] for v in variables}
    terms = sorted(
        ([sorted(index[n] for n in t), c] for t, c in poly.items() if t),
        key=lambda tc: (len(tc[0]), tc[0]),
    )
    doc = {
        "format": SCHEMA,
        "version": 1,
        "name": title or path.name,
        "vartype": "BINARY",
        "sense": "minimize",
        "variables": [v["name"] for v in variables],
        "offset": poly.get((), 0),
        "terms": terms,
    }
    # One term per line: diffable, and readable by any JSON parser
    body = ",\n".join(json.dumps(t, separators=(",", ":")) for t in terms)
    head = json.dumps({k: v for k, v in doc.items() if k != "terms"})[:-1]
    path.write_text(f'{head}, "terms": [\n{body}\n]}}\n')
    return info(variables, poly)


def read(path: Path) -> PolynomialFile:
    import dimod

    try:
        doc = json.loads(path.read_text())
        if doc.get("format") != SCHEMA:
            raise ExportError(f"{path.name}: not a {SCHEMA} document")
        names = [str(n) for n in doc["variables"]]
        poly: dict[tuple[str, ...], float] = {(): float(doc.get("offset", 0))}
        for idx, c in doc["terms"]:
            key = tuple(names[i] for i in idx)
            poly[key] = poly.get(key, 0.0) + float(c)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise ExportError(f"{path.name}: not a readable {SCHEMA} document ({exc})") from None
    sign = -1.0 if doc.get("sense") == "maximize" else 1.0
    return PolynomialFile(
        names, dimod.BinaryPolynomial({t: sign * c for t, c in poly.items()}, "BINARY")
    )
