"""The report and the notebook, on a small store made by experiment=smoke."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from slitherbench.analysis import render, stats, tables
from slitherbench.analysis.plots import ReportData
from slitherbench.analysis.plots.survey_layout import SURVEY_CAPTION
from slitherbench.analysis.publish import PAGE_INSTANCES, _sections
from slitherbench.analysis.report import main as report_main
from slitherbench.store.results import load

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


# The Markdown tables are headed by the LaTeX tables' labels; read back to column names.
CODE_OF = {render.md_label(k): k for k in [*render.KEY_LABELS, *render.COLUMNS]}
CODE_OF["Form"] = "form_variant"


def _md_rows(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text().splitlines() if ln.startswith("|")]
    header = [CODE_OF[c.strip()] for c in lines[0].strip("|").split("|")]
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
    within = pd.read_csv(out / "solved_within.csv")  # the time-to-solution table
    for _, row in within.iterrows():
        d = raw[(raw.form_variant == row["form_variant"]) & (raw.backend == row["backend"])]
        d = d[(d.rows.astype(str) + "x" + d.cols.astype(str)) == row["size"]]
        ok = d[(d.status == "solved") & (d.wall_s <= row["budget_s"])]
        assert row["within_1"] == len(ok) and row["ran"] == d.status.isin(tables.RAN).sum()
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
                "--items",  # the table it reads; figures cost seconds
                "table_by_puzzle",
            ]
        )
        == 0
    )
    rows = _md_rows(out / "table_by_puzzle.md")
    assert list(rows[0]) == ["backend", "solved", "iter_median"]
    assert {r["backend"] for r in rows} == {"exact", "sa", "abs3"}


def test_report_errors_are_one_line(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench.analysis.report", str(tmp_path / "nothing")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 2
    assert r.stderr.startswith("error: no results at")
    assert "Traceback" not in r.stderr


def test_a_store_named_twice_is_read_once(tmp_path: Path) -> None:
    from slitherbench.store.result_store import ResultStore
    from slitherbench.store.results import store_paths

    store = tmp_path / "runs" / "one"
    ResultStore(store)  # an empty store: its folders only
    (store / "pending").mkdir(parents=True, exist_ok=True)
    twice = store_paths([str(store), str(tmp_path / "runs"), f"{tmp_path}/runs/../runs/one"])
    assert twice == [store]


def test_a_trial_kept_in_two_stores_reports_with_both_copies(
    smoke_store: Path, tmp_path: Path
) -> None:
    # A size measured again with the same settings (a run's boards run by a later one) keeps
    # its trials' keys: a report over both stores counts both copies, as a published page does.
    again = tmp_path / "again"
    shutil.copytree(smoke_store, again, ignore=shutil.ignore_patterns("report"))
    items = "table_by_form_backend,iterations_by_backend"  # a table, and a figure of iterations
    out = tmp_path / "r"
    assert report_main([str(smoke_store), str(again), "--out", str(out), "--items", items]) == 0
    once = json.loads((out / "manifest.json").read_text())["source"]
    trials, iterations = load(smoke_store)
    assert (once["trials"], once["iterations"]) == (2 * len(trials), 2 * len(iterations))


def readme_notebook_command() -> str:
    """The README's one command that executes the notebook (run from the repository root)."""
    readme = (ROOT / "README.md").read_text()
    line = next(ln for ln in readme.splitlines() if "jupytext --to ipynb --execute" in ln)
    return line.split("#")[0].strip().strip("`")


