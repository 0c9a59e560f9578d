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

``tune.method=race`` (``experiment=tune_graded``) searches instead around the cell's own
setting and races the settings by successive halving (:mod:`.race`): the untuned setting runs
to the end, and the winner is written only where it beats it on the same runs; otherwise the
file holds the untuned setting (``beats_untuned: false``), so ``tuned=true`` adds no trials.
Each run's outcome is kept in ``<results_dir>/race/<form>_<backend>.jsonl``: a re-run runs only
what is missing. ``tune.method`` defaults to ``tpe``, the search above.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import optuna
import pandas as pd
from omegaconf import DictConfig, OmegaConf

from slitherbench.analysis import stats
from slitherbench.method.provenance import provenance
from slitherbench.method.record import ConfigError
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run import race
from slitherbench.run.plan import (
    cell_specs,
    compose_cell,
    derive_seed,
    presolve_level,
    puzzles_from_config,
    validate_config,
)
from slitherbench.run.runner import run_trial

METHODS = ("tpe", "race")
# The settings each method reads (``method`` and ``seed`` both).
TUNE_KEYS = {
    "tpe": ("method", "n_trials", "weights", "seed", "storage"),
    "race": (
        "method",
        "candidates",
        "first_runs",
        "final_runs",
        "weight_factors",
        "effort_factors",
        "seed",
    ),
}


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
    path = _write_tuned(
        cfg,
        f"{spec['formulation']}_{spec['backend']}",
        f"experiment=tune ({study.study_name})",
        out,
    )
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


def _shown(value: Any) -> Any:
    return OmegaConf.to_container(value) if OmegaConf.is_config(value) else value


def _number(value: Any) -> float | None:
    try:
        out = float(str(value).strip())
    except ValueError:
        return None
    return out if math.isfinite(out) else None


def tune_method(cfg: DictConfig) -> str:
    return str((cfg.get("tune") or {}).get("method") or "tpe")


def validate_tune(cfg: DictConfig) -> None:
    """The tuner's own settings, checked before any study is opened: one line each."""
    tune = cfg.get("tune") or {}
    if not isinstance(tune, DictConfig | dict):
        raise ConfigError(
            f"tune={tune!r}: the tuning budget is a mapping (n_trials, weights, seed, storage); "
            "experiment=tune sets it"
        )
    method = str(tune.get("method") or "tpe")
    if method not in METHODS:
        raise ConfigError(
            f"tune.method={method}: tpe (Optuna's TPE over tune.weights) or race (a search "
            "centred on the untuned setting, raced by successive halving)"
        )
    unknown = sorted(set(map(str, tune)) - set(TUNE_KEYS[method]))
    if unknown:
        raise ConfigError(
            f"tune.{unknown[0]}: not a setting of tune.method={method} "
            f"(its settings: {', '.join(TUNE_KEYS[method])})"
        )
    if method == "race":
        _validate_race(tune)
    else:
        _validate_tpe(tune)
    if cfg.get("cell") is not None and int(cfg.cell) >= len(cfg.cells):
        raise ConfigError(f"cell={cfg.cell}: experiment=tune has cells 0..{len(cfg.cells) - 1}")


def _validate_tpe(tune: Any) -> None:
    n = _whole(tune.get("n_trials"))
    if n is None or n < 1:
        raise ConfigError(f"tune.n_trials={tune.get('n_trials')}: a whole number, 1 or more")
    weights = tune.get("weights")
    bounds = [_whole(w) for w in weights] if OmegaConf.is_list(weights) else []
    if len(bounds) != 2 or None in bounds or not 1 <= bounds[0] <= bounds[1]:
        shown = _shown(weights)
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


