"""The reference page's iterative elimination, with any formulation on any backend.

repeat: solve; split the sample into loops; if one loop alone satisfies every clue, stop
with it (verified by :func:`~.check.check_answer`); otherwise forbid every loop found and
solve again from the previous solution. A sample whose energy is not 0 is retried (and
counted). The loop is :class:`~.elimination.Elimination`'s; a trial gives it the backend as
its solve step (:func:`solve_within`) and records each step and where the loop stopped.

pyqbpp backends run each trial in a fresh child process (their variable budget is per
process and exceeding it aborts the process); a crashed child becomes an ``error`` record.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from slitherbench.deduction import deduce
from slitherbench.method.elimination import Elimination, Step
from slitherbench.method.record import Iteration, SolveResult, Status, Trial, merge_extras
from slitherbench.models.formulations import Formulation, FormUnavailable, Model
from slitherbench.models.model_size import iteration_columns
from slitherbench.models.presolve import PRESOLVE_LEVELS, PresolveContradiction
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle, answer_to_bits
from slitherbench.solvers.base import Backend, BackendUnavailable
from slitherbench.solvers.child import ChildOutcome, SolveWorker, run_in_child


@dataclass
class TrialResult:
    trial: Trial
    iterations: list[Iteration] = field(default_factory=list)

    @property
    def status(self) -> str:
        return self.trial.status


def new_trial(puzzle: Puzzle, formulation: Formulation, backend: Backend, seed: int) -> Trial:
    return Trial(
        puzzle=puzzle.name or puzzle.size_label,
        rows=puzzle.rows,
        cols=puzzle.cols,
        clues=puzzle.num_clues,
        board=puzzle.board.kind,
        faces=puzzle.num_faces,
        formulation=formulation.name,
        form_variant=formulation.describe(),
        variables=formulation.variables,
        backend=backend.name,
        seed=seed,
    )


class _Loop:
    """One trial's records of its elimination loop (:class:`~.elimination.Elimination`)."""

    def __init__(self, puzzle: Puzzle, model: Model, result: TrialResult) -> None:
        self.puzzle, self.model, self.result = puzzle, model, result
        self.trial = result.trial
        self.extras: dict[str, Any] = {}

    def record(self, step: Step, build_s: float) -> None:
        """Store one judged solve's iteration row and add it to the trial's sums."""
        m, t, res = self.model, self.trial, step.result
        assert res is not None, "a backend's solve returns a SolveResult"
        t.iterations = step.iteration
        t.solve_s += res.solve_s
        t.start_s += res.start_s
        t.reduction_s += res.reduction_s
        t.mode = res.mode
        t.hint_used = t.hint_used or res.hint_used
        t.sweeps += int(res.sweeps)
        t.retries += step.retry  # not a valid multi-loop sample: solved again from it
        merge_extras(self.extras, res.extras)
        self.result.iterations.append(
            Iteration(
                iteration=step.iteration,
                energy=step.energy,
                backend_energy=float(res.energy),
                num_loops=len(step.loops),
                loop_sizes=[len(lp) for lp in step.loops],
                num_variables=m.num_variables,
                num_terms=m.num_terms,
                max_degree=m.max_degree,
                num_cuts=m.num_cuts,
                build_s=build_s,
                start_s=res.start_s,
                reduction_s=res.reduction_s,
                solve_s=res.solve_s,
                hint_used=res.hint_used,
                sweeps=int(res.sweeps),
                mode=res.mode,
                edges=answer_to_bits(step.edges),
                extras=json.dumps(res.extras, sort_keys=True),
                **iteration_columns(m, res),  # the model's size in detail
            )
        )

    def finish(self, elim: Elimination, time_limit_s: float) -> None:
        """The trial's status from where the loop stopped; ``solved`` only on an answer the
        independent checker accepted."""
        t, p = self.trial, self.puzzle
        if elim.stop == "answer":
            answer_loop = elim.answers[-1]
            on = set(answer_loop)
            t.answer = answer_to_bits([e in on for e in range(p.num_edges)])
            t.answer_loop_size = len(answer_loop)
            if elim.solved:
                t.status, t.reason, t.verified = Status.SOLVED, "", True
            else:
                t.status, t.reason = Status.ERROR, elim.reason
        elif elim.stop == "timeout":
            t.status, t.reason = Status.TIMEOUT, f"time limit {time_limit_s:g} s reached"
        elif elim.stop == "max_iterations":
            t.status, t.reason = Status.MAX_ITERATIONS, elim.reason
        else:  # empty, stuck (never seen: a variant that neither stops nor cuts), exhausted
            t.status, t.reason = Status.ERROR, elim.reason


