"""The compiled look-ahead 1 loop finds what the Python loop finds, and a probe undoes itself.

The compiled loop (slitherbench/deduction/compiled.py, kernel.py) decides only which moves
look-ahead 1 makes; the engine applies them. These tests hold it to the Python loop on every
board kind the corpus and library have, with cuts, fixed edges, uniqueness assumed or not,
boards with no answer, and its fallback when its arrays are too small. Compiling it takes
about 12 s on 2 cores the first time (numba caches it), so the comparisons run in the full
suite only; the fast subset keeps the checks that need no compiled code.
"""

from __future__ import annotations

import dataclasses
import random
import sys

import pytest
from test_deduction_properties import grid_corpus

from slitherbench.deduction import compiled, deduce
from slitherbench.deduction.engine import Engine
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.sources.generate import random_loop
from slitherbench.sources.library import loopy_dev, shipped


def state(engine: Engine) -> tuple:
    """Everything a probe may change and must restore."""
    return (
        list(engine.edge), list(engine.pon), list(engine.punk), list(engine.fon),
        list(engine.funk), list(engine.root), list(engine.par),
        [list(m) for m in engine.members], list(engine.other_end), list(engine.seg_len),
        list(engine.cut_on), list(engine.cut_unk), engine.on_total, engine.unknown,
        engine.deficit, list(engine.candidates), engine.uniq,
    )  # fmt: skip


def with_cuts(p: Puzzle, seed: int, answer=None) -> list[list[int]]:
    """Cuts of loops other than the answer, as a run of the elimination adds them."""
    rng = random.Random(seed)
    loops = [random_loop(p.board, rng) for _ in range(4)]
    answer = [bool(x) for x in (p.meta["answer"] if answer is None else answer)]
    return [[e for e, x in enumerate(lp) if x] for lp in loops if list(lp) != answer]


def test_every_probe_leaves_the_state_as_it_found_it() -> None:
    """A probe that ends in a contradiction undoes every count it changed (the cut counts
    included: an edge in a cut whose probe fails at the face sides once left them wrong)."""
    failed = 0
    for p in [q for q in loopy_dev() if q.size_label in ("5x5", "7x7")][:6]:
        engine = Engine(p, with_cuts(p, 3))
        engine.propagate()
        before = state(engine)
        for e in range(p.num_edges):
            if engine.edge[e] != -1:
                continue
            for v in (1, 0):
                hit, _ = engine._probe(e, v, False)
                failed += hit
                assert state(engine) == before, f"{p.name}: probing edge {e}={v}"
    assert failed > 20  # the contradictions the undo must survive did happen


def test_the_engine_choice_and_its_errors(monkeypatch) -> None:
    small = loopy_dev()[0]
    big = next(p for p in loopy_dev() if p.num_edges >= compiled.MIN_EDGES)
    monkeypatch.setenv(compiled.ENV, "fast")
    with pytest.raises(ValueError, match="use auto, python or compiled"):
        compiled.mode()
    monkeypatch.setenv(compiled.ENV, "python")
    assert not compiled.covers(Engine(big))
    monkeypatch.delenv(compiled.ENV)
    assert not compiled.covers(Engine(small))  # too small to pay for itself
    monkeypatch.setattr(compiled, "AVAILABLE", False)
    assert not compiled.covers(Engine(big))  # without numba: the Python loop, silently
    monkeypatch.setenv(compiled.ENV, "compiled")
    with pytest.raises(ImportError, match="needs numba"):
        compiled.covers(Engine(big))
    monkeypatch.setattr(compiled, "AVAILABLE", True)
    assert compiled.covers(Engine(small))  # asked for by name: any size
    rules = dataclasses.replace(small, rules=("no_square",))
    assert not compiled.covers(Engine(rules))  # rule hooks need their own Python code


def both(monkeypatch, puzzle: Puzzle, level: str = "lookahead1", **kw):
    monkeypatch.setenv(compiled.ENV, "python")
    slow = deduce(puzzle, level, **kw)
    monkeypatch.setenv(compiled.ENV, "compiled")
    fast = deduce(puzzle, level, **kw)
    return slow, fast


