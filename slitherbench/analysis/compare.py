"""Paired comparison of two cells over the same puzzles and seeds.

``python -m slitherbench.report STORE --compare hubo,qubo`` names two values of one column:
the formulation, the form variant, the backend, the cell label (``hubo/sa``), the
variables (``edge,face``: every form x backend with each), the tuning (``untuned,tuned``:
every cell against its run with the tuned settings) or the warm start (``previous,none``:
every cell with either hint). Trials are
paired on (puzzle, seed) and on every other cell column, so ``hubo,qubo`` compares the two
forms on each backend separately, then over all backends together.

The grouping rule of the tables holds here too: trials run with different configurations are
never paired or pooled (unless ``pool``). Where one side of the comparison (in one stratum, e.g.
one backend) was run with several configurations, say a 20 s and a 5 s time limit, pairs must
also agree on the settings that tell those configurations apart, and the tests are made
within each such configuration; a configuration one side has and the other lacks is named and
left out, and a comparison left with none refuses in one line naming them.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence

import pandas as pd

from slitherbench.analysis import stats
from slitherbench.analysis.tables import ran_only, settings_of
from slitherbench.method.record import TUNED_SUFFIX

ATTRIBUTES = (
    "cell",
    "form_variant",
    "formulation",
    "backend",
    "variables",
    "tuning",
    "warm_start",
    "presolve",
)
# Compared column -> the columns pairs must also share.
STRATA = {
    "cell": [],
    "form_variant": ["backend"],
    "formulation": ["backend"],
    "backend": ["form_variant"],
    "variables": ["formulation", "backend"],  # edge,face: each form on each backend
    "tuning": ["form_variant", "backend"],  # untuned,tuned: each cell against its tuned self
    "warm_start": ["form_variant", "backend"],  # previous,none: each cell with either hint
    "presolve": ["form_variant", "backend"],  # none,rules: each cell with and without it
}


def specs(given: str | Sequence[str] | None) -> list[str]:
    """``--compare`` as a list of ``A,B`` pairs: given once (a string) or several times."""
    if not given:
        return []
    return [given] if isinstance(given, str) else list(given)


def parse_spec(spec: str) -> tuple[str, str]:
    """One ``--compare A,B`` as (A, B); a spec without two names is refused in one line."""
    a, sep, b = spec.partition(",")
    if not sep or not a.strip() or not b.strip():
        raise ValueError(f"--compare takes two names separated by a comma, got {spec!r}")
    return a.strip(), b.strip()


def with_tuning(trials: pd.DataFrame) -> pd.DataFrame:
    """``tuning``: "tuned" where the cell ran the tuned settings, else "untuned". A cell whose
    tuning beat no setting runs its untuned one when tuned, under the same key: its tuned run
    adds no trials, and the cell has no tuned side to compare."""
    if "cell" not in trials:
        return trials
    tuned = trials["cell"].astype(str).str.endswith(TUNED_SUFFIX)
    return trials.assign(tuning=tuned.map({True: "tuned", False: "untuned"}))


def _attribute(trials: pd.DataFrame, a: str, b: str) -> str:
    if {a, b} == {"untuned", "tuned"} and "tuned" not in set(trials.get("tuning", [])):
        raise ValueError(
            f"--compare {a},{b}: no tuned trials in the store (run the experiment with "
            "tuned=true; a cell whose tuning beat no setting adds none)"
        )
    for col in ATTRIBUTES:
        if col in trials and {a, b} <= set(map(str, trials[col])):
            return col
    raise ValueError(f"--compare {a},{b}: no column holds both (looked in {', '.join(ATTRIBUTES)})")


def _configurations(t: pd.DataFrame, col: str, a: str, b: str, strata: list[str]) -> pd.Series:
    """Per trial, the settings that tell apart the configurations one side was run with in
    its stratum (as a label such as ``time_limit_s=5.0``; "" where each side has one)."""
    if "config_hash" not in t or t.empty:
        return pd.Series("", index=t.index)
    settings = {
        h: settings_of(t[t.config_hash == h].iloc[0]) for h in dict.fromkeys(t["config_hash"])
    }
    differ: set[str] = set()
    side = t[col].astype(str)
    for _, g in t[side.isin([a, b])].groupby([side, *strata] if strata else side, sort=False):
        hashes = list(dict.fromkeys(g["config_hash"]))
        names = {k for h in hashes for k in settings[h]}
        differ |= {k for k in names if len({str(settings[h].get(k)) for h in hashes}) > 1}
    if not differ:
        return pd.Series("", index=t.index)
    names = sorted(differ)
    labels = {
        h: ", ".join(f"{k}={json.dumps(s.get(k), default=str)}".replace('"', "") for k in names)
        for h, s in settings.items()
    }
    return t["config_hash"].map(labels)


def pairs_of(
    trials: pd.DataFrame, a: str, b: str, pool: bool = False
) -> tuple[str, list[str], pd.DataFrame]:
    """The column compared, the columns stratified on (``configuration`` among them where a
    side was run with several configurations), and one row per pair."""
    trials = with_tuning(trials)
    col = _attribute(trials, a, b)
    t = ran_only(trials).assign(solved=lambda d: d.status == "solved")
    strata = list(STRATA[col])
    if col not in ("cell", "tuning") and t.get("tuning", pd.Series()).eq("tuned").any():
        # tuned and untuned runs of a cell are different settings: never paired across
        strata.append("tuning")
    if not pool:
        t = t.assign(configuration=_configurations(t, col, a, b, strata))
        if t["configuration"].ne("").any():
            strata.append("configuration")
    on = ["puzzle", "seed", *strata]
    keep = [*on, "solved", "wall_s", "iterations"]
    left = t[t[col].astype(str) == a][keep]
    right = t[t[col].astype(str) == b][keep]
    pairs = left.merge(right, on=on, suffixes=("_a", "_b"))
    if "configuration" in strata:
        _check_configurations(left, right, pairs, strata, a, b)
    if not pool:
        _note_unequal_settings(t, col, a, b, strata, on)
    return col, strata, pairs


# Settings both sides of a pair should share: the run's budgets, and the parameters of the
# part not compared (comparing forms on one backend: the backend's parameters).
RUN_SETTINGS = ("time_limit_s", "max_iterations", "warm_start", "presolve")
PARAMS_COMPARED = {
    "cell": (),
    "form_variant": ("backend_params",),
    "formulation": ("backend_params",),
    "backend": ("formulation_params",),
    "variables": ("backend_params", "formulation_params"),
    "tuning": (),  # tuning changes the weights and the effort: what is compared
    "warm_start": ("backend_params", "formulation_params"),
    "presolve": ("backend_params", "formulation_params"),
}


def _setting_text(row: pd.Series, col: str) -> dict[str, str]:
    out = {k: str(row[k]) for k in RUN_SETTINGS if k in row and pd.notna(row[k]) and k != col}
    for k in PARAMS_COMPARED[col]:
        if isinstance(row.get(k), str) and row[k]:
            params = json.loads(row[k])
            params.pop("variables", None)  # what --compare edge,face compares
            out.update({f"{name}": json.dumps(v) for name, v in params.items()})
    return out


def _note_unequal_settings(
    t: pd.DataFrame, col: str, a: str, b: str, strata: list[str], on: list[str]
) -> None:
    """Say so where paired trials ran with different settings (one side at 20 s, the other at
    5 s): the pairs then compare those settings as much as ``a`` and ``b``."""
    if "config_hash" not in t:
        return
    side = t[col].astype(str)
    keep = [*on, "config_hash"]
    hashes = t[side == a][keep].merge(t[side == b][keep], on=on, suffixes=("_a", "_b"))
    first = t.drop_duplicates("config_hash").set_index("config_hash")
    seen = []
    for ha, hb in dict.fromkeys(zip(hashes["config_hash_a"], hashes["config_hash_b"], strict=True)):
        if pd.isna(ha) or pd.isna(hb):
            continue
        sa, sb = _setting_text(first.loc[ha], col), _setting_text(first.loc[hb], col)
        differ = sorted(k for k in set(sa) | set(sb) if sa.get(k) != sb.get(k))
        if differ:
            text = ", ".join(f"{k}={sa.get(k, '-')} vs {sb.get(k, '-')}" for k in differ)
            seen.append(text)
    if seen:
        print(
            f"note: --compare {a},{b}: paired trials ran with different settings "
            f"({'; '.join(dict.fromkeys(seen))}, {a} vs {b}): the comparison is of those "
            "settings too",
            file=sys.stderr,
        )


def _check_configurations(
    left: pd.DataFrame,
    right: pd.DataFrame,
    pairs: pd.DataFrame,
    strata: list[str],
    a: str,
    b: str,
) -> None:
    """Name the configurations one side has and the other lacks (left out); refuse when no
    configuration is on both sides."""
    keys = [s for s in strata if s != "configuration"]
    lone = []
    for name, d in (("a", left), ("b", right)):
        other = right if name == "a" else left
        mine = d[[*keys, "configuration"]].drop_duplicates()
        theirs = other[[*keys, "configuration"]].drop_duplicates()
        only = mine.merge(theirs, how="left", indicator=True).query("_merge == 'left_only'")
        side = a if name == "a" else b
        lone += [f"{side} at {c}" for c in dict.fromkeys(only["configuration"])]
    if pairs.empty:
        found = sorted(set(left["configuration"]) | set(right["configuration"]))
        raise ValueError(
            f"--compare {a},{b}: run with several configurations ({'; '.join(found)}) and none "
            f"on both sides to pair within; compare one configuration (--experiment, a store "
            "of its own) or pool them on purpose with --pool"
        )
    if lone:
        print(
            f"note: --compare {a},{b}: compared within each configuration; "
            f"{'; '.join(lone)} has no counterpart and is left out",
            file=sys.stderr,
        )


def compare(
    trials: pd.DataFrame, a: str, b: str, pool: bool = False
) -> list[tuple[str, stats.PairedResult]]:
    """Paired tests per stratum (e.g. per backend) and over all pairs together (within each
    configuration where a side has several; across them only with ``pool``)."""
    _, strata, pairs = pairs_of(trials, a, b, pool)
    out = []
    if strata:
        for key, g in pairs.groupby(strata, sort=False):
            key = key if isinstance(key, tuple) else (key,)
            label = ", ".join(
                str(v) if s == "configuration" else f"{s}={v}"
                for s, v in zip(strata, key, strict=True)
            )
            out.append((label, stats.paired_test(g, a, b)))
    if "configuration" in strata:  # over all pairs, but never across configurations
        for conf, g in pairs.groupby("configuration", sort=False):
            if g.groupby(strata, sort=False).ngroups > 1:
                out.append((f"all pairs, {conf}", stats.paired_test(g, a, b)))
    elif not strata or len(out) != 1:
        out.append(("all pairs", stats.paired_test(pairs, a, b)))
    return out


def _fmt_p(p: float) -> str:
    return "–" if math.isnan(p) else f"{p:.3g}"


def to_markdown(results: list[tuple[str, stats.PairedResult]], note: str = "") -> str:
    lines = [
        f"Paired comparison {results[0][1].a} (A) vs {results[0][1].b} (B) on the same puzzle "
        f"and seed. McNemar's exact test on solved/unsolved pairs; Wilcoxon signed-rank on wall "
        f"time and iterations over pairs both solved (rank-biserial r; median A - B). Boards: "
        f"with the board as the unit (its pairs pooled), the boards where A solved more and "
        f"where B did, and the sign-flip test's p over them (a board's seeds are one sample: "
        f"McNemar's p counts them as independent pairs). {note}",
        "",
        "| pairs | n | A only | B only | both | neither | A - B success [95% CI] | McNemar p "
        "| wall: median A-B (s), r, p | iterations: median A-B, r, p | boards: A > B, B > A, "
        "of n; sign-flip p |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, r in results:
        w, i = r.wilcoxon["wall_s"], r.wilcoxon["iterations"]
        lo, hi = r.rate_diff_ci
        lines.append(
            f"| {label} | {r.pairs} | {r.a_only} | {r.b_only} | {r.both} | {r.neither} | "
            f"{r.rate_diff:.2f} [{lo:.2f}, {hi:.2f}] | {_fmt_p(r.mcnemar_p)} | "
            f"{w['median_diff']:.3g}, {w.get('rank_biserial', math.nan):.2f}, {_fmt_p(w.get('p', math.nan))} | "
            f"{i['median_diff']:.3g}, {i.get('rank_biserial', math.nan):.2f}, {_fmt_p(i.get('p', math.nan))} | "
            f"{r.boards_a}, {r.boards_b}, of {r.boards}; {_fmt_p(r.board_p)} |"
        )
    lines += ["", *[f"- {label}: {r.verdict}" for label, r in results]]
    return "\n".join(lines) + "\n"