WARM_STARTS = ("previous", "broken", "none")


def warm_hint(
    model: Model, prev_edges: list[bool] | None, warm_start: str
) -> dict[int, int] | None:
    """The initial state offered to the next solve.

    previous: the last sample's edges as they are (the new cuts make it infeasible);
    broken: the same with every forbidden loop it contains switched off (after an energy-0
    solve that is every loop in it); none: no hint. Auxiliaries are recomputed either way.
    """
    if prev_edges is None or warm_start == "none":
        return None
    edges = list(prev_edges)
    if warm_start == "broken":
        for p in model.pieces:
            c = p.constraint
            if c.source and not c.holds(edges):
                for e in c.source:
                    edges[e] = False
    return model.complete(edges)


def _iterate(
    loop: _Loop,
    backend: Backend,
    seed: int,
    max_iterations: int,
    deadline: float,
    time_limit_s: float,
    build_s: float,
    warm_start: str = "previous",
    presolve: str = "none",
) -> None:
    """The elimination loop with ``backend`` as its solve step (held to the deadline by
    :func:`solve_within`); the first row carries ``build_s``, the model and backend set-up."""
    model = loop.model

    def solve(k: int, left: float, prev_edges: list[bool] | None) -> SolveResult:
        if presolve != "none" and k > 1:  # the cuts may settle more of the board
            repeat_presolve(model, presolve, loop.trial)
            left = deadline - time.perf_counter()
        hint = warm_hint(model, prev_edges, warm_start)
        return solve_within(backend, model, seed=seed + 7919 * k, hint=hint, time_limit_s=left)

    elim = Elimination(model, solve, max_iterations=max_iterations, deadline=deadline)
    try:
        for step in elim.steps():
            loop.record(step, build_s if step.iteration == 1 else step.build_s)
    finally:
        loop.trial.build_s += elim.cut_s  # the cuts, as they were added
    loop.finish(elim, time_limit_s)


SOLVE_GRACE_S = 0.5  # a non-interruptible solve is stopped this long after the deadline


class SolveCut(RuntimeError):
    """A solve that would not stop by itself was stopped at the trial's deadline.

    ``solve_s``: how long it ran until then. The sampler was searching all that time, so the
    trial counts it as solve time, not as the harness's."""

    status = Status.TIMEOUT

    def __init__(self, message: str, solve_s: float = 0.0) -> None:
        super().__init__(message)
        self.solve_s = solve_s


def solve_within(
    backend: Backend,
    model: Model,
    *,
    seed: int,
    hint: Mapping[int, int] | None,
    time_limit_s: float,
) -> SolveResult:
    """``backend.solve``, held to the time limit: a backend that cannot be interrupted solves
    in the trial's forked child (:class:`~slitherbench.solvers.child.SolveWorker`, one per trial),
    killed at the deadline.

    The backend's copy of the model is brought up to date here first (:meth:`Backend.sync`,
    timed into the result), so a forked child inherits it, and its modules were imported by
    :meth:`Backend.load`: a solve in a child costs the fork and the sampler, not an import."""
    t0 = time.perf_counter()
    worker = None if backend.interruptible else _worker(backend, model)
    if worker is None or worker.proc is None:  # a running worker's child syncs its own copy
        backend.sync(model)
    sync_s = time.perf_counter() - t0
    kwargs = {"seed": seed, "hint": hint, "time_limit_s": max(time_limit_s - sync_s, 1e-3)}
    res = backend.solve(model, **kwargs) if worker is None else _solve_in_child(worker, kwargs)
    field_name = backend.sync_time_field
    setattr(res, field_name, getattr(res, field_name) + sync_s)
    return res


