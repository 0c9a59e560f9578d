"""A findings page for the documentation site, written from a store by the report.

``python -m slitherbench.report STORE --publish docs/findings/NAME`` writes ``NAME.md`` (the
page) and ``NAME/`` (its PNG figures and a CSV summary). Everything on the page comes from the
store's records: the command that made them (from the experiment names, or ``--command``), the
hardware, dates, git commits and package versions from the provenance columns, the seeds and
budgets, and the tables with their intervals. Nothing is read from the clock or the checkout,
so the same store always gives the same page (a test regenerates one and compares).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from slitherbench.analysis import compare, plots, render, tables
from slitherbench.analysis.plots import ReportData, model_sizes
from slitherbench.analysis.plots.by_faces import FACES_CAPTION, FigureByFaces, faces_grid
from slitherbench.analysis.plots.frontier import FRONTIER_CAPTION, frontier_figure, shared_summary
from slitherbench.analysis.plots.model_sizes import ModelGrowthFigure, ModelSizeTable
from slitherbench.analysis.plots.survey_layout import SURVEY_CAPTION
from slitherbench.analysis.plots.time_to_solution import WITHIN_CAPTION, SolvedWithin, within_grid

COLUMNS = render.DEFAULT_COLUMNS  # the report's own table, so a page and a report agree
# The page's table is by board size; where a size holds several instances, their seconds side
# by side (the survey's layout) say what the medians hide. More rows than this would be a
# wall of numbers on a page; the report's survey_layout.md and summary.csv keep every row.
PAGE_INSTANCES = 24


def _values(trials: pd.DataFrame, column: str) -> list[str]:
    if column not in trials:
        return []
    return sorted({str(v) for v in trials[column].dropna() if str(v)})


def _listed(values: Sequence[str], empty: str = "not recorded", limit: int = 12) -> str:
    if not values:
        return empty
    shown = ", ".join(f"`{v}`" for v in values[:limit])
    return shown + (f" and {len(values) - limit} more" if len(values) > limit else "")


def _hardware(trials: pd.DataFrame) -> str:
    if "cpu" in trials:
        cpus = trials.drop_duplicates([c for c in ("cpu", "cpu_count") if c in trials])
        parts = [f"{r['cpu']}, {r.get('cpu_count', '?')} logical CPUs" for _, r in cpus.iterrows()]
    else:
        parts = ["CPU not recorded"]
    gpus = _values(trials, "gpu")
    if "gpu" not in trials:
        parts.append("GPU not recorded")
    else:
        parts.append(f"GPU: {', '.join(gpus)}" if gpus else "no GPU")
    return "; ".join(parts)


def _packages(trials: pd.DataFrame) -> str:
    cols = sorted(c for c in trials if c.startswith("version_"))
    found = [f"{c.removeprefix('version_')} {', '.join(_values(trials, c))}" for c in cols]
    found = [f for f in found if not f.endswith(" ")]
    return "; ".join(found) or "not recorded"


def _dates(trials: pd.DataFrame) -> str:
    if "timestamp" not in trials or trials["timestamp"].dropna().empty:
        return "not recorded"
    days = sorted({str(t)[:10] for t in trials["timestamp"].dropna()})
    return days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"


def _seeds(trials: pd.DataFrame) -> str:
    seeds = sorted({int(s) for s in trials["seed"]})
    reps = sorted({int(r) for r in trials["repetition"]}) if "repetition" in trials else []
    shown = ", ".join(map(str, seeds[:10])) + (", ..." if len(seeds) > 10 else "")
    return f"{len(seeds)} seed(s) ({shown}); repetitions {', '.join(map(str, reps)) or '?'}"


def provenance_table(trials: pd.DataFrame, command: str) -> str:
    counts = trials["status"].value_counts()
    ran = int(sum(counts.get(s, 0) for s in tables.RAN))
    rows = [
        ("command", f"`{command}`"),
        ("experiment(s)", _listed(_values(trials, "experiment"))),
        ("dates (UTC, trials stored)", _dates(trials)),
        ("git commit(s)", _listed(_values(trials, "git_commit"))),
        ("hardware", _hardware(trials)),
        ("Python", _listed(_values(trials, "python"))),
        ("packages", _packages(trials)),
        ("seeds", _seeds(trials)),
        ("budget per trial", _budget(trials)),
        (
            "trials",
            f"{len(trials)}: {ran} ran, {int(counts.get('skipped', 0))} skipped, "
            f"{int(counts.get('error', 0))} errors",
        ),
        ("config hashes", _listed(_values(trials, "config_hash"))),
    ]
    lines = ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    return "\n".join(lines) + "\n"


def _budget(trials: pd.DataFrame) -> str:
    limits = ", ".join(f"{float(v):g} s" for v in sorted(set(trials["time_limit_s"])))
    iters = ", ".join(str(int(v)) for v in sorted(set(trials["max_iterations"])))
    return f"{limits}; at most {iters} iterations"


def parse_targets(given: str | float | Sequence[str | float] | None) -> dict[str, float]:
    """``--target`` values as {cell: rate}: ``RATE`` for every cell (key ""), ``CELL=RATE``
    for one cell, named as its row reads (``qubo/pt``: form variant / backend)."""
    if given is None:
        return {}
    out: dict[str, float] = {}
    for item in [given] if isinstance(given, str | float | int) else given:
        cell, sep, rate = str(item).rpartition("=")
        try:
            value = float(rate)
        except ValueError:
            msg = f"--target {item!r}: expected RATE or CELL=RATE, e.g. qubo/pt=0.8"
            raise ValueError(msg) from None
        if not 0 <= value <= 1:
            raise ValueError(f"--target {item!r}: a rate is between 0 and 1")
        out[cell.strip() if sep else ""] = value
    return out


def targets_table(summary: pd.DataFrame, target: str | float | Sequence[str | float]) -> str:
    """Each row's success rate against its target (the cell's own, else the one for every
    cell): met, or missed by how many points. Rows without a target are left out."""
    targets = parse_targets(target)
    every = [f"at least {targets['']:g} per board size and cell"] if "" in targets else []
    said = "; ".join(every + [f"at least {v:g} for {k}" for k, v in targets.items() if k])
    lines = [
        f"Target: a success rate of {said}.",
        "",
        "| Size | Form | Backend | Success: rate [95% CI] | Target | Verdict |",
        "|---|---|---|---|---|---|",
    ]
    for _, r in summary.iterrows():
        goal = targets.get(f"{r['form_variant']}/{r['backend']}", targets.get(""))
        if goal is None:
            continue
        rate = r["success"]
        if pd.isna(rate):
            verdict = "not run"
        elif rate >= goal:
            verdict = "met"
        else:
            verdict = f"**missed by {100 * (goal - rate):.0f} points**"
        success = render.cell_text(r, "success")
        lines.append(
            f"| {r['size']} | {render.md_cell(r['form_variant'])} | {r['backend']} | {success} | {goal:g} "
            f"| {verdict} |"
        )
    return "\n".join(lines) + "\n"


def _several_kinds(trials: pd.DataFrame) -> bool:
    return trials["board"].nunique() >= 2


def _frontier(data: ReportData) -> pd.DataFrame:
    """The frontier summary where one board kind spans several sizes (else empty): how far
    each cell got, the page's compact view of a size ladder (made once, as the report's
    frontier items share it)."""
    if _several_kinds(data.trials) or data.trials["size"].nunique() < 2:
        return pd.DataFrame()
    return shared_summary(data)


def _figures(data: ReportData) -> list[Path]:
    trials, assets = data.trials, data.out
    files = plots.iterations_figure(trials, assets, panel="backend")
    files += plots.time_to_solution_figure(trials, assets)
    if _several_kinds(trials):  # one board per size: pooled by faces, not one point per board
        files += FigureByFaces().write(data)
    elif trials["size"].nunique() > 1:
        files += plots.scaling_figure(trials, assets)
        if not (frontier := _frontier(data)).empty:
            files += frontier_figure(frontier, trials, assets)
    if ModelGrowthFigure().applies(data):
        files += ModelGrowthFigure().write(data)
    for f in files:  # the site shows PNGs; the report directory keeps the PDFs
        if f.suffix == ".pdf":
            f.unlink()
    return [f for f in files if f.suffix == ".png"]


def _regenerate(sources: Sequence[str], name: str, options: dict[str, object]) -> str:
    """The command that writes this page again, as the page names it (an option given
    several times repeats; True: a flag)."""
    given = "".join(
        f" {k}" if v is True else f" {k} {shlex.quote(str(v))}"
        for k, values in options.items()
        for v in (values if isinstance(values, list | tuple) else [values])
        if v is not None
    )
    return (
        f"python -m slitherbench.report {' '.join(sources)} --publish docs/findings/{name}{given}"
    )


def _sections(
    data: ReportData,
    raw: pd.DataFrame,
    summary: pd.DataFrame,
    target: str | float | Sequence[str | float] | None,
    compare_spec: str | Sequence[str] | None,
) -> list[str]:
    """The page's optional sections: seconds per instance (where a size holds several), board
    kinds pooled by faces or the frontier, the model sizes, solved within fractions of the
    budget, targets, the paired tests."""
    parts: list[str] = []
    instances = data.trials["puzzle"].nunique()
    if instances > data.trials["size"].nunique() and instances <= PAGE_INSTANCES:
        grid = tables.instance_times(data.trials)
        parts += ["## Seconds per instance", "", render.grid_markdown(grid, SURVEY_CAPTION)]
    if _several_kinds(data.trials):  # the page holds the table; the summary CSV has every row
        grid, _ = faces_grid(data.trials)
        parts += [
            "## Every board kind pooled by faces",
            "",
            render.grid_markdown(grid, FACES_CAPTION),
        ]
    elif not (frontier := _frontier(data)).empty:
        grid = tables.frontier_grid(frontier)
        parts += ["## The frontier", "", render.grid_markdown(grid, FRONTIER_CAPTION)]
    if ModelSizeTable().applies(data):
        grid = model_sizes.size_grid(model_sizes.shared_size_summary(data))
        parts += ["## Model sizes", "", render.grid_markdown(grid, model_sizes.CAPTION)]
    if SolvedWithin().applies(data):
        grid = within_grid(tables.solved_within(data.trials))
        parts += ["## Solved within t", "", render.grid_markdown(grid, WITHIN_CAPTION)]
    if target is not None:
        parts += ["## Targets", "", targets_table(summary, target)]
    for spec in compare.specs(compare_spec):
        a, b = compare.parse_spec(spec)
        results = compare.compare(raw, a, b)  # pairs within configurations
        parts += [
            f"## Paired comparison: {a} vs {b}",
            "",
            compare.to_markdown(results, ""),
        ]
    return parts


def publish(
    trials: pd.DataFrame,
    iterations: pd.DataFrame,
    dest: Path,
    sources: Sequence[str],
    command: str | None = None,
    title: str | None = None,
    target: str | float | Sequence[str | float] | None = None,
    compare_spec: str | Sequence[str] | None = None,
    caption: str = "",
    reference: pd.DataFrame | None = None,
    exact: bool = False,
) -> list[Path]:
    """Write ``dest.md`` and ``dest/`` (figures, ``summary.csv``); return the files.
    ``caption`` is the report's own wording of the table's statistics; ``reference`` the
    store's exact iteration reference, if any (``exact``: it was made for this page)."""
    if trials.empty:
        raise ValueError("no trials to publish")
    name = dest.name
    assets = dest.parent / name
    assets.mkdir(parents=True, exist_ok=True)
    raw = trials
    trials = tables.with_size(tables.by_configuration(trials))
    if "timestamp" in trials:
        trials = trials.sort_values("timestamp", kind="stable").reset_index(drop=True)
    # The exact iteration column: the store's own exact cell, else its exact_reference
    # (``--exact`` makes it first; the page's command then names it, as it was needed).
    summary = tables.summarise(trials, tables.SIZE_KEYS, reference, iterations)
    csv = assets / "summary.csv"
    summary.to_csv(csv, index=False)
    data = ReportData(trials, iterations, assets)  # one per page: its items share their work
    figures = _figures(data)
    experiments = _values(trials, "experiment")
    made_by = command or "; ".join(f"python -m slitherbench experiment={e}" for e in experiments)
    options = {"--title": title, "--command": command, "--target": target}
    more = {"--compare": compare_spec, "--exact": True if exact else None}
    regenerate = _regenerate(sources, name, {**options, **more})
    parts = [
        f"# {title or 'Findings: ' + ', '.join(experiments)}",
        "",
        '!!! note "Published from a store"',
        f"    Written by `{regenerate}`",
        "    from the store's records (provenance included): change the store or the command,",
        "    not this page.",
        "",
        "## How it was made",
        "",
        provenance_table(trials, made_by),
        "## Results",
        "",
        render.to_markdown(summary, tables.SIZE_KEYS, COLUMNS, caption),
    ]
    parts += _sections(data, raw, summary, target, compare_spec)
    parts += ["## Figures", ""]
    parts += [f"![{f.stem.replace('_', ' ')}]({name}/{f.name})\n" for f in figures]
    parts += [f"The table as CSV, every column: [`{name}/summary.csv`]({name}/summary.csv).", ""]
    page = dest.parent / f"{name}.md"
    page.write_text("\n".join(parts))
    return [page, csv, *figures]
