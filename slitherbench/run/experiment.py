"""Running an experiment: every planned trial not yet in the store, each stored as it ends.

:func:`run_experiment` is a plain function of the config and the results directory, so
tests call it with a config from Hydra's compose API.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from omegaconf import DictConfig, OmegaConf
from tqdm import tqdm

from slitherbench.method.provenance import COMMAND_ENV, provenance, run_command
from slitherbench.method.record import ConfigError, Status
from slitherbench.run.console import print_trace
from slitherbench.run.frontier import FrontierGate, size_order
from slitherbench.run.plan import (
    Job,
    hydra_runtime,
    pending,
    plan_jobs,
    presolve_level,
    resolve_cells,
    run_puzzles,
    validate_config,
)
from slitherbench.run.runner import run_trial
from slitherbench.sources.grades import grade_columns
from slitherbench.store.result_store import ResultStore


def _in_multirun() -> bool:
    hc = hydra_runtime()
    return hc is not None and hc.mode.name == "MULTIRUN"


def _store_one(store: ResultStore, job: Job, cfg: DictConfig) -> str:
    """Run one planned trial and store it; return its status."""
    cell, p = job.cell, job.puzzle
    result = run_trial(
        p,
        cell.formulation,
        cell.backend,
        job.seed,
        int(cfg.max_iterations),
        float(cfg.time_limit_s),
        warm_start=str(cfg.get("warm_start", "previous")),
        presolve=presolve_level(cfg),
    )
    t = result.trial
    t.key, t.experiment, t.config_hash = job.key, str(cfg.experiment_name), job.config_hash
    t.cell, t.repetition = cell.label, job.repetition
    t.puzzle_rows, t.difficulty = p.to_text(), str(p.meta.get("difficulty", ""))
    # Graded once per board and run (or read from the library), outside the trial's time.
    t.grade, t.grade_shares = grade_columns(p)
    t.max_iterations, t.time_limit_s = int(cfg.max_iterations), float(cfg.time_limit_s)
    t.formulation_params = json.dumps(cell.formulation.params(), sort_keys=True)
    t.backend_params = json.dumps(cell.backend.params, sort_keys=True, default=str)
    t.timestamp = pd.Timestamp.now(tz="UTC").isoformat()
    store.write(t, result.iterations, provenance(cell.packages))
    if cfg.trace:
        print_trace(p, result, cell.label, store.root / "pictures")
    return t.status if t.status != Status.SKIPPED else f"skipped: {t.reason}"


def _run_jobs(
    store: ResultStore, jobs: Sequence[Job], todo: Sequence[Job], cfg: DictConfig
) -> dict[str, str]:
    """Run ``todo`` with a progress bar, each job claimed first so that workers sharing the
    store split the work; return the skip reason of each cell that was skipped."""
    bar = _progress_bar(store, jobs, todo, cfg)
    skipped: dict[str, str] = {}
    solved = ran = elsewhere = beyond = 0
    stale_s = claim_timeout(cfg)
    # Outcomes stored after this are this run's (its workers share the parent's start):
    # a trial one of them skipped is not tried again by another.
    started = str(cfg.get("run_started") or "")
    gate = FrontierGate(store, jobs) if cfg.get("frontier") else None
    inflight = None  # the key being claimed, run or released (a stop then releases it)
    try:
        for job in todo:
            if gate is not None and _beyond_frontier(gate, job, bar):
                beyond += 1
                continue
            inflight = job.key
            if not store.claim(job.key, stale_s):
                elsewhere += 1  # another worker is running it: it counts as taken
                bar.update(1)
                continue
            try:
                if store.is_finished(job.key, since=started, final_counts=not cfg.overwrite):
                    bar.update(1)
                    continue  # another worker finished it since this run started
                bar.set_postfix_str(
                    f"{job.cell.label} {job.puzzle.name or job.puzzle.size_label} r{job.repetition}"
                )
                status = _store_one(store, job, cfg)
            finally:
                store.release(job.key)
            inflight = None
            ran += 1
            solved += status == Status.SOLVED
            if status.startswith("skipped: "):
                skipped.setdefault(job.cell.label, status.removeprefix("skipped: "))
            bar.update(1)
            bar.set_postfix_str(
                f"solved {solved}/{ran} here"
                + (f", {elsewhere} by other workers" if elsewhere else "")
            )
    finally:
        if inflight is not None:  # stopped between taking the claim and its try block
            store.release_if_mine(inflight)
        bar.close()
    if todo:
        _say_what_ran(len(todo), ran, elsewhere, beyond)
    return skipped


def _progress_bar(
    store: ResultStore, jobs: Sequence[Job], todo: Sequence[Job], cfg: DictConfig
) -> tqdm:
    """The run's progress bar (on stderr), saying first how much a resumed run finds done."""
    bar = tqdm(
        total=len(jobs),
        initial=len(jobs) - len(todo),
        disable=not cfg.progress,
        desc=str(cfg.experiment_name),
        unit="trial",
        file=sys.stderr,
    )
    if len(todo) < len(jobs):
        bar.write(
            f"resuming: {len(jobs) - len(todo)} of {len(jobs)} trials already in {store.root}",
            file=sys.stderr,
        )
    return bar


