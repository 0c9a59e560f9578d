"""``--compare`` on every axis it takes: formulation, form variant, backend,
cell and variables (``--compare edge,face``, a README command), within each configuration on
every setting a side may have run at several values of, and a note where paired trials ran
with different settings instead of silent pairing. Synthetic trials with known outcomes, so
each count below is worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from slitherbench.analysis.compare import compare
from slitherbench.analysis.report import write_comparison
from slitherbench.method.record import Trial

PUZZLES, SEEDS = 4, 3  # 12 (puzzle, seed) pairs per stratum


def _cell(
    form: str,
    backend: str,
    solved: bool,
    variables: str = "edge",
    time_limit_s: float = 20.0,
    max_iterations: int = 40,
    warm_start: str = "previous",
    backend_params: dict | None = None,
) -> list[Trial]:
    """One cell's trials: every puzzle x seed, all solved or none."""
    formulation = form.split("[")[0]
    variant = form + ("/face" if variables == "face" else "")
    params = json.dumps(backend_params or {}, sort_keys=True)
    fparams = json.dumps({"variables": variables} if variables == "face" else {})
    config = f"{variant}|{backend}|{time_limit_s}|{max_iterations}|{warm_start}|{params}"
    return [
        Trial(
            key=f"{config}-p{p}-r{s}",
            experiment="syn",
            config_hash=str(abs(hash(config)))[:12],
            cell=f"{variant}/{backend}",
            puzzle=f"p{p}",
            rows=5,
            cols=5,
            form_variant=variant,
            formulation=formulation,
            variables=variables,
            formulation_params=fparams,
            backend=backend,
            backend_params=params,
            seed=100 * p + s,
            repetition=s,
            status="solved" if solved else "max_iterations",
            time_limit_s=time_limit_s,
            max_iterations=max_iterations,
            warm_start=warm_start,
            iterations=2,
            wall_s=1.0,
        )
        for p in range(PUZZLES)
        for s in range(SEEDS)
    ]


def _frame(*cells: list[Trial]) -> pd.DataFrame:
    return pd.DataFrame([vars(t) for cell in cells for t in cell])


def _pairs(results) -> dict[str, tuple[int, int, int]]:
    return {label: (r.pairs, r.a_only, r.b_only) for label, r in results}


def test_formulation_axis_pairs_on_each_backend(capsys) -> None:
    trials = _frame(
        _cell("hubo", "sa", True),
        _cell("qubo", "sa", False),
        _cell("hubo", "openjij", True),
        _cell("qubo", "openjij", True),
    )
    assert _pairs(compare(trials, "hubo", "qubo")) == {
        "backend=sa": (12, 12, 0),
        "backend=openjij": (12, 0, 0),
        "all pairs": (24, 12, 0),
    }
    assert capsys.readouterr().err == ""  # equal settings: nothing to say


def test_form_variant_axis() -> None:
    trials = _frame(_cell("hubo[aux]", "sa", False), _cell("hubo[exact]", "sa", True))
    assert _pairs(compare(trials, "hubo[aux]", "hubo[exact]")) == {"backend=sa": (12, 0, 12)}


def test_backend_axis_pairs_within_each_form() -> None:
    trials = _frame(
        _cell("hubo", "sa", True),
        _cell("hubo", "openjij", False),
        _cell("qubo", "sa", True),
        _cell("qubo", "openjij", True),
    )
    assert _pairs(compare(trials, "sa", "openjij")) == {
        "form_variant=hubo": (12, 12, 0),
        "form_variant=qubo": (12, 0, 0),
        "all pairs": (24, 12, 0),
    }


@pytest.mark.slow
def test_cell_axis() -> None:
    trials = _frame(_cell("hubo", "sa", True), _cell("qubo", "openjij", False))
    assert _pairs(compare(trials, "hubo/sa", "qubo/openjij")) == {"all pairs": (12, 12, 0)}


def _edge_face() -> pd.DataFrame:
    return _frame(
        _cell("hubo", "sa", True),
        _cell("hubo", "sa", False, variables="face"),
        _cell("qubo", "sa", False),
        _cell("qubo", "sa", True, variables="face"),
        _cell("cons", "abs3", True),
        _cell("cons", "abs3", True, variables="face"),
    )


