"""Across board kinds, pooled by size in faces: one table and one figure for stores whose
boards are of several kinds (experiment=grids), where each board is its own size and the
per-size table and figures show one board and one seed per point.

Boards are pooled into size classes that double (about 25, 50, 100, ... faces: a board goes
to the class nearest its face count on a log scale), each class labelled with the face
counts it holds, so a row reads "how does this cell do at about this many faces, whatever
the grid"."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from slitherbench.analysis import stats
from slitherbench.analysis.plots.base import ReportData, ReportItem, cell_grid, ran_only, write_grid
from slitherbench.analysis.plots.style import Styles, legend, provenance_note, save_figure

BASE_FACES = 25  # the smallest class's nominal size; the classes double from it


def face_class(faces: float) -> int:
    """The size class of a board: k for about 25 * 2**k faces (nearest on a log scale)."""
    return max(0, round(math.log2(max(float(faces), 1.0) / BASE_FACES)))


def pooled_by_faces(trials: pd.DataFrame) -> pd.DataFrame:
    """Per cell (form x backend) and size class: boards, solved, ran, the rate and its
    Wilson interval; ``label`` names the class by the face counts it holds."""
    t = ran_only(trials)
    if t.empty:
        return pd.DataFrame()
    t = t.assign(face_class=t["cells"].map(face_class))
    spans = t.groupby("face_class")["cells"].agg(["min", "max"])
    labels = {
        k: f"~{BASE_FACES * 2**k} ({int(r['min'])}-{int(r['max'])} faces)"
        for k, r in spans.iterrows()
    }
    rows = []
    for (form, backend, k), g in t.groupby(["form_variant", "backend", "face_class"], sort=False):
        solved, ran = int((g.status == "solved").sum()), len(g)
        lo, hi = stats.wilson(solved, ran)
        rows.append(
            {"form_variant": form, "backend": backend, "face_class": k, "label": labels[k],
             "boards": g["puzzle"].nunique(), "kinds": g["board"].nunique(),
             "solved": solved, "ran": ran, "rate": solved / ran, "rate_lo": lo, "rate_hi": hi}
        )  # fmt: skip
    return pd.DataFrame(rows).sort_values(["face_class"], kind="stable").reset_index(drop=True)


FACES_CAPTION = (
    "Solved / ran per formulation x backend and size class, every board kind pooled (a board "
    "goes to the class nearest its face count on a log scale; skipped and error trials are not "
    "counted)."
)


def faces_grid(trials: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The table of :func:`pooled_by_faces` as text (a row per cell, a column per size
    class, "solved/ran"), and the rows it is made from."""
    rows = pooled_by_faces(trials)
    text = rows.assign(text=rows.solved.astype(str) + "/" + rows.ran.astype(str))
    return cell_grid(text, "label"), rows


class _ByFaces(ReportItem):
    def applies(self, data: ReportData) -> bool:
        return len(data.trials) > 0 and data.sized["board"].nunique() >= 2


class TableByFaces(_ByFaces):
    """``table_by_faces``: solved/ran per cell and size class in faces, every board kind
    pooled; only where the trials hold more than one board kind."""

    name = "table_by_faces"
    kind = "table"
    order = 31

    def write(self, data: ReportData) -> list[Path]:
        grid, rows = faces_grid(data.sized)
        return write_grid(grid, rows, data.out, self.name, f"{FACES_CAPTION} {data.note}")


class FigureByFaces(_ByFaces):
    """``success_by_faces``: success rate (95% Wilson) against size class in faces, every
    board kind pooled, one series per cell."""

    name = "success_by_faces"
    kind = "figure"
    order = 51

    def write(self, data: ReportData) -> list[Path]:
        rows = pooled_by_faces(data.sized)
        styles = Styles(data.trials)
        fig, ax = plt.subplots(figsize=(7.5, 4.2))
        groups = list(rows.groupby(["form_variant", "backend"], sort=False))
        for i, ((form, backend), d) in enumerate(groups):
            st = styles.cell(form, backend)
            x = d.face_class.to_numpy() + 0.06 * (i - (len(groups) - 1) / 2)  # side by side
            err = np.array([d.rate - d.rate_lo, d.rate_hi - d.rate])
            ax.errorbar(x, d.rate, yerr=err, capsize=2, label=f"{form} / {backend}", **st)
        ticks = rows.drop_duplicates("face_class").sort_values("face_class")
        ax.set_xticks(ticks.face_class, ticks.label, fontsize=8)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("size class (every board kind pooled)")
        ax.set_ylabel("solved / ran (95% Wilson)")
        ax.grid(alpha=0.3)
        legend(ax)
        return save_figure(fig, provenance_note(data.trials), data.out, self.name)
