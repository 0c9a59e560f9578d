"""``python -m slitherbench.report [results dir or experiment name ...]``

Writes, into ``<store>/report/`` (or ``--out``): tables (Markdown and LaTeX booktabs) per
puzzle x formulation x backend and per formulation x backend, figures (PNG and PDF) and
``manifest.json`` naming the experiments, config hashes and trial counts each came from.
With ``--publish docs/findings/NAME`` it writes a findings page for the documentation site
instead (:mod:`slitherbench.publish`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

from . import compare, plots, render, tables
from .results import load, store_paths, what_is_missing

CAPTION = (
    "Solved: solved/ran (skipped and error trials are counted apart, never measured); rate "
    "with its 95% Wilson interval; iterations over solved trials only (every solve; rounds: "
    "energy-0 solves) with bootstrap 95% intervals; times over the trials that ran; TTS99 = "
    "tau ln(0.01)/ln(1-p) with tau = the trial's time budget, its interval from p's; E=0 rate: "
    "share of solves reaching energy 0; exact: CP-SAT running the same iterative method (from "
    "the store's exact cell or its exact_reference)."
)
TABLES = (
    ("table_by_puzzle", None, "Per puzzle, formulation and backend."),
    ("table_by_form_backend", tables.SIZE_KEYS, "Per board size, formulation and backend."),
    # Only where a store holds more than one board kind (experiment=grids).
    (
        "table_by_board",
        ["board", *tables.CELL_KEYS],
        "Per board kind (its sizes pooled; table_by_form_backend has each), formulation and "
        "backend.",
    ),
)


def _write_tables(
    trials: pd.DataFrame,
    iterations: pd.DataFrame,
    out: Path,
    note: str,
    group_by: list[str] | None,
    columns: list[str] | None,
    reference: pd.DataFrame | None,
) -> list[Path]:
    files: list[Path] = []
    cols = render.check_columns(columns)
    kinds = tables.with_size(trials)["board"].nunique() if len(trials) else 0
    for stem, keys, title in TABLES:
        if keys and keys[0] == "board" and kinds < 2:
            continue
        keys = keys or group_by or [*tables.PUZZLE_KEYS, *tables.CELL_KEYS]
        summary = tables.summarise(trials, keys, reference, iterations)
        first = {v: k for k, v in enumerate(dict.fromkeys(summary[keys[0]]))}
        summary = summary.sort_values(keys[0], key=lambda s: s.map(first), kind="stable")
        summary = summary.reset_index(drop=True)  # rows of one group together, run order kept
        caption = f"{title} {CAPTION} {note}"
        md, tex, csv = (out / f"{stem}.{ext}" for ext in ("md", "tex", "csv"))
        md.write_text(render.to_markdown(summary, keys, cols, caption))
        tex.write_text(render.to_latex(summary, keys, cols, caption, label=f"tab:{stem}"))
        summary.to_csv(csv, index=False)
        files += [md, tex, csv]
    return files


def write_comparison(
    trials: pd.DataFrame, spec: str, out: Path, note: str, pool: bool = False
) -> Path:
    a, sep, b = spec.partition(",")
    if not sep or not a or not b:
        raise ValueError(f"--compare takes two names separated by a comma, got {spec!r}")
    results = compare.compare(trials, a.strip(), b.strip(), pool=pool)
    path = out / f"compare_{a.strip()}_vs_{b.strip()}.md".replace("/", "-")
    path.write_text(compare.to_markdown(results, note))
    for label, r in results:
        print(f"{label}: {r.verdict}")
    return path


MAX_PANELS = 12  # beyond this many puzzles, per-puzzle figures are drawn per board size


def _write_figures(
    trials: pd.DataFrame, iterations: pd.DataFrame, out: Path, board_trial: str | None
) -> list[Path]:
    trials = tables.with_size(trials)
    files = plots.iterations_figure(trials, out, panel="backend")
    files += plots.time_to_solution_figure(trials, out)
    if trials["puzzle"].nunique() > 1:
        panel = "puzzle" if trials["puzzle"].nunique() <= MAX_PANELS else "size"
        files += plots.iterations_figure(trials, out, panel=panel)
        files += plots.time_to_solution_figure(trials, out, panel=panel)
        by_puzzle = tables.summarise(trials, ["puzzle", *tables.CELL_KEYS])
        files += plots.performance_profile_figure(by_puzzle, trials, out)
    if (trials["rows"] * trials["cols"]).nunique() > 1:
        files += plots.scaling_figure(trials, out)
        files += _write_frontier(trials, out)
    if "reference10" in set(trials["puzzle"]):
        files += _write_page(trials, out)
    if board_trial and board_trial not in set(trials["key"]):
        raise ValueError(f"--board-trial {board_trial}: no such trial key in the store")
    chosen = (
        trials[trials.key == board_trial].iloc[0]
        if board_trial
        else plots.pick_board_trial(trials, iterations)
    )
    if chosen is not None and not iterations.empty and chosen["key"] in set(iterations["key"]):
        files += plots.board_figure(chosen, iterations, out)
    return files


SURVEY_CAPTION = (
    "Seconds per instance in the survey's layout: median wall time of the solved trials of "
    "each solver (backend: form; k/n when only some solved); '-' no answer: (T) out of time, "
    "(M) out of memory, (L) a size or licence limit, (I) the iteration limit, (E) an error."
)


def _write_grid(
    grid: pd.DataFrame, rows: pd.DataFrame, out: Path, stem: str, caption: str
) -> list[Path]:
    """A text grid as Markdown and LaTeX, and ``rows`` (its data) as CSV."""
    md, tex, csv = (out / f"{stem}.{ext}" for ext in ("md", "tex", "csv"))
    md.write_text(render.grid_markdown(grid, caption))
    tex.write_text(render.grid_latex(grid, caption, f"tab:{stem}"))
    rows.to_csv(csv, index=False)
    return [md, tex, csv]


PAGE_CAPTION = (
    "reference10 beside the reference page: solved/ran, solves (every solve, retries of a "
    "non-zero-energy sample included, as the page counts) and rounds (energy-0 solves) of the "
    "solved trials, median wall time and the mode each ran in; the page's rows are its own "
    "reported ranges."
)


def _write_page(trials: pd.DataFrame, out: Path) -> list[Path]:
    """The page's board: a table and a figure beside the page's iteration ranges."""
    rows = tables.page_table(trials)
    files = _write_grid(rows, rows, out, "page_iterations", PAGE_CAPTION)
    return [*files, *plots.page_iterations_figure(trials, out)]


def _write_instance_times(trials: pd.DataFrame, out: Path) -> list[Path]:
    grid = tables.instance_times(trials)
    return _write_grid(grid, grid, out, "survey_layout", SURVEY_CAPTION)


FRONTIER_CAPTION = (
    "Frontier: solved/ran per formulation x backend and board size ('-': none ran there: the "
    "cell stopped at a smaller size where it solved nothing, or its trials were skipped, e.g. "
    "at a licence limit); frontier = the largest size solved in at least half of its trials."
)


def _write_frontier(trials: pd.DataFrame, out: Path) -> list[Path]:
    summary = tables.frontier_summary(trials)
    if summary.empty:
        return []
    grid = tables.frontier_grid(summary)
    files = _write_grid(grid, summary, out, "frontier", FRONTIER_CAPTION)
    return [*files, *plots.frontier_figure(summary, trials, out)]


def build_report(
    trials: pd.DataFrame,
    iterations: pd.DataFrame,
    out: Path,
    group_by: list[str] | None = None,
    columns: list[str] | None = None,
    board_trial: str | None = None,
    reference: pd.DataFrame | None = None,
    pool: bool = False,
    compare_spec: str | None = None,
    missing: list[str] | None = None,
) -> dict:
    if trials.empty:
        raise ValueError("no trials to report on")
    out.mkdir(parents=True, exist_ok=True)
    raw = trials
    # One rule for tables and figures: configurations are never pooled unless asked.
    trials = tables.by_configuration(trials, pool)
    if not pool:
        iterations = _relabel(iterations, trials)
    if "timestamp" in trials:  # groups appear in the order they were run
        trials = trials.sort_values("timestamp", kind="stable").reset_index(drop=True)
    source = {
        "experiments": sorted(map(str, trials["experiment"].unique())),
        "config_hashes": sorted(map(str, trials["config_hash"].unique())),
        "trials": len(trials),
        "iterations": len(iterations),
    }
    note = (
        f"From experiment(s) {', '.join(source['experiments'])}; config hash(es) "
        f"{', '.join(source['config_hashes'])}; {len(trials)} trials."
    )
    files = _write_tables(trials, iterations, out, note, group_by, columns, reference)
    files += _write_instance_times(trials, out)
    files += _write_figures(trials, iterations, out, board_trial)
    if compare_spec:  # pairs within each configuration (compare's own form of the rule)
        files.append(write_comparison(raw, compare_spec, out, note, pool))
    manifest = {"source": source, "files": [f.name for f in files], "missing": missing or []}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return manifest


def _relabel(iterations: pd.DataFrame, trials: pd.DataFrame) -> pd.DataFrame:
    if iterations.empty or "key" not in iterations:
        return iterations
    return iterations.assign(
        form_variant=iterations["key"].map(trials.set_index("key").form_variant)
    )


def exact_reference(stores: list[Path], compute: bool) -> pd.DataFrame | None:
    """The stores' exact_reference trials; with ``compute`` made first, in a child process."""
    frames = []
    for s in stores:
        if compute:
            print(f"computing the exact iteration reference: python -m slitherbench.reference {s}")
            cmd = [sys.executable, "-m", "slitherbench.reference", str(s)]
            if subprocess.run(cmd, check=False).returncode != 0:
                raise ValueError(f"the exact reference for {s} failed")
        ref = s / "exact_reference"
        if ref.is_dir():
            frames.append(load(ref)[0])
    return pd.concat(frames, ignore_index=True) if frames else None


