"""Write instance files: one model, or a whole instance set with an index.

    python -m slitherbench.export puzzle=reference10 form=qubo format=qplib out=instances
    python -m slitherbench.export store=results/hubo_vs_qubo trial=KEY iteration=3 format=bqm
    python -m slitherbench.export suite=headline forms=cons,hubo,qubo variables=edge,face out=set
    python -m slitherbench.export store=results/hubo_vs_qubo iteration=all out=runs

Settings (key=value):
  puzzle      a built-in name (reference10, a loopy_dev id) or puzzle text (rows joined by /,
              a puzz.link URL, a Loopy game ID)
  puzzle_file a file holding puzzle text (any format puzzle= reads; a board too large for
              the command line)
  form        cons, hubo or qubo (default qubo); forms=... in suite mode (default all three)
  variables   edge or face (default edge); a comma list in suite mode (default edge,face)
  format      qplib, bqm, hubo-json, cnf, lp, mps, smt2 (default: the form's first);
              formats=... in suite mode (default per form: qubo qplib,bqm; hubo hubo-json;
              cons cnf,lp,smt2)
  store, trial, iteration
              the model of a stored trial's iteration k (default 1; the cuts of iterations
              1..k-1 replayed from the stored samples); trial is its key, a unique start or
              part of it, or left out for a store of one trial; the puzzle and form are the
              trial's. iteration=all: every iteration of every trial matching trial= (all
              trials without it), in each form's default formats (or formats=), with
              index.csv
  suite       a built-in suite (headline, loopy_dev, tiny, grids, ...): every puzzle x form x
              variables x format, with index.csv
  out         the output directory (default instances); every file goes under it
  name        the file name without extension and without folders (default
              <puzzle>__<form>__it<k>); one model only
  max_variables
              the most variables a model may have (default 100000): a larger board is refused
              before its model is built
  degree_mode, cut, clue_weight, degree_weight, cut_weight
              the form's settings (as in conf/formulation/)
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from slitherbench.models.export import (
    DEFAULT_FORMATS,
    FORMATS,
    ExportError,
    check_degree,
    sidecar_of,
    unwritable_reason,
    write_instance,
)
from slitherbench.models.export.common import variables_by_role
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError
from slitherbench.run.export_source import FORMS, find_puzzle, make_formulation, stored_model

KEYS = {
    "puzzle", "puzzle_file", "max_variables", "form", "forms", "variables", "format", "formats", "store", "trial",
    "iteration", "suite", "out", "degree_mode", "cut", "clue_weight", "degree_weight",
    "cut_weight", "name",
}  # fmt: skip
FORM_KEYS = ("degree_mode", "cut", "clue_weight", "degree_weight", "cut_weight")
INDEX_COLUMNS = [
    "file", "format", "puzzle", "board", "rows", "cols", "faces", "edges", "form",
    "variables", "iteration", "cuts", "num_variables", "edge_vars", "face_vars",
    "point_aux_vars", "slack_vars", "file_variables", "num_terms", "terms_by_degree",
    "max_degree", "coef_min", "coef_max", "constraints", "constraints_by_kind", "bytes",
    "answer_known",
]  # fmt: skip


# A model's variables at most unless max_variables= says otherwise: a 150x150 square board's
# qubo model (68,101 variables) passes; a 250x250 board (125,500 edges) is refused unbuilt.
DEFAULT_MAX_VARIABLES = 100_000
# A stage bar appears only when the export takes longer than this (small models stay quiet).
PROGRESS_DELAY_S = 2.0


def parse_args(argv: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for arg in argv:
        key, eq, value = arg.partition("=")
        if not eq:
            raise ExportError(f"{arg!r}: settings are key=value (see --help)")
        if key not in KEYS:
            raise ExportError(f"unknown setting {key!r}; known: {', '.join(sorted(KEYS))}")
        out[key] = value
    return out


def max_variables(args: dict[str, str]) -> int:
    text = args.get("max_variables", str(DEFAULT_MAX_VARIABLES))
    if not text.isdigit() or int(text) < 1:
        raise ExportError(f"max_variables={text}: a whole number of variables, 1 or more")
    return int(text)


def check_board_size(puzzle: Any, limit: int) -> None:
    """Refused before the model is built: every form has a variable per edge at least."""
    if puzzle.num_edges > limit:
        raise ExportError(
            f"{puzzle.name or 'the puzzle'}: its {puzzle.num_edges} edges are variables of "
            f"every form, more than max_variables={limit} (raise it with max_variables=N)"
        )


def check_model_size(model: Any, limit: int) -> None:
    if model.num_variables > limit:
        raise ExportError(
            f"the {model.formulation.describe()} model of {model.puzzle.name or 'the puzzle'} "
            f"has {model.num_variables} variables, more than max_variables={limit} (raise it "
            "with max_variables=N)"
        )


# Folders this run made for out=: removed again (when empty) if the run is refused.
_MADE: list[Path] = []


def out_dir(args: dict[str, str]) -> Path:
    """The output folder, made and checked writable before any work: an occupied or
    unwritable ``out=`` is one line."""
    out = Path(args.get("out", "instances"))
    if out.exists() and not out.is_dir():
        raise ExportError(f"out={out}: a file is there, not a folder")
    try:
        _MADE.extend(p for p in (out, *out.parents) if not p.exists())
        out.mkdir(parents=True, exist_ok=True)
        with open(out / f".probe-{os.getpid()}", "w"):
            pass
        (out / f".probe-{os.getpid()}").unlink()
    except OSError as exc:
        raise ExportError(f"out={out}: cannot write there ({exc.strerror or exc})") from None
    return out


def forget_made() -> None:
    for d in sorted(_MADE, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):
            d.rmdir()  # only if empty: files already there are never touched
    _MADE.clear()


def checked_name(name: str) -> str:
    """``name=`` is a file name: files go only under ``out=``."""
    if name in ("", ".", "..") or Path(name).name != name or "\\" in name:
        raise ExportError(f"name={name}: a file name without folders (files go under out=)")
    return name


def puzzle_of(args: dict[str, str]) -> Any:
    """The puzzle of ``puzzle=`` (a name or text) or ``puzzle_file=`` (a file of text)."""
    if "puzzle_file" not in args:
        return find_puzzle(args["puzzle"])
    if "puzzle" in args:
        raise ExportError("puzzle= and puzzle_file= both given: say one")
    path = Path(args["puzzle_file"])
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise ExportError(f"puzzle_file={path}: cannot read it ({why})") from None
    try:
        return Puzzle.parse(text, name=path.stem)
    except PuzzleFormatError as exc:
        raise ExportError(f"puzzle_file={path}: {exc}") from None


def _form_params(args: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in FORM_KEYS:
        if k in args:
            if k.endswith("_weight") and not args[k].lstrip("-").isdigit():
                raise ExportError(f"{k}={args[k]}: a whole number")
            out[k] = int(args[k]) if k.endswith("_weight") else args[k]
    return out


def _stem(out: Path, puzzle: str, form: Any, iteration: int) -> Path:
    label = re.sub(r"[^A-Za-z0-9._+]+", "-", form.describe()).strip("-")  # hubo[aux]/face
    return out / f"{re.sub(r'[^A-Za-z0-9._+-]+', '-', puzzle)}__{label}__it{iteration}"


def _answer(puzzle: Any) -> dict[str, Any]:
    """The answer and its status (unique, multiple) for write_instance; none after a
    timeout."""
    from slitherbench.solvers.cpsat_model import solve_exact

    r = solve_exact(puzzle, time_limit_s=120)
    return {"answer": r.answer, "answer_status": r.status if r.answer else ""}


def _row(side: dict[str, Any], stem: Path) -> dict[str, Any]:
    p, stats = side["puzzle"], side.get("stats", {})
    roles = variables_by_role(side["variables"])
    row = {
        "file": side["file"],
        "format": side["format"],
        "puzzle": p["name"],
        "board": p["board"],
        "rows": p["rows"],
        "cols": p["cols"],
        "faces": p["faces"],
        "edges": p["edges"],
        "form": side["form"],
        "variables": side["variables_kind"],
        "iteration": side["iteration"],
        "cuts": side["cuts"],
        "num_variables": len(side["variables"]),
        **roles,
        "bytes": side["bytes"],
        "answer_known": side["answer"] is not None,
        **stats,
    }
    if "file_variables" not in stats:
        row["file_variables"] = len(side["variables"])
    return {k: row.get(k, "") for k in INDEX_COLUMNS}


def export_stored_set(args: dict[str, str]) -> tuple[Path, int, int, float]:
    """Every iteration's model of every stored trial matching ``trial`` (iteration=all),
    in the form's default formats (or ``formats``), with index.csv."""
    from tqdm import tqdm

    from slitherbench.run.export_source import replay, stored_trials

    t0 = time.perf_counter()
    for k in ("puzzle", "puzzle_file", "name", "form", "variables", "format", *FORM_KEYS):
        if k in args:
            raise ExportError(f"{k}= does not go with iteration=all (formats= picks formats)")
    limit = max_variables(args)
    out = out_dir(args)
    rs, hits = stored_trials(args["store"], args.get("trial", ""), many=True)
    rows, notes, total = [], [], 0
    for _, t in tqdm(list(hits.iterrows()), desc="export trials", unit="trial", file=sys.stderr):
        its = rs.iterations(trials=hits[hits["key"] == t["key"]])
        answer: dict[str, Any] | None = None
        for model, source in replay(args["store"], t, its):
            check_model_size(model, limit)
            form = model.formulation
            wanted = args["formats"].split(",") if "formats" in args else DEFAULT_FORMATS[form.name]
            usable = [f for f in wanted if not unwritable_reason(form, f, per_model=True)]
            if not usable:
                notes.append(f"{t['key']} {form.describe()}: no format of {','.join(wanted)}")
                break
            answer = answer or _answer(model.puzzle)
            stem = _stem(out, f"{model.puzzle.name}__{t['key']}", form, source["iteration"])
            for fmt in usable:
                try:
                    side = write_instance(
                        model, stem, fmt, iteration=source["iteration"], source=source, **answer
                    )
                except ExportError as exc:  # a hubo model of degree > 2 in a quadratic format
                    notes.append(f"{t['key']} iteration {source['iteration']} {fmt}: {exc}")
                    continue
                total += side["bytes"]
                rows.append(_row(side, stem))
    return _finish(out, rows, notes), len(rows), total, time.perf_counter() - t0