@pytest.mark.slow
def test_compiled_lookahead1_matches_the_python_loop_on_every_board(monkeypatch) -> None:
    pytest.importorskip("numba", reason="numba is not installed: the Python loop runs alone")
    boards = [*((p, p.meta["answer"]) for p in loopy_dev()), *grid_corpus(),
              *((p, p.meta.get("answer")) for p in [*shipped("lookahead"), *shipped("targets")])]  # fmt: skip
    fixed_somewhere = with_cut = 0
    for i, (p, answer) in enumerate(boards):
        for unique in (False, True):
            slow, fast = both(monkeypatch, p, assume_unique=unique)
            assert fast == slow, f"{p.name} (assume_unique={unique})"
        fixed_somewhere += slow.fixed_share["lookahead1"] > slow.fixed_share["rules"]
        # cuts and part of the answer given (random loops take long to draw on big boards)
        if answer is not None and p.num_edges <= 400 and i % 2 == 0:
            given = {e: int(answer[e]) for e in random.Random(i).sample(range(p.num_edges), 5)}
            cuts = with_cuts(p, i, answer)
            slow, fast = both(monkeypatch, p, fixed=given, cuts=cuts)
            assert fast == slow, f"{p.name} with cuts"
            with_cut += 1
    assert with_cut > 40
    assert fixed_somewhere > 50  # look-ahead 1 did work beyond the rules on many boards


@pytest.mark.slow
def test_compiled_lookahead_inside_lookahead2_and_on_boards_without_answers(monkeypatch) -> None:
    pytest.importorskip("numba", reason="numba is not installed: the Python loop runs alone")
    for p in [q for q in shipped("lookahead") if q.num_faces <= 100][:6]:
        slow, fast = both(monkeypatch, p, "lookahead2")
        assert fast == slow, p.name
    # Boards with no answer: a clue changed on solved boards, and cuts that forbid the answer.
    seen = 0
    for p in [q for q in loopy_dev() if q.size_label in ("7x7", "10x10")][:8]:
        answer = [bool(x) for x in p.meta["answer"]]
        slow, fast = both(monkeypatch, p, cuts=[[e for e, x in enumerate(answer) if x]])
        assert fast == slow and slow.contradiction is not None, p.name
        seen += 1
    assert seen == 8


@pytest.mark.slow
def test_too_small_arrays_fall_back_to_the_python_loop(monkeypatch) -> None:
    pytest.importorskip("numba", reason="numba is not installed: the Python loop runs alone")
    p = next(q for q in loopy_dev() if q.meta["grade"] == "lookahead1" and q.size_label == "10x10")
    monkeypatch.setenv(compiled.ENV, "python")
    expected = deduce(p, "lookahead1")
    monkeypatch.setenv(compiled.ENV, "compiled")
    results = []
    real = compiled.lookahead1
    monkeypatch.setattr(compiled, "lookahead1", lambda engine: results.append(real(engine)))
    monkeypatch.setattr(compiled, "PER_EDGE", (0, 0, 0))
    monkeypatch.setattr(compiled, "SLACK", 2)
    assert deduce(p, "lookahead1") == expected
    assert results and all(r is None for r in results)  # the kernel said so; Python ran


def test_compiled_code_that_cannot_load_falls_back_with_a_warning(monkeypatch) -> None:
    """Where the kernel cannot be imported (no numba wheel, a numba that refuses an option),
    ``auto`` warns and runs the Python loop; ``compiled`` raises."""
    p = next(q for q in loopy_dev() if q.meta["grade"] == "lookahead1" and q.size_label == "10x10")
    monkeypatch.setenv(compiled.ENV, "python")
    expected = deduce(p, "lookahead1")
    monkeypatch.setitem(sys.modules, "slitherbench.deduction.kernel", None)  # import fails
    monkeypatch.delattr(sys.modules["slitherbench.deduction"], "kernel", raising=False)
    monkeypatch.setattr(compiled, "AVAILABLE", True)
    monkeypatch.setattr(compiled, "MIN_EDGES", 1)
    monkeypatch.setenv(compiled.ENV, "auto")
    with pytest.warns(RuntimeWarning, match="cannot be loaded"):
        assert deduce(p, "lookahead1") == expected
    monkeypatch.setenv(compiled.ENV, "compiled")
    with pytest.raises(ImportError):
        deduce(p, "lookahead1")