def _publish_options(ap: argparse.ArgumentParser) -> None:
    """--publish and the options only it reads (slitherbench.publish)."""
    ap.add_argument(
        "--publish",
        type=Path,
        metavar="docs/findings/NAME",
        help="write a findings page for the documentation site instead of the report: NAME.md "
        "and NAME/ (PNG figures, summary.csv), everything read from the store's records",
    )
    ap.add_argument("--title", help="--publish: the page's title (default: the experiments)")
    ap.add_argument(
        "--command",
        help="--publish: the command that made the store (default: python -m slitherbench "
        "experiment=<each experiment in it>)",
    )
    ap.add_argument(
        "--target",
        type=float,
        metavar="RATE",
        help="--publish: a success-rate target per board size and cell; each row met or missed",
    )


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m slitherbench.report", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument(
        "sources",
        nargs="*",
        default=["results"],
        help="results store(s), directories of stores, or experiment names",
    )
    ap.add_argument("--out", type=Path, help="output directory (default: <first store>/report)")
    ap.add_argument(
        "--results-root", default="results", help="where experiment names are looked up"
    )
    ap.add_argument(
        "--group-by",
        help="comma-separated grouping of the first table (default puzzle,size,clues,form_variant,backend)",
    )
    ap.add_argument(
        "--columns",
        help=f"comma-separated columns (default {','.join(render.DEFAULT_COLUMNS)}; "
        f"all: {','.join(render.COLUMNS)})",
    )
    ap.add_argument("--experiment", help="keep only this experiment's trials")
    ap.add_argument("--board-trial", help="key of the trial drawn in the board figure")
    ap.add_argument(
        "--compare",
        metavar="A,B",
        help="paired tests of two cells: formulations (hubo,qubo), backends, form variants or "
        "cell labels (hubo/sa,qubo/sa)",
    )
    ap.add_argument(
        "--pool",
        action="store_true",
        help="pool trials of one formulation x backend run with different configurations",
    )
    _publish_options(ap)
    ap.add_argument(
        "--exact",
        action="store_true",
        help="compute the exact iteration reference (CP-SAT) for puzzles the store has none for",
    )
    return ap


