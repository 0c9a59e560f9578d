"""Solver backends. Each is one module; its config file in conf/backend/ names its class."""

from slitherbench.solvers.base import Backend, BackendUnavailable

__all__ = ["Backend", "BackendUnavailable"]