def _worker(backend: Backend, model: Model) -> SolveWorker:
    """The trial's solve worker of a backend that cannot be interrupted: one per backend and
    model, the previous trial's stopped."""
    worker: SolveWorker | None = getattr(backend, "_solve_worker", None)
    if worker is None or worker.model is not model:
        if worker is not None:
            worker.close()
        worker = SolveWorker(backend, model)
        backend._solve_worker = worker  # type: ignore[attr-defined]
    return worker


def close_worker(backend: Backend) -> None:
    """Stop the trial's solve worker, if it has one (the end of every trial)."""
    worker: SolveWorker | None = getattr(backend, "_solve_worker", None)
    if worker is not None:
        worker.close()
        backend._solve_worker = None  # type: ignore[attr-defined]


def _solve_in_child(worker: SolveWorker, kwargs: dict[str, Any]) -> SolveResult:
    backend = worker.backend
    out = worker.solve(worker.model, kwargs, kwargs["time_limit_s"] + SOLVE_GRACE_S)
    got = out.got
    if isinstance(got, BaseException):
        raise got
    if got is None:
        if out.exitcode not in (None, 0, -signal.SIGKILL):
            raise RuntimeError(f"the {backend.name} solve's process ended with code {out.exitcode}")
        raise SolveCut(
            f"time limit reached: the {backend.name} solve running then was stopped "
            "(it cannot be interrupted)",
            solve_s=out.waited_s,
        )
    return got


def _fail(t: Trial, exc: BaseException) -> None:
    if isinstance(exc, BackendUnavailable | FormUnavailable):
        t.status = Status.SKIPPED
        t.reason = f"{exc} (at iteration {t.iterations + 1})" if t.iterations else str(exc)
        return
    status = getattr(exc, "status", Status.ERROR)
    t.status = Status(status) if status in set(Status) else Status.ERROR
    t.reason = f"{type(exc).__name__}: {exc}"
    t.solve_cut = isinstance(exc, SolveCut)
    if isinstance(exc, SolveCut):
        t.solve_s += exc.solve_s
    if os.environ.get("SLITHERBENCH_DEBUG"):
        traceback.print_exc()


def _run_trial_here(
    puzzle: Puzzle,
    formulation: Formulation,
    backend: Backend,
    seed: int,
    max_iterations: int,
    time_limit_s: float,
    warm_start: str = "previous",
    presolve: str = "none",
) -> TrialResult:
    reason = backend.unsupported_reason(formulation) or backend.available()
    if not reason:
        # Outside the trial's time: once per worker process (the trials share it), or in an
        # isolated trial's fresh process before its trial starts.
        backend.load()
    t_start = time.perf_counter()
    result = TrialResult(new_trial(puzzle, formulation, backend, seed))
    t = result.trial
    t.warm_start, t.presolve = warm_start, presolve
    if reason:
        t.status, t.reason = Status.SKIPPED, reason
        return result
    model: Model | None = None
    loop: _Loop | None = None
    try:
        fixed, sides = (
            _presolve(puzzle, presolve, t, formulation.faces) if presolve != "none" else ({}, {})
        )
        if t.status == Status.PRESOLVED:
            t.wall_s = time.perf_counter() - t_start
            return result
        t0 = time.perf_counter()
        model = Model.build(puzzle, formulation, fixed, sides)
        loop = _Loop(puzzle, model, result)
        _start(backend, model, t, t0)
        deadline = t_start + time_limit_s
        _iterate(loop, backend, seed, max_iterations, deadline, time_limit_s, t.build_s,
                 warm_start, presolve)  # fmt: skip
    except Exception as exc:
        _fail(t, exc)
        if loop is not None and getattr(exc, "extras", None):
            merge_extras(loop.extras, exc.extras)  # e.g. a failed command's output tails
    finally:
        close_worker(backend)
        backend.close()
    _record_model(t, model, loop)
    t.wall_s = time.perf_counter() - t_start
    t.overhead_s = max(0.0, t.wall_s - t.solve_s)
    if presolve != "none" and model is not None:  # after the trial: not in its time
        unpresolved = Model.build(puzzle, formulation)
        t.unpresolved_variables = unpresolved.num_variables
        t.unpresolved_terms = unpresolved.num_terms
    return result


