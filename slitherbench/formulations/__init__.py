"""Formulations: cons (native constraints), hubo (loop products) and qubo (aux + slack)."""

from .base import (
    CUT_KINDS,
    CUTS,
    Constraint,
    Formulation,
    Model,
    base_constraints,
    cut_constraint,
    region_constraint,
    region_partner,
    region_parts,
    sample_cuts,
)
from .cons import ConsFormulation
from .hubo import HuboFormulation
from .qubo import QuboFormulation

__all__ = [
    "CUTS",
    "CUT_KINDS",
    "ConsFormulation",
    "Constraint",
    "Formulation",
    "HuboFormulation",
    "Model",
    "QuboFormulation",
    "base_constraints",
    "cut_constraint",
    "region_constraint",
    "region_partner",
    "region_parts",
    "sample_cuts",
]
