"""CANDAR-style tables from the tidy trials table, in Markdown and LaTeX (booktabs)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pandas as pd

from slitherbench.analysis import stats
from slitherbench.method.record import TUNED_SUFFIX

PUZZLE_KEYS = ["puzzle", "size", "clues"]
CELL_KEYS = ["form_variant", "backend"]
SIZE_KEYS = ["size", *CELL_KEYS]
# Outcomes of a trial that ran; skipped and error trials are counted, never measured.
RAN = ("solved", "max_iterations", "timeout")


def _iqr(x: pd.Series) -> float:
    v = x.to_numpy(dtype=float, na_value=np.nan)
    v = v[~np.isnan(v)]
    if not len(v):
        return float("nan")
    q1, q3 = np.percentile(v, [25, 75])  # linear interpolation, as pandas' quantile
    return float(q3 - q1)


def settings_of(row: pd.Series) -> dict[str, object]:
    """A trial's configuration: tuned or not, its formulation's and backend's parameters and
    its run settings (time limit, iteration budget, warm start, presolve)."""
    out: dict[str, object] = {"tuned": str(row.get("cell", "")).endswith(TUNED_SUFFIX)}
    for col, prefix in (("formulation_params", ""), ("backend_params", "")):
        if isinstance(row.get(col), str) and row.get(col):
            out.update({f"{prefix}{k}": v for k, v in json.loads(row[col]).items()})
    for col in ("time_limit_s", "max_iterations", "warm_start", "presolve"):
        if col in row and not (isinstance(row[col], float) and np.isnan(row[col])):
            out[col] = row[col]
    return out


def by_configuration(trials: pd.DataFrame, pool: bool = False) -> pd.DataFrame:
    """The one grouping rule of tables, figures and the notebook: trials of one formulation x
    backend run with different configurations are never pooled (:func:`split_settings`)
    unless ``pool`` says so (``--pool``). Paired comparisons follow the same rule
    (:func:`slitherbench.analysis.compare.pairs_of`)."""
    return trials if pool else split_settings(trials)


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
        params = {h: settings_of(d[d.config_hash == h].iloc[0]) for h in hashes}
        names = sorted({k for p in params.values() for k in p})
        differ = [k for k in names if len({str(params[h].get(k)) for h in hashes}) > 1]
        for h in hashes:
            label = ", ".join(f"{k}={params[h].get(k)}" for k in differ) or f"config {h}"
            rows = (t.form_variant == form) & (t.backend == backend) & (t.config_hash == h)
            t.loc[rows, "form_variant"] = f"{form} [{label}]"
    return t


def with_size(trials: pd.DataFrame) -> pd.DataFrame:
    """``size`` (``5x5``; ``honeycomb 7x7`` on other boards) and ``cells`` (faces) columns."""
    t = trials.copy()
    # Stores from before boards have no board column: every trial there is a square.
    t["board"] = t["board"].replace("", np.nan).fillna("square") if "board" in t else "square"
    t["size"] = t["rows"].astype(str) + "x" + t["cols"].astype(str)
    t["cells"] = t["rows"] * t["cols"]
    if "board" in t:
        other = t["board"].notna() & ~t["board"].isin(["", "square"])
        t.loc[other, "size"] = t.loc[other, "board"].astype(str) + " " + t.loc[other, "size"]
        if "faces" in t:
            t.loc[other, "cells"] = t.loc[other, "faces"]
    return t


def exact_iterations(trials: pd.DataFrame, reference: pd.DataFrame | None = None) -> pd.Series:
    """Median iteration count of the exact method per puzzle, from the exact backend's solved
    trials in ``trials`` and in ``reference`` (a store made by ``slitherbench.run.reference``)."""
    frames = [t for t in (trials, reference) if t is not None and not t.empty]
    if not frames:
        return pd.Series(dtype=float)
    both = pd.concat(frames, ignore_index=True)
    ex = both[(both.backend == "exact") & (both.status == "solved")]
    return ex.groupby("puzzle")["iterations"].median()


def ran_only(trials: pd.DataFrame) -> pd.DataFrame:
    """The trials that ran: the only ones any time, iteration or energy statistic uses."""
    return trials[trials["status"].isin(RAN)]


def _success(ran: pd.DataFrame) -> dict[str, object]:
    k, n = int((ran.status == "solved").sum()), len(ran)
    lo, hi = stats.wilson(k, n)
    tau = float(ran["time_limit_s"].median()) if n and "time_limit_s" in ran else np.nan
    tts, tts_lo, tts_hi = stats.tts99_ci(tau, k, n)
    # Each trial's time to solution (inf where it did not solve): the optimal-cutoff TTS99
    # tells a cell that solves in 0.01 s from one that needs the whole budget.
    to_solution = np.where(ran["status"] == "solved", ran["wall_s"], np.inf) if n else []
    opt, opt_lo, opt_hi = stats.tts99_optimal_ci(to_solution)
    return {
        "trials": n,
        "n_solved": k,
        "solved": f"{k}/{n}",
        "success": k / n if n else np.nan,
        "success_lo": lo,
        "success_hi": hi,
        "tts99_s": tts,
        "tts99_s_lo": tts_lo,
        "tts99_s_hi": tts_hi,
        "tts99_tau_s": tau,
        "tts99_opt_s": opt,
        "tts99_opt_s_lo": opt_lo,
        "tts99_opt_s_hi": opt_hi,
    }


def _medians(ran: pd.DataFrame) -> dict[str, object]:
    ok = ran[ran.status == "solved"]
    out: dict[str, object] = {}
    for name, values in (
        ("iter_median", ok["iterations"]),
        ("rounds_median", ok["iterations"] - ok["retries"]),
        ("wall_median_s", ran["wall_s"]),
        ("solve_median_s", ran["solve_s"]),
        # The samplers' own effort to a solution (machine-independent; 0: not counted).
        ("sweeps_median", ok["sweeps"] if "sweeps" in ok else pd.Series(dtype=float)),
    ):
        values = values.dropna()
        out[name], out[f"{name}_lo"], out[f"{name}_hi"] = stats.median_ci(values.to_numpy())
    it = ok["iterations"]
    out.update(
        iter_min=it.min() if len(it) else np.nan,
        iter_mean=it.mean() if len(it) else np.nan,
        iter_max=it.max() if len(it) else np.nan,
        wall_iqr_s=_iqr(ran["wall_s"]),
        overhead_share=_overhead_share(ran),
        solve_iqr_s=_iqr(ran["solve_s"]),
        variables=ran["num_variables"].median() if len(ran) else np.nan,
        terms=ran["num_terms"].median() if len(ran) else np.nan,
        max_degree=ran["max_degree"].max() if len(ran) else np.nan,
    )
    return out


def _overhead_share(ran: pd.DataFrame) -> float:
    """The harness's share of the trials' wall time: sum of (wall - the backend's own search)
    over the sum of wall times (NaN for stores without the column or without a trial)."""
    if "overhead_s" not in ran or ran.empty:
        return np.nan
    wall = float(ran["wall_s"].sum())
    return float(ran["overhead_s"].sum()) / wall if wall > 0 else np.nan


def _solves(ran: pd.DataFrame, iterations: pd.DataFrame | None) -> dict[str, object]:
    """Per solve: the rate of energy-0 samples and a per-solve TTS99 (tau = median solve).
    ``iterations``: the group's own iteration rows (or None)."""
    if iterations is None or iterations.empty or ran.empty:
        return {"solves": 0, "zero_rate": np.nan, "tts99_solve_s": np.nan}
    its = iterations[iterations["key"].isin(set(ran["key"]))]
    if its.empty:
        return {"solves": 0, "zero_rate": np.nan, "tts99_solve_s": np.nan}
    zero = float((its["energy"] == 0).mean())
    return {
        "solves": len(its),
        "zero_rate": zero,
        "tts99_solve_s": stats.tts99(float(its["solve_s"].median()), zero),
    }


# The trial columns summarise's statistics read (besides the grouping keys).
SUMMARY_READS = ("key", "puzzle", "cells", "status", "reason", "time_limit_s", "wall_s",
                 "solve_s", "iterations", "retries", "sweeps", "overhead_s", "num_variables",
                 "num_terms", "max_degree")  # fmt: skip


def summarise(
    trials: pd.DataFrame,
    group_by: Sequence[str],
    reference: pd.DataFrame | None = None,
    iterations: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per group. Skipped and error trials are counted (``skipped``, ``errors``) and
    left out of every statistic; iteration statistics are over solved trials (labelled so),
    times over the trials that ran. Intervals are 95%: Wilson for rates, bootstrap for
    medians, Wilson mapped through TTS99 = tau ln(0.01)/ln(1-p) with tau = the time budget.
    ``iter_*`` count every solve (retries of a non-zero-energy sample included, as the
    reference page does); ``rounds_median`` counts only the energy-0 solves (cut rounds).
    Grouped by ``size``, the rows go from the smallest board to the largest (within a size,
    the cells in the order they first ran)."""
    t = with_size(trials)
    exact = exact_iterations(t, reference)
    t["_group"] = t.groupby(list(group_by), sort=False, dropna=False).ngroup()
    # Only the columns a statistic reads: every per-group selection copies the frame it
    # selects from, and a store's trials carry wide text columns (answers, settings).
    t = t[[c for c in dict.fromkeys([*group_by, "_group", *SUMMARY_READS]) if c in t]]
    its_of: dict[int, pd.DataFrame] = {}
    if iterations is not None and not iterations.empty:  # split once, not once per group
        cols = iterations[["key", "energy", "solve_s"]]
        group_of = cols["key"].map(t.drop_duplicates("key").set_index("key")["_group"])
        its_of = dict(tuple(cols.groupby(group_of)))
    rows = []
    for key, d in t.groupby(list(group_by), sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        ran = ran_only(d)
        row: dict[str, object] = dict(zip(group_by, key, strict=True))
        row.update(
            skipped=int((d.status == "skipped").sum()),
            errors=int((d.status == "error").sum()),
            not_run=not_run(d),
        )
        row.update(_success(ran))
        row.update(_medians(ran))
        row.update(_solves(ran, its_of.get(int(d["_group"].iloc[0]))))
        names = d["puzzle"].unique()
        vals = [exact[n] for n in names if n in exact.index]
        row["exact_iter"] = float(np.median(vals)) if vals else np.nan
        rows.append({**row, "_cells": d["cells"].iloc[0]})
    out = pd.DataFrame(rows)
    if "size" in group_by and len(out):
        out = smallest_first(out, [k for k in group_by if k != "size"])
    return out.drop(columns="_cells", errors="ignore")


def smallest_first(out: pd.DataFrame, others: Sequence[str]) -> pd.DataFrame:
    """Rows by board size, smallest first (``_cells``); within a size, the cells (the other
    keys) in the order they first ran anywhere, so every size lists them alike (with
    parallel workers a cell's first trial at one size may finish after another's)."""
    rank = out.groupby(list(others), sort=False, dropna=False).ngroup() if others else 0
    return out.assign(_rank=rank).sort_values(["_cells", "_rank"], kind="stable").drop(
        columns="_rank").reset_index(drop=True)  # fmt: skip


def tts99_by(trials: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """TTS99 per group (``keys`` and ``tts99_s``), as :func:`summarise` computes it (tau =
    the median time budget of the trials that ran; NaN where none ran), without the
    intervals and medians: what a figure of TTS99 alone needs, at a fraction of the cost."""
    ran = trials["status"].isin(RAN)
    parts = trials[list(keys)].assign(
        _ran=ran,
        _solved=ran & trials["status"].eq("solved"),
        _tau=trials["time_limit_s"].where(ran),
    )
    agg = parts.groupby(list(keys), sort=False, dropna=False).agg(
        n=("_ran", "sum"), k=("_solved", "sum"), tau=("_tau", "median")
    )
    agg["tts99_s"] = [
        stats.tts99(float(tau), k / n) if n else np.nan
        for n, k, tau in zip(agg["n"], agg["k"], agg["tau"], strict=True)
    ]
    return agg.reset_index()[[*keys, "tts99_s"]]


def not_run(d: pd.DataFrame, width: int = 90) -> str:
    """Why some of these trials were not measured: ``3 skipped: license_limit (needs 176,
    ...)``, ``1 error: ...`` (the most common reason of each), or "" when all ran."""
    parts = []
    for status in ("skipped", "error"):
        g = d[d.status == status]
        if g.empty:
            continue
        reasons = g["reason"].fillna("").astype(str) if "reason" in g else pd.Series("", g.index)
        top = str(reasons.value_counts().index[0]) if len(reasons) else ""
        top = top if len(top) <= width else top[: width - 3] + "..."
        parts.append(f"{len(g)} {status}" + (f": {top}" if top else ""))
    return "; ".join(parts)


def _short_reason(d: pd.DataFrame) -> str:
    reasons = d.loc[d.status != "solved", "reason"].dropna()
    reasons = reasons[reasons != ""]
    if reasons.empty:
        return ""
    top = str(reasons.value_counts().index[0])
    return top if len(top) <= 60 else top[:57] + "..."


def _solved_cell(d: pd.DataFrame) -> str:
    """solved/ran; where nothing ran, why not (``0/0`` would read as a measured zero)."""
    ran = len(ran_only(d))
    if ran:
        return f"{int((d.status == 'solved').sum())}/{ran}"
    errors = int((d.status == "error").sum())
    return f"none ran ({errors} errors)" if errors else "none ran"


def error_summary(trials: pd.DataFrame) -> str:
    """One line for a run with trials in error: how many, and the first one's message."""
    errors = trials[trials["status"] == "error"]
    if errors.empty:
        return ""
    first = " ".join(str(errors["reason"].iloc[0] if "reason" in errors else "").split())
    return f"errors: {len(errors)} of {len(trials)} trials; the first: {first or '(no message)'}"


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
                "solved": _solved_cell(d),
                "median_iter": d.loc[d.status == "solved", "iterations"].median(),
                # skipped and error trials are counted in statuses, never timed
                "median_wall_s": round(float(ran_only(d).wall_s.median()), 3),
                "statuses": ",".join(f"{k}:{v}" for k, v in d.status.value_counts().items()),
                "note": _short_reason(d),
            }
        )
    return pd.DataFrame(rows)