def test_variables_axis_pairs_each_form_on_each_backend_with_itself(capsys) -> None:
    assert _pairs(compare(_edge_face(), "edge", "face")) == {
        "formulation=hubo, backend=sa": (12, 12, 0),
        "formulation=qubo, backend=sa": (12, 0, 12),
        "formulation=cons, backend=abs3": (12, 0, 0),
        "all pairs": (36, 12, 12),
    }
    assert capsys.readouterr().err == ""


def test_compare_edge_face_writes_the_readmes_table(tmp_path: Path, capsys) -> None:
    """What ``python -m slitherbench.report STORE --compare edge,face`` writes."""
    path = write_comparison(_edge_face(), "edge,face", tmp_path, note="")
    assert path.name == "compare_edge_vs_face.md"
    text = path.read_text()
    assert "| formulation=hubo, backend=sa | 12 | 12 | 0 |" in text
    assert "| formulation=qubo, backend=sa | 12 | 0 | 12 |" in text
    assert "| all pairs | 36 | 12 | 12 |" in text
    assert "formulation=hubo, backend=sa:" in capsys.readouterr().out


# Every setting a side may have run at two values of: pairs stay within each value.
AXES = {
    "time_limit_s": ({"time_limit_s": 20.0}, {"time_limit_s": 5.0}),
    "max_iterations": ({"max_iterations": 40}, {"max_iterations": 10}),
    "warm_start": ({"warm_start": "previous"}, {"warm_start": "none"}),
    "num_sweeps": (
        {"backend_params": {"num_sweeps": 1000}},
        {"backend_params": {"num_sweeps": 50}},
    ),
}


# Fast subset: the time limit (the README's case); the other axes (0.1-0.3 s each) in the full.
AXIS_PARAMS = [
    a if a == "time_limit_s" else pytest.param(a, marks=pytest.mark.slow) for a in sorted(AXES)
]


@pytest.mark.parametrize("axis", AXIS_PARAMS)
def test_every_configuration_axis_is_never_paired_across(axis: str, capsys) -> None:
    one, two = AXES[axis]
    trials = _frame(
        _cell("hubo", "sa", True, **one),
        _cell("qubo", "sa", True, **one),
        _cell("hubo", "sa", True, **two),
        _cell("qubo", "sa", False, **two),
    )
    results = _pairs(compare(trials, "hubo", "qubo"))
    assert len(results) == 2, results
    assert all(axis in label and n == 12 for label, (n, _, _) in results.items()), results
    assert sorted(a_only for _, a_only, _ in results.values()) == [0, 12]
    # --pool pairs across on purpose: each hubo trial with both of qubo's at its puzzle and seed
    assert [r.pairs for _, r in compare(trials, "hubo", "qubo", pool=True)] == [48]
    assert "different settings" not in capsys.readouterr().err


@pytest.mark.parametrize("axis", AXIS_PARAMS)
def test_paired_trials_at_different_settings_are_named(axis: str, capsys) -> None:
    """hubo run only at one value, qubo only at the other: the pairs are made (each side has
    one configuration) but the note says the comparison is of that setting too."""
    one, two = AXES[axis]
    trials = _frame(_cell("hubo", "sa", True, **one), _cell("qubo", "sa", False, **two))
    assert _pairs(compare(trials, "hubo", "qubo")) == {"backend=sa": (12, 12, 0)}
    err = capsys.readouterr().err
    assert "note: --compare hubo,qubo: paired trials ran with different settings" in err
    assert f"{axis}=" in err and "\n" not in err.strip()


def test_the_compared_parameter_itself_is_no_unequal_setting(capsys) -> None:
    """Comparing backends, their own parameters differ by nature; only the rest must match."""
    trials = _frame(
        _cell("hubo", "sa", True, backend_params={"num_sweeps": 1000}),
        _cell("hubo", "openjij", True, backend_params={"num_reads": 4}),
    )
    assert _pairs(compare(trials, "sa", "openjij")) == {"form_variant=hubo": (12, 0, 0)}
    assert capsys.readouterr().err == ""
