"""Nothing lost, nothing pooled by mistake, one-line errors: the faults found by probing."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import IN_PROCESS_CELLS
from hydra import compose, initialize_config_dir

from slitherbench.analysis.report import main as report_main
from slitherbench.method.record import ConfigError
from slitherbench.run.app import CONF_DIR
from slitherbench.run.plan import puzzles_from_config
from slitherbench.store.results import load

EXACT = "cells=[{formulation: cons, backend: exact}]"
SA = "cells=[{formulation: qubo, backend: sa, backend_params: {num_sweeps: 500, num_reads: 2}}]"


def run_cli(*args: str, timeout: float = 300, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "slitherbench", "progress=false", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        **kw,
    )


def one_error_line(r: subprocess.CompletedProcess[str], text: str) -> None:
    assert r.returncode == 2, r.stderr[-2000:]
    assert "Traceback" not in r.stderr + r.stdout
    assert any(line.startswith("error: ") and text in line for line in r.stderr.splitlines()), (
        r.stderr
    )


@pytest.mark.slow
def test_damaged_files_are_skipped_reported_and_repaired(tmp_path: Path) -> None:
    store = tmp_path / "s"
    base = ["experiment=smoke", f"results_dir={store}"]
    assert run_cli(*base, EXACT).returncode == 0
    assert run_cli(*base, SA).returncode == 0
    # Split the store's one part in two (as cluster jobs compacting separately leave it).
    for kind in ("trials", "iterations"):
        (part,) = (store / "parts").glob(f"{kind}-*.parquet")
        df = pd.read_parquet(part)
        part.unlink()
        exact = df.backend == "exact"
        df[exact].to_parquet(store / "parts" / f"{kind}-a.parquet")
        df[~exact].to_parquet(store / "parts" / f"{kind}-b.parquet")
    first = store / "parts" / "trials-a.parquet"
    first.write_bytes(first.read_bytes()[: first.stat().st_size // 2])  # truncated
    (store / "pending").mkdir()
    (store / "pending" / "x--0.trial.parquet").write_bytes(b"")  # 0 bytes
    trials, _ = load(store)
    assert len(trials) == 4  # the other part's trials are kept
    r = subprocess.run(
        # one table is enough to show the report runs (every figure costs seconds)
        [
            sys.executable,
            "-m",
            "slitherbench.analysis.report",
            str(store),
            "--out",
            str(tmp_path / "rep"),
            "--items",
            "table_by_puzzle",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert f"warning: skipping unreadable results file {first}" in r.stderr
    assert (tmp_path / "rep" / "table_by_puzzle.md").exists()
    # Re-running both cells repairs the store: the damaged part's trials run again.
    again = run_cli(*base, "cells=[{formulation: cons, backend: exact}]")
    assert again.returncode == 0, again.stderr[-2000:]
    assert "moved 2 unreadable results file(s)" in again.stderr  # the damaged part and x
    assert "resuming: 0 of 4" in again.stderr or "this run: 4 trials run" in again.stderr
    trials, iters = load(store)
    assert len(trials) == 8 and set(iters.key) <= set(trials.key)
    assert sorted(p.name for p in (store / "unreadable").iterdir())


@pytest.mark.slow
def test_file_system_errors_are_one_line_and_keep_what_was_written(tmp_path: Path) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    one_error_line(run_cli("experiment=smoke", EXACT, f"results_dir={blocker / 's'}"), str(blocker))
    store = tmp_path / "s"
    assert run_cli("experiment=smoke", EXACT, f"results_dir={store}").returncode == 0
    (store / "pending").write_text("in the way")  # the next write cannot land
    r = run_cli("experiment=smoke", EXACT, f"results_dir={store}", "overwrite=true")
    one_error_line(r, str(store / "pending"))
    (store / "pending").unlink()
    assert len(load(store)[0]) == 4  # nothing already written was lost


@pytest.mark.slow
def test_result_files_are_readable_by_colleagues(tmp_path: Path) -> None:
    store = tmp_path / "s"
    r = run_cli(
        "experiment=smoke", EXACT, f"results_dir={store}", preexec_fn=lambda: os.umask(0o022)
    )
    assert r.returncode == 0
    files = [*store.rglob("*.parquet"), store / "config.yaml"]
    assert files and {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o644}


@pytest.mark.slow
def test_the_report_never_pools_two_configurations_silently(tmp_path: Path) -> None:
    store = tmp_path / "s"
    assert run_cli("experiment=smoke", SA, f"results_dir={store}").returncode == 0
    assert run_cli("experiment=smoke", SA, f"results_dir={store}", "time_limit_s=7").returncode == 0
    out = tmp_path / "split"
    only = ["--items", "table_by_form_backend"]  # the table it reads; figures cost seconds
    assert report_main([str(store), "--out", str(out), *only]) == 0
    text = (out / "table_by_form_backend.md").read_text()
    assert "qubo [time_limit_s=10.0]" in text and "qubo [time_limit_s=7.0]" in text
    # per board size (two sizes, two seeds each)
    assert len(re.findall(r"\| qubo \[time_limit_s=7.0\] \| sa \| \d/2 \|", text)) == 2
    pooled = tmp_path / "pooled"
    assert report_main([str(store), "--out", str(pooled), "--pool", *only]) == 0
    pooled_text = (pooled / "table_by_form_backend.md").read_text()
    assert len(re.findall(r"\| qubo \| sa \| \d/4 \|", pooled_text)) == 2


def _text_puzzle(text: str, **extra: object):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=["puzzle=text", f"puzzle.text={text}"]
            + [f"puzzle.{k}={v}" for k, v in extra.items()],
        )
    return puzzles_from_config(cfg.puzzle)


def test_precheck_says_when_uniqueness_is_not_known(capsys) -> None:
    assert len(_text_puzzle("'.../.../...'")) == 1
    assert (
        "has no clues: every loop is an answer; uniqueness not checked" in capsys.readouterr().err
    )
    # A unique 60x60 board cannot be proved unique in a millisecond (SAT takes seconds). (A
    # 30x30 board with one clue was used before: SAT finds two of its answers within 1 ms.)
    from slitherbench.sources.library import get_suite

    board = "/".join(next(p for p in get_suite("targets") if p.size_label == "60x60").to_rows())
    _text_puzzle(board, precheck_time_limit_s=0.001)
    assert "not checked: the exact check did not finish in 0.001 s" in capsys.readouterr().err
    with pytest.raises(ConfigError, match=r"more than one answer.*puzzle.allow_multiple=true"):
        _text_puzzle("'1./..'")
    assert len(_text_puzzle("'1./..'", allow_multiple="true")) == 1
    assert "more than one answer; any valid loop counts" in capsys.readouterr().err


def smoke_command(store: Path, repetitions: int) -> list[str]:
    """The command line of a quiet ``experiment=smoke`` run into ``store``, its cells run in
    the run's own process (3 cells x 2 boards x ``repetitions`` trials)."""
    return [
        sys.executable,
        "-m",
        "slitherbench",
        "experiment=smoke",
        IN_PROCESS_CELLS,
        f"repetitions={repetitions}",
        "progress=false",
        f"results_dir={store}",
    ]