def _validate_race(tune: Any) -> None:
    n = _whole(tune.get("candidates"))
    if n is None or n < 2:
        raise ConfigError(
            f"tune.candidates={tune.get('candidates')}: a whole number, 2 or more (the "
            "settings raced, the untuned one among them)"
        )
    first = _whole(tune.get("first_runs"))
    if first is None or first < 1:
        raise ConfigError(
            f"tune.first_runs={tune.get('first_runs')}: a whole number, 1 or more (the runs "
            "each setting makes before the first halving)"
        )
    final = _whole(tune.get("final_runs"))
    if final is None or final < first:
        raise ConfigError(
            f"tune.final_runs={tune.get('final_runs')}: a whole number, at least "
            f"tune.first_runs ({first}) (the runs each finalist makes)"
        )
    for key in ("weight_factors", "effort_factors"):
        value = tune.get(key)
        pair = [_number(v) for v in value] if OmegaConf.is_list(value) else []
        if len(pair) != 2 or None in pair or not 0 < pair[0] <= 1 <= pair[1]:  # type: ignore[operator]
            shown = _shown(value)
            raise ConfigError(
                f"tune.{key}={shown}: two numbers LOW, HIGH with 0 < LOW <= 1 <= HIGH "
                "(the search runs from LOW to HIGH times the untuned value)"
            )
    if _whole(tune.get("seed")) is None:
        raise ConfigError(f"tune.seed={tune.get('seed')}: a whole number")


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
    if tune_method(cfg) == "race":
        return _run_race(cfg, out)
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


def _run_race(cfg: DictConfig, out: Path) -> pd.DataFrame:
    puzzles = puzzles_from_config(cfg.puzzle)
    out.mkdir(parents=True, exist_ok=True)
    specs = cell_specs(cfg)
    if cfg.cell is not None:
        specs = [specs[int(cfg.cell)]]
    rows = []
    for spec in specs:
        best = race_cell(spec, cfg, puzzles, out)
        rows.append(
            {
                "cell": f"{spec['formulation']}/{spec['backend']}",
                "tuned": best is not None,
                **{
                    k: v
                    for k, v in (best or {}).get("study", {}).items()
                    if not isinstance(v, list | dict)
                },
            }
        )
    return pd.DataFrame(rows)


# -- tune.method=race ---------------------------------------------------------------------

RunOne = Callable[[dict[str, Any], Puzzle, int, DictConfig], race.Outcome]


def run_one(spec: dict[str, Any], puzzle: Puzzle, rep: int, cfg: DictConfig) -> race.Outcome:
    """One race run: the setting on one training board with seed ``rep`` (the evaluation's
    seeds, from base_seed)."""
    cell = compose_cell(spec)
    t = run_trial(
        puzzle,
        cell.formulation,
        cell.backend,
        derive_seed(int(cfg.base_seed), puzzle, rep),
        int(cfg.max_iterations),
        float(cfg.time_limit_s),
        warm_start=str(cfg.get("warm_start") or "previous"),
        presolve=presolve_level(cfg),
    ).trial
    ran = t.status not in ("skipped", "error", "presolved")
    return race.Outcome(
        solved=t.status == "solved",
        wall_s=float(t.wall_s),
        ran=ran,
        reason="" if ran else f"{t.status}: {t.reason}"[:200],
    )


def _with_params(spec: dict[str, Any], params: dict[str, int], effort: dict) -> dict[str, Any]:
    fp = {k: v for k, v in params.items() if k in race.WEIGHTS}
    bp = {k: v for k, v in params.items() if k in effort}
    return {
        **spec,
        "formulation_params": {**(spec.get("formulation_params") or {}), **fp},
        "backend_params": {**(spec.get("backend_params") or {}), **bp},
    }


