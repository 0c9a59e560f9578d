"""The Hydra app: ``python -m slitherbench experiment=hubo_vs_qubo``. :func:`main` is a thin
``@hydra.main``; the work is :func:`~slitherbench.run.experiment.run_experiment`, a plain
function of the config and the results directory (tests call it through Hydra's compose API).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import hydra
import pandas as pd
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from slitherbench.analysis.tables import error_summary, run_summary
from slitherbench.method.record import ConfigError
from slitherbench.puzzles.puzzle import PuzzleFormatError
from slitherbench.run.console import exit_stopped, print_answer
from slitherbench.run.experiment import run_experiment
from slitherbench.run.overrides import override_problem
from slitherbench.run.plan import CONF_DIR
from slitherbench.run.tune import run_tuning

__all__ = ["CONF_DIR", "main", "run_experiment"]


# Directories the log resolver made for this run: removed again when the input is refused.
_MADE: list[Path] = []


def log_dir(results_dir: object) -> str:
    """Hydra's run logs go beside the results; where those cannot be written (or
    ``results_dir`` is no path), to the temp directory, so that the run itself reports the
    problem in one line."""
    if not isinstance(results_dir, str | int | float) or not str(results_dir).strip():
        return str(Path(tempfile.gettempdir()) / "slitherbench-logs")
    d = Path(str(results_dir)) / "logs"
    try:
        _MADE.extend(p for p in (d, *d.parents) if not p.exists())
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return str(Path(tempfile.gettempdir()) / "slitherbench-logs")
    return str(d)


OmegaConf.register_new_resolver("slitherbench_logs", log_dir, replace=True)


def _terminate(signum: int, frame: object) -> None:
    # SLURM (at a job's time limit) and kill send SIGTERM: stop as Ctrl-C does, so claims are
    # released and the run's files compacted before the process ends.
    raise KeyboardInterrupt


def _forget_logs() -> None:
    """Refused input leaves nothing behind: not even Hydra's log of the refused run."""
    shutil.rmtree(HydraConfig.get().runtime.output_dir, ignore_errors=True)
    for d in sorted(_MADE, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):
            d.rmdir()  # only if empty: a store already there is never touched


def main() -> None:
    """The console script: overrides checked (one line and exit 2 on a typo), then Hydra."""
    # A command line draws to files only (answer pictures): matplotlib, when a run imports it,
    # reads its backend from here (importing it now would cost every run 0.2 s).
    os.environ.setdefault("MPLBACKEND", "Agg")
    problem = override_problem(sys.argv[1:])
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        sys.exit(2)
    hydra_main()


@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")
def hydra_main(cfg: DictConfig) -> None:
    signal.signal(signal.SIGTERM, _terminate)
    # A shell starts background jobs with SIGINT ignored, and Python then keeps it ignored:
    # Ctrl-C / kill -INT must still stop a run cleanly.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for name in ("results_dir", "experiment_name"):  # results_dir=2024 names a folder
        if isinstance(cfg.get(name), int) and not isinstance(cfg.get(name), bool):
            cfg[name] = str(cfg[name])
    try:
        if cfg.get("tune"):
            print(run_tuning(cfg).to_string(index=False))
            return
        trials = run_experiment(cfg)
        _print_outcome(cfg, trials)  # a stop while it prints is a stop like any other
    except (ConfigError, PuzzleFormatError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        _forget_logs()
        sys.exit(2)
    except OSError as exc:  # a read-only or full results directory, ...
        where = exc.filename or cfg.results_dir
        print(f"error: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        exit_stopped(Path(cfg.results_dir))


def _print_outcome(cfg: DictConfig, trials: pd.DataFrame) -> None:
    """The run's summary table, the answer found, and where the results are."""
    if not trials.empty:
        with pd.option_context(
            "display.width", 200, "display.max_columns", 20, "display.max_rows", 500
        ):
            print(run_summary(trials).to_string(index=False))
        if errors := error_summary(trials):
            print(errors)
        if not cfg.trace:  # the trace has printed every trial's answer already
            print_answer(trials, Path(cfg.results_dir) / "pictures")
    print(f"results: {Path(cfg.results_dir).resolve()}")
