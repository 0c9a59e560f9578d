"""Instances as files (slitherbench.models.export): every format read back gives the model's energy
on every assignment of a 2x2 board (exhaustive), the known answer stays a ground state on
corpus boards, a stored trial's iteration k is rebuilt with its cuts, and the CLI writes
single models and suites with one-line errors."""

from __future__ import annotations

import csv
import importlib.util
import json
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from slitherbench.models.export import (
    FORMATS,
    format_module,
    read,
    read_sidecar,
    unwritable_reason,
    write_instance,
)
from slitherbench.models.formulations import (
    ConsFormulation,
    HuboFormulation,
    Model,
    QuboFormulation,
)
from slitherbench.puzzles.check import split_loops
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.run.export_cli import main
from slitherbench.run.export_source import stored_model
from slitherbench.sources.library import loopy_dev, reference10

ROOT = Path(__file__).resolve().parents[1]
POLY_FORMATS = [f for f in FORMATS if format_module(f).FAMILY == "polynomial"]
EXACT_FORMATS = [f for f in FORMATS if format_module(f).FAMILY == "constraints"]


def board2x2() -> Puzzle:
    """Clue 3 in a corner: answers exist (the 2x1 loops through it), none is unique."""
    return Puzzle.from_rows(["3.", ".."], name="two")


def with_a_cut(model: Model) -> Model:
    """The 2x2 model after an iteration that found the loop around the top two faces (one
    of the board's answers: the cut removes an energy-0 assignment, others stay)."""
    top = model.puzzle.board.boundary([True, True, False, False])
    model.add_cuts([[e for e, on in enumerate(top) if on]])
    return model


def energies(poly: dict, names: list[str], n: int) -> np.ndarray:
    """The polynomial (terms over names) at every assignment: assignment a gives variable k
    the value of bit k of a (a in 0 .. 2^n - 1). The variables split in a low and a high
    half; a term spanning both is on where its low part and its high part are, so the
    spanning terms of all 2^n assignments are one product of two small 0/1 matrices."""
    low = n // 2
    bit = {name: 1 << k for k, name in enumerate(names)}
    lo, hi = np.arange(2**low)[:, None], np.arange(2 ** (n - low))[:, None]
    # float32 holds these small integer energies exactly, and halves the work
    e_lo, e_hi = np.zeros(len(lo), np.float32), np.zeros(len(hi), np.float32)
    masks, coeffs = [], []
    for term, c in poly.items():
        m = sum(bit[name] for name in term)
        ml, mh = m & ((1 << low) - 1), m >> low
        if mh == 0:
            e_lo += c * ((lo[:, 0] & ml) == ml)
        elif ml == 0:
            e_hi += c * ((hi[:, 0] & mh) == mh)
        else:
            masks.append((ml, mh))
            coeffs.append(c)
    ml, mh = (np.array([m[k] for m in masks] or [0])[None, :] for k in (0, 1))
    on_lo = ((lo & ml) == ml).astype(np.float32) * np.array(coeffs or [0], np.float32)
    cross = on_lo @ ((hi & mh) == mh).astype(np.float32).T
    table = e_lo[:, None] + e_hi[None, :] + cross  # [lo, hi]: assignment lo + hi * 2^low
    return table.T.ravel().astype(np.int64)


POLY_CASES = [
    ("qubo", QuboFormulation, {}, ("qplib", "bqm", "hubo-json")),
    ("qubo-face", QuboFormulation, {"variables": "face"}, ("qplib", "bqm", "hubo-json")),
    ("hubo-exact", HuboFormulation, {"degree_mode": "exact"}, ("hubo-json",)),
    ("hubo-face", HuboFormulation, {"variables": "face"}, ("hubo-json",)),
    ("hubo-aux", HuboFormulation, {}, ("hubo-json",)),
]


@pytest.mark.parametrize(
    ("cls", "params", "formats"),
    [
        pytest.param(c, p, f, id=i, marks=[pytest.mark.slow] if i in ("qubo", "hubo-aux") else [])
        for i, c, p, f in POLY_CASES
    ],
)
def test_polynomial_files_give_the_model_energy_on_every_assignment(
    tmp_path: Path, cls, params, formats
) -> None:
    model = with_a_cut(Model.build(board2x2(), cls(**params)))
    labels = model.labels
    names = [model.label_name(lb) for lb in labels]
    by_name = {tuple(names[labels.index(lb)] for lb in t): c for t, c in model.polynomial().items()}
    n = len(labels)
    want = energies(by_name, names, n)  # every assignment
    rng = np.random.default_rng(0)  # the reference is the harness's own energy rule
    for a in rng.choice(2**n, 64):
        assert want[a] == model.energy({lb: (int(a) >> k) & 1 for k, lb in enumerate(labels)})
    assert want.min() == 0
    for fmt in formats:
        side = write_instance(model, tmp_path / fmt, fmt)
        back = read(tmp_path / side["file"])
        assert [v["name"] for v in side["variables"]] == names
        got = energies(dict(back.poly.items()), names, n)
        assert np.array_equal(got, want), fmt


