"""The structure the README promises: layers, no import cycles, short functions, the stored
columns defined in one place, old stores still readable, and a new formulation or backend
that is one module plus one config file."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from slitherbench.analysis.report import main as report_main
from slitherbench.method import record
from slitherbench.store.result_store import ResultStore
from slitherbench.store.results import load

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "slitherbench"
OLD_STORE = Path(__file__).resolve().parent / "data" / "store_v0_1"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PKG.rglob("*.py")}


def _resolve(module: str, is_pkg: bool, node: ast.ImportFrom | ast.Import) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = module if is_pkg else module.rsplit(".", 1)[0]
    for _ in range(node.level - 1):
        base = base.rsplit(".", 1)[0]
    target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
    assert target is not None
    # "from . import x" imports the submodule x where there is one.
    subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
    return subs or [target]


def import_graph() -> dict[str, set[str]]:
    """Every import statement (module level or not) between the package's modules."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for t in _resolve(name, path.name == "__init__.py", node):
                    while t and t not in MODULES and "." in t:
                        t = t.rsplit(".", 1)[0]
                    if t in MODULES and t != name:
                        deps.add(t)
        graph[name] = deps
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for d in graph[stack.pop()]:
            # Importing slitherbench.x runs the package's __init__ first: not a dependency
            # of the importing module's own code.
            if d not in seen and d != "slitherbench":
                seen.add(d)
                stack.append(d)
    return seen


def test_no_import_cycle_in_the_package() -> None:
    graph = import_graph()
    assert len(graph) > 20
    cycles = [m for m in graph if m != "slitherbench" and m in reachable(graph, m)]
    assert cycles == []


@pytest.mark.slow  # among the slowest fast tests: the full suite runs it, the fast subset not
@pytest.mark.parametrize(
    "module",
    [
        "store.result_store",
        "store.results",
        "analysis.tables",
        "analysis.plots",
        "analysis.report",
        "method.record",
    ],
)
def test_results_layer_never_loads_solvers(module: str) -> None:
    deps = reachable(import_graph(), f"slitherbench.{module}")
    bad = {d for d in deps if d.split(".")[1] in ("run", "solvers")}
    assert bad == set()


def test_record_imports_nothing_of_the_package() -> None:
    assert import_graph()["slitherbench.method.record"] == set()


def test_the_graph_walker_sees_real_imports() -> None:
    # Guard against a walker that finds nothing: these edges exist.
    g = import_graph()
    assert "slitherbench.run.runner" in g["slitherbench.run.experiment"]
    assert "slitherbench.method.record" in g["slitherbench.store.result_store"]
    assert "slitherbench.analysis.tables" in g["slitherbench.analysis.report"]
    assert "slitherbench.puzzles.formats" in g["slitherbench"]


def test_functions_are_short_and_the_app_is_thin() -> None:
    long = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if n > 60:
                    long.append(f"{name}.{node.name}: {n} lines")
    assert long == []
    assert len((PKG / "run" / "app.py").read_text().splitlines()) <= 120


def test_each_form_has_one_encoder_over_the_variables() -> None:
    """Edge and face variables are a strategy (formulations/variables.py): a shipped form's
    ``encode`` never asks which variables it has, no form keeps a second (face) encoder,
    and only faces.py writes face-only encodings, which a form names in ``face_encodings``."""
    import inspect

    from slitherbench.models import formulations
    from slitherbench.models.formulations import base

    shipped = [getattr(formulations, n) for n in formulations.__all__ if n.endswith("Formulation")]
    assert len(shipped) == 5  # the base, cons, hubo, hubo2qubo, qubo
    for cls in shipped:
        name = cls.__name__
        assert not hasattr(cls, "encode_face"), name
        own = [k for k in ("encode",) if k in vars(cls)]
        for k in own:
            tree = ast.parse(inspect.cleandoc("\n" + inspect.getsource(getattr(cls, k))))
            names = [
                getattr(node, "attr", None) or getattr(node, "id", None) or node.value
                for node in ast.walk(tree)
                if isinstance(node, ast.Attribute | ast.Name)
                or (isinstance(node, ast.Constant) and isinstance(node.value, str))
            ]
            asks = [n for n in names if "face" in str(n)]
            assert asks == [], (name, k, asks)
        for shape, fn in cls.face_encodings.items():
            assert shape in base.SHAPES and fn.__module__.endswith(".faces"), (name, shape)


def test_results_readme_columns_are_generated_from_the_record() -> None:
    text = (ROOT / "results" / "README.md").read_text()
    assert record.BEGIN in text and record.END in text
    assert record.readme_with_columns(text) == text, "run: python -m slitherbench.method.record"
    for col in record.column_names(record.Trial) + record.column_names(record.Iteration):
        assert f"| `{col}` |" in text


