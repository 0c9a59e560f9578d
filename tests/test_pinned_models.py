"""Every encoder's output pinned: the model each form builds (its polynomial term by term in
order, each piece's auxiliaries, a native constraint's left-hand side, the label count) on
the contract boards of ``tests/test_encoder_contracts.py`` (a No-Square 4x4, a two-colour
Colorlink, a triangular board) and a corpus 5x5, with a loop cut and a region cut added.

The digests were taken at commit 93f0ad6, before the forms' encoders were rewritten over the
variables' edge expressions (one encoder per form, :mod:`slitherbench.models.formulations.variables`);
the rewrite kept every one. A change of a digest changes what the samplers search (and, with
a seed, what they find): make it on purpose, and say so with the new digests.
"""

from __future__ import annotations

import hashlib

import pytest
from test_encoder_contracts import FORMS, build, puzzles

from slitherbench.models.formulations import HuboFormulation, Model, QuboFormulation
from slitherbench.sources.library import loopy_dev

PINNED = {
    "no_square cons": "2cd8bd4f2df5",
    "no_square hubo[aux]": "49befae792bb",
    "no_square hubo[exact]": "5ac16cb82ee2",
    "no_square hubo→qubo": "c4652eddf807",
    "no_square qubo": "a94023257f22",
    "no_square cons/face": "6a09cc26582a",
    "no_square hubo[aux]/face": "3c0595ee4302",
    "no_square hubo[exact]/face": "ee00dc8284dd",
    "no_square qubo/face": "a1037baf7286",
    "no_square qubo[lazy]/face": "ed096872e5bf",
    "no_square hubo[aux]+region": "49befae792bb",
    "no_square qubo+region": "a94023257f22",
    "colorlink cons": "8ec8c7ab1585",
    "colorlink hubo[aux]": "ece8673d2f4b",
    "colorlink hubo[exact]": "43b73c9c04b0",
    "colorlink hubo→qubo": "f7249850002a",
    "colorlink qubo": "58615d2cb8f0",
    "colorlink cons/face": "09d2f7ce54b4",
    "colorlink hubo[aux]/face": "d2ae163154d5",
    "colorlink hubo[exact]/face": "f8d99a08ba07",
    "colorlink qubo/face": "FormUnavailable",
    "colorlink qubo[lazy]/face": "FormUnavailable",
    "colorlink hubo[aux]+region": "ece8673d2f4b",
    "colorlink qubo+region": "58615d2cb8f0",
    "triangular cons": "f0e1c1278bb6",
    "triangular hubo[aux]": "f33e4745b4c4",
    "triangular hubo[exact]": "2f31d7f6773b",
    "triangular hubo→qubo": "1d13449693f3",
    "triangular qubo": "3b613fbd1102",
    "triangular cons/face": "26ba72e6d75b",
    "triangular hubo[aux]/face": "69e0b74dea55",
    "triangular hubo[exact]/face": "e498c5bb645a",
    "triangular qubo/face": "6ea459d30d1c",
    "triangular qubo[lazy]/face": "470faac63b4d",
    "triangular hubo[aux]+region": "f33e4745b4c4",
    "triangular qubo+region": "3b613fbd1102",
    "loopy5 cons": "5298325b6f79",
    "loopy5 hubo[aux]": "49132b10d689",
    "loopy5 hubo[exact]": "cfba1058e689",
    "loopy5 hubo→qubo": "84d1255edf43",
    "loopy5 qubo": "6b02a44d5d06",
    "loopy5 cons/face": "e84ca2dbcdf4",
    "loopy5 hubo[aux]/face": "9588f0e467d7",
    "loopy5 hubo[exact]/face": "c14b4e2a7089",
    "loopy5 qubo/face": "0cfc5d238702",
    "loopy5 qubo[lazy]/face": "874e2e842da8",
    "loopy5 hubo[aux]+region": "49132b10d689",
    "loopy5 qubo+region": "6b02a44d5d06",
}

FORMS_PINNED = {
    **FORMS,
    "hubo[aux]+region": lambda **w: HuboFormulation(cut="region", **w),
    "qubo+region": lambda **w: QuboFormulation(cut="region", **w),
}


def digest(model: Model) -> str:
    parts = [repr(model.next_label), repr(model.labels)]
    for pc in model.pieces:
        parts.append(repr((pc.constraint.kind, pc.constraint.index, pc.aux,
                           None if pc.poly is None else list(pc.poly.items()),
                           None if pc.lhs is None else list(pc.lhs.items()),
                           None if pc.native is None else pc.native.weight)))  # fmt: skip
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:12]


@pytest.mark.parametrize("case", sorted(PINNED))
def test_every_model_is_the_pinned_one(case: str) -> None:
    board, form = case.split(" ", 1)
    puzzle = loopy_dev()[0] if board == "loopy5" else puzzles()[board]
    try:
        got = digest(
            build(puzzle, FORMS_PINNED[form](clue_weight=2, degree_weight=3, cut_weight=5))
        )
    except Exception as exc:  # a pinned refusal (qubo on faces across colours)
        got = type(exc).__name__
    assert got == PINNED[case]


def test_the_pins_cover_every_form_on_every_board() -> None:
    boards = {"loopy5", *puzzles()}
    assert set(PINNED) == {f"{b} {f}" for b in boards for f in FORMS_PINNED}
