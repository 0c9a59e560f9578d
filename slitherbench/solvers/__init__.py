"""Solvers: the backends, one module each; its config file in ``conf/backend/`` names its class.

Holds the annealers (pyqbpp's ABS3 and EASY, dwave-samplers, OpenJij, parallel tempering,
simulated bifurcation), the exact families on one base (:mod:`.constraints`: CP-SAT, SAT,
HiGHS, CPLEX, z3; :mod:`.cpsat_model`, the CP-SAT model and ``solve_exact``), the ZDD, any
solver by command (:mod:`.external`), and the child process a trial may run in
(:mod:`.child`). A backend sees neutral data: a model's polynomial or constraint rows.

Imports: :mod:`slitherbench.models` and the layers below it.
"""

from slitherbench.solvers.base import Backend, BackendUnavailable

__all__ = ["Backend", "BackendUnavailable"]
