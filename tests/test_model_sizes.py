"""Model sizes: the per-solve size columns (slitherbench/models/model_size.py) and the report item
that reads them (slitherbench/analysis/plots/model_sizes.py), checked against the models themselves."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import time
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

from slitherbench.models.formulations import (
    ConsFormulation,
    Formulation,
    HuboFormulation,
    Model,
    QuboFormulation,
    ReducedHuboFormulation,
    sample_cuts,
)
from slitherbench.models.model_size import SizeTracker, measure
from slitherbench.puzzles.check import split_loops
from slitherbench.puzzles.puzzle import Puzzle

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
OLD_STORE = ROOT / "tests" / "data" / "store_v0_1"
# 5x5 with a row of 0s across the middle: every solution is a loop above and one below, so
# every trial cuts (tests/test_runner.py's board).
TWO_ROOMS = Puzzle.from_rows(["1....", ".....", "00000", ".....", "1...."], name="two_rooms")
FORMS = {
    "cons": ConsFormulation,
    "hubo": HuboFormulation,
    "hubo_exact": lambda **kw: HuboFormulation(degree_mode="exact", **kw),
    "qubo": QuboFormulation,
    "qubo_region": lambda **kw: QuboFormulation(cut="region", **kw),
    "hubo_face": lambda **kw: HuboFormulation(variables="face", **kw),
    "qubo_face": lambda **kw: QuboFormulation(variables="face", **kw),
    "cons_face": lambda **kw: ConsFormulation(variables="face", **kw),
    "hubo2qubo": ReducedHuboFormulation,
    "hubo2qubo_face": lambda **kw: ReducedHuboFormulation(variables="face", **kw),
}


def direct(model: Model) -> dict:
    """The size columns counted straight from the model's labels, terms and constraints."""
    names = [model.label_name(label)[0] for label in model.labels]
    terms = {} if model.formulation.native else model.polynomial()
    degrees = [len(t) for t, c in terms.items() if t and c]
    degrees += [len(p.constraint.edges) for p in model.pieces if p.native is not None]
    size = [abs(c) for t, c in terms.items() if t and c]
    return {
        "board_variables": names.count("x") + names.count("c"),
        "point_auxiliaries": names.count("y"),
        "slack_variables": names.count("s"),
        "reduction_auxiliaries": names.count("z"),
        "terms_by_degree": [degrees.count(d) for d in range(1, max(degrees, default=0) + 1)],
        "coeff_min_abs": float(min(size, default=0)),
        "coeff_max_abs": float(max(size, default=0)),
    }


def random_loops(puzzle: Puzzle, rng: random.Random) -> list[list[int]]:
    """The loops around a random set of faces (what a sample's loops look like to a cut)."""
    inside = [rng.random() < 0.35 for _ in range(puzzle.num_faces)]
    return split_loops(puzzle, puzzle.board.boundary(inside))


@pytest.mark.parametrize("name", FORMS)
def test_the_tracked_size_is_the_models_own_after_every_cut(name: str) -> None:
    form: Formulation = FORMS[name]()
    model = Model.build(TWO_ROOMS, form)
    size, rng = SizeTracker(), random.Random(3)
    first = size.update(model)
    assert first == direct(model) == measure(model)
    board = TWO_ROOMS.num_faces if form.faces else TWO_ROOMS.num_edges
    assert first["board_variables"] == board
    before: list[list[int]] = []
    for _ in range(6):
        loops = random_loops(TWO_ROOMS, rng)
        for c in sample_cuts(TWO_ROOMS, loops, form.cut, model.num_cuts):
            model._add(c)
        if form.cut == "loop":  # a loop cut again, now and later: terms that sum
            for lp in [*loops[:1], *before[:1]]:
                model.add_cut(lp)
        before = loops or before
        got = size.update(model)
        assert got == direct(model)
        roles = ("board_variables", "point_auxiliaries", "slack_variables", "reduction_auxiliaries")
        assert sum(got[r] for r in roles) == model.num_variables
        assert sum(got["terms_by_degree"]) == model.num_terms
        assert len(got["terms_by_degree"]) == model.max_degree
    assert size.update(model) == direct(model)  # a retry: nothing added


