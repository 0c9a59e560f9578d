"""Model sizes: what each form hands its solver, at the first solve and at the last, and how
it grows with each cut, per board size x formulation (its variables: edge or face) from the
stored iterations.

The table (``model_sizes``: Markdown, LaTeX, CSV): variables by role (the board's own edges
or faces, point auxiliaries, slack bits, and reduction auxiliaries: the products of the
form's own HUBO -> QUBO reduction, ``hubo2qubo``, or of a backend's own, outside the model),
terms by degree, the highest degree, the coefficient range (smallest and largest absolute
coefficient and their ratio) and, on the last solve's row, the growth per cut between the
two. The figure (``model_growth``): variables, terms and the coefficient ratio against the
cuts so far. A model's size does not depend on the backend, except where the backend reduces
it itself: that form x backend is a row of its own (``reduced on``). Medians over the trials;
every trial with stored iterations counts (a model's size is no outcome); the last solve's
row pools the backends that ran the form as it is (each cuts as often as its samples ask).
Stores from before the detailed columns (``slitherbench/models/model_size.py``) still give
variables, terms, highest degree and cuts; the rest reads ``-``.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd

from slitherbench.analysis.plots.base import ReportData, ReportItem, write_grid
from slitherbench.analysis.plots.style import Styles, legend, provenance_note, save_figure

# The detailed columns (absent in stores from before them; 0 in a row nobody measured).
ROLES = {
    "board_variables": "edge/face",
    "point_auxiliaries": "point aux",
    "slack_variables": "slack",
    "all_reduction_auxiliaries": "reduction aux",  # the form's own and the backend's
}
DETAIL = (
    "board_variables",
    "point_auxiliaries",
    "slack_variables",
    "reduction_auxiliaries",
    "backend_reduction_auxiliaries",
    "terms_by_degree",
    "coeff_min_abs",
    "coeff_max_abs",
)
KEYS = ["size", "form_variant", "variables", "reduced_on"]

CAPTION = (
    "Model sizes at the first solve and at the last, per board size and formulation: medians "
    "over the trials (every trial with stored iterations; the last solve pools the backends "
    "that ran the form as it is). Variables: the model's, by role: the board's own (edges or "
    "faces), point auxiliaries, slack bits, reduction aux: the products of a HUBO -> QUBO "
    "reduction, the form's own (hubo2qubo: among its variables) or the backend's own (a row "
    "of its own, reduced on that backend: not among the model's variables). Terms by degree "
    "(degree:terms); a native constraint counts as one term of its variables' number. "
    "Coefficients: the smallest and largest absolute coefficient of the polynomial's terms "
    "and their ratio ('-': native constraints, or a store from before these columns). Per "
    "cut: the growth from the first solve to the last (variables: a backend's products "
    "included) divided by the cuts added between them (rules a lazy form adds on the way "
    "included)."
)


def _trial_columns(data: ReportData) -> pd.DataFrame:
    t = data.sized.drop_duplicates("key", keep="last").set_index("key")
    variables = t["variables"] if "variables" in t else pd.Series("edge", index=t.index)
    return pd.DataFrame(
        {
            "size": t["size"],
            "cells": t["cells"],
            "form_variant": t["form_variant"],
            "variables": variables.replace("", np.nan).fillna("edge"),
            "backend": t["backend"],
        }
    )


def solves(data: ReportData) -> pd.DataFrame:
    """Every stored solve of the report's trials with the trial's size, form and backend,
    ``reduced_on`` (the backend where it reduced the form, else ``-``) and ``measured``
    (whether the detailed columns were recorded)."""
    it = data.iterations
    if it.empty or "num_variables" not in it or "key" not in it:
        return pd.DataFrame()
    trials = _trial_columns(data)
    # A solve without variables was not measured (rows made by hand: tests, imports).
    it = it[it["key"].isin(trials.index) & (it["num_variables"].fillna(0) > 0)].copy()
    for col in DETAIL:
        if col not in it:
            it[col] = np.nan
    it["measured"] = it["board_variables"].fillna(0) > 0
    for col in ("coeff_min_abs", "coeff_max_abs"):  # 0: no polynomial (native constraints)
        it[col] = it[col].where(it["measured"] & (it[col] > 0))
    it = it.drop(columns=[c for c in trials.columns if c in it]).join(trials, on="key")
    # A cell (form x backend) whose backend reduced the form in any trial is reduced; a
    # reduction that added nothing leaves the model as it is.
    backend_products = it["backend_reduction_auxiliaries"].fillna(0)
    reduced = backend_products > 0
    reduced = reduced.groupby([it["form_variant"], it["backend"]]).transform("any")
    it["reduced_on"] = np.where(reduced, it["backend"], "-")
    it["sampler_variables"] = it["num_variables"] + backend_products
    own_products = it["reduction_auxiliaries"].fillna(0)
    it["all_reduction_auxiliaries"] = (own_products + backend_products).where(it["measured"])
    it["coeff_ratio"] = it["coeff_max_abs"] / it["coeff_min_abs"]
    run_order = {f: k for k, f in enumerate(dict.fromkeys(data.trials["form_variant"]))}
    it["_form_order"] = it["form_variant"].map(run_order)
    order = ["cells", "_form_order", "reduced_on", "key", "iteration"]
    it = it.sort_values(order, kind="stable").drop(columns="_form_order")
    return it.reset_index(drop=True)


def _degree_medians(lists: pd.Series) -> dict[int, float]:
    """Median terms per degree over the trials' ``terms_by_degree`` lists (a degree a trial
    lacks counts 0 there)."""
    rows = [list(v) for v in lists if isinstance(v, list | tuple | np.ndarray) and len(v)]
    if not rows:
        return {}
    width = max(map(len, rows))
    grid = np.array([r + [0] * (width - len(r)) for r in rows], dtype=float)
    medians = np.median(grid, axis=0)
    return {d + 1: float(m) for d, m in enumerate(medians) if m > 0}


def _stage(d: pd.DataFrame, stage: str) -> dict:
    measured = d[d["measured"]]
    row = {
        "stage": stage,
        "trials": d["key"].nunique(),
        "solve": d["iteration"].median(),
        "num_cuts": d["num_cuts"].median(),
        "num_variables": d["num_variables"].median(),
        "num_terms": d["num_terms"].median(),
        "max_degree": d["max_degree"].median(),
    }
    sizes = [*DETAIL[:5], *ROLES, "coeff_min_abs", "coeff_max_abs", "coeff_ratio"]
    for col in dict.fromkeys(sizes):
        row[col] = measured[col].median() if len(measured) else np.nan
    degrees = _degree_medians(measured["terms_by_degree"])
    row["terms_by_degree"] = " ".join(f"{k}:{_num(v)}" for k, v in degrees.items())
    return row


def shared_solves(data: ReportData) -> pd.DataFrame:
    """:func:`solves` of ``data``, made once per report (the table, the figure and a page)."""
    return data.shared("model_size_solves", lambda: solves(data))


def shared_size_summary(data: ReportData) -> pd.DataFrame:
    """:func:`size_summary` of ``data``, made once per report."""
    return data.shared("model_size_summary", lambda: size_summary(data))


def size_summary(data: ReportData) -> pd.DataFrame:
    """One row per board size x form (x the backend that reduced it) x stage (``first``,
    ``last``): medians over the trials, and the growth per cut on the ``last`` rows."""
    it = shared_solves(data)
    if it.empty:
        return pd.DataFrame()
    rows = []
    for key, d in it.groupby(KEYS, sort=False):
        by_trial = d.groupby("key", sort=False)
        first, last = by_trial.head(1), by_trial.tail(1)
        base = dict(zip(KEYS, key, strict=True))
        rows.append({**base, **_stage(first, "first")})
        growth = _growth(first.set_index("key"), last.set_index("key"))
        rows.append({**base, **_stage(last, "last"), **growth})
    return pd.DataFrame(rows)


def _growth(first: pd.DataFrame, last: pd.DataFrame) -> dict[str, float]:
    """Median over the trials that cut of (last - first) / cuts added."""
    cuts = last["num_cuts"] - first["num_cuts"]
    cut = cuts > 0
    if not cut.any():
        return {"variables_per_cut": np.nan, "terms_per_cut": np.nan}
    per = {}
    for name, col in (("variables_per_cut", "sampler_variables"), ("terms_per_cut", "num_terms")):
        per[name] = float(((last[col] - first[col])[cut] / cuts[cut]).median())
    return per


def _num(v: float) -> str:
    """A count or a median as text: whole numbers without decimals, '-' when absent."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "-"
    if float(v).is_integer():
        return str(int(v))
    return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"


