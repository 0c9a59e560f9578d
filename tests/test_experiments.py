"""Benchmarks that cannot rot (issue 27): every script under ``experiments/`` runs here in its
quick mode (tiny boards, one seed, seconds), so a benchmark broken by a change elsewhere
fails CI instead of waiting for its next full run (the shell scripts' runs are marked
``experiments``: CI runs them in a step of their own, ``pytest -m experiments``). The targets stay in the
benchmarks: a quick run reports its figures without judging them ("(quick, not judged)").

Each run is a subprocess with its working directory and every output under ``tmp_path``
(``RESULTS`` for the shell scripts' stores, ``--out`` for the Python scripts), and the
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
        shown = [a for a in self.args if a not in ("--quick", "--out") and "{tmp}" not in a]
        return " ".join([self.script, *shown])


NOT_JUDGED = "(quick, not judged)"
RUNS = [
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
    # The shell scripts: their stores under RESULTS=tmp_path, each with its report.
    QuickRun("backends.sh", ("--quick",), "report: ", ("backends/report/manifest.json",)),
    QuickRun("colorlink.sh", ("--quick",), "report: ", ("colorlink/report/manifest.json",)),
    QuickRun(
        "cons_hubo_qubo.sh", ("--quick",), "report: ", ("cons_hubo_qubo/report/manifest.json",)
    ),
    QuickRun("faces.sh", ("--quick",), "between edge and face", ("faces/report/manifest.json",)),
    QuickRun("frontier.sh", ("--quick",), "report: ", ("frontier/report/frontier.md",)),
    QuickRun("gpu_carry.sh", ("--quick",), "download skipped"),
    QuickRun("hubo_vs_qubo.sh", ("--quick",), "report: ", ("hubo_vs_qubo/report/manifest.json",)),
    QuickRun(
        "hubo_vs_qubo_full.sh",
        ("--quick",),
        "report: ",
        ("hubo_vs_qubo_full/report/manifest.json", "tuned/hubo_sa.yaml"),
    ),
    QuickRun(
        "reference_page.sh", ("--quick",), "report: ", ("reference_page/report/manifest.json",)
    ),
    QuickRun(
        "samplers.sh",
        ("--quick",),
        "report: ",
        tuple(f"{e}/report/manifest.json" for e in ("targets", "targets_10x18", "warm_starts")),
    ),
    QuickRun("scaling.sh", ("--quick",), "report: ", ("scaling/report/manifest.json",)),
    QuickRun(
        "survey.sh",
        ("--quick",),
        NOT_JUDGED,
        ("survey_table/report/survey_layout.md", "benchmarks/bench_exact_targets.csv"),
    ),
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
    "tuned",
    "tuned_full",
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


def test_every_shell_script_takes_quick_and_a_results_root() -> None:
    """The shell scripts' contract: ``--quick`` first, extra Hydra overrides passed through,
    stores under ``$RESULTS`` (a fixed ``results/`` path would write into the checkout)."""
    for r in RUNS:
        if not r.script.endswith(".sh") or r.script == "gpu_carry.sh":
            continue
        text = (EXPERIMENTS / r.script).read_text()
        assert '"${1:-}" = --quick' in text, r.script
        assert "R=${RESULTS:-results}" in text, r.script
        assert '"$@"' in text, r.script
        assert " results/" not in text.split("set -euo pipefail")[1], r.script


def _marked(run: QuickRun) -> object:
    # The shell scripts' quick runs (an experiment, then its report: 20-120 s each on 2
    # cores, six minutes together) run in CI's own step (`pytest -m experiments` in .ci/run),
    # beside the SLURM check, keeping the suite within its 10 minutes.
    marks = [pytest.mark.experiments] if run.script.endswith(".sh") else []
    return pytest.param(run, marks=marks, id=run.id)


@pytest.mark.slow
@pytest.mark.parametrize("run", [_marked(r) for r in RUNS])
def test_quick_mode_runs(run: QuickRun, tmp_path: Path) -> None:
    if run.script == "bench_commits.py" and not (ROOT / ".git").exists():
        pytest.skip("bench_commits.py exports commits with git archive; no .git here")
    before = _checkout_state()
    script = EXPERIMENTS / run.script
    args = [a.replace("{tmp}", str(tmp_path)) for a in run.args]
    cmd = (
        ["bash", str(script), *args]
        if script.suffix == ".sh"
        else [sys.executable, str(script), *args]
    )
    env = {k: v for k, v in os.environ.items() if k not in ("STORE", "GPU_DIR")}
    env |= {"RESULTS": str(tmp_path), "PYTHON": sys.executable, "MPLBACKEND": "Agg"}
    if run.script == "gpu_carry.sh":
        env["GPU_DIR"] = str(tmp_path / "gpu")
    done = subprocess.run(
        cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"{run.id} exited {done.returncode}:\n{out[-4000:]}"
    assert run.prints in out, f"{run.id}: {run.prints!r} not in its output:\n{out[-4000:]}"
    for name in run.writes:
        assert (tmp_path / name).is_file(), f"{run.id}: no {name} under {tmp_path}"
    if run.script == "gpu_carry.sh":
        assert (tmp_path / "gpu" / "site" / "pyqbpp" / "abs3_c32e64.so").is_file()
    assert _checkout_state() == before, f"{run.id} wrote into the checkout"
