"""CANDAR-style tables from the tidy trials table, in Markdown and LaTeX (booktabs)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pandas as pd

PUZZLE_KEYS = ["puzzle", "size", "clues"]
CELL_KEYS = ["form_variant", "backend"]
ALL_COLUMNS = (
    "solved",
    "iter_min",
    "iter_median",
    "iter_mean",
    "iter_max",
    "rounds_median",
    "wall_median_s",
    "wall_iqr_s",
    "solve_median_s",
    "solve_iqr_s",
    "variables",
    "terms",
    "max_degree",
    "exact_iter",
)


def _iqr(x: pd.Series) -> float:
    x = x.dropna()
    return float(x.quantile(0.75) - x.quantile(0.25)) if len(x) else float("nan")


def _settings(row: pd.Series) -> dict[str, object]:
    out: dict[str, object] = {}
    for col, prefix in (("formulation_params", ""), ("backend_params", "")):
        if isinstance(row.get(col), str) and row.get(col):
            out.update({f"{prefix}{k}": v for k, v in json.loads(row[col]).items()})
    for col in ("time_limit_s", "max_iterations"):
        if col in row:
            out[col] = row[col]
    return out


def split_settings(trials: pd.DataFrame) -> pd.DataFrame:
    """A formulation x backend run with several configurations is never pooled: each
    configuration's rows get the parameters that differ in their ``form_variant`` label, e.g.
    ``qubo [time_limit_s=7]`` (or the config hash, when only the base seed differs)."""
    if "config_hash" not in trials:
        return trials
    t = trials.copy()
    for (form, backend), d in t.groupby(CELL_KEYS, sort=False):
        hashes = list(dict.fromkeys(d["config_hash"]))
        if len(hashes) < 2:
            continue
        params = {h: _settings(d[d.config_hash == h].iloc[0]) for h in hashes}
        names = sorted({k for p in params.values() for k in p})
        differ = [k for k in names if len({str(params[h].get(k)) for h in hashes}) > 1]
        for h in hashes:
            label = ", ".join(f"{k}={params[h].get(k)}" for k in differ) or f"config {h}"
            rows = (t.form_variant == form) & (t.backend == backend) & (t.config_hash == h)
            t.loc[rows, "form_variant"] = f"{form} [{label}]"
    return t


def with_size(trials: pd.DataFrame) -> pd.DataFrame:
    t = trials.copy()
    t["size"] = t["rows"].astype(str) + "x" + t["cols"].astype(str)
    t["cells"] = t["rows"] * t["cols"]
    return t


def exact_iterations(trials: pd.DataFrame, reference: pd.DataFrame | None = None) -> pd.Series:
    """Median iteration count of the exact method per puzzle, from the exact backend's solved
    trials in ``trials`` and in ``reference`` (a store made by ``slitherbench.reference``)."""
    frames = [t for t in (trials, reference) if t is not None and not t.empty]
    if not frames:
        return pd.Series(dtype=float)
    both = pd.concat(frames, ignore_index=True)
    ex = both[(both.backend == "exact") & (both.status == "solved")]
    return ex.groupby("puzzle")["iterations"].median()


def summarise(
    trials: pd.DataFrame, group_by: Sequence[str], reference: pd.DataFrame | None = None
) -> pd.DataFrame:
    """One row per group. Iteration statistics are over solved trials; times over all trials.

    ``iter_*`` count every solve (as the reference page does, retries of a non-zero-energy
    sample included); ``rounds_median`` counts only the energy-0 solves, i.e. cut rounds.
    """
    t = with_size(trials)
    exact = exact_iterations(t, reference)
    rows = []
    for key, d in t.groupby(list(group_by), sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        ok = d[d.status == "solved"]
        it = ok["iterations"]
        row = dict(zip(group_by, key, strict=True))
        row.update(
            trials=len(d),
            n_solved=len(ok),
            solved=f"{len(ok)}/{len(d)}",
            iter_min=it.min() if len(it) else np.nan,
            iter_median=it.median() if len(it) else np.nan,
            iter_mean=it.mean() if len(it) else np.nan,
            iter_max=it.max() if len(it) else np.nan,
            # Elimination rounds: iterations that reached energy 0 (retries excluded).
            rounds_median=(ok["iterations"] - ok["retries"]).median() if len(ok) else np.nan,
            wall_median_s=d["wall_s"].median(),
            wall_iqr_s=_iqr(d["wall_s"]),
            solve_median_s=d["solve_s"].median(),
            solve_iqr_s=_iqr(d["solve_s"]),
            variables=d["num_variables"].median(),
            terms=d["num_terms"].median(),
            max_degree=d["max_degree"].max(),
            exact_iter=np.nan,
        )
        if "puzzle" in group_by:
            row["exact_iter"] = exact.get(row["puzzle"], np.nan)
        else:
            names = d["puzzle"].unique()
            vals = [exact[n] for n in names if n in exact.index]
            row["exact_iter"] = float(np.median(vals)) if vals else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def _fmt(v: object) -> str:
    if isinstance(v, float | np.floating):
        if np.isnan(v):
            return "–"
        if float(v).is_integer() and abs(v) < 1e6:
            return str(int(v))
        return f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"
    return str(v)


def to_markdown(df: pd.DataFrame, caption: str = "") -> str:
    cols = list(df.columns)
    lines = [f"| {' | '.join(cols)} |", "|" + "|".join("---" for _ in cols) + "|"]
    for _, r in df.iterrows():
        lines.append("| " + " | ".join(_fmt(r[c]) for c in cols) + " |")
    out = "\n".join(lines) + "\n"
    return (caption + "\n\n" + out) if caption else out


def _tex(s: str) -> str:
    for a, b in (
        ("\\", r"\textbackslash{}"),
        ("_", r"\_"),
        ("%", r"\%"),
        ("&", r"\&"),
        ("#", r"\#"),
        ("[", "{[}"),
        ("]", "{]}"),
    ):
        s = s.replace(a, b)
    return s


def to_latex(df: pd.DataFrame, caption: str = "", label: str = "") -> str:
    cols = list(df.columns)
    align = "".join("l" if df[c].dtype == object else "r" for c in cols)
    body = [r"\begin{table}[t]", r"\centering", r"\small"]
    if caption:
        body.append(rf"\caption{{{_tex(caption)}}}")
    if label:
        body.append(rf"\label{{{label}}}")
    body += [
        rf"\begin{{tabular}}{{{align}}}",
        r"\toprule",
        " & ".join(_tex(c) for c in cols) + r" \\",
        r"\midrule",
    ]
    for _, r in df.iterrows():
        body.append(" & ".join(_tex(_fmt(r[c])) for c in cols) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(body) + "\n"


def select_columns(
    summary: pd.DataFrame, group_by: Sequence[str], columns: Sequence[str] | None
) -> pd.DataFrame:
    cols = list(columns) if columns else list(ALL_COLUMNS)
    unknown = [c for c in cols if c not in ALL_COLUMNS]
    if unknown:
        raise ValueError(f"unknown table columns {unknown}; choose from {', '.join(ALL_COLUMNS)}")
    return summary[[*group_by, *cols]]


def _short_reason(d: pd.DataFrame) -> str:
    reasons = d.loc[d.status != "solved", "reason"].dropna()
    reasons = reasons[reasons != ""]
    if reasons.empty:
        return ""
    top = str(reasons.value_counts().index[0])
    return top if len(top) <= 60 else top[:57] + "..."


def run_summary(trials: pd.DataFrame) -> pd.DataFrame:
    """The table a run ends with: per puzzle x form x backend, solved/total, median
    iterations (solved trials) and wall time, statuses and the main reason for failures."""
    if trials.empty:
        return pd.DataFrame()
    rows = []
    for (puzzle, form, backend), d in trials.groupby(
        ["puzzle", "form_variant", "backend"], sort=False
    ):
        rows.append(
            {
                "puzzle": puzzle,
                "form_variant": form,
                "backend": backend,
                "solved": f"{int((d.status == 'solved').sum())}/{len(d)}",
                "median_iter": d.loc[d.status == "solved", "iterations"].median(),
                "median_wall_s": round(float(d.wall_s.median()), 3),
                "statuses": ",".join(f"{k}:{v}" for k, v in d.status.value_counts().items()),
                "note": _short_reason(d),
            }
        )
    return pd.DataFrame(rows)