def test_tracking_a_10x10_hubo_costs_well_under_a_millisecond_per_solve() -> None:
    from slitherbench.sources.library import reference10

    p = reference10()
    model = Model.build(p, HuboFormulation())
    size, rng, spent = SizeTracker(), random.Random(1), []
    size.update(model)
    for _ in range(20):
        model.add_cuts(random_loops(p, rng)[:3])
        t0 = time.perf_counter()
        size.update(model)
        spent.append(time.perf_counter() - t0)
    assert np.median(spent) < 1e-3, spent


def _run_store(root: Path) -> Path:
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.dwave import SABackend
    from slitherbench.solvers.exact import ExactBackend
    from slitherbench.store.result_store import ResultStore

    store = ResultStore(root)
    cells = [
        (ConsFormulation(), ExactBackend()),
        (HuboFormulation(), SABackend(num_sweeps=300, num_reads=2)),
        (QuboFormulation(), SABackend(num_sweeps=300, num_reads=2)),
        (HuboFormulation(variables="face"), SABackend(num_sweeps=300, num_reads=2)),
        (ReducedHuboFormulation(), SABackend(num_sweeps=300, num_reads=2)),
    ]
    tiny = Puzzle.from_rows(["3.", ".."], name="two_by_two")
    for k, (form, backend) in enumerate(cells):
        for p in (tiny, TWO_ROOMS):
            for seed in (0, 1):
                r = run_trial(p, form, backend, seed=seed, max_iterations=3, isolate=False)
                t = r.trial
                t.key, t.config_hash, t.experiment = f"c{k}-{p.name}-r{seed}", f"c{k}", "sizes"
                t.puzzle_rows, t.formulation_params = p.to_text(), json.dumps(form.params())
                store.write(t, r.iterations)
    return root


@pytest.fixture(scope="module")
def sized_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run_store(tmp_path_factory.mktemp("sizes") / "store")


