"""The layers hold (import-linter's contract in pyproject.toml), a module that imports a layer
above its own breaks them, every layer says what it holds and may import, and old module
names (in stores, tuned files and user code) still import."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
LINT = shutil.which("lint-imports", path=str(Path(sys.executable).parent))


def _lint(package_root: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on the package found under ``package_root`` (its own pyproject)."""
    return subprocess.run(
        [LINT, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=package_root,
        env={"PYTHONPATH": str(package_root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def lint() -> None:
    if LINT is None:
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")


def test_the_layers_hold(lint) -> None:
    r = _lint(ROOT)
    assert r.returncode == 0, r.stdout[-3000:]
    assert "0 broken" in r.stdout


@pytest.mark.slow
def test_an_import_against_the_flow_breaks_the_layers(lint, tmp_path: Path) -> None:
    """The check can fail: the puzzles layer importing the runner is reported, by name."""
    shutil.copytree(
        ROOT / "slitherbench",
        tmp_path / "slitherbench",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    check = tmp_path / "slitherbench" / "puzzles" / "check.py"
    check.write_text(check.read_text() + "\nfrom slitherbench.run import runner  # noqa\n")
    r = _lint(tmp_path)
    assert r.returncode != 0
    assert "slitherbench.puzzles is not allowed to import slitherbench.run" in r.stdout
    assert "slitherbench.puzzles.check -> slitherbench.run.runner" in r.stdout


def _layer_packages() -> list[str]:
    names = []
    for contract in CONTRACT["contracts"]:
        for layer in contract["layers"]:
            names += [n.strip() for n in layer.split("#")[0].split("|")]
    return names


def test_every_layer_says_what_it_holds_and_what_it_may_import() -> None:
    for name in _layer_packages():
        doc = importlib.import_module(name).__doc__ or ""
        assert "Imports:" in doc, f"{name}'s docstring says nothing of what it may import"


def test_every_subpackage_of_the_top_is_a_layer() -> None:
    """A new folder under slitherbench/ joins the contract (else nothing checks its imports)."""
    layers = set(_layer_packages())
    tops = {
        f"slitherbench.{p.stem}"
        for p in (ROOT / "slitherbench").iterdir()
        if (p / "__init__.py").exists()
        or (p.suffix == ".py" and p.stem not in ("__init__", "__main__"))
    }
    assert tops <= layers, f"not in the layers contract: {sorted(tops - layers)}"


def test_old_module_names_import_the_moved_modules() -> None:
    from slitherbench.method.moved import MOVED, legacy_name, new_name

    for old, new in MOVED.items():
        if old in ("slitherbench.export.__main__",):
            continue
        moved = importlib.import_module(old)
        assert moved is importlib.import_module(new) or old in (
            "slitherbench.export",
            "slitherbench.report",
            "slitherbench.store",
        ), old
        assert legacy_name(new) == old or old in ("slitherbench.export", "slitherbench.report")
        assert new_name(old) == new
    cls = importlib.import_module("slitherbench.backends.dwave").SABackend
    assert cls.__module__ == "slitherbench.solvers.dwave"


def test_config_hashes_are_those_computed_before_the_move() -> None:
    """A cell's hash is computed over the old ``_target_`` names: one pinned here was computed
    with the package before its layout moved (the same value old stores carry)."""
    from omegaconf import OmegaConf

    from slitherbench.run.plan import build_cell

    f = {"_target_": "slitherbench.models.formulations.HuboFormulation"}
    b = {"_target_": "slitherbench.solvers.dwave.SABackend"}
    cfg = OmegaConf.create({"max_iterations": 50, "time_limit_s": 60.0, "base_seed": 0})
    assert build_cell(f, b).config_hash(cfg) == "e5174467f0a7"  # computed at commit d84a432


def test_provenance_finds_the_checkout_the_package_sits_in() -> None:
    """Paths computed from a module's own file follow the module's depth in the layout: the
    provenance of a run from a git checkout names its commit."""
    from slitherbench.method.provenance import git_state

    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    commit, _ = git_state()
    assert commit, "no commit found: the repository root is computed wrongly"