def _start(backend: Backend, model: Model, t: Trial, t0: float) -> None:
    """The backend's copy of the model; ``build_s`` is the model and that copy (from ``t0``)."""
    backend.start(model)
    t.build_s = time.perf_counter() - t0
    t.first_variables, t.first_terms = model.num_variables, model.num_terms


def _record_model(t: Trial, model: Model | None, loop: _Loop | None) -> None:
    """The final model's size and the loop's extras (a reduced form's products and strength,
    on every backend) into the trial."""
    if model is not None:
        t.num_variables, t.num_terms = model.num_variables, model.num_terms
        t.max_degree, t.num_cuts = model.max_degree, model.num_cuts
    if loop is not None:
        if model is not None:
            merge_extras(loop.extras, model.reduction_summary())
        t.extras = json.dumps(loop.extras, sort_keys=True)


def _presolve(
    puzzle: Puzzle, level: str, t: Trial, faces: bool = False
) -> tuple[dict[int, int], dict[int, int]]:
    """Deduction before the first solve (never assuming the answer is unique): the edges it
    fixes and the face sides it knows (relative to the board's outside), with the trial
    closed as ``presolved`` when it settles the whole board (the checker judges that answer;
    the backend is never asked). ``presolve_fixed`` is the share of the model's own
    variables fixed: edges, or faces with face variables (``faces``)."""
    t0 = time.perf_counter()
    found = deduce(puzzle, level)
    t.presolve_s += time.perf_counter() - t0
    if found.contradiction:
        raise PresolveContradiction(f"presolve: no answer: {found.contradiction}")
    fixed = {e: v for e, v in enumerate(found.edges) if v >= 0}
    sides = {f: v for f, v in enumerate(found.faces) if v >= 0}
    share = (
        len(sides) / max(1, puzzle.num_faces) if faces else len(fixed) / max(1, puzzle.num_edges)
    )
    t.presolve_fixed = t.presolve_fixed_final = share
    if found.solved:
        edges = [bool(v) for v in found.edges]
        problems = check_answer(puzzle, edges)
        if problems:  # a deduction the checker refuses: an error of the engine, not an answer
            raise PresolveContradiction(f"presolve: the settled board is no answer: {problems[0]}")
        t.status, t.reason, t.verified = Status.PRESOLVED, "deduction settled the board", True
        t.answer = answer_to_bits(edges)
        t.answer_loop_size = sum(edges)
    return fixed, sides


def repeat_presolve(model: Model, level: str, t: Trial) -> None:
    """Deduction again after the cuts so far (each forbids a loop found), from the edges the
    model holds fixed: the edges it fixes now (face variables: the face sides) join the model
    as equalities (:meth:`Model.fix`); its time is the trial's."""
    t0 = time.perf_counter()
    cuts = [p.constraint.source for p in model.pieces if p.constraint.source]
    found = deduce(model.puzzle, level, fixed=model.fixed, cuts=cuts)
    if found.contradiction:
        raise PresolveContradiction(f"presolve: no answer after the cuts: {found.contradiction}")
    edges = {e: v for e, v in enumerate(found.edges) if v >= 0 and e not in model.fixed}
    model.fix(edges, {f: v for f, v in enumerate(found.faces) if v >= 0})
    t.presolve_s += time.perf_counter() - t0
    p = model.puzzle
    if model.faces:
        t.presolve_fixed_final = len(model.fixed_faces) / max(1, p.num_faces)
    else:
        t.presolve_fixed_final = len(model.fixed) / max(1, p.num_edges)


