"""Instances as files: the model of a puzzle x form x variables (at the start, or after the
cuts of a stored trial's iteration k) in the field's formats, each with a JSON sidecar.

==========  ==========================  =====================================================
format      file                        holds
==========  ==========================  =====================================================
qplib       ``.qplib``                  a quadratic form (qubo): QPLIB's QBN text format
bqm         ``.bqm``                    a quadratic form: dimod's BQM serialisation
hubo-json   ``.hubo``                   any penalty form (hubo, qubo): JSON of terms
cnf         ``.cnf``                    the cons form's description: DIMACS CNF
lp, mps     ``.lp``, ``.mps``           the cons form's description: rows, written by HiGHS
smt2        ``.smt2``                   the cons form's description: SMT-LIB 2 (QF_LIA), by z3
==========  ==========================  =====================================================

``python -m slitherbench.export --help`` writes them; docs/instances/ describes each.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from slitherbench.method.record import Capability
from slitherbench.models.export.common import (
    SIDECAR_VERSION,
    ExportError,
    harness_info,
    puzzle_info,
)
from slitherbench.models.formulations import Formulation, Model

FORMATS = ("qplib", "bqm", "hubo-json", "cnf", "lp", "mps", "smt2")
_MODULES = {"hubo-json": "hubo"}
# The formats a suite writes for each form by default.
DEFAULT_FORMATS = {"qubo": ("qplib", "bqm"), "hubo": ("hubo-json",), "cons": ("cnf", "lp", "smt2")}
ENERGY_RULE = {
    "polynomial": "the file's polynomial; 0 exactly at the assignments the harness accepts "
    "(every penalty 0), never below 0",
    "constraints": "feasibility: an assignment of the edges that some values of the file's "
    "auxiliaries complete to a model has energy 0 in the cons form; any other has energy > 0",
}

__all__ = [
    "DEFAULT_FORMATS",
    "FORMATS",
    "ExportError",
    "format_module",
    "read",
    "read_sidecar",
    "sidecar_of",
    "unwritable_reason",
    "write_instance",
]


def format_module(fmt: str) -> ModuleType:
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return importlib.import_module(f"{__name__}.{_MODULES.get(fmt, fmt)}")


def unwritable_reason(formulation: Formulation, fmt: str, per_model: bool = False) -> str | None:
    """Why a form's models can never be written as ``fmt`` (None: they can). A hubo form's
    models may have terms of degree > 2, which a quadratic format cannot hold: refused here,
    or with ``per_model`` left to :func:`write_instance`, which writes a model of degree 2
    (hubo[aux] before its first cut) and refuses one of higher degree, with both numbers."""
    mod = format_module(fmt)
    name = formulation.describe()
    if mod.FAMILY == "constraints":
        if not formulation.native:
            return f"format {fmt} holds the constraint description (form cons), not {name}"
        if formulation.faces:
            return f"format {fmt} holds edge variables; {name} has face variables"
        return None
    if formulation.native:
        return f"format {fmt} holds a penalty polynomial; {name} has native constraints"
    if mod.QUADRATIC and Capability.QUADRATIC not in formulation.produces and not per_model:
        return f"format {fmt} holds quadratic models; {name} has higher-degree terms"
    return None


def check_degree(model: Model, fmt: str, iteration: int = 1) -> None:
    """Refuse a model a quadratic ``fmt`` cannot hold: a term of higher degree (a hubo
    model's exact degree rule, or its loop cuts after iteration 1)."""
    mod = format_module(fmt)
    form = model.formulation
    if mod.QUADRATIC and not form.native and model.max_degree > 2:
        raise ExportError(
            f"format {fmt} holds terms of degree 2 at most; the {form.describe()} model of "
            f"{model.puzzle.name or 'the puzzle'} at iteration {iteration} has degree "
            f"{model.max_degree}: write it as hubo-json, or use form=qubo"
        )


def paths_of(stem: Path | str, fmt: str) -> tuple[Path, Path]:
    """(instance file, sidecar) for a stem: ``<stem><extension>`` and that name + ``.json``."""
    path = Path(f"{stem}{format_module(fmt).EXTENSION}")
    return path, sidecar_of(path)


def sidecar_of(path: Path | str) -> Path:
    """An instance file's sidecar: its name with ``.json`` added."""
    return Path(f"{path}.json")


def write_instance(
    model: Model,
    stem: Path | str,
    fmt: str,
    *,
    answer: Sequence[bool] | None = None,
    answer_status: str = "",
    iteration: int = 1,
    source: dict[str, Any] | None = None,
    title: str = "",
) -> dict[str, Any]:
    """Write ``model`` as ``fmt`` to ``<stem><extension>`` and its sidecar beside it;
    returns the sidecar. ``answer`` (edges) is checked to have energy 0 and stored, with
    ``answer_status`` (``unique`` or ``multiple``: what the exact solve proved)."""
    mod = format_module(fmt)
    path, sidecar_path = paths_of(stem, fmt)
    form = model.formulation
    check_degree(model, fmt, iteration)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written under temporary names and renamed, the sidecar first: an interrupted or failed
    # write leaves no half file, never a file without its description, and keeps the old one.
    # The temporary file keeps the extension (HiGHS picks LP or MPS by it).
    part = f".{os.getpid()}.part"
    file_part = path.with_name(f".{path.name}{part}{mod.EXTENSION}")
    sidecar_part = sidecar_path.with_name(f".{sidecar_path.name}{part}")
    try:
        got = mod.write(model, file_part, title=title or path.name)
        side: dict[str, Any] = {
            "sidecar_version": SIDECAR_VERSION,
            "file": path.name,
            "format": fmt,
            "puzzle": puzzle_info(model.puzzle),
            "form": form.describe(),
            "formulation": form.name,
            "formulation_params": form.params(),
            "variables_kind": form.variables,
            "iteration": iteration,
            "cuts": model.num_cuts,
            "source": source,
            "optimum_energy": 0,
            "energy_rule": ENERGY_RULE[mod.FAMILY],
            "sample_variables": "values for 'variables' in this order: one 0/1 per line, or a "
            "JSON object {name: 0/1}",
            "index_base": getattr(mod, "INDEX_BASE", 0),
            "variables": got.pop("variables"),
            **got,
            "answer": None,
            "harness": harness_info(),
        }
        if answer is not None:
            side["answer"] = answer_record(model, answer, side["variables"])
            side["answer"]["status"] = answer_status
        sidecar_part.write_text(sidecar_text(side))
        os.replace(sidecar_part, sidecar_path)
        os.replace(file_part, path)
    finally:
        for part_path in (file_part, sidecar_part):
            part_path.unlink(missing_ok=True)
    side["bytes"] = path.stat().st_size
    return side


def sidecar_text(side: dict[str, Any]) -> str:
    """The sidecar as JSON: one key per line, one variable per line (a board's thousands of
    variables stay readable and small)."""
    lines = []
    for key, value in side.items():
        if key == "variables":
            rows = ",\n  ".join(json.dumps(v, separators=(",", ":")) for v in value)
            lines.append(f'"variables": [\n  {rows}\n ]')
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n " + ",\n ".join(lines) + "\n}\n"


def answer_record(
    model: Model, answer: Sequence[bool], variables: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    sample = model.complete(answer)
    energy = model.energy(sample)
    if energy != 0:
        raise ExportError(f"the answer has energy {energy} in this model (cut away?)")
    return {
        "edges": "".join("1" if on else "0" for on in answer),
        "values": [int(sample.get(v["label"], 0)) for v in variables],
        "energy": 0,
    }


def read(path: Path | str, fmt: str | None = None) -> Any:
    """Read an instance file back (the format from the sidecar beside it, else ``fmt``)."""
    path = Path(path)
    if fmt is None:
        fmt = read_sidecar(path)["format"]
    return format_module(fmt).read(path)


def read_sidecar(path: Path | str) -> dict[str, Any]:
    """The sidecar of an instance file (its name + ``.json``, beside it)."""
    side = sidecar_of(path)
    if not side.exists():
        raise ExportError(f"{path}: no sidecar ({side.name}) beside it")
    return json.loads(side.read_text())
