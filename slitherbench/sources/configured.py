"""What a run's configuration names outside the run itself: the conf/ directory and Hydra's
compose context, rules given by name or by config file (``puzzle.rules``), and the precheck
of a puzzle before any solver time is spent on it (one answer, proved by CP-SAT).

Imports: the solvers and the layers below (the precheck's exact solve).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hydra import compose, initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from hydra.core.hydra_config import HydraConfig
from hydra.errors import HydraException
from omegaconf import DictConfig, OmegaConf

from slitherbench.method.record import ConfigError
from slitherbench.puzzles.puzzle import Puzzle

CONF_DIR = Path(__file__).resolve().parents[2] / "conf"
# ${slitherbench_conf:tuning/tuned} in a config: a path under this conf/ directory, wherever the run.
OmegaConf.register_new_resolver("slitherbench_conf", lambda sub: str(CONF_DIR / sub), replace=True)


@contextmanager
def hydra_ready() -> Iterator[None]:
    # Inside a Hydra app (or a test's initialize block) compose uses that; else our conf/.
    if GlobalHydra.instance().is_initialized():
        yield
    else:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            yield


def hydra_runtime() -> Any | None:
    """Hydra's own config inside a Hydra run; None under the compose API (tests)."""
    try:
        return HydraConfig.get()
    except ValueError:
        return None


def searchpath() -> list[str]:
    hc = hydra_runtime()
    return list(hc.searchpath) if hc is not None else []


def config_rules(pcfg: DictConfig) -> tuple[str, ...]:
    """``puzzle.rules`` (a list, or one name), checked: each a rule of
    :mod:`slitherbench.puzzles.rules`, or one whose conf/rule/<name>.yaml (on Hydra's search path)
    names its class, which is then registered. An unknown rule, or a rule the registry
    refuses (no checker hook), is one line."""
    from slitherbench.puzzles.rules import RuleError, get_rule, normal_rules
    from slitherbench.puzzles.rules import rules as registered

    raw = pcfg.get("rules") or ()
    if (
        not isinstance(raw, str)
        and not OmegaConf.is_list(raw)
        and not isinstance(raw, list | tuple)
    ):
        raise ConfigError(f"puzzle.rules={raw!r}: a rule name or a list of rule names")
    rules = normal_rules(raw if isinstance(raw, str) else [str(r) for r in raw])
    try:
        known = registered()  # every rule module is checked here, named or not
        for r in rules:
            if r not in known:
                _register_from_config(r)
            get_rule(r)
    except RuleError as exc:
        raise ConfigError(f"puzzle.rules: {exc}") from None
    return rules


def _register_from_config(name: str) -> None:
    """Register the class conf/rule/<name>.yaml names (``_target_``): a rule outside the
    package is one module on the Python path and one config file, as a backend is."""
    from slitherbench.puzzles.rules import register_rule

    overrides = [f"+rule={name}"]
    if sp := searchpath():
        overrides.append(f"hydra.searchpath=[{','.join(sp)}]")
    try:
        with hydra_ready():
            cfg = compose(config_name="config", overrides=overrides)
    except (HydraException, ValueError):  # ValueError: a name Hydra reads as a number
        return  # no config of that name: the rule stays unknown
    register_rule(_rule_class(name, cfg.rule.get("_target_")))


def _rule_class(name: str, target: Any) -> type:
    """The class conf/rule/<name>.yaml names, or one line naming the rule and what is
    missing (imported here, not by Hydra's get_class, which logs an ERROR line of its own)."""
    import importlib

    module, _, cls = str(target or "").rpartition(".")
    if not module or not cls:
        raise ConfigError(
            f"rule {name}: conf/rule/{name}.yaml names no class (_target_: module.Class)"
            + (f", only {target!r}" if target else "")
        )
    try:
        found = getattr(importlib.import_module(module), cls, None)
    except Exception as exc:  # an import error, or the module's own error as it loads
        why = " ".join(str(exc).split())
        raise ConfigError(
            f"rule {name}: conf/rule/{name}.yaml: cannot import module {module} ({why})"
        ) from None
    if not isinstance(found, type):
        raise ConfigError(f"rule {name}: conf/rule/{name}.yaml: module {module} has no {cls}")
    return found


def precheck(p: Puzzle, time_limit_s: float = 10.0, allow_multiple: bool = False) -> None:
    """Cheap checks before spending solver time; says so whenever uniqueness is not known."""
    from slitherbench.solvers.cpsat_model import solve_exact

    if p.num_clues == 0:
        _note(f"{p!r} has no clues: every loop is an answer; uniqueness not checked")
        return
    r = solve_exact(p, time_limit_s=time_limit_s)
    if r.status == "infeasible":
        raise ConfigError(
            f"puzzle.text: {p.infeasible_words(solve_exact)} (the exact check proved it, {p!r})"
        )
    if r.status == "timeout":
        _note(
            f"uniqueness of {p!r} not checked: the exact check did not finish in {time_limit_s:g} s "
            "(raise puzzle.precheck_time_limit_s to check it)"
        )
    if r.status == "multiple" and not allow_multiple:
        raise ConfigError(
            f"puzzle.text: {p!r} has more than one answer (the exact check found two); to run it anyway, "
            "with any valid loop counted as solved, add puzzle.allow_multiple=true"
        )
    if r.status == "multiple":
        _note(f"{p!r} has more than one answer; any valid loop counts as solved")


def _note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)
