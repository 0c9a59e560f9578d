"""The solvers' time is the solvers': a solve forked into a child finds the backend's modules
already imported, the time limit still holds, and the copies a backend keeps of the model (a
polynomial, a reduced BQM) are extended by each iteration's cuts, not rebuilt, and stay
faithful to the model's energy."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time
from typing import ClassVar

import dimod
import pytest
from conftest import BACKENDS, make_backend
from hydra.utils import instantiate
from omegaconf import OmegaConf

from slitherbench.method.record import Capability, SolveResult, Trial
from slitherbench.models.formulations import HuboFormulation, Model, QuboFormulation
from slitherbench.puzzles.check import split_loops
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run.runner import SOLVE_GRACE_S, run_trial, solve_within
from slitherbench.solvers.base import Backend, PolynomialCopy
from slitherbench.solvers.dwave import ReducedCopy, SABackend, expand
from slitherbench.sources.library import generated


class ImportingBackend(Backend):
    """Not interruptible (so each solve runs in a forked child); its solve reports whether
    the module it needs was already loaded when the child started solving."""

    name = "importing"
    takes = frozenset({Capability.POLYNOMIAL})
    interruptible = False
    imports: ClassVar[tuple[str, ...]] = ()

    def solve(self, model, *, seed, hint, time_limit_s) -> SolveResult:
        loaded = all(m in sys.modules for m in self.imports)
        answer = self.params["answer"]
        sample = model.complete(answer)
        return SolveResult(sample, 0, solve_s=0.001, extras={"preloaded": loaded})


def _module(tmp_path, monkeypatch, name: str) -> str:
    (tmp_path / f"{name}.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return name


def test_a_forked_solve_finds_the_backends_modules_already_imported(tmp_path, monkeypatch):
    name = _module(tmp_path, monkeypatch, "slitherbench_probe_module")
    p = generated(3, 3, 1)
    from slitherbench.solvers.cpsat_model import solve_exact

    answer = solve_exact(p).answer
    backend = ImportingBackend(answer=answer)
    backend.imports = (name,)
    assert name not in sys.modules
    r = run_trial(p, HuboFormulation(), backend, seed=0, max_iterations=3, time_limit_s=10)
    assert r.trial.status == "solved", r.trial.reason
    assert '"preloaded": true' in r.iterations[0].extras
    assert name in sys.modules  # imported once, by the trial's process


class SleepingBackend(Backend):
    name = "sleeping"
    takes = frozenset({Capability.POLYNOMIAL})
    interruptible = False

    def solve(self, model, *, seed, hint, time_limit_s) -> SolveResult:
        time.sleep(30)
        raise AssertionError("not reached")


def test_a_solve_that_overruns_is_still_stopped_at_the_deadline():
    board = generated(3, 3, 1)
    t0 = time.perf_counter()
    r = run_trial(board, HuboFormulation(), SleepingBackend(), seed=0, time_limit_s=1.0)
    took = time.perf_counter() - t0
    t = r.trial
    assert t.status == "timeout" and t.solve_cut, t.reason
    assert took < 1.0 + SOLVE_GRACE_S + 2.0
    # The cut solve ran the sampler until it was stopped: solver time, not the harness's.
    assert t.solve_s >= 1.0 - 0.2 and t.overhead_s < 0.5, (t.solve_s, t.overhead_s)


def test_stored_trials_keep_their_time_columns():
    cols = {f for f in Trial.__dataclass_fields__}
    assert {"wall_s", "solve_s", "overhead_s", "build_s", "start_s", "reduction_s"} <= cols
    r = run_trial(generated(4, 4, 1), QuboFormulation(), SABackend(num_sweeps=500), seed=1)
    t = r.trial
    assert t.status == "solved", t.reason
    assert t.overhead_s == pytest.approx(t.wall_s - t.solve_s, abs=1e-9)
    assert 0 < t.solve_s <= t.wall_s


def _cut_model(form, rows=3, cols=3, cuts=3, seed=0) -> Model:
    """A model with a few loop cuts, as a trial adds them (loops of random 2x2 blocks)."""
    p = generated(rows, cols, 1)
    m = Model.build(p, form)
    rng = random.Random(seed)
    for _ in range(cuts):
        r, c = rng.randrange(rows - 1), rng.randrange(cols - 1)
        edges = [False] * p.num_edges
        inside = [False] * p.num_faces
        for f in (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1):
            inside[f] = True
        edges = p.board.boundary(inside)
        m.add_cuts(split_loops(p, edges))
    return m


@pytest.mark.parametrize("form", [HuboFormulation(), QuboFormulation()], ids=["hubo", "qubo"])
def test_the_polynomial_copy_is_extended_by_the_cuts_only(form):
    m = _cut_model(form, cuts=0)
    copy = PolynomialCopy()
    first = copy.sync(m)
    assert first == m.polynomial()
    before = len(m.pieces)
    m.add_cuts([[0, 1, 2, 3]])
    added = copy.sync(m)
    assert added == m.poly_since(before) and added  # the cut's terms, nothing else
    assert {**copy.terms, (): copy.constant} == {t: float(c) for t, c in m.polynomial().items()}
    assert copy.sync(m) == {}  # nothing new: nothing done
    other = _cut_model(form, cuts=1)
    copy.sync(other)  # another model: a fresh copy
    assert {**copy.terms, (): copy.constant} == {t: float(c) for t, c in other.polynomial().items()}


def _energies_agree(m: Model, red: ReducedCopy, assignments) -> None:
    """Every state of the model's labels, its products filled consistently, has the same
    energy in the reduced BQM (plus its constant) as in the model."""
    for sample in assignments:
        full = expand(red.reduction, sample)
        bqm_e = red.bqm.energy({v: full.get(v, 0) for v in red.bqm.variables})
        assert bqm_e + red.const == pytest.approx(m.energy(sample))


def _counting_reductions(monkeypatch) -> list[int]:
    """The size of every polynomial dimod is asked to reduce from now on."""
    calls: list[int] = []
    real = dimod.reduce_binary_polynomial

    def counting(poly):
        calls.append(len(poly))
        return real(poly)

    monkeypatch.setattr(dimod, "reduce_binary_polynomial", counting)
    return calls


def test_the_reduction_is_extended_by_each_cut_and_stays_faithful(monkeypatch):
    m = _cut_model(HuboFormulation(degree_mode="exact"), cuts=0)
    calls = _counting_reductions(monkeypatch)
    red = ReducedCopy(strength=4.0)
    red.sync(m)
    whole = len(m.polynomial())
    assert calls == [whole]
    rng = random.Random(3)
    labels = m.labels
    for _ in range(3):
        before = len(m.pieces)
        m.add_cut(rng.sample(range(m.puzzle.num_edges), 6))
        red.sync(m)
        assert calls[-1] == len(m.poly_since(before)) < whole  # the cut alone is reduced
        gated = list(red.reduction.values())
        assert len(gated) == len(set(gated)) == red.added  # no product gated twice
        samples = [{lb: rng.randint(0, 1) for lb in labels} for _ in range(200)]
        _energies_agree(m, red, samples)
    # The extended copy's minimum over the products equals reducing the whole at once.
    whole_bqm = dimod.make_quadratic(m.to_binary_polynomial(), 4.0, dimod.BINARY)
    assert whole_bqm.num_variables - len(labels) <= red.added + len(labels)


@pytest.mark.slow
def test_the_reduced_copy_is_exhaustively_faithful_on_a_2x2_board():
    board = Puzzle.from_rows(["2.", ".."])
    m = Model.build(board, HuboFormulation(degree_mode="exact"))
    red = ReducedCopy(strength=4.0)
    red.sync(m)
    m.add_cut([0, 1, 2, 3])
    m.add_cut(list(board.face_edges[3]))
    red.sync(m)
    labels = m.labels
    assignments = (
        dict(zip(labels, bits, strict=True))
        for bits in itertools.product((0, 1), repeat=len(labels))
    )
    _energies_agree(m, red, assignments)


@pytest.mark.parametrize("through_runner", [False, True], ids=["solve", "solve_within"])
def test_dwave_sa_reduces_the_hubo_once_then_each_cut(monkeypatch, through_runner):
    calls = _counting_reductions(monkeypatch)
    m = _cut_model(HuboFormulation(), rows=4, cols=4, cuts=0)
    backend = SABackend(num_sweeps=50, num_reads=1)
    sizes = [len(m.polynomial())]
    for k in range(4):
        if through_runner:
            solve_within(backend, m, seed=k, hint=None, time_limit_s=5)
        else:
            backend.solve(m, seed=k, hint=None, time_limit_s=5)
        if k == 1:
            continue  # a retry: nothing added, nothing reduced
        before = len(m.pieces)
        m.add_cut([0, 1, 2, 3, 4, 5][k:])
        sizes.append(len(m.poly_since(before)))
    assert calls == sizes[:-1]


PROBE = r"""
import sys
from hydra.utils import instantiate
from omegaconf import OmegaConf
from slitherbench.models.formulations import Model
from slitherbench.sources.library import generated
from slitherbench.run.runner import BackendUnavailable

