"""Work in a child process, held to a deadline: the one place that starts, waits for and
kills children (a trial in a fresh process, a solve that cannot be interrupted, a ZDD build
under a memory cap).

>>> from slitherbench.solvers.child import run_in_child
>>> import multiprocessing as mp
>>> run_in_child(mp.get_context("fork"), pow, (2, 10), wait_s=5).got
1024
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class ChildOutcome:
    got: Any  # what the target returned, or the exception it raised; None without an answer
    answered: bool  # an answer came through the pipe in time
    died: bool  # the child closed the pipe without answering (killed, aborted, crashed)
    exitcode: int | None  # after the child was stopped
    waited_s: float


def _relay(conn: Any, target: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        conn.send(target(*args))
    except BaseException as exc:  # reported by the parent
        conn.send(exc)
    finally:
        conn.close()


def run_in_child(
    ctx: Any,
    target: Callable[..., Any],
    args: tuple[Any, ...],
    wait_s: float,
    daemon: bool = False,
    join_s: float = 0.0,
) -> ChildOutcome:
    """``target(*args)`` in a child of context ``ctx``; waits ``wait_s`` for its answer, then
    ``join_s`` for it to exit by itself, and kills it if it has not (freeing a large diagram
    at exit took seconds for nothing)."""
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_relay, args=(child, target, args), daemon=daemon)
    t0 = time.perf_counter()
    proc.start()
    child.close()
    got, answered, died = None, False, False
    try:
        if parent.poll(max(wait_s, 0.01)):
            got, answered = parent.recv(), True
    except EOFError:
        died = True
    finally:
        if join_s > 0:
            proc.join(join_s)
        if proc.is_alive():
            proc.kill()
        proc.join()
    return ChildOutcome(got, answered, died, proc.exitcode, time.perf_counter() - t0)


class SolveWorker:
    """One forked child per trial that runs every solve of a backend that cannot be
    interrupted, killed at the deadline.

    Forking a child per solve cost about 15 ms of the parent's time per iteration (the fork,
    reaping the child) plus the child's copy-on-write faults; here the child is forked at the
    trial's first solve and kept: each later solve sends only the constraints the model gained
    since (a few cuts), which the child adds to its own copy of the model in the same order
    (:meth:`Model.replay <slitherbench.models.formulations.Model.replay>`), then syncs the backend's
    copy and solves. A solve that overruns is stopped by killing the child; the trial ends
    there (the runner's deadline has passed), so the worker is not restarted.

    >>> from slitherbench.solvers.dwave import SABackend
    >>> from slitherbench.models.formulations import HuboFormulation, Model
    >>> from slitherbench.sources.library import generated
    >>> model = Model.build(generated(3, 3, 1), HuboFormulation())
    >>> worker = SolveWorker(SABackend(), model)
    >>> worker.solve(model, {"seed": 0, "hint": None, "time_limit_s": 5}, wait_s=5).answered
    True
    >>> _ = model.add_cut([0, 1, 2, 3])   # the child adds the same cut before the next solve
    >>> worker.solve(model, {"seed": 1, "hint": None, "time_limit_s": 5}, wait_s=5).answered
    True
    >>> worker.close()
    """

    def __init__(self, backend: Any, model: Any) -> None:
        self.backend, self.model = backend, model
        self.proc: Any = None
        self.conn: Any = None
        self.sent = 0  # pieces of the model the child holds

    def _start(self) -> None:
        import multiprocessing as mp

        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_serve, args=(child, self.backend, self.model))
        self.proc.start()
        child.close()

    def solve(self, model: Any, kwargs: dict[str, Any], wait_s: float) -> ChildOutcome:
        """The backend's solve of ``model`` (this worker's model, perhaps with more pieces),
        waiting ``wait_s`` for the answer; on no answer the child is killed."""
        if model is not self.model:
            raise ValueError("a solve worker serves the model of one trial")
        t0 = time.perf_counter()
        fresh = self.proc is None
        if fresh:
            self._start()  # the child inherits the model as it is now, synced by the parent
        new = [p.constraint for p in model.pieces[self.sent :]] if not fresh else []
        self.sent = len(model.pieces)
        got, answered, died = None, False, False
        try:
            self.conn.send((new, model.next_label, kwargs))
            if self.conn.poll(max(wait_s, 0.01)):
                got, answered = self.conn.recv(), True
        except (EOFError, BrokenPipeError, ConnectionResetError):
            died = True
        if not answered:
            self.close()
        exitcode = None if self.proc is None else self.proc.exitcode
        return ChildOutcome(got, answered, died, exitcode, time.perf_counter() - t0)

    def close(self) -> None:
        """Stop the child (at the end of the trial, or when a solve ran past its time)."""
        if self.proc is None:
            return
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()


def _serve(conn: Any, backend: Any, model: Any) -> None:
    """The worker's loop: add the constraints the parent's model gained, sync, solve, answer."""
    while True:
        try:
            new, next_label, kwargs = conn.recv()
        except EOFError:
            return
        try:
            model.replay(new)
            if model.next_label != next_label:  # the same constraints gave other labels
                raise RuntimeError("the solve worker's copy of the model went out of step")
            t0 = time.perf_counter()
            backend.sync(model)
            sync_s = time.perf_counter() - t0
            kwargs = {**kwargs, "time_limit_s": max(kwargs["time_limit_s"] - sync_s, 1e-3)}
            res = backend.solve(model, **kwargs)
            field_name = backend.sync_time_field
            setattr(res, field_name, getattr(res, field_name) + sync_s)
            conn.send(res)
        except BaseException as exc:  # reported by the parent
            conn.send(exc)
