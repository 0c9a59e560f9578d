"""Puzzle rules beyond Slitherlink's own, as plugins: one module per rule in this package.

A puzzle names its rules in :attr:`Puzzle.rules <slitherbench.puzzles.puzzle.Puzzle>` (a sorted
tuple of names, empty for plain Slitherlink); ``puzzle.rules=[NAME]`` chooses them on the
command line and ``rules=NAME;`` in front of a puzzle's text. Each rule is a subclass of
:class:`Rule` in a module of this package, found by scanning it (:func:`rules`, as
:mod:`slitherbench.puzzles.boards.loopy` finds its grid types), with one ``conf/rule/<name>.yaml``
that names its class (``_target_``) and says what it is. A rule defined elsewhere (a test's,
a user's own module) is added with :func:`register_rule`, or from the command line by its
config file alone: ``puzzle.rules=[NAME]`` registers the class a ``rule/NAME.yaml`` on Hydra's
search path names. A registered rule travels with a pickled puzzle (a trial's fresh process).

A rule's hooks (each documented on :class:`Rule`):

* :meth:`Rule.board_problem`: on which boards it applies (one line where it does not);
* :meth:`Rule.constraints`: what it adds to the constraint description, as
  :class:`~slitherbench.models.formulations.base.Constraint` rows with a *shape* and a *weight
  class*. Every form and exact family encodes a row by its shape, never by the rule's name,
  and a shape one cannot encode is a one-line skip of that trial; so a rule made of known
  shapes needs no change anywhere else;
* :meth:`Rule.problems`: how the checker judges an answer, by the rule's own code (not from
  its constraints: the checker shares nothing with what the solvers were given). Required:
  a rule without it is refused when it is registered, in one line, so no answer can be
  recorded ``solved`` under a rule the checker does not judge;
* :meth:`Rule.may_join` and :attr:`Rule.region_fill`: how the generator's random region
  keeps the rule as it grows (a quick test per face; the checker judges the region too);
* :meth:`Rule.face_nogoods` (optional): the rule as sets of face sides that must not all
  hold, for the deduction engine (:mod:`slitherbench.deduction`); a rule without it takes
  no part in deduction.

Cuts and the stopping test take no hook: a loop cut or a region cut forbids only edge sets
that are no answer, whatever the rules, and the stopping test ("one loop that keeps every
clue and rule", :func:`slitherbench.puzzles.check.loop_satisfies_clues`) asks :meth:`Rule.problems`.
A backend that cannot take a rule says so in one line when its trial starts: the ZDD takes a
rule whose rows are ranges of edge sums (the tutorial's, which keeps the loop off the
board's border) and skips one on faces such as No-Square (graphillion constrains degrees and
edge sums, not which faces lie inside the loop).

This package imports nothing of slitherbench but :mod:`slitherbench.puzzles.boards` (the board model
imports it to check rule names); a rule module may import the constraint description.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

from slitherbench.puzzles.boards import Board

__all__ = [
    "Rule",
    "RuleError",
    "adopt_rules",
    "get_rule",
    "known_rules",
    "normal_rules",
    "register_rule",
    "rule_problem",
    "rules",
    "travelling_rules",
    "unregister_rule",
]


class RuleError(ValueError):
    """A rule that cannot be used (unknown, or a class without a required hook): one line."""


class Rule:
    """One rule of a puzzle beyond Slitherlink's own. Subclasses set :attr:`name` and
    :attr:`summary` and implement :meth:`problems`; the other hooks have defaults."""

    name: ClassVar[str]  # in Puzzle.rules, in ``rules=NAME;`` text and conf/rule/<name>.yaml
    summary: ClassVar[str]  # one line: what the rule asks of the loop
    # The share of the faces the generator's random region aims at under this rule (the
    # lowest of a puzzle's rules is taken): a rule that forbids regions stalls the growth
    # sooner than plain Slitherlink's 0.55.
    region_fill: ClassVar[float] = 0.5

    def board_problem(self, board: Board) -> str | None:
        """One line saying why the rule has no meaning on ``board`` (None: it applies)."""
        return None

    def constraints(self, puzzle: Any) -> Sequence[Any]:
        """The rule as :class:`~slitherbench.models.formulations.base.Constraint` rows of the
        description, each with its ``shape`` and ``weight`` class; on face colours (``faces``)
        or on edges. Rows over faces make every edge form and exact family add one variable
        per face, tied to the edges. The default adds none: the elimination alone honours
        the rule then (a loop that breaks it is cut like one that breaks a clue)."""
        return ()

    def problems(self, puzzle: Any, edges: Sequence[bool]) -> list[str]:
        """What ``edges`` (one bool per edge of the puzzle's board) breaks of the rule, one
        line each naming the rule; empty when it keeps it. Written independently of
        :meth:`constraints`: this is the checker's judgement."""
        raise NotImplementedError

    def may_join(self, board: Board, inside: Sequence[bool], face: int) -> bool:
        """Whether the generator's growing region (``inside``) may take ``face`` and still
        keep the rule, or could keep it later. A quick filter only: every region grown is
        judged by :meth:`problems` as well."""
        return True

    def face_nogoods(self, board: Board) -> Sequence[Sequence[tuple[int, int]]] | None:
        """The rule for the deduction engine: sets of ``(face, side)`` pairs (1 inside the
        loop, 0 outside) that must never all hold on ``board``. None (the default): the rule
        gives the engine no moves (an answer that breaks it is still rejected by
        :meth:`problems`)."""
        return None


def _refusal(cls: type) -> str | None:
    """Why ``cls`` cannot be registered as a rule (None: it can)."""
    if not (isinstance(cls, type) and issubclass(cls, Rule)):
        return f"{cls!r} is not a subclass of slitherbench.puzzles.rules.Rule"
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name.isidentifier():
        return f"rule class {cls.__qualname__} has no name (a Python identifier)"
    if cls.problems is Rule.problems:
        return f"rule {name} has no checker hook (problems): the checker could not judge it"
    if not isinstance(getattr(cls, "summary", None), str):
        return f"rule {name} has no summary"
    return None


@cache
def _package_rules() -> dict[str, Rule]:
    """Every rule class defined in a module of this package, by name."""
    found: dict[str, Rule] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not issubclass(cls, Rule):
                continue
            refusal = _refusal(cls)
            if refusal is not None:
                raise RuleError(f"{module.__name__}: {refusal}")
            if cls.name in found:
                raise RuleError(f"two rule classes are named {cls.name!r}")
            found[cls.name] = cls()
    return found


_REGISTERED: dict[str, Rule] = {}  # rules from outside the package (register_rule)


def rules() -> dict[str, Rule]:
    """Every known rule by name: the package's, then the registered ones."""
    return {**_package_rules(), **_REGISTERED}


def known_rules() -> tuple[str, ...]:
    return tuple(sorted(rules()))


def get_rule(name: str) -> Rule:
    found = rules().get(name)
    if found is None:
        raise RuleError(f"unknown rule {name!r} (known: {', '.join(known_rules())})")
    return found


def register_rule(cls: type[Rule]) -> type[Rule]:
    """Add a rule class defined outside this package (usable as a decorator). A class
    without a checker hook, or with a name taken, is refused in one line."""
    refusal = _refusal(cls)
    if refusal is not None:
        raise RuleError(refusal)
    if cls.name in rules():
        raise RuleError(f"a rule named {cls.name!r} is known already")
    _REGISTERED[cls.name] = cls()
    return cls


def unregister_rule(name: str) -> None:
    """Remove a rule added by :func:`register_rule` (the package's own stay)."""
    _REGISTERED.pop(name, None)


def travelling_rules(names: Sequence[str]) -> dict[str, type[Rule]]:
    """The classes of the rules ``names`` that were registered from outside the package: a
    pickled puzzle carries them (by reference), so a trial's fresh process knows them."""
    return {n: type(_REGISTERED[n]) for n in names if n in _REGISTERED}


def adopt_rules(classes: dict[str, type[Rule]]) -> None:
    """Register the rules a puzzle brought along that this process does not know yet."""
    known = rules()
    for name, cls in classes.items():
        if name not in known:
            register_rule(cls)


def rule_problem(names: tuple[str, ...], board: Board) -> str | None:
    """One line saying what is wrong with the rules ``names`` on ``board`` (None: nothing)."""
    for name in names:
        try:
            problem = get_rule(name).board_problem(board)
        except RuleError as exc:
            return str(exc)
        if problem is not None:
            return problem
    return None


def normal_rules(names: Sequence[str] | str | None) -> tuple[str, ...]:
    """Rules as the puzzle keeps them: a sorted tuple of distinct names (a string is one or
    more names separated by commas), so equal rule sets give equal puzzles and keys."""
    if not names:
        return ()
    if isinstance(names, str):
        names = names.split(",")
    return tuple(sorted({str(r).strip() for r in names if str(r).strip()}))