backend = instantiate(OmegaConf.load(sys.argv[1]))
if backend.available():
    print("SKIP", backend.available()); raise SystemExit
form = instantiate(OmegaConf.load(sys.argv[2]))
backend.load()
model = Model.build(generated(3, 3, 1), form)
before = set(sys.modules)
try:
    backend.start(model)
    backend.solve(model, seed=0, hint=None, time_limit_s=5.0)
except BackendUnavailable as exc:
    print("SKIP", exc); raise SystemExit
# Packages not loaded at all before (a lazily loaded submodule of a loaded one is cheap).
new = {n.split(".")[0] for n in sys.modules} - {n.split(".")[0] for n in before}
print("NEW", *sorted(new - set(sys.stdlib_module_names) - {"slitherbench", "__mp_main__"}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_each_backends_load_imports_what_its_solve_needs(backend, tmp_path):
    # A module first imported inside solve() is imported on the trial's clock (dwave-hybrid:
    # about 2 s; PyTorch: about 5 s), so every backend names it in ``imports``. Each backend
    # is probed in a fresh process: in this one, other tests have imported everything.
    from conftest import CONF

    b = make_backend(backend)
    form = next(
        f for f in ("qubo", "hubo", "cons")
        if not b.unsupported_reason(instantiate(OmegaConf.load(CONF / "formulation" / f"{f}.yaml")))
    )  # fmt: skip
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    out = subprocess.run(
        [sys.executable, str(script), str(CONF / "backend" / f"{backend}.yaml"),
         str(CONF / "formulation" / f"{form}.yaml")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith(("NEW", "SKIP"))]
    assert lines, out.stderr[-2000:]
    if lines[-1].startswith("SKIP"):
        pytest.skip(lines[-1][5:])
    assert lines[-1] == "NEW", f"{backend} imports during its solve: {lines[-1][4:]}"
