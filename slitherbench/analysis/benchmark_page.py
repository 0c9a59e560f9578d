"""A findings page written from a benchmark's rows, as the report writes one from a store.

The benchmark scripts under ``experiments/`` write no store: each writes one CSV row per
measurement. With ``--publish docs/findings/NAME`` a script also stamps every row with where
and with what it was measured (:func:`stamp`: date, git commit, CPU, Python, the packages it
names) and writes ``NAME/rows.csv`` and the page ``NAME.md`` from those rows alone
(:func:`write_page`). ``--rows NAME/rows.csv`` writes the page again from the committed rows
without measuring: the same rows always give the same page (a test regenerates one and
compares), so a number on the page is a number in the rows.

>>> import tempfile
>>> from pathlib import Path
>>> import pandas as pd
>>> measured = pd.DataFrame({"size": ["5x5", "7x7"], "seconds": [0.01, 0.02]})
>>> rows = stamp(measured, (), command="python experiments/demo.py")
>>> dest = Path(tempfile.mkdtemp()) / "demo"
>>> page = write_page(
...     dest, rows, title="Demo", script="python experiments/demo.py",
...     sections=[("Results", grid_markdown(rows[["size", "seconds"]], "Seconds per size."))],
... )
>>> page.read_text().splitlines()[0], (dest / "rows.csv").exists()
('# Demo', True)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from slitherbench.analysis import stats
from slitherbench.analysis.render import fmt, grid_markdown
from slitherbench.method.provenance import dirty_note, provenance

__all__ = [
    "add_options",
    "counted",
    "grid_markdown",
    "is_true",
    "provenance_table",
    "publish_from_rows",
    "read_back",
    "read_rows",
    "span_text",
    "stamp",
    "stamp_recorded",
    "success_text",
    "targets_markdown",
    "write_page",
]

# Columns :func:`stamp` adds; the page's provenance table reads them back. MACHINE are
# copied from :func:`slitherbench.method.provenance.provenance`.
MACHINE = ("git_commit", "git_changes", "cpu", "cpu_count", "gpu", "python")
STAMP = ("command", "measured_utc", *MACHINE)


def stamp(rows: pd.DataFrame, packages: Sequence[str], command: str) -> pd.DataFrame:
    """``rows`` with the command that measured them, the machine, commit, date and the named
    packages' versions on each row."""
    now = pd.Timestamp.now(tz="UTC").strftime("%Y-%m-%d %H:%M")
    return stamp_recorded(rows, provenance(tuple(packages)), command, now)


def stamp_recorded(
    rows: pd.DataFrame, machine: Mapping[str, object], command: str, measured_utc: str
) -> pd.DataFrame:
    """``rows`` stamped with a provenance recorded elsewhere (``machine``: the keys of
    :data:`MACHINE` and ``version_*``, as :func:`slitherbench.method.provenance.provenance` gives
    them), e.g. by a run on another machine whose files are published here."""
    out = rows.copy()
    out["command"] = command
    out["measured_utc"] = measured_utc
    for key in MACHINE:
        if key in machine:  # a key an older run did not record stays out (not recorded)
            out[key] = machine[key]
    for key, value in machine.items():
        if key.startswith("version_"):
            out[key] = value
    return out


# -- a page's numbers as text --------------------------------------------------------------
def success_text(k: int, n: int, style: str = "count") -> str:
    """``k`` successes of ``n`` with the 95% Wilson interval: ``"3/8 [0.14, 0.69]"`` (the
    count, two decimals; ``"0/0"`` where nothing ran), or with ``style="rate"`` the rate as
    the report's tables write it, ``"0.375 [0.137, 0.694]"`` (three significant digits).

    >>> success_text(3, 8), success_text(3, 8, style="rate"), success_text(0, 0)
    ('3/8 [0.14, 0.69]', '0.375 [0.137, 0.694]', '0/0')
    """
    lo, hi = stats.wilson(k, n)
    if style == "rate":
        return f"{fmt(k / n if n else float('nan'))} [{fmt(lo)}, {fmt(hi)}]"
    if style != "count":
        raise ValueError(f"style must be count or rate, got {style!r}")
    return f"{k}/{n} [{lo:.2f}, {hi:.2f}]" if n else "0/0"


def span_text(values: pd.Series) -> str:
    """The values' range as text (one value where they agree to 3 digits; - where none).

    >>> span_text(pd.Series([0.5, 0.52])), span_text(pd.Series([2.0, 2.0])), span_text(pd.Series([]))
    ('0.5-0.52', '2', '-')
    """
    values = pd.to_numeric(values, errors="coerce").dropna()
    if values.empty:
        return "-"
    lo, hi = values.min(), values.max()
    return f"{lo:.3g}" if f"{lo:.3g}" == f"{hi:.3g}" else f"{lo:.3g}-{hi:.3g}"


def counted(n: int, noun: str) -> str:
    """``"1 trial"``, ``"3 trials"``."""
    return f"{n} {noun}{'s' * (n != 1)}"


def is_true(values: pd.Series) -> pd.Series:
    """A yes/no column as it reads back from rows.csv (``True``/``False`` text, or empty)."""
    return values.astype(str) == "True"


def targets_markdown(lines: Sequence[dict[str, str]], caption: str, absent: str) -> str:
    """A targets table (one dict of column -> text per target judged), or ``absent`` (one
    sentence: why nothing was judged) where the rows hold no run a target is set for."""
    return grid_markdown(pd.DataFrame(lines), caption) if lines else absent.rstrip("\n") + "\n"