@pytest.mark.parametrize("variables", ["edge"])
def test_exact_files_accept_exactly_the_energy_zero_assignments(
    tmp_path: Path, variables: str
) -> None:
    model = with_a_cut(Model.build(board2x2(), ConsFormulation(variables=variables)))
    p = model.puzzle
    x = np.array(list(product((0, 1), repeat=p.num_edges)))
    edges = [tuple(map(int, row)) for row in x]
    # energy 0 is every constraint holding (each adds weight x distance^2): the pieces' own
    # constraints at every assignment, tied to model.energy on some
    holds = np.ones(len(x), dtype=bool)
    for piece in model.pieces:
        c = piece.constraint
        total = x[:, list(c.edges)] @ np.array(c.coeffs or (1,) * len(c.edges))
        holds &= np.isin(total, c.allowed)
    want = holds.tolist()
    for k in np.random.default_rng(3).choice(len(x), 64):
        assert (model.energy(dict(enumerate(edges[k]))) == 0) == want[k]
    assert 0 < sum(want) < len(edges)
    cnf = read(tmp_path / write_instance(model, tmp_path / "m", "cnf")["file"])
    with cnf.solver() as s:
        got = [cnf.accepts({k + 1: v for k, v in enumerate(e)}, s) for e in edges]
    assert got == want
    for fmt in ("lp", "mps"):
        hf = read(tmp_path / write_instance(model, tmp_path / "m", fmt)["file"])
        assert hf.accepts_all([f"x{k}" for k in range(p.num_edges)], x).tolist() == want
    smt = read(tmp_path / write_instance(model, tmp_path / "m", "smt2")["file"])
    s = smt.solver()
    # z3 per assignment is the slow part: every energy-0 assignment and as many others
    picks = [k for k, w in enumerate(want) if w]
    picks += list(np.random.default_rng(1).choice(len(edges), 20, replace=False))
    for k in picks:
        assert smt.accepts({f"x{j}": v for j, v in enumerate(edges[k])}, s) == want[k]


def corpus_boards() -> list[Puzzle]:
    first = {}
    for p in loopy_dev():
        first.setdefault(p.size_label, p)
    return [first["5x5"], first["7x7"]]


@pytest.mark.parametrize(
    "puzzle",
    [pytest.param(p, marks=[pytest.mark.slow] if k else []) for k, p in enumerate(corpus_boards())],
    ids=lambda p: p.name,
)
def test_the_known_answer_is_a_ground_state_of_every_file(tmp_path: Path, puzzle: Puzzle) -> None:
    answer = puzzle.meta["answer"]
    rng = np.random.default_rng(2)
    for form in (QuboFormulation(), HuboFormulation()):  # face forms: exhaustive above
        model = Model.build(puzzle, form)
        sample = model.complete(answer)
        other = {lb: int(rng.integers(2)) for lb in model.labels}
        for fmt in POLY_FORMATS:
            if unwritable_reason(form, fmt):
                continue
            side = write_instance(model, tmp_path / f"{form.name}-{fmt}", fmt, answer=answer)
            back = read(tmp_path / side["file"])
            named = {v["name"]: sample[v["label"]] for v in side["variables"]}
            assert back.energy(named) == 0
            assert side["answer"]["values"] == [named[v["name"]] for v in side["variables"]]
            named_other = {v["name"]: other[v["label"]] for v in side["variables"]}
            assert back.energy(named_other) == model.energy(other) > 0
    model = Model.build(puzzle, ConsFormulation())
    wrong = list(answer)
    wrong[answer.index(True)] = False  # one answer edge off: no longer a loop
    for fmt in EXACT_FORMATS:
        side = write_instance(model, tmp_path / f"cons-{fmt}", fmt, answer=answer)
        back = read(tmp_path / side["file"])
        if fmt == "cnf":
            assert back.accepts({e + 1: int(v) for e, v in enumerate(answer)})
            assert not back.accepts({e + 1: int(v) for e, v in enumerate(wrong)})
        elif fmt == "smt2":
            assert back.accepts({f"x{e}": int(v) for e, v in enumerate(answer)})
            assert not back.accepts({f"x{e}": int(v) for e, v in enumerate(wrong)})
        else:  # HiGHS itself decides, with the edges fixed
            assert back.solve_fixed({f"x{e}": int(v) for e, v in enumerate(answer)})
            assert not read(tmp_path / side["file"]).solve_fixed(
                {f"x{e}": int(v) for e, v in enumerate(wrong)}
            )


def stored_sat_trial(root: Path):
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.sat import SatBackend
    from slitherbench.store.result_store import ResultStore

    r = run_trial(reference10(), ConsFormulation(), SatBackend(), seed=1, max_iterations=50)
    t = r.trial
    t.key, t.puzzle_rows, t.formulation_params = "k1-reference10-r0", reference10().to_text(), "{}"
    ResultStore(root).write(t, r.iterations)
    return r


