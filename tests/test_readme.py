"""The README a newcomer reads first: its findings at the top, each pointing to a measured
table, and a table of contents whose every link lands on a heading."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors() -> set[str]:
    out, fenced = set(), False
    for line in README.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^#{1,6} (.+)$", line)):
            out.add(github_anchor(m[1]))
    return out


def test_every_in_page_link_lands_on_a_heading() -> None:
    links = re.findall(r"\]\(#([^)]+)\)", README)
    assert len(links) >= 10
    missing = sorted(set(links) - anchors())
    assert missing == []


def test_the_findings_come_first_and_each_points_to_its_table() -> None:
    top = README.split("\n## ", 1)[0]  # everything before the first section
    assert "**What we found**" in top and "**Contents**" in top
    bullets = re.findall(r"^- \*\*.+?(?=^- |\n\n)", top, flags=re.S | re.M)
    assert len(bullets) >= 4
    for b in bullets:
        assert re.search(r"\]\(#[^)]+\)", b), b  # a link to the measured table
    # Every section is reachable from the contents.
    contents = top.split("**Contents**", 1)[1]
    for line in README.splitlines():
        if line.startswith("## "):
            assert f"(#{github_anchor(line[3:])})" in contents, line