def _publish(args: argparse.Namespace, trials: pd.DataFrame, iterations: pd.DataFrame) -> int:
    from .publish import publish

    files = publish(
        trials,
        iterations,
        args.publish,
        sources=args.sources,
        command=args.command,
        title=args.title,
        target=args.target,
        compare_spec=args.compare,
        caption=f"{TABLES[1][2]} {CAPTION}",
    )
    print(f"published: {files[0]} and {len(files) - 1} file(s) in {args.publish}/")
    return 0


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    if "MPLBACKEND" not in os.environ:  # a command line draws to files only
        matplotlib.use("Agg")
    args = _parser().parse_args(argv)
    try:
        stores = store_paths(args.sources, results_root=args.results_root)
        trials, iterations = load(stores)
        missing = what_is_missing(stores)
        for line in missing:
            print(f"warning: {line}", file=sys.stderr)
        if args.experiment and not trials.empty:
            trials = trials[trials.experiment == args.experiment]
            if not iterations.empty:
                iterations = iterations[iterations.key.isin(trials.key)]
        if args.publish is not None:
            return _publish(args, trials, iterations)
        out = args.out
        if out is None:
            first = Path(args.sources[0])
            if not first.exists():
                first = Path(args.results_root) / args.sources[0]
            out = first / "report"
        manifest = build_report(
            trials,
            iterations,
            out,
            group_by=args.group_by.split(",") if args.group_by else None,
            columns=args.columns.split(",") if args.columns else None,
            board_trial=args.board_trial,
            reference=exact_reference(stores, args.exact),
            pool=args.pool,
            compare_spec=args.compare,
            missing=missing,
        )
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"report: {out.resolve()} ({len(manifest['files'])} files from {manifest['source']['trials']} trials)"
    )
    print((out / "table_by_form_backend.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