def test_a_stored_trials_iteration_k_is_rebuilt_with_its_cuts(tmp_path: Path, capsys) -> None:
    r = stored_sat_trial(tmp_path / "store")
    its = r.iterations
    assert len(its) >= 3 and r.status == "solved"
    p = reference10()
    for k in (2, len(its)):
        model, source = stored_model(tmp_path / "store", "k1-", k)
        assert source["iteration"] == k and model.num_cuts == its[k - 1].num_cuts
        edges = answer_from_bits(p, its[k - 1].edges)
        assert model.energy(model.complete(edges)) == 0  # the sample solve k returned
        if k > 1:  # the previous sample's loops are cut away
            prev = answer_from_bits(p, its[k - 2].edges)
            assert model.energy(model.complete(prev)) > 0
            assert len(split_loops(p, prev)) == its[k - 2].num_loops
    out = tmp_path / "out"
    assert main([f"store={tmp_path / 'store'}", "trial=k1", "iteration=3", "format=cnf",
                 f"out={out}"]) == 0  # fmt: skip
    side = json.loads(next(out.glob("*.cnf.json")).read_text())
    assert side["iteration"] == 3 and side["cuts"] == its[2].num_cuts
    assert side["source"]["trial"] == "k1-reference10-r0" and side["answer"]["energy"] == 0
    cnf = read(out / side["file"])
    assert cnf.accepts({e + 1: int(c) for e, c in enumerate(side["answer"]["edges"])})
    assert not cnf.accepts({e + 1: int(c) for e, c in enumerate(its[1].edges)})  # cut at 2
    every = tmp_path / "every"
    store = f"store={tmp_path / 'store'}"
    assert main([store, "iteration=all", "formats=cnf,hubo-json", f"out={every}"]) == 0
    rows = list(csv.DictReader((every / "index.csv").read_text().splitlines()))
    assert [int(r["cuts"]) for r in rows] == [it.num_cuts for it in its]  # cons: cnf only
    assert {r["format"] for r in rows} == {"cnf"} and "no format" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["puzzle=nope"], "unknown puzzle 'nope'"),
        (["puzzle=reference10", "form=cons", "format=qplib"], "holds a penalty polynomial"),
        (
            ["puzzle=reference10", "form=hubo", "degree_mode=exact", "format=bqm"],
            "holds terms of degree 2 at most",
        ),
        (["puzzle=reference10", "form=cons", "variables=face", "format=cnf"], "face variables"),
        (["puzzle=reference10", "format=xls"], "unknown format 'xls'"),
        (["puzzle=reference10", "form=qubit"], "unknown form 'qubit'"),
        (["puzzle=reference10", "colour=red"], "unknown setting 'colour'"),
        (["suite=nosuch"], "no built-in suite 'nosuch'"),
        (["store=/no/such/store", "trial=x"], "no store at"),
        (["puzzle=reference10", "iteration=3"], "need store="),
        (["puzzle=reference10", "iteration=all"], "iteration=all needs store="),
        (["store=/no/such/store", "iteration=x"], "a number 1, 2, ... or all"),
    ],
)
def test_cli_errors_are_one_line(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    assert main([*argv, f"out={tmp_path}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


def test_cli_writes_one_model_with_its_sidecar(tmp_path: Path, capsys) -> None:
    assert main(["puzzle=reference10", "form=qubo", "format=qplib", f"out={tmp_path}"]) == 0
    path = Path(capsys.readouterr().out.split()[0])
    side = read_sidecar(path)
    assert side["puzzle"]["puzzlink"].startswith("https://puzz.link/p?slither/10/10/")
    assert side["form"] == "qubo" and side["optimum_energy"] == 0 and side["iteration"] == 1
    assert side["answer"]["status"] == "unique" and side["source"] is None
    assert side["variables"][0] == {
        "index": 0,
        "label": 0,
        "name": "x0",
        "role": "edge",
        "of": "edge 0: point (0,0) - point (0,1)",
    }
    assert side["variables"][-1]["of"] == "auxiliary of the degree rule at point (10,10)"
    assert {v["role"] for v in side["variables"]} == {"edge", "point_aux"}
    assert side["harness"]["slitherbench"] and "git_commit" in side["harness"]
    back = read(path)
    assert back.energy(dict(zip(back.names, side["answer"]["values"], strict=True))) == 0


def test_the_quick_suite_writes_an_index(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "export_suite", ROOT / "experiments/export_suite.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    summary = mod.main(["--quick", "--out", str(tmp_path)])
    rows = list(csv.DictReader((tmp_path / "index.csv").read_text().splitlines()))
    assert len(rows) == summary["files"] > 0
    assert {r["format"] for r in rows} == {"qplib", "bqm", "hubo-json", "cnf", "lp", "smt2"}
    for r in rows:
        assert (tmp_path / r["file"]).stat().st_size == int(r["bytes"])
        assert int(r["num_variables"]) == sum(
            int(r[k]) for k in ("edge_vars", "face_vars", "point_aux_vars", "slack_vars")
        )
        assert r["answer_known"] == "True"
    qubo = next(r for r in rows if r["format"] == "qplib")
    assert qubo["max_degree"] == "2" and int(qubo["coef_min"]) < 0 < int(qubo["coef_max"])
