"""``python -m slitherbench.reproduce``: an experiment's runs and report read from its config's
``report`` block. The plans are checked here without running anything; the experiments'
quick runs end to end are in tests/test_experiments.py (``pytest -m experiments``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from slitherbench.reproduce import REPORT_KEYS, main, plan
from slitherbench.run.plan import CONF_DIR


def test_a_plain_experiment_is_one_run_then_its_report(tmp_path: Path) -> None:
    store = tmp_path / "store"
    todo = plan(["experiment=smoke", f"results_dir={store}", "repetitions=1"])
    (run,) = todo.runs
    assert run.command() == [
        sys.executable,
        "-m",
        "slitherbench",
        "experiment=smoke",
        "repetitions=1",
        f"results_dir={store}",
    ]
    assert todo.report_args == (str(store),) and not todo.compare_tuned


def test_the_paper_grade_plan_tunes_beside_the_store_and_compares_its_pairs(
    tmp_path: Path,
) -> None:
    store = tmp_path / "hvq"
    todo = plan(
        ["experiment=hubo_vs_qubo_full", f"results_dir={store}", "repetitions=2"], quick=True
    )
    tune, untuned, tuned, more = todo.runs
    # the tuning prepares: a store of its own beside the experiment's, no command-line
    # overrides (repetitions=2 is the comparison's), its own quick setting
    assert (tune.experiment, tune.results_dir, tune.prepares) == (
        "tune_full",
        tmp_path / "tune_full",
        True,
    )
    assert "repetitions=2" not in tune.overrides and "tune.n_trials=1" in tune.overrides
    for run in (untuned, tuned, more):
        assert run.results_dir == store and run.overrides[-1] == "repetitions=2"
    assert more.experiment == "hubo_vs_qubo_full_more"
    assert "tuned=true" in tuned.overrides and "tuned=true" not in untuned.overrides
    # --quick: tuned settings go beside the store (the last tuned_dir is the one Hydra takes)
    for run in todo.runs:
        dirs = [o for o in run.overrides if o.startswith("tuned_dir=")]
        assert dirs[-1] == f"tuned_dir={tmp_path / 'tuned'}"
    assert todo.report_args.count("--compare") == 4 and "--exact" in todo.report_args
    assert todo.compare_tuned


def test_without_quick_the_tuned_run_reads_the_committed_settings(tmp_path: Path) -> None:
    todo = plan(["experiment=hubo_vs_qubo_full", f"results_dir={tmp_path / 'hvq'}"])
    tuned = todo.runs[2]
    assert "tuned_dir=${slitherbench_conf:tuning/tuned_full}" in tuned.overrides
    assert not any("{root}" in o for run in todo.runs for o in run.overrides)
    # the run reads it as the committed folder, wherever it starts
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=tuned.command()[3:])
    assert cfg.tuned and cfg.tuned_dir == str(CONF_DIR / "tuning" / "tuned_full")


def test_the_graded_plan_races_beside_the_store_then_pairs_tuned_with_untuned(
    tmp_path: Path,
) -> None:
    store = tmp_path / "bgt"
    todo = plan(["experiment=by_grade_tuned", f"results_dir={store}"])
    race, untuned, tuned = todo.runs
    assert (race.experiment, race.results_dir, race.prepares) == (
        "tune_graded",
        tmp_path / "tune_graded",
        True,
    )
    assert untuned.overrides == () and untuned.results_dir == tuned.results_dir == store
    assert "tuned_dir=${slitherbench_conf:tuning/tuned_graded}" in tuned.overrides
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=tuned.command()[3:])
    assert cfg.tuned and cfg.tuned_dir == str(CONF_DIR / "tuning" / "tuned_graded")
    assert todo.compare_tuned  # --compare untuned,tuned: per cell McNemar p and a verdict
    quick = plan(["experiment=by_grade_tuned", f"results_dir={store}"], quick=True)
    assert "tune.final_runs=2" in quick.runs[0].overrides
    for run in quick.runs:
        dirs = [o for o in run.overrides if o.startswith("tuned_dir=")]
        assert dirs[-1] == f"tuned_dir={tmp_path / 'tuned'}"


def test_report_settings_come_from_the_config_and_the_command_line(tmp_path: Path) -> None:
    store = tmp_path / "f"
    faces = plan(["experiment=faces", f"results_dir={store}"])
    assert [r.overrides for r in faces.runs] == [("variables=edge",), ("variables=face",)]
    assert faces.report_args == (str(store), "--compare", "edge,face")
    mine = plan(["experiment=faces", f"results_dir={store}", "report.compare=['hubo,qubo']"])
    assert mine.report_args == (str(store), "--compare", "hubo,qubo")
    assert all("report." not in o for r in mine.runs for o in r.overrides)  # not the runs'


def test_publish_takes_the_configs_destination_and_targets(tmp_path: Path) -> None:
    store = tmp_path / "a"
    todo = plan(["experiment=abs3_search_time", f"results_dir={store}"], publish="")
    assert todo.report_args == (
        str(store),
        "--publish",
        "docs/findings/abs3_search_time",
        "--target",
        "0.95",
    )
    other = plan(["experiment=abs3_search_time", f"results_dir={store}"], publish=str(tmp_path))
    assert other.report_args[2] == str(tmp_path)


def test_quick_without_a_results_dir_writes_to_a_new_temporary_store() -> None:
    todo = plan(["experiment=smoke"], quick=True)
    assert todo.store.name == "smoke" and todo.store.parent.is_dir()
    assert not any(todo.store.parent.iterdir())  # nothing there yet: the runs make it
    todo.store.parent.rmdir()


BAD = [
    (["repetitions=1"], "give the experiment once, as experiment=NAME"),
    (["experiment=facez"], "did you mean faces"),
    (["experiment=faces,smoke"], "one experiment at a time"),
    (["experiment=faces", "report.compar=['a,b']"], "did you mean compare"),
    (["experiment=faces", "report.compare=[ab]"], "two names separated by a comma"),
    (["experiment=faces", "report.items=[tables]"], "no report item 'tables'"),
    (["experiment=faces", "report.exact=maybe"], "report.exact must be true or false"),
    (["experiment=faces", "report.runs=[{experiment: nope}]"], "no experiment 'nope'"),
    (["experiment=faces", "report.runs=[{overides: []}]"], "has no setting overides"),
    (["experiment=faces", "report.target=['2']"], "a rate is between 0 and 1"),
    (["experiment=faces", "--publish"], "names no page (report.publish)"),
]


# A few in the fast subset (each composes the config: about 0.3 s); the rest in the full suite.
@pytest.mark.parametrize(
    ("argv", "says"),
    [case if k in (1, 3, 7) else pytest.param(*case, marks=pytest.mark.slow)
     for k, case in enumerate(BAD)],
)  # fmt: skip
def test_bad_settings_are_one_line_and_exit_2(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --quick: were a setting let through, its runs would take seconds (and fail the test)
    code = main([*argv, "--quick", f"results_dir={tmp_path / 'store'}"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and says in err, err
    assert not any(tmp_path.iterdir())  # nothing written, nothing run


def test_every_report_block_names_only_known_settings() -> None:
    for path in sorted((CONF_DIR / "experiment").glob("*.yaml")):
        block = OmegaConf.load(path).get("report")
        if block is not None:
            assert set(block) <= set(REPORT_KEYS), path.name
    assert set(OmegaConf.load(CONF_DIR / "config.yaml").report) == set(REPORT_KEYS)


@pytest.mark.slow
def test_every_experiments_quick_runs_compose() -> None:
    """Each run of each experiment's ``--quick`` plan is a command the app accepts (the
    quick overrides fit the experiment's puzzles)."""
    from slitherbench.run.overrides import override_problem

    for path in sorted((CONF_DIR / "experiment").glob("*.yaml")):
        todo = plan([f"experiment={path.stem}", "results_dir=/nonexistent/x"], quick=True)
        for run in todo.runs:
            assert override_problem(run.command()[3:]) is None, (path.stem, run)