def stopped_midway(trials: pd.DataFrame) -> pd.Series:
    """Trials skipped after they had run (a cut grew the model past a limit, e.g. pyqbpp's
    free 100 variables): unlike a trial skipped before its first solve, each was measured
    until it stopped, so a rate over the trials that ran alone leaves out its hard cases."""
    its = trials["iterations"] if "iterations" in trials else pd.Series(0, index=trials.index)
    return (trials["status"] == "skipped") & (its.fillna(0) > 0)


def per_board(
    trials: pd.DataFrame, keys: Sequence[str], sort: bool, **columns: tuple[str, str]
) -> pd.DataFrame:
    """One row per group of ``keys`` (a board, within its cell where ``keys`` name the cell):
    ``solved`` and ``ran``, its trials counted, and ``columns``, pandas named aggregations
    (``grade=("grade", "first")``). The unit of every board-level statistic."""
    solved = trials["status"].eq("solved").rename("solved_")
    return (
        trials.assign(solved_=solved)
        .groupby(list(keys), sort=sort)
        .agg(solved=("solved_", "sum"), ran=("solved_", "size"), **columns)
    )


def _board_reach(trials: pd.DataFrame, threshold: float) -> dict[str, float | int]:
    """One cell's trials at one size, board by board: how many boards, how many reach
    ``threshold`` on their own, and the pooled reach's board-bootstrap interval (a trial that
    stopped counts as not solved, as in the reach). Rows without a ``puzzle`` are one board."""
    per = per_board(trials if "puzzle" in trials else trials.assign(puzzle=""), ["puzzle"], True)
    lo, hi = stats.board_bootstrap(per["solved"], per["ran"])
    held = int((per["solved"] >= threshold * per["ran"]).sum())
    return {"boards": len(per), "boards_held": held, "reach_lo": lo, "reach_hi": hi}


