"""What the exact families' files hold: the constraint description (clue sums, degree rules,
puzzle rules, and the cuts a model has gathered), as the exact backends build it."""

from __future__ import annotations

from slitherbench.models.export.common import ExportError
from slitherbench.models.formulations import CUT_KINDS, Constraint, Model


def description_cuts(model: Model, fmt: str) -> list[Constraint]:
    """The model's cuts, once it is checked to be one the exact formats hold: the cons form
    over edge variables (the description is over edges; face variables have no such file)."""
    form = model.formulation
    if not form.native:
        raise ExportError(
            f"format {fmt} holds the constraint description (form=cons); the "
            f"{form.describe()} form is a penalty polynomial: write it as qplib, bqm or hubo-json"
        )
    if form.faces:
        raise ExportError(
            f"format {fmt} holds the constraint description over edge variables; "
            f"{form.describe()} has face variables: use variables=edge"
        )
    return [p.constraint for p in model.pieces if p.constraint.kind in CUT_KINDS]


def kind_counts(model: Model) -> str:
    from collections import Counter

    counts = Counter(p.constraint.kind for p in model.pieces)
    return ";".join(f"{k}:{n}" for k, n in sorted(counts.items()))
