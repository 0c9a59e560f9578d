"""Summary tables as text: Markdown for reading, LaTeX (booktabs) a paper can use as it is.

LaTeX tables get human labels under grouped headers with units (``\\multicolumn`` +
``\\cmidrule``), text columns left-aligned and numbers right-aligned, three significant
digits, intervals as ``0.52 [0.31, 0.84]`` and the best value of each group (rows sharing
the first key, e.g. a puzzle or a size) in bold.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Column:
    label: str
    group: str
    ci: bool = False  # the summary has <key>_lo and <key>_hi
    better: str | None = None  # "max" or "min": bold the best of each group
    text: bool = False


COLUMNS = {
    "solved": Column("solved", "Success", text=True),
    "success": Column("rate [95\\% CI]", "Success", ci=True, better="max"),
    "iter_median": Column("median [CI]", "Iterations, solved trials", ci=True, better="min"),
    "rounds_median": Column("rounds", "Iterations, solved trials", better="min"),
    "iter_min": Column("min", "Iterations, solved trials"),
    "iter_mean": Column("mean", "Iterations, solved trials"),
    "iter_max": Column("max", "Iterations, solved trials"),
    "exact_iter": Column("exact", "Iterations, solved trials"),
    "wall_median_s": Column("wall [CI]", "Time (s)", ci=True, better="min"),
    "wall_iqr_s": Column("wall IQR", "Time (s)"),
    # The harness's share of the trials' wall time (wall - the backend's own search): a time
    # figure with a large share here measures the harness more than the solver.
    "overhead_share": Column("harness share", "Time (s)", better="min"),
    "solve_median_s": Column("solve [CI]", "Time (s)", ci=True, better="min"),
    "solve_iqr_s": Column("solve IQR", "Time (s)"),
    "tts99_s": Column("TTS99 [CI]", "Time (s)", ci=True, better="min"),
    "tts99_solve_s": Column("TTS99/solve", "Time (s)", better="min"),
    # At the best cutoff t (min over t of t ln 0.01 / ln(1 - P(t))), bootstrap interval.
    "tts99_opt_s": Column("TTS99 opt. [CI]", "Time (s)", ci=True, better="min"),
    "zero_rate": Column("E=0 rate", "Solves", better="max"),
    "sweeps_median": Column("sweeps [CI]", "Effort, solved trials", ci=True, better="min"),
    "solves": Column("solves", "Solves"),
    "trials": Column("ran", "Trials"),
    "skipped": Column("skipped", "Trials"),
    "errors": Column("errors", "Trials"),
    "variables": Column("vars", "Model"),
    "terms": Column("terms", "Model"),
    "max_degree": Column("max deg.", "Model"),
}
DEFAULT_COLUMNS = (
    "solved",
    "success",
    "iter_median",
    "rounds_median",
    "exact_iter",
    "wall_median_s",
    "tts99_s",
    "tts99_opt_s",
    "overhead_share",
    "zero_rate",
)
KEY_LABELS = {
    "puzzle": "Puzzle",
    "size": "Size",
    "board": "Board",
    "clues": "Clues",
    "form_variant": "Form",
    "backend": "Backend",
    "formulation": "Form",
}


def fmt(v: object, tex: bool = False) -> str:
    """Three significant digits; integers as integers; inf and missing values marked."""
    if isinstance(v, float | np.floating):
        if math.isnan(v):
            return "–"
        if math.isinf(v):
            return "$\\infty$" if tex else "∞"
        if float(v).is_integer() and abs(v) < 1e6:
            return str(int(v))
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


def md_label(key: str) -> str:
    """A Markdown header: the LaTeX table's group and label (``Time (s): TTS99 [CI]``)."""
    if key in KEY_LABELS:
        return KEY_LABELS[key]
    col = COLUMNS.get(key)
    if col is None:
        return key
    return f"{col.group}: {col.label}".replace("\\%", "%")


def cell_text(row: pd.Series, key: str, tex: bool = False) -> str:
    col = COLUMNS.get(key)
    v = fmt(row[key], tex)
    if key == "solved" and isinstance(row.get("not_run"), str) and row["not_run"]:
        return f"{v} ({row['not_run']})"  # why the rest was not measured: skipped, errors
    if col is not None and col.ci and f"{key}_lo" in row and v != "–":
        lo, hi = fmt(row[f"{key}_lo"], tex), fmt(row[f"{key}_hi"], tex)
        if lo != "–":
            v = f"{v} [{lo}, {hi}]"
    return v


def check_columns(columns: Sequence[str] | None) -> list[str]:
    cols = list(columns) if columns else list(DEFAULT_COLUMNS)
    unknown = [c for c in cols if c not in COLUMNS]
    if unknown:
        raise ValueError(f"unknown table columns {unknown}; choose from {', '.join(COLUMNS)}")
    return cols


