"""The Hydra app: configs compose, runs record and resume, launchers, clear errors."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from conftest import IN_PROCESS_CELLS
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.run.app import CONF_DIR, run_experiment
from slitherbench.run.plan import derive_seed, puzzles_from_config, resolve_cells
from slitherbench.sources.library import get_suite
from slitherbench.store.results import load

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = sorted(p.stem for p in (CONF_DIR / "experiment").glob("*.yaml"))
DETERMINISTIC = ("cons/exact", "hubo/sa", "qubo/sa")


def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "slitherbench", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def stored(d: Path) -> int:
    """Trials written: pending files (dot-files are an interrupted write's temporaries) and
    the rows of compacted parts."""
    n = sum(1 for f in (d / "pending").glob("*.trial.parquet") if not f.name.startswith("."))
    for f in (d / "parts").glob("trials-*.parquet"):
        try:
            n += pq.read_metadata(f).num_rows
        except FileNotFoundError:  # folded into a newer part just now
            return stored(d)
    return n


def assert_all_solved_verified(trials: pd.DataFrame) -> None:
    solved = trials[trials.status == "solved"]
    assert len(solved) > 0
    for _, row in solved.iterrows():
        p = Puzzle.parse(row.puzzle_rows)
        assert row.verified
        assert check_answer(p, answer_from_bits(p, row.answer)) == []


@pytest.mark.parametrize(
    "name",
    # two in the fast subset; the rest (which generate their puzzle suites) in the full suite
    [
        n if n in ("smoke", "hubo_vs_qubo") else pytest.param(n, marks=pytest.mark.slow)
        for n in EXPERIMENTS
    ],
)
def test_every_experiment_composes_and_instantiates(name: str) -> None:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[f"experiment={name}"])
    assert cfg.experiment_name == name
    puzzle = cfg.puzzle
    if str(puzzle._target_).endswith(".generated"):
        # Its own boards can take minutes to make (six 20x20 look-ahead 2 squares: about
        # 150 s): the same keys on one 6x6 board show the source takes them.
        puzzle = OmegaConf.merge(puzzle, {"rows": 6, "cols": 6, "count": 1})
    assert puzzles_from_config(puzzle)
    cells = resolve_cells(cfg)
    assert cells
    for cell in cells:
        assert cell.backend.unsupported_reason(cell.formulation) is None, cell.label


def test_seeds_depend_only_on_base_puzzle_and_repetition() -> None:
    p, q = get_suite("tiny")
    assert derive_seed(0, p, 0) == derive_seed(0, p, 0)
    assert (
        len({derive_seed(0, p, r) for r in range(5)} | {derive_seed(1, p, 0), derive_seed(0, q, 0)})
        == 7
    )


def test_compose_api_run(tmp_path: Path) -> None:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[
                "experiment=smoke",
                "progress=false",
                "cells=[{formulation: cons, backend: exact}]",
            ],
        )
    table = run_experiment(cfg, tmp_path / "store")
    assert len(table) == 2 * 2  # 2 puzzles x 2 repetitions
    assert set(table.status) == {"solved"}
    trials, iters = load(tmp_path / "store")
    assert len(trials) == 4 and set(iters.key) == set(trials.key)
    # Provenance: versions of the base packages and of each package the backend declares.
    from slitherbench.solvers.exact import ExactBackend

    declared = [f"version_{p.replace('-', '_')}" for p in ExactBackend.packages]
    assert declared == ["version_ortools"]
    for col in (
        *declared,
        "version_slitherbench",
        "version_hydra_core",
        "git_commit",
        "host",
        "cpu",
        "gpu",
        "mode",
        "seed",
        "repetition",
        "config_hash",
        "experiment",
    ):
        assert col in trials.columns
    assert (tmp_path / "store" / "config.yaml").read_text().count("experiment_name: smoke") == 1
    # The run ends by compacting its trials into one part (no per-trial files left).
    assert len(list((tmp_path / "store" / "parts").glob("trials-*.parquet"))) == 1
    assert not (tmp_path / "store" / "pending").exists()


@pytest.mark.slow
def test_smoke_run_resume_and_kill(tmp_path: Path) -> None:
    full = tmp_path / "full"
    r = run_cli("experiment=smoke", f"results_dir={full}")
    assert r.returncode == 0, r.stderr[-2000:]
    trials, _ = load(full)
    assert len(trials) == 2 * 2 * 4
    assert_all_solved_verified(trials)
    assert "solved" in r.stdout and "median_iter" in r.stdout  # the summary table
    mtimes = {f: f.stat().st_mtime_ns for f in full.rglob("*.parquet")}

    again = run_cli("experiment=smoke", f"results_dir={full}")
    assert again.returncode == 0
    assert "resuming: 16 of 16" in again.stderr
    assert {f: f.stat().st_mtime_ns for f in full.rglob("*.parquet")} == mtimes  # nothing written

    # Kill a longer run after its first trials, then resume it to the same table.
    killed = tmp_path / "killed"
    # 96 trials in the run's own process (no ABS3: its fresh process per trial is covered by
    # the full run above): long enough that a run whose first Ctrl-C was lost is still going
    # 5 s later
    args = ["experiment=smoke", IN_PROCESS_CELLS, "repetitions=16", "progress=false"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "slitherbench", *args, f"results_dir={killed}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 120
    while time.time() < deadline and stored(killed) < 3:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    # Ctrl-C, pressed again if the first one lands inside native code that drops it
    # (seen rarely on this suite): the run must stop before its end either way.
    for _ in range(10):
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(5)
            break
        except subprocess.TimeoutExpired:
            continue
    proc.wait(60)
    assert proc.returncode == 130
    partial = stored(killed)
    assert 3 <= partial < 3 * 2 * 16
    resumed = run_cli(*args, f"results_dir={killed}")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert f"resuming: {partial} of 96" in resumed.stderr
    reference = tmp_path / "reference"
    assert run_cli(*args, f"results_dir={reference}").returncode == 0
    a, _ = load(killed)
    b, _ = load(reference)
    assert sorted(a.key) == sorted(b.key) and len(a) == 96
    cols = ["key", "status", "iterations", "answer"]
    det_a = a[a.cell.isin(DETERMINISTIC)][cols].sort_values("key").reset_index(drop=True)
    det_b = b[b.cell.isin(DETERMINISTIC)][cols].sort_values("key").reset_index(drop=True)
    pd.testing.assert_frame_equal(det_a, det_b)


@pytest.mark.slow
def test_a_run_resumes_from_the_kept_copy_of_its_store(tmp_path: Path) -> None:
    # A page's own run store is git-ignored; the repository holds its kept copy
    # (docs/findings/NAME/store). Copied into a fresh results_dir, the kept parts are a store
    # the same run resumes from, running none of the trials they hold: how a page gains a
    # sitting on a new checkout (docs/how-to/publish.md).
    args = ["experiment=smoke", IN_PROCESS_CELLS, "progress=false"]
    first = tmp_path / "first"
    assert run_cli(*args, "repetitions=1", f"results_dir={first}").returncode == 0
    n = len(load(first)[0])
    kept = tmp_path / "kept"
    keep = [sys.executable, str(ROOT / "experiments" / "keep_store.py"), str(first), str(kept)]
    kept_run = subprocess.run(keep, capture_output=True, text=True, check=False)
    assert kept_run.returncode == 0, kept_run.stderr
    again = tmp_path / "again"
    shutil.copytree(kept / "parts", again / "parts")
    r = run_cli(*args, "repetitions=1", f"results_dir={again}")
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"resuming: {n} of {n}" in r.stderr
    # and a run with one more repetition runs only the new trials beside the kept ones
    more = run_cli(*args, "repetitions=2", f"results_dir={again}")
    assert more.returncode == 0, more.stderr[-2000:]
    assert f"resuming: {n} of {2 * n}" in more.stderr
    assert len(load(again)[0]) == 2 * n


@pytest.mark.slow
def test_failed_trials_are_retried_on_resume(tmp_path: Path) -> None:
    store = tmp_path / "s"
    over = [
        "experiment=smoke",
        "cells=[{formulation: cons, backend: exact}]",
        f"results_dir={store}",
        "progress=false",
    ]
    assert run_cli(*over).returncode == 0
    t, _ = load(store)
    key = t.key.iloc[0]
    # A newer stored version of one trial says error, as a crash would have recorded it.
    now = pd.Timestamp.now(tz="UTC").isoformat()
    df = t[t.key == key].assign(status="error", timestamp=now, write_id="crash")
    (store / "pending").mkdir()
    df.to_parquet(store / "pending" / f"{key}--crash.trial.parquet")
    assert load(store)[0].set_index("key").status[key] == "error"
    r = run_cli(*over)
    assert "resuming: 3 of 4" in r.stderr
    t2, _ = load(store)
    assert (t2.status == "solved").all()


@pytest.mark.slow
@pytest.mark.parametrize("launcher", ["joblib", "submitit_local"])
def test_multirun_launchers(tmp_path: Path, launcher: str) -> None:
    store = tmp_path / "s"
    extra = (
        ["hydra.launcher.n_jobs=2"] if launcher == "joblib" else ["hydra.launcher.timeout_min=5"]
    )
    r = run_cli(
        "-m",
        "experiment=smoke",
        "cell=0,1,3",
        f"hydra/launcher={launcher}",
        *extra,
        f"results_dir={store}",
        "progress=false",
        f"hydra.sweep.dir={tmp_path / 'sweep'}",
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    trials, _ = load(store)
    assert sorted(set(trials.cell)) == ["cons/abs3", "cons/exact", "hubo/sa"]
    assert len(trials) == 3 * 2 * 2
    assert_all_solved_verified(trials)
    # pyqbpp trials still got their own process inside the reused workers.
    assert trials.loc[trials.backend == "abs3", "isolated"].all()
    configs = sorted(p.name for p in store.glob("config-cell*.yaml"))
    assert configs == ["config-cell0.yaml", "config-cell1.yaml", "config-cell3.yaml"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["backend=nonexistent"], "error: backend=nonexistent: no such backend; backends: abs3"),
        (
            ["formulation=cons", "backend=sa", "puzzle=tiny"],
            "error: backend sa does not accept the cons form",
        ),
        (
            ["puzzle=text", "puzzle.text=slither/5/5/zzz"],
            "error: puzzle.text: body character 2 'z'",
        ),
        (["puzzle=text"], "error: puzzle=text needs puzzle.text="),
        (
            ["puzzle=text", "puzzle.text=30", "formulation=cons", "backend=exact"],
            "error: puzzle.text: the clues admit no single loop",
        ),
        (["experiment=smoke", "cell=9"], "error: cell=9 but the experiment has 4 cells"),
        (
            ["formulation=hubo", "formulation.degree_mode=cubic", "puzzle=tiny"],
            "degree_mode must be 'aux' or 'exact'",
        ),
        (["time_limit_s=abc"], "error: time_limit_s must be a number, got 'abc'"),
        (["repetitions=-1"], "error: repetitions must be at least 1, got -1"),
        (["cut=wall"], "error: cut must be one of loop, region, got 'wall'"),
        (["variables=vertex"], "error: variables must be one of edge, face, got 'vertex'"),
        (
            ["formulation=cons", "backend=sat", "backend.mode=both", "puzzle=tiny"],
            "mode must be one of iterative, direct",
        ),
    ],
)
def test_bad_overrides_give_one_clear_message(
    tmp_path: Path, args: list[str], message: str
) -> None:
    r = run_cli(*args, f"results_dir={tmp_path}", "progress=false", timeout=120)
    assert r.returncode != 0
    assert message in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_licence_budget_is_what_the_suite_assumes() -> None:
    # The suite's expectations about skips depend on this: without a key, pyqbpp allows 100
    # variables per process (checked in a fresh process, as the runner uses).
    code = "import pyqbpp; print(pyqbpp.max_var_count())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    limit = int(out.stdout.strip().splitlines()[-1])
    if os.environ.get("QBPP_LICENSE_KEY"):
        assert limit > 100
    else:
        assert limit == 100


def test_a_skipped_cell_runs_the_fallback_cells(tmp_path: Path, capsys) -> None:
    # The rule is generic: any skipped cell (here an unsupported pair) triggers it.
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[
                "puzzle=tiny",
                "repetitions=1",
                "progress=false",
                "cells=[{formulation: cons, backend: sa}]",
                "fallback_cells=[{formulation: cons, backend: exact}]",
            ],
        )
    table = run_experiment(cfg, tmp_path / "store")
    out = capsys.readouterr().out
    assert "cons/sa was skipped (backend sa does not accept the cons form" in out
    assert "running cons/exact instead" in out
    assert list(table.cell) == ["cons/sa", "cons/sa", "cons/exact", "cons/exact"]
    assert list(table.status) == ["skipped", "skipped", "solved", "solved"]
    assert (tmp_path / "store" / "config_fallback.yaml").exists()


@pytest.mark.slow
def test_trace_prints_the_pages_run_with_a_labelled_answer(tmp_path: Path, capsys) -> None:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[
                "puzzle=reference10",
                "repetitions=1",
                "progress=false",
                "trace=true",
                "cells=[{formulation: cons, backend: exact}]",
            ],
        )
    table = run_experiment(cfg, tmp_path / "store")
    out = capsys.readouterr().out
    n = int(table.iterations.iloc[0])
    assert out.count("iteration ") >= n
    # "one loop of 34 edges" / "3 loops of 8, 6 and 4 edges", never "loops = 34"
    assert re.search(r"iteration 1: energy = 0, (one loop|\d+ loops) of [\d, and]+ edges", out)
    assert "loops = " not in out
    assert f"answer (iteration {n}, one loop of 64 edges):" in out
    # the labelled answer board follows the label
    board = out.split("one loop of 64 edges):\n", 1)[1]
    assert board.startswith("+   +   +") and board.count("---") + board.count("|") >= 64


# -- a lost file re-runs exactly its trials; typos and a file as results_dir are one
# line; a run on one puzzle ends with its answer board --------------------------------------
def _exact_smoke(*extra: str):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose(
            config_name="config",
            overrides=[
                "experiment=smoke",
                "progress=false",
                "cells=[{formulation: cons, backend: exact}]",
                *extra,
            ],
        )


def _split_part(store: Path, keys: set[str]) -> Path:
    """Split the store's one part in two (``keys`` in the first), as a larger store has
    several; return the first half's iterations file."""
    (t_file,) = (store / "parts").glob("trials-*.parquet")
    (i_file,) = (store / "parts").glob("iterations-*.parquet")
    t, i = pd.read_parquet(t_file), pd.read_parquet(i_file)
    for name, inside in (("a", True), ("b", False)):
        t[t.key.isin(keys) == inside].to_parquet(store / "parts" / f"trials-{name}.parquet")
        i[i.key.isin(keys) == inside].to_parquet(store / "parts" / f"iterations-{name}.parquet")
    t_file.unlink()
    i_file.unlink()
    return store / "parts" / "iterations-a.parquet"


def test_a_resume_reruns_exactly_the_trials_whose_iterations_were_lost(
    tmp_path: Path, capsys
) -> None:
    store = tmp_path / "s"
    run_experiment(_exact_smoke(), store)
    before, _ = load(store)
    assert len(before) == 4
    lost = set(before.key[:2])
    damaged = _split_part(store, lost)
    damaged.write_bytes(damaged.read_bytes()[:100])  # a torn copy
    capsys.readouterr()
    run_experiment(_exact_smoke(), store)
    err = capsys.readouterr().err
    assert "moved 1 unreadable results file(s)" in err
    assert "2 stored trial(s) of this run have lost their iterations" in err
    assert "resuming: 2 of 4 trials already in" in err
    assert "this run: 2 trials run" in err
    after, iters = load(store)
    assert sorted(after.key) == sorted(before.key)
    counts = iters.groupby("key").size()
    assert all(counts[k] == n for k, n in zip(after.key, after.iterations, strict=True))
    rerun = set(after.write_id) - set(before.write_id)  # new writes: the lost ones only
    assert set(after.loc[after.write_id.isin(rerun), "key"]) == lost
    assert (store / "unreadable" / "parts-iterations-a.parquet").exists()  # kept aside


def test_typos_name_the_nearest_valid_names() -> None:
    from slitherbench.run.overrides import override_problem

    assert override_problem(["backend=opnejij"]) == (
        "backend=opnejij: no such backend; did you mean openjij?"
    )
    assert override_problem(["experiment=hubo_vs_qbuo"]).startswith(
        "experiment=hubo_vs_qbuo: no such experiment; did you mean hubo_vs_qubo"
    )
    assert override_problem(["repetitons=1"]) == (
        "repetitons=1: no setting 'repetitons'; did you mean repetitions?"
    )
    nested = override_problem(["formulation=qubo", "backend=sa", "backend.num_swepes=3"])
    assert nested.startswith("backend.num_swepes=3: backend has no setting 'num_swepes'; ")
    assert "num_sweeps" in nested
    assert "backend=opnejij" in override_problem(["-m", "backend=sa,opnejij"])  # sweeps too
    newline = override_problem(["puzzle=text", "puzzle.text=.1.\n2.."])
    assert "joined by '/'" in newline and "\n" not in newline.replace("\n2..", "")
    # What is right passes, and Hydra's own flags are left to Hydra.
    for ok in (
        ["-m", "experiment=hubo_vs_qubo", "cell=0,1", "hydra/launcher=joblib", "+extra=1"],
        ["formulation=qubo", "backend=sa", "backend.num_sweeps=20000"],
        ["puzzle=text", "puzzle.text=..33./3.02./.22../...33/2...."],
        ["--help"],
        ["--cfg", "job", "bogus=1"],
    ):
        assert override_problem(ok) is None, ok


def test_a_results_dir_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    from slitherbench.method.record import ConfigError

    f = tmp_path / "results.txt"
    f.write_text("not a directory")
    made = _exact_smoke("puzzle=generated", "puzzle.rows=3", "puzzle.cols=3", "puzzle.count=1")
    for where, cfg in ((f, _exact_smoke()), (f / "sub", _exact_smoke()), (f / "sub", made)):
        with pytest.raises(ConfigError, match=r"is a file, not a directory") as err:
            run_experiment(cfg, where)  # made boards too: kept nowhere, the same one line
        assert "\n" not in str(err.value) and str(f) in str(err.value)
    assert f.read_text() == "not a directory"


def test_a_run_on_one_puzzle_ends_with_its_answer_board(tmp_path: Path, capsys) -> None:
    from slitherbench.run.console import print_answer

    # The README's clue-row syntax: rows joined by '/'.
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[
                "puzzle=text",
                "puzzle.text=..33./3.02./.22../...33/2....",
                "formulation=cons",
                "backend=exact",
                "repetitions=1",
                "progress=false",
            ],
        )
    table = run_experiment(cfg, tmp_path / "s")
    capsys.readouterr()
    print_answer(table)
    out = capsys.readouterr().out
    head, board = out.split("\n", 1)
    assert head.startswith("answer (cons/exact, seed ") and "one loop of 34 edges" in head
    p = Puzzle.parse("..33./3.02./.22../...33/2....")
    assert board.rstrip("\n") == p.render(answer_from_bits(p, table.answer.iloc[0]))
    print_answer(pd.concat([table, table.assign(puzzle_rows="3../...")]))  # two puzzles
    assert capsys.readouterr().out == ""  # several puzzles: the summary table says it all


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["backend=opnejij"], "did you mean openjij?"),
        (["experiment=hubo_vs_qbuo"], "did you mean hubo_vs_qubo"),
        (["repetitons=1"], "did you mean repetitions?"),
        (["results_dir=FILE"], "is a file, not a directory"),
    ],
)
def test_typos_are_one_error_line_and_exit_2(tmp_path: Path, args: list[str], names: str) -> None:
    f = tmp_path / "file"
    f.write_text("")
    args = [a.replace("FILE", str(f)) for a in args]
    extra = [] if any(a.startswith("results_dir") for a in args) else [f"results_dir={tmp_path}"]
    r = run_cli(*args, *extra, "progress=false", timeout=120)
    assert r.returncode == 2
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and names in lines[0], r.stderr
    assert r.stdout == ""


