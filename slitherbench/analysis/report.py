"""``python -m slitherbench.report [results dir or experiment name ...]``

Writes, into ``<store>/report/`` (or ``--out``): tables (Markdown and LaTeX booktabs) per
puzzle x formulation x backend and per formulation x backend, figures (PNG and PDF) and
``manifest.json`` naming the experiments, config hashes and trial counts each came from.
Each table and figure is a report item of :mod:`slitherbench.analysis.plots` (``--items`` names some).
With ``--publish docs/findings/NAME`` it writes a findings page for the documentation site
instead (:mod:`slitherbench.analysis.publish`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from slitherbench.analysis import compare, plots, render, tables
from slitherbench.analysis.plots import ReportData, ReportItem, summary_tables
from slitherbench.method.entry import OneLineArgumentParser
from slitherbench.store.results import load, store_paths, what_is_missing

# The summary tables' caption (publish's table takes it too).
CAPTION = summary_tables.CAPTION


def write_comparison(
    trials: pd.DataFrame, spec: str, out: Path, note: str, pool: bool = False
) -> Path:
    a, b = compare.parse_spec(spec)
    results = compare.compare(trials, a, b, pool=pool)
    path = out / f"compare_{a}_vs_{b}.md".replace("/", "-")
    path.write_text(compare.to_markdown(results, note))
    for label, r in results:
        print(f"{label}: {r.verdict}")
    return path


def select_items(names: Sequence[str] | None) -> list[ReportItem]:
    """The report items ``names`` choose (``--items``), or every item of
    :mod:`slitherbench.analysis.plots`, in report order; an unknown name is one error line."""
    known = plots.report_items()
    wanted = list(known) if names is None else [n.strip() for n in names if n.strip()]
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise ValueError(
            f"--items: no report item {', '.join(map(repr, unknown))} (known: {', '.join(known)})"
        )
    chosen = [known[n] for n in wanted]
    return [cls() for cls in sorted(chosen, key=lambda c: c.order)]


def _applies_when(name: str) -> str:
    """The item's own description (its class docstring on one line): what it shows and where
    it applies."""
    item = plots.report_items().get(name)  # an item given as an object may be from outside
    doc = (item.__doc__ if item else None) or ""
    return " ".join(doc.split()).replace("``", "") or name


def write_items(
    items: Sequence[ReportItem], data: ReportData, left_out: list[str] | None = None
) -> list[Path]:
    """Each item that applies to the data, in order: the files they wrote (the names of those
    that do not apply appended to ``left_out``, if given)."""
    files: list[Path] = []
    for item in items:
        if item.applies(data):
            files += item.write(data)
        elif left_out is not None:
            left_out.append(item.name)
    return files


def build_report(
    trials: pd.DataFrame,
    iterations: pd.DataFrame,
    out: Path,
    group_by: list[str] | None = None,
    columns: list[str] | None = None,
    board_trial: str | None = None,
    reference: pd.DataFrame | None = None,
    pool: bool = False,
    compare_spec: str | Sequence[str] | None = None,
    missing: list[str] | None = None,
    items: Sequence[str | ReportItem] | None = None,
) -> dict:
    """Every report item that applies (or those ``items`` names, or items given as objects,
    e.g. one defined outside the package), the comparison if asked, and ``manifest.json``
    (with ``items`` it lists under ``not_applicable`` the items named that had nothing to
    show in these trials)."""
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
    data = ReportData(trials, iterations, out, note, group_by, columns, reference, board_trial)
    left_out: list[str] = []
    files = write_items(_items(items), data, left_out)
    for spec in compare.specs(compare_spec):  # pairs within each configuration
        files.append(write_comparison(raw, spec, out, note, pool))
    manifest: dict = {"source": source, "files": [f.name for f in files], "missing": missing or []}
    if items is not None:  # asked for by name: say which had nothing to show
        manifest["not_applicable"] = left_out
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return manifest


def _items(items: Sequence[str | ReportItem] | None) -> list[ReportItem]:
    """Every item (None), or the items named and the item objects given, in report order."""
    if items is None:
        return select_items(None)
    named = select_items([i for i in items if isinstance(i, str)])
    given = [i for i in items if isinstance(i, ReportItem)]
    return sorted([*named, *given], key=lambda i: i.order)


def _relabel(iterations: pd.DataFrame, trials: pd.DataFrame) -> pd.DataFrame:
    if iterations.empty or "key" not in iterations:
        return iterations
    # A trial run again into another store (a size measured again) keeps its key: both
    # copies count, and both carry the same configuration, so either names its iterations.
    label = trials.drop_duplicates("key").set_index("key").form_variant
    return iterations.assign(form_variant=iterations["key"].map(label))


def exact_reference(stores: list[Path], compute: bool) -> pd.DataFrame | None:
    """The stores' exact_reference trials; with ``compute`` made first, in a child process."""
    frames = []
    for s in stores:
        if compute:
            print(
                f"computing the exact iteration reference: python -m slitherbench.run.reference {s}"
            )
            cmd = [sys.executable, "-m", "slitherbench.run.reference", str(s)]
            if subprocess.run(cmd, check=False).returncode != 0:
                raise ValueError(f"the exact reference for {s} failed")
        ref = s / "exact_reference"
        if ref.is_dir():
            frames.append(load(ref)[0])
    return pd.concat(frames, ignore_index=True) if frames else None


