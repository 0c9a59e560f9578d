"""The reference page's iterative elimination, with any formulation on any backend.

repeat: solve; split the sample into loops; if one loop alone satisfies every clue, stop
with it (verified by :func:`check_answer`); otherwise forbid every loop found and solve again
from the previous solution. A sample whose energy is not 0 is retried (and counted).

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

from .backends.base import Backend, BackendUnavailable
from .check import answer_edges, check_answer, split_loops
from .child import ChildOutcome, run_in_child
from .formulations import Formulation, FormUnavailable, Model
from .puzzle import Puzzle, answer_to_bits
from .record import Iteration, SolveResult, Status, Trial, merge_extras


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
    """The state of one trial's elimination loop."""

    def __init__(self, puzzle: Puzzle, model: Model, result: TrialResult) -> None:
        self.puzzle, self.model, self.result = puzzle, model, result
        self.trial = result.trial
        self.extras: dict[str, Any] = {}

    def record(self, k: int, res: SolveResult, build_s: float) -> tuple[int, list[bool], list]:
        """Judge one solve with the model's own energy and store its iteration row."""
        m, t = self.model, self.trial
        energy = m.energy(res.sample)
        edges = m.edges_of(res.sample)
        loops = split_loops(self.puzzle, edges) if energy == 0 else []
        t.iterations = k
        t.solve_s += res.solve_s
        t.start_s += res.start_s
        t.reduction_s += res.reduction_s
        t.mode = res.mode
        t.hint_used = t.hint_used or res.hint_used
        t.sweeps += int(res.sweeps)
        merge_extras(self.extras, res.extras)
        self.result.iterations.append(
            Iteration(
                iteration=k,
                energy=energy,
                backend_energy=float(res.energy),
                num_loops=len(loops),
                loop_sizes=[len(lp) for lp in loops],
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
                edges=answer_to_bits(edges),
                extras=json.dumps(res.extras, sort_keys=True),
            )
        )
        return energy, edges, loops

    def finish(self, loops: list[list[int]]) -> bool:
        """After an energy-0 solve: stop with the answer, or report that none can come."""
        t, p = self.trial, self.puzzle
        answer_loop = answer_edges(p, loops)
        if answer_loop is not None:
            on = set(answer_loop)
            answer = [e in on for e in range(p.num_edges)]
            problems = check_answer(p, answer)
            t.answer, t.answer_loop_size = answer_to_bits(answer), len(answer_loop)
            if problems:
                t.status = Status.ERROR
                t.reason = "answer failed the check: " + "; ".join(problems[:3])
            else:
                t.status, t.reason, t.verified = Status.SOLVED, "", True
            return True
        if not loops:
            t.status = Status.ERROR
            t.reason = "an energy-0 sample with no loop: the clues admit an empty board"
            return True
        return False


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
) -> None:
    t, model = loop.trial, loop.model
    prev_edges: list[bool] | None = None
    for k in range(1, max_iterations + 1):
        left = deadline - time.perf_counter()
        if left <= 0:
            t.status, t.reason = Status.TIMEOUT, f"time limit {time_limit_s:g} s reached"
            return
        hint = warm_hint(model, prev_edges, warm_start)
        res = solve_within(backend, model, seed=seed + 7919 * k, hint=hint, time_limit_s=left)
        energy, prev_edges, loops = loop.record(k, res, build_s)
        build_s = 0.0
        if energy != 0:
            t.retries += 1  # not a valid multi-loop sample: solve again from it
            continue
        broken = model.broken_deferred(prev_edges)
        if broken:  # a lazy form's rule broken at energy 0: add it there, solve again
            model.add_deferred(broken)
            continue
        if loop.finish(loops):
            return
        t0 = time.perf_counter()
        cuts_before = model.num_cuts
        model.add_cuts(loops)
        build_s = time.perf_counter() - t0
        if model.num_cuts == cuts_before:  # never seen: a variant that neither stops nor cuts
            t.status, t.reason = Status.ERROR, "the sample's loops hold no answer and give no cut"
            return
        t.build_s += build_s
    t.status, t.reason = Status.MAX_ITERATIONS, f"{max_iterations} iterations without an answer"


SOLVE_GRACE_S = 0.5  # a non-interruptible solve is stopped this long after the deadline


