"""The statistics every table, figure and comparison uses (scipy and statsmodels underneath).

* :func:`wilson` — a success rate's 95% interval;
* :func:`median_ci` — a median with its (exact) bootstrap percentile interval;
* :func:`tts99` — time to solution with 99% confidence, TTS99 = tau * ln(0.01) / ln(1 - p),
  and its interval from the Wilson interval of p (TTS is monotone in p);
* :func:`paired_test` — McNemar's exact test on solved/unsolved pairs, Wilcoxon signed-rank on
  pairs both solved, effect sizes and a one-line verdict;
* :func:`board_bootstrap` — a pooled solved rate's 95% interval with the board as the unit
  (percentile bootstrap over boards);
* :func:`board_permutation_test` — two groups of boards compared with the board as the unit
  (its trials move together), labels permuted within strata (board sizes);
* :func:`performance_profile` — Dolan-Moré: for each cell, the fraction of puzzles on which
  its TTS99 is within a factor r of the best cell's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

ALPHA = 0.05
# Board-level statistics (the board as the unit, its seeds together):
EXACT_PERMUTATIONS = 20_000  # enumerate every relabelling up to this many, else draw this many
BOOTSTRAP_DRAWS = 10_000
# Fewer boards give no interval: resampling 2-5 boards has so few distinct outcomes that the
# percentiles understate the spread (two boards of 1/5 each give [0.2, 0.2]).
BOOTSTRAP_MIN_BOARDS = 6


@functools.lru_cache(maxsize=4096)  # a report asks for the same (k, n) thousands of times
def wilson(k: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials ((nan, nan) when n = 0)."""
    if n <= 0:
        return math.nan, math.nan
    from statsmodels.stats.proportion import proportion_confint  # seconds to import: lazily

    lo, hi = proportion_confint(k, n, alpha=alpha, method="wilson")
    # statsmodels' bound at k = n (k = 0) can sit a rounding error below 1 (above 0): for
    # n = 7, 9, 12, ... the interval would exclude the observed rate.
    return (0.0 if k == 0 else float(lo)), (1.0 if k == n else float(hi))


def median_ci(x: Sequence[float], alpha: float = ALPHA) -> tuple[float, float, float]:
    """Median and its bootstrap percentile interval, computed exactly rather than by
    resampling (Efron's exact bootstrap of the median): a resample's median is at most the
    k-th smallest value x_(k) when at least m = ceil(n/2) of its n draws are, which happens
    with probability P(Binomial(n, k/n) >= m). The bounds are the order statistics where
    that probability crosses alpha/2 and 1 - alpha/2. Same answer as drawing infinitely
    many resamples, in O(n log n): 100,000-trial reports stay fast. NaN bounds below 2 values."""
    a = np.sort(np.asarray([v for v in x if v == v], dtype=float))  # drop NaN
    n = len(a)
    if n == 0:
        return math.nan, math.nan, math.nan
    med = float(np.median(a))
    if n < 2:
        return med, math.nan, math.nan
    from scipy import stats as sps  # seconds to import: lazily

    k = np.arange(1, n + 1)
    p_at_most = sps.binom.sf(math.ceil(n / 2) - 1, n, k / n)  # P(resample median <= x_(k))
    lo = a[int(np.argmax(p_at_most >= alpha / 2))]
    hi = a[int(np.argmax(p_at_most >= 1 - alpha / 2))]
    return med, float(lo), float(hi)


def tts99(tau: float, p: float, target: float = 0.99) -> float:
    """Time to reach ``target`` confidence of at least one success with runs of length tau
    that succeed with probability p: inf for p = 0, tau once one run suffices."""
    if not p > 0 or not tau == tau:
        return math.inf
    if p >= target:
        return float(tau)
    runs = math.log1p(-target) / math.log1p(-p)  # log1p: exact for the tiny p of a Wilson bound
    return float(tau * runs) if math.isfinite(runs) else math.inf