def _publish_options(ap: argparse.ArgumentParser) -> None:
    """--publish and the options only it reads (slitherbench.analysis.publish)."""
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
        metavar="[CELL=]RATE",
        action="append",
        help="--publish: a success-rate target per board size and cell (RATE), or for one cell "
        "(qubo/pt=0.8; give it again for more); each row met or missed",
    )


def _selection_options(ap: argparse.ArgumentParser) -> None:
    """The options that choose which trials of the stores the report reads (:func:`select`)."""
    ap.add_argument("--experiment", help="keep only this experiment's trials")
    ap.add_argument(
        "--boards-of",
        metavar="EXPERIMENT[,EXPERIMENT...]",
        help="keep only trials on the boards these experiments' trials ran on (a run read "
        "beside the stores it pairs with)",
    )
    ap.add_argument(
        "--only",
        metavar="NAME[,NAME...]",
        help="keep only these cells: cell labels, form variants, formulations or backends, "
        "as --compare names them",
    )


def _parser() -> argparse.ArgumentParser:
    ap = OneLineArgumentParser(
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
    _selection_options(ap)
    ap.add_argument("--board-trial", help="key of the trial drawn in the board figure")
    ap.add_argument(
        "--items",
        metavar="NAME[,NAME...]",
        help="write only these report items (default: every item that applies; items: "
        f"{', '.join(plots.report_items())})",
    )
    ap.add_argument(
        "--compare",
        metavar="A,B",
        action="append",
        help="paired tests of two cells: formulations (hubo,qubo), backends, form variants or "
        "cell labels (hubo/sa,qubo/sa); give it again for more pairs",
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


def select(
    trials: pd.DataFrame,
    iterations: pd.DataFrame,
    experiment: str | None = None,
    boards_of: str | None = None,
    only: str | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The trials ``--experiment``, ``--boards-of`` and ``--only`` keep, and their
    iterations. A name that keeps nothing is refused: a page read from the wrong stores
    would otherwise be written empty or from what was not meant."""
    if trials.empty:
        return trials, iterations
    if experiment:
        trials = _kept(trials, trials.experiment == experiment, f"--experiment {experiment}")
    if boards_of:
        boards: set[str] = set()
        for name in (n.strip() for n in boards_of.split(",") if n.strip()):
            # each name must have trials: a misspelt one would drop its boards unseen
            ran = trials.experiment == name
            _kept(trials, ran, f"--boards-of {name}")
            boards |= set(trials.loc[ran, "puzzle"])
        trials = _kept(trials, trials.puzzle.isin(boards), f"--boards-of {boards_of}")
    if only:
        names = {n.strip() for n in only.split(",") if n.strip()}
        hit = pd.Series(False, index=trials.index)
        for col in compare.ATTRIBUTES:
            if col in trials:
                hit |= trials[col].astype(str).isin(names)
        trials = _kept(trials, hit, f"--only {only}")
    if not iterations.empty:
        iterations = iterations[iterations.key.isin(trials.key)]
    return trials, iterations


def _kept(trials: pd.DataFrame, mask: pd.Series, option: str) -> pd.DataFrame:
    if not mask.any():
        raise ValueError(f"{option}: no trial in these stores matches")
    return trials[mask]


def _publish(
    args: argparse.Namespace,
    trials: pd.DataFrame,
    iterations: pd.DataFrame,
    reference: pd.DataFrame | None,
) -> int:
    from slitherbench.analysis.publish import publish

    files = publish(
        trials,
        iterations,
        args.publish,
        sources=args.sources,
        reference=reference,
        exact=args.exact,
        command=args.command,
        title=args.title,
        target=args.target,
        compare_spec=args.compare,
        caption=f"{summary_tables.TableByFormBackend.title} {CAPTION}",
        selection={
            "--experiment": args.experiment,
            "--boards-of": args.boards_of,
            "--only": args.only,
        },
    )
    print(f"published: {files[0]} and {len(files) - 1} file(s) in {args.publish}/")
    return 0


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    if "MPLBACKEND" not in os.environ:  # a command line draws to files only
        matplotlib.use("Agg")
    ap = _parser()
    args = ap.parse_args(argv)
    if any(not str(s).strip() for s in args.sources):
        ap.error("a source is empty: name a store, a directory of stores or an experiment")
    for flag, value in (("--out", args.out), ("--publish", args.publish)):
        if value is not None and not str(value).strip():
            ap.error(f"{flag} is empty: name a directory")
    try:
        stores = store_paths(args.sources, results_root=args.results_root)
        trials, iterations = load(stores)
        missing = what_is_missing(stores)
        for line in missing:
            print(f"warning: {line}", file=sys.stderr)
        trials, iterations = select(trials, iterations, args.experiment, args.boards_of, args.only)
        if args.publish is not None:
            return _publish(args, trials, iterations, exact_reference(stores, args.exact))
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
            items=args.items.split(",") if args.items else None,
        )
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name in manifest.get("not_applicable", []):
        print(f"note: --items {name} has nothing to show in these trials: {_applies_when(name)}")
    print(
        f"report: {out.resolve()} ({len(manifest['files'])} files from {manifest['source']['trials']} trials)"
    )
    table = out / "table_by_form_backend.md"
    if table.exists():  # --items may leave it out
        print(table.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
