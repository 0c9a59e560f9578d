"""Where modules moved: the package's modules once sat side by side at its top; they now sit
in the layers (puzzles, method, models, solvers, sources, store, run, analysis).

Two things still name the old places: stores and tuned files written before the move (a
``_target_`` in a cell's config, and the config hash computed over it), and code written
against the old names. This table is the one place that maps them:

- :func:`legacy_name` turns a new dotted name back into its old one, so that a config hash
  is computed over the names it was computed over before the move (stores keep their hashes);
- :func:`install` lets an old dotted name import the module at its new place (an old
  ``_target_`` resolves; the module object is the same, under both names).

>>> legacy_name("slitherbench.solvers.dwave.SABackend")
'slitherbench.backends.dwave.SABackend'
>>> import importlib; importlib.import_module("slitherbench.backends.dwave").__name__
'slitherbench.solvers.dwave'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

# old module -> new module; the longest matching prefix wins.
MOVED = {
    "slitherbench.puzzle": "slitherbench.puzzles.puzzle",
    "slitherbench.check": "slitherbench.puzzles.check",
    "slitherbench.drawing": "slitherbench.puzzles.drawing",
    "slitherbench.boards": "slitherbench.puzzles.boards",
    "slitherbench.rules": "slitherbench.puzzles.rules",
    "slitherbench.formats": "slitherbench.puzzles.formats",
    "slitherbench.formulations.description": "slitherbench.puzzles.description",
    "slitherbench.colorlink": "slitherbench.puzzles.colorlink",
    "slitherbench.colorlink.generate": "slitherbench.sources.colorlink",
    "slitherbench.record": "slitherbench.method.record",
    "slitherbench.elimination": "slitherbench.method.elimination",
    "slitherbench.provenance": "slitherbench.method.provenance",
    "slitherbench.formulations": "slitherbench.models.formulations",
    "slitherbench.model_size": "slitherbench.models.model_size",
    "slitherbench.backends.encode": "slitherbench.models.encode",
    "slitherbench.export": "slitherbench.models.export",
    "slitherbench.export.__main__": "slitherbench.run.export_cli",
    "slitherbench.export.source": "slitherbench.run.export_source",
    "slitherbench.backends": "slitherbench.solvers",
    "slitherbench.exact": "slitherbench.solvers.cpsat_model",
    "slitherbench.child": "slitherbench.solvers.child",
    "slitherbench.library": "slitherbench.sources.library",
    "slitherbench.generate": "slitherbench.sources.generate",
    "slitherbench.puzzle_sources": "slitherbench.sources.puzzle_sources",
    "slitherbench.store": "slitherbench.store.result_store",
    "slitherbench.results": "slitherbench.store.results",
    "slitherbench.app": "slitherbench.run.app",
    "slitherbench.experiment": "slitherbench.run.experiment",
    "slitherbench.plan": "slitherbench.run.plan",
    "slitherbench.runner": "slitherbench.run.runner",
    "slitherbench.console": "slitherbench.run.console",
    "slitherbench.overrides": "slitherbench.run.overrides",
    "slitherbench.tune": "slitherbench.run.tune",
    "slitherbench.frontier": "slitherbench.run.frontier",
    "slitherbench.reference": "slitherbench.run.reference",
    "slitherbench.tables": "slitherbench.analysis.tables",
    "slitherbench.stats": "slitherbench.analysis.stats",
    "slitherbench.compare": "slitherbench.analysis.compare",
    "slitherbench.report": "slitherbench.analysis.report",
    "slitherbench.publish": "slitherbench.analysis.publish",
    "slitherbench.benchmark_page": "slitherbench.analysis.benchmark_page",
    "slitherbench.render": "slitherbench.analysis.render",
    "slitherbench.plots": "slitherbench.analysis.plots",
}
# Names that are real modules again after the move (entry points kept at their old names).
_REAL = frozenset(
    {
        "slitherbench.export",
        "slitherbench.export.__main__",
        "slitherbench.report",
        "slitherbench.store",
    }
)
_LAYERS = (
    "puzzles",
    "deduction",
    "method",
    "models",
    "solvers",
    "sources",
    "store",
    "run",
    "analysis",
)
_BACK = {new: old for old, new in MOVED.items()}


def _longest(name: str, table: dict[str, str]) -> str | None:
    best = None
    for k in table:
        if (name == k or name.startswith(k + ".")) and (best is None or len(k) > len(best)):
            best = k
    return best


def new_name(name: str) -> str:
    """The current dotted name of a module or object named by its old name (unchanged if it
    did not move)."""
    k = _longest(name, MOVED)
    return name if k is None else MOVED[k] + name[len(k) :]


def legacy_name(name: str) -> str:
    """The dotted name a new module or object had before the move (unchanged if it did not
    move): what config hashes are computed over."""
    k = _longest(name, _BACK)
    return name if k is None else _BACK[k] + name[len(k) :]


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec):  # the module at its new place, under its old name too
        return importlib.import_module(self.target)

    def exec_module(self, module) -> None:
        pass


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname in _REAL or _longest(fullname, MOVED) is None:
            return None
        if fullname.split(".")[1] in _LAYERS:  # a module at its new place
            return None
        new = new_name(fullname)
        if new == fullname:
            return None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(new))


def install() -> None:
    """Let the old dotted names import (once per process)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
