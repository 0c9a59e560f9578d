"""Every entry point, given random settings (missing, unknown, empty, huge, path-like and
wrongly typed values), either succeeds or ends with exit status 2 and exactly one line on
standard error, and writes no file outside the output folder it was named. Each case runs in
a fresh temporary directory (the working directory too); the entry points are called in
process. ``SURVIVED`` counts the generated argument sets each entry point came through."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

ROOT = Path(__file__).resolve().parents[1]
SURVIVED: Counter[str] = Counter()
SUCCEEDED: Counter[str] = Counter()  # of those, the ones that ran to success
# No example database, Hypothesis's own cache in the temporary directory (nothing written
# into the checkout) and derandomised runs: a failure reproduces from its test alone.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "slitherbench-hypothesis")
FAST = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Values every setting may get: empty, huge, path-like (inside the case's folder, above it, a
# file where a folder belongs, a system folder nobody may write), wrongly typed, and some valid.
ODD_VALUES = [
    "", " ", "0", "-1", "1", "2", "x", "nan", "None", "null", "true", "[1,2]", "{a: 1}",
    "1e309", "99999999999999999999", "9" * 400, "é", "a" * 3000, "../escape", "sub/dir",
    "/proc/nope", "afile", "afile/sub", ".", "..", "%", "{", "${oc.env:HOME}",
]  # fmt: skip


@contextlib.contextmanager
def case_dir() -> Iterator[Path]:
    """A fresh folder, the working directory while the case runs, with one file in it
    (``afile``: a file where a folder may be asked for)."""
    old = Path.cwd()
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "afile").write_text("kept\n")
        (root / "board.txt").write_text("3.\n..\n")
        os.chdir(root)
        try:
            yield root
        finally:
            os.chdir(old)


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


def run_entry(main: Callable[[], int | None]) -> tuple[int, str]:
    """(exit status, standard error) of an entry point's main, in process."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            rc = main()
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return int(rc or 0), err.getvalue()


def check_outcome(name: str, rc: int, err: str, root: Path, before: set[Path], outs) -> None:
    """Success, or exit 2 with one ``error:`` line; new files only under ``outs``."""
    assert rc in (0, 2), (rc, err[-2000:])
    if rc == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), err[-2000:]
    allowed = [(root / o).resolve() for o in outs if "\0" not in o]  # a NUL names nothing
    for f in files_under(root) - before:
        assert any(f.resolve().is_relative_to(a) for a in allowed), (f, outs)
    assert (root / "afile").read_text() == "kept\n" and (root / "board.txt").exists()
    SURVIVED[name] += 1
    SUCCEEDED[name] += rc == 0


EXPORT_KEYS = __import__("slitherbench.run.export_cli", fromlist=["KEYS"]).KEYS


def settings_of(
    keys: list[str], extra_values: list[str], valid: list[str]
) -> st.SearchStrategy[list[str]]:
    """Settings: a valid one (half the time), any key with any value, or no key=value."""
    key = st.sampled_from([*keys, "colour", "", "Out", "out ", "a.b"])
    value = st.sampled_from([*ODD_VALUES, *extra_values]) | st.text(max_size=12)
    pair = st.builds(lambda k, v: f"{k}={v}", key, value)
    bare = st.sampled_from(["novalue", "=", "==", "--help-me", "-x"])
    good = st.sampled_from(valid)
    return st.lists(st.one_of(good, good, pair, bare), max_size=4)


# -- python -m slitherbench.export ----------------------------------------------------------------
EXPORT_VALUES = [
    "3./..", ".3./3.3/.3.", "qubo", "hubo", "cons", "edge", "face", "edge,face", "qplib",
    "bqm", "cnf", "lp", "mps", "smt2", "hubo-json", "cnf,lp", "all", "exact", "region",
    "out", "instances", "mine", "5", "100000", "tiny",
]  # fmt: skip