def frontier_summary(trials: pd.DataFrame, threshold: float = 0.5) -> pd.DataFrame:
    """Per cell (form x backend) and board size: solved/ran, success with its Wilson interval,
    TTS99; ``stopped``: trials skipped after they ran (:func:`stopped_midway`); ``reach``:
    solved over the trials that ran or stopped; ``frontier`` marks the cell's largest size
    with ``reach`` >= ``threshold``. With the board as the unit: ``boards``, ``boards_held``
    (boards whose own reach is >= ``threshold``) and ``reach_lo``/``reach_hi``, the reach's
    95% interval by :func:`stats.board_bootstrap` (NaN for one board)."""
    stopped = trials[stopped_midway(trials)]
    t = with_size(pd.concat([ran_only(trials), stopped]))
    sizes = t.drop_duplicates("size").sort_values("cells")["size"].tolist()
    rows = []
    for (form, backend), d in t.groupby(CELL_KEYS, sort=False):
        for size in sizes:
            g = d[d["size"] == size]
            if g.empty:
                continue
            rows.append({"form_variant": form, "backend": backend, "size": size,
                         "cells": int(g["cells"].iloc[0]), **_success(ran_only(g)),
                         "stopped": int((g["status"] == "skipped").sum()),
                         **_board_reach(g, threshold)})  # fmt: skip
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    # a stopped trial counts as not solved (NaN where nothing ran or stopped: never a frontier)
    out["reach"] = out["n_solved"] / (out["trials"] + out["stopped"]).replace(0, np.nan)
    out["frontier"] = False
    for _, d in out.groupby(CELL_KEYS, sort=False):
        ok = d[d["reach"] >= threshold]
        if not ok.empty:
            out.loc[ok["cells"].idxmax(), "frontier"] = True
    return out