class RunLog:
    """The race's runs, one JSON line each (setting's config hash, board, seed): a re-run of
    the race reads them back instead of running them again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.done: dict[tuple[str, str, int], race.Outcome] = {}
        if path.exists():
            for line in path.read_text().splitlines():
                with contextlib.suppress(ValueError, KeyError):  # a line cut short by a stop
                    d = json.loads(line)
                    self.done[(d["setting"], d["puzzle"], int(d["rep"]))] = race.Outcome(
                        bool(d["solved"]), float(d["wall_s"]), bool(d["ran"]), str(d["reason"])
                    )

    def get(self, key: tuple[str, str, int]) -> race.Outcome | None:
        return self.done.get(key)

    def put(self, key: tuple[str, str, int], o: race.Outcome) -> None:
        self.done[key] = o
        self.path.parent.mkdir(parents=True, exist_ok=True)
        setting, puzzle, rep = key
        row = {"setting": setting, "puzzle": puzzle, "rep": rep, **o.__dict__}
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")


def _race_settings(
    spec: dict[str, Any], cfg: DictConfig, effort: str | None
) -> list[dict[str, int]]:
    """The settings raced: the untuned one first, then those drawn around it."""
    tune = cfg.tune
    return race.candidates(
        untuned_params(spec, effort),
        [float(v) for v in tune.weight_factors],
        [float(v) for v in tune.effort_factors],
        int(tune.candidates),
        int(tune.seed),
    )


def _announce_race(label: str, n: int, first: int, final: int, boards: int, limit_s: float) -> None:
    """The race's plan and its worst-case cost, before any run."""
    worst = race.planned_runs(n, first, final)
    total = sum(k * r for k, r in worst)
    print(
        f"racing {label}: {n} settings, runs per setting "
        f"{' -> '.join(str(r) for _, r in worst)} on {boards} boards; at most {total} runs "
        f"x {limit_s:g} s = {total * limit_s / 3600:.2g} h",
        file=sys.stderr,
        flush=True,
    )


def race_cell(
    spec: dict[str, Any],
    cfg: DictConfig,
    puzzles: list[Puzzle],
    out: Path,
    runner: RunOne = run_one,
) -> dict | None:
    """Race one cell's settings (:mod:`.race`) on the training boards and write the tuned
    file: the winner where it beats the untuned setting on the finalists' runs, else the
    untuned setting. None (nothing written) where no run of any setting ran."""
    label = f"{spec['formulation']}_{spec['backend']}"
    effort = compose_cell(spec).backend.effort
    settings = _race_settings(spec, cfg, effort)
    specs = [_with_params(spec, s, effort) for s in settings]
    keys = [compose_cell(s).config_hash(cfg) for s in specs]
    first, final = int(cfg.tune.first_runs), int(cfg.tune.final_runs)
    _announce_race(label, len(settings), first, final, len(puzzles), float(cfg.time_limit_s))
    log = RunLog(out / "race" / f"{label}.jsonl")
    reasons = set()
    measured = {"new": 0, "ran": 0}

    def measure(c: int, k: int) -> race.Outcome:
        p, rep = puzzles[k % len(puzzles)], k // len(puzzles)
        key = (keys[c], str(p.name or "".join(p.to_rows())), rep)
        o = log.get(key)
        if o is None:
            o = runner(specs[c], p, rep, cfg)
            log.put(key, o)
            measured["new"] += 1
        measured["ran"] += o.ran
        if o.reason:
            reasons.add(o.reason)
        return o

    def said(rung: race.Rung) -> None:
        top = rung.settings[0]
        s = rung.scores[top]
        print(
            f"racing {label}: {len(rung.settings)} settings x {rung.runs} runs; best "
            f"{json.dumps(settings[top])} solved {s.solved}/{s.runs}"
            + (f", {len(rung.kept)} go on" if rung.kept else ""),
            file=sys.stderr,
            flush=True,
        )

    result = race.race(len(settings), measure, first, final, on_rung=said)
    _write_race_rows(out / "race" / f"{label}.csv", settings, result)
    if not measured["ran"]:
        why = "; ".join(sorted(reasons))[:200] or "?"
        print(f"note: {label} not tuned: no setting could run ({why})", file=sys.stderr)
        return None
    return write_race(spec, settings, result, cfg, puzzles)