EXPORT_BASE = ["puzzle=3./..", "form=cons", "format=cnf", "out=out"]
EXPORT_VALID = ["form=qubo", "form=hubo", "variables=face", "format=lp", "format=smt2",
                "format=qplib", "format=hubo-json", "name=mine", "out=sub/dir", "out=.",
                "max_variables=500", "puzzle=.3./3.3/.3.", "cut=region", "clue_weight=2",
                "degree_mode=exact", "puzzle_file=board.txt"]  # fmt: skip


@pytest.mark.slow
@FAST
@given(
    drop=st.sets(st.sampled_from(EXPORT_BASE)),
    extra=settings_of(sorted(EXPORT_KEYS), EXPORT_VALUES, EXPORT_VALID),
)
def test_export_refuses_or_writes_under_out(drop: set[str], extra: list[str]) -> None:
    """A valid export (a 2x2 board's CNF) with settings dropped, replaced or added."""
    from slitherbench.run.export_cli import main

    argv = [a for a in EXPORT_BASE if a not in drop] + [
        "suite=nosuch" if a == "suite=tiny" else a  # a whole suite: the slow suite test's
        for a in extra
    ]
    with case_dir() as root:
        before = files_under(root)
        rc, err = run_entry(lambda: main(argv))
        outs = [a.partition("=")[2] for a in argv if a.startswith("out=")]
        check_outcome("export", rc, err, root, before, [(outs or ["instances"])[-1] or "."])


# -- python -m slitherbench.report (and --publish) ----------------------------------------------
@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> Path:
    """A compacted store of two trials of a 2x2 board: reports read it and write nothing
    into it."""
    from slitherbench.models.formulations import ConsFormulation
    from slitherbench.puzzles.puzzle import Puzzle
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.sat import SatBackend
    from slitherbench.store.result_store import ResultStore

    root = tmp_path_factory.mktemp("report") / "store"
    store = ResultStore(root)
    p = Puzzle.parse(".3./3.3/.3.", name="ring")
    for seed in (1, 2):
        r = run_trial(p, ConsFormulation(), SatBackend(), seed=seed, max_iterations=10)
        t = r.trial
        t.key, t.puzzle_rows, t.experiment = f"k{seed}-ring", p.to_text(), "props"
        store.write(t, r.iterations)
    store.compact()
    return root


REPORT_FLAGS = ["--out", "--results-root", "--group-by", "--columns", "--experiment",
                "--boards-of", "--only", "--board-trial", "--items", "--compare", "--publish", "--title", "--command",
                "--target", "--pool", "--exact", "--nope", "-x"]  # fmt: skip
REPORT_VALUES = ["store", "nope", "rep", "pub/page", "puzzle,backend", "backend", "wall_s",
                 "props", "cons,hubo", "0.8", "qubo/pt=0.8", "k1-ring"]  # fmt: skip


def report_argv() -> st.SearchStrategy[list[str]]:
    word = st.sampled_from([*REPORT_FLAGS, *REPORT_VALUES, *ODD_VALUES]) | st.text(max_size=8)
    return st.lists(word, max_size=6)


REPORT_BASE = ["store", "--out", "rep"]


@pytest.mark.slow  # a report draws its figures: about 1 s a case
@FAST
@given(keep=st.sampled_from([3, 1, 0]), extra=report_argv())
def test_report_refuses_or_writes_where_told(small_store: Path, keep: int, extra) -> None:
    """A valid report (a store, --out) with its words cut short or others added."""
    import shutil

    from slitherbench.analysis.report import main

    argv = REPORT_BASE[:keep] + extra
    with case_dir() as root:
        shutil.copytree(small_store, root / "store")
        before = files_under(root)
        rc, err = run_entry(lambda: main(argv))
        outs = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("--out", "--publish")]
        outs = [o for o in outs if o] or []
        # the default output is <first store>/report; a page is NAME.md beside NAME/
        sources = [a for a in argv if not a.startswith("-")]
        outs += [str(Path(s) / "report") for s in (sources or ["results"])]
        outs += [f"{o}.md" for o in outs]
        check_outcome("report", rc, err, root, before, outs)


