"""Formulations: cons (native constraints), hubo (loop products) and qubo (aux + slack)."""

from .base import Constraint, Formulation, Model, base_constraints, cut_constraint
from .cons import ConsFormulation
from .hubo import HuboFormulation
from .qubo import QuboFormulation

__all__ = [
    "ConsFormulation",
    "Constraint",
    "Formulation",
    "HuboFormulation",
    "Model",
    "QuboFormulation",
    "base_constraints",
    "cut_constraint",
]
