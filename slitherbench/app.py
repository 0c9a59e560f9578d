"""The Hydra app: ``python -m slitherbench experiment=hubo_vs_qubo``.

:func:`main` is a thin ``@hydra.main``; :func:`run_experiment` is a plain function of the
config and the results directory, so tests use Hydra's compose API and call it directly.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hydra
import pandas as pd
from hydra.core.hydra_config import HydraConfig
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from .backends.base import Backend
from .formulations import Formulation
from .library import generated, get_suite
from .provenance import provenance
from .puzzle import Puzzle, PuzzleFormatError, answer_from_bits
from .runner import run_trial
from .store import ResultStore

CONF_DIR = Path(__file__).resolve().parents[1] / "conf"


class ConfigError(ValueError):
    """A configuration that cannot run; reported in one line, exit code 2."""


@dataclass
class Cell:
    formulation_name: str
    backend_name: str
    formulation_cfg: dict[str, Any]
    backend_cfg: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.formulation_name}/{self.backend_name}"

    def build(self) -> tuple[Formulation, Backend]:
        try:
            form = instantiate(self.formulation_cfg)
            back = instantiate(self.backend_cfg)
        except Exception as exc:  # Hydra wraps the constructor's error
            cause = exc.__cause__ or exc
            raise ConfigError(f"cell {self.label}: {cause}") from None
        return form, back

    def config_hash(self, cfg: DictConfig) -> str:
        blob = json.dumps(
            {
                "formulation": self.formulation_cfg,
                "backend": self.backend_cfg,
                "max_iterations": cfg.max_iterations,
                "time_limit_s": cfg.time_limit_s,
                "base_seed": cfg.base_seed,
            },
            sort_keys=True,
            default=str,
        )
        return hashlib.sha1(blob.encode()).hexdigest()[:12]


# -- config pieces -----------------------------------------------------------------------
def load_group(group: str, name: str) -> dict[str, Any]:
    path = CONF_DIR / group / f"{name}.yaml"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml")))
        raise ConfigError(f"unknown {group} {name!r} (known: {known})")
    return OmegaConf.to_container(OmegaConf.load(path), resolve=True)  # type: ignore[return-value]


def _group_choice(group: str) -> str | None:
    try:
        return HydraConfig.get().runtime.choices.get(group)
    except ValueError:  # not inside a Hydra run (compose API)
        return None


def _name_of(cfg_node: DictConfig, group: str) -> str:
    choice = _group_choice(group)
    if choice:
        return str(choice)
    target = str(cfg_node.get("_target_", ""))
    for p in (CONF_DIR / group).glob("*.yaml"):
        if OmegaConf.load(p).get("_target_") == target:
            return p.stem
    return target.rsplit(".", 1)[-1]


def resolve_cells(cfg: DictConfig) -> list[Cell]:
    if cfg.cells is None:
        return [
            Cell(
                _name_of(cfg.formulation, "formulation"),
                _name_of(cfg.backend, "backend"),
                OmegaConf.to_container(cfg.formulation, resolve=True),  # type: ignore[arg-type]
                OmegaConf.to_container(cfg.backend, resolve=True),  # type: ignore[arg-type]
            )
        ]
    cells = [cell_from_spec(spec) for spec in cfg.cells]
    if cfg.cell is not None:
        if not 0 <= int(cfg.cell) < len(cells):
            raise ConfigError(
                f"cell={cfg.cell} but the experiment has {len(cells)} cells (0..{len(cells) - 1})"
            )
        cells = [cells[int(cfg.cell)]]
    return cells


def cell_from_spec(spec: Any) -> Cell:
    spec = (
        OmegaConf.to_container(spec, resolve=True) if isinstance(spec, DictConfig) else dict(spec)
    )
    for key in ("formulation", "backend"):
        if key not in spec:
            raise ConfigError(f"a cell needs '{key}': {spec}")
    f = load_group("formulation", spec["formulation"])
    f.update(spec.get("formulation_params") or {})
    b = load_group("backend", spec["backend"])
    b.update(spec.get("backend_params") or {})
    return Cell(spec["formulation"], spec["backend"], f, b)


def puzzles_from_config(pcfg: DictConfig) -> list[Puzzle]:
    kind = pcfg.get("kind")
    if kind == "suite":
        try:
            return get_suite(str(pcfg.name))
        except KeyError as exc:
            raise ConfigError(str(exc.args[0])) from None
    if kind == "generated":
        return [
            generated(int(pcfg.rows), int(pcfg.cols), int(pcfg.seed) + k)
            for k in range(int(pcfg.count))
        ]
    if kind == "text":
        if OmegaConf.is_missing(pcfg, "text"):
            raise ConfigError("puzzle=text needs puzzle.text='...' (rows, URL, Loopy ID, ...)")
        try:
            p = Puzzle.parse(str(pcfg.text), name=str(pcfg.get("name", "custom")))
        except PuzzleFormatError as exc:
            raise ConfigError(f"puzzle.text: {exc}") from None
        precheck(p)
        return [p]
    raise ConfigError(f"puzzle.kind must be suite, generated or text, got {kind!r}")


def precheck(p: Puzzle, time_limit_s: float = 10.0) -> None:
    """Cheap check before spending solver time: a puzzle with no answer is a config error."""
    from .exact import solve_exact

    r = solve_exact(p, time_limit_s=time_limit_s)
    if r.status == "infeasible":
        raise ConfigError(f"puzzle.text: the clues admit no single loop (CP-SAT proved it, {p!r})")
    if r.status == "multiple":
        print(
            f"warning: {p!r} has more than one answer; any valid loop counts as solved",
            file=sys.stderr,
        )


def derive_seed(base_seed: int, puzzle: Puzzle, repetition: int) -> int:
    """Seeds depend on (base_seed, puzzle, repetition) only: every cell sees the same ones."""
    ident = puzzle.name or "".join(puzzle.to_rows())
    h = hashlib.sha256(f"{base_seed}|{ident}|{repetition}".encode()).digest()
    return int.from_bytes(h[:4], "little") & 0x7FFFFFFF


def puzzle_ident(puzzle: Puzzle) -> str:
    return hashlib.sha1("/".join(puzzle.to_rows()).encode()).hexdigest()[:10]


def _in_multirun() -> bool:
    try:
        return HydraConfig.get().mode.name == "MULTIRUN"
    except ValueError:
        return False


# -- running -----------------------------------------------------------------------------
def run_experiment(
    cfg: DictConfig, results_dir: str | Path | None = None, config_name: str = "config.yaml"
) -> pd.DataFrame:
    """Run every (puzzle x cell x repetition) not yet in the store; return all their trials."""
    from tqdm import tqdm

    out = Path(results_dir if results_dir is not None else cfg.results_dir)
    store = ResultStore(out)
    out.mkdir(parents=True, exist_ok=True)
    if cfg.cell is not None and config_name == "config.yaml":
        config_name = f"config-cell{int(cfg.cell)}.yaml"  # one per job of a multirun sweep
    (out / config_name).write_text(OmegaConf.to_yaml(cfg, resolve=True))
    puzzles = puzzles_from_config(cfg.puzzle)
    cells = resolve_cells(cfg)
    built = []
    for cell in cells:
        form, back = cell.build()
        reason = back.unsupported_reason(form)
        if reason and not _in_multirun() and cfg.cells is None:
            raise ConfigError(reason)
        built.append((cell, form, back))
    done = set() if cfg.overwrite else store.finished_keys()
    prov = provenance()
    jobs = []
    for cell, form, back in built:
        h = cell.config_hash(cfg)
        for p in puzzles:
            for rep in range(int(cfg.repetitions)):
                key = f"{h}-{puzzle_ident(p)}-r{rep}"
                jobs.append((key, h, cell, form, back, p, rep))
    todo = [j for j in jobs if j[0] not in done]
    ran = solved = 0
    skipped_cells: set[str] = set()
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
            f"resuming: {len(jobs) - len(todo)} of {len(jobs)} trials already in {out}",
            file=sys.stderr,
        )
    try:
        for key, h, cell, form, back, p, rep in todo:
            seed = derive_seed(int(cfg.base_seed), p, rep)
            bar.set_postfix_str(f"{cell.label} {p.name or p.size_label} r{rep}")
            result = run_trial(
                p, form, back, seed, int(cfg.max_iterations), float(cfg.time_limit_s)
            )
            extra = {
                "experiment": str(cfg.experiment_name),
                "config_hash": h,
                "cell": cell.label,
                "repetition": rep,
                "puzzle_rows": "/".join(p.to_rows()),
                "difficulty": str(p.meta.get("difficulty", "")),
                "max_iterations": int(cfg.max_iterations),
                "time_limit_s": float(cfg.time_limit_s),
                "formulation_params": json.dumps(form.params(), sort_keys=True),
                "backend_params": json.dumps(back.params, sort_keys=True, default=str),
                "timestamp": pd.Timestamp.now(tz="UTC").isoformat(),
                **prov,
            }
            store.write(key, result, extra)
            ran += 1
            solved += result.status == "solved"
            if result.status == "skipped" and result.trial["reason"].startswith("license_limit"):
                skipped_cells.add(cell.label)
            if cfg.trace:
                print_trace(p, result, cell.label)
            bar.update(1)
            bar.set_postfix_str(f"solved {solved}/{ran} this run")
    finally:
        bar.close()
        everything = store.snapshot()
    order = {j[0]: k for k, j in enumerate(jobs)}  # the experiment's cell and puzzle order
    table = everything[everything["key"].isin(order)] if not everything.empty else everything
    if not table.empty:
        table = table.sort_values("key", key=lambda s: s.map(order))
    if skipped_cells and cfg.fallback_cells:
        fallback = run_fallback(cfg, out, sorted(skipped_cells), puzzles)
        table = pd.concat([table, fallback], ignore_index=True)
    return table.reset_index(drop=True)


def run_fallback(
    cfg: DictConfig, out: Path, skipped: list[str], puzzles: list[Puzzle]
) -> pd.DataFrame:
    need = max(p.num_edges for p in puzzles)
    names = ", ".join(f"{c.formulation}/{c.backend}" for c in cfg.fallback_cells)
    print(
        f"pyqbpp without QBPP_LICENSE_KEY allows 100 variables and {', '.join(skipped)} needs "
        f"{need}+: running the same trace with {names} instead.",
        flush=True,
    )
    sub = OmegaConf.merge(
        cfg,
        {"cells": OmegaConf.to_container(cfg.fallback_cells), "fallback_cells": None, "cell": None},
    )
    return run_experiment(sub, out, config_name="config_fallback.yaml")  # type: ignore[arg-type]


def print_trace(puzzle: Puzzle, result: Any, label: str) -> None:
    """The reference page's output: per-iteration energy and loop sizes, first and final boards."""
    t = result.trial
    if t["status"] == "skipped":
        return  # the fallback line (or the summary's note) says why, once
    print(
        f"\n== {puzzle.name or puzzle.size_label}  {label}  seed {t['seed']}: {t['status']} {t['reason']}".rstrip()
    )
    for it in result.iterations:
        sizes = " ".join(str(s) for s in it["loop_sizes"])
        print(f"iteration {it['iteration']}: energy = {it['energy']}, loops = {sizes}")
        if it["iteration"] == 1:
            print(puzzle.render(answer_from_bits(puzzle, it["edges"])))
    if t["status"] == "solved":
        print(puzzle.render(answer_from_bits(puzzle, t["answer"])))


