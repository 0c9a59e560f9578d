"""Benchmarks that cannot rot: every script under ``experiments/`` runs here in its quick
mode (tiny boards, one seed, seconds), and so does every experiment whose config says how its
report is made (``python -m slitherbench.reproduce experiment=NAME --quick``: its runs, then
its report or page), so a benchmark broken by a change elsewhere fails CI instead of waiting
for its next full run. The quick runs are marked ``experiments``: CI runs them in a step of
their own, ``pytest -m experiments``, after the suite. The targets stay in the benchmarks: a quick run
reports its figures without judging them ("(quick, not judged)").

Each run is a subprocess with its working directory and every output under ``tmp_path``
(``results_dir`` for the experiments' stores, ``--out`` for the Python scripts), and the
checkout must be left as it was (no ``results/``, ``outputs/``, tuned settings, shipped
boards or figures written). A new script must either get a quick run below or be listed in
``NOT_RUN`` with the reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "experiments"


@dataclass(frozen=True)
class QuickRun:
    script: str
    args: tuple[str, ...]  # "{tmp}" is replaced by the test's tmp_path
    prints: str  # text the output must contain
    writes: tuple[str, ...] = ()  # files (under tmp_path) the run must make

    @property
    def id(self) -> str:
        shown = [a for a in self.args if a not in ("--quick", "--out") and "{" not in a]
        return " ".join([self.script, *shown])


NOT_JUDGED = "(quick, not judged)"
RUNS = [
    QuickRun(
        "bench_deduction.py",
        ("--quick", "--publish", "{tmp}/pub/deduction_speed"),
        "quick run: the targets (30x40) are not judged",
        ("pub/deduction_speed.md", "pub/deduction_speed/rows.csv"),
    ),
    QuickRun("bench_exact_deduction.py", ("--quick",), "(quick, not judged) target"),
    QuickRun("grade_corpus.py", (), "| Loopy label | rules | lookahead1 | lookahead2 | beyond |"),
    QuickRun("bench_commits.py", ("--quick", "--out", "{tmp}"), NOT_JUDGED, ("bench_commits.csv",)),
    QuickRun(
        "bench_exact.py",
        ("--quick", "--out", "{tmp}", "--publish", "{tmp}/pub/exact_circuit"),
        NOT_JUDGED,
        ("bench_exact.csv", "pub/exact_circuit.md", "pub/exact_circuit/rows.csv"),
    ),
    QuickRun(
        "bench_exact_families.py",
        ("--quick", "--out", "{tmp}", "--publish", "{tmp}/pub/exact_families"),
        "ratio to CP-SAT's circuit model",
        (
            "bench_exact_families.csv",
            "pub/exact_families.md",
            "pub/exact_families/rows.csv",
            "pub/exact_families/exact_families.png",
        ),
    ),
    QuickRun(
        "bench_exact_targets.py",
        ("--quick", "--out", "{tmp}", "--publish", "{tmp}/pub/exact_targets"),
        NOT_JUDGED,
        ("bench_exact_targets.csv", "pub/exact_targets.md", "pub/exact_targets/rows.csv"),
    ),
    QuickRun(
        "bench_grids.py",
        ("--quick", "--out", "{tmp}", "--publish", "{tmp}/pub/grids_bench"),
        NOT_JUDGED,
        ("bench_grids.csv", "pub/grids_bench.md", "pub/grids_bench/rows.csv"),
    ),
    QuickRun(
        "bench_grids.py",
        ("--quick", "--hubo-exact", "--out", "{tmp}", "--publish", "{tmp}/pub/grids_hubo"),
        "beyond the square",
        ("bench_grids_hubo_exact.csv", "pub/grids_hubo.md", "pub/grids_hubo/rows.csv"),
    ),
    QuickRun(
        "tuning_page.py",
        ("--quick", "--publish", "{tmp}/pub/tune"),
        "beats untuned",
        ("pub/tune.md", "pub/tune/rows.csv", "pub/tune/settings.png"),
    ),
    QuickRun(
        "bench_overhead.py",
        ("--quick", "--publish", "{tmp}/pub/overhead"),
        NOT_JUDGED,
        ("pub/overhead.md", "pub/overhead/rows.csv"),
    ),
    QuickRun("bench_compaction.py", ("--quick",), NOT_JUDGED),
    QuickRun(
        "keep_store.py",
        ("{root}/tests/data/store_v0_1", "{tmp}/kept"),
        "trials-kept.parquet",
        ("kept/parts/trials-kept.parquet", "kept/parts/iterations-kept.parquet"),
    ),
    # On the repository's own pages: each is marked already, kept, or prose, so none changes.
    QuickRun("mark_store_not_kept.py", (), "0 page(s) marked"),
    QuickRun(
        "newcomer_times.py",
        ("--quick", "--publish", "{tmp}/pub/newcomer_times"),
        NOT_JUDGED,
        ("pub/newcomer_times.md", "pub/newcomer_times/rows.csv"),
    ),
    QuickRun(
        "bench_store.py",
        ("--quick", "--out", "{tmp}", "--publish", "{tmp}/pub/store_scale"),
        NOT_JUDGED,
        ("bench_store.csv", "pub/store_scale.md", "pub/store_scale/rows.csv"),
    ),
    QuickRun(
        "bench_store.py", ("--quick", "--direct", "--no-report", "--out", "{tmp}"), NOT_JUDGED
    ),
    QuickRun(
        "board_gallery.py", ("--quick", "--out", "{tmp}/boards.png"), "boards.png", ("boards.png",)
    ),
    QuickRun(
        "colorlink_example.py",
        ("--quick", "--out", "{tmp}/colorlink_example.png"),
        "SAT: ",
        ("colorlink_example.png",),
    ),
    QuickRun("export_suite.py", ("--quick", "--out", "{tmp}/export"), '"files"'),
    QuickRun(
        "gpu_check.py",
        ("--quick", "--out", "{tmp}", "--publish", "{tmp}/pub/gpu_check"),
        "page: ",
        (
            "gpu_check_summary.json",
            "gpu_check_trials.csv",
            "pub/gpu_check.md",
            "pub/gpu_check/rows.csv",
        ),
    ),
    QuickRun(
        "make_boards.py",
        ("survey", "--quick", "--out", "{tmp}"),
        "generated-5x5-s1",
        ("generated_survey.jsonl",),
    ),
    QuickRun(
        "make_boards.py",
        ("grids", "--quick", "--out", "{tmp}"),
        "grids-honeycomb",
        ("generated_grids.jsonl",),
    ),
    QuickRun(
        "make_graded_boards.py",
        ("--quick", "--out", "{tmp}"),
        "gen-5x5-lookahead1-s1",
        ("generated_lookahead.jsonl",),
    ),
    QuickRun("make_graded_boards.py", ("census", "--quick"), "beyond look-ahead 2: "),
    # --check writes nothing: the shipped grades of two files against the engine
    QuickRun("grade_library.py", ("--check", "--only", "generated_grids"), "47 boards graded"),
    QuickRun("gpu_carry.sh", ("--quick",), "download skipped"),
]

NOT_RUN = {
    "slurm_check.sh": "installs and starts slurm-wlm and munge as root; .ci/run runs it in "
    "full after the suite",
    "mutation.sh": "mutation testing runs the fast tests once per mutant: minutes by nature, "
    "no quick mode",
}

# What a run must not touch in the checkout: ignored output folders, and the files the full
# runs regenerate (tuned settings, shipped boards, published figures).
WATCHED = (
    "results",
    "outputs",
    "multirun",
    "conf/tuning",
    ".gpu",
    "slitherbench/sources/data",
    "docs/figures",
)
WATCHED_FILES = ("docs/boards.png",)


def _checkout_state() -> dict[str, int]:
    state = {}
    for folder in WATCHED:
        path = ROOT / folder
        if path.exists():
            state.update({str(p): p.stat().st_mtime_ns for p in path.rglob("*")})
            state[str(path)] = 0  # the folder itself: its presence
    for name in WATCHED_FILES:
        path = ROOT / name
        if path.exists():
            state[str(path)] = path.stat().st_mtime_ns
    return state


def test_every_experiment_script_has_a_quick_run_or_a_reason() -> None:
    scripts = {p.name for p in EXPERIMENTS.iterdir() if p.suffix in (".py", ".sh")}
    run = {r.script for r in RUNS}
    assert not run & set(NOT_RUN), "a script is both run and excused"
    missing = scripts - run - set(NOT_RUN)
    assert not missing, (
        f"{sorted(missing)}: give each a quick mode (tiny boards, seconds) and a QuickRun in "
        "tests/test_experiments.py, or say in NOT_RUN why it cannot run here"
    )
    assert not (run | set(NOT_RUN)) - scripts, "entries for scripts that are gone"


@dataclass(frozen=True)
class QuickReproduce:
    """``python -m slitherbench.reproduce experiment=NAME --quick`` into ``tmp_path/NAME``."""

    experiment: str
    prints: str  # text the output must contain
    writes: tuple[str, ...]  # files (under tmp_path) the run must make
    publish: bool = False  # --publish tmp_path/pub/NAME: the page instead of the report

    @property
    def id(self) -> str:
        return f"reproduce {self.experiment}" + (" --publish" if self.publish else "")


def _report(name: str, file: str = "manifest.json") -> tuple[str]:
    return (f"{name}/report/{file}",)


# Every experiment whose config's report block differs from the default (a test checks),
# and the ones their shell wrappers ran: the stores under tmp_path, each with its report.
REPRODUCED = [
    QuickReproduce("backends", "report: ", _report("backends")),
    QuickReproduce("colorlink", "report: ", _report("colorlink")),
    QuickReproduce("cons_hubo_qubo", "report: ", _report("cons_hubo_qubo")),
    QuickReproduce("by_grade", "between none and rules", _report("by_grade")),
    QuickReproduce("by_grade_faces", "between none and rules", _report("by_grade_faces")),
    QuickReproduce("frontier_graded", "report: ", _report("frontier_graded")),
    QuickReproduce("frontier_graded_faces", "report: ", _report("frontier_graded_faces")),
    QuickReproduce("frontier_graded_long", "report: ", _report("frontier_graded_long")),
    QuickReproduce("frontier_graded_between", "report: ", _report("frontier_graded_between")),
    QuickReproduce("frontier_graded_spread", "report: ", _report("frontier_graded_spread")),
    QuickReproduce("frontier_graded_exact", "report: ", _report("frontier_graded_exact")),
    QuickReproduce("frontier_graded_long_exact", "report: ", _report("frontier_graded_long_exact")),
    QuickReproduce(
        "frontier_graded_exact_below", "report: ", _report("frontier_graded_exact_below")
    ),
    QuickReproduce(
        "frontier_graded_exact_lookahead", "report: ", _report("frontier_graded_exact_lookahead")
    ),
    QuickReproduce(
        "frontier_graded_exact_lookahead_20",
        "report: ",
        _report("frontier_graded_exact_lookahead_20"),
    ),
    QuickReproduce("frontier_graded_lookahead", "report: ", _report("frontier_graded_lookahead")),
    QuickReproduce(
        "frontier_graded_lookahead_20", "report: ", _report("frontier_graded_lookahead_20")
    ),
    QuickReproduce(
        "frontier_graded_lookahead_30", "report: ", _report("frontier_graded_lookahead_30")
    ),
    QuickReproduce(
        "by_grade_tuned",
        "report: ",
        (*_report("by_grade_tuned"), "tuned/hubo_sa.yaml", "tune_graded/race/hubo_sa.jsonl"),
    ),
    QuickReproduce("faces", "between edge and face", _report("faces")),
    QuickReproduce("frontier", "report: ", _report("frontier", "frontier.md")),
    QuickReproduce("hubo_vs_qubo", "report: ", _report("hubo_vs_qubo")),
    QuickReproduce(
        "hubo_vs_qubo_full",
        "report: ",
        (*_report("hubo_vs_qubo_full"), "tuned/hubo_sa.yaml", "tune_full/optuna.db"),
    ),
    QuickReproduce("reference_page", "report: ", _report("reference_page")),
    QuickReproduce("scaling", "report: ", _report("scaling")),
    QuickReproduce("targets", "report: ", _report("targets")),
    QuickReproduce("targets_10x18", "report: ", _report("targets_10x18")),
    QuickReproduce("openjij_updaters", "report: ", _report("openjij_updaters")),
    QuickReproduce("warm_starts", "report: ", _report("warm_starts")),
    QuickReproduce("presolve", "between none and rules", _report("presolve")),
    QuickReproduce("cut_kinds", "between cons and cons+region", _report("cut_kinds")),
    QuickReproduce("cut_kinds_annealers", "report: ", _report("cut_kinds_annealers")),
    QuickReproduce("survey_table", "report: ", _report("survey_table", "survey_layout.md")),
    QuickReproduce("abs3_search_time", "published: ", ("pub/abs3_search_time.md",), publish=True),
    QuickReproduce(
        "colorlink_crossing", "published: ", ("pub/colorlink_crossing.md",), publish=True
    ),
]


def test_every_experiment_with_its_own_report_settings_has_a_quick_run() -> None:
    from omegaconf import OmegaConf

    run = {r.experiment for r in REPRODUCED}
    own = {
        p.stem
        for p in (ROOT / "conf" / "experiment").glob("*.yaml")
        if "report" in OmegaConf.load(p)
    }
    missing = own - run
    assert not missing, f"{sorted(missing)}: add a QuickReproduce in tests/test_experiments.py"


def _marked(run: QuickRun | QuickReproduce) -> object:
    # Every quick run (an experiment's runs then its report: 10-60 s each on 2 cores; a
    # script's: 1-7 s) runs in CI's own step (`pytest -m experiments` in .ci/run), beside the
    # SLURM check, keeping the suite within its 10 minutes.
    return pytest.param(run, marks=[pytest.mark.experiments], id=run.id)


def _command(run: QuickRun | QuickReproduce, tmp_path: Path) -> list[str]:
    if isinstance(run, QuickReproduce):
        name = run.experiment
        cmd = [sys.executable, "-m", "slitherbench.reproduce", f"experiment={name}", "--quick"]
        cmd.append(f"results_dir={tmp_path / name}")
        return cmd + (["--publish", str(tmp_path / "pub" / name)] if run.publish else [])
    script = EXPERIMENTS / run.script
    args = [a.replace("{tmp}", str(tmp_path)).replace("{root}", str(ROOT)) for a in run.args]
    if script.suffix == ".sh":
        return ["bash", str(script), *args]
    return [sys.executable, str(script), *args]


@pytest.mark.slow
@pytest.mark.parametrize("run", [_marked(r) for r in [*RUNS, *REPRODUCED]])
def test_quick_mode_runs(run: QuickRun | QuickReproduce, tmp_path: Path) -> None:
    script = getattr(run, "script", "")
    if script in ("bench_commits.py", "newcomer_times.py") and not (ROOT / ".git").exists():
        pytest.skip(f"{script} reads commits with git (archive, clone); no .git here")
    before = _checkout_state()
    env = {k: v for k, v in os.environ.items() if k not in ("STORE", "GPU_DIR")}
    path = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env |= {"PYTHON": sys.executable, "MPLBACKEND": "Agg", "PYTHONPATH": path}
    if script == "gpu_carry.sh":
        env["GPU_DIR"] = str(tmp_path / "gpu")
    done = subprocess.run(
        _command(run, tmp_path),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"{run.id} exited {done.returncode}:\n{out[-4000:]}"
    assert run.prints in out, f"{run.id}: {run.prints!r} not in its output:\n{out[-4000:]}"
    for name in run.writes:
        assert (tmp_path / name).is_file(), f"{run.id}: no {name} under {tmp_path}"
    if script == "gpu_carry.sh":
        assert (tmp_path / "gpu" / "site" / "pyqbpp" / "abs3_c32e64.so").is_file()
    assert _checkout_state() == before, f"{run.id} wrote into the checkout"
