"""Paired comparison of two cells over the same puzzles and seeds.

``python -m slitherbench.report STORE --compare hubo,qubo`` names two values of one column:
the formulation, the form variant, the backend or the cell label (``hubo/sa``). Trials are
paired on (puzzle, seed) and on every other cell column, so ``hubo,qubo`` compares the two
forms on each backend separately, then over all backends together.
"""

from __future__ import annotations

import math

import pandas as pd

from . import stats
from .tables import ran_only

ATTRIBUTES = ("cell", "form_variant", "formulation", "backend")
# Compared column -> the columns pairs must also share.
STRATA = {
    "cell": [],
    "form_variant": ["backend"],
    "formulation": ["backend"],
    "backend": ["form_variant"],
}


def _attribute(trials: pd.DataFrame, a: str, b: str) -> str:
    for col in ATTRIBUTES:
        if col in trials and {a, b} <= set(map(str, trials[col])):
            return col
    raise ValueError(f"--compare {a},{b}: no column holds both (looked in {', '.join(ATTRIBUTES)})")


def pairs_of(trials: pd.DataFrame, a: str, b: str) -> tuple[str, list[str], pd.DataFrame]:
    """The column compared, the columns stratified on, and one row per pair."""
    col = _attribute(trials, a, b)
    t = ran_only(trials).assign(solved=lambda d: d.status == "solved")
    strata = list(STRATA[col])
    if col != "cell" and "cell" in t and t["cell"].str.endswith("+tuned").any():
        # tuned and untuned runs of a cell are different settings: never paired across
        t = t.assign(tuned=t["cell"].str.endswith("+tuned"))
        strata.append("tuned")
    on = ["puzzle", "seed", *strata]
    keep = [*on, "solved", "wall_s", "iterations"]
    left = t[t[col].astype(str) == a][keep]
    right = t[t[col].astype(str) == b][keep]
    return col, strata, left.merge(right, on=on, suffixes=("_a", "_b"))


def compare(trials: pd.DataFrame, a: str, b: str) -> list[tuple[str, stats.PairedResult]]:
    """Paired tests per stratum (e.g. per backend) and over all pairs together."""
    _, strata, pairs = pairs_of(trials, a, b)
    out = []
    if strata:
        for key, g in pairs.groupby(strata, sort=False):
            key = key if isinstance(key, tuple) else (key,)
            label = ", ".join(f"{s}={v}" for s, v in zip(strata, key, strict=True))
            out.append((label, stats.paired_test(g, a, b)))
    if not strata or len(out) != 1:
        out.append(("all pairs", stats.paired_test(pairs, a, b)))
    return out


def _fmt_p(p: float) -> str:
    return "–" if math.isnan(p) else f"{p:.3g}"


def to_markdown(results: list[tuple[str, stats.PairedResult]], note: str = "") -> str:
    lines = [
        f"Paired comparison {results[0][1].a} (A) vs {results[0][1].b} (B) on the same puzzle "
        f"and seed. McNemar's exact test on solved/unsolved pairs; Wilcoxon signed-rank on wall "
        f"time and iterations over pairs both solved (rank-biserial r; median A - B). {note}",
        "",
        "| pairs | n | A only | B only | both | neither | A - B success [95% CI] | McNemar p "
        "| wall: median A-B (s), r, p | iterations: median A-B, r, p |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, r in results:
        w, i = r.wilcoxon["wall_s"], r.wilcoxon["iterations"]
        lo, hi = r.rate_diff_ci
        lines.append(
            f"| {label} | {r.pairs} | {r.a_only} | {r.b_only} | {r.both} | {r.neither} | "
            f"{r.rate_diff:.2f} [{lo:.2f}, {hi:.2f}] | {_fmt_p(r.mcnemar_p)} | "
            f"{w['median_diff']:.3g}, {w.get('rank_biserial', math.nan):.2f}, {_fmt_p(w.get('p', math.nan))} | "
            f"{i['median_diff']:.3g}, {i.get('rank_biserial', math.nan):.2f}, {_fmt_p(i.get('p', math.nan))} |"
        )
    lines += ["", *[f"- {label}: {r.verdict}" for label, r in results]]
    return "\n".join(lines) + "\n"
