"""Fair tuning: ``python -m slitherbench experiment=tune``.

Per cell (formulation x backend), an Optuna study (TPE, seeded) searches the penalty weights
(clue, degree, cut) and the backend's declared effort parameter (``Backend.effort``, e.g.
sweeps) to minimise TTS99 on a training suite of generated puzzles that no evaluation suite
contains. Each Optuna trial runs the iterative method on every training puzzle and seed;
TTS99 uses tau = the time budget and p = (solved + 0.5) / (ran + 1), so that settings that
solve nothing are still ranked (by how close they came: never better than any that solved).
A new study's first trial is the cell's own (untuned) setting, so the tuned setting is never
worse than the untuned one on the training suite, and the written file says whether it beat it.
The study lives in ``<results_dir>/optuna.db`` (SQLite): a re-run adds only the missing trials.
The best settings go to ``<tuned_dir>/<form>_<backend>.yaml`` with the study's provenance;
``experiment=hubo_vs_qubo tuned=true`` runs the comparison with them.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import optuna
import pandas as pd
from omegaconf import DictConfig, OmegaConf

from slitherbench.analysis import stats
from slitherbench.method.provenance import provenance
from slitherbench.method.record import ConfigError
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run.plan import (
    cell_specs,
    compose_cell,
    derive_seed,
    puzzles_from_config,
    validate_config,
)
from slitherbench.run.runner import run_trial


def search_space(
    trial: optuna.Trial, cell_spec: dict[str, Any], tune: DictConfig, effort: dict
) -> dict:
    lo, hi = (int(v) for v in tune.weights)
    fp = {
        f"{k}_weight": trial.suggest_int(f"{k}_weight", lo, hi) for k in ("clue", "degree", "cut")
    }
    bp = {name: trial.suggest_int(name, a, b, log=True) for name, (a, b) in effort.items()}
    return {
        **cell_spec,
        "formulation_params": {**(cell_spec.get("formulation_params") or {}), **fp},
        "backend_params": {**(cell_spec.get("backend_params") or {}), **bp},
    }


def evaluate(spec: dict[str, Any], puzzles: list[Puzzle], cfg: DictConfig) -> dict[str, float]:
    """Run the training suite with one setting: solved, ran and the smoothed TTS99."""
    cell = compose_cell(spec)
    k = n = 0
    reasons = set()
    for p in puzzles:
        for rep in range(int(cfg.repetitions)):
            seed = derive_seed(int(cfg.base_seed), p, rep)
            t = run_trial(
                p,
                cell.formulation,
                cell.backend,
                seed,
                int(cfg.max_iterations),
                float(cfg.time_limit_s),
            ).trial
            if t.status in ("skipped", "error"):
                reasons.add(t.reason)
                continue
            n += 1
            k += t.status == "solved"
    tts = stats.tts99(float(cfg.time_limit_s), (k + 0.5) / (n + 1)) if n else float("inf")
    return {"solved": k, "ran": n, "tts99_s": tts, "reason": "; ".join(sorted(reasons))[:200]}


def open_storage(
    url: str, waits: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8)
) -> optuna.storages.BaseStorage:
    """Open (and on first use create) the study storage.

    Processes tuning one cell each (``cell=K``) may start at once on a new SQLite file; both then
    create its tables and one fails with "table ... already exists". The tables are there for
    the second try, so it waits and tries again (``waits``: seconds before each retry); the
    last try's error is raised.
    """
    from sqlalchemy.exc import OperationalError

    for wait in waits:
        try:
            return optuna.storages.RDBStorage(url)
        except OperationalError as e:
            if "already exists" not in str(e):
                raise
            time.sleep(wait)
    return optuna.storages.RDBStorage(url)


def tune_cell(
    spec: dict[str, Any],
    cfg: DictConfig,
    puzzles: list[Puzzle],
    storage: str | optuna.storages.BaseStorage,
) -> dict | None:
    label = f"{spec['formulation']}_{spec['backend']}"
    effort = compose_cell(spec).backend.effort
    study = optuna.create_study(
        study_name=label,
        storage=storage,
        load_if_exists=True,
        direction="minimize",
        sampler=optuna.samplers.TPESampler(seed=int(cfg.tune.seed)),
    )
    if not study.trials:
        study.enqueue_trial(untuned_params(spec, effort), user_attrs={"untuned": True})
    done = sum(t.state == optuna.trial.TrialState.COMPLETE for t in study.trials)
    left = max(0, int(cfg.tune.n_trials) - done)
    print(f"tuning {label}: {done} trials done, {left} to run", file=sys.stderr, flush=True)

    def objective(trial: optuna.Trial) -> float:
        res = evaluate(search_space(trial, spec, cfg.tune, effort), puzzles, cfg)
        for key, v in res.items():
            trial.set_user_attr(key, v)
        if res["ran"] == 0:
            raise optuna.TrialPruned(f"nothing ran: {res['reason']}")
        return res["tts99_s"]

    if left:
        study.optimize(objective, n_trials=left, show_progress_bar=bool(cfg.progress))
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if not complete:
        print(
            f"note: {label} not tuned: no setting could run ({_pruned_reason(study)})",
            file=sys.stderr,
        )
        return None
    return write_tuned(study, spec, effort, cfg, puzzles)


def untuned_params(spec: dict[str, Any], effort: dict) -> dict[str, int]:
    """The cell's own setting of the searched parameters (its config's weights and effort).

    A value outside the search range is kept as it is (Optuna warns): the baseline is the
    setting the untuned cell runs, not the nearest point of the range."""
    cell = compose_cell(spec)
    weights = cell.formulation.params()
    out = {f"{k}_weight": int(weights[f"{k}_weight"]) for k in ("clue", "degree", "cut")}
    out.update({name: int(cell.backend.params[name]) for name in effort})
    return out


def _untuned_trial(study: optuna.Study) -> optuna.trial.FrozenTrial | None:
    return next(
        (
            t
            for t in study.trials
            if t.user_attrs.get("untuned") and t.state == optuna.trial.TrialState.COMPLETE
        ),
        None,
    )


def _pruned_reason(study: optuna.Study) -> str:
    return next(
        (str(t.user_attrs.get("reason", "")) for t in study.trials if t.user_attrs.get("reason")),
        "?",
    )


def write_tuned(
    study: optuna.Study, spec: dict, effort: dict, cfg: DictConfig, puzzles: list[Puzzle]
) -> dict:
    best = study.best_trial
    base = _untuned_trial(study)
    out = {
        "formulation_params": {k: v for k, v in best.params.items() if k.endswith("_weight")},
        "backend_params": {k: v for k, v in best.params.items() if k in effort},
        "study": {
            "name": study.study_name,
            "trials": len([t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]),
            "best_tts99_s": best.value,
            "best_solved": best.user_attrs.get("solved"),
            "best_ran": best.user_attrs.get("ran"),
            # the cell's own setting on the same suite (None: a study made before the baseline)
            "untuned_tts99_s": None if base is None else base.value,
            "untuned_solved": None if base is None else base.user_attrs.get("solved"),
            "untuned_ran": None if base is None else base.user_attrs.get("ran"),
            "beats_untuned": None if base is None else bool(best.value < base.value),
            "objective": "TTS99, tau = time_limit_s, p = (solved + 0.5) / (ran + 1)",
            "training_puzzles": [p.name for p in puzzles],
            "repetitions": int(cfg.repetitions),
            "time_limit_s": float(cfg.time_limit_s),
            "max_iterations": int(cfg.max_iterations),
            "sampler": f"TPE seed {int(cfg.tune.seed)}",
            "written": pd.Timestamp.now(tz="UTC").isoformat(),
            "git_commit": provenance()["git_commit"],
            "host": provenance()["host"],
        },
    }
    path = Path(cfg.tuned_dir) / f"{spec['formulation']}_{spec['backend']}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    head = f"# Written by experiment=tune ({study.study_name}); edit by running it again.\n"
    path.write_text(head + OmegaConf.to_yaml(OmegaConf.create(out)))
    versus = (
        ""
        if base is None
        else f" (untuned {base.value:.3g} s: {'beaten' if best.value < base.value else 'not beaten'})"
    )
    print(
        f"{study.study_name}: best TTS99 {best.value:.3g} s{versus} with "
        f"{json.dumps(best.params)} -> {path}"
    )
    return out


def _whole(value: Any) -> int | None:
    text = str(value).strip()
    return int(text) if text.lstrip("-").isdigit() else None


def validate_tune(cfg: DictConfig) -> None:
    """The tuner's own settings, checked before any study is opened: one line each."""
    tune = cfg.get("tune") or {}
    if not isinstance(tune, DictConfig | dict):
        raise ConfigError(
            f"tune={tune!r}: the tuning budget is a mapping (n_trials, weights, seed, storage); "
            "experiment=tune sets it"
        )
    n = _whole(tune.get("n_trials"))
    if n is None or n < 1:
        raise ConfigError(f"tune.n_trials={tune.get('n_trials')}: a whole number, 1 or more")
    weights = tune.get("weights")
    bounds = [_whole(w) for w in weights] if OmegaConf.is_list(weights) else []
    if len(bounds) != 2 or None in bounds or not 1 <= bounds[0] <= bounds[1]:
        shown = OmegaConf.to_container(weights) if OmegaConf.is_config(weights) else weights
        raise ConfigError(
            f"tune.weights={shown}: two whole numbers LOW, HIGH (1 <= LOW <= HIGH), the range "
            "of clue_weight, degree_weight and cut_weight"
        )
    if _whole(tune.get("seed")) is None:
        raise ConfigError(f"tune.seed={tune.get('seed')}: a whole number")
    storage = tune.get("storage")
    if storage is not None and "://" not in str(storage):
        raise ConfigError(
            f"tune.storage={storage}: an Optuna storage URL (sqlite:///PATH, "
            "postgresql://...), or null for <results_dir>/optuna.db"
        )
    if cfg.get("cell") is not None and int(cfg.cell) >= len(cfg.cells):
        raise ConfigError(f"cell={cfg.cell}: experiment=tune has cells 0..{len(cfg.cells) - 1}")