class SolveCut(RuntimeError):
    """A solve that would not stop by itself was stopped at the trial's deadline.

    ``solve_s``: how long it ran until then. The sampler was searching all that time, so the
    trial counts it as solve time, not as the harness's."""

    status = Status.TIMEOUT

    def __init__(self, message: str, solve_s: float = 0.0) -> None:
        super().__init__(message)
        self.solve_s = solve_s


def _solve(backend: Backend, model: Model, kwargs: dict[str, Any]) -> SolveResult:
    return backend.solve(model, **kwargs)


def solve_within(
    backend: Backend,
    model: Model,
    *,
    seed: int,
    hint: Mapping[int, int] | None,
    time_limit_s: float,
) -> SolveResult:
    """``backend.solve``, held to the time limit: a backend that cannot be interrupted solves
    in a forked child killed at the deadline.

    The backend's copy of the model is brought up to date here first (:meth:`Backend.sync`,
    timed into the result), so a forked child inherits it, and its modules were imported by
    :meth:`Backend.load`: a solve in a child costs the fork and the sampler, not an import."""
    t0 = time.perf_counter()
    backend.sync(model)
    sync_s = time.perf_counter() - t0
    kwargs = {"seed": seed, "hint": hint, "time_limit_s": max(time_limit_s - sync_s, 1e-3)}
    if backend.interruptible:
        res = backend.solve(model, **kwargs)
    else:
        res = _solve_in_child(backend, model, kwargs)
    field_name = backend.sync_time_field
    setattr(res, field_name, getattr(res, field_name) + sync_s)
    return res


def _solve_in_child(backend: Backend, model: Model, kwargs: dict[str, Any]) -> SolveResult:
    time_limit_s = kwargs["time_limit_s"]
    out = run_in_child(
        mp.get_context("fork"), _solve, (backend, model, kwargs), time_limit_s + SOLVE_GRACE_S
    )
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
) -> TrialResult:
    reason = backend.unsupported_reason(formulation) or backend.available()
    if not reason:
        # Outside the trial's time: once per worker process (the trials share it), or in an
        # isolated trial's fresh process before its trial starts.
        backend.load()
    t_start = time.perf_counter()
    result = TrialResult(new_trial(puzzle, formulation, backend, seed))
    t = result.trial
    t.warm_start = warm_start
    if reason:
        t.status, t.reason = Status.SKIPPED, reason
        return result
    model: Model | None = None
    loop: _Loop | None = None
    try:
        t0 = time.perf_counter()
        model = Model.build(puzzle, formulation)
        loop = _Loop(puzzle, model, result)
        backend.start(model)
        t.build_s = time.perf_counter() - t0  # the model and the backend's copy of it
        deadline = t_start + time_limit_s
        _iterate(loop, backend, seed, max_iterations, deadline, time_limit_s, t.build_s, warm_start)
    except Exception as exc:
        _fail(t, exc)
        if loop is not None and getattr(exc, "extras", None):
            merge_extras(loop.extras, exc.extras)  # e.g. a failed command's output tails
    finally:
        backend.close()
    if model is not None:
        t.num_variables, t.num_terms = model.num_variables, model.num_terms
        t.max_degree, t.num_cuts = model.max_degree, model.num_cuts
    if loop is not None:
        t.extras = json.dumps(loop.extras, sort_keys=True)
    t.wall_s = time.perf_counter() - t_start
    t.overhead_s = max(0.0, t.wall_s - t.solve_s)
    return result


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
        ctx.set_forkserver_preload(["slitherbench.runner", "slitherbench.formulations"])
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
) -> TrialResult:
    args = (puzzle, formulation, backend, seed, max_iterations, time_limit_s, warm_start)
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
) -> TrialResult:
    """One trial of the iterative method. ``isolate`` defaults to the backend's need;
    ``warm_start`` picks the hint later solves get (:func:`warm_hint`)."""
    if warm_start not in WARM_STARTS:
        raise ValueError(f"warm_start must be one of {', '.join(WARM_STARTS)}, got {warm_start!r}")
    if isolate is None:
        isolate = backend.needs_fresh_process
    args = (puzzle, formulation, backend, seed, max_iterations, time_limit_s, warm_start)
    if isolate:
        return run_in_fresh_process(*args)
    result = _run_trial_here(*args)
    result.trial.isolated = False
    result.trial.process_wall_s = result.trial.wall_s
    return result
