"""``python -m slitherbench.reproduce experiment=NAME [--quick] [--publish [DEST]] [overrides]``

One command per experiment: its runs into one store, then its report, or with ``--publish``
its findings page. What it runs and what the report compares is data, the experiment's
``report`` block (defaults in ``conf/config.yaml``): ``runs`` (one plain run unless the
experiment names more: each variable setting of a paired comparison, a tuning step, a
companion experiment into the same store), ``compare`` (the paired tests), ``exact``,
``items``, ``publish`` (the page's destination), ``target``, ``quick`` (the overrides of
``--quick``: tiny boards, one seed, seconds). Every run resumes, so the command run again adds
only what is missing. Extra Hydra overrides go to every run into the store, ``results_dir``
chooses the store, and ``report.*`` overrides change the report (``report.compare=['a,b']``).
Runs are ``python -m slitherbench`` child processes, so each is exactly the command a user
would type; the report is :func:`slitherbench.analysis.report.main`. Bad settings are one line, exit 2.

Imports: the run and the analysis (it sits above both, as the other entry points do).
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hydra import compose, initialize_config_dir
from hydra.errors import HydraException
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from slitherbench.run.overrides import override_problem
from slitherbench.run.plan import CONF_DIR

REPORT_KEYS = (
    "runs",
    "compare",
    "compare_tuned",
    "exact",
    "only_experiment",
    "items",
    "publish",
    "title",
    "target",
    "quick",
)
RUN_KEYS = ("experiment", "overrides", "store", "quick")
# The placeholder a run's override may hold: the directory the experiment's store is in.
ROOT = "{root}"


class ReproduceError(ValueError):
    """A setting the command cannot use: said in one line."""


@dataclass(frozen=True)
class Run:
    """One ``python -m slitherbench`` run of the experiment's plan."""

    experiment: str
    overrides: tuple[str, ...]
    results_dir: Path
    prepares: bool = False  # into a store of its own (e.g. tuning), not the experiment's

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "slitherbench",
            f"experiment={self.experiment}",
            *self.overrides,
            f"results_dir={self.results_dir}",
        ]


@dataclass(frozen=True)
class Plan:
    """What the command does: the runs, then the report (its arguments, and whether to pair
    untuned with tuned cells if the store holds tuned trials)."""

    experiment: str
    store: Path
    runs: tuple[Run, ...]
    report_args: tuple[str, ...]
    compare_tuned: bool


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m slitherbench.reproduce",
        description="Run an experiment (its config's report.runs) into one store, then write "
        "its report (or its findings page).",
    )
    ap.add_argument(
        "overrides",
        nargs="*",
        metavar="experiment=NAME [OVERRIDE ...]",
        help="the experiment, and Hydra overrides for its runs (results_dir=DIR: the store; "
        "report.KEY=VALUE: the report's options)",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="tiny boards, one seed, seconds (the config's report.quick), into a temporary "
        "store unless results_dir is given: checks that the runs and the report work",
    )
    ap.add_argument(
        "--publish",
        nargs="?",
        const="",
        metavar="docs/findings/NAME",
        help="write the findings page instead of the report (no value: the config's "
        "report.publish)",
    )
    ap.add_argument(
        "--no-run",
        action="store_true",
        help="run nothing: the report (or page) from the store as it is",
    )
    return ap


def _split(overrides: Sequence[str]) -> tuple[str, list[str]]:
    """The experiment's name and the overrides that go on to its runs."""
    names = [o.split("=", 1)[1] for o in overrides if o.startswith("experiment=")]
    if len(names) != 1:
        raise ReproduceError(
            f"give the experiment once, as experiment=NAME (one of {', '.join(_experiments())})"
        )
    if "," in names[0]:
        raise ReproduceError(f"experiment={names[0]}: one experiment at a time")
    passed = [o for o in overrides if not o.startswith(("experiment=", "results_dir=", "report."))]
    return names[0], passed