def _finish(out: Path, rows: list[dict[str, Any]], notes: list[str]) -> Path:
    """Write index.csv and print the notes."""
    out.mkdir(parents=True, exist_ok=True)
    index = out / "index.csv"
    with index.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=INDEX_COLUMNS)
        w.writeheader()
        w.writerows(rows)
    for n in notes:
        print(f"note: {n}", file=sys.stderr)
    return index


def export_one(args: dict[str, str]) -> list[Path]:
    from tqdm import tqdm

    from slitherbench.models.formulations import Model

    limit = max_variables(args)
    name = checked_name(args["name"]) if "name" in args else None
    if "store" in args:
        for k in ("puzzle", "puzzle_file", "form", "variables", *FORM_KEYS):
            if k in args:
                raise ExportError(f"{k}= is the stored trial's; leave it out with store=")
        k = args.get("iteration", "1")
        if not k.isdigit() or int(k) < 1:
            raise ExportError(f"iteration={k}: a number 1, 2, ... or all")
    else:
        if "puzzle" not in args and "puzzle_file" not in args:
            raise ExportError(
                "say puzzle=NAME or puzzle_file=PATH (or store= and trial=, or suite=)"
            )
        if "iteration" in args or "trial" in args:
            raise ExportError("iteration= and trial= need store=PATH")
    out = out_dir(args)
    stages = tqdm(total=3, desc="export", unit="stage", file=sys.stderr, delay=PROGRESS_DELAY_S,
                  mininterval=0, leave=False)  # fmt: skip
    with stages:
        stages.set_postfix_str("build the model", refresh=False)
        if "store" in args:
            model, source = stored_model(args["store"], args.get("trial", ""), int(k))
            iteration = source["iteration"]
        else:
            form = make_formulation(
                args.get("form", "qubo"), variables=args.get("variables", "edge"),
                **_form_params(args),
            )  # fmt: skip
            puzzle = puzzle_of(args)
            check_board_size(puzzle, limit)
            model, source, iteration = Model.build(puzzle, form), None, 1
        check_model_size(model, limit)
        form = model.formulation
        fmt = args.get("format") or DEFAULT_FORMATS[form.name][0]
        reason = unwritable_reason(form, fmt, per_model=True)
        if reason:
            raise ExportError(reason)
        check_degree(model, fmt, iteration)
        who = model.puzzle.name + (f"__{source['trial']}" if source else "")
        stem = out / name if name else _stem(out, who, form, iteration)
        stages.update()
        stages.set_postfix_str("solve for the answer", refresh=False)
        answer = _answer(model.puzzle)
        stages.update()
        stages.set_postfix_str(f"write the {fmt} file and its sidecar", refresh=False)
        side = write_instance(model, stem, fmt, iteration=iteration, source=source, **answer)
        stages.update()
    path = stem.parent / side["file"]
    return [path, sidecar_of(path)]