def tts99_ci(tau: float, k: int, n: int, alpha: float = ALPHA) -> tuple[float, float, float]:
    """TTS99 with the interval that the Wilson interval of p = k/n maps to."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    lo, hi = wilson(k, n, alpha)
    return tts99(tau, k / n), tts99(tau, hi), tts99(tau, lo)


MAX_BOOT_VALUES = 5_000_000  # values one bootstrap of the optimal-cutoff TTS99 may sort


def _tts99_optimal_rows(x: np.ndarray, target: float) -> np.ndarray:
    """Optimal-cutoff TTS99 of each row of times (inf: not solved), vectorised."""
    t = np.sort(x, axis=1)
    n = t.shape[1]
    p = np.arange(1, n + 1) / n  # the fraction solved by the j-th smallest time
    with np.errstate(divide="ignore", invalid="ignore"):
        runs = np.where(p >= target, 1.0, np.log1p(-target) / np.log1p(-np.minimum(p, target)))
        tts = np.where(np.isfinite(t), np.maximum(t, 1e-9) * runs, np.inf)
    return tts.min(axis=1)


def tts99_optimal(times: Sequence[float], target: float = 0.99) -> float:
    """TTS99 at the best cutoff: min over t of t ln(1 - target) / ln(1 - P(t)), P(t) the
    fraction of trials solved by time t (Rønnow et al., Science 345, 420 (2014)). ``times``
    holds one entry per trial: its time to solution, inf where it did not solve. The minimum
    lies at a solve time (between two, P is flat and t grows)."""
    x = np.asarray(times, dtype=float).reshape(1, -1)
    return float(_tts99_optimal_rows(x, target)[0]) if x.size else math.nan


def tts99_optimal_ci(
    times: Sequence[float], alpha: float = ALPHA, draws: int = 2000
) -> tuple[float, float, float]:
    """The optimal-cutoff TTS99 with a percentile bootstrap interval over the trials. Each
    draw sorts a resample of all n trials, so the draws are capped at ``MAX_BOOT_VALUES / n``
    (at least 200): a 25,000-trial group (a 100,000-trial store's table by size) takes 200
    draws, not 2,000 sorts of 25,000 values; groups up to 2,500 trials keep ``draws``."""
    x = np.asarray(times, dtype=float)
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    est = tts99_optimal(x)
    if not np.isfinite(x).any():
        return est, math.inf, math.inf
    draws = min(draws, max(200, MAX_BOOT_VALUES // len(x)))
    rng = np.random.default_rng(0)
    boot = _tts99_optimal_rows(x[rng.integers(0, len(x), (draws, len(x)))], 0.99)
    # No interpolation: the draws that solved nothing are inf.
    lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    return est, float(lo), float(hi)


@dataclass
class PairedResult:
    a: str
    b: str
    pairs: int
    a_only: int  # pairs only A solved
    b_only: int
    both: int
    neither: int
    mcnemar_p: float
    rate_diff: float  # success rate A - B over the pairs
    rate_diff_ci: tuple[float, float]
    wilcoxon: dict[str, dict[str, float]]  # measure -> {n, median_diff, p, rank_biserial}
    verdict: str
    # board by board (pairs of one puzzle pooled): boards, those where A solved more, where B
    # did, and the sign-flip p (:func:`board_sign_test`); nan where pairs name no puzzle
    boards: int = 0
    boards_a: int = 0
    boards_b: int = 0
    board_p: float = math.nan


def _rate_diff_ci(a_only: int, b_only: int, n: int) -> tuple[float, float]:
    """Newcombe-style interval for a paired difference in proportions, by bootstrap over
    the four pair types (simple and adequate for the table)."""
    if n == 0:
        return math.nan, math.nan
    rng = np.random.default_rng(0)
    draws = rng.multinomial(n, [a_only / n, b_only / n, 1 - (a_only + b_only) / n], size=4000)
    diffs = (draws[:, 0] - draws[:, 1]) / n
    return float(np.quantile(diffs, ALPHA / 2)), float(np.quantile(diffs, 1 - ALPHA / 2))


def _wilcoxon(da: np.ndarray, db: np.ndarray) -> dict[str, float]:
    d = da - db
    out = {"n": float(len(d)), "median_diff": float(np.median(d)) if len(d) else math.nan}
    nz = d[d != 0]
    if len(nz) < 1:
        out.update(p=math.nan if len(d) == 0 else 1.0, rank_biserial=0.0)
        return out
    from scipy import stats as sps

    res = sps.wilcoxon(d, zero_method="wilcox", alternative="two-sided")
    ranks = sps.rankdata(np.abs(nz))
    r_plus, r_minus = ranks[nz > 0].sum(), ranks[nz < 0].sum()
    out.update(p=float(res.pvalue), rank_biserial=float((r_plus - r_minus) / ranks.sum()))
    return out


def paired_test(
    pairs: pd.DataFrame, a: str, b: str, measures: Sequence[str] = ("wall_s", "iterations")
) -> PairedResult:
    """``pairs`` has columns ``solved_a``, ``solved_b`` and ``<measure>_a``/``_b``: one row
    per puzzle and seed both cells ran."""
    sa, sb = pairs["solved_a"].astype(bool), pairs["solved_b"].astype(bool)
    both, neither = int((sa & sb).sum()), int((~sa & ~sb).sum())
    a_only, b_only = int((sa & ~sb).sum()), int((~sa & sb).sum())
    n = len(pairs)
    from statsmodels.stats.contingency_tables import mcnemar

    p = mcnemar([[both, a_only], [b_only, neither]], exact=True).pvalue if n else math.nan
    ok = pairs[sa & sb]
    tests = {
        m: _wilcoxon(ok[f"{m}_a"].to_numpy(float), ok[f"{m}_b"].to_numpy(float)) for m in measures
    }
    diff = (a_only - b_only) / n if n else math.nan
    boards = _board_fields(pairs.assign(solved_a=sa.astype(float), solved_b=sb.astype(float)))
    verdict = _verdict(a, b, n, float(p), a_only, b_only, tests)
    if boards.get("boards"):
        verdict += (
            f"; board by board, {a} solves more on {boards['boards_a']} and {b} on "
            f"{boards['boards_b']} of {boards['boards']} boards (sign-flip p = "
            f"{boards['board_p']:.3g})"
        )
    return PairedResult(
        a,
        b,
        n,
        a_only,
        b_only,
        both,
        neither,
        float(p),
        diff,
        _rate_diff_ci(a_only, b_only, n),
        tests,
        verdict,
        **boards,  # type: ignore[arg-type]
    )


def board_sign_test(diffs: Sequence[float], seed: int = 0) -> float:
    """Two-sided p that per-board differences (A's solved share minus B's on one board) are
    centred on 0, the board as the unit: every flip of the signs of the boards that differ
    (2^k for k such boards, up to ``EXACT_PERMUTATIONS``; else that many seeded draws), the
    share whose summed difference is at least as far from 0 as the observed one. With k
    boards that differ, p cannot fall below 2/2^k: a board's seeds are one sample, not many."""
    import itertools

    d = np.asarray([v for v in diffs if v == v and v != 0], dtype=float)
    if len(d) == 0:
        return 1.0
    exact = 2 ** len(d) <= EXACT_PERMUTATIONS
    if exact:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=len(d))))
    else:
        rng = np.random.default_rng(seed)
        signs = rng.choice((1.0, -1.0), size=(EXACT_PERMUTATIONS, len(d)))
    return _two_sided_p(signs @ d, float(d.sum()), exact)


