"""Mark the findings pages whose store is not in the repository (``docs/findings/*.md``
published from a store under ``results/`` or a temporary folder that was not kept): each gets
the same warning under its title, written by :func:`slitherbench.analysis.publish.mark_store_not_kept`,
so that a reader knows the page can be read but not regenerated or checked; and a prose page
that explains such pages gets a warning naming them (:func:`slitherbench.analysis.publish.mark_explanation`).

    python experiments/mark_store_not_kept.py [PAGE ...]   (default: every findings page)
"""

from __future__ import annotations

import sys
from pathlib import Path

from slitherbench.analysis.publish import mark_explanation, mark_store_not_kept
from slitherbench.method.entry import run_command

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    pages = [Path(a) for a in argv] or sorted((ROOT / "docs" / "findings").glob("*.md"))
    marked = 0
    for page in pages:
        if not page.is_file():
            print(f"error: page {page}: no such file", file=sys.stderr)
            return 2
        if mark_store_not_kept(page, ROOT):
            print(f"marked: {page}")
            marked += 1
    for page in pages:  # then the prose pages that explain them
        if mark_explanation(page):
            print(f"marked as explaining pages whose stores were not kept: {page}")
            marked += 1
    print(f"{marked} page(s) marked of {len(pages)}; the others are marked already, kept, or prose")
    return 0


if __name__ == "__main__":
    run_command(main)