def _run_readme_notebook(workdir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The README's command in a copy of the repository's layout (``workdir`` holds
    notebooks/ and results/), with this interpreter's venv for ``.venv/bin/``."""
    command = readme_notebook_command().replace(".venv/bin/", f"{Path(sys.executable).parent}/")
    return subprocess.run(
        command,
        shell=True,
        cwd=workdir,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize(
    "notebook", sorted((ROOT / "notebooks").glob("*.py")), ids=lambda p: p.name
)
def test_the_readmes_notebook_command_runs_it_top_to_bottom(
    notebook: Path, smoke_store: Path, tmp_path: Path
) -> None:
    import nbformat

    work = tmp_path / "repo"
    (work / "notebooks").mkdir(parents=True)
    shutil.copy(notebook, work / "notebooks" / "analysis.py")
    store = work / "results" / "hubo_vs_qubo"  # the notebook's default store, relative
    shutil.copytree(smoke_store, store)
    r = _run_readme_notebook(work)
    assert r.returncode == 0, r.stderr[-3000:]
    nb = nbformat.read(work / "notebooks" / notebook.with_suffix(".ipynb").name, as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert outputs and not [o for o in outputs if o.output_type == "error"]
    text = "".join(str(o.get("text", "")) for o in outputs)
    assert f"16 trials, {len(load(smoke_store)[1])} solves from {store}" in text
    assert (store / "notebook_figures" / "board_iterations.png").exists()
    assert not (work / "notebooks" / "results").exists()  # paths from the repository root
    # A store that is not there: the notebook stops at loading it, having created nothing.
    before = sorted(p for p in work.rglob("*") if ".ipynb" not in p.name)
    r = _run_readme_notebook(work, SLITHERBENCH_RESULTS="results/nowhere")
    assert r.returncode != 0 and "no results at" in r.stderr
    assert sorted(p for p in work.rglob("*") if ".ipynb" not in p.name) == before


def test_a_store_that_lost_its_iterations_still_reports_and_says_so(
    smoke_store: Path, tmp_path: Path, capsys
) -> None:
    store = tmp_path / "s"
    shutil.copytree(smoke_store, store)
    (part,) = (store / "parts").glob("iterations-*.parquet")
    part.write_bytes(part.read_bytes()[:200])  # a torn copy: every iteration unreadable
    out = tmp_path / "report"
    assert report_main([str(store), "--out", str(out), "--compare", "hubo,qubo"]) == 0
    err = capsys.readouterr().err
    assert "16 trial(s) have no stored iterations" in err
    assert "1 unreadable file(s) (parts/iterations-" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert any("have no stored iterations" in m for m in manifest["missing"])
    assert len(_md_rows(out / "table_by_puzzle.md")) == 8  # every trial still reported
    assert not (out / "board_iterations.png").exists()  # nothing to draw it from
    # The trials part lost instead: the iterations are there, their trials are named.
    store2 = tmp_path / "s2"
    shutil.copytree(smoke_store, store2)
    (trials_part,) = (store2 / "parts").glob("trials-*.parquet")
    trials_part.unlink()
    assert report_main([str(store2), "--out", str(tmp_path / "r2")]) == 2
    assert "16 trial(s) have iterations but no readable trial row" in capsys.readouterr().err


def test_report_reads_the_exact_reference_and_computes_it_only_when_asked(
    smoke_store: Path, tmp_path: Path, capsys
) -> None:
    store = tmp_path / "s"
    shutil.copytree(smoke_store, store)
    # Drop the store's own exact cell: the reference must then come from exact_reference/.
    for f in (store / "parts").glob("*.parquet"):
        df = pd.read_parquet(f)
        df[df.backend != "exact"].to_parquet(f)
    assert "exact" not in set(load(store)[0].backend)
    only = ["--items", "table_by_puzzle"]  # the table it reads; figures cost seconds
    assert report_main([str(store), "--out", str(tmp_path / "a"), *only]) == 0
    assert "computing the exact" not in capsys.readouterr().out
    assert not (store / "exact_reference").exists()
    plain = pd.read_csv(tmp_path / "a" / "table_by_puzzle.csv")
    assert plain.exact_iter.isna().all()
    assert report_main([str(store), "--out", str(tmp_path / "b"), "--exact", *only]) == 0
    assert "computing the exact iteration reference" in capsys.readouterr().out
    ref, _ = load(store / "exact_reference")
    assert set(ref.status) == {"solved"} and len(ref) == 3 * ref.puzzle.nunique()
    table = pd.read_csv(tmp_path / "b" / "table_by_puzzle.csv")
    medians = ref.groupby("puzzle").iterations.median()
    for _, row in table.iterrows():
        assert row.exact_iter == medians[row.puzzle]


def test_compare_given_twice_writes_both_pairs_in_the_report_and_on_a_page(
    smoke_store: Path, tmp_path: Path, capsys
) -> None:
    """``--compare`` repeats (the campaign asks several paired questions of one store): each
    pair gets its own file in the report and its own section on a published page, and the
    page's regenerating command names both."""
    out = tmp_path / "report"
    pairs = ["hubo,qubo", "hubo/sa,qubo/sa"]
    args = [str(smoke_store), "--out", str(out)]
    assert report_main([*args, "--compare", pairs[0], "--compare", pairs[1]]) == 0
    assert (out / "compare_hubo_vs_qubo.md").exists() and (
        out / "compare_hubo-sa_vs_qubo-sa.md"
    ).exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert {"compare_hubo_vs_qubo.md", "compare_hubo-sa_vs_qubo-sa.md"} <= set(manifest["files"])
    dest = tmp_path / "docs" / "findings" / "pairs"
    publish_args = [str(smoke_store), "--publish", str(dest)]
    assert report_main([*publish_args, "--compare", pairs[0], "--compare", pairs[1]]) == 0
    page = (dest.parent / "pairs.md").read_text()
    assert "## Paired comparison: hubo vs qubo" in page
    assert "## Paired comparison: hubo/sa vs qubo/sa" in page
    assert "--compare hubo,qubo --compare hubo/sa,qubo/sa" in page


def test_a_published_page_judges_each_cell_against_its_own_target(
    smoke_store: Path, tmp_path: Path, capsys
) -> None:
    """``--target 0.95 --target qubo/sa=0.5``: qubo/sa's rows against 0.5, every other row
    against 0.95; a target that is not a rate is refused in one line."""
    dest = tmp_path / "targets"
    args = [str(smoke_store), "--publish", str(dest), "--target", "0.95"]
    assert report_main([*args, "--target", "qubo/sa=0.5"]) == 0
    page = (tmp_path / "targets.md").read_text()
    assert "at least 0.95 per board size and cell; at least 0.5 for qubo/sa." in page
    rows = [line.split(" | ") for line in page.splitlines() if line.count(" | ") == 5]
    judged = {(r[1], r[2]): r[4] for r in rows if r[0] != "| Size"}
    assert judged[("qubo", "sa")] == "0.5" and judged[("hubo[aux]", "sa")] == "0.95"
    assert "--target 0.95 --target qubo/sa=0.5" in page
    capsys.readouterr()
    assert report_main([*args, "--target", "qubo/sa=half"]) == 2
    assert "expected RATE or CELL=RATE" in capsys.readouterr().err


def test_a_published_page_shows_seconds_per_instance_where_a_size_holds_several(
    smoke_store: Path, tmp_path: Path
) -> None:
    """The page's table is by size; where a size holds several instances (the survey's two
    boards per size) the page adds the survey's layout, one row per instance, the same grid
    as the report's survey_layout item; one instance per size (or a wall of them) adds none."""
    trials, iterations = load(smoke_store)
    prepared = tables.with_size(tables.by_configuration(trials))

    def section(rows: pd.DataFrame) -> str:
        parts = _sections(
            ReportData(rows, iterations, tmp_path), trials, pd.DataFrame(), None, None
        )
        text = "\n".join(parts)
        return text.split("## Seconds per instance")[1].split("\n## ")[0] if (
            "## Seconds per instance" in text) else ""  # fmt: skip

    assert prepared.groupby("size").puzzle.nunique().max() == 1
    assert section(prepared) == ""
    twin = prepared.assign(puzzle=prepared.puzzle + "-twin")  # a second board of each size
    both = pd.concat([prepared, twin], ignore_index=True)
    shown = section(both)
    assert (
        shown.strip() == render.grid_markdown(tables.instance_times(both), SURVEY_CAPTION).strip()
    )
    rows = [line for line in shown.splitlines() if line.startswith("| ") and "-twin" in line]
    assert len(rows) == prepared.puzzle.nunique()
    many = pd.concat(
        [prepared.assign(puzzle=prepared.puzzle + f"-{k}") for k in range(PAGE_INSTANCES)],
        ignore_index=True,
    )
    assert section(many) == ""


def test_a_published_page_takes_the_exact_column_from_the_stores_reference(
    tmp_path: Path,
) -> None:
    """A store without an exact cell: its page's exact column reads "–" until the reference
    is made (``--exact``, named in the page's command), then the reference's iterations."""
    store = tmp_path / "store"
    cell = "cells=[{formulation: qubo, backend: sa, backend_params: {num_sweeps: 500}}]"
    run = [sys.executable, "-m", "slitherbench", "experiment=smoke", cell, "repetitions=1"]
    r = subprocess.run(
        [*run, f"results_dir={store}", "progress=false"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]

    def exact_column(page: Path) -> list[str]:
        lines = page.read_text().split("## Results")[1].split("\n## ")[0].splitlines()
        header = next(line for line in lines if line.startswith("| Size"))
        col = header.split(" | ").index("Iterations, solved trials: exact")
        return [line.split(" | ")[col] for line in lines if line.startswith("| ") and
                line.split(" | ")[0][2:].split("x")[0].isdigit()]  # fmt: skip

    dest = tmp_path / "findings" / "page"
    assert report_main([str(store), "--publish", str(dest)]) == 0
    assert set(exact_column(tmp_path / "findings" / "page.md")) == {"–"}
    assert report_main([str(store), "--publish", str(dest), "--exact"]) == 0
    page = tmp_path / "findings" / "page.md"
    assert all(v.isdigit() for v in exact_column(page)), exact_column(page)
    assert "--publish docs/findings/page --exact`" in page.read_text()


def test_a_trial_stopped_at_a_licence_limit_after_it_ran_counts_against_the_frontier() -> None:
    """A cut can grow a model past pyqbpp's free 100 variables: such trials are skipped after
    they ran. Left out of solved/ran, a cell that solved 1 trial and stopped in 39 would show
    1/1 and a frontier at that size; counted as not solved, it does not reach it."""

    def trial(size: int, status: str, iterations: int, k: int) -> dict:
        return {"form_variant": "hubo[exact]/face", "backend": "abs3", "rows": size,
                "cols": size, "status": status, "iterations": iterations,
                "wall_s": 1.0, "time_limit_s": 20.0, "key": f"{size}-{k}"}  # fmt: skip

    rows = [trial(5, "solved", 1, k) for k in range(4)]
    rows += [trial(10, "solved", 1, 0)]
    rows += [trial(10, "skipped", 2, k) for k in range(1, 40)]  # stopped after one solve
    rows += [trial(12, "skipped", 0, k) for k in range(4)]  # too big before the first solve
    summary = tables.frontier_summary(pd.DataFrame(rows))
    at10 = summary[summary["size"] == "10x10"].iloc[0]
    assert (at10.solved, at10.stopped, bool(at10.frontier)) == ("1/1", 39, False)
    assert summary.loc[summary.frontier, "size"].tolist() == ["5x5"]
    assert "12x12" not in set(summary["size"])  # never ran: not a frontier size at all
    grid = tables.frontier_grid(summary).iloc[0]
    assert grid["10x10"] == "1/1, 39 stopped" and grid["frontier"] == "5x5"
    # without the stopped trials the same cell would have reached 10x10
    ran = pd.DataFrame([r for r in rows if r["status"] != "skipped"])
    assert tables.frontier_summary(ran).loc[lambda d: d.frontier, "size"].tolist() == ["10x10"]


def test_solved_within_counts_each_trial_at_the_fractions_of_its_budget_it_solved_by() -> None:
    """The table behind a claim like "15 of 20 within 60 s": a trial counts at a checkpoint
    where its wall time is at most that fraction of its budget; trials that did not solve, or
    did not run, never count; iterations are the solved trials' own."""
    from slitherbench.analysis.plots.time_to_solution import within_grid

    def trial(status: str, wall: float, its: int, backend: str = "abs3") -> dict:
        return {"form_variant": "cons/face", "backend": backend, "rows": 10, "cols": 10,
                "status": status, "wall_s": wall, "iterations": its,
                "time_limit_s": 120.0}  # fmt: skip

    rows = [trial("solved", w, i) for w, i in ((10, 3), (15, 5), (40, 17), (60, 20), (119, 28))]
    rows += [trial("timeout", 120, 30), trial("skipped", 0, 0)]
    within = tables.solved_within(pd.DataFrame(rows)).iloc[0]
    assert within["ran"] == 6  # the skipped trial never ran
    counts = [within[f"within_{f:g}"] for f in tables.WITHIN_FRACTIONS]
    assert counts == [2, 2, 4, 5]  # <= 15 s, <= 30 s, <= 60 s, <= 120 s
    assert (within["iter_min"], within["iter_median"], within["iter_max"]) == (3, 17, 28)
    grid = within_grid(tables.solved_within(pd.DataFrame(rows)))
    assert list(grid.columns[3:7]) == ["within 15 s", "within 30 s", "within 60 s", "within 120 s"]
    assert grid.iloc[0]["within 60 s"] == "4/6"
    assert grid.iloc[0]["iterations, solved: min / median / max"] == "3 / 17 / 28"
    # two budgets in one table: the checkpoints are headed as fractions of each row's budget
    other = [{**trial("solved", 5, 1, "exact"), "time_limit_s": 20.0}]
    mixed = within_grid(tables.solved_within(pd.DataFrame(rows + other)))
    assert "within budget x 0.5" in mixed.columns and "budget (s)" in mixed.columns
    assert mixed.iloc[1]["within the budget"] == "1/1" and mixed.iloc[1]["budget (s)"] == "20"


def test_tables_by_size_go_from_the_smallest_board_whatever_order_the_trials_ran_in() -> None:
    """A store that holds a campaign and then its further cells ran 5x5-10x10 twice: grouped
    by size, its rows still read 5x5, 7x7, 10x10; within a size the cells come in the order
    they first ran, whichever of their trials finished first at that size."""

    def trial(size: int, backend: str) -> dict:
        return {"puzzle": f"p{size}", "form_variant": "qubo", "backend": backend, "rows": size,
                "cols": size, "status": "solved", "iterations": 1, "retries": 0,
                "wall_s": 1.0, "solve_s": 0.5, "time_limit_s": 20.0, "key": f"{size}{backend}",
                "num_variables": 1, "num_terms": 1, "max_degree": 2}  # fmt: skip

    ran = [trial(s, "sa") for s in (5, 7, 10)] + [trial(s, "pt") for s in (10, 5, 7)]
    summary = tables.summarise(pd.DataFrame(ran), tables.SIZE_KEYS)
    assert list(zip(summary["size"], summary["backend"], strict=True)) == [
        ("5x5", "sa"), ("5x5", "pt"), ("7x7", "sa"), ("7x7", "pt"), ("10x10", "sa"), ("10x10", "pt")
    ]  # fmt: skip
    within = tables.solved_within(pd.DataFrame(ran))
    assert within["size"].tolist() == ["5x5", "5x5", "7x7", "7x7", "10x10", "10x10"]
    # two workers: pt's 7x7 trial finished before sa's; every size still lists sa, then pt
    raced = [trial(5, "sa"), trial(5, "pt"), trial(7, "pt"), trial(7, "sa")]
    for table in (tables.summarise(pd.DataFrame(raced), tables.SIZE_KEYS),
                  tables.solved_within(pd.DataFrame(raced))):  # fmt: skip
        assert table["backend"].tolist() == ["sa", "pt", "sa", "pt"]


def test_tts99_by_gives_summarises_tts99_for_every_group(smoke_store: Path) -> None:
    """The performance profile reads TTS99 alone from tables.tts99_by; it must be the value
    the summary tables print, group for group (a group whose trials were all skipped: NaN)."""
    trials, _ = load(smoke_store)
    t = tables.with_size(tables.by_configuration(trials))
    skipped = t.head(2).assign(puzzle="all-skipped", status="skipped")
    t = pd.concat([t, skipped], ignore_index=True)
    keys = ["puzzle", *tables.CELL_KEYS]
    full = tables.summarise(t, keys).set_index(keys)["tts99_s"]
    light = tables.tts99_by(t, keys).set_index(keys)["tts99_s"]
    assert light.index.equals(full.index) and light.isna().sum() >= 1
    pd.testing.assert_series_equal(light, full)


def test_an_ecdf_of_many_trials_is_drawn_through_a_bounded_number_of_its_points() -> None:
    """A 100,000-trial store's curves are thinned to MAX_STEPS points evenly spaced in rank:
    the curve still ends at solved/ran and still rises at the first solve."""
    import matplotlib.pyplot as plt

    from slitherbench.analysis.plots.style import MAX_STEPS, ecdf_with_band

    values = np.random.default_rng(0).random(25_000) * 20
    fig, ax = plt.subplots()
    ecdf_with_band(ax, values, 30_000, {"color": "k", "linestyle": "-", "marker": "o"}, "x")
    curve = ax.lines[0]
    x, y = curve.get_xdata(), curve.get_ydata()
    assert len(x) <= MAX_STEPS + 1
    assert y[-1] == 25_000 / 30_000 and x[1] == values.min() and x[-1] == values.max()
    plt.close(fig)


def test_the_board_figure_skips_trials_whose_samples_a_kept_store_dropped() -> None:
    # A store extended from a kept copy: trial "old" lost its samples, "new" has them.
    from slitherbench.analysis.plots.board import pick_board_trial

    trials = pd.DataFrame(
        {"key": ["old", "new"], "status": ["solved", "solved"], "retries": [0, 0]}
    )
    iterations = pd.DataFrame(
        {
            "key": ["old", "old", "old", "new"],
            "energy": [0, 0, 0, 0],
            "edges": [None, None, None, "0110"],
        }
    )
    assert pick_board_trial(trials, iterations)["key"] == "new"
    assert pick_board_trial(trials, iterations.drop(columns="edges")) is None


def test_trials_out_of_time_are_split_into_never_stalled_and_still_cutting(
    tmp_path: Path,
) -> None:
    """A trial out of time with no energy-0 solve never cut; one whose last round came before
    half its budget stalled; one with a round after it was still cutting. Time into a trial
    is its rows' build, start, reduction and solve times summed, in solve order; solved
    trials are not counted."""
    from slitherbench.analysis.plots.timeouts import Timeouts, timeouts, timeouts_grid

    def trial(key: str, status: str = "timeout", backend: str = "sa") -> dict:
        return {"key": key, "form_variant": "qubo", "backend": backend, "rows": 7, "cols": 7,
                "status": status, "time_limit_s": 100.0, "wall_s": 100.0, "iterations": 3,
                "puzzle": "p"}  # fmt: skip

    def solves(key: str, rows: list[tuple[int, float]], build: float = 0.0) -> list[dict]:
        return [{"key": key, "iteration": k + 1, "energy": e, "solve_s": s,
                 "build_s": build if k == 0 else 0.0, "start_s": 0.0, "reduction_s": 0.0}
                for k, (e, s) in enumerate(rows)]  # fmt: skip

    trials = pd.DataFrame(
        [trial("never"), trial("stalled"), trial("cutting"), trial("late"), trial("ok", "solved")]
    )
    trials["iterations"] = [2, 4, 4, 2, 1]  # each trial's solves, all of them stored below
    its = pd.DataFrame(
        solves("never", [(2, 50.0), (1, 50.0)])
        + solves("stalled", [(0, 10.0), (0, 20.0), (2, 30.0), (1, 40.0)])
        # built for 45 s: its only round ends 55 s in, past half the budget
        + solves("late", [(0, 10.0), (2, 45.0)], build=45.0)
        + solves("cutting", [(0, 10.0), (3, 30.0), (0, 20.0), (1, 40.0)])
        + solves("ok", [(0, 1.0)])
    )
    row = timeouts(trials, its).iloc[0]
    assert (row["out_of_time"], row["never"], row["stalled"], row["cutting"]) == (4, 1, 1, 2)
    assert row["last_round_s"] == 30.0 and row["since"] == 2  # the stalled trial's
    assert row["rounds"] == 1.5  # never 0, stalled 2, late 1, cutting 2
    grid = timeouts_grid(timeouts(trials, its)).iloc[0]
    assert grid["stalled"] == "1" and grid["last round at (s), stalled"] == "30"
    assert "solves not stored" not in grid  # every trial's solves are all stored
    # the report item and the page section appear only where some trial ran out of time
    solved_only = trials[trials.status == "solved"]
    assert not Timeouts().applies(ReportData(solved_only, its, tmp_path))
    assert Timeouts().applies(ReportData(trials, its, tmp_path))
    assert not Timeouts().applies(ReportData(trials, its.iloc[0:0], tmp_path))


def test_trials_out_of_time_with_solves_missing_from_the_store_are_counted_apart() -> None:
    """A trial whose store holds fewer rows than the solves it made (a kept store without some
    rows) is neither never, stalled nor cutting: the rows left could show no energy-0 solve
    (never), or an early round whose successors are missing (stalled)."""
    from slitherbench.analysis.plots.timeouts import timeouts, timeouts_grid

    trials = pd.DataFrame([{"key": k, "form_variant": "hubo", "backend": "openjij", "rows": 20,
                            "cols": 20, "status": "timeout", "time_limit_s": 100.0,
                            "iterations": n, "puzzle": "p"}
                           for k, n in [("none", 5), ("early", 3), ("whole", 2)]])  # fmt: skip
    its = pd.DataFrame([
        {"key": "early", "iteration": 1, "energy": 0, "solve_s": 5.0},  # then 2 rows missing
        {"key": "whole", "iteration": 1, "energy": 1, "solve_s": 50.0},
        {"key": "whole", "iteration": 2, "energy": 2, "solve_s": 50.0},
    ])  # fmt: skip
    row = timeouts(trials, its).iloc[0]
    counts = ("out_of_time", "unstored", "never", "stalled", "cutting")
    assert tuple(row[list(counts)]) == (3, 2, 1, 0, 0)
    assert row["rounds"] == 0  # over the trial whose solves are all there
    assert timeouts_grid(timeouts(trials, its)).iloc[0]["solves not stored"] == "2"


def test_the_last_round_figure_draws_each_cells_trials_out_of_time(tmp_path: Path) -> None:
    """One panel per board size; each cell's curve rises at its trials' last rounds (as a
    fraction of the budget) to the share that cut at all, and no figure is drawn where every
    trial out of time lost solves from the store."""
    import matplotlib.pyplot as plt

    from slitherbench.analysis.plots import timeouts as module
    from slitherbench.analysis.plots.timeouts import LastRoundFigure

    trials = pd.DataFrame([{"key": k, "form_variant": "hubo", "backend": b, "rows": n, "cols": n,
                            "status": "timeout", "time_limit_s": 100.0, "iterations": 2,
                            "puzzle": f"p{n}", "experiment": "e", "config_hash": b}
                           for k, b, n in [("a", "sa", 7), ("b", "sa", 7), ("c", "pt", 7),
                                           ("d", "sa", 10)]])  # fmt: skip
    its = pd.DataFrame([{"key": k, "iteration": j + 1, "energy": e, "solve_s": s}
                        for k, rows in {"a": [(0, 20.0), (1, 60.0)], "b": [(2, 50.0), (1, 50.0)],
                                        "c": [(0, 30.0), (0, 40.0)],
                                        "d": [(1, 10.0), (0, 10.0)]}.items()
                        for j, (e, s) in enumerate(rows)])  # fmt: skip
    drawn: dict[str, list] = {}
    real_subplots = plt.subplots

    def spy(*args, **kw):  # keep the axes the figure draws on
        fig, axes = real_subplots(*args, **kw)
        drawn["axes"] = list(axes.ravel())
        return fig, axes

    data = ReportData(trials, its, tmp_path)
    assert LastRoundFigure().applies(data)
    plt.subplots = spy
    try:
        files = LastRoundFigure().write(data)
    finally:
        plt.subplots = real_subplots
    assert {f.name for f in files} == {"last_round.png", "last_round.pdf"}
    seven, ten = drawn["axes"]
    assert seven.get_title() == "7x7: 3 trials out of time"
    curves = {ln.get_label(): ln for ln in seven.get_lines() if not ln.get_label().startswith("_")}
    sa = curves["hubo / sa (1 of 2 cut)"]  # a's round 20 s in; b never at energy 0
    assert list(sa.get_xdata()) == [0.0, 0.2, 1.0] and list(sa.get_ydata()) == [0.0, 0.5, 0.5]
    pt = curves["hubo / pt (1 of 1 cut)"]  # c's last round 70 s in
    assert list(pt.get_xdata()) == [0.0, 0.7, 1.0] and list(pt.get_ydata()) == [0.0, 1.0, 1.0]
    assert ten.get_title() == "10x10: 1 trial out of time"
    lost = trials.assign(iterations=5)  # every trial out of time lost solves
    assert not LastRoundFigure().applies(ReportData(lost, its, tmp_path))
    assert module.last_round_figure(lost, its, tmp_path / "none") == []


def test_the_frontier_board_by_board_draws_boards_not_trials() -> None:
    """Nine boards of one size, three seeds each: six boards solve every seed, three none.
    Over trials the rate is 18/27 with a Wilson interval of 0.48-0.81; boards drawn together
    (the only variation is which boards come) give an interval no narrower, and the boards
    held are counted board by board. One board alone at another size, or three, have no
    interval."""

    def trial(board: str, size: int, status: str, k: int) -> dict:
        return {"form_variant": "hubo", "backend": "sa", "rows": size, "cols": size,
                "puzzle": board, "status": status, "iterations": 1, "wall_s": 1.0,
                "time_limit_s": 20.0, "key": f"{board}-{k}"}  # fmt: skip

    rows = [trial(f"b{i}", 9, "solved" if i < 6 else "timeout", k) for i in range(9)
            for k in range(3)]  # fmt: skip
    rows += [trial("one", 5, "solved", k) for k in range(3)]
    summary = tables.frontier_summary(pd.DataFrame(rows))
    at9 = summary[summary["size"] == "9x9"].iloc[0]
    assert (at9.boards, at9.boards_held, at9.reach) == (9, 6, pytest.approx(2 / 3))
    wilson_lo, wilson_hi = stats.wilson(18, 27)
    assert at9.reach_lo <= wilson_lo and at9.reach_hi >= wilson_hi
    # the bootstrap's own bounds: the share of solving boards among 9 drawn, its 2.5 and
    # 97.5 percentiles of Binomial(9, 2/3) / 9 (each draw's rate is k/9)
    from scipy.stats import binom

    assert at9.reach_lo == pytest.approx(binom.ppf(0.025, 9, 2 / 3) / 9, abs=1 / 9)
    assert at9.reach_hi == pytest.approx(binom.ppf(0.975, 9, 2 / 3) / 9, abs=1 / 9)
    grid = tables.frontier_board_grid(summary).iloc[0]
    assert grid["5x5"] == "1 board"
    assert grid["9x9"] == f"6 of 9 boards [{at9.reach_lo:.3g}, {at9.reach_hi:.3g}]"
    # three boards: counted, but too few to resample (two 1/5 boards would give [0.2, 0.2])
    few = pd.DataFrame([r for r in rows if r["puzzle"] in ("b0", "b1", "b8", "one")])
    assert tables.frontier_board_grid(tables.frontier_summary(few)).iloc[0]["9x9"] == (
        "2 of 3 boards"
    )
    # the same trials with one board per size: nothing board by board to show
    one_each = pd.DataFrame([{**r, "puzzle": str(r["rows"])} for r in rows])
    assert tables.frontier_board_grid(tables.frontier_summary(one_each)).empty
    # the same interval from the same trials (seeded)
    again = tables.frontier_summary(pd.DataFrame(rows))
    assert (again.reach_lo.iloc[-1], again.reach_hi.iloc[-1]) == (at9.reach_lo, at9.reach_hi)