@pytest.mark.slow
def test_two_runs_into_one_store_split_the_work(tmp_path: Path) -> None:
    store = tmp_path / "s"
    args = smoke_command(store, repetitions=8)
    procs = [
        subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    ran = [int(re.search(r"this run: (\d+) trials run", err).group(1)) for _, err in outs]
    assert sum(ran) == 48 and min(ran) > 0  # each trial run once, by one of the two
    trials, _ = load(store)
    assert len(trials) == 48 and trials.verified[trials.status == "solved"].all()
    assert (store / "config.yaml").read_text().count("# run at") == 2  # both runs recorded
    assert not list((store / "claims").glob("*.claim"))


@pytest.mark.slow
def test_workers_of_one_run_split_it_and_never_repeat_a_skip(tmp_path: Path) -> None:
    store = tmp_path / "s"
    cells = (
        "cells=[{formulation: cons, backend: exact}, {formulation: qubo, backend: sa, "
        "backend_params: {num_sweeps: 1000, num_reads: 4}}, {formulation: cons, backend: sa}]"
    )  # the last pair is skipped (unsupported); a later run would try it again, a worker not
    r = run_cli("experiment=smoke", "repetitions=8", cells, "workers=2", f"results_dir={store}")
    assert r.returncode == 0, r.stderr[-2000:]
    (helper_log,) = (store / "logs").glob("worker-1-*.log")
    logs = [r.stderr, helper_log.read_text()]
    ran = [int(re.search(r"this run: (\d+) trials run", text).group(1)) for text in logs]
    assert sum(ran) == 3 * 2 * 8
    trials, _ = load(store)
    assert len(trials) == 48 and (trials.status == "skipped").sum() == 16


@pytest.mark.slow
def test_workers_run_inside_each_job_of_a_multirun(tmp_path: Path) -> None:
    """``-m cell=0,2 workers=2``: each job starts its helper on its own cell (a multirun once
    ran every job one trial at a time, whatever workers said)."""
    store = tmp_path / "s"
    r = run_cli("experiment=smoke", "cell=0,2", "repetitions=3", "workers=2",
                f"results_dir={store}", f"hydra.sweep.dir={tmp_path / 'sweep'}", "-m")  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    helper_logs = sorted((store / "logs").glob("worker-1-*-job*.log"))
    assert [log.name.rsplit("-", 1)[1] for log in helper_logs] == ["job0.log", "job1.log"]
    for log, backend in zip(helper_logs, ("exact", "sa"), strict=True):
        text = log.read_text()  # the helper ran its job's cell to the end (or found it done)
        assert "results: " in text and f" {backend} " in text, text[-800:]
        other = " sa " if backend == "exact" else " exact "
        assert other not in text  # its own cell only, not the sweep's
    trials, _ = load(store)
    assert len(trials) == 2 * 2 * 3 and trials.key.is_unique
    assert sorted(set(trials.cell)) == ["cons/exact", "qubo/sa"]


@pytest.mark.parametrize(
    ("args", "messages"),
    [
        (["time_limit_s=abc"], ["time_limit_s must be a number, got 'abc'"]),
        (["repetitions=-1"], ["repetitions must be at least 1, got -1"]),
        (
            ["repetitions=0", "max_iterations=2.5", "progress=maybe"],
            [
                "repetitions must be at least 1, got 0",
                "max_iterations must be an integer, got 2.5",
                "progress must be true or false, got 'maybe'",
            ],
        ),
    ],
)
@pytest.mark.slow
def test_bad_numbers_are_refused_before_any_work(tmp_path: Path, args, messages) -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "slitherbench",
            "experiment=smoke",
            f"results_dir={tmp_path}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("error: ")]
    assert lines == ["error: " + "; ".join(messages)]  # every problem, on one line
    assert "trial" not in r.stderr  # no progress bar started
    assert not (tmp_path / "pending").exists() and not (tmp_path / "parts").exists()


@pytest.mark.slow
def test_help_says_what_the_tool_does() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench", "--help"], capture_output=True, text=True, check=True
    )
    assert r.stdout.startswith("slitherbench: compare the cons, HUBO and QUBO forms")
    for word in ("cells", "cell=K", "fallback_cells", "python -m slitherbench.report"):
        assert word in r.stdout


