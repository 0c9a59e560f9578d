"""The reference page's iterative elimination, with any formulation on any backend.

repeat: solve; split the sample into loops; if one loop alone satisfies every clue, stop
with it (verified by :func:`check_answer`); otherwise forbid every loop found and solve again
from the previous solution. A sample whose energy is not 0 is retried (and counted).

pyqbpp backends run each trial in a fresh child process (their variable budget is per
process and exceeding it aborts the process); a crashed child becomes an ``error`` record.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from .backends.base import Backend, BackendUnavailable
from .check import check_answer, loop_satisfies_clues, split_loops
from .formulations import Formulation, Model
from .puzzle import Puzzle, answer_to_bits

STATUSES = ("solved", "max_iterations", "timeout", "skipped", "error")
# Outcomes that are a result; "skipped" and "error" are retried when a run resumes.
FINAL_STATUSES = ("solved", "max_iterations", "timeout")


@dataclass
class TrialResult:
    trial: dict[str, Any]
    iterations: list[dict[str, Any]] = field(default_factory=list)

    @property
    def status(self) -> str:
        return str(self.trial["status"])


def _new_trial(
    puzzle: Puzzle, formulation: Formulation, backend: Backend, seed: int
) -> dict[str, Any]:
    return {
        "puzzle": puzzle.name or puzzle.size_label,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "clues": puzzle.num_clues,
        "formulation": formulation.name,
        "form_variant": formulation.describe(),
        "backend": backend.name,
        "seed": seed,
        "status": "error",
        "reason": "",
        "iterations": 0,
        "retries": 0,
        "wall_s": 0.0,
        "solve_s": 0.0,
        "start_s": 0.0,
        "build_s": 0.0,
        "overhead_s": 0.0,
        "num_variables": 0,
        "num_terms": 0,
        "max_degree": 0,
        "num_cuts": 0,
        "answer": "",
        "answer_loop_size": 0,
        "verified": False,
        "mode": "",
        "hint_used": False,
        "reduction_added": 0,
        "reduction_negative_energy": False,
    }


def _run_trial_here(
    puzzle: Puzzle,
    formulation: Formulation,
    backend: Backend,
    seed: int,
    max_iterations: int,
    time_limit_s: float,
) -> TrialResult:
    t_start = time.perf_counter()
    trial = _new_trial(puzzle, formulation, backend, seed)
    result = TrialResult(trial)
    reason = backend.unsupported_reason(formulation) or backend.available()
    if reason:
        trial.update(status="skipped", reason=reason)
        return result
    model: Model | None = None
    try:
        t0 = time.perf_counter()
        model = Model.build(puzzle, formulation)
        backend.start(model)
        prev_edges: list[bool] | None = None
        build_s = time.perf_counter() - t0  # the model and the backend's copy of it
        trial["build_s"] += build_s
        for iteration in range(1, max_iterations + 1):
            left = time_limit_s - (time.perf_counter() - t_start)
            if left <= 0:
                trial.update(status="timeout", reason=f"time limit {time_limit_s:g} s reached")
                break
            hint = model.complete(prev_edges) if prev_edges is not None else None
            ss = backend.solve(model, seed=seed + 7919 * iteration, hint=hint, time_limit_s=left)
            sample = {int(k): int(v) for k, v in ss.first.sample.items()}
            energy = model.energy(sample)
            edges = model.edges_of(sample)
            loops = split_loops(puzzle, edges) if energy == 0 else []
            info = ss.info
            trial["iterations"] = iteration
            trial["solve_s"] += float(info.get("solve_s", 0.0))
            trial["start_s"] += float(info.get("start_s", 0.0))
            trial["mode"] = str(info.get("mode", ""))
            trial["hint_used"] = trial["hint_used"] or bool(info.get("hint_used", False))
            trial["reduction_negative_energy"] |= bool(info.get("reduction_negative_energy", False))
            trial["reduction_added"] = max(
                trial["reduction_added"], int(info.get("reduction_added", 0))
            )
            row = {
                "iteration": iteration,
                "energy": energy,
                "backend_energy": float(ss.first.energy),
                "num_loops": len(loops),
                "loop_sizes": [len(lp) for lp in loops],
                "num_variables": model.num_variables,
                "num_terms": model.num_terms,
                "max_degree": model.max_degree,
                "num_cuts": model.num_cuts,
                "build_s": build_s,
                "start_s": float(info.get("start_s", 0.0)),
                "solve_s": float(info.get("solve_s", 0.0)),
                "hint_used": bool(info.get("hint_used", False)),
                "mode": str(info.get("mode", "")),
                "edges": answer_to_bits(edges),
                "reduction_negative_energy": bool(info.get("reduction_negative_energy", False)),
            }
            result.iterations.append(row)
            prev_edges = edges
            build_s = 0.0
            if energy != 0:
                trial["retries"] += 1  # not a valid multi-loop sample: solve again from it
                continue
            answer_loop = next((lp for lp in loops if loop_satisfies_clues(puzzle, lp)), None)
            if answer_loop is not None:
                on = set(answer_loop)
                answer = [e in on for e in range(puzzle.num_edges)]
                problems = check_answer(puzzle, answer)
                trial.update(answer=answer_to_bits(answer), answer_loop_size=len(answer_loop))
                if problems:
                    trial.update(
                        status="error", reason="answer failed the check: " + "; ".join(problems[:3])
                    )
                else:
                    trial.update(status="solved", reason="", verified=True)
                break
            if not loops:
                trial.update(
                    status="error",
                    reason="an energy-0 sample with no loop: the clues admit an empty board",
                )
                break
            t0 = time.perf_counter()
            for lp in loops:
                model.add_cut(lp)
            build_s = time.perf_counter() - t0
            trial["build_s"] += build_s
        else:
            trial.update(
                status="max_iterations", reason=f"{max_iterations} iterations without an answer"
            )
    except BackendUnavailable as exc:
        trial.update(
            status="skipped",
            reason=f"{exc} (at iteration {trial['iterations'] + 1})"
            if trial["iterations"]
            else str(exc),
        )
    except Exception as exc:
        status = getattr(exc, "status", "error")
        trial.update(
            status=status if status in STATUSES else "error", reason=f"{type(exc).__name__}: {exc}"
        )
        if os.environ.get("SLITHERBENCH_DEBUG"):
            traceback.print_exc()
    finally:
        backend.close()
    if model is not None:
        trial.update(
            num_variables=model.num_variables,
            num_terms=model.num_terms,
            max_degree=model.max_degree,
            num_cuts=model.num_cuts,
        )
    trial["wall_s"] = time.perf_counter() - t_start
    trial["overhead_s"] = max(0.0, trial["wall_s"] - trial["solve_s"])
    return result


# -- isolation ---------------------------------------------------------------------------
def _child(conn: Any, args: tuple[Any, ...]) -> None:
    # pyqbpp prints a banner and licence notes; keep the parent's output clean (errors come
    # back through the pipe). SLITHERBENCH_DEBUG=1 keeps them.
    if not os.environ.get("SLITHERBENCH_DEBUG"):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
    try:
        conn.send(_run_trial_here(*args))
    except BaseException as exc:  # pragma: no cover - reported by the parent
        conn.send(exc)
    finally:
        conn.close()


def _context() -> mp.context.BaseContext:
    # forkserver: children fork from a fresh server that never imported pyqbpp, so each trial
    # starts with an untouched variable budget, without a full interpreter start each time.
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["slitherbench.runner", "slitherbench.formulations"])
        return ctx
    return mp.get_context("spawn")


def run_in_fresh_process(
    puzzle: Puzzle,
    formulation: Formulation,
    backend: Backend,
    seed: int,
    max_iterations: int,
    time_limit_s: float,
    grace_s: float = 60.0,
) -> TrialResult:
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    args = (puzzle, formulation, backend, seed, max_iterations, time_limit_s)
    proc = ctx.Process(target=_child, args=(child, args), daemon=True)
    t0 = time.perf_counter()
    proc.start()
    child.close()
    got: Any = None
    if parent.poll(time_limit_s + grace_s):
        try:
            got = parent.recv()
        except EOFError:
            got = None
    proc.join(5)
    if proc.is_alive():
        proc.kill()
        proc.join()
    if isinstance(got, TrialResult):
        got.trial["isolated"] = True
        # The trial's wall time is measured in the child; this adds the process around it.
        got.trial["process_wall_s"] = time.perf_counter() - t0
        return got
    trial = _new_trial(puzzle, formulation, backend, seed)
    trial["wall_s"] = trial["process_wall_s"] = time.perf_counter() - t0
    trial["isolated"] = True
    if isinstance(got, BaseException):
        trial["reason"] = f"{type(got).__name__}: {got}"
    elif proc.exitcode is not None and proc.exitcode < 0:
        sig = signal.Signals(-proc.exitcode).name
        trial["reason"] = f"the trial's process was killed by {sig}"
    elif got is None and proc.exitcode is None:
        trial["reason"] = f"the trial's process gave no result within {time_limit_s + grace_s:g} s"
    else:
        trial["reason"] = f"the trial's process exited with code {proc.exitcode} and no result"
    return TrialResult(trial)


def run_trial(
    puzzle: Puzzle,
    formulation: Formulation,
    backend: Backend,
    seed: int,
    max_iterations: int = 100,
    time_limit_s: float = 60.0,
    isolate: bool | None = None,
) -> TrialResult:
    """One trial of the iterative method. ``isolate`` defaults to the backend's need."""
    if isolate is None:
        isolate = backend.needs_fresh_process
    args = (puzzle, formulation, backend, seed, max_iterations, time_limit_s)
    if isolate:
        return run_in_fresh_process(*args)
    result = _run_trial_here(*args)
    result.trial["isolated"] = False
    result.trial["process_wall_s"] = result.trial["wall_s"]
    return result
