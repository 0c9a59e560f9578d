"""The typed packages pass mypy at the strictness pyproject.toml's [tool.mypy] states (CI runs
the same check as `.venv/bin/mypy`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is not installed (it is in the [dev] extra)")

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def _mypy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[str, int]:
    """mypy with the project's configuration, its cache in ``tmp_path`` (the checkout stays
    clean): the report and the exit status."""
    monkeypatch.chdir(ROOT)  # the configured paths are the checkout's
    out, err, status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            *args,
        ]
    )
    return out + err, status


@pytest.mark.slow  # 11-14 s on a 2-core Xeon VM with an empty cache
def test_configured_packages_have_no_type_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report, status = _mypy(tmp_path, monkeypatch)
    assert status == 0, report
    # Every module of the configured packages was read: a wrong path would check fewer.
    modules = sum(len(list((ROOT / p).rglob("*.py"))) for p in CONFIG["files"])
    assert f"no issues found in {modules} source files" in report, report


@pytest.mark.slow
def test_the_stated_strictness_is_applied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """check_untyped_defs: an error in the body of a function without annotations counts."""
    sample = tmp_path / "untyped.py"
    sample.write_text("def untyped():\n    count: int = 'three'\n    return count\n")
    report, status = _mypy(tmp_path, monkeypatch, str(sample))
    assert status == 1, report
    assert 'Incompatible types in assignment (expression has type "str"' in report, report