# -- isolation ---------------------------------------------------------------------------
def _trial_in_child(*args: Any) -> TrialResult:
    # pyqbpp prints a banner and licence notes; keep the parent's output clean (errors come
    # back through the pipe). SLITHERBENCH_DEBUG=1 keeps them.
    if not os.environ.get("SLITHERBENCH_DEBUG"):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
    return _run_trial_here(*args)


def _context() -> mp.context.BaseContext:
    # forkserver: children fork from a fresh server that never imported pyqbpp, so each trial
    # starts with an untouched variable budget, without a full interpreter start each time.
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["slitherbench.run.runner", "slitherbench.models.formulations"])
        return ctx
    return mp.get_context("spawn")


def _crash_reason(out: ChildOutcome, waited_s: float) -> str:
    if isinstance(out.got, BaseException):
        return f"{type(out.got).__name__}: {out.got}"
    if not out.answered and not out.died:
        return f"the trial's process gave no result within {waited_s:g} s"
    if out.exitcode is not None and out.exitcode < 0:
        return f"the trial's process was killed by {signal.Signals(-out.exitcode).name}"
    return f"the trial's process exited with code {out.exitcode} and no result"


def run_in_fresh_process(
    puzzle: Puzzle,
    formulation: Formulation,
    backend: Backend,
    seed: int,
    max_iterations: int,
    time_limit_s: float,
    warm_start: str = "previous",
    grace_s: float = 60.0,
    presolve: str = "none",
) -> TrialResult:
    args = (puzzle, formulation, backend, seed, max_iterations, time_limit_s, warm_start, presolve)
    t0 = time.perf_counter()
    out = run_in_child(
        _context(), _trial_in_child, args, time_limit_s + grace_s, daemon=True, join_s=5
    )
    got = out.got
    if isinstance(got, TrialResult):
        got.trial.isolated = True
        # The trial's wall time is measured in the child; this adds the process around it.
        got.trial.process_wall_s = time.perf_counter() - t0
        return got
    trial = new_trial(puzzle, formulation, backend, seed)
    trial.wall_s = trial.process_wall_s = time.perf_counter() - t0
    trial.isolated = True
    trial.reason = _crash_reason(out, time_limit_s + grace_s)
    return TrialResult(trial)


def run_trial(
    puzzle: Puzzle,
    formulation: Formulation,
    backend: Backend,
    seed: int,
    max_iterations: int = 100,
    time_limit_s: float = 60.0,
    isolate: bool | None = None,
    warm_start: str = "previous",
    presolve: str = "none",
) -> TrialResult:
    """One trial of the iterative method. ``isolate`` defaults to the backend's need;
    ``warm_start`` picks the hint later solves get (:func:`warm_hint`); ``presolve``, the
    deduction level run before the first solve and after every cut (:func:`_presolve`)."""
    if warm_start not in WARM_STARTS:
        raise ValueError(f"warm_start must be one of {', '.join(WARM_STARTS)}, got {warm_start!r}")
    if presolve not in PRESOLVE_LEVELS:
        raise ValueError(f"presolve must be one of {', '.join(PRESOLVE_LEVELS)}, got {presolve!r}")
    if isolate is None:
        isolate = backend.needs_fresh_process
    args = (puzzle, formulation, backend, seed, max_iterations, time_limit_s, warm_start, presolve)
    if isolate:
        return run_in_fresh_process(*args[:7], presolve=presolve)
    result = _run_trial_here(*args)
    result.trial.isolated = False
    result.trial.process_wall_s = result.trial.wall_s
    return result