def size_grid(summary: pd.DataFrame) -> pd.DataFrame:
    """The table's text cells: one row per size x form x stage."""

    def coefficients(r: pd.Series) -> str:
        if np.isnan(r["coeff_min_abs"]):
            return "-"
        low, high, ratio = (_num(r[c]) for c in ("coeff_min_abs", "coeff_max_abs", "coeff_ratio"))
        return f"{low}, {high} ({ratio})"

    def per_cut(r: pd.Series) -> str:
        if r["stage"] != "last":
            return ""
        both = (_num(r.get("variables_per_cut")), _num(r.get("terms_per_cut")))
        return "-" if both == ("-", "-") else ", ".join(both)

    return pd.DataFrame(
        {
            "size": summary["size"],
            "form": summary["form_variant"],
            "binary per": summary["variables"],
            "reduced on": summary["reduced_on"],
            "solve": summary["stage"],
            "trials": summary["trials"].map(_num),
            "cuts": summary["num_cuts"].map(_num),
            "variables": summary["num_variables"].map(_num),
            **{label: summary[col].map(_num) for col, label in ROLES.items()},
            "terms": summary["num_terms"].map(_num),
            "terms by degree": summary["terms_by_degree"].replace("", "-"),
            "max degree": summary["max_degree"].map(_num),
            "coefficients (absolute): min, max (ratio)": summary.apply(coefficients, axis=1),
            "per cut: variables, terms": summary.apply(per_cut, axis=1),
        }
    )