def _two_sided_p(null: np.ndarray, observed: float, exact: bool) -> float:
    """The share of the null statistics at least as far from 0 as ``observed``: over every
    relabelling (``exact``), or over seeded draws with the observed one counted in,
    (1 + hits) / (1 + draws)."""
    hits = int((np.abs(null) >= abs(observed) - 1e-12).sum())
    return hits / len(null) if exact else (1 + hits) / (1 + len(null))


def _board_fields(pairs: pd.DataFrame) -> dict[str, float | int]:
    if "puzzle" not in pairs or pairs.empty:
        return {}
    per = pairs.groupby("puzzle")[["solved_a", "solved_b"]].mean()
    d = (per["solved_a"] - per["solved_b"]).to_numpy(float)
    return {"boards": len(d), "boards_a": int((d > 0).sum()), "boards_b": int((d < 0).sum()),
            "board_p": board_sign_test(d)}  # fmt: skip


def _verdict(
    a: str, b: str, n: int, p: float, a_only: int, b_only: int, tests: dict[str, dict[str, float]]
) -> str:
    if n == 0:
        return f"{a} vs {b}: no common puzzle and seed, nothing to compare"
    if p < ALPHA:
        win, lose = (a, b) if a_only > b_only else (b, a)
        head = f"{win} solves more than {lose} (McNemar exact p = {p:.3g}, {n} pairs)"
    else:
        head = f"no significant difference in success between {a} and {b} (McNemar exact p = {p:.3g}, {n} pairs)"
    wall = tests.get("wall_s", {})
    if wall.get("n", 0) >= 1 and wall.get("p", math.nan) == wall.get("p"):
        faster = a if wall["median_diff"] < 0 else b
        if wall["p"] < ALPHA:
            head += f"; on pairs both solved {faster} is faster (Wilcoxon p = {wall['p']:.3g})"
        else:
            head += f"; no significant time difference on pairs both solved (Wilcoxon p = {wall['p']:.3g})"
    return head