WITHIN_FRACTIONS = (0.125, 0.25, 0.5, 1.0)


def solved_within(
    trials: pd.DataFrame, fractions: tuple[float, ...] = WITHIN_FRACTIONS
) -> pd.DataFrame:
    """Per board size and cell: of the trials that ran, how many solved within each fraction of
    their time budget (wall clock; the time-to-target figure read at a few points), and the
    fewest, median and most iterations of the solved ones. One row per group (smallest board
    first, the cells in the order they first ran) with ``budget_s``
    (the group's largest time limit), ``ran`` and ``within_<f>`` (counts)."""
    ran = with_size(ran_only(trials))
    rows = []
    for key, g in ran.groupby(SIZE_KEYS, sort=False):
        budget = float(g["time_limit_s"].max())
        ok = g[g["status"] == "solved"]
        its = ok["iterations"]
        rows.append({**dict(zip(SIZE_KEYS, key, strict=True)), "budget_s": budget,
                     "ran": len(g),
                     **{f"within_{f:g}": int((ok["wall_s"] <= f * budget).sum())
                        for f in fractions},
                     "iter_min": its.min() if len(ok) else np.nan,
                     "iter_median": its.median() if len(ok) else np.nan,
                     "iter_max": its.max() if len(ok) else np.nan,
                     "_cells": g["cells"].iloc[0]})  # fmt: skip
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    others = [k for k in SIZE_KEYS if k != "size"]
    return smallest_first(out, others).drop(columns="_cells")