@pytest.mark.slow
def test_a_store_from_before_the_record_loads_reports_and_resumes(tmp_path: Path) -> None:
    store = tmp_path / "old"
    shutil.copytree(OLD_STORE, store)
    trials, iters = load(store)
    assert len(trials) == 4 and set(iters.key) <= set(trials.key)
    assert set(trials.status) == {"solved", "max_iterations"}
    # its tables and the figures that read the iterations (every item on a new store:
    # test_plugins; each figure costs seconds)
    items = "table_by_puzzle,table_by_form_backend,iterations_by_backend,board_iterations"
    out = tmp_path / "report"
    assert report_main([str(store), "--out", str(out), "--items", items]) == 0
    assert (out / "iterations_by_backend.png").exists() and (out / "board_iterations.png").exists()
    assert ResultStore(store).finished_keys() == set(trials.key)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "slitherbench",
            "experiment=smoke",
            "cells=[{formulation: cons, backend: exact}, {formulation: qubo, backend: sa, "
            "backend_params: {num_sweeps: 1000, num_reads: 4}}]",
            "repetitions=1",
            f"results_dir={store}",
            "progress=false",
            f"hydra.run.dir={tmp_path / 'run'}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "resuming: 4 of 4" in r.stderr  # same configuration, same keys: nothing re-run
    assert "in the layout before parts: compacting it" in r.stderr
    assert not (store / "trials").exists() and not (store / "trials.parquet").exists()
    assert len(list((store / "parts").glob("trials-*.parquet"))) == 1
    assert sorted(load(store)[0].key) == sorted(trials.key)


PLUGIN = '''
"""A formulation and a backend that live outside the package."""
from slitherbench.solvers.base import Backend, best_sample
from slitherbench.models.formulations.base import Formulation, Piece
from slitherbench.models.formulations.penalties import exact_degree_piece, squared_piece
from slitherbench.method.record import Capability, SolveResult


class TripleCutForm(Formulation):
    name = "triplecut"

    def encode(self, c, model):
        w = self.weights[c.kind]
        if c.kind == "clue":
            return squared_piece(c, model, w, c.allowed[0])
        if c.kind == "degree":
            return exact_degree_piece(c, model, w)
        return Piece(c, poly={tuple(sorted(c.edges)): 3 * w})


class HuboAnnealer(Backend):
    name = "plugsa"
    takes = frozenset({Capability.POLYNOMIAL})
    packages = ("openjij",)

    def solve(self, model, *, seed, hint, time_limit_s):
        import openjij as oj

        J = {t: float(c) for t, c in model.polynomial().items() if t}
        res = oj.SASampler().sample_hubo(J, vartype="BINARY", num_sweeps=500, num_reads=4, seed=seed % 2**31)
        sample, energy = best_sample(model, res.samples())
        return SolveResult(sample, energy)
'''


@pytest.mark.slow
def test_a_new_formulation_and_backend_are_one_module_and_one_config_each(tmp_path: Path) -> None:
    (tmp_path / "plugin_mod.py").write_text(PLUGIN)
    conf = tmp_path / "conf"
    (conf / "formulation").mkdir(parents=True)
    (conf / "backend").mkdir()
    (conf / "formulation" / "triplecut.yaml").write_text("_target_: plugin_mod.TripleCutForm\n")
    (conf / "backend" / "plugsa.yaml").write_text("_target_: plugin_mod.HuboAnnealer\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    common = ["puzzle=tiny", "repetitions=2", "progress=false", f"hydra.searchpath=[file://{conf}]"]
    runs = {
        "groups": ["formulation=triplecut", "backend=plugsa"],
        "cells": [
            "cells=[{formulation: triplecut, backend: plugsa}, {formulation: cons, backend: plugsa}]"
        ],
    }
    for label, args in runs.items():
        store = tmp_path / label
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "slitherbench",
                *common,
                *args,
                f"results_dir={store}",
                f"hydra.run.dir={tmp_path / 'run'}",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            check=False,
        )
        assert r.returncode == 0, r.stderr[-3000:]
        trials, _ = load(store)
        mine = trials[trials.form_variant == "triplecut"]
        assert len(mine) == 4 and set(mine.backend) == {"plugsa"}
        assert (mine.status == "solved").all() and mine.verified.all()
        assert mine.version_openjij.str.len().gt(0).all()  # its declared package, recorded
        if label == "cells":
            cons = trials[trials.formulation == "cons"]
            assert set(cons.status) == {"skipped"}
            assert cons.reason.str.startswith("backend plugsa does not accept the cons form").all()
            # the report reads the plugin's cells (one table and one figure: figures cost
            # seconds each, and every item is run on every kind of store elsewhere)
            items = "table_by_form_backend,iterations_by_backend"
            out = tmp_path / f"report-{label}"
            assert report_main([str(store), "--out", str(out), "--items", items]) == 0
            assert (out / "iterations_by_backend.png").exists()
