"""Every form x variables x degree mode x cut that an experiment config runs is run as a short
trial here, and must solve a small unique board.

The forms are read from ``conf/experiment/*.yaml`` (each cell's ``formulation_params`` over
the experiment's top-level ``variables`` and ``cut``), so a new experiment's form is tried
without editing this file; the list is asserted complete against the forms known today.
Each runs on a backend that reads the form's own encoding (pyqbpp's EasySolver for cons,
OpenJij on the HUBO directly, dwave SA on the QUBO and on the HUBO the formulation reduced),
not on an exact family that builds its own model from the constraints.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf

from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.run.runner import run_trial
from slitherbench.solvers.cpsat_model import solve_exact

CONF = Path(__file__).resolve().parents[1] / "conf"
SETTINGS = ("variables", "degree_mode", "cut", "strength_scale")
# experiment=faces is documented as run with `variables=edge,face` on the command line (its
# header says so; checked below): its forms run with face variables too.
SWEPT_OVER_VARIABLES = ("faces",)


@functools.cache
def _formulation_config(name: str):
    return OmegaConf.load(CONF / "formulation" / f"{name}.yaml")


def experiment_forms() -> dict[str, dict]:
    """Form label -> its formulation config, over every experiment's cells."""
    forms: dict[str, dict] = {}
    for path in sorted((CONF / "experiment").glob("*.yaml")):
        exp = OmegaConf.load(path)
        top = {k: exp[k] for k in ("variables", "cut") if k in exp}
        variables = [top.get("variables", "edge")]
        if path.stem in SWEPT_OVER_VARIABLES:
            assert "variables=edge,face" in path.read_text(), path
            variables = ["edge", "face"]
        for cell in exp.get("cells") or []:
            own = OmegaConf.to_container(cell.get("formulation_params") or OmegaConf.create({}))
            for v in variables:
                params = {**top, "variables": v, **own}
                cfg = OmegaConf.merge(
                    _formulation_config(str(cell.formulation)),
                    {k: params[k] for k in SETTINGS if k in params},
                )
                forms.setdefault(instantiate(cfg).describe(), OmegaConf.to_container(cfg))
    return forms


FORMS = experiment_forms()
# The forms the experiments used when this was written: one that disappears must be noticed
# (a list built from conf/ never shrinks silently); a new one is run without being listed.
KNOWN = {
    "cons",
    "cons+region",
    "cons/face",
    "hubo[aux]",
    "hubo[aux]+region",
    "hubo[aux]/face",
    "hubo[exact]",
    "hubo[exact]/face",
    "hubo2qubo[aux]",
    "hubo2qubo[aux,x2]",
    "qubo",
    "qubo+region",
    "qubo/face",
    "qubo[lazy]/face",
}
BACKEND = {"cons": "easy", "hubo": "openjij", "hubo2qubo": "sa", "qubo": "sa"}
# A generated 3x3 board with one answer (library.generated(3, 3, 0)).
BOARD = ".3./1.3/1.."


def test_the_experiments_forms_are_all_there() -> None:
    assert FORMS, "no experiment config with cells found under conf/experiment"
    assert set(FORMS) >= KNOWN, sorted(KNOWN - set(FORMS))
    for label, cfg in FORMS.items():  # the labels, and the stored parameters that remake them
        form = instantiate(cfg)
        assert form.describe() == label
        assert type(form)(**form.params()).describe() == label


@pytest.mark.parametrize(
    "label",
    [
        label
        if label in ("qubo[lazy]/face", "cons/face")
        else pytest.param(label, marks=pytest.mark.slow)
        for label in sorted(FORMS)
    ],
)
def test_every_form_an_experiment_uses_solves_a_small_board(label: str) -> None:
    from conftest import make_backend

    p = Puzzle.parse(BOARD)
    form = instantiate(FORMS[label])
    assert form.describe() == label
    backend = make_backend(BACKEND[form.name])
    t = run_trial(p, form, backend, seed=1, max_iterations=30, time_limit_s=20).trial
    assert t.status == "solved" and t.verified, (t.status, t.reason)
    got = answer_from_bits(p, t.answer)
    assert check_answer(p, got) == [] and got == solve_exact(p).answer
