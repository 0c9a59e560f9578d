"""Loopy's grids rebuilt here match Loopy's own: dots, faces and edges, in Loopy's order.

``shared/corpus/loopy_grids_dev.jsonl`` holds 58 puzzles made by Loopy (sgt-puzzles
20230122) on every grid type, with the geometry Loopy built for each: the reference.
"""

from __future__ import annotations

import pytest
from conftest import grid_records

from slitherbench.puzzles.boards.loopy import GridError, grid_type, grid_types, loopy_grid

# ../shared's grid corpus: missing or incomplete, collection stops with one line (conftest).
GRID_RECORDS = grid_records()


def grid_desc(record: dict) -> str | None:
    """The grid description of a game ID (``0`` or ``G541,2567,324``), None when absent."""
    desc = record["loopy_id"].split(":", 1)[1]
    return desc.split("_", 1)[0] if "_" in desc else None


@pytest.mark.parametrize("record", GRID_RECORDS, ids=[r["id"] for r in GRID_RECORDS])
def test_grid_matches_loopy(record: dict) -> None:
    grid = loopy_grid(record["loopy_type"], record["w"], record["h"], grid_desc(record))
    assert [list(d) for d in grid.dots] == record["dots"]
    assert [list(f) for f in grid.faces] == record["faces"]
    assert [list(e) for e in grid.edges] == record["edges"]
    assert [list(f) for f in grid.face_edges] == record["face_edges"]
    assert [list(f) for f in grid.edge_faces] == record["edge_faces"]
    assert len(record["clues"]) == grid.num_faces


def test_every_loopy_grid_type_is_here() -> None:
    assert sorted(grid_types()) == list(range(16))
    assert {r["loopy_type"] for r in GRID_RECORDS} == set(range(16))


@pytest.mark.parametrize("loopy_type", range(16))
def test_face_bound_holds(loopy_type: int) -> None:
    gt = grid_type(loopy_type)
    for w, h in [(gt.amin + 2, gt.amin + 1), (gt.amin + 4, gt.amin + 4)]:
        desc = gt.new_desc(w, h, __import__("random").Random(1))
        grid = loopy_grid(loopy_type, w, h, desc)
        assert grid.num_faces <= gt.face_bound(w, h)


@pytest.mark.parametrize("loopy_type", range(16))
def test_sizes_below_limits_and_huge_sizes_are_one_line_errors(loopy_type: int) -> None:
    gt = grid_type(loopy_type)
    with pytest.raises(GridError, match="at least"):
        loopy_grid(loopy_type, gt.amin - 1, gt.amin + 3, None)
    with pytest.raises(GridError, match="at most"):
        loopy_grid(loopy_type, 99999, 99999, None)