@pytest.mark.slow
def test_the_readme_single_puzzle_command_prints_the_answer(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    line = next(ln for ln in readme.splitlines() if "puzzle.text=..33./" in ln)
    args = line.split("#")[0].split()[3:]  # after "python -m slitherbench"
    r = run_cli(*args, f"results_dir={tmp_path}", "progress=false")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "one loop of 34 edges):\n+   +   +---+" in r.stdout


def test_a_generated_board_beyond_the_limit_is_one_line(tmp_path: Path) -> None:
    from slitherbench.method.record import ConfigError

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=["puzzle=generated", "puzzle.rows=301", "puzzle.cols=300", "progress=false"],
        )
    with pytest.raises(
        ConfigError, match=r"301x300 board has 90300 faces; the harness takes at most 90000"
    ):
        run_experiment(cfg, tmp_path / "s")
    assert not (tmp_path / "s").exists()  # refused before anything was made


def test_a_stop_while_the_summary_prints_is_a_clean_stop(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """SIGTERM (KeyboardInterrupt here) while the run prints its summary ends like a stop
    anywhere else in the run: exit 130 and where the finished trials are, never the
    interpreter's death by SIGINT."""
    import slitherbench.run.app as app

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[f"results_dir={tmp_path}"])

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(app, "run_experiment", lambda cfg: pd.DataFrame({"key": ["k"]}))
    monkeypatch.setattr(app, "run_summary", stop)  # the summary table is being made

    def exit_here(code: int) -> None:  # the real exit would end the test's own process
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", exit_here)
    handlers = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as ended:
            app.hydra_main(cfg)  # Hydra runs the function on a config given to it
    finally:
        signal.signal(signal.SIGTERM, handlers[0])
        signal.signal(signal.SIGINT, handlers[1])
    assert ended.value.code == 130
    assert f"interrupted: finished trials are in {tmp_path.resolve()}" in capsys.readouterr().err
