"""Where an exported model comes from: a puzzle and a form by name, or a stored trial's
iteration k (the model the backend was given at that solve, rebuilt by replaying the cuts of
the trial's earlier iterations from their stored edges, as the runner added them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from slitherbench.models.export.common import ExportError
from slitherbench.models.formulations import Formulation, Model
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError, answer_from_bits

CONF = Path(__file__).resolve().parents[2] / "conf"
FORMS = ("cons", "hubo", "qubo")


def make_formulation(form: str, **params: Any) -> Formulation:
    """A formulation from its config file (conf/formulation/<form>.yaml) and parameters."""
    import importlib

    import yaml

    path = CONF / "formulation" / f"{form}.yaml"
    if not path.exists():
        raise ExportError(f"unknown form {form!r}; known: {', '.join(FORMS)}")
    cfg = yaml.safe_load(path.read_text())
    module, _, cls = str(cfg.pop("_target_")).rpartition(".")
    try:
        return getattr(importlib.import_module(module), cls)(**{**cfg, **params})
    except (TypeError, ValueError) as exc:
        raise ExportError(f"form {form}: {exc}") from None


def find_puzzle(name: str) -> Puzzle:
    """A built-in puzzle (reference10, a loopy_dev id) or any puzzle text the harness reads
    (rows joined by /, a puzz.link URL, a Loopy game ID)."""
    from slitherbench.sources.library import get_puzzle, loopy_dev

    try:
        return get_puzzle(name)
    except KeyError:
        pass
    try:
        return Puzzle.parse(name, name="custom")
    except PuzzleFormatError as exc:
        example = loopy_dev()[0].name
        raise ExportError(
            f"unknown puzzle {name!r}: not a built-in name (reference10, a loopy_dev id such "
            f"as {example}) nor puzzle text the harness reads ({exc})"
        ) from None


def stored_trials(store: Path | str, trial: str, many: bool = False) -> tuple[Any, Any]:
    """(the store, its trial rows matching ``trial``): the key, a unique start or part of
    it, or empty for a store of one trial; with ``many``, every trial that matches (all of
    them for an empty ``trial``)."""
    from slitherbench.store.result_store import ResultStore

    root = Path(store)
    if not root.exists():
        raise ExportError(f"no store at {root}")
    rs = ResultStore(root)
    trials = rs.trials()
    if trials.empty:
        raise ExportError(f"{root}: no trials stored")
    keys = trials["key"].astype(str)
    hits = trials if not trial else trials.iloc[:0]
    for match in (keys == trial, keys.str.startswith(trial), keys.str.contains(trial, regex=False)):
        if trial and match.any():
            hits = trials[match]
            break
    if len(hits) != 1 and not (many and len(hits)):
        some = (
            "; ".join(
                f"{r.key} ({r.puzzle}, {r.formulation}, {r.iterations} iterations)"
                for r in hits.head(4).itertuples()
            )
            or f"keys such as {keys.iloc[0]}"
        )
        what = f"trial={trial!r} matches" if trial else "say trial=KEY:"
        raise ExportError(f"{what} {len(hits)} stored trials in {root}: {some}")
    return rs, hits


def replay(store: Path | str, t: Any, its: Any) -> Iterator[tuple[Model, dict[str, Any]]]:
    """The models a stored trial's solves got, iteration 1, 2, ... (each yielded before the
    cuts of its own sample are added), each checked against the iteration's stored size
    (variables, terms, cuts), with a description of its source."""
    from slitherbench.puzzles.check import split_loops

    params = json.loads(str(t.get("formulation_params") or "{}"))
    if str(t.get("variables", "edge")) == "face":
        params.setdefault("variables", "face")
    puzzle = Puzzle.parse(str(t.puzzle_rows), name=str(t.puzzle))
    model = Model.build(puzzle, make_formulation(str(t.formulation), **params))
    for row in its.sort_values("iteration").itertuples(index=False):
        k = int(row.iteration)
        got = (model.num_variables, model.num_terms, model.num_cuts)
        want = (int(row.num_variables), int(row.num_terms), int(row.num_cuts))
        if got != want:
            raise ExportError(
                f"replaying trial {t.key} to iteration {k} gave (variables, terms, cuts) "
                f"{got}, the store says {want}: a store from another version of the form?"
            )
        yield model, {"store": str(store), "trial": str(t.key), "iteration": k}
        if row.energy != 0:
            continue  # a retried sample: no cut came of it
        edges = answer_from_bits(puzzle, str(row.edges))
        broken = model.broken_deferred(edges)
        if broken:  # a lazy form's rule broken at energy 0: the runner added it there
            model.add_deferred(broken)
            continue
        model.add_cuts(split_loops(puzzle, edges))


def stored_model(store: Path | str, trial: str, iteration: int) -> tuple[Model, dict[str, Any]]:
    """The model of stored trial ``trial`` (see :func:`stored_trials`) as its
    ``iteration``-th solve got it, and a description of that source (:func:`replay`)."""
    rs, hits = stored_trials(store, trial)
    t = hits.iloc[0]
    its = rs.iterations(trials=hits)
    n = len(its)
    if not 1 <= iteration <= n:
        raise ExportError(f"trial {t.key} has iterations 1..{n}; iteration={iteration}")
    for model, source in replay(store, t, its):
        if source["iteration"] == iteration:
            return model, source
    raise ExportError(f"trial {t.key}: iteration {iteration} is not stored")
