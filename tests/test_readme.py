"""The README a newcomer reads first: short, its links land on pages that exist, and every
command it shows runs (with quick settings) or says why it needs more than a test has."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BIN = f"{Path(sys.executable).parent}/"

# Commands that a test does not run, each with the reason; .ci/run runs all three.
NOT_RUN_HERE = {
    'python3 -m venv .venv && .venv/bin/pip install -e ".[dev]"': (
        "installs a fresh venv from PyPI (network, minutes); .ci/run runs it first"
    ),
    ".venv/bin/python -m pytest -q -n 2": (
        "the suite itself: run from inside it, it would recurse; .ci/run runs it"
    ),
    '.venv/bin/pip install -e ".[docs]" && .venv/bin/mkdocs build --strict': (
        "installs the docs extra from PyPI (network) and builds the whole site (about 40 s "
        "on 2 cores); .ci/run runs it with warnings as errors"
    ),
}
# Commands a test runs, with what it adds to stay quick and write only to tmp_path.
MAIN_JOB = ".venv/bin/python -m slitherbench experiment=hubo_vs_qubo"
ONE_PUZZLE = ".venv/bin/python -m slitherbench puzzle=text puzzle.text="
REPORT = ".venv/bin/python -m slitherbench.report results/hubo_vs_qubo"
NOTEBOOK = ".venv/bin/jupytext --to ipynb --execute --run-path . notebooks/analysis.py"
QUICK = ("puzzle=tiny", "repetitions=1", "time_limit_s=2", "progress=false")


def command_lines() -> list[str]:
    """Every command in the README's ```bash blocks, one per line."""
    blocks = re.findall(r"^```bash\n(.*?)^```", README, flags=re.S | re.M)
    return [ln.strip() for b in blocks for ln in b.splitlines() if ln.strip()]


def relative_links(text: str) -> list[str]:
    return [t for t in re.findall(r"\]\(([^)]+)\)", text) if "://" not in t]


def heading_anchors(md: Path) -> set[str]:
    """The anchors MkDocs' toc gives a page's headings (lower case, punctuation dropped)."""
    out, fenced = set(), False
    for line in md.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^#{1,6} (.+)$", line)):
            text = re.sub(r"[^\w\- ]", "", m[1].strip().lower())
            out.add(re.sub(r"[-\s]+", "-", text).strip("-"))
    return out


def test_the_readme_is_at_most_150_lines() -> None:
    assert len(README.splitlines()) <= 150


def test_every_readme_link_lands_on_a_docs_page_that_exists() -> None:
    links = relative_links(README)
    assert len(links) >= 15
    for link in links:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.is_file(), link
        if anchor:
            assert anchor in heading_anchors(target), link


def test_each_finding_links_to_its_findings_page() -> None:
    findings = README.split("## Main findings", 1)[1].split("\n## ", 1)[0]
    bullets = re.findall(r"^- .+?(?=^- |\Z)", findings, flags=re.S | re.M)
    assert len(bullets) >= 6
    for b in bullets:
        assert re.search(r"\]\(docs/findings/[^)]+\)", b), b
    assert "docs/findings/harness_overhead.md" in findings


def test_every_command_is_run_by_a_test_or_says_why_not() -> None:
    runs = (MAIN_JOB, ONE_PUZZLE, REPORT, NOTEBOOK)
    for line in command_lines():
        assert line in NOT_RUN_HERE or line.startswith(runs), line
    for line in NOT_RUN_HERE:
        assert line in command_lines(), line  # no reason kept for a command that is gone
    assert all(len(why) > 20 for why in NOT_RUN_HERE.values())


