"""Planning an experiment: its cells (formulation x backend), its puzzles, the seeds and the
keys of its trials, and which of them are still to run.

Cells are composed by Hydra itself (the ``formulation`` and ``backend`` config groups, with
the experiment's parameter overrides merged in) and built with ``hydra.utils.instantiate``.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import pickle
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hydra import compose
from hydra.errors import HydraException
from hydra.utils import get_class, get_method, instantiate
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from slitherbench.method.moved import legacy_name
from slitherbench.method.record import TUNED_SUFFIX, ConfigError
from slitherbench.models.formulations import Formulation
from slitherbench.models.presolve import PRESOLVE_LEVELS
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.base import Backend
from slitherbench.sources.configured import (  # noqa: F401  (plan's names before the move)
    CONF_DIR,
    hydra_runtime,
    precheck,
)
from slitherbench.sources.configured import hydra_ready as _hydra_ready
from slitherbench.sources.configured import searchpath as _searchpath


@dataclass
class Cell:
    """One comparison cell: a built formulation and backend, and the configs they came from."""

    formulation: Formulation
    backend: Backend
    formulation_cfg: dict[str, Any]
    backend_cfg: dict[str, Any]
    tuned: bool = False  # parameters from tuned_dir (experiment=tune wrote them)

    @property
    def label(self) -> str:
        return f"{self.formulation.label}/{self.backend.name}" + (
            TUNED_SUFFIX if self.tuned else ""
        )

    @property
    def packages(self) -> tuple[str, ...]:
        return (*self.formulation.packages, *self.backend.packages)

    def config_hash(self, cfg: DictConfig) -> str:
        settings = {
            "formulation": _legacy_targets(self.formulation_cfg),
            "backend": _legacy_targets(self.backend_cfg),
            "max_iterations": cfg.max_iterations,
            "time_limit_s": cfg.time_limit_s,
            "base_seed": cfg.base_seed,
        }
        # Added later: only a non-default value enters the hash (older stores keep theirs).
        if cfg.get("warm_start", "previous") != "previous":
            settings["warm_start"] = cfg.warm_start
        if presolve_level(cfg) != "none":
            settings["presolve"] = presolve_level(cfg)
        blob = json.dumps(settings, sort_keys=True, default=str)
        return hashlib.sha1(blob.encode()).hexdigest()[:12]


def _legacy_targets(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """The config with its ``_target_`` named as before the package's layout moved, so that a
    config hash is what it was (stores and tuned files keep theirs)."""
    out = dict(cfg)
    if isinstance(out.get("_target_"), str):
        out["_target_"] = legacy_name(out["_target_"])
    return out


def build_cell(formulation_cfg: Mapping[str, Any], backend_cfg: Mapping[str, Any]) -> Cell:
    f, b = dict(formulation_cfg), dict(backend_cfg)
    try:
        return Cell(instantiate(f), instantiate(b), f, b)
    except Exception as exc:  # Hydra wraps the constructor's error
        cause = exc.__cause__ or exc
        raise ConfigError(f"{f.get('_target_')} / {b.get('_target_')}: {cause}") from None


def tuned_params(tuned_dir: str | Path, formulation: str, backend: str) -> dict[str, Any] | None:
    """The settings experiment=tune wrote for this pair, or None."""
    path = Path(tuned_dir) / f"{formulation}_{backend}.yaml"
    if not path.exists():
        return None
    return _plain(OmegaConf.load(path))


def with_tuned(spec: Mapping[str, Any], tuned_dir: str | Path) -> tuple[dict[str, Any], bool]:
    """``spec`` with the tuned parameters laid over its own, and whether there were any."""
    found = tuned_params(tuned_dir, str(spec["formulation"]), str(spec["backend"]))
    if found is None:
        print(
            f"note: no tuned settings for {spec['formulation']}/{spec['backend']} in {tuned_dir} "
            "(run experiment=tune): it runs with its own",
            file=sys.stderr,
        )
        return dict(spec), False
    out = dict(spec)
    for key in ("formulation_params", "backend_params"):
        out[key] = {**(spec.get(key) or {}), **(found.get(key) or {})}
    return out, True


def compose_cell(spec: Mapping[str, Any], tuned: bool = False) -> Cell:
    """A cell from ``{formulation: NAME, backend: NAME, formulation_params, backend_params}``."""
    for key in ("formulation", "backend"):
        if key not in spec:
            raise ConfigError(f"a cell needs '{key}': {dict(spec)}")
    overrides = [f"formulation={spec['formulation']}", f"backend={spec['backend']}"]
    if sp := _searchpath():
        overrides.append(f"hydra.searchpath=[{','.join(sp)}]")
    try:
        with _hydra_ready():
            cfg = compose(config_name="config", overrides=overrides)
    except HydraException as exc:
        raise ConfigError(f"cell {dict(spec)}: {' '.join(str(exc).split())}") from None
    f = _merge_params(cfg.formulation, spec, "formulation")
    b = _merge_params(cfg.backend, spec, "backend")
    cell = build_cell(_plain(f), _plain(b))
    cell.tuned = tuned
    return cell


def _merge_params(base: DictConfig, spec: Mapping[str, Any], group: str) -> DictConfig:
    """The group's config with the cell's ``<group>_params``; an unknown name is an error."""
    params = spec.get(f"{group}_params") or {}
    try:
        return OmegaConf.merge(base, params)  # type: ignore[return-value]
    except OmegaConfBaseException:
        unknown = sorted(set(params) - set(base))
        if set(unknown) <= _constructor_params(base):  # a setting its YAML leaves out
            loose = OmegaConf.create(OmegaConf.to_container(base))
            return OmegaConf.merge(loose, params)  # type: ignore[return-value]
        known = sorted((set(base) | _constructor_params(base)) - {"_target_"})
        raise ConfigError(
            f"cell {dict(spec)}: {group} {spec[group]} has no setting {', '.join(unknown)} "
            f"(its settings: {', '.join(known)})"
        ) from None


def _constructor_params(cfg: DictConfig) -> set[str]:
    """The keyword parameters of the config's ``_target_`` class (empty if it cannot load)."""
    try:
        target = get_class(str(cfg.get("_target_")))
    except Exception:
        return set()
    names: set[str] = set()
    for cls in target.__mro__:  # **params passes the rest on to the base classes
        if "__init__" not in vars(cls):
            continue
        params = inspect.signature(vars(cls)["__init__"]).parameters.values()
        names |= {
            p.name for p in params if p.kind is p.KEYWORD_ONLY or p.kind is p.POSITIONAL_OR_KEYWORD
        }
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            break
    return names - {"self"}


