"""A run's closing lines: a group whose trials all ended in error says how many and why,
never ``solved 0/0``."""

from __future__ import annotations

import pandas as pd
from omegaconf import OmegaConf

from slitherbench.analysis import tables
from slitherbench.run import app


def _trials(statuses: list[str], reasons: list[str]) -> pd.DataFrame:
    n = len(statuses)
    return pd.DataFrame(
        {
            "puzzle": ["p"] * n,
            "form_variant": ["qubo"] * n,
            "backend": ["openjij"] * n,
            "status": statuses,
            "reason": reasons,
            "iterations": [0] * n,
            "wall_s": [0.0] * n,
        }
    )


ALL_ERRORS = _trials(["error"] * 3, ["ImportError: no openjij", "ImportError: no openjij", "x"])


def test_a_group_of_errors_says_so_in_its_solved_column() -> None:
    row = tables.run_summary(ALL_ERRORS).iloc[0]
    assert row.solved == "none ran (3 errors)" and "0/0" not in row.solved


def test_the_run_prints_the_error_count_and_the_first_message(tmp_path, capsys) -> None:
    cfg = OmegaConf.create({"trace": False, "results_dir": str(tmp_path)})
    app._print_outcome(cfg, ALL_ERRORS)
    out = capsys.readouterr().out
    assert "solved 0/0" not in out and "0/0" not in out
    assert "errors: 3 of 3 trials; the first: ImportError: no openjij" in out


def test_a_run_without_errors_prints_no_error_line(tmp_path, capsys) -> None:
    assert tables.error_summary(_trials(["solved", "timeout"], ["", "t"])) == ""