def _command(prefix: str) -> list[str]:
    line = next(ln for ln in command_lines() if ln.startswith(prefix))
    return shlex.split(line.replace(".venv/bin/", BIN))


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        # A new user's shell: no matplotlib backend chosen. (A test that ran the app in this
        # worker's process set MPLBACKEND=Agg there, and the notebook then showed no figure.)
        env={**{k: v for k, v in os.environ.items() if k != "MPLBACKEND"}, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository's layout for the README's relative paths (notebooks/ and
    results/), where the main job ran with quick settings."""
    work = tmp_path_factory.mktemp("readme") / "repo"
    (work / "notebooks").mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / "analysis.py", work / "notebooks" / "analysis.py")
    r = _run([*_command(MAIN_JOB), *QUICK], work)
    assert r.returncode == 0, r.stderr[-3000:]
    assert (work / "results" / "hubo_vs_qubo").is_dir()
    return work


@pytest.mark.slow
def test_the_readme_main_job_runs_with_quick_settings(workdir: Path) -> None:
    from slitherbench.store.results import load

    trials, _ = load(workdir / "results" / "hubo_vs_qubo")
    assert set(trials.formulation) == {"hubo", "qubo"}
    assert set(trials.backend) == {"abs3", "openjij", "sa"}


@pytest.mark.slow
def test_the_readme_one_puzzle_command_prints_its_answer(tmp_path: Path) -> None:
    r = _run([*_command(ONE_PUZZLE), f"results_dir={tmp_path}", "progress=false"], tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "one loop of 34 edges):\n+   +   +---+" in r.stdout


@pytest.mark.slow
def test_the_readme_report_command_writes_the_report(workdir: Path) -> None:
    r = _run(_command(REPORT), workdir)
    assert r.returncode == 0, r.stderr[-2000:]
    report = workdir / "results" / "hubo_vs_qubo" / "report"
    assert (report / "table_by_form_backend.md").is_file()
    assert (report / "compare_hubo_vs_qubo.md").is_file()


@pytest.mark.slow
def test_the_readme_notebook_command_shows_every_figure(workdir: Path) -> None:
    """Each figure cell of the executed notebook holds an image output: the library chooses
    no matplotlib backend at import, so the kernel's inline one shows every figure."""
    import nbformat

    r = _run(_command(NOTEBOOK), workdir)
    assert r.returncode == 0, r.stderr[-3000:]
    nb = nbformat.read(workdir / "notebooks" / "analysis.ipynb", as_version=4)
    figure_cells = [
        c
        for c in nb.cells
        if c.cell_type == "code" and ("plt.show()" in c.source or "display(Image" in c.source)
    ]
    assert len(figure_cells) == 4  # ECDFs per size, model growth, scaling, the board
    for cell in figure_cells:
        images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert images, cell.source[:200]


# Numbers in the README that no findings page holds, each with the file that does.
NOT_FROM_A_PAGE = {"3.11": "pyproject.toml"}  # the Python version the package requires


def numbers(text: str) -> list[str]:
    """The numbers a reader sees: fractions (13/15) whole, then every run of digits with its
    decimal point or thousands separators (5.2, 1,440), not part of a word (ABS3, H200); not
    inside code spans, nor in the link targets."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return re.findall(r"(?<![\w.])(?:\d+/\d+|\d(?:[\d.,]*\d)?)", text)


def readme_blocks() -> list[str]:
    """The README's prose in blocks (paragraphs, list items, tables), code blocks left out."""
    prose = re.sub(r"^```.*?^```", "", README, flags=re.S | re.M)
    blocks = []
    for para in re.split(r"\n\s*\n", prose):
        blocks += [b for b in re.split(r"\n(?=- )", para) if b.strip()]
    return blocks


def test_every_readme_number_is_on_a_page_it_links() -> None:
    """Each number of a paragraph, list item or table is on a docs page that the block links
    (a table or figure takes the links of the paragraph before it)."""
    checked, links = 0, []
    for block in readme_blocks():
        own = [link.partition("#")[0] for link in relative_links(block)]
        own = [link for link in own if link.endswith(".md")]
        links = own or links
        found = set()
        for link in links:
            found |= set(numbers((ROOT / link).read_text()))
        for n in numbers(block):
            if n in NOT_FROM_A_PAGE:
                assert n in (ROOT / NOT_FROM_A_PAGE[n]).read_text()
                continue
            assert n in found, f"README number {n} is on none of {links}: {block[:120]!r}"
            checked += 1
    assert checked >= 60


def test_the_readme_findings_quote_only_pages_whose_data_is_in_the_repository() -> None:
    """A findings page linked from the README's findings is an explanation page, or a page
    written from data in the repository: never one whose store was not kept."""
    from slitherbench.analysis.publish import STORE_NOT_KEPT_TITLE

    findings = README.split("## Main findings", 1)[1].split("\n## ", 1)[0]
    pages = {link.partition("#")[0] for link in relative_links(findings)}
    pages = {p for p in pages if p.startswith("docs/findings/") and p.endswith(".md")}
    assert len(pages) >= 8
    for page in sorted(pages):
        assert STORE_NOT_KEPT_TITLE not in (ROOT / page).read_text(), page


def test_the_findings_table_rows_are_the_main_job_pages_rows() -> None:
    """Each row of the README's table: the page's solved/ran for that form and sampler, and
    the p-value of that sampler's paired comparison."""
    page = (ROOT / "docs" / "findings" / "hubo_vs_qubo.md").read_text()
    rows = re.findall(r"^\| (hubo\[aux\]|qubo) \| (\w+) \| (\d+/\d+) \| (\S+) \|$", README, re.M)
    assert len(rows) == 6
    for form, backend, solved, p in rows:
        assert f"| {form} | {backend} | {solved} |" in page, (form, backend)
        paired = re.search(rf"^\| backend={backend} \|(?:[^|]*\|){{6}} ([^|]+) \|", page, re.M)
        assert paired and paired[1].strip() == p, (backend, p)
