"""What the exact families' files hold: the constraint description (clue sums, degree rules,
puzzle rules, the edges a presolve fixed, and the cuts a model has gathered), as the exact
backends build it."""

from __future__ import annotations

from slitherbench.models.export.common import ExportError
from slitherbench.models.formulations import CUT_KINDS, Constraint, Model
from slitherbench.models.presolve import fixed_edge


def description_cuts(model: Model, fmt: str) -> list[Constraint]:
    """The constraints beyond the board's description, once the model is checked to be one
    the exact formats hold (the cons form over edge variables; face variables have no such
    file): one equality per edge a presolve fixed (at the build or after a cut, as the exact
    backends add them), then the model's cuts."""
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
    fixed = [fixed_edge(e, v) for e, v in sorted(model.fixed.items())]
    return fixed + [p.constraint for p in model.pieces if p.constraint.kind in CUT_KINDS]


def kind_counts(model: Model) -> str:
    from collections import Counter

    counts = Counter(p.constraint.kind for p in model.pieces)
    return ";".join(f"{k}:{n}" for k, n in sorted(counts.items()))
