"""Provenance: what a store records about the run that made it (the command as it ran, the
package's version, whether the code that ran had local changes), and what a page says of it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from slitherbench import __version__
from slitherbench.analysis import publish
from slitherbench.method import provenance
from slitherbench.store.results import load

ROOT = Path(__file__).resolve().parents[1]
OLD_STORE = ROOT / "tests" / "data" / "store_v0_1"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A committed checkout with the package's and the configs' top folders."""
    for name in ("slitherbench/__init__.py", "conf/config.yaml", "docs/index.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / ".gitignore").write_text("__pycache__/\n")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return tmp_path


@needs_git
def test_a_clean_checkout_records_its_bare_commit(checkout: Path) -> None:
    commit, changed = provenance.git_state(checkout)
    assert len(commit) == 12 and not commit.endswith("-dirty") and changed == []


@needs_git
@pytest.mark.parametrize(
    "change",
    ["slitherbench/my_plugin.py", "conf/backend/mine.yaml", "slitherbench/__init__.py"],
    ids=["untracked plugin module", "untracked config", "edited module"],
)
def test_an_untracked_or_changed_file_under_the_code_makes_the_run_dirty(
    checkout: Path, change: str
) -> None:
    path = checkout / change
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("y = 2\n")
    commit, changed = provenance.git_state(checkout)
    assert commit.endswith("-dirty")
    assert changed == [change]


@needs_git
def test_changes_outside_the_code_and_ignored_files_leave_the_run_clean(checkout: Path) -> None:
    (checkout / "docs" / "index.md").write_text("edited\n")
    (checkout / "notes.txt").write_text("untracked, outside the code\n")
    (checkout / "slitherbench" / "__pycache__").mkdir()
    (checkout / "slitherbench" / "__pycache__" / "x.pyc").write_bytes(b"ignored")
    commit, changed = provenance.git_state(checkout)
    assert not commit.endswith("-dirty") and changed == []


def test_the_package_version_is_the_code_that_ran() -> None:
    assert provenance.provenance()["version_slitherbench"] == __version__


def test_a_run_from_python_records_no_command_unless_a_run_passed_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(provenance.COMMAND_ENV, raising=False)
    assert provenance.run_command() == {"command": "", "config_name": "", "overrides": ""}
    monkeypatch.setenv(provenance.COMMAND_ENV, "python -m slitherbench repetitions=1")
    assert provenance.run_command()["command"] == "python -m slitherbench repetitions=1"


def test_a_page_from_an_old_store_says_what_it_did_not_record() -> None:
    """Stores from before the command was recorded still load and publish."""
    trials, _ = load(OLD_STORE)
    assert "command" not in trials
    table = publish.provenance_table(trials, "python -m slitherbench experiment=smoke")
    assert (
        "| command | `python -m slitherbench experiment=smoke` (not recorded by the store: "
        "as given when publishing) |" in table
    )
    assert "| Hydra config | not recorded |" in table
    assert "| slitherbench version | `0.1.0` |" in table
    assert publish.dirty_note(trials) == []


def test_a_store_of_old_and_new_trials_says_which_did_not_record_their_command() -> None:
    trials, _ = load(OLD_STORE)
    trials["command"] = ["python -m slitherbench repetitions=1", None, "", None]
    table = publish.provenance_table(trials, "python -m slitherbench experiment=smoke")
    expected = "`python -m slitherbench repetitions=1`; 3 trial(s) did not record theirs"
    assert f"| command | {expected} |" in table


def test_a_page_from_a_dirty_store_says_so_and_names_the_changes() -> None:
    trials, _ = load(OLD_STORE)
    trials["git_commit"] = "0a63d1db6546-dirty"
    trials["git_changes"] = "slitherbench/my_plugin.py"
    note = "\n".join(publish.dirty_note(trials))
    assert note.startswith('!!! warning "Run from a checkout with local changes"')
    assert "`0a63d1db6546-dirty`" in note and "`slitherbench/my_plugin.py`" in note


@pytest.mark.slow
def test_a_run_with_overrides_publishes_them_and_a_dirty_run_says_so_at_the_top(
    tmp_path: Path,
) -> None:
    """The command line as it ran (every override) reaches the store and the page; a copy of
    the package with an untracked module in it records, and publishes, a dirty run."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    shutil.copytree(
        ROOT / "slitherbench", repo / "slitherbench", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "conf", repo / "conf")
    (repo / ".gitignore").write_text("__pycache__/\n")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    (repo / "slitherbench" / "my_plugin.py").write_text("# an untracked plugin module\n")
    store = tmp_path / "store"
    overrides = ["puzzle=tiny", "formulation=cons", "backend=exact", "repetitions=1"]
    overrides += ["time_limit_s=5", f"results_dir={store}", "progress=false"]
    env = {**os.environ, "PYTHONPATH": str(repo), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop(provenance.COMMAND_ENV, None)
    run = subprocess.run(
        [sys.executable, "-m", "slitherbench", *overrides],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    trials, iterations = load(store)
    assert set(trials["command"]) == {"python -m slitherbench " + " ".join(overrides)}
    assert set(trials["config_name"]) == {"config"}
    assert set(trials["overrides"]) == {" ".join(overrides)}
    assert all(c.endswith("-dirty") for c in trials["git_commit"])
    assert set(trials["git_changes"]) == {"slitherbench/my_plugin.py"}
    files = publish.publish(trials, iterations, tmp_path / "docs" / "page", [str(store)])
    page = files[0].read_text()
    head = page.split("## How it was made")[0]
    assert '!!! warning "Run from a checkout with local changes"' in head
    assert "`slitherbench/my_plugin.py`" in head
    assert f"| command | `python -m slitherbench {' '.join(overrides)}` |" in page
    assert f"| slitherbench version | `{__version__}` |" in page


def test_marking_a_page_whose_store_was_not_kept(tmp_path: Path) -> None:
    """The warning goes under the title once; a page whose store is in the repository, or a
    page not published from a store, is left alone."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "kept" / "parts").mkdir(parents=True)
    body = (
        "# Title\n\n"
        '!!! note "Published from a store"\n'
        "    Written by `python -m slitherbench.report {store} --publish docs/x`\n\n"
        "| git commit(s) | `abc-dirty` |\n"
    )
    gone, kept, other = (tmp_path / "docs" / f"{n}.md" for n in ("gone", "kept", "other"))
    gone.write_text(body.format(store="results/gone"))
    kept.write_text(body.format(store="kept"))
    other.write_text("# A page of prose\n")
    assert publish.mark_store_not_kept(gone, tmp_path)
    text = gone.read_text()
    assert text.startswith("# Title\n\n" + publish.store_not_kept_note(["results/gone"]))
    assert "Run from a checkout with local changes" in text.split("Published from a store")[0]
    assert not publish.mark_store_not_kept(gone, tmp_path)  # once
    assert gone.read_text() == text
    assert not publish.mark_store_not_kept(kept, tmp_path)
    assert not publish.mark_store_not_kept(other, tmp_path)
    assert kept.read_text() == body.format(store="kept")


def test_every_store_page_has_its_store_committed_or_says_it_was_not_kept() -> None:
    """A page published from a store either regenerates from a store in the repository
    (test_docs) or opens with the not-kept warning, exactly as the marking script writes it."""
    pages = sorted((ROOT / "docs" / "findings").glob("*.md"))
    checked = 0
    for page in pages:
        text = page.read_text()
        args = publish.written_by(text)
        if args is None:
            continue
        stores = args[: args.index("--publish")]
        if all(publish.store_is_kept(s, ROOT) for s in stores):
            assert publish.STORE_NOT_KEPT_TITLE not in text, page.name
        else:
            assert publish.store_not_kept_note(stores) in text.split("## How it was made")[0]
        checked += 1
    assert checked >= 20


def test_every_prose_page_that_explains_unkept_pages_says_so() -> None:
    """The warning a prose findings page opens with names exactly the linked pages whose
    stores were not kept, as the marking script writes it (running it changes nothing)."""
    checked = 0
    for page in sorted((ROOT / "docs" / "findings").glob("*.md")):
        text = page.read_text()
        if publish.written_by(text) is not None or page.name == "index.md":
            continue
        links = {m.partition("#")[0] for m in re.findall(r"\]\(([^)\s]+)\)", text)}
        gone = sorted(
            link
            for link in links
            if link.endswith(".md")
            and (page.parent / link).is_file()
            and publish.STORE_NOT_KEPT_TITLE in (page.parent / link).read_text()
        )
        if gone:
            assert publish.explains_not_kept_note(gone) in text, page.name
            checked += 1
        else:
            assert publish.EXPLAINS_NOT_KEPT_TITLE not in text, page.name
    assert checked >= 5


def test_marking_an_explanation_page_follows_its_links(tmp_path: Path) -> None:
    gone, kept, prose = (tmp_path / f"{n}.md" for n in ("gone", "kept", "prose"))
    gone.write_text(f'# Gone\n\n!!! warning "{publish.STORE_NOT_KEPT_TITLE}"\n    x\n')
    kept.write_text("# Kept\n")
    prose.write_text("# Prose\n\nSee [gone](gone.md) and [kept](kept.md#top).\n")
    assert publish.mark_explanation(prose)
    assert prose.read_text().startswith("# Prose\n\n" + publish.explains_not_kept_note(["gone.md"]))
    assert not publish.mark_explanation(prose)  # once
    gone.write_text("# Gone, now kept\n")
    assert publish.mark_explanation(prose)  # the warning goes when no linked page needs it
    assert prose.read_text() == "# Prose\n\nSee [gone](gone.md) and [kept](kept.md#top).\n"
