"""The external backend: any solver by command, run through the runner like every backend.
A small script calling a bundled solver solves; commands that time out, crash, print garbage
or return a wrong-length sample each end in a one-line reason, never ``solved``."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from slitherbench.models.formulations import ConsFormulation, HuboFormulation, QuboFormulation
from slitherbench.puzzles.puzzle import answer_from_bits
from slitherbench.run.runner import run_trial
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.external import ExternalBackend
from slitherbench.sources.library import generated

PY = sys.executable

# A solver of the CNF files: reads the sidecar for the answer variables, solves with pysat's
# Glucose and prints the documented sample on stdout (no output file: the harness reads it).
SAT_SCRIPT = """
import json, sys
from pysat.formula import CNF
from pysat.solvers import Glucose4
cnf = CNF(from_file=sys.argv[1])
names = json.load(open(sys.argv[1] + ".json"))["variables"]
with Glucose4(bootstrap_with=cnf.clauses) as s:
    assert s.solve()
    on = {v for v in s.get_model() if v > 0}
print("# one value per edge")
print("\\n".join(str(int(v["index"] in on)) for v in names))
"""

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorials" / "external_solver.md"


def tutorial_script(title: str) -> str:
    """A script of docs/tutorials/external_solver.md (the block titled ``title``)."""
    text = TUTORIAL.read_text()
    return re.search(rf'```python title="{title}"\n(.*?)```', text, re.S).group(1)


@pytest.fixture(scope="module")
def board():
    p = generated(3, 3, 1)
    return p, solve_exact(p).answer


def trial(board, command: str, form=None, time_limit_s: float = 10.0, **params):
    p, _ = board
    backend = ExternalBackend(command=command, **params)
    return run_trial(p, form or ConsFormulation(), backend, seed=3, max_iterations=10,
                     time_limit_s=time_limit_s)  # fmt: skip


def test_a_script_calling_a_bundled_sat_solver_solves(tmp_path: Path, board) -> None:
    script = tmp_path / "sat.py"
    script.write_text(SAT_SCRIPT)
    r = trial(board, f"{PY} {script} {{input}}", keep_files=str(tmp_path / "keep"))
    assert r.status == "solved", r.trial.reason
    assert r.trial.verified and answer_from_bits(board[0], r.trial.answer) == board[1]
    (kept,) = (tmp_path / "keep").iterdir()  # one directory per trial, kept
    # the sample it printed on standard output is kept beside the model, as {output} would be
    assert {p.name for p in kept.iterdir()} == {
        "model-1.cnf",
        "model-1.cnf.json",
        "sample-1.stdout.txt",
    }
    printed = (kept / "sample-1.stdout.txt").read_text().splitlines()
    assert printed[0] == "# one value per edge" and len(printed) == 1 + board[0].num_edges
    extras = r.trial.extras_dict
    assert extras["exit_code"] == 0 and extras["format"] == "cnf"
    assert all(it.energy == 0 for it in r.iterations)


def test_the_tutorials_sat_solver_script_solves(tmp_path: Path, board) -> None:
    script = tmp_path / "my_sat_solver.py"
    script.write_text(tutorial_script("my_sat_solver.py"))  # prints s/v lines on stdout
    r = trial(board, f"{PY} {script} {{input}}")
    assert r.status == "solved", r.trial.reason
    assert answer_from_bits(board[0], r.trial.answer) == board[1]


@pytest.mark.slow
def test_the_tutorials_qubo_solver_script_solves(tmp_path: Path, board) -> None:
    script = tmp_path / "my_qubo_solver.py"
    script.write_text(tutorial_script("my_qubo_solver.py"))  # JSON {name: value} to {output}
    r = trial(
        board,
        f"{PY} {script} {{input}} {{output}} {{seed}}",
        QuboFormulation(),
        format="bqm",
        time_limit_s=30,
    )
    assert r.status == "solved", r.trial.reason
    assert answer_from_bits(board[0], r.trial.answer) == board[1]


@pytest.mark.slow
@pytest.mark.parametrize("form", [QuboFormulation, HuboFormulation], ids=["qubo", "hubo"])
def test_the_default_command_solves_with_the_bundled_sampler(board, form) -> None:
    p, answer = board
    r = run_trial(p, form(), ExternalBackend(), seed=3, max_iterations=10, time_limit_s=30)
    assert r.status == "solved", r.trial.reason
    assert answer_from_bits(p, r.trial.answer) == answer


def failed(r, status: str, *words: str) -> None:
    t = r.trial
    assert t.status == status, (t.status, t.reason)
    assert "\n" not in t.reason and all(w in t.reason for w in words), t.reason
    assert not t.verified and t.answer == ""


def test_a_command_past_the_time_limit_is_killed_with_its_children(tmp_path: Path, board) -> None:
    pidfile = tmp_path / "child.pid"
    t0 = time.perf_counter()
    r = trial(board, f"sh -c 'sleep 30 & echo $! > {pidfile}; wait'", time_limit_s=0.25)
    assert time.perf_counter() - t0 < 5
    failed(r, "timeout", "killed")
    stat = Path(f"/proc/{int(pidfile.read_text())}/stat")
    for _ in range(100):  # the child sleep was killed with the command's process group
        if not stat.exists() or stat.read_text().split()[2] in "ZX":  # gone, or a zombie
            break
        time.sleep(0.02)
    else:
        pytest.fail(f"the command's child still runs: {stat.read_text()}")


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("sh -c 'echo partial; echo solver crashed >&2; exit 3'", ("code 3", "solver crashed")),
        ("sh -c 'echo hello world'", ("'hello'", "not 0 or 1")),
        ("sh -c 'echo 0 1 0'", ("3 values", "24 variables")),
        ("sh -c 'echo {{\\\"x0\\\": 1}} > {output}'", ("JSON", "23 missing")),
        ("sh -c 'echo {{not json > {output}'", ("JSON sample does not parse",)),
        ("sh -c 'exit 0'", ("no sample",)),
        ("/no/such/solver {input}", ("cannot start",)),
        ("echo {nosuch}", ("unknown placeholder",)),
        ("sh -c 'echo s UNSATISFIABLE'", ("UNSATISFIABLE",)),
    ],
    ids=[
        "crash",
        "garbage",
        "wrong-length",
        "json-short",
        "json-broken",
        "silent",
        "missing",
        "placeholder",
        "unsat",
    ],
)
def test_a_failing_command_is_a_one_line_error(board, command: str, words) -> None:
    failed(trial(board, command), "error", *words)


def test_a_sample_of_positive_energy_is_retried_not_solved(board) -> None:
    p, _ = board
    zeros = " ".join(["0"] * p.num_edges)
    r = trial(board, f"sh -c 'echo {zeros}'", time_limit_s=2)
    t = r.trial
    assert t.status == "max_iterations" and t.retries == t.iterations == 10
    assert all(it.energy > 0 for it in r.iterations)


def test_a_format_that_cannot_hold_the_form_is_a_skip(board) -> None:
    failed(trial(board, "true", HuboFormulation(), format="qplib"), "skipped", "quadratic")
    failed(trial(board, "true", ConsFormulation(), format="bqm"), "skipped", "penalty polynomial")
    failed(trial(board, "true", QuboFormulation(), format="cnf"), "skipped", "form cons")


def test_a_crashed_commands_output_tails_are_kept_with_the_trial(board) -> None:
    r = trial(board, "sh -c 'echo partial; echo solver crashed >&2; exit 3'")
    assert r.trial.status == "error"
    extras = json.loads(r.trial.extras)
    assert extras["exit_code"] == 3
    assert "solver crashed" in extras["stderr_tail"] and "partial" in extras["stdout_tail"]


@pytest.mark.slow
def test_the_presolved_model_is_what_the_command_gets(tmp_path: Path) -> None:
    from slitherbench.deduction import deduce
    from slitherbench.sources.generate import generate

    p = generate(5, 5, 1, min_grade="lookahead1")  # forced moves settle part of it
    fixed = {e: v for e, v in enumerate(deduce(p, "rules").edges) if v >= 0}
    assert 0 < len(fixed) < p.num_edges
    script = tmp_path / "sat.py"
    script.write_text(SAT_SCRIPT)
    kept = {}
    for form, command in [
        (QuboFormulation(), None),
        (ConsFormulation(), f"{PY} {script} {{input}}"),
    ]:
        keep = tmp_path / form.name
        backend = ExternalBackend(keep_files=str(keep), **({"command": command} if command else {}))
        r = run_trial(
            p, form, backend, seed=3, max_iterations=10, time_limit_s=30, presolve="rules"
        )
        t = r.trial
        assert t.status == "solved" and t.verified, t.reason
        assert all(t.answer[e] == str(v) for e, v in fixed.items())
        kept[form.name] = (t, next(keep.iterdir()))
    # the penalty file holds the presolved polynomial: the fixed edges are no variables
    t, where = kept["qubo"]
    sidecar = json.loads((where / "model-1.qplib.json").read_text())
    assert len(sidecar["variables"]) == t.first_variables < t.unpresolved_variables
    # the constraint description holds every fixed edge as a unit clause (DIMACS: edge e is e+1)
    _, where = kept["cons"]
    units = {ln for ln in (where / "model-1.cnf").read_text().splitlines() if len(ln.split()) == 2}
    assert {f"{'' if v else '-'}{e + 1} 0" for e, v in fixed.items()} <= units