def _storage(url: str, setting: str) -> optuna.storages.BaseStorage:
    """The study storage, or one line naming the setting it came from."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    try:
        return open_storage(url)
    except (SQLAlchemyError, ArgumentError, ValueError, ImportError) as exc:
        why = " ".join(str(exc).split("(Background on this error")[0].split())
        raise ConfigError(f"{setting}: cannot open the study storage {url} ({why})") from None


def run_tuning(cfg: DictConfig) -> pd.DataFrame:
    """Tune every cell of the experiment; return one row per cell with its best setting."""
    validate_config(cfg)
    if cfg.cells is None:
        raise ConfigError("experiment=tune needs a list of cells to tune")
    validate_tune(cfg)
    cell_specs(cfg)  # every cell a formulation and a backend, before anything is made
    out = Path(str(cfg.results_dir))
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        if cfg.tune.get("storage"):
            storage = _storage(str(cfg.tune.storage), "tune.storage")
        else:
            storage = _storage(f"sqlite:///{(out / 'optuna.db').resolve()}", "results_dir")
    except ConfigError:
        if made:  # a refused storage leaves nothing behind
            with contextlib.suppress(OSError):
                out.rmdir()
        raise
    puzzles = puzzles_from_config(cfg.puzzle)
    rows = []
    specs = cell_specs(cfg)
    if cfg.cell is not None:
        specs = [specs[int(cfg.cell)]]
    for spec in specs:
        best = tune_cell(spec, cfg, puzzles, storage)
        rows.append(
            {
                "cell": f"{spec['formulation']}/{spec['backend']}",
                "tuned": best is not None,
                **(best or {}).get("study", {}),
            }
        )
    return pd.DataFrame(rows)
