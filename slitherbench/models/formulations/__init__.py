"""Formulations: cons (native constraints), hubo (loop products), hubo2qubo (the HUBO reduced
to a quadratic model, :mod:`.reduced`) and qubo (aux + slack), each over one binary per edge
(the page) or, with ``variables="face"``, one per face (:mod:`.faces`: x_e = c_f XOR c_g
substituted into every constraint)."""

from slitherbench.models.formulations.base import (
    CUT_KINDS,
    CUTS,
    Constraint,
    Formulation,
    FormUnavailable,
    Model,
    base_constraints,
    cut_constraint,
    region_constraint,
    region_partner,
    region_parts,
    sample_cuts,
)
from slitherbench.models.formulations.cons import ConsFormulation
from slitherbench.models.formulations.hubo import HuboFormulation
from slitherbench.models.formulations.qubo import QuboFormulation
from slitherbench.models.formulations.reduced import ReducedHuboFormulation

__all__ = [
    "CUTS",
    "CUT_KINDS",
    "ConsFormulation",
    "Constraint",
    "FormUnavailable",
    "Formulation",
    "HuboFormulation",
    "Model",
    "QuboFormulation",
    "ReducedHuboFormulation",
    "base_constraints",
    "cut_constraint",
    "region_constraint",
    "region_partner",
    "region_parts",
    "sample_cuts",
]
