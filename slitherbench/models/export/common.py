"""What every instance file shares: the variables' meaning, the puzzle's description, the
harness version, the one-line error, and the statistics of the index.

Polynomial files (QPLIB, dimod BQM, HUBO JSON) hold every label of the model, in the order of
``model.labels``; their names are ``model.label_name``: ``x<e>`` an edge, ``c<f>`` a face
(inside 1, outside 0), ``y<p>`` a point's degree auxiliary, ``s<label>`` a slack or other
auxiliary bit. The exact families' files (CNF, LP/MPS, SMT-LIB 2) hold the constraint
description over edges, ``x<e>``, plus their encodings' own auxiliaries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from slitherbench.models.formulations import Model
from slitherbench.puzzles.puzzle import Puzzle

ROLES = {"x": "edge", "c": "face", "y": "point_aux", "s": "slack"}
SIDECAR_VERSION = 1


class ExportError(ValueError):
    """An instance that cannot be written or read as asked; reported in one line."""


def role(name: str) -> str:
    return ROLES.get(name[:1], "other")


def edge_meaning(puzzle: Puzzle, e: int) -> str:
    a, b = puzzle.edge_points[e]
    return f"edge {e}: {puzzle.point_name(a)} - {puzzle.point_name(b)}"


def label_variables(model: Model) -> list[dict[str, Any]]:
    """The polynomial files' variables, in file order: index, model label, name, role, and
    what it stands for (an edge's points, a face, the constraint an auxiliary serves)."""
    p = model.puzzle
    owner: dict[Any, str] = {}  # auxiliary label -> what it serves
    for piece in model.pieces:
        c = piece.constraint
        if c.kind == "degree":
            what = f"the degree rule at {p.point_name(c.index)}"
        elif c.kind == "clue":
            what = f"the clue of {p.face_name(c.index)}"
        else:
            what = f"{c.kind} {c.index}"  # cut 3, region 0, no_square 5, ...
        for lb in piece.aux:
            owner.setdefault(lb, f"auxiliary of {what}")
    out = []
    for i, label in enumerate(model.labels):
        name = model.label_name(label)
        kind = role(name)
        if kind == "edge":
            meaning = edge_meaning(p, label)
        elif kind == "face":
            f = int(name[1:])
            meaning = f"{p.face_name(f)}: 1 inside the loop, 0 outside"
        else:
            meaning = owner.get(label, "auxiliary")
        out.append({"index": i, "label": label, "name": name, "role": kind, "of": meaning})
    return out


def edge_variables(puzzle: Puzzle, first: int = 0) -> list[dict[str, Any]]:
    """The exact files' answer variables: edge e is ``x<e>`` (file index e + ``first``)."""
    return [
        {
            "index": e + first,
            "label": e,
            "name": f"x{e}",
            "role": "edge",
            "of": edge_meaning(puzzle, e),
        }
        for e in range(puzzle.num_edges)
    ]


def puzzle_info(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as text others read: its one-line form, Loopy game ID, puzz.link URL."""
    from slitherbench.puzzles.formats import WRITERS

    info: dict[str, Any] = {
        "name": puzzle.name,
        "board": puzzle.board.kind,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "faces": puzzle.num_faces,
        "edges": puzzle.num_edges,
        "points": puzzle.num_points,
        "clues": puzzle.num_clues,
        "rules": list(puzzle.rules),
        "text": puzzle.to_text(),
    }
    for key, fmt in (("loopy_id", "loopy"), ("puzzlink", "puzzlink")):
        try:
            info[key] = WRITERS[fmt](puzzle)
        except (ValueError, KeyError, AttributeError, TypeError):
            info[key] = None  # a board or a variant the format does not hold
    return info


def harness_info() -> dict[str, str]:
    from slitherbench.method.provenance import provenance

    prov = provenance()
    return {
        "slitherbench": str(prov.get("version_slitherbench", "")),
        "git_commit": str(prov.get("git_commit", "")),
    }


def polynomial_stats(poly: Mapping[tuple[Any, ...], float]) -> dict[str, Any]:
    """Terms by degree and the coefficient range (constant excluded)."""
    degrees = Counter(len(t) for t in poly if t)
    coeffs = [c for t, c in poly.items() if t]
    return {
        "num_terms": sum(degrees.values()),
        "terms_by_degree": ";".join(f"{d}:{n}" for d, n in sorted(degrees.items())),
        "max_degree": max(degrees, default=0),
        "coef_min": min(coeffs, default=0),
        "coef_max": max(coeffs, default=0),
        "offset": poly.get((), 0),
    }


def variables_by_role(variables: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    counts = Counter(v["role"] for v in variables)
    return {f"{r}_vars": counts.get(r, 0) for r in (*ROLES.values(), "other")}
