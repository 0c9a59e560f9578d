"""The report and the notebook, on a small store made by experiment=smoke."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from slitherbench.report import main as report_main
from slitherbench.results import load

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow  # every test here runs the CLI or a notebook


@pytest.fixture(scope="module")
def smoke_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("smoke") / "store"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "slitherbench",
            "experiment=smoke",
            f"results_dir={store}",
            "progress=false",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return store


def _md_rows(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text().splitlines() if ln.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    return [
        dict(zip(header, (c.strip() for c in ln.strip("|").split("|")), strict=True))
        for ln in lines[2:]
    ]


def test_report_tables_count_what_the_raw_records_say(smoke_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert report_main([str(smoke_store), "--out", str(out)]) == 0
    trials, _ = load(smoke_store)
    # Independent counts from the raw files (the run compacted its trials into parts).
    raw = pd.concat([pd.read_parquet(f) for f in (smoke_store / "parts").glob("trials-*.parquet")])
    assert len(raw) == len(trials) == 16
    rows = _md_rows(out / "table_by_puzzle.md")
    groups = raw.groupby(["puzzle", "form_variant", "backend"])
    assert len(rows) == groups.ngroups
    for row in rows:
        d = raw[
            (raw.puzzle == row["puzzle"])
            & (raw.form_variant == row["form_variant"])
            & (raw.backend == row["backend"])
        ]
        assert row["solved"] == f"{int((d.status == 'solved').sum())}/{len(d)}"
        assert row["size"] == f"{d.rows.iloc[0]}x{d.cols.iloc[0]}"
    csv = pd.read_csv(out / "table_by_puzzle.csv")  # every statistic, not only the shown ones
    for _, row in csv.iterrows():
        d = raw[
            (raw.puzzle == row["puzzle"])
            & (raw.form_variant == row["form_variant"])
            & (raw.backend == row["backend"])
        ]
        ok = d[d.status == "solved"]
        if len(ok):
            assert row["iter_max"] == ok.iterations.max()
            assert row["iter_min"] == ok.iterations.min()
            assert row["iter_median"] == ok.iterations.median()
    agg = _md_rows(out / "table_by_form_backend.md")  # per board size
    assert len(agg) == raw.groupby(["rows", "cols", "form_variant", "backend"]).ngroups
    tex = (out / "table_by_puzzle.tex").read_text()
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert "\\multicolumn" in tex and "\\cmidrule" in tex
    assert tex.count("\\\\") == len(rows) + 2  # two header rows: groups, then labels
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["source"]["trials"] == 16
    assert manifest["source"]["experiments"] == ["smoke"]
    assert "smoke" in (out / "table_by_puzzle.md").read_text().splitlines()[0]
    for name in (
        "iterations_by_backend",
        "iterations_by_puzzle",
        "time_to_solution",
        "time_to_target_by_puzzle",
        "performance_profile",
        "scaling",
        "board_iterations",
    ):
        for ext in ("png", "pdf"):
            f = out / f"{name}.{ext}"
            assert f.exists() and f.stat().st_size > 1000, f


def test_report_column_and_grouping_options(smoke_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert (
        report_main(
            [
                str(smoke_store),
                "--out",
                str(out),
                "--group-by",
                "backend",
                "--columns",
                "solved,iter_median",
            ]
        )
        == 0
    )
    rows = _md_rows(out / "table_by_puzzle.md")
    assert list(rows[0]) == ["backend", "solved", "iter_median"]
    assert {r["backend"] for r in rows} == {"exact", "sa", "abs3"}


def test_report_errors_are_one_line(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench.report", str(tmp_path / "nothing")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 2
    assert r.stderr.startswith("error: no results at")
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "notebook", sorted((ROOT / "notebooks").glob("*.py")), ids=lambda p: p.name
)
def test_notebook_runs_top_to_bottom(notebook: Path, smoke_store: Path, tmp_path: Path) -> None:
    import jupytext
    from nbclient import NotebookClient

    nb = jupytext.read(notebook)
    os.environ["SLITHERBENCH_RESULTS"] = str(smoke_store)
    os.environ["SLITHERBENCH_FIGURES"] = str(tmp_path / "figs")
    try:
        NotebookClient(
            nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
        ).execute()
    finally:
        os.environ.pop("SLITHERBENCH_RESULTS")
        os.environ.pop("SLITHERBENCH_FIGURES")
    assert (tmp_path / "figs" / "board_iterations.png").exists()


def test_report_reads_the_exact_reference_and_computes_it_only_when_asked(
    smoke_store: Path, tmp_path: Path, capsys
) -> None:
    store = tmp_path / "s"
    import shutil

    shutil.copytree(smoke_store, store)
    # Drop the store's own exact cell: the reference must then come from exact_reference/.
    for f in (store / "parts").glob("*.parquet"):
        df = pd.read_parquet(f)
        df[df.backend != "exact"].to_parquet(f)
    assert "exact" not in set(load(store)[0].backend)
    assert report_main([str(store), "--out", str(tmp_path / "a")]) == 0
    assert "computing the exact" not in capsys.readouterr().out
    assert not (store / "exact_reference").exists()
    plain = pd.read_csv(tmp_path / "a" / "table_by_puzzle.csv")
    assert plain.exact_iter.isna().all()
    assert report_main([str(store), "--out", str(tmp_path / "b"), "--exact"]) == 0
    assert "computing the exact iteration reference" in capsys.readouterr().out
    ref, _ = load(store / "exact_reference")
    assert set(ref.status) == {"solved"} and len(ref) == 3 * ref.puzzle.nunique()
    table = pd.read_csv(tmp_path / "b" / "table_by_puzzle.csv")
    medians = ref.groupby("puzzle").iterations.median()
    for _, row in table.iterrows():
        assert row.exact_iter == medians[row.puzzle]