def _say_incomplete(store: ResultStore, todo: Sequence[Job]) -> None:
    """Name what runs again because the store lost part of it (exactly those trials)."""
    lost = store.incomplete()
    for what, why in (
        ("trials without iterations", "have lost their iterations"),
        ("iterations without trials", "have iterations but no readable trial row"),
    ):
        keys = set(lost[what])
        n = sum(j.key in keys for j in todo)
        if n:
            print(
                f"{n} stored trial(s) of this run {why} (a missing or unreadable file): "
                "they run again",
                file=sys.stderr,
            )


def _say_what_ran(todo: int, ran: int, elsewhere: int, beyond: int) -> None:
    print(
        f"this run: {ran} trials run, {elsewhere} claimed by other workers, "
        f"{todo - ran - elsewhere - beyond} finished by others meanwhile"
        + (f", {beyond} beyond their cell's frontier (not run)" if beyond else ""),
        file=sys.stderr,
    )


def _beyond_frontier(gate: FrontierGate, job: Job, bar: tqdm) -> bool:
    known = job.config_hash in gate.stopped
    reason = gate.blocked(job)
    if reason is None:
        return False
    if not known:
        bar.write(f"{job.cell.label}: {reason}", file=sys.stderr)
    bar.update(1)
    return True


def claim_timeout(cfg: DictConfig) -> float:
    """A claim older than this belongs to a worker that died: a trial cannot take longer."""
    if cfg.get("claim_timeout_s") is not None:
        return float(cfg.claim_timeout_s)
    return float(cfg.time_limit_s) + 600.0


def _record_config(out: Path, cfg: DictConfig, name: str) -> None:
    """Append this run's resolved configuration: every run is recorded, none overwritten."""
    head = f"# run at {pd.Timestamp.now(tz='UTC').isoformat()} on {socket.gethostname()} pid {os.getpid()}"
    text = f"---\n{head}\n{OmegaConf.to_yaml(cfg, resolve=True)}"
    with open(out / name, "a") as fh:
        fh.write(text)


def _check_results_dir(out: Path) -> None:
    """``results_dir`` (or a directory above it) must not be a file: say so in one line."""
    for d in (out, *out.parents):
        if d.exists():
            if not d.is_dir():
                where = f"results_dir {out}" + (f": {d}" if d != out else "")
                raise ConfigError(
                    f"{where} is a file, not a directory (give a directory; a missing one is "
                    "created)"
                )
            return


def _prepare_store(out: Path) -> ResultStore:
    _check_results_dir(out)
    store = ResultStore(out)
    out.mkdir(parents=True, exist_ok=True)
    moved = store.quarantine()
    if moved:
        print(
            f"moved {len(moved)} unreadable results file(s) to {out / 'unreadable'} (kept there)",
            file=sys.stderr,
        )
    if (out / "trials").is_dir():
        print(
            f"{out} is in the layout before parts: compacting it when this run ends",
            file=sys.stderr,
        )
    return store