def _short_reason(d: pd.DataFrame) -> str:
    reasons = d.loc[d.status != "solved", "reason"].dropna()
    reasons = reasons[reasons != ""]
    if reasons.empty:
        return ""
    top = str(reasons.value_counts().index[0])
    return top if len(top) <= 60 else top[:57] + "..."


def summary_table(trials: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle x form x backend: solved/total, median iterations and time."""
    if trials.empty:
        return pd.DataFrame()
    g = trials.groupby(["puzzle", "form_variant", "backend"], sort=False)
    out = g.apply(
        lambda d: pd.Series(
            {
                "solved": f"{int((d.status == 'solved').sum())}/{len(d)}",
                "median_iter": d.loc[d.status == "solved", "iterations"].median(),
                "median_wall_s": round(float(d.wall_s.median()), 3),
                "statuses": ",".join(f"{k}:{v}" for k, v in d.status.value_counts().items()),
                "note": _short_reason(d),
            }
        ),
        include_groups=False,
    )
    return out.reset_index()


@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")
def main(cfg: DictConfig) -> None:
    try:
        trials = run_experiment(cfg)
    except (ConfigError, PuzzleFormatError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print(
            f"interrupted: finished trials are in {Path(cfg.results_dir).resolve()}; "
            "run the same command again to resume",
            file=sys.stderr,
        )
        sys.exit(130)
    if not trials.empty:
        with pd.option_context(
            "display.width", 200, "display.max_columns", 20, "display.max_rows", 500
        ):
            print(summary_table(trials).to_string(index=False))
    print(f"results: {Path(cfg.results_dir).resolve()}")