def _write_race_rows(path: Path, settings: list[dict[str, int]], result: race.RaceResult) -> None:
    rows = [
        {
            "rung": k,
            "runs": rung.runs,
            "setting": c,
            "untuned": c == 0,
            **settings[c],
            "solved": rung.scores[c].solved,
            "ran": rung.scores[c].ran,
            "median_s": rung.scores[c].median_s,
            "goes_on": c in rung.kept,
            "winner": k == len(result.rungs) - 1 and c == result.winner,
        }
        for k, rung in enumerate(result.rungs)
        for c in rung.settings
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(path, index=False)


def _write_tuned(cfg: DictConfig, label: str, written_by: str, out: dict) -> Path:
    """Write a cell's tuned file, ``<tuned_dir>/<label>.yaml``, headed by what wrote it."""
    path = Path(cfg.tuned_dir) / f"{label}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    head = f"# Written by {written_by}; edit by running it again.\n"
    path.write_text(head + OmegaConf.to_yaml(OmegaConf.create(out)))
    return path


def _score_fields(prefix: str, s: race.Score, tts99_s: float) -> dict[str, float | int]:
    """A race score as the tuned file records it (``best_*`` or ``untuned_*``)."""
    return {
        f"{prefix}_tts99_s": tts99_s,
        f"{prefix}_solved": s.solved,
        f"{prefix}_ran": s.runs,
        f"{prefix}_median_s": s.median_s,
    }


def write_race(
    spec: dict[str, Any],
    settings: list[dict[str, int]],
    result: race.RaceResult,
    cfg: DictConfig,
    puzzles: list[Puzzle],
) -> dict:
    """The tuned file of a race: the winner only where it beats the untuned setting (the
    first) on the finalists' runs, else the untuned setting, so ``tuned=true`` runs the cell
    under its untuned key (no new trials) unless the tuning won."""
    label = f"{spec['formulation']}_{spec['backend']}"
    beats = result.beats_untuned
    chosen = settings[result.winner] if beats else settings[0]
    best, base = result.final[result.winner if beats else 0], result.final[0]
    tau = float(cfg.time_limit_s)

    def tts(s: race.Score) -> float:
        return stats.tts99(tau, (s.solved + 0.5) / (s.runs + 1))

    tune = cfg.tune
    out = {
        "formulation_params": {k: v for k, v in chosen.items() if k in race.WEIGHTS},
        "backend_params": {k: v for k, v in chosen.items() if k not in race.WEIGHTS},
        "study": {
            "name": label,
            "method": "race",
            "trials": len(settings),
            **_score_fields("best", best, tts(best)),
            **_score_fields("untuned", base, tts(base)),
            "beats_untuned": bool(beats),
            "winner": settings[result.winner],
            "finalists": [settings[c] for c in result.finalists],
            "objective": "success rate over the finalists' runs (solved / runs), then the "
            "median wall time of solved runs; TTS99: tau = time_limit_s, "
            "p = (solved + 0.5) / (runs + 1)",
            "rungs": [{"settings": len(r.settings), "runs": r.runs} for r in result.rungs],
            "weight_factors": [float(v) for v in tune.weight_factors],
            "effort_factors": [float(v) for v in tune.effort_factors],
            "training_puzzles": [p.name for p in puzzles],
            "time_limit_s": tau,
            "max_iterations": int(cfg.max_iterations),
            "sampler": f"log-uniform around the untuned setting, seed {int(tune.seed)}",
            "written": pd.Timestamp.now(tz="UTC").isoformat(),
            "git_commit": provenance()["git_commit"],
            "host": provenance()["host"],
        },
    }
    path = _write_tuned(cfg, label, f"experiment={cfg.experiment_name} ({label}, race)", out)
    print(
        f"{label}: best {json.dumps(settings[result.winner])} solved {best.solved}/{best.runs} "
        f"(untuned {base.solved}/{base.runs}: {'beaten' if beats else 'not beaten'}) -> {path}"
    )
    return out