def _start_helpers(cfg: DictConfig, out: Path, started: str) -> list[tuple[subprocess.Popen, Path]]:
    """``workers=N``: N - 1 more processes run the same command into the same store; claims
    split the trials between them. Only from the command line (the overrides are Hydra's).
    In a multirun each job starts its own (its overrides are the job's: ``cell=1``, not the
    sweep), so ``-m cell=1,2,3 workers=2`` runs each cell two trials at a time."""
    n = int(cfg.get("workers") or 1)
    if n <= 1:
        return []
    hc = hydra_runtime()
    if hc is None:  # compose API: one process
        return []
    drop = ("workers=", "run_started=", "progress=")  # set for the helpers below
    overrides = [o for o in hc.overrides.task if not o.startswith(drop)]
    helpers = []
    job = f"-job{hc.job.num}" if _in_multirun() else ""  # a multirun's jobs share one process
    for k in range(1, n):
        log = out / "logs" / f"worker-{k}-{os.getpid()}{job}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "slitherbench", *overrides, "workers=1", "progress=false"]
        cmd.append(f"run_started='{started}'")
        # The helpers record the command this run was given, not the one that starts them.
        env = {**os.environ, COMMAND_ENV: run_command()["command"]}
        with open(log, "w") as fh:
            proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env)
            helpers.append((proc, log))
    print(f"{n} workers share this run (logs of the others: {out / 'logs'})", file=sys.stderr)
    return helpers


def _join_helpers(helpers: list[tuple[subprocess.Popen, Path]], interrupted: bool) -> None:
    for proc, log in helpers:
        if interrupted:
            proc.terminate()
        if proc.wait() not in (0, -15, 130) and not interrupted:
            print(
                f"warning: a worker ended with code {proc.returncode}; see {log}", file=sys.stderr
            )


def run_experiment(
    cfg: DictConfig, results_dir: str | Path | None = None, config_name: str = "config.yaml"
) -> pd.DataFrame:
    """Run every (puzzle x cell x repetition) not yet in the store; return all their trials."""
    validate_config(cfg)
    out = Path(results_dir if results_dir is not None else cfg.results_dir)
    # Cells, then puzzles, first: bad input is one line and nothing written (the cells before
    # the puzzles, whose checks may print notes, so that a refused cell is the only line).
    cells = resolve_cells(cfg)
    if cfg.cells is None and not _in_multirun():
        reason = cells[0].backend.unsupported_reason(cells[0].formulation)
        if reason:
            raise ConfigError(reason)
    puzzles = run_puzzles(cfg.puzzle, out)
    store = _prepare_store(out)
    provenance()  # the checkout as the run starts: a file edited while it runs is not its code
    if cfg.cell is not None and config_name == "config.yaml":
        config_name = f"config-cell{int(cfg.cell)}.yaml"  # one per job of a multirun sweep
    _record_config(out, cfg, config_name)
    jobs = plan_jobs(cfg, cells, puzzles)
    todo = pending(jobs, set() if cfg.overwrite else store.finished_keys())
    if not cfg.overwrite:
        _say_incomplete(store, todo)
    if cfg.get("frontier"):
        todo = size_order(todo)
    if not cfg.get("run_started"):  # the start this run's workers share
        cfg = OmegaConf.merge(cfg, {"run_started": pd.Timestamp.now(tz="UTC").isoformat()})
    helpers = _start_helpers(cfg, out, str(cfg.run_started)) if todo else []
    done = False
    try:
        skipped = _run_jobs(store, jobs, todo, cfg)
        done = True
    finally:
        _join_helpers(helpers, interrupted=not done)
        store.compact()
    everything = store.trials()
    order = {j.key: k for k, j in enumerate(jobs)}  # the experiment's cell and puzzle order
    table = everything[everything["key"].isin(order)] if not everything.empty else everything
    if not table.empty:
        table = table.sort_values("key", key=lambda s: s.map(order))
    if skipped and cfg.fallback_cells:
        table = pd.concat([table, run_fallback(cfg, out, skipped)], ignore_index=True)
    return table.reset_index(drop=True)


def run_fallback(cfg: DictConfig, out: Path, skipped: dict[str, str]) -> pd.DataFrame:
    """The experiment's rule: when a cell is skipped, run ``fallback_cells`` instead."""
    names = ", ".join(f"{c.formulation}/{c.backend}" for c in cfg.fallback_cells)
    for label, reason in skipped.items():
        print(f"{label} was skipped ({reason}): running {names} instead.", flush=True)
    sub = OmegaConf.merge(
        cfg,
        {"cells": OmegaConf.to_container(cfg.fallback_cells), "fallback_cells": None, "cell": None},
    )
    return run_experiment(sub, out, config_name="config_fallback.yaml")  # type: ignore[arg-type]