@pytest.mark.slow
def test_the_model_size_report_item_on_a_small_store(sized_store: Path, tmp_path: Path) -> None:
    from slitherbench.analysis.report import build_report
    from slitherbench.run.export_source import replay
    from slitherbench.store.results import load

    store = sized_store
    trials, iterations = load(store)
    assert len(trials) == 20
    # Every stored solve's size is the size of the model replayed from the store to it.
    for _, t in trials.iterrows():
        its = iterations[iterations.key == t.key].sort_values("iteration")
        for (model, _), row in zip(replay(store, t, its), its.itertuples(), strict=True):
            assert {k: _plain(getattr(row, k)) for k in direct(model)} == direct(model)
            extras = json.loads(row.extras)
            assert row.backend_reduction_auxiliaries == extras.get("reduction_added", 0)
        first = its.iloc[0]
        puzzle = TWO_ROOMS if t.puzzle == "two_rooms" else Puzzle.parse(t.puzzle_rows)
        built = Model.build(puzzle, _form(t))
        assert first.board_variables == (puzzle.num_faces if built.faces else puzzle.num_edges)
        assert first.num_variables == built.num_variables
    # The HUBO's products reach dwave SA through its reduction: product variables counted,
    # outside the model; the hubo2qubo form's own products are model variables (z).
    hubo_sa = iterations[iterations.key.str.startswith("c1-two_rooms")]
    assert (hubo_sa.num_cuts > 0).any() and (hubo_sa.backend_reduction_auxiliaries > 0).any()
    assert (hubo_sa.reduction_auxiliaries == 0).all()
    qubo_sa = iterations[iterations.key.str.startswith("c2-")]
    assert (qubo_sa.backend_reduction_auxiliaries == 0).all()
    reduced = iterations[iterations.key.str.startswith("c4-two_rooms")]
    assert (reduced.reduction_auxiliaries > 0).any()
    assert (reduced.backend_reduction_auxiliaries == 0).all()

    out = tmp_path / "report"
    manifest = build_report(trials, iterations, out, items=["model_sizes", "model_growth"])
    assert manifest["files"] == [
        "model_sizes.md",
        "model_sizes.tex",
        "model_sizes.csv",
        "model_growth.png",
        "model_growth.pdf",
    ]
    table = pd.read_csv(out / "model_sizes.csv")
    assert len(table) == 2 * 5 * 2  # sizes x forms x (first, last)
    for row in table.itertuples(index=False):
        d = trials[(trials.form_variant == row.form_variant) & (trials.rows == int(row.size[0]))]
        its = iterations[iterations.key.isin(d.key)].sort_values(["key", "iteration"])
        at = its.groupby("key").head(1) if row.stage == "first" else its.groupby("key").tail(1)
        assert row.trials == len(d) == 2, row
        assert row.num_variables == at.num_variables.median()
        assert row.num_terms == at.num_terms.median()
        assert row.num_cuts == at.num_cuts.median()
        assert row.board_variables == at.board_variables.median()
        assert row.reduced_on == ("sa" if row.form_variant.startswith("hubo[") else "-")
        if row.stage == "first":  # both trials of a board start from the same model
            p = TWO_ROOMS if row.size == "5x5" else Puzzle.parse(d.puzzle_rows.iloc[0])
            want = direct(Model.build(p, _form(d.iloc[0])))
            assert row.point_auxiliaries == want["point_auxiliaries"]
            assert row.slack_variables == want["slack_variables"]
            assert row.reduction_auxiliaries == want["reduction_auxiliaries"]
            degrees = " ".join(f"{k + 1}:{n}" for k, n in enumerate(want["terms_by_degree"]) if n)
            assert row.terms_by_degree == degrees
            if row.form_variant == "cons":
                assert np.isnan(row.coeff_min_abs) and np.isnan(row.coeff_ratio)
            else:
                assert row.coeff_min_abs == want["coeff_min_abs"]
                assert row.coeff_ratio == want["coeff_max_abs"] / want["coeff_min_abs"]
        else:  # growth per cut: (last - first) / cuts added, median over the trials that cut
            firsts = its.groupby("key").head(1).set_index("key")
            lasts = at.set_index("key")
            cuts = lasts.num_cuts - firsts.num_cuts
            if (cuts > 0).any():
                per = ((lasts.num_terms - firsts.num_terms) / cuts)[cuts > 0].median()
                assert row.terms_per_cut == pytest.approx(per)
            else:
                assert np.isnan(row.terms_per_cut)
    md = (out / "model_sizes.md").read_text()
    assert "| 5x5 | qubo | edge | - | last |" in md
    rows = [line for line in md.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + len(table) and len({r.count("|") for r in rows}) == 1


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no LaTeX engine (CI installs one)")
def test_the_model_size_table_compiles(sized_store: Path, tmp_path: Path) -> None:
    from slitherbench.analysis.report import build_report
    from slitherbench.store.results import load

    build_report(*load(sized_store), tmp_path / "rep", items=["model_sizes"])
    doc = tmp_path / "doc.tex"
    doc.write_text(
        "\\documentclass{article}\n\\usepackage{booktabs,graphicx}\n\\begin{document}\n"
        f"\\input{{{tmp_path / 'rep' / 'model_sizes.tex'}}}\n\\end{{document}}\n"
    )
    cmd = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stdout[-3000:]
    assert "Overfull \\hbox" not in r.stdout  # shrunk to the line width


@pytest.mark.slow
def test_a_store_from_before_the_size_columns_still_gets_the_table(tmp_path: Path) -> None:
    from slitherbench.analysis.report import build_report
    from slitherbench.store.results import load

    trials, iterations = load(OLD_STORE)
    assert "board_variables" not in iterations
    build_report(trials, iterations, tmp_path, items=["model_sizes"])
    table = pd.read_csv(tmp_path / "model_sizes.csv")
    assert table.num_variables.notna().all() and table.board_variables.isna().all()
    rows = (tmp_path / "model_sizes.md").read_text().splitlines()
    qubo_first = next(r for r in rows if r.startswith("| 3x3 | qubo | edge | - | first |"))
    first_3x3 = iterations[iterations.key.isin(trials[trials.puzzle == "gen-3x3-s1"].key)]
    first_3x3 = first_3x3[(first_3x3.iteration == 1) & (first_3x3.formulation == "qubo")]
    cells = [c.strip() for c in qubo_first.strip("|").split("|")]
    assert cells[7] == str(int(first_3x3.num_variables.iloc[0])) and cells[8] == "-"


def _form(t) -> Formulation:
    from slitherbench.run.export_source import make_formulation

    return make_formulation(t.formulation, **json.loads(t.formulation_params or "{}"))


def _plain(v):
    return [int(x) for x in v] if isinstance(v, list | np.ndarray) else v