def board_bootstrap(
    solved: Sequence[int], ran: Sequence[int], alpha: float = ALPHA, seed: int = 0
) -> tuple[float, float]:
    """The 95% interval of the pooled solved rate sum(solved) / sum(ran) over boards, each
    board's trials (its seeds) drawn together: ``BOOTSTRAP_DRAWS`` resamples of the boards
    with replacement, seeded (the same boards, the same interval), percentile bounds. Where
    boards differ it is wider than the Wilson interval of the pooled trials: it counts what
    drawing other boards of the same kind would change. (nan, nan) below
    ``BOOTSTRAP_MIN_BOARDS`` boards."""
    s, r = np.asarray(solved, dtype=float), np.asarray(ran, dtype=float)
    keep = r > 0
    s, r = s[keep], r[keep]
    if len(s) < BOOTSTRAP_MIN_BOARDS:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(s), size=(BOOTSTRAP_DRAWS, len(s)))
    rates = s[idx].sum(axis=1) / r[idx].sum(axis=1)
    lo, hi = np.quantile(rates, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    return float(lo), float(hi)


@dataclass
class BoardPermutationResult:
    boards_a: int
    boards_b: int
    solved_a: int
    ran_a: int
    solved_b: int
    ran_b: int
    diff: float  # solved rate of group A's trials - group B's
    p: float  # two-sided
    relabellings: int  # the relabellings p is over
    exact: bool  # every relabelling (else a seeded random draw of them)


def board_permutation_test(boards: pd.DataFrame, seed: int = 0) -> BoardPermutationResult:
    """Do the trials on group A's boards solve more often than those on group B's?

    ``boards``: one row per board, columns ``stratum`` (boards are compared only with boards of
    the same stratum: the board size), ``in_a`` (bool), ``solved`` and ``ran`` (its trials).
    The statistic is the difference of the two groups' pooled solved rates; its null
    distribution comes from relabelling boards within each stratum, keeping each stratum's
    number of A boards, so a board's trials (its seeds) move together: seeds of one board are
    not independent samples of the group, and a test on trials (Fisher's) would count them as
    if they were. Every relabelling is enumerated when there are at most
    ``EXACT_PERMUTATIONS``, else that many are drawn (``seed``: the same data, the same p).
    Two-sided: the share of relabellings whose difference is at least as far from 0 as the
    observed one (a draw counts the observed labelling in, (1 + hits) / (1 + draws))."""
    import itertools

    b = boards[boards["ran"] > 0]
    groups = [g for _, g in b.groupby("stratum", sort=True) if 0 < g["in_a"].sum() < len(g)]
    if not groups:
        nan = math.nan
        return BoardPermutationResult(0, 0, 0, 0, 0, 0, nan, nan, 0, True)
    b = pd.concat(groups)
    solved, ran = b["solved"].to_numpy(float), b["ran"].to_numpy(float)
    sizes = [(len(g), int(g["in_a"].sum())) for g in groups]
    count = math.prod(math.comb(n, k) for n, k in sizes)
    exact = count <= EXACT_PERMUTATIONS
    if exact:  # every choice of A boards in every stratum
        per_stratum = []
        for n, k in sizes:
            rows = np.zeros((math.comb(n, k), n), dtype=bool)
            for i, chosen in enumerate(itertools.combinations(range(n), k)):
                rows[i, list(chosen)] = True
            per_stratum.append(rows)
        labels = np.array([np.concatenate(c) for c in itertools.product(*per_stratum)])
    else:
        rng = np.random.default_rng(seed)
        parts = []
        for n, k in sizes:  # a random permutation of each stratum's labels per draw
            base = np.arange(n) < k
            parts.append(rng.permuted(np.tile(base, (EXACT_PERMUTATIONS, 1)), axis=1))
        labels = np.concatenate(parts, axis=1)
    in_a = b["in_a"].to_numpy(bool)

    def diff(lab: np.ndarray) -> np.ndarray:
        return (lab @ solved) / (lab @ ran) - ((~lab) @ solved) / ((~lab) @ ran)

    observed = float(diff(in_a[None, :])[0])
    p = _two_sided_p(diff(labels), observed, exact)
    return BoardPermutationResult(
        int(in_a.sum()), int((~in_a).sum()), int(solved[in_a].sum()), int(ran[in_a].sum()),
        int(solved[~in_a].sum()), int(ran[~in_a].sum()), observed, float(p), len(labels), exact,
    )  # fmt: skip


def performance_profile(tts: pd.DataFrame) -> pd.DataFrame:
    """``tts``: rows = puzzles, columns = cells, values = TTS99 (inf = never solved).
    Returns per cell the ratios to the best cell on each puzzle (inf where it never solved
    or no cell did), sorted; plot the fraction of puzzles with ratio <= r against r."""
    best = tts.replace(math.inf, np.nan).min(axis=1)
    return tts.div(best, axis=0).replace(np.nan, math.inf)