# -- experiments/*.py: each script's argument parser ----------------------------------------------
SCRIPTS = sorted(
    p for p in (ROOT / "experiments").glob("*.py") if "ArgumentParser" in p.read_text()
)


class _Parsed(Exception):
    """Raised once a script's arguments parsed: the script's work is not run here."""


def load_script(path: Path):
    spec = importlib.util.spec_from_file_location(f"script_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(path.parent))
    return mod


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_each_experiment_scripts_parser_refuses_in_one_line(path: Path, monkeypatch) -> None:
    import argparse

    mod = load_script(path)
    real = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        real(self, args, namespace)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    flags = sorted({a for a in path.read_text().split('"') if a.startswith("--")})
    word = st.sampled_from([*flags, "--nope", "-q", *ODD_VALUES]) | st.text(max_size=6)

    @settings(max_examples=30, deadline=None, derandomize=True, database=None)
    @given(argv=st.lists(word, max_size=5))
    def case(argv: list[str]) -> None:
        with case_dir() as root:
            before = files_under(root)
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                try:
                    sys.argv = [path.name, *argv]  # read by parse_args() in every script
                    mod.main()
                    rc = 0
                except _Parsed:
                    rc = 0
                except SystemExit as exc:
                    rc = exc.code if isinstance(exc.code, int) else 2
            check_outcome(f"experiments/{path.name}", rc, err.getvalue(), root, before, [])

    case()


# -- python -m slitherbench (the Hydra app) and the tuner (experiment=tune) ----------------------
# Keys whose values are drawn at random; repetitions, max_iterations and workers keep small
# values (a valid huge one is a long run, as asked, not a refusal), and the puzzle stays a 2x2
# board unless a setting replaces it, so a run that is accepted ends in about a second.
APP_KEYS = ["base_seed", "time_limit_s", "warm_start", "cut", "variables", "overwrite",
            "progress", "trace", "frontier", "cell", "claim_timeout_s", "tuned", "cells",
            "experiment_name", "results_dir", "puzzle.text", "puzzle.rules", "puzzle.name",
            "formulation.clue_weight", "backend.num_sweeps", "backend.mode", "puzzle",
            "formulation", "backend", "+extra", "~trace", "nosuch", "hydra.run.dir",
            "puzzle.allow_multiple"]  # fmt: skip
APP_VALUES = ["openjij", "sat", "exact", "hubo", "qubo", "cons", "text", "tiny", "edge",
              "face", "loop", "region", "previous", "none", "null", "[no_square]",
              "[{formulation: cons, backend: sat}]", "out", "3./..", "out/sub"]  # fmt: skip
APP_VALID = ["base_seed=3", "time_limit_s=2.5", "warm_start=none", "cut=region",
             "variables=face", "overwrite=true", "trace=true", "experiment_name=mine",
             "results_dir=out/sub", "formulation=qubo", "backend=openjij", "backend=exact",
             "puzzle.text=.3./3.3/.3.", "formulation.clue_weight=2", "+puzzle.rules=[]",
             "claim_timeout_s=100"]  # fmt: skip
APP_BASE = ["puzzle=text", "puzzle.text=3./..", "puzzle.allow_multiple=true", "repetitions=1",
            "max_iterations=5", "backend=sat", "formulation=cons", "progress=false",
            "results_dir=out"]  # fmt: skip


def hydra_argv(
    keys: list[str], values: list[str], valid: list[str]
) -> st.SearchStrategy[list[str]]:
    """Overrides: a valid one (half the time), any key with any value, or a stray word."""
    key = st.sampled_from(keys)
    value = st.sampled_from([*ODD_VALUES, *values]) | st.text(max_size=10)
    pair = st.builds(lambda k, v: f"{k}={v}", key, value)
    bare = st.sampled_from(["novalue", "=", "--nope", "-x", "trace", "a b"])
    good = st.sampled_from(valid)
    return st.lists(st.one_of(good, good, pair, bare), max_size=4)


def run_app(argv: list[str]) -> tuple[int, str]:
    from slitherbench.run import app

    old = sys.argv
    sys.argv = ["slitherbench", *argv]
    try:
        return run_entry(app.main)
    finally:
        sys.argv = old


def results_dirs(argv: list[str]) -> list[str]:
    """Where a run may write: its results_dir (the last one given; Hydra's logs under it),
    and where the command line sent Hydra's own run folder or the tuner's SQLite file."""

    def last(key: str) -> str | None:
        values = [a.partition("=")[2] for a in argv if a.startswith(f"{key}=")]
        return values[-1] if values else None

    outs = [last("results_dir") or "results/default"]
    if last("hydra.run.dir") is not None:
        outs.append(last("hydra.run.dir") or ".")
    storage = last("tune.storage") or ""
    if storage.startswith("sqlite:///"):
        outs.append(storage.removeprefix("sqlite:///"))
    return outs


@pytest.mark.slow  # Hydra composes the config in every case: about 0.5 s each
@FAST
@given(extra=hydra_argv(APP_KEYS, APP_VALUES, APP_VALID))
def test_the_app_refuses_or_runs_writing_under_results_dir(extra: list[str]) -> None:
    argv = [*APP_BASE, *extra]
    with case_dir() as root:
        before = files_under(root)
        rc, err = run_app(argv)
        check_outcome("python -m slitherbench", rc, err, root, before, results_dirs(argv))


TUNE_KEYS = ["tune.n_trials", "tune.weights", "tune.seed", "tune.storage", "tune.nosuch",
             "cells", "cell", "results_dir", "time_limit_s", "tune"]  # fmt: skip
TUNE_VALID = ["tune.n_trials=2", "tune.weights=[1,2]", "tune.seed=5", "cell=1",
              "tune.storage=sqlite:///out/t.db", "results_dir=out/tuned"]  # fmt: skip
TUNE_VALUES = ["[1,4]", "[4,1]", "[1]", "[a,b]", "sqlite:///nope/x.db", "postgres://x",
               "sqlite:////proc/nope/x.db", "[{formulation: qubo, backend: sa}]", "[]"]  # fmt: skip


@pytest.mark.slow  # Hydra composes the config in every case
@FAST
@given(extra=hydra_argv(TUNE_KEYS, TUNE_VALUES, TUNE_VALID))
def test_the_tuner_refuses_or_tunes_writing_under_results_dir(
    extra: list[str], monkeypatch
) -> None:
    """The tuner's settings are checked before any study: the studies themselves (minutes
    each) are replaced by one that records nothing, so an accepted case ends at once."""
    from slitherbench.run import tune

    monkeypatch.setattr(tune, "tune_cell", lambda spec, cfg, puzzles, storage: None)
    argv = ["experiment=tune", "puzzle=text", "puzzle.text=3./..", "puzzle.allow_multiple=true"]
    argv += ["results_dir=out", *extra]
    with case_dir() as root:
        before = files_under(root)
        rc, err = run_app(argv)
        check_outcome("experiment=tune", rc, err, root, before, results_dirs(argv))


def test_every_experiment_script_runs_its_main_through_run_command() -> None:
    for script in SCRIPTS:
        tail = script.read_text().rsplit('if __name__ == "__main__":', 1)[-1]
        assert "run_command(main)" in tail, script.name


@pytest.mark.slow  # a fresh interpreter: about 2 s
def test_an_experiment_script_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    """Past its parser, a script's bad input (here an --out that is a file) is one line too:
    every script runs its main through ``console.run_command``."""
    import subprocess

    afile = tmp_path / "afile"
    afile.write_text("kept\n")
    r = subprocess.run(
        [sys.executable, str(ROOT / "experiments" / "export_suite.py"), "--quick", "--out",
         str(afile)],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr[-1500:]
    assert r.stderr.startswith("error: out=") and afile.read_text() == "kept\n"


def test_zz_print_survivors() -> None:
    """Prints the counts (run with -s): how many generated argument sets each entry point
    came through."""
    for name, n in sorted(SURVIVED.items()):
        print(f"{name}: {n} argument sets, {SUCCEEDED[name]} of them run to success")
