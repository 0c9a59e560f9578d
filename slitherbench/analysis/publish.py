"""A findings page for the documentation site, written from a store by the report.

``python -m slitherbench.report STORE --publish docs/findings/NAME`` writes ``NAME.md`` (the
page) and ``NAME/`` (its PNG figures and a CSV summary). Everything on the page comes from the
store's records: the command as the store recorded it, every override included (an older
store that did not record it: ``--command`` or the experiment names, said to be given when
publishing), a warning at the top where the code that ran had local changes, the package's
version, the hardware, dates, git commits and package versions from the provenance columns,
the seeds and budgets, and the tables with their intervals. Nothing is read from the clock or
the checkout, so the same store always gives the same page (a test regenerates one and
compares).

A page whose store was not kept cannot be written again: :func:`mark_store_not_kept` puts
:func:`store_not_kept_note` at its top (``python experiments/mark_store_not_kept.py PAGE``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from slitherbench.analysis import compare, plots, render, tables
from slitherbench.analysis.plots import ReportData, model_sizes
from slitherbench.analysis.plots.by_faces import FACES_CAPTION, FigureByFaces, faces_grid
from slitherbench.analysis.plots.by_grade import (
    GRADE_CAPTION,
    GRADE_TEST_CAPTION,
    FigureByGrade,
    grade_grid,
    grade_test_grid,
    has_grades,
    shared_grade_tests,
)
from slitherbench.analysis.plots.by_variables import CAPTION as VARIABLES_CAPTION
from slitherbench.analysis.plots.by_variables import (
    FigureByVariables,
    TableByVariables,
    half_grid,
    shared_half_points,
)
from slitherbench.analysis.plots.frontier import (
    FRONTIER_BOARDS_CAPTION,
    FRONTIER_CAPTION,
    frontier_figure,
    shared_summary,
)
from slitherbench.analysis.plots.model_sizes import ModelGrowthFigure, ModelSizeTable
from slitherbench.analysis.plots.survey_layout import survey_caption
from slitherbench.analysis.plots.time_to_solution import WITHIN_CAPTION, SolvedWithin, within_grid
from slitherbench.analysis.plots.timeouts import (
    TIMEOUTS_CAPTION,
    LastRoundFigure,
    Timeouts,
    shared_timeouts,
    timeouts_grid,
)
from slitherbench.method import provenance

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


def _command(trials: pd.DataFrame, given: str) -> str:
    """The command lines the store recorded, as they ran; where it recorded none (a store
    from before commands were recorded, or a run from Python), ``given`` and says so."""
    recorded = _values(trials, "command")
    if not recorded:
        return f"`{given}` (not recorded by the store: as given when publishing)"
    missing = int(trials["command"].fillna("").astype(str).eq("").sum())
    older = f"; {missing} trial(s) did not record theirs" if missing else ""
    return "; ".join(f"`{c}`" for c in recorded) + older


def dirty_note(trials: pd.DataFrame) -> list[str]:
    """The warning a page from a dirty checkout opens with (empty when every trial ran
    from a commit)."""
    return provenance.dirty_note(_values(trials, "git_commit"), _values(trials, "git_changes"))


def provenance_table(trials: pd.DataFrame, command: str) -> str:
    counts = trials["status"].value_counts()
    ran = int(sum(counts.get(s, 0) for s in tables.RAN))
    rows = [
        ("command", _command(trials, command)),
        ("Hydra config", _listed(_values(trials, "config_name"))),
        ("experiment(s)", _listed(_values(trials, "experiment"))),
        ("slitherbench version", _listed(_values(trials, "version_slitherbench"))),
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
            f"{int(counts.get('error', 0))} errors"
            + _presolved_text(int(counts.get("presolved", 0))),
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
    if FigureByGrade().applies(data):
        files += FigureByGrade().write(data)
    if FigureByVariables().applies(data):
        files += FigureByVariables().write(data)
    if LastRoundFigure().applies(data):
        files += LastRoundFigure().write(data)
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


TOTALS_CAPTION = (
    "Every board size and seed of a cell pooled: solved/ran (trials that ran); skipped and "
    "error trials are counted apart, never as runs."
)


def _presolved_text(n: int) -> str:
    """Trials the presolve settled before any solve (none in stores without a presolve)."""
    return f", {n} presolved (deduction settled the board; no solve)" if n else ""


def cell_totals(trials: pd.DataFrame) -> pd.DataFrame:
    """One row per form x backend: solved/ran over every size, with the trials that did not
    run (the page's shortest answer to "which cell solves more")."""
    rows = []
    for (form, backend), d in trials.groupby(tables.CELL_KEYS, sort=False):
        ran = d[d["status"].isin(tables.RAN)]
        rows.append(
            {
                "Form": form,
                "Backend": backend,
                "Solved/ran": f"{int((d['status'] == 'solved').sum())}/{len(ran)}",
                "Skipped": str(int((d["status"] == "skipped").sum())),
                "Errors": str(int((d["status"] == "error").sum())),
                "Presolved": str(int((d["status"] == "presolved").sum())),
            }
        )
    out = pd.DataFrame(rows)
    if (out["Presolved"] == "0").all():  # a store without a presolve: the column says nothing
        out = out.drop(columns="Presolved")
    return out


def _board_sections(data: ReportData) -> list[str]:
    """The sections about the boards: by difficulty grade, with the grade test where some
    cell ran two neighbouring grades on boards of one size, and solved against the variables
    left where a cell ran enough boards with their model sizes."""
    parts: list[str] = []
    if has_grades(data.trials):  # a store from before grades were recorded has none
        grid, _ = grade_grid(data.sized)
        parts += ["## By difficulty grade", "", render.grid_markdown(grid, GRADE_CAPTION)]
        tests = shared_grade_tests(data)
        if not tests.empty:
            parts += [render.grid_markdown(grade_test_grid(tests), GRADE_TEST_CAPTION)]
    if TableByVariables().applies(data):
        grid = half_grid(shared_half_points(data))
        parts += ["## Solved against the variables left", "",
                  render.grid_markdown(grid, VARIABLES_CAPTION)]  # fmt: skip
    return parts


def _sections(
    data: ReportData,
    raw: pd.DataFrame,
    summary: pd.DataFrame,
    target: str | float | Sequence[str | float] | None,
    compare_spec: str | Sequence[str] | None,
) -> list[str]:
    """The page's optional sections: solved per cell and by difficulty grade (where the trials
    record grades), seconds per instance (where a size holds several), board
    kinds pooled by faces or the frontier, the model sizes, solved within fractions of the
    budget, the trials out of time (stalled or still cutting), targets, the paired tests."""
    parts: list[str] = []
    if data.trials["size"].nunique() > 1:
        totals = render.grid_markdown(cell_totals(data.trials), TOTALS_CAPTION)
        parts += ["## Solved per cell, every size", "", totals]
    parts += _board_sections(data)
    instances = data.trials["puzzle"].nunique()
    if instances > data.trials["size"].nunique() and instances <= PAGE_INSTANCES:
        grid = tables.instance_times(data.trials)
        parts += [
            "## Seconds per instance",
            "",
            render.grid_markdown(grid, survey_caption(data.trials)),
        ]
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
        boards = tables.frontier_board_grid(frontier)
        if not boards.empty:  # several boards of one size: the frontier board by board too
            parts += [render.grid_markdown(boards, FRONTIER_BOARDS_CAPTION)]
    if ModelSizeTable().applies(data):
        grid = model_sizes.size_grid(model_sizes.shared_size_summary(data))
        parts += ["## Model sizes", "", render.grid_markdown(grid, model_sizes.CAPTION)]
    if SolvedWithin().applies(data):
        grid = within_grid(tables.solved_within(data.trials))
        parts += ["## Solved within t", "", render.grid_markdown(grid, WITHIN_CAPTION)]
    if Timeouts().applies(data):
        grid = timeouts_grid(shared_timeouts(data))
        parts += ["## Out of time: stalled or still cutting", "",
                  render.grid_markdown(grid, TIMEOUTS_CAPTION)]  # fmt: skip
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
    selection: dict[str, str | None] | None = None,
) -> list[Path]:
    """Write ``dest.md`` and ``dest/`` (figures, ``summary.csv``); return the files. The options
    (``selection``, ``title``, ``target``...) are named in the page's command (:func:`_regenerate`)."""
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
    regenerate = _regenerate(sources, name, {**(selection or {}), **options, **more})
    parts = [
        f"# {title or 'Findings: ' + ', '.join(experiments)}",
        "",
        *dirty_note(trials),
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


STORE_NOT_KEPT_TITLE = "Recorded by hand: the store behind this page was not kept"


def written_by(page_text: str) -> list[str] | None:
    """The report's arguments as a published page names them (None: not a store's page)."""
    line = re.search(r"Written by `python -m slitherbench\.report (.+?)`", page_text)
    return shlex.split(line[1]) if line else None


def store_not_kept_note(stores: Sequence[str]) -> str:
    """The warning a page opens with when the store it was written from is not in the
    repository: its numbers can be read, not checked or written again."""
    named = ", ".join(f"`{s}`" for s in stores)
    return "\n".join(
        [
            f'!!! warning "{STORE_NOT_KEPT_TITLE}"',
            f"    The store this page was written from ({named}) is not in the repository: the",
            "    page cannot be written again from its records, nor its numbers checked. It is",
            "    kept as it was published; the README's findings do not quote it.",
            "",
            "",
        ]
    )


def store_is_kept(store: str, root: Path) -> bool:
    """A store named relative to the repository, present, and not under ``results/`` (which
    git ignores: a store there is on one machine, not in the repository)."""
    path = Path(store)
    return not path.is_absolute() and path.parts[:1] != ("results",) and (root / path).is_dir()


def mark_store_not_kept(page: Path, root: Path) -> bool:
    """Put :func:`store_not_kept_note` under the title of ``page`` when a store it names is
    not under ``root`` (the repository); True when the page changed (once: idempotent)."""
    text = page.read_text()
    args = written_by(text)
    if args is None or STORE_NOT_KEPT_TITLE in text:
        return False
    stores = args[: args.index("--publish")] if "--publish" in args else args
    if all(store_is_kept(s, root) for s in stores):
        return False
    # The page's own provenance row: a dirty commit is said at the top, as publish says it.
    commits = re.search(r"^\| git commit\(s\) \| (.*) \|$", text, flags=re.M)
    named = re.findall(r"`([^`]+)`", commits[1]) if commits else []
    dirty = "".join(f"{line}\n" for line in dirty_note(pd.DataFrame({"git_commit": named})))
    title, _, rest = text.partition("\n\n")
    page.write_text(f"{title}\n\n{store_not_kept_note(stores)}{dirty}{rest}")
    return True


EXPLAINS_NOT_KEPT_TITLE = "Pages explained here whose stores were not kept"


def explains_not_kept_note(pages: Sequence[str]) -> str:
    """The warning a prose page opens with when pages it links were published from stores
    that are not in the repository (their names, as the page links them)."""
    named = ", ".join(f"[{Path(p).stem}]({p})" for p in pages)
    return (
        f'!!! warning "{EXPLAINS_NOT_KEPT_TITLE}"\n'
        f"    Numbers this page quotes from {named} can be read there, not checked: those\n"
        "    pages' stores are not in the repository (each says so at its top).\n\n"
    )


def mark_explanation(page: Path) -> bool:
    """Put (or bring up to date) :func:`explains_not_kept_note` under the title of a prose
    page that links pages whose stores were not kept; True when the page changed."""
    text = page.read_text()
    if written_by(text) is not None or page.name == "index.md":  # an index says it per row
        return False
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    gone = sorted(
        {
            link
            for link in links
            if link.endswith(".md")
            and (page.parent / link).is_file()
            and STORE_NOT_KEPT_TITLE in (page.parent / link).read_text()
        }
    )
    old = re.search(rf'^!!! warning "{EXPLAINS_NOT_KEPT_TITLE}"\n(?:    .*\n)*\n', text, re.M)
    note = explains_not_kept_note(gone) if gone else ""
    if old is not None:
        new = text[: old.start()] + note + text[old.end() :]
    elif note:
        title, _, rest = text.partition("\n\n")
        new = f"{title}\n\n{note}{rest}"
    else:
        return False
    if new == text:
        return False
    page.write_text(new)
    return True