def _plain(node: Any) -> dict[str, Any]:
    return OmegaConf.to_container(node, resolve=True)  # type: ignore[return-value]


# Top-level formulation settings (name -> default): a cell that does not set its own takes
# the top-level value; a default adds nothing, so stores made before it existed keep their
# config hashes.
FORM_SETTINGS = {"cut": "loop", "variables": "edge"}


def _form_settings(cfg: DictConfig) -> dict[str, str]:
    """The top-level formulation settings that are not their defaults."""
    return {
        k: str(cfg.get(k, default))
        for k, default in FORM_SETTINGS.items()
        if str(cfg.get(k, default)) != default
    }


def _with_settings(spec: dict[str, Any], settings: Mapping[str, str]) -> dict[str, Any]:
    """A cell spec with the top-level settings it does not set itself."""
    own = spec.get("formulation_params") or {}
    extra = {k: v for k, v in settings.items() if k not in own}
    if not extra:
        return spec
    return {**spec, "formulation_params": {**own, **extra}}


def cell_specs(cfg: DictConfig) -> list[dict[str, Any]]:
    """``cells`` as plain mappings, each naming a formulation and a backend (one line if
    not: a list of names, a string or a number is no cell)."""
    cells = cfg.get("cells")
    if not OmegaConf.is_list(cells):
        raise ConfigError(
            f"cells={cells!r}: a list of cells, each {{formulation: NAME, backend: NAME}}"
        )
    specs = []
    for k, s in enumerate(cells):
        if not isinstance(s, DictConfig) or not {"formulation", "backend"} <= set(map(str, s)):
            shown = _plain(s) if isinstance(s, DictConfig) else s
            raise ConfigError(
                f"cells[{k}]={shown!r}: a cell is {{formulation: NAME, backend: NAME}} "
                "(with formulation_params, backend_params if wanted)"
            )
        specs.append(_plain(s))
    return specs


def resolve_cells(cfg: DictConfig) -> list[Cell]:
    """The experiment's cells, or the one cell the formulation/backend groups chose."""
    settings = _form_settings(cfg)
    if cfg.cells is None:
        f = _plain(cfg.formulation)
        cell = build_cell({**settings, **f}, _plain(cfg.backend))
        if not cfg.get("tuned"):
            return [cell]
        specs = [
            {
                "formulation": _group_name("formulation", cell),
                "backend": _group_name("backend", cell),
            }
        ]
        return [compose_cell(*with_tuned(_with_settings(specs[0], settings), cfg.tuned_dir))]
    specs = [_with_settings(s, settings) for s in cell_specs(cfg)]
    if cfg.cell is not None:
        if not 0 <= int(cfg.cell) < len(specs):
            raise ConfigError(
                f"cell={cfg.cell} but the experiment has {len(specs)} cells (0..{len(specs) - 1})"
            )
        specs = [specs[int(cfg.cell)]]
    if cfg.get("tuned"):
        return [compose_cell(*with_tuned(s, cfg.tuned_dir)) for s in specs]
    return [compose_cell(s) for s in specs]