def _experiments() -> list[str]:
    return sorted(p.stem for p in (CONF_DIR / "experiment").glob("*.yaml"))


def _compose(overrides: Sequence[str]) -> DictConfig:
    lines = [o for o in overrides if not o.lstrip("+~").startswith("hydra")]
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            return compose(config_name="config", overrides=lines)
    except (HydraException, OmegaConfBaseException) as exc:
        raise ReproduceError(" ".join(str(exc).split())) from None


def _texts(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ReproduceError(f"{where} must be a list, got {value!r}")
    return [str(v) for v in value]


def _flag(block: Mapping[str, Any], key: str) -> bool:
    value = block.get(key, False)
    if not isinstance(value, bool):
        raise ReproduceError(f"report.{key} must be true or false, got {value!r}")
    return value


def _known_keys(mapping: Any, known: Sequence[str], where: str) -> None:
    unknown = sorted(set(map(str, mapping)) - set(known))
    if unknown:
        raise ReproduceError(
            f"{where} has no setting {', '.join(unknown)} (its settings: {', '.join(known)})"
        )


def report_block(cfg: DictConfig) -> dict[str, Any]:
    """The experiment's ``report`` block, checked: its runs and quick overrides as written
    (the runs resolve them), every other value resolved."""
    node = cfg.get("report")
    if not isinstance(node, DictConfig):
        raise ReproduceError(f"the config's report block must be a mapping, got {node!r}")
    _known_keys(node, REPORT_KEYS, "report")
    written = OmegaConf.to_container(node, resolve=False)
    try:
        block: dict[str, Any] = OmegaConf.to_container(node, resolve=True)  # type: ignore[assignment]
    except OmegaConfBaseException as exc:
        raise ReproduceError(f"report: {' '.join(str(exc).split())}") from None
    block["runs"], block["quick"] = written["runs"], written["quick"]  # type: ignore[index]
    return block


def _runs(
    block: Mapping[str, Any], name: str, passed: Sequence[str], store: Path, quick: bool
) -> list[Run]:
    specs = block.get("runs")
    if not isinstance(specs, list) or not specs:
        raise ReproduceError(f"report.runs must be a list of runs, got {specs!r}")
    quick_all = _texts(block.get("quick"), "report.quick")
    known = set(_experiments())
    root = store.parent
    runs = []
    for k, spec in enumerate(specs):
        where = f"report.runs[{k}]"
        if not isinstance(spec, Mapping):
            raise ReproduceError(f"{where} must be a mapping ({', '.join(RUN_KEYS)}), got {spec!r}")
        _known_keys(spec, RUN_KEYS, where)
        experiment = str(spec.get("experiment") or name)
        if experiment not in known:
            raise ReproduceError(f"{where}: no experiment {experiment!r} in conf/experiment/")
        prepares = spec.get("store") is not None
        overrides = _texts(spec.get("overrides"), f"{where}.overrides")
        if quick:
            overrides += quick_all + _texts(spec.get("quick"), f"{where}.quick")
        if not prepares:
            overrides += passed
        filled = tuple(o.replace(ROOT, str(root)) for o in overrides)
        results_dir = root / str(spec["store"]) if prepares else store
        runs.append(Run(experiment, filled, results_dir, prepares))
    return runs


def _report_args(
    block: Mapping[str, Any], name: str, store: Path, publish: Path | None
) -> list[str]:
    """The report's command line, each option checked now (not after hours of runs)."""
    from slitherbench.analysis import compare
    from slitherbench.analysis.publish import parse_targets
    from slitherbench.analysis.report import select_items

    args = [str(store)]
    if _flag(block, "only_experiment"):
        args += ["--experiment", name]
    if _flag(block, "exact"):
        args.append("--exact")
    for spec in _texts(block.get("compare"), "report.compare"):
        compare.parse_spec(spec)
        args += ["--compare", spec]
    items = block.get("items")
    if items is not None:
        names = _texts(items, "report.items")
        select_items(names)
        args += ["--items", ",".join(names)]
    targets = _texts(block.get("target"), "report.target")
    parse_targets(targets)
    if publish is not None:
        args += ["--publish", str(publish)]
        if block.get("title"):
            args += ["--title", str(block["title"])]
        for t in targets:
            args += ["--target", t]
    return args


def plan(overrides: Sequence[str], quick: bool = False, publish: str | None = None) -> Plan:
    """The runs and the report's arguments for ``experiment=NAME`` and its overrides;
    every setting checked (:class:`ReproduceError`, or ``ValueError`` from the report's own
    checks, in one line)."""
    name, passed = _split(overrides)
    problem = override_problem(list(overrides))
    if problem:
        raise ReproduceError(problem)
    cfg = _compose(overrides)
    block = report_block(cfg)
    store = Path(str(cfg.results_dir))
    page = None
    if publish is not None:
        dest = publish or block.get("publish")
        if not dest:
            raise ReproduceError(
                f"experiment {name} names no page (report.publish): give --publish "
                "docs/findings/NAME"
            )
        page = Path(str(dest))
    runs = _runs(block, name, passed, store, quick)
    args = _report_args(block, name, store, page)
    if quick and not any(o.startswith("results_dir=") for o in overrides):
        # checked first, so a refused command leaves no directory behind
        store = Path(tempfile.mkdtemp(prefix=f"{name}-quick-")) / name
        runs, args = (
            _runs(block, name, passed, store, quick),
            _report_args(block, name, store, page),
        )
    return Plan(name, store, tuple(runs), tuple(args), _flag(block, "compare_tuned"))


def holds_tuned_trials(store: Path) -> bool:
    """Whether the store has trials a cell ran with tuned settings (a cell whose tuning beat
    no setting runs its untuned one when tuned: it adds none)."""
    from slitherbench.method.record import TUNED_SUFFIX
    from slitherbench.store.results import load

    trials, _ = load(store)
    return not trials.empty and trials["cell"].astype(str).str.endswith(TUNED_SUFFIX).any()


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SLURM's time limit and kill: stop as Ctrl-C does


def _run(command: list[str]) -> int:
    """Run one experiment run. On a stop it waits for the run to stop cleanly (release its
    claims, compact its store): a Ctrl-C reaches the run too; a signal sent to this process
    alone leaves the run going until it ends or is stopped itself."""
    proc = subprocess.Popen(command)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.wait()
        raise


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("MPLBACKEND", "Agg")  # a command line draws to files only
    args = _parser().parse_intermixed_args(argv)
    try:
        todo = plan(args.overrides, quick=args.quick, publish=args.publish)
    except ValueError as exc:  # ReproduceError, and the report's own checks
        print(f"error: {exc}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _terminate)
    try:
        for run in () if args.no_run else todo.runs:
            command = run.command()
            _say(f"run: python -m slitherbench {shlex.join(command[3:])}")
            code = _run(command)
            if code == 2:  # the run refused its input and said why, in one line
                return 2
            if code in (130, -signal.SIGINT):  # stopped: the Ctrl-C reached the run first
                raise KeyboardInterrupt
            if code != 0:
                _say(f"error: the run above ended with code {code}; nothing reported")
                return code
    except KeyboardInterrupt:
        _say("stopped: the same command resumes where the runs left off")
        return 130
    report_args = list(todo.report_args)
    if todo.compare_tuned:
        if todo.store.exists() and holds_tuned_trials(todo.store):
            report_args += ["--compare", "untuned,tuned"]
        else:
            _say("note: no tuned trials in the store (no tuned setting beat its untuned one): "
                 "no tuned side to compare")  # fmt: skip
    _say(f"report: python -m slitherbench.report {shlex.join(report_args)}")
    from slitherbench.analysis.report import main as report_main

    return report_main(report_args)


if __name__ == "__main__":
    sys.exit(main())
