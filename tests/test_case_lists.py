"""The suite's case lists are complete: every list the sweeps are built from
(``conf/`` files, the package's classes) is non-empty and names everything the package has,
so a renamed folder or a missing file fails here instead of silently shrinking a sweep; and
a skip is a pass only for an expected reason (item 4).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from conftest import (
    BACKENDS,
    CORPUS_RECORDS,
    EXPECTED_SKIPS,
    constraint_backends,
    formulation_factories,
    grid_records,
    skip_for,
    skip_kind,
)
from omegaconf import OmegaConf

import slitherbench.solvers
from slitherbench.models.formulations.base import Formulation
from slitherbench.solvers.base import Backend
from slitherbench.solvers.constraints import ConstraintBackend

CONF = Path(__file__).resolve().parents[1] / "conf"
# Backends that are no solver of the study: the deliberately failing one (crash tests).
NOT_IN_CONF = {"slitherbench.solvers.faulty.FaultyBackend"}


def _subclasses(cls: type) -> set[type]:
    """The package's subclasses (not those other test files define, e.g. crafted backends)."""
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub, *_subclasses(sub)}
    return {c for c in out if c.__module__.startswith("slitherbench.")}


def _backend_classes() -> set[str]:
    for m in pkgutil.iter_modules(slitherbench.solvers.__path__):
        importlib.import_module(f"slitherbench.solvers.{m.name}")
    return {
        f"{c.__module__}.{c.__qualname__}"
        for c in _subclasses(Backend)
        if not inspect.isabstract(c) and "name" in vars(c)
    }


def test_every_backend_class_has_a_config_and_every_config_a_class() -> None:
    targets = {str(OmegaConf.load(CONF / "backend" / f"{b}.yaml")["_target_"]): b for b in BACKENDS}
    assert len(BACKENDS) >= 15, BACKENDS
    assert set(targets) == _backend_classes() - NOT_IN_CONF


def test_every_formulation_class_is_in_the_sweeps() -> None:
    forms = formulation_factories()
    made = {type(f()) for f in forms.values()}
    assert made == _subclasses(Formulation)
    assert {"cons", "hubo", "qubo", "hubo-exact"} <= set(forms)


def test_the_exact_families_list_holds_every_constraint_backend() -> None:
    names = constraint_backends()
    assert set(names) >= {"cplex", "exact", "mip", "sat", "smt"}
    classes = {
        f"{c.__module__}.{c.__qualname__}"
        for c in _subclasses(ConstraintBackend)
        # the backends; not a helper reusing their encoding (export's clause writer)
        if not inspect.isabstract(c) and c.__module__.startswith("slitherbench.solvers.")
    }
    assert len(names) == len(classes)


def test_the_corpora_are_complete() -> None:
    assert len(CORPUS_RECORDS) == 60
    assert len({(d["rows"], d["cols"]) for d in CORPUS_RECORDS}) >= 6
    records = grid_records()
    assert len(records) == 58 and {r["loopy_type"] for r in records} == set(range(16))


def test_conf_groups_are_not_empty() -> None:
    for group in ("backend", "formulation", "experiment", "puzzle"):
        assert list((CONF / group).glob("*.yaml")), group


# -- skips by reason ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("CPLEX Community Edition solves at most 1000 variables and 1000 constraints; "
         "this model has 2000 variables and 10 constraints", "size limit"),
        ("torch is not installed; install it to use backend sb", "optional package missing"),
        ("license_limit (needs 220, limit 100; set QBPP_LICENSE_KEY)", "licence"),
    ],
)  # fmt: skip
def test_an_expected_skip_reason_is_named_by_its_kind(reason: str, kind: str) -> None:
    assert skip_kind(reason) == kind
    with pytest.raises(pytest.skip.Exception, match=f"^{kind}: "):
        skip_for(reason)


@pytest.mark.parametrize(
    "reason",
    [
        None,
        "",
        "RuntimeError: something broke",
        "the ZDD cannot take a rules puzzle",
        "license_limit (needs 220, limit 100)\nTraceback ...",  # not one line
    ],
)
def test_any_other_skip_reason_fails_the_test(reason: str | None) -> None:
    with pytest.raises(pytest.fail.Exception, match="unexpected reason"):
        skip_for(reason)
    assert skip_kind("the ZDD cannot take it", {"zdd": ("ZDD cannot take",)}) == "zdd"
    assert set(EXPECTED_SKIPS) == {"size limit", "optional package missing", "licence"}