def best_rows(
    summary: pd.DataFrame, keys: Sequence[str], columns: Sequence[str]
) -> set[tuple[int, str]]:
    """(row index, column) of the best value of each group (rows sharing the first key)."""
    out: set[tuple[int, str]] = set()
    groups = summary.groupby(keys[0], sort=False) if len(keys) > 1 else [(None, summary)]
    for _, g in groups:
        if len(g) < 2:
            continue
        for c in columns:
            better = COLUMNS[c].better
            vals = pd.to_numeric(g[c], errors="coerce").replace([np.inf, -np.inf], np.nan)
            if better is None or vals.isna().all():
                continue
            best = vals.max() if better == "max" else vals.min()
            out |= {(i, c) for i in g.index[vals == best]}
    return out


def md_cell(text: object) -> str:
    """A table cell's text for Markdown: ``] [`` escaped, so a configuration's label after a
    form variant (``hubo[aux] [updater=HEAT_BATH]``) is not read as a reference link."""
    return str(text).replace("] [", "] \\[")


def to_markdown(
    summary: pd.DataFrame, keys: Sequence[str], columns: Sequence[str], caption: str = ""
) -> str:
    cols = [*keys, *columns]
    bold = best_rows(summary, keys, columns)
    header = " | ".join(md_cell(md_label(c)) for c in cols)
    lines = [f"| {header} |", "|" + "|".join("---" for _ in cols) + "|"]
    for i, r in summary.iterrows():
        cells = [md_cell(fmt(r[k])) for k in keys]
        cells += [f"**{cell_text(r, c)}**" if (i, c) in bold else cell_text(r, c) for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    out = "\n".join(lines) + "\n"
    return (caption + "\n\n" + out) if caption else out


def tex_escape(s: str) -> str:
    for a, b in (
        ("\\", r"\textbackslash{}"),
        ("_", r"\_"),
        ("%", r"\%"),
        ("&", r"\&"),
        ("#", r"\#"),
        ("[", "{[}"),
        ("]", "{]}"),
        ("∞", r"$\infty$"),
        ("–", "--"),
        ("^", r"\textasciicircum{}"),  # a caption's 2^k
    ):
        s = s.replace(a, b)
    return s


def _header(keys: Sequence[str], columns: Sequence[str]) -> list[str]:
    """Two header rows: column groups spanning their columns, then the column labels."""
    spans: list[tuple[str, int, int]] = []  # group, first, last (1-based)
    for k, c in enumerate(columns, start=len(keys) + 1):
        g = COLUMNS[c].group
        if spans and spans[-1][0] == g:
            spans[-1] = (g, spans[-1][1], k)
        else:
            spans.append((g, k, k))
    top = [""] * len(keys)
    for g, a, b in spans:
        top.append(rf"\multicolumn{{{b - a + 1}}}{{c}}{{{g}}}")
    rules = "".join(rf"\cmidrule(lr){{{a}-{b}}}" for _, a, b in spans)
    labels = [KEY_LABELS.get(k, tex_escape(k)) for k in keys]
    labels += [COLUMNS[c].label for c in columns]
    return [" & ".join(top) + r" \\", rules, " & ".join(labels) + r" \\"]


def to_latex(
    summary: pd.DataFrame,
    keys: Sequence[str],
    columns: Sequence[str],
    caption: str = "",
    label: str = "",
) -> str:
    align = "l" * len(keys) + "".join("l" if COLUMNS[c].text else "r" for c in columns)
    bold = best_rows(summary, keys, columns)
    body = [
        r"% needs \usepackage{booktabs,graphicx}; shrinks to the line width only when wider",
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
    ]
    if caption:
        body.append(rf"\caption{{{tex_escape(caption)}}}")
    if label:
        body.append(rf"\label{{{label}}}")
    body += [
        r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
        rf"\begin{{tabular}}{{{align}}}",
        r"\toprule",
        *_header(keys, columns),
        r"\midrule",
    ]
    for i, r in summary.iterrows():
        cells = [tex_escape(fmt(r[k])) for k in keys]
        for c in columns:
            t = tex_escape(cell_text(r, c, tex=False)).replace(r"$\infty$", r"\ensuremath{\infty}")
            cells.append(rf"\textbf{{{t}}}" if (i, c) in bold else t)
        body.append(" & ".join(cells) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}}", r"\end{table}"]
    return "\n".join(body) + "\n"


def grid_markdown(df: pd.DataFrame, caption: str) -> str:
    """A plain table (every cell already text) in Markdown."""
    lines = ["| " + " | ".join(map(md_cell, df.columns)) + " |"]
    lines.append("|" + "|".join("---" for _ in df.columns) + "|")
    lines += ["| " + " | ".join(map(md_cell, r)) + " |" for r in df.itertuples(index=False)]
    return "\n".join(lines) + f"\n\n{caption}\n"


def grid_latex(df: pd.DataFrame, caption: str, label: str) -> str:
    """A plain table (every cell already text) as a booktabs LaTeX table."""
    spec = "l" + "r" * (len(df.columns) - 1)
    body = [" & ".join(tex_escape(str(v)) for v in r) + r" \\" for r in df.itertuples(index=False)]
    return "\n".join([
        r"\begin{table}[t]", r"\centering", r"\small", rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule", " & ".join(tex_escape(str(c)) for c in df.columns) + r" \\", r"\midrule",
        *body, r"\bottomrule", r"\end{tabular}", rf"\caption{{{tex_escape(caption)}}}",
        rf"\label{{{label}}}", r"\end{table}", "",
    ])  # fmt: skip
