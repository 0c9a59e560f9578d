"""Work in a child process, held to a deadline: the one place that starts, waits for and
kills children (a trial in a fresh process, a solve that cannot be interrupted, a ZDD build
under a memory cap).

>>> from slitherbench.child import run_in_child
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