def frontier_grid(summary: pd.DataFrame) -> pd.DataFrame:
    """The frontier as one row per cell: ``k/n`` per size ("-" not run; "k/n, m stopped"
    where m trials stopped after they ran) and the largest size solved in at least half of
    its trials ("none" if no size was)."""
    sizes = summary.drop_duplicates("size").sort_values("cells")["size"].tolist()
    rows = []
    for (form, backend), d in summary.groupby(CELL_KEYS, sort=False):
        shown = [
            f"{k}, {m} stopped" if m else k for k, m in zip(d["solved"], d["stopped"], strict=True)
        ]
        by = dict(zip(d["size"], shown, strict=True))
        best = d.loc[d["frontier"], "size"]
        rows.append({"form / backend": f"{form} / {backend}",
                     **{s: by.get(s, "-") for s in sizes},
                     "frontier": best.iloc[0] if len(best) else "none"})  # fmt: skip
    return pd.DataFrame(rows)


def frontier_board_grid(summary: pd.DataFrame) -> pd.DataFrame:
    """The frontier board by board, where some cell ran several boards of one size (else
    empty): per cell and size "h of b boards [lo, hi]", h boards solved in at least half of
    their own trials, and the solved share's board-bootstrap interval where there are enough
    boards for one (:data:`stats.BOOTSTRAP_MIN_BOARDS`); "1 board" alone; "-" not run."""
    if summary.empty or not (summary["boards"] >= 2).any():
        return pd.DataFrame()
    sizes = summary.drop_duplicates("size").sort_values("cells")["size"].tolist()

    def text(r: pd.Series) -> str:
        if r["boards"] < 2:
            return "1 board"
        if r["reach_lo"] != r["reach_lo"]:  # too few boards for an interval
            return f"{r['boards_held']} of {r['boards']} boards"
        return (
            f"{r['boards_held']} of {r['boards']} boards [{r['reach_lo']:.3g}, {r['reach_hi']:.3g}]"
        )

    rows = []
    for (form, backend), d in summary.groupby(CELL_KEYS, sort=False):
        by = {r["size"]: text(r) for _, r in d.iterrows()}
        rows.append({"form / backend": f"{form} / {backend}",
                     **{s: by.get(s, "-") for s in sizes}})  # fmt: skip
    return pd.DataFrame(rows)


def _why(status: str, reason: object) -> str:
    """Why one trial gave no answer: M out of memory, L a size or licence limit (skipped),
    T out of time, I the iteration limit, P settled by the presolve (no solve), E another
    error."""
    if "out of memory" in str(reason or "").lower():
        return "M"
    return {"skipped": "L", "timeout": "T", "max_iterations": "I", "presolved": "P"}.get(
        status, "E"
    )


