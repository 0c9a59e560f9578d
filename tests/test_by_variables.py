"""Solved against the variables left, board by board: the logistic half point on boards whose
answer is known, the cases where the fit says nothing, and the report item."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from slitherbench.analysis.plots.base import ReportData
from slitherbench.analysis.plots.by_variables import (
    FigureByVariables,
    TableByVariables,
    board_points,
    half_point,
    half_text,
)


def _boards(variables: list[float], solved: list[int], ran: int = 20) -> pd.DataFrame:
    d = pd.DataFrame({"variables": variables, "solved": solved, "ran": ran})
    return d.assign(share=d["solved"] / d["ran"])


def test_the_half_point_is_where_a_known_logistic_crosses_one_half() -> None:
    # Boards from 100 to 500 variables solved exactly as often as p(x) = 1 / (1 + e^((x-300)/40))
    # says (1,000 trials each, rounded): the fit finds the half point at 300 with a tight
    # interval, and the slope -1/40.
    xs = np.linspace(100, 500, 11)
    p = 1 / (1 + np.exp((xs - 300) / 40))
    fit = half_point(_boards(list(xs), list(np.round(1000 * p).astype(int)), ran=1000))
    assert fit["half"] == pytest.approx(300, abs=1)
    assert fit["slope"] == pytest.approx(-1 / 40, rel=0.02)
    assert 290 < fit["half_lo"] < 300 < fit["half_hi"] < 310


def test_boards_spread_widen_the_interval_beyond_the_binomial_one() -> None:
    # The same trend with boards scattered around it (a board's seeds share its luck): the
    # scale taken from the boards' spread widens the interval.
    xs = np.linspace(100, 500, 12)
    smooth = np.round(20 / (1 + np.exp((xs - 300) / 60))).astype(int)
    jitter = np.array([6, -6, 5, -5, 4, -4, 4, -4, 5, -5, 6, -6])
    rough = np.clip(smooth + jitter, 0, 20)
    a, b = half_point(_boards(list(xs), list(smooth))), half_point(_boards(list(xs), list(rough)))
    assert b["half_hi"] - b["half_lo"] > 1.5 * (a["half_hi"] - a["half_lo"])


def test_the_fit_says_nothing_where_there_is_nothing_to_fit() -> None:
    five = _boards([100, 200, 300, 400, 500], [20, 15, 10, 5, 0])  # too few boards
    assert math.isnan(half_point(five)["half"])
    alike = _boards([100, 200, 300, 400, 500, 600], [20] * 6)  # every board solved alike
    assert math.isnan(half_point(alike)["half"])
    rising = _boards([100, 200, 300, 400, 500, 600], [0, 2, 8, 12, 18, 20])  # larger is easier
    assert math.isnan(half_point(rising)["half"])


def test_a_steep_fit_neither_overflows_nor_hides_its_half_point() -> None:
    # Boards solved in every trial up to 375 variables and in none from 380 (as on the
    # look-ahead presolve page): the fit separates them, its fitted shares saturate and
    # e^-z overflows a float as they are read; with warnings as errors (the test settings) the
    # fit must still give its half point between the last solved board and the first unsolved.
    boards = _boards([153, 192, 210, 189, 251, 257, 311, 323, 375, 380, 600],
                     [3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0], ran=3)  # fmt: skip
    fit = half_point(boards)
    assert 375 < fit["half"] < 380


def test_the_half_point_is_shown_only_inside_the_boards_range() -> None:
    row = {"variables_min": 200.0, "variables_max": 500.0}
    assert half_text({**row, "half": 359.4, "half_lo": 342.1, "half_hi": 376.0}) == (
        "359 [342, 376]"
    )
    assert half_text({**row, "half": 260.0, "half_lo": 150.0, "half_hi": 600.0}) == (
        "260 [<200, >500]"
    )
    assert half_text({**row, "half": 120.0, "half_lo": 0.0, "half_hi": 240.0}) == "below 200"
    assert half_text({**row, "half": 900.0, "half_lo": 0.0, "half_hi": 1e4}) == "above 500"
    assert half_text({**row, "half": math.nan, "half_lo": math.nan, "half_hi": math.nan}) == "–"


def _trials(boards: int, seeds: int = 3) -> pd.DataFrame:
    rows = []
    for i in range(boards):
        variables = 100 + 40 * i
        for k in range(seeds):
            solved = k < round(seeds * (1 - i / max(boards - 1, 1)))
            rows.append({"puzzle": f"b{i}", "rows": 9, "cols": 9, "faces": 81,
                         "form_variant": "hubo", "backend": "sa", "grade": "lookahead1",
                         "status": "solved" if solved else "timeout", "iterations": 1,
                         "first_variables": variables + k % 2, "experiment": "x",
                         "config_hash": "h", "key": f"b{i}-{k}"})  # fmt: skip
    return pd.DataFrame(rows)


def test_the_report_items_show_the_boards_where_a_cell_ran_enough_of_them(tmp_path: Path) -> None:
    data = ReportData(_trials(8), pd.DataFrame(), tmp_path)
    points = board_points(data.sized)
    assert len(points) == 8 and points["variables"].iloc[0] == 100  # median of 100, 101, 100
    assert TableByVariables().applies(data) and FigureByVariables().applies(data)
    TableByVariables().write(data)
    lines = (tmp_path / "table_by_variables.md").read_text().splitlines()
    assert lines[0] == "| Form | Backend | Boards | Solved | Variables (boards) | Half solved at |"
    assert lines[2].startswith("| hubo | sa | 8 | 12/24 | 100-380 | 240 [")  # symmetric boards
    files = FigureByVariables().write(data)
    assert {f.suffix for f in files} == {".png", ".pdf"}
    # five boards, or no model sizes recorded: nothing to show
    assert not TableByVariables().applies(ReportData(_trials(5), pd.DataFrame(), tmp_path))
    bare = _trials(8).drop(columns="first_variables")
    assert not FigureByVariables().applies(ReportData(bare, pd.DataFrame(), tmp_path))
