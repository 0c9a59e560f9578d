"""Add a report item: one class with a name, what it reads and a ``write`` method.

A report item (:class:`slitherbench.analysis.plots.base.ReportItem`) is one table or figure of
``python -m slitherbench.report``. Saved as a module of ``slitherbench/analysis/plots/``, the report
finds it by scanning that package: it is written with every report, listed in
``manifest.json``, and ``--items NAME`` writes it alone. An item defined elsewhere (as
here) is handed to ``build_report`` directly. This one draws the median wall time of the
solved trials per formulation x backend, from the committed example store.
Run it:  python docs/tutorials/add_report_item.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

from slitherbench.analysis.plots import ReportData, ReportItem, Styles, provenance_note, save_figure


class SolvedWallTime(ReportItem):
    """``solved_wall_time``: the median wall time of the solved trials, one bar per
    formulation x backend (in the series' own colour, as in every other figure)."""

    name = "solved_wall_time"
    kind = "figure"
    needs = ("trials",)
    order = 65  # after time_to_solution

    def applies(self, data: ReportData) -> bool:
        return bool((data.trials.status == "solved").any())

    def write(self, data: ReportData) -> list[Path]:
        solved = data.trials[data.trials.status == "solved"]
        medians = solved.groupby(["form_variant", "backend"], sort=False)["wall_s"].median()
        styles = Styles(data.trials)
        fig, ax = plt.subplots(figsize=(4.5, 3))
        for k, ((form, backend), seconds) in enumerate(medians.items()):
            ax.bar(k, seconds, color=styles.cell(form, backend)["color"])
        ax.set_xticks(range(len(medians)), [f"{f}\n{b}" for f, b in medians.index], fontsize=7)
        ax.set_ylabel("median wall time, solved trials (s)")
        fig.tight_layout()
        return save_figure(fig, provenance_note(data.trials), data.out, self.name)


def main() -> None:
    from slitherbench.analysis.report import build_report

    matplotlib.use("Agg")  # a script draws to files only
    from slitherbench.store.results import load

    store = Path(__file__).resolve().parents[2] / "tests" / "data" / "store_v0_1"
    trials, iterations = load(store)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        # One item of the package by name beside the new one.
        manifest = build_report(
            trials, iterations, out, items=["table_by_form_backend", SolvedWallTime()]
        )
        print(manifest["files"])
        assert manifest["files"][-2:] == ["solved_wall_time.png", "solved_wall_time.pdf"]
        assert json.loads((out / "manifest.json").read_text())["files"] == manifest["files"]
        assert (out / "solved_wall_time.png").stat().st_size > 1000


if __name__ == "__main__":
    main()