def export_suite(
    args: dict[str, str], puzzles: list[Any] | None = None
) -> tuple[Path, int, int, float]:
    """Every puzzle x form x variables x format of a suite (or of ``puzzles``, named by
    ``args["suite"]``); returns (index, files, bytes, seconds)."""
    from tqdm import tqdm

    from slitherbench.models.formulations import FormUnavailable, Model
    from slitherbench.sources.library import get_suite

    t0 = time.perf_counter()
    for k in ("puzzle", "puzzle_file", "name", "form", "format", "store", "trial"):
        if k in args:
            raise ExportError(f"{k}= does not go with suite= (forms=, formats= pick the models)")
    try:
        puzzles = get_suite(args["suite"]) if puzzles is None else puzzles
    except KeyError as exc:
        raise ExportError(str(exc.args[0])) from None
    forms = args.get("forms", ",".join(FORMS)).split(",")
    kinds = args.get("variables", "edge,face").split(",")
    formats = args["formats"].split(",") if "formats" in args else None
    for f in formats or ():
        if f not in FORMATS:
            raise ExportError(f"unknown format {f!r}; known: {', '.join(FORMATS)}")
    limit = max_variables(args)
    for p in puzzles:
        check_board_size(p, limit)
    out = out_dir(args)
    rows, notes, total = [], [], 0
    combos = [(p, f, v) for p in puzzles for f in forms for v in kinds]
    answers: dict[str, dict[str, Any]] = {}
    for p, f, v in tqdm(combos, desc=f"export {args['suite']}", unit="model", file=sys.stderr):
        form = make_formulation(f, variables=v, **_form_params(args))
        wanted = formats or DEFAULT_FORMATS[form.name]
        usable = [fmt for fmt in wanted if not unwritable_reason(form, fmt, per_model=True)]
        if not usable:
            notes.append(f"{p.name} {form.describe()}: no format of {','.join(wanted)} holds it")
            continue
        try:
            model = Model.build(p, form)
        except FormUnavailable as exc:
            notes.append(f"{p.name} {form.describe()}: {exc}")
            continue
        check_model_size(model, limit)
        if p.name not in answers:
            answers[p.name] = _answer(p)
        stem = _stem(out, p.name, form, 1)
        for fmt in usable:
            try:
                side = write_instance(model, stem, fmt, **answers[p.name])
            except ExportError as exc:  # a hubo model of degree > 2 in a quadratic format
                notes.append(f"{p.name} {form.describe()} {fmt}: {exc}")
                continue
            total += side["bytes"]
            rows.append(_row(side, stem))
    return _finish(out, rows, notes), len(rows), total, time.perf_counter() - t0