@pytest.mark.slow
def test_runs_leave_nothing_in_the_working_directory(tmp_path: Path) -> None:
    work = tmp_path / "cwd"
    work.mkdir()
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "slitherbench",
            "experiment=smoke",
            EXACT,
            "progress=false",
            f"results_dir={tmp_path / 's'}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=work,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert list(work.iterdir()) == []  # Hydra's logs went beside the results
    assert list((tmp_path / "s" / "logs").iterdir())


@pytest.mark.slow
def test_sigterm_stops_a_run_cleanly_and_it_resumes(tmp_path: Path) -> None:
    store = tmp_path / "s"
    args = smoke_command(store, repetitions=12)
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120

    def written() -> int:  # dot-files are writes in progress
        files = (store / "pending").glob("*.trial.parquet")
        return sum(not f.name.startswith(".") for f in files)

    while time.time() < deadline and written() < 3:
        time.sleep(0.02)
    proc.terminate()  # SIGTERM, as SLURM sends at a job's time limit
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted: finished trials are in" in err, err[-3000:]
    assert not list((store / "claims").glob("*.claim"))  # released
    done = len(load(store)[0])
    assert 3 <= done < 72
    again = run_cli("experiment=smoke", IN_PROCESS_CELLS, "repetitions=12", f"results_dir={store}")
    assert again.returncode == 0 and f"resuming: {done} of 72" in again.stderr