def _group_name(group: str, cell: Cell) -> str:
    hc = hydra_runtime()
    if hc is not None and group in hc.runtime.choices:
        return str(hc.runtime.choices[group])
    return cell.formulation.name if group == "formulation" else cell.backend.name  # compose API


# -- checking the top-level settings -----------------------------------------------------
# name -> (kind, smallest allowed, may be null)
SETTINGS = {
    "repetitions": ("integer", 1, False),
    "max_iterations": ("integer", 1, False),
    "base_seed": ("integer", 0, False),
    "time_limit_s": ("number", 0.0, False),
    "claim_timeout_s": ("number", 0.0, True),
    "cell": ("integer", 0, True),
    "workers": ("integer", 1, False),
    "overwrite": ("boolean", None, False),
    "progress": ("boolean", None, False),
    "trace": ("boolean", None, False),
    "frontier": ("boolean", None, False),
}
# name -> the values it may take
CHOICES = {
    "warm_start": ("previous", "broken", "none"),
    "cut": ("loop", "region"),
    "variables": ("edge", "face"),
}


def _setting_problem(name: str, value: Any, kind: str, low: Any, nullable: bool) -> str | None:
    if value is None:
        return None if nullable else f"{name} must be set (got null)"
    if kind == "boolean":
        return None if isinstance(value, bool) else f"{name} must be true or false, got {value!r}"
    ok = isinstance(value, int) if kind == "integer" else isinstance(value, int | float)
    if isinstance(value, bool) or not ok:
        return f"{name} must be {'an integer' if kind == 'integer' else 'a number'}, got {value!r}"
    if kind == "number" and not value > low:
        return f"{name} must be greater than {low:g}, got {value!r}"
    if kind == "number" and value > threading.TIMEOUT_MAX:  # a timer cannot wait longer
        return f"{name} must be at most {threading.TIMEOUT_MAX:.0f} (seconds), got {value!r}"
    if kind == "integer" and value < low:
        return f"{name} must be at least {low}, got {value!r}"
    return None


def validate_config(cfg: DictConfig) -> None:
    """Every top-level number and flag checked before any work: one line per problem."""
    problems = [
        p
        for name, (kind, low, nullable) in SETTINGS.items()
        if (p := _setting_problem(name, cfg.get(name), kind, low, nullable))
    ]
    problems += [
        f"{name} must be one of {', '.join(allowed)}, got {cfg.get(name)!r}"
        for name, allowed in CHOICES.items()
        if cfg.get(name, allowed[0]) not in allowed
    ]
    if presolve_level(cfg) not in PRESOLVE_LEVELS:
        problems.append(
            f"presolve.level must be one of {', '.join(PRESOLVE_LEVELS)}, got {presolve_level(cfg)!r}"
        )
    for name in ("results_dir", "experiment_name"):
        value = OmegaConf.select(cfg, name, throw_on_resolution_failure=False)
        if isinstance(value, float):  # 1e309 arrives as inf: the folder's name is lost
            problems.append(
                f"{name} must be a folder name, got the number {value!r}: quote it ({name}='...')"
            )
        elif name in cfg and (not isinstance(value, str | int) or not str(value).strip()):
            problems.append(f"{name} must be a folder name, got {value!r}")
    if problems:
        raise ConfigError("; ".join(problems))  # one line: every problem in it


def presolve_level(cfg: DictConfig) -> str:
    """The ``presolve`` group's level (none where the config has no such group)."""
    node = cfg.get("presolve")
    return str(node.get("level", "none")) if isinstance(node, DictConfig) else "none"


# -- puzzles -------------------------------------------------------------------------------
# A puzzle config written before puzzle sources were ``_target_``s named its source by kind.
SOURCE_OF_KIND = {
    kind: f"slitherbench.sources.puzzle_sources.{kind}"
    for kind in ("suite", "generated", "text", "colorlink")
}


def puzzles_from_config(pcfg: DictConfig) -> list[Puzzle]:
    """The puzzles of a ``conf/puzzle`` config: its ``_target_`` (a callable of
    :mod:`slitherbench.sources.puzzle_sources`, or of any importable module) called with the config's
    other keys, those left ``???`` left out."""
    return _call_source(*_source_call(pcfg))


def _source_call(pcfg: DictConfig) -> tuple[str | None, dict[str, Any]]:
    """The callable a puzzle config names (its ``_target_``, or the source of its ``kind``)
    and the keyword arguments the config gives it (those left ``???`` left out)."""
    args = {k: v for k, v in _plain(pcfg).items() if not OmegaConf.is_missing(pcfg, k)}
    kind = args.pop("kind", None)
    return args.pop("_target_", None) or SOURCE_OF_KIND.get(str(kind)), args