def export(args: dict[str, str]) -> None:
    """Run the export the settings ask for, printing what it wrote."""
    every = args.get("iteration") == "all"
    try:
        if "suite" in args or every:
            if "suite" in args and ("store" in args or every):
                raise ExportError("suite= writes fresh models; store= iteration=all a store's")
            if every and "store" not in args:
                raise ExportError("iteration=all needs store=PATH")
            run = export_suite if "suite" in args else export_stored_set
            index, files, size, secs = run(args)
            mb = size / 1e6
            print(f"{files} instances ({mb:.2f} MB, sidecars apart) in {secs:.1f} s: {index}")
        else:
            for path in export_one(args):
                print(path)
    except ImportError as exc:  # a format's writer or the exact solve needs a package
        package = (exc.name or str(exc)).split(".")[0]
        what = args.get("format") or args.get("formats") or "the default formats"
        raise ExportError(
            f"the package {package} is not installed; format={what} needs it "
            "(pip install -e '.[exact]' installs the exact solvers' packages)"
        ) from None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    try:
        export(parse_args(argv))
    except (ExportError, ValueError) as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        forget_made()
        return 2
    except OSError as exc:  # a full disk or a folder made read-only while writing
        print(
            f"error: cannot write {exc.filename or 'out='}: {exc.strerror or exc}", file=sys.stderr
        )
        forget_made()
        return 2
    _MADE.clear()
    return 0


if __name__ == "__main__":
    sys.exit(main())