@pytest.mark.slow
def test_every_documented_reproduce_command_plans() -> None:
    """Each `python -m slitherbench.reproduce ...` line of a bash block in the README, the
    docs and experiments/README.md is a command the checks accept (nothing is run)."""
    import re
    import shlex

    root = CONF_DIR.parent
    pages = [root / "README.md", root / "experiments" / "README.md"]
    pages += sorted((root / "docs").rglob("*.md"))
    found = 0
    for md in pages:
        text = md.read_text()
        blocks = re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M)
        lines = [ln for b in blocks for ln in b.replace("\\\n", " ").splitlines()]
        lines += re.findall(r"`(python -m slitherbench\.reproduce [^`]*)`", text)
        for line in lines:
            m = re.search(r"python -m slitherbench\.reproduce (.*)$", line.split(" #")[0])
            if not m or "experiment=NAME" in m[1]:  # a synopsis, not a command
                continue
            argv = [a for a in shlex.split(m[1]) if a not in ("--quick", "--no-run")]
            publish = None
            if "--publish" in argv:
                k = argv.index("--publish")
                given = argv[k + 1] if k + 1 < len(argv) and "=" not in argv[k + 1] else ""
                publish = given
                del argv[k : k + 1 + bool(given)]
            plan([*argv, "results_dir=/nonexistent/x"], publish=publish)
            found += 1
    assert found >= 10


@pytest.mark.slow
def test_a_run_that_refuses_its_input_is_one_line_and_exit_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A setting only the run can judge (a text puzzle with no text) is the run's own one
    line; nothing is reported."""
    code = main(["experiment=smoke", "puzzle=text", f"results_dir={tmp_path / 's'}"])
    err = capfd.readouterr().err
    lines = [ln for ln in err.splitlines() if not ln.startswith("run: ")]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert not (tmp_path / "s" / "report").exists()


@pytest.mark.slow
def test_a_stop_ends_the_run_cleanly_and_says_how_to_resume(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import time

    store = tmp_path / "s"
    env = os.environ | {
        "PYTHONPATH": os.pathsep.join(
            [str(CONF_DIR.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
    }
    cmd = [sys.executable, "-m", "slitherbench.reproduce", "experiment=smoke", "repetitions=50"]
    proc = subprocess.Popen(
        [*cmd, f"results_dir={store}", "progress=false"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: the Ctrl-C below reaches both
    )
    deadline = time.monotonic() + 60
    while not list(store.glob("pending/*")) and not list(store.glob("parts/*")):
        assert time.monotonic() < deadline and proc.poll() is None, "the run never stored a trial"
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130, out
    assert "stopped: the same command resumes" in out and "report: " not in out
    assert not list(store.glob("claims/*")), "a claim was left behind"
