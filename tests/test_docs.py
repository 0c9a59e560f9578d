"""The documentation site: its pages and links exist, each tutorial script runs, and a
findings page published from a store equals what the store gives today.

The site itself is built with warnings as errors in .ci/run (`mkdocs build --strict`), which
also fails on a broken link; the checks here need no docs extra and run in the fast subset.
"""

from __future__ import annotations

import os
import re
import runpy
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_readme import heading_anchors, relative_links

from slitherbench.analysis.report import main as report_main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TUTORIALS = sorted((DOCS / "tutorials").glob("*.py"))


def nav_pages(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [p for v in node.values() for p in nav_pages(v)]
    if isinstance(node, list):
        return [p for v in node for p in nav_pages(v)]
    return []


def test_every_page_in_the_nav_exists_and_every_page_is_in_the_nav() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    pages = nav_pages(config["nav"])
    generated = {"notebooks/analysis.ipynb"}  # executed at build time (docs/_hooks)
    for page in pages:
        assert page in generated or (DOCS / page).is_file(), page
    for md in DOCS.rglob("*.md"):
        assert md.relative_to(DOCS).as_posix() in pages, f"{md} is in no nav section"
    twice = sorted({p for p in pages if pages.count(p) > 1})
    assert not twice, f"listed more than once in the nav: {twice}"


def test_every_relative_link_in_the_docs_lands_on_a_file_and_heading() -> None:
    checked = 0
    for md in DOCS.rglob("*.md"):
        for link in relative_links(md.read_text()):
            path, _, anchor = link.partition("#")
            target = (md.parent / path).resolve() if path else md
            if "reference/api.md" in path or target.suffix == ".ipynb":
                continue  # anchors made by mkdocstrings; the notebook is built
            assert target.exists(), f"{md.relative_to(ROOT)}: {link}"
            generated = "<!-- generate:" in target.read_text() if target.suffix == ".md" else False
            if anchor and target.suffix == ".md" and not generated:  # the build checks those
                assert anchor in heading_anchors(target), f"{md.relative_to(ROOT)}: {link}"
            checked += 1
    assert checked >= 50


# How a result or a line of code came about is not the project: an issue tracker's numbers,
# working sittings, machines on loan. (Each pattern is spelt so that it does not match itself.)
MAKING = re.compile(
    r"this[ ]session|previous[ ]session|this[ ]VM|measured[ ]here|\bwe\b|\bissue[ ]+[0-9]+"
    r"|\ble[n]t\b|device[ ]tool|\bstop[ ]+[0-9]+|\bhelper[ ]session|\bsession[ ]+[0-9]+",
    re.I,
)
PROSE = re.compile(r"this[ ]session|previous[ ]session|this[ ]VM|measured[ ]here|\bwe\b", re.I)


def test_no_page_talks_about_its_making() -> None:
    """Hardware, dates, commands and commits only: never who measured or in which sitting."""
    for md in [ROOT / "README.md", *DOCS.rglob("*.md")]:
        found = MAKING.findall(md.read_text())
        assert not found, f"{md.relative_to(ROOT)}: {found}"


def test_no_code_config_or_test_talks_about_its_making() -> None:
    """Comments, docstrings and configs speak of the project, as the pages do (prose words
    such as "we" are left to the pages: code may say ``we`` in a name)."""
    files = [
        f
        for d in ("docs", "conf", "experiments", "tests", "slitherbench")
        for f in (ROOT / d).rglob("*")
        if f.is_file() and f.suffix in (".py", ".yaml", ".sh", ".md", ".txt", ".toml")
    ]
    assert len(files) > 100
    for f in files:
        text = f.read_text(errors="replace")
        found = [m for m in MAKING.findall(text) if not PROSE.fullmatch(m)]
        assert not found, f"{f.relative_to(ROOT)}: {found}"


@pytest.mark.slow
@pytest.mark.parametrize("script", TUTORIALS, ids=lambda p: p.name)
def test_each_tutorial_script_runs(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(script.parent))
    runpy.run_path(str(script), run_name="__main__")


@pytest.mark.slow
def test_the_tutorial_backend_runs_from_its_config_file(tmp_path: Path) -> None:
    """One module + one config file: the backend of docs/tutorials/add_backend.py chosen on
    the command line from a config directory outside the repository."""
    conf = tmp_path / "conf" / "backend"
    conf.mkdir(parents=True)
    module = runpy.run_path(str(DOCS / "tutorials" / "add_backend.py"))
    (conf / "myanneal.yaml").write_text(module["CONFIG"])
    args = ["backend=myanneal", "formulation=hubo", "puzzle=tiny", "repetitions=1"]
    args += [f"hydra.searchpath=[file://{tmp_path / 'conf'}]", f"results_dir={tmp_path / 's'}"]
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench", *args, "progress=false"],
        # Nothing written into the checkout: no __pycache__ beside the tutorial.
        env={**os.environ, "PYTHONPATH": str(DOCS / "tutorials"), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    from slitherbench.store.results import load

    trials, _ = load(tmp_path / "s")
    assert set(trials.backend) == {"myanneal"} and (trials.status == "solved").all()


def published_command(page: Path) -> list[str]:
    """The report arguments a published page says wrote it."""
    line = re.search(r"Written by `python -m slitherbench\.report (.+?)`", page.read_text())
    assert line, f"{page} does not say which command wrote it"
    return shlex.split(line[1])


def kept_store_pages() -> list[Path]:
    """The findings pages published from a store that is in the repository (the example's
    test store, the stores kept beside their pages under docs/findings/NAME/store)."""
    from slitherbench.analysis.publish import store_is_kept, written_by

    out = []
    for page in sorted((DOCS / "findings").glob("*.md")):
        args = written_by(page.read_text())
        if args and all(store_is_kept(s, ROOT) for s in args[: args.index("--publish")]):
            out.append(page)
    return out


def _bytes(store: Path) -> int:
    return sum(f.stat().st_size for f in store.rglob("*") if f.is_file())


def test_the_kept_stores_are_within_their_size_budget() -> None:
    """At most 5 MB per page and 40 MB for every kept store together."""
    sizes = {store.parent.name: _bytes(store) for store in (DOCS / "findings").glob("*/store")}
    assert sizes, "no store kept beside a page"
    assert all(size <= 5e6 for size in sizes.values()), sizes
    assert sum(sizes.values()) <= 40e6, sizes


def _kept_store_params() -> list:
    """The pages; those whose kept store is over 500 kB (12-16 s each to publish again on 2
    cores) run in the experiments step (pytest -m experiments, in .ci/run)."""
    return [
        pytest.param(
            page,
            id=page.stem,
            marks=[pytest.mark.experiments] if _bytes(page.with_suffix("") / "store") > 5e5 else [],
        )
        for page in kept_store_pages()
    ]


@pytest.mark.slow
@pytest.mark.parametrize("page", _kept_store_params())
def test_a_page_equals_a_fresh_publish_from_its_kept_store(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page published from a store in the repository (the example from the test store,
    others from docs/findings/NAME/store), regenerated by the command it names into
    tmp_path: the same page, summary and figures, byte for byte."""
    name = page.stem
    args = published_command(page)
    i = args.index("--publish")
    assert args[i + 1] == f"docs/findings/{name}"
    args[i + 1] = str(tmp_path / name)
    monkeypatch.chdir(ROOT)  # the store is named relative to the repository root
    assert report_main(args) == 0
    # When the report itself changes on purpose, the page is regenerated by the command it
    # names (from the repository root) and committed with the change.
    again = "regenerate it: python -m slitherbench.report " + shlex.join(published_command(page))
    assert (tmp_path / f"{name}.md").read_text() == page.read_text(), again
    fresh, committed = tmp_path / name, DOCS / "findings" / name
    assert (fresh / "summary.csv").read_text() == (committed / "summary.csv").read_text(), again
    made = sorted(p.name for p in fresh.iterdir())
    assert made == sorted(p.name for p in committed.iterdir() if p.name != "store"), again
    for png in fresh.glob("*.png"):
        assert f"({name}/{png.name})" in page.read_text()
        assert png.read_bytes() == (committed / png.name).read_bytes(), again


def test_the_example_and_a_kept_store_are_among_the_regenerated_pages() -> None:
    names = {p.stem for p in kept_store_pages()}
    assert {"example", "hubo_vs_qubo"} <= names
    # The example's store gives the page its model sizes (table and growth figure), and its
    # two sizes of one board kind the frontier.
    example = (DOCS / "findings" / "example.md").read_text()
    for section in ("## Model sizes", "## The frontier"):
        assert section in example
    assert {"model_growth.png", "frontier.png"} <= {
        p.name for p in (DOCS / "findings" / "example").iterdir()
    }


BENCHMARK_PAGES = sorted(rows.parent for rows in (DOCS / "findings").glob("*/rows.csv"))


@pytest.mark.slow  # about 10 s for every page together: the full suite and CI run it
@pytest.mark.parametrize("assets", BENCHMARK_PAGES, ids=lambda p: p.name)
def test_a_benchmark_page_equals_a_fresh_publish_from_its_rows(
    assets: Path, tmp_path: Path
) -> None:
    """A page a benchmark script published (docs/findings/NAME/rows.csv beside NAME.md),
    written again from its committed rows by the command it names: the same page."""
    page = assets.parent / f"{assets.name}.md"
    line = re.search(r"Written by `python (experiments/\S+\.py) (.+?)`", page.read_text())
    assert line, f"{page} does not say which command wrote it"
    args = shlex.split(line[2])
    assert args[args.index("--rows") + 1] == f"docs/findings/{assets.name}/rows.csv"
    assert args[args.index("--publish") + 1] == f"docs/findings/{assets.name}"
    args[args.index("--publish") + 1] = str(tmp_path / assets.name)
    run = subprocess.run(
        [sys.executable, line[1], *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    again = f"regenerate it: python {line[1]} {line[2]}"
    assert (tmp_path / f"{assets.name}.md").read_text() == page.read_text(), again
    assert (tmp_path / assets.name / "rows.csv").read_text() == (assets / "rows.csv").read_text()
    for png in (tmp_path / assets.name).glob("*.png"):
        assert (assets / png.name).exists() and f"({assets.name}/{png.name})" in page.read_text()


@pytest.mark.slow
def test_the_gpu_page_rows_are_the_gpu_runs_own_files(tmp_path: Path) -> None:
    """The GPU check's published rows, made again from the files its run wrote (committed
    under experiments/measured/): the same rows and page, so no number on the page was typed."""
    name = "gpu_check_2026-11-30"
    run = subprocess.run(
        [
            sys.executable,
            "experiments/gpu_check.py",
            "--from-run",
            f"experiments/measured/{name}",
            "--publish",
            str(tmp_path / name),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    committed = DOCS / "findings" / name
    assert (tmp_path / name / "rows.csv").read_text() == (committed / "rows.csv").read_text()
    page = (tmp_path / f"{name}.md").read_text()
    assert page == (DOCS / "findings" / f"{name}.md").read_text()
    # The run's record, read from its summary and trial files.
    assert "GPU: `NVIDIA H200`" in page and "pyqbpp 2026.10.06" in page
    assert "| -1 | cons | GPU | 60 | 8/8 [0.68, 1.00] | 8/8 |" in page
    assert "127,526 of 128,387 flips on the GPU" in page


def test_a_benchmark_page_takes_every_fact_from_its_rows(tmp_path: Path) -> None:
    """Provenance read from the rows' stamp columns, not from the clock or the checkout."""
    import pandas as pd

    from slitherbench.analysis import benchmark_page

    rows = pd.DataFrame(
        {
            "seconds": [0.5, 0.7],
            "command": ["python experiments/x.py", "python experiments/x.py"],
            "measured_utc": ["2026-11-30 10:00", "2026-11-30 10:00"],
            "git_commit": ["0a63d1db6546", "0a63d1db6546"],
            "cpu": ["AMD EPYC", "AMD EPYC"],
            "cpu_count": [2, 2],
            "gpu": ["", ""],
            "python": ["3.11.7", "3.11.7"],
            "version_highspy": ["1.16.0", "1.16.0"],
        }
    )
    table = benchmark_page.provenance_table(rows)
    assert "| command | `python experiments/x.py` |" in table
    assert "| measured (UTC) | 2026-11-30 10:00 |" in table
    assert "`0a63d1db6546`" in table and "AMD EPYC, 2 logical CPUs; GPU: none" in table
    assert "highspy 1.16.0" in table and "| rows | 2 |" in table
    rows.to_csv(tmp_path / "rows.csv", index=False)
    assert benchmark_page.read_rows(tmp_path / "rows.csv").equals(rows)


def test_a_published_page_takes_every_fact_from_the_store(tmp_path: Path) -> None:
    """Provenance read from the records, not from the clock or the checkout."""
    from slitherbench.analysis import publish
    from slitherbench.store.results import load

    trials, _ = load(ROOT / "tests" / "data" / "store_v0_1")
    table = publish.provenance_table(trials, "python -m slitherbench experiment=smoke")
    assert "| dates (UTC, trials stored) | 2026-11-30 |" in table
    assert "`0a63d1db6546`" in table  # the store's git commit
    assert "Intel(R) Xeon(R) Processor, 2 logical CPUs; no GPU" in table
    assert "2 seed(s) (1480309189, 1678310696)" in table
    assert "4: 4 ran, 0 skipped, 0 errors" in table


@pytest.mark.slow
def test_the_generated_reference_pages_come_from_the_code() -> None:
    """The build hook's generators (run by mkdocs in .ci/run) on their own: every config
    file, every stored column, every format read back, every user-facing raise."""
    sys.path.insert(0, str(DOCS / "_hooks"))
    try:
        import generate
    finally:
        sys.path.remove(str(DOCS / "_hooks"))
    config = generate.config_reference()
    for f in (ROOT / "conf").rglob("*.yaml"):
        if f.parent.name != "conf":
            assert f"### `{f.parent.name}={f.stem}`" in config or f.parent.parent.name != "conf"
    assert "| `wall_s` |" in generate.columns_reference()
    formats = generate.formats_reference()  # raises unless each text reads back
    assert formats.count("### `") == 6
    errors = generate.errors_reference()
    assert "unknown board kind {kind}" in errors and "`ConfigError`" in errors


DOCTEST_MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for p in (ROOT / "slitherbench").rglob("*.py")
    if ">>>" in p.read_text()
)


@pytest.mark.parametrize("module", DOCTEST_MODULES)
def test_module_docstring_tutorials_run_as_doctests(module: str) -> None:
    """Where a module is an extension point its docstring is a tutorial: its examples run."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def documented_runs() -> list[tuple[str, str]]:
    """Every `python -m slitherbench ...` line of a ```bash block in the README and the docs
    (continuation lines joined), with its page."""
    out = []
    for md in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for block in re.findall(r"^```bash\n(.*?)^```", md.read_text(), flags=re.S | re.M):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split(" #")[0].strip()
                m = re.search(r"python -m slitherbench (.*)$", line)
                if m and "hydra.searchpath" not in line:  # groups from elsewhere: run above
                    out.append((md.relative_to(ROOT).as_posix(), m[1]))
    return out


@pytest.mark.slow
def test_every_documented_run_names_only_settings_that_exist() -> None:
    """The command-line checker (the one that answers a typo with one `error:` line) accepts
    every documented run: no page shows a setting, group option or experiment that is not
    there (as `backend.mode=direct` once was for backend=exact)."""
    from slitherbench.run.overrides import override_problem

    runs = dict((args, page) for page, args in documented_runs())  # each command once
    assert len(runs) >= 25
    for args, page in runs.items():
        argv = [a for a in shlex.split(args) if a not in ("-m", "--multirun")]
        assert override_problem(argv) is None, f"{page}: python -m slitherbench {args}"


def test_a_configuration_label_is_not_read_as_a_markdown_link() -> None:
    """``hubo[aux] [updater=HEAT_BATH]`` in a Markdown table: Python-Markdown (the site)
    reads ``[aux] [updater=HEAT_BATH]`` as a reference link; the tables escape it."""
    import pandas as pd

    # Python-Markdown comes with the docs' extra (mkdocs), not the README's install.
    markdown = pytest.importorskip("markdown", reason="the docs extra (mkdocs) is not installed")

    from slitherbench.analysis import render

    # In a cell, and in a header (the per-board table names its columns by configuration).
    grid = pd.DataFrame(
        {"form": ["hubo[aux] [updater=HEAT_BATH]"], "sa: hubo[aux] [updater=HEAT_BATH]": ["2/2"]}
    )
    # With the label defined as a reference (as autorefs does for every heading it knows),
    # an unescaped label would turn into a link.
    text = render.grid_markdown(grid, "") + "\n[updater=HEAT_BATH]: https://example.org\n"
    html = markdown.markdown(text, extensions=["tables"])
    assert html.count("hubo[aux] [updater=HEAT_BATH]") == 2 and "<a " not in html


def test_the_glossary_explains_every_label_a_table_prints() -> None:
    """Each column of the report's table, and each form label (with its suffixes) that a
    committed page's summary holds, has an entry in docs/glossary.md."""
    import pandas as pd

    from slitherbench.analysis import render

    glossary = (DOCS / "glossary.md").read_text()
    terms = {t.lower() for t in re.findall(r"^\*\*(.+?)\*\*", glossary, flags=re.M)}
    terms |= {t.lower() for t in re.findall(r"\*\*(.+?)\*\*", glossary)}
    for key in render.DEFAULT_COLUMNS:
        name = re.sub(r" ?\[[^\]]*\]$", "", render.COLUMNS[key].label).strip()
        assert name.lower() in terms, f"the column {name!r} has no glossary entry"
    labels = set()
    for summary in (DOCS / "findings").glob("*/summary.csv"):
        labels |= set(pd.read_csv(summary, usecols=["form_variant"])["form_variant"])
    assert len(labels) >= 10
    for label in sorted(labels):
        form = label.split(" [")[0]  # a cell's own setting follows after a space
        base = re.sub(r"(/face|\+region|\+tuned)+$", "", form)
        named = {base.lower(), f"{base}/face".lower()}  # an entry may name its face form only
        assert named & terms, f"{label}: {base} has no glossary entry"
        for suffix in ("/face", "+region", "+tuned", " ["):
            if suffix in label:
                assert suffix.strip() in glossary, f"{label}: {suffix} unexplained"
    for word in ("cut weight", "reference10", "headline boards", "rounds", "TTS99 opt."):
        assert word.lower() in terms, word


def test_the_artefact_says_its_licence_version_and_how_to_cite_it() -> None:
    """LICENSE is the MIT licence the README and pyproject.toml name; CITATION.cff gives the
    package's own version and cites the method's paper; the changelog has the version."""
    import tomllib

    from slitherbench import __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and "MIT licence" in (ROOT / "README.md").read_text()
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["license"] == "MIT"
    assert citation["version"] == project["version"] == __version__
    paper = next(r for r in citation["references"] if r["type"] == "conference-paper")
    assert paper["authors"][0]["family-names"] == "Nakahara" and paper["year"] == 2026
    assert "CANDAR 2026" in paper["collection-title"]
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and f"## [{__version__}]" in changelog