def write_table(summary: pd.DataFrame, out: Path, stem: str, caption: str) -> list[Path]:
    """Markdown, LaTeX (shrunk to the line width where wider: it has many columns) and CSV."""
    files = write_grid(size_grid(summary), summary, out, stem, caption)
    tex = files[1]
    text = tex.read_text()
    text = text.replace(
        r"\begin{tabular}",
        r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%" + "\n"
        r"\begin{tabular}",
        1,
    ).replace(r"\end{tabular}", r"\end{tabular}}", 1)
    tex.write_text(r"% needs \usepackage{booktabs,graphicx}" + "\n" + text)
    return files


MAX_SIZE_ROWS = 4  # figure rows: the smallest size, the largest and evenly between


def growth_figure(it: pd.DataFrame, trials: pd.DataFrame, out: Path) -> list[Path]:
    """Variables (a reduction's product variables included), terms and the coefficient ratio
    against the cuts so far: one row of panels per board size (at most
    :data:`MAX_SIZE_ROWS`), one line per form (x the backend that reduced it), the median at
    each number of cuts over the trials that reached it (each trial's last solve there), on a
    log scale."""
    sizes = list(dict.fromkeys(it["size"]))  # smallest first (solves() sorts by cells)
    if len(sizes) > MAX_SIZE_ROWS:
        picks = np.linspace(0, len(sizes) - 1, MAX_SIZE_ROWS).round().astype(int)
        sizes = [sizes[k] for k in dict.fromkeys(picks)]
    reduced = (it["reduced_on"] != "-").any()
    panels = [
        ("sampler_variables", "variables" + (" (+ reduction aux)" if reduced else "")),
        ("num_terms", "terms"),
    ]
    if it["coeff_ratio"].notna().any():
        panels.append(("coeff_ratio", "largest / smallest |c|"))
    styles = Styles(trials)
    fig, axes = plt.subplots(
        len(sizes), len(panels), figsize=(3.3 * len(panels), 2.5 * len(sizes)), squeeze=False
    )
    plain = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
    for row, size in zip(axes, sizes, strict=True):
        at_size = it[it["size"] == size]
        most = max(1, int(at_size["num_cuts"].max()))
        for (form, reduced_on), d in at_size.groupby(["form_variant", "reduced_on"], sort=False):
            style = styles.form(form) if reduced_on == "-" else styles.cell(form, reduced_on)
            label = form if reduced_on == "-" else f"{form} reduced on {reduced_on}"
            at_cut = d.groupby(["key", "num_cuts"], sort=False).tail(1)
            for ax, (col, _) in zip(row, panels, strict=True):
                y = at_cut.groupby("num_cuts")[col].median().dropna()
                if len(y):
                    every = max(1, len(y) // 12)
                    ax.plot(y.index, y.to_numpy(), label=label, ms=3, markevery=every, **style)
        for ax, (_, name) in zip(row, panels, strict=True):
            ax.set_title(f"{size}: {name}", fontsize=8)
            if not ax.get_lines():  # e.g. coefficients where only native constraints ran
                ax.text(0.5, 0.5, "no coefficients at this size\n(native constraints only,\nor not recorded)",
                        ha="center", va="center", fontsize=8, color="#777777",
                        transform=ax.transAxes)  # fmt: skip
                ax.set_xticks([])
                ax.set_yticks([])
                continue
            ax.set_xlabel("cuts so far")
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
            ax.set_xlim(-0.05 * most - 0.2, 1.05 * most + 0.2)
            if ax.get_lines() and all((ln.get_ydata() > 0).all() for ln in ax.get_lines()):
                ax.set_yscale("log")
                low, high = ax.get_ylim()
                narrow = high < 4 * low  # every minor tick labelled; else 1, 2, 5 per decade
                if not narrow:
                    ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
                ax.yaxis.set_major_formatter(plain)
                ax.yaxis.set_minor_formatter(plain if narrow else matplotlib.ticker.NullFormatter())
                ax.tick_params(axis="y", which="both", labelsize=6)
            ax.grid(alpha=0.3)
        legend(row[0], fontsize=6, loc="best")
    fig.tight_layout()
    return save_figure(fig, provenance_note(trials), out, "model_growth")


def _applies(data: ReportData) -> bool:
    return not shared_solves(data).empty


class ModelSizeTable(ReportItem):
    """``model_sizes`` (Markdown, LaTeX; the medians as CSV): wherever iterations are stored."""

    name = "model_sizes"
    kind = "table"
    needs = ("trials", "iterations")
    order = 160

    def applies(self, data: ReportData) -> bool:
        return _applies(data)

    def write(self, data: ReportData) -> list[Path]:
        summary = shared_size_summary(data)
        caption = f"{CAPTION} {data.note}".strip()
        return write_table(summary, data.out, self.name, caption)


class ModelGrowthFigure(ReportItem):
    """``model_growth`` (PNG, PDF): the model's size against the cuts so far."""

    name = "model_growth"
    needs = ("trials", "iterations")
    order = 170

    def applies(self, data: ReportData) -> bool:
        return _applies(data)

    def write(self, data: ReportData) -> list[Path]:
        it = shared_solves(data)
        return growth_figure(it, data.trials, data.out)