def _failure_mark(d: pd.DataFrame) -> str:
    """'-' as the survey prints a solver that gave no answer, with the first of M, L (every
    trial skipped), T, I that any of its trials shows, else E."""
    why = {_why(s, r) for s, r in zip(d["status"], d["reason"], strict=True)}
    for letter in ("M", "L", "T", "I", "P"):
        if letter in why and (letter not in ("L", "P") or why == {letter}):
            return f"- ({letter})"
    return "- (E)"


def instance_times(trials: pd.DataFrame) -> pd.DataFrame:
    """The survey's layout: one row per instance (puzzle, size), one column per solver
    (backend and form): the median wall time in seconds of its solved trials (with k/n when
    only some solved), or a '-' mark (:func:`_failure_mark`)."""
    t = with_size(trials)
    direct = t.get("backend_params", pd.Series("", index=t.index)).fillna("").astype(str)
    direct = direct.str.contains('"mode": "direct"') & ~t["form_variant"].str.contains("mode=")
    t = t.assign(
        solver=t["backend"] + direct.map({True: " direct", False: ""}) + ": " + t["form_variant"]
    )
    cols = list(dict.fromkeys(t["solver"]))
    t = t[["puzzle", "size", "cells", "solver", "status", "reason", "wall_s"]]  # narrow: fast
    rows = []
    for (puzzle, size), d in t.groupby(["puzzle", "size"], sort=False):
        row: dict[str, object] = {"instance": puzzle, "size": size, "_c": d["cells"].iloc[0]}
        for col in cols:
            g = d[d.solver == col]
            if g.empty:
                row[col] = ""
                continue
            ok = g[g.status == "solved"]
            if ok.empty:
                row[col] = _failure_mark(g)
                continue
            secs = f"{ok['wall_s'].median():.3f}"
            if len(ok) < len(g):  # k/n, and why the others gave no answer
                rest = g[g.status != "solved"]
                marks = [_why(s, r) for s, r in zip(rest["status"], rest["reason"], strict=True)]
                why = ", ".join(f"{marks.count(m)} {m}" for m in dict.fromkeys(marks))
                secs += f" ({len(ok)}/{len(g)}; {why})"
            row[col] = secs
        rows.append(row)
    out = pd.DataFrame(rows)  # smallest board first, by its faces (any board kind)
    return out.sort_values("_c", kind="stable").drop(columns="_c")


# The reference page's own iteration counts for reference10 (shared/reference/
# qubopp_slitherlink_en.txt): its Python program on ABS3 with a GPU, and its C++ one.
PAGE_RANGES = {"page, Python (ABS3, GPU)": (2, 12), "page, C++": (6, 14)}


def page_table(trials: pd.DataFrame, puzzle: str = "reference10") -> pd.DataFrame:
    """Iterations on the page's board beside the page's ranges: per form x backend, the solved
    trials' solves and rounds (energy-0 solves) as min / median / max, median wall time and
    the modes (CPU/GPU) the trials ran in."""
    d = ran_only(trials[trials.puzzle == puzzle])
    rows = []
    for (form, backend), g in d.groupby(CELL_KEYS, sort=False):
        ok = g[g.status == "solved"]
        rounds = ok["iterations"] - ok["retries"]
        span = lambda s: f"{s.min():g} / {s.median():g} / {s.max():g}" if len(s) else "–"  # noqa: E731
        rows.append(
            {
                "form / backend": f"{form} / {backend}",
                "solved": f"{len(ok)}/{len(g)}",
                "solves min / median / max": span(ok["iterations"]),
                "rounds min / median / max": span(rounds),
                "wall s, median (solved)": f"{ok['wall_s'].median():.1f}" if len(ok) else "–",
                "mode": ", ".join(sorted(set(map(str, g["mode"])) - {""})) or "–",
            }
        )
    for label, (lo, hi) in PAGE_RANGES.items():
        rows.append(
            {
                "form / backend": label,
                "solved": "reported",
                "solves min / median / max": f"{lo} / – / {hi}",
                "rounds min / median / max": "–",
                "wall s, median (solved)": "a few s (GPU)" if "GPU" in label else "–",
                "mode": "GPU" if "GPU" in label else "–",
            }
        )
    return pd.DataFrame(rows)