def _call_source(target: str | None, args: dict[str, Any]) -> list[Puzzle]:
    if target is None:
        raise ConfigError(f"the puzzle config names no source (_target_): {dict(args)}")
    try:
        source = get_method(str(target))
    except Exception as exc:  # Hydra says why it could not import it
        raise ConfigError(f"puzzle._target_ {target}: {' '.join(str(exc).split())}") from None
    try:
        inspect.signature(source).bind(**args)
    except TypeError as exc:  # a key the source does not take, or one it needs
        raise ConfigError(f"puzzle: {target}: {exc}") from None
    return list(source(**args))


# Sources that make their boards (a 20x20 look-ahead 2 square: about 25 s, six of them
# minutes): a run keeps what they made in its directory, so its helper workers, the other
# jobs of its sweep and a resume read the same boards back instead of making them again.
MADE_BY = frozenset(SOURCE_OF_KIND[kind] for kind in ("generated", "colorlink"))


def run_puzzles(pcfg: DictConfig, out: Path) -> list[Puzzle]:
    """The puzzles of a run into ``out``: :func:`puzzles_from_config`; those of a source that
    makes its boards (:data:`MADE_BY`) are kept in ``out/boards-<hash of the puzzle
    config>.pkl`` and read back from there by every later process of the run."""
    target, args = _source_call(pcfg)
    if target not in MADE_BY:
        return _call_source(target, args)
    called = json.dumps({"_target_": target, **args}, sort_keys=True, default=str)
    digest = hashlib.sha256(called.encode()).hexdigest()
    kept = out / f"boards-{digest[:12]}.pkl"
    if kept.exists():
        try:
            puzzles = list(pickle.loads(kept.read_bytes()))
        except Exception as exc:  # a file cut short or of an older Puzzle: make them again
            print(f"puzzle: {kept} is unreadable ({exc}); making its boards again", file=sys.stderr)
        else:
            boards = f"{len(puzzles)} board" + ("s" if len(puzzles) != 1 else "")
            print(f"puzzle: {boards} made for this run, read from {kept}", file=sys.stderr)
            return puzzles
    puzzles = _call_source(target, args)
    part = kept.with_name(f"{kept.name}.{os.getpid()}.part")  # whole or absent, never half
    try:
        out.mkdir(parents=True, exist_ok=True)
        part.write_bytes(pickle.dumps(puzzles))
        os.replace(part, kept)
    except OSError:  # not kept; the store, made next, says in one line what is wrong there
        pass
    return puzzles


# -- seeds, keys, jobs ---------------------------------------------------------------------
def derive_seed(base_seed: int, puzzle: Puzzle, repetition: int) -> int:
    """Seeds depend on (base_seed, puzzle, repetition) only: every cell sees the same ones."""
    # Squares: the rows without separators, as every stored square trial was seeded; a
    # puzzle's rules follow (none on every stored trial, so their seeds stay).
    ident = puzzle.name or ("".join(puzzle.to_rows()) if puzzle.is_square else puzzle.to_text())
    if puzzle.rules:
        ident += "|rules=" + ",".join(puzzle.rules)
    h = hashlib.sha256(f"{base_seed}|{ident}|{repetition}".encode()).digest()
    return int.from_bytes(h[:4], "little") & 0x7FFFFFFF


def puzzle_ident(puzzle: Puzzle) -> str:
    # to_text() is the rows joined by "/" on squares: every stored square key stays. A
    # puzzle with rules starts with "rules=...;", so it never shares a plain puzzle's key.
    return hashlib.sha1(puzzle.to_text().encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Job:
    key: str
    config_hash: str
    cell: Cell
    puzzle: Puzzle
    repetition: int
    seed: int


def plan_jobs(cfg: DictConfig, cells: Sequence[Cell], puzzles: Sequence[Puzzle]) -> list[Job]:
    """Every (cell x puzzle x repetition), repetition first: a run stopped at any point has
    given every cell and puzzle the same seeds (a balanced, pairable partial result)."""
    hashes = [cell.config_hash(cfg) for cell in cells]
    jobs = []
    for rep in range(int(cfg.repetitions)):
        for p in puzzles:
            seed = derive_seed(int(cfg.base_seed), p, rep)
            for cell, h in zip(cells, hashes, strict=True):
                jobs.append(Job(f"{h}-{puzzle_ident(p)}-r{rep}", h, cell, p, rep, seed))
    return jobs


def pending(jobs: Sequence[Job], finished: set[str]) -> list[Job]:
    """The jobs whose trial is not finished (skipped and error trials are run again)."""
    return [j for j in jobs if j.key not in finished]