def add_options(ap: argparse.ArgumentParser) -> None:
    """A benchmark script's ``--publish DEST`` and ``--rows CSV`` options."""
    ap.add_argument("--publish", type=Path, help="write the findings page DEST.md and DEST/")
    ap.add_argument("--rows", type=Path, help="with --publish: the page from these rows, no run")


def publish_from_rows(
    args: argparse.Namespace, ap: argparse.ArgumentParser, publish: Callable[..., Path]
) -> bool:
    """With ``--rows``: write the page from the committed rows and say so (True: done)."""
    if not args.rows:
        return False
    if not args.publish:
        ap.error("--rows needs --publish")
    print(f"page: {publish(read_rows(args.rows), args.publish)}")
    return True


def read_rows(path: Path) -> pd.DataFrame:
    """Rows as a page was written from them (``--rows``): the CSV, with the stamp's text kept
    as text (a version "1.10" is not the number 1.1, an empty GPU field not a missing value)."""
    header = pd.read_csv(path, nrows=0).columns
    text = [c for c in header if c.startswith("version_") or (c in STAMP and c != "cpu_count")]
    rows = pd.read_csv(path)
    if text:
        kept = pd.read_csv(path, usecols=list(text), dtype=str, keep_default_na=False)
        rows[list(text)] = kept[list(text)]
    return rows


def _texts(rows: pd.DataFrame, column: str) -> list[str]:
    return [str(v) for v in rows[column].dropna()] if column in rows else []


def read_back(rows: pd.DataFrame, dest: Path) -> pd.DataFrame:
    """Write ``dest/rows.csv`` and return the rows as they read back from it (an integer
    column with gaps reads back as floats), the file rewritten in that form: a page written
    from them right after a run and one written again with ``--rows`` are the same text, as
    are their rows.csv."""
    dest.mkdir(parents=True, exist_ok=True)
    rows.to_csv(dest / "rows.csv", index=False)
    rows = read_rows(dest / "rows.csv")
    rows.to_csv(dest / "rows.csv", index=False)
    return rows


def _distinct(rows: pd.DataFrame, column: str) -> str:
    if column not in rows:
        return "not recorded"
    values = sorted({str(v) for v in rows[column].dropna() if str(v) not in ("", "nan")})
    return ", ".join(f"`{v}`" for v in values) or "not recorded"


def provenance_table(rows: pd.DataFrame) -> str:
    """Where and with what the rows were measured, read from their stamp columns."""
    # An empty stamp (a run that did not record it) reads "not recorded", as a missing one.
    commands = sorted({str(v) for v in rows.get("command", pd.Series(dtype=str)).dropna()} - {""})
    dates = sorted({str(v) for v in rows.get("measured_utc", pd.Series(dtype=str)).dropna()} - {""})
    cpus = rows.drop_duplicates([c for c in ("cpu", "cpu_count") if c in rows])
    hardware = "; ".join(
        f"{r.get('cpu', '?')}, {int(r.get('cpu_count', 0))} logical CPUs"
        for _, r in cpus.iterrows()
    )
    gpus = _distinct(rows, "gpu")
    packages = "; ".join(
        f"{c.removeprefix('version_')} {_distinct(rows, c).strip('`')}"
        for c in sorted(c for c in rows if c.startswith("version_"))
    )
    table = [
        ("command", "; ".join(f"`{c}`" for c in commands) or "not recorded"),
        ("slitherbench version", _distinct(rows, "version_slitherbench")),
        ("measured (UTC)", ", ".join(dates) or "not recorded"),
        ("git commit(s)", _distinct(rows, "git_commit")),
        ("hardware", f"{hardware}; GPU: {gpus if gpus != 'not recorded' else 'none'}"),
        ("Python", _distinct(rows, "python")),
        ("packages", packages or "not recorded"),
        ("rows", str(len(rows))),
    ]
    return "\n".join(["| | |", "|---|---|", *(f"| {k} | {v} |" for k, v in table)]) + "\n"


def write_page(
    dest: Path,
    rows: pd.DataFrame,
    *,
    title: str,
    script: str,
    sections: Sequence[tuple[str, str]],
    figures: Sequence[Path] = (),
) -> Path:
    """Write ``dest.md`` and ``dest/rows.csv``; ``script`` is the command that measures
    (``python experiments/NAME.py``), ``sections`` are (heading, Markdown) pairs made from
    ``rows`` only, ``figures`` PNGs already written under ``dest/``. The page names the
    command that writes it again from its rows, with ``dest`` under ``docs/findings/``."""
    where = f"docs/findings/{dest.name}"
    regenerate = f"{script} --rows {where}/rows.csv --publish {where}"
    dest.mkdir(parents=True, exist_ok=True)
    rows_file = dest / "rows.csv"
    if not rows_file.exists() or not read_rows(rows_file).equals(rows):
        rows.to_csv(rows_file, index=False)
    parts = [
        f"# {title}",
        "",
        *dirty_note(_texts(rows, "git_commit"), _texts(rows, "git_changes")),
        '!!! note "Published from a benchmark\'s rows"',
        f"    Written by `{regenerate}` from the rows",
        f"    measured ([`{dest.name}/rows.csv`]({dest.name}/rows.csv), provenance included):",
        "    change the rows or the command, not this page.",
        "",
        "## How it was made",
        "",
        provenance_table(rows),
    ]
    for heading, body in sections:
        parts += [f"## {heading}", "", body.rstrip("\n"), ""]
    if figures:
        parts += ["## Figures", ""]
        parts += [f"![{f.stem.replace('_', ' ')}]({dest.name}/{f.name})\n" for f in figures]
    page = dest.parent / f"{dest.name}.md"
    page.write_text("\n".join(parts))
    return page
