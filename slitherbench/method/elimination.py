"""The reference page's elimination loop, once for the whole package.

    repeat: solve; decode the solution into edges; split them into loops; stop if one loop
    alone satisfies every clue and rule; otherwise forbid every loop found and solve again
    from the previous solution.

:class:`Elimination` owns that loop; what solves is passed in as a *solve step*. The runner
(any form on any backend, :func:`~slitherbench.run.runner.run_trial`), the exact families' lazy
loop and direct mode (:func:`~slitherbench.solvers.constraints.lazy_answers`), the exact
precheck (:func:`~slitherbench.solvers.cpsat_model.solve_exact`, through that lazy loop) and the generator's
uniqueness judge (:class:`~slitherbench.sources.generate.SatJudge`) each give it their own step.

A solve step is a callable ``solve(k, time_left_s, previous_edges)`` (``k`` counts solves
from 1; ``previous_edges``: the last solution's edges, None before the first) returning

* a :class:`~slitherbench.method.record.SolveResult`: a sample of the model, judged by the model's
  own energy (a sample whose energy is not 0 is no valid multi-loop solution: it is retried);
* a plain edge list: an exact solver's assignment, which satisfies every constraint so far;
* None: no assignment is left (or the solver gave up: the step's owner knows which).

Tutorial
--------
A 2x3 board whose bottom row is clued 3, 2, 3, and a scripted solve step that first returns
two 1x2 loops (every clue holds, but by neither loop alone), then the bottom row's loop:

>>> from slitherbench.method.elimination import Elimination
>>> from slitherbench.models.formulations import ConsFormulation, Model
>>> from slitherbench.puzzles.puzzle import Puzzle
>>> puzzle = Puzzle.from_rows(["...", "323"])
>>> model = Model.build(puzzle, ConsFormulation())
>>> script = [[0, 6, 9, 10, 13, 14, 2, 8, 11, 12, 15, 16], [3, 4, 5, 6, 7, 8, 13, 16]]
>>> def solve(k, time_left_s, previous_edges):
...     on = set(script[k - 1])
...     return [e in on for e in range(puzzle.num_edges)]
>>> loop = Elimination(model, solve)
>>> for step in loop.steps():  # each solve, judged, before its cuts are added
...     print(step.iteration, [len(lp) for lp in step.loops], model.num_cuts)
1 [6, 6] 0
2 [8] 2
>>> loop.stop, loop.solved, loop.answers, loop.problems
('answer', True, [[3, 4, 5, 6, 7, 8, 13, 16]], [])

Both loops of the first solution were forbidden by the page's loop cut (not all of a loop's
edges on), numbered in the model as every form numbers them:

>>> [(p.constraint.kind, p.constraint.index, p.constraint.edges) for p in model.pieces[-2:]]
[('cut', 0, (0, 6, 9, 10, 13, 14)), ('cut', 1, (2, 8, 11, 12, 15, 16))]

A sampler's step returns :class:`~slitherbench.method.record.SolveResult` samples; one that breaks a
constraint (energy not 0: here two ends of degree 1 and three clues unmet) is retried and
nothing is cut. ``want=2`` looks for a second
answer after the first (forbidding the first alone); a step that finds no assignment left
ends the loop ("exhausted": with one answer, it was the only one):

>>> from slitherbench.method.record import SolveResult
>>> model = Model.build(puzzle, ConsFormulation())
>>> samples = [[0, 1, 2], script[0], script[1], None]  # first: a path along the top
>>> def sample(k, time_left_s, previous_edges):
...     if samples[k - 1] is None:
...         return None
...     on = set(samples[k - 1])
...     s = model.complete([e in on for e in range(puzzle.num_edges)])
...     return SolveResult(s, model.energy(s))
>>> loop = Elimination(model, sample, want=2)
>>> [(step.iteration, step.energy, step.retry) for step in loop.steps()]
[(1, 24, True), (2, 0, False), (3, 0, False)]
>>> loop.stop, len(loop.answers), model.num_cuts, loop.iterations
('exhausted', 1, 3, 4)

Where it stops (:attr:`Elimination.stop`): ``answer`` (enough answers; :attr:`solved` when
the independent checker, :func:`~slitherbench.puzzles.check.check_answer`, accepts it), ``empty`` (a
solution with no loop: the clues admit the empty board; ``on_empty`` may rule it out and go
on instead), ``stuck`` (loops that hold no answer and give no cut), ``exhausted`` (the step
returned None), ``timeout`` (``deadline`` passed before a solve) or ``max_iterations``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from slitherbench.method.record import SolveResult
from slitherbench.puzzles.check import answer_edges, check_answer, loop_satisfies_clues, split_loops
from slitherbench.puzzles.description import Constraint, cut_constraint, sample_cuts

if TYPE_CHECKING:  # the loop works on any model through its methods; models sit above it
    from slitherbench.models.formulations import Model

# solve(k, time_left_s, previous_edges) -> a sample, an exact assignment's edges, or None
SolveStep = Callable[[int, float, list[bool] | None], SolveResult | Sequence[bool] | None]

STOPS = ("answer", "empty", "stuck", "exhausted", "timeout", "max_iterations")
REASONS = {
    "empty": "an energy-0 sample with no loop: the clues admit an empty board",
    "stuck": "the sample's loops hold no answer and give no cut",
    "exhausted": "the solve step found no assignment",
}


@dataclass
class Step:
    """One solve, judged: what the loop saw before acting on it."""

    iteration: int  # solves so far, this one included
    edges: list[bool]  # the solution decoded (face variables: the borders between colours)
    energy: int  # the model's energy of the sample (0 for an exact assignment)
    loops: list[list[int]]  # its loops (edge indices); none when the energy is not 0
    result: SolveResult | None = None  # the step's result (None: an exact assignment's edges)
    build_s: float = 0.0  # time spent extending the model since the previous solve (cuts)
    broken: list[Constraint] = field(default_factory=list)  # deferred rules it breaks
    answers: list[list[int]] = field(default_factory=list)  # answers among its loops

    @property
    def retry(self) -> bool:
        """Not a valid multi-loop solution (energy not 0): solved again, nothing cut."""
        return self.energy != 0


class Elimination:
    """solve -> decode -> split -> stop -> cut, with the solve step passed in.

    ``model``: where the cuts go (loop or region cuts, as ``model.formulation.cut`` says) and
    how a sample is decoded and judged. An exact step's model may hold only what the run adds,
    the solver holding the description itself: its assignments are never judged by energy.
    ``want``: answers to find before stopping (2: a uniqueness check; each answer found before
    is forbidden alone, so that another can show). ``verify``: judge each answer found with
    :func:`~slitherbench.puzzles.check.check_answer` (:attr:`problems`; one it refuses stops the loop);
    without it nothing is :attr:`solved`, and whoever records an answer must check it. ``on_empty``: called on a
    solution without loops instead of stopping (an exact solver rules the empty board out).
    """

    def __init__(
        self,
        model: Model,
        solve: SolveStep,
        *,
        want: int = 1,
        verify: bool = True,
        on_empty: Callable[[], None] | None = None,
        max_iterations: int | None = None,
        deadline: float | None = None,
    ) -> None:
        if want < 1:
            raise ValueError(f"want must be at least 1, got {want}")
        self.model, self.puzzle, self.solve = model, model.puzzle, solve
        self.want, self.verify, self.on_empty = want, verify, on_empty
        self.max_iterations, self.deadline = max_iterations, deadline
        self.stop: str | None = None  # why the loop ended (one of STOPS)
        self.answers: list[list[int]] = []  # the answers found (edge indices), in order
        self.problems: list[str] = []  # the checker's verdict on the last answer (verify)
        self.checked = False
        self.iterations = 0  # solves
        self.cuts = 0  # constraints this loop added to the model
        self.cut_s = 0.0  # time spent making and adding them
        self.edges: list[bool] | None = None  # the last solution's edges
        self._extend_s = 0.0  # model extension since the last solve (the next Step's build_s)

    @property
    def solved(self) -> bool:
        """Stopped on an answer that the independent checker accepted."""
        return self.stop == "answer" and self.checked and not self.problems

    @property
    def reason(self) -> str:
        """Why the loop ended without an answer, in one line ("" when it has not ended)."""
        if self.stop == "max_iterations":
            return f"{self.max_iterations} iterations without an answer"
        if self.stop == "answer" and self.problems:
            return "answer failed the check: " + "; ".join(self.problems[:3])
        return REASONS.get(self.stop or "", "")

    def run(self) -> Elimination:
        """The whole loop; returns itself (read :attr:`stop`, :attr:`answers`)."""
        for _ in self.steps():
            pass
        return self

    def steps(self) -> Iterator[Step]:
        """The loop, one :class:`Step` per solve, yielded before the loop acts on it (so the
        model is as that solve saw it). Leaving the iteration early leaves the loop there."""
        while True:
            if self.max_iterations is not None and self.iterations >= self.max_iterations:
                self.stop = "max_iterations"
                return
            left = float("inf") if self.deadline is None else self.deadline - time.perf_counter()
            if left <= 0:
                self.stop = "timeout"
                return
            got = self.solve(self.iterations + 1, left, self.edges)
            self.iterations += 1
            if got is None:
                self.stop = "exhausted"
                return
            step = self._judge(got)
            yield step
            if self._act(step):
                return

    def _judge(self, got: SolveResult | Sequence[bool]) -> Step:
        """Decode, split and look for answers: nothing in the model changes here."""
        m = self.model
        if isinstance(got, SolveResult):
            energy, edges = m.energy(got.sample), m.edges_of(got.sample)
            result = got
        else:
            energy, edges, result = 0, list(got), None
        self.edges = edges
        step = Step(self.iterations, edges, energy, [], result, self._extend_s)
        self._extend_s = 0.0
        if energy != 0:
            return step
        step.loops = split_loops(self.puzzle, edges)
        step.broken = m.broken_deferred(edges)
        if not step.broken:
            step.answers = self._answers_in(step.loops)
        return step

    def _answers_in(self, loops: list[list[int]]) -> list[list[int]]:
        """The page's stopping test: loops that satisfy every clue and rule alone (a puzzle
        variant's own choice, e.g. one loop per colour), as many as are still wanted."""
        if self.puzzle.variant:
            found = answer_edges(self.puzzle, loops)
            return [] if found is None else [found]
        need, out = self.want - len(self.answers), []
        for lp in loops:
            if loop_satisfies_clues(self.puzzle, lp):
                out.append(lp)
                if len(out) == need:
                    break
        return out

    def _act(self, step: Step) -> bool:
        """Act on a judged solve: True when the loop stops."""
        if step.retry:
            return False
        if step.broken:  # a lazy form's rule broken at energy 0: add it there, solve again
            self.model.add_deferred(step.broken)
            return False
        for answer in step.answers:
            self.answers.append(answer)
            if self._refused(answer) or len(self.answers) >= self.want:
                self.stop = "answer"
                return True
        if not step.loops:
            if self.on_empty is None:
                self.stop = "empty"
                return True
            self.on_empty()
            return False
        if not self._cut(step):
            self.stop = "stuck"
            return True
        return False

    def _refused(self, answer: list[int]) -> bool:
        """With ``verify``: the independent checker's verdict on an answer (kept in
        :attr:`problems`); an answer it refuses ends the loop."""
        if not self.verify:
            return False
        on = set(answer)
        self.problems = check_answer(self.puzzle, [e in on for e in range(self.puzzle.num_edges)])
        self.checked = True
        return bool(self.problems)

    def _cut(self, step: Step) -> bool:
        """Forbid the solution's loops as the model's form says (:meth:`Model.add_cuts`); an
        answer found while more are wanted is forbidden alone, by a loop cut (a region cut
        never cuts a single loop). False when the loops give no cut."""
        t0 = time.perf_counter()
        m, p = self.model, self.puzzle
        before = m.num_cuts
        if not step.answers:
            m.add_cuts(step.loops)
        elif p.variant:  # a variant's answer spans loops: cut it as a whole
            for a in step.answers:
                m.add_cut(a)
        else:
            answers = {tuple(a) for a in step.answers}
            cuts = sample_cuts(p, step.loops, m.formulation.cut, before)
            for lp, c in zip(step.loops, cuts, strict=True):
                # the model's own way in (encoded by its form, counted), with the answer's
                # loop cut in place of the cut sample_cuts made for that loop
                m._add(cut_constraint(lp, c.index) if tuple(lp) in answers else c)
        added = m.num_cuts - before
        if not added:
            return False
        self.cuts += added
        spent = time.perf_counter() - t0
        self.cut_s += spent
        self._extend_s = spent
        return True
