"""Rules are plugins: a rule is one class with documented hooks, found by
scanning ``slitherbench.puzzles.rules`` or added with ``register_rule``; its rows carry their shape and
weight class, so every form and exact family encodes a new rule with no change; the checker
judges every rule through the rule's own hook, so no unknown or half-registered rule gives a
``solved``.

The rule here, ``tutorial_no_border`` (the loop never uses an edge of the board's outer boundary), is
defined in this file only: nothing in the package knows it. On ``..../..../.11./....`` it
leaves one answer (the two middle cells of the second row) where plain Slitherlink has 1473.
"""

from __future__ import annotations

import ast
import os
import runpy
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import SWEEP_LIMITS, constraint_backends, skip_kind
from hydra import compose, initialize_config_dir
from hydra.utils import get_class
from omegaconf import OmegaConf

import slitherbench.puzzles.rules as rules_pkg
from slitherbench.method.record import ConfigError
from slitherbench.models.formulations import (
    ConsFormulation,
    HuboFormulation,
    Model,
    QuboFormulation,
)
from slitherbench.models.formulations.base import EQUAL, PARITY, Constraint, FormUnavailable
from slitherbench.puzzles.boards import Board, square_board
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.puzzles.rules import Rule, RuleError, known_rules, register_rule, unregister_rule
from slitherbench.run.app import CONF_DIR, run_experiment
from slitherbench.run.plan import puzzles_from_config
from slitherbench.run.runner import run_trial
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.sources.generate import generate
from slitherbench.store.results import load

ROOT = Path(__file__).resolve().parents[1]


class TutorialNoBorder(Rule):
    """The loop never uses an edge of the board's outer boundary."""

    name = "tutorial_no_border"
    summary = "the loop never uses an edge of the board's outer boundary"

    def constraints(self, puzzle: Any) -> list[Constraint]:
        # one edge sum equal to 0 per boundary edge (an edge beside the outside, face -1)
        border = [e for e, (f, g) in enumerate(puzzle.board.edge_faces) if min(f, g) < 0]
        return [
            Constraint(self.name, k, (e,), (0,), shape=EQUAL, weight="clue")
            for k, e in enumerate(border)
        ]

    def problems(self, puzzle: Any, edges: Sequence[bool]) -> list[str]:
        # the checker's own count: an edge on the outer boundary is a side of one face only
        sides = [0] * puzzle.num_edges
        for face in puzzle.face_edges:
            for e in face:
                sides[e] += 1
        return [
            f"edge {e} on the outer boundary is on the loop (rule {self.name})"
            for e, n in enumerate(sides)
            if n == 1 and edges[e]
        ]

    def may_join(self, board: Board, inside: Sequence[bool], face: int) -> bool:
        return min(board.face_neighbours[face]) >= 0  # a face beside the outside never joins


ROWS = "..../..../.11./...."
TEXT = f"rules=tutorial_no_border;{ROWS}"
ANSWER = square_board(4, 4).boundary([f in (5, 6) for f in range(16)])


@pytest.fixture
def tutorial_no_border():
    register_rule(TutorialNoBorder)
    yield
    unregister_rule("tutorial_no_border")


def _border_loop(p: Puzzle) -> list[bool]:
    return p.board.boundary([f == 0 for f in range(p.num_faces)])  # round the corner cell


# -- registration -----------------------------------------------------------------------------
def test_a_rule_defined_in_a_test_is_one_registration(tutorial_no_border) -> None:
    assert "tutorial_no_border" in known_rules() and "no_square" in known_rules()
    p = Puzzle.parse(TEXT)
    assert p.rules == ("tutorial_no_border",) and p.to_text() == TEXT
    unregister_rule("tutorial_no_border")
    with pytest.raises(ValueError, match=r"unknown rule 'tutorial_no_border' \(known: no_square"):
        Puzzle.parse(TEXT)


class NoChecker(Rule):
    name = "no_checker"
    summary = "a rule with rows and no checker hook"

    def constraints(self, puzzle: Any) -> list[Constraint]:
        return []


def test_a_rule_without_a_checker_hook_is_refused_in_one_line() -> None:
    with pytest.raises(RuleError, match="rule no_checker has no checker hook") as info:
        register_rule(NoChecker)
    assert "\n" not in str(info.value) and "no_checker" not in known_rules()


def test_a_registered_rule_that_is_gone_never_passes_the_checker(tutorial_no_border) -> None:
    p = Puzzle.parse(TEXT)
    assert check_answer(p, ANSWER) == []
    unregister_rule("tutorial_no_border")
    assert check_answer(p, ANSWER) == [
        "unknown rule 'tutorial_no_border' (known: no_square): the checker cannot judge it"
    ]


RULE_MODULE = """
from slitherbench.puzzles.rules import Rule


class {cls}(Rule):
    name = "{name}"
    summary = "every loop is fine"
{body}
"""


@pytest.fixture
def scanned_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A folder on the rules package's scanned path (as a module of the package would be)."""
    monkeypatch.setattr(rules_pkg, "__path__", [*rules_pkg.__path__, str(tmp_path)])
    rules_pkg._package_rules.cache_clear()
    yield tmp_path
    rules_pkg._package_rules.cache_clear()
    for name in [m for m in sys.modules if m.startswith("slitherbench.puzzles.rules.tmp_")]:
        del sys.modules[name]


def test_a_rule_module_on_the_scanned_path_is_found(scanned_dir: Path) -> None:
    body = "    def problems(self, puzzle, edges):\n        return []\n"
    (scanned_dir / "tmp_anything.py").write_text(
        RULE_MODULE.format(cls="Anything", name="anything", body=body)
    )
    assert "anything" in known_rules()
    assert Puzzle.parse("rules=anything;3.").rules == ("anything",)


def test_a_rule_module_without_a_checker_hook_is_refused_at_start(scanned_dir: Path) -> None:
    (scanned_dir / "tmp_half.py").write_text(RULE_MODULE.format(cls="Half", name="half", body=""))
    cfg = OmegaConf.create({"kind": "generated", "rows": 3, "cols": 3, "count": 1, "seed": 0})
    with pytest.raises(ConfigError, match="rule half has no checker hook") as info:
        puzzles_from_config(cfg)  # with no rule chosen at all
    assert "\n" not in str(info.value)


def test_every_rule_of_the_package_has_its_config_and_every_config_its_rule() -> None:
    """One module + one config: conf/rule/<name>.yaml names the rule's class."""
    package = rules_pkg._package_rules()
    configs = {p.stem: OmegaConf.load(p) for p in (CONF_DIR / "rule").glob("*.yaml")}
    assert set(configs) == set(package) and package
    for name, rule in package.items():
        assert get_class(configs[name]._target_) is type(rule)
        assert configs[name].name == name and rule.summary
        assert rule.board_problem(square_board(3, 3)) is None


def _single_loops_3x3() -> list[tuple[list[bool], list[bool]]]:
    """(inside, edges) of every single loop of a 3x3 board (the boundary of one region)."""
    board = square_board(3, 3)
    blank = Puzzle.on_board(board, [None] * 9)
    out = []
    for bits in range(1, 2**9):
        inside = [bool((bits >> f) & 1) for f in range(9)]
        loop = board.boundary(inside)
        if not check_answer(blank, loop):
            out.append((inside, loop))
    return out


@pytest.mark.parametrize("name", ["tutorial_no_border", *sorted(rules_pkg._package_rules())])
def test_each_rules_rows_and_checker_agree_on_every_3x3_loop(tutorial_no_border, name: str) -> None:
    """Every rule (the package's, found by the scan, and this file's): its rows hold on a loop
    exactly when its checker finds nothing there, on each of the 213 single loops of a 3x3,
    and some loops keep it and some break it."""
    p = Puzzle.on_board(square_board(3, 3), [None] * 9, rules=(name,))
    rows = rules_pkg.get_rule(name).constraints(p)
    kept = []
    for inside, loop in _single_loops_3x3():
        # a row on faces sums the colours (1 inside), any other the edges
        holds = all(
            (sum(inside[f] for f in c.faces) in c.allowed) if c.faces else c.holds(loop)
            for c in rows
        )
        assert holds == (check_answer(p, loop) == []), (name, inside)
        kept.append(holds)
    assert len(kept) == 213 and 0 < sum(kept) < 213


def test_no_module_outside_rules_names_a_rule() -> None:
    """Only the rules package says a rule's name in code (docstrings and comments may)."""
    names = set(rules_pkg._package_rules())
    found = []
    for path in sorted((ROOT / "slitherbench").rglob("*.py")):
        source = path.read_text()
        if path.parent.name == "rules" or not any(n in source.lower() for n in names):
            continue  # the rules' own modules, and a file that never says a name
        tree = ast.parse(source)
        docs = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = "" if id(node) in docs else node.value
            elif isinstance(node, ast.Name | ast.alias | ast.FunctionDef | ast.Attribute):
                text = getattr(node, "id", None) or getattr(node, "name", None) or node.attr
            else:
                continue
            found += [f"{path.name}: {text!r}" for n in names if n in text.lower()]
    assert found == []


# -- the checker, the forms, the exact families -------------------------------------------------
def test_the_checker_rejects_a_border_loop(tutorial_no_border) -> None:
    p = Puzzle.parse("rules=tutorial_no_border;..../..../..../....")
    plain = p.with_rules(())
    loop = _border_loop(p)
    assert check_answer(plain, loop) == []
    assert check_answer(p, loop) == [
        "edge 0 on the outer boundary is on the loop (rule tutorial_no_border)",
        f"edge {p.v(0, 0)} on the outer boundary is on the loop (rule tutorial_no_border)",
    ]
    assert check_answer(p, ANSWER) == []


FORMS = {
    f"{form.__name__}/{v}": (lambda form=form, v=v: form(variables=v))
    for form in (ConsFormulation, HuboFormulation, QuboFormulation)
    for v in ("edge", "face")
}
FORMS["hubo[exact]/face"] = lambda: HuboFormulation(degree_mode="exact", variables="face")


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_encodes_it_with_no_change(tutorial_no_border, form: str) -> None:
    """The answer costs nothing; a loop that keeps the clues on the border costs the rule's
    weight per border edge (its rows are edge sums equal to 0, weighed as clues)."""
    p = Puzzle.parse(TEXT)
    model = Model.build(p, FORMS[form]())
    rows = [pc.constraint for pc in model.pieces if pc.constraint.kind == "tutorial_no_border"]
    assert len(rows) == 16 and {c.shape for c in rows} == {EQUAL}
    assert model.energy(model.complete(ANSWER)) == 0
    # the loop round the two middle cells of the bottom row keeps both clues and uses two
    # border edges
    other = p.board.boundary([f in (13, 14) for f in range(16)])
    assert check_answer(p.with_rules(()), other) == []
    assert model.energy(model.complete(other)) == 2


def test_a_shape_a_form_cannot_encode_is_a_one_line_skip() -> None:
    p = Puzzle.parse("../..")
    model = Model.build(p, HuboFormulation(variables="face"))
    parity = Constraint("even", 0, (0, 1), (0, 2), shape=PARITY, weight="degree")
    with pytest.raises(FormUnavailable, match=r"^the hubo\[aux\]/face form cannot encode a "):
        model.formulation.encode_piece(parity, model)
    with pytest.raises(ValueError, match="a mystery constraint needs its shape and weight class"):
        Constraint("mystery", 0, (0,), (0,))


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_solve_exact_honours_it_both_ways(tutorial_no_border, method: str) -> None:
    """CP-SAT's circuit model takes every row but the degree rules (it once kept only clues
    and answered ``multiple`` here)."""
    p = Puzzle.parse(TEXT)
    r = solve_exact(p, method=method)
    assert (r.status, r.answer) == ("unique", ANSWER)
    assert solve_exact(p.with_rules(()), method=method).status == "multiple"


def test_the_zdd_counts_its_loops_under_it(tutorial_no_border) -> None:
    """The ZDD takes a rule by its rows' shape (ranges of edge sums), not by its name: one
    loop under tutorial_no_border where plain Slitherlink has 1473."""
    pytest.importorskip("graphillion")
    from slitherbench.solvers.zdd import ZddBackend

    p = Puzzle.parse(TEXT)
    r = run_trial(p, ConsFormulation(), ZddBackend(), seed=0, max_iterations=3, time_limit_s=60)
    assert r.status == "solved" and '"solutions": 1' in r.trial.extras, r.trial.reason
    assert answer_from_bits(p, r.trial.answer) == ANSWER


def test_the_generator_honours_it(tutorial_no_border) -> None:
    for seed in range(3):
        p = generate(4, 4, seed, rules=("tutorial_no_border",))
        assert p.name == f"gen-4x4-tutorial_no_border-s{seed}" and p.rules == (
            "tutorial_no_border",
        )
        assert check_answer(p, p.meta["answer"]) == []
        r = solve_exact(p)
        assert r.status == "unique" and r.answer == p.meta["answer"]


@pytest.mark.slow
def test_the_cp_sat_judge_makes_the_same_boards(tutorial_no_border, monkeypatch) -> None:
    """Without python-sat the generator's judge is CP-SAT's circuit model: it takes the rule's
    edge rows too, so it keeps the same clues."""
    import slitherbench.sources.generate as gen

    fast = [gen.generate(4, 4, s, rules=("tutorial_no_border",)) for s in range(3)]
    monkeypatch.setattr(gen, "find_spec", lambda name: None)  # as if python-sat were absent
    assert fast == [gen.generate(4, 4, s, rules=("tutorial_no_border",)) for s in range(3)]


# -- from the command line ----------------------------------------------------------------------
def _run(tmp_path: Path, cells: list[str]):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[
                "puzzle=text",
                f"puzzle.text={ROWS}",
                "puzzle.rules=[tutorial_no_border]",
                f"cells=[{', '.join(cells)}]",
                "repetitions=1",
                "max_iterations=20",
                "time_limit_s=20",
                "progress=false",
            ],
        )
    return run_experiment(cfg, tmp_path / "store")


def _assert_solved_as_the_rule_says(row: Any) -> None:
    p = Puzzle.parse(row.puzzle_rows)
    assert p.rules == ("tutorial_no_border",) and row.verified
    assert answer_from_bits(p, row.answer) == ANSWER


@pytest.mark.slow
def test_the_cli_runs_it_through_every_form_exact_family_and_an_annealer(
    tutorial_no_border, tmp_path: Path
) -> None:
    """Every form with edge and face variables: cons on pyqbpp's EasySolver (a fresh process
    per trial: the rule travels with the pickled puzzle), HUBO and QUBO on OpenJij; every
    exact family, iterative and direct (CP-SAT's circuit model); the ZDD (the rule's rows are
    ranges of edge sums, which graphillion holds)."""
    cells = [
        f"{{formulation: {f}, formulation_params: {{variables: {v}{extra}}}, backend: {b}}}"
        for f, extra, b in (
            ("cons", "", "easy"),
            ("hubo", ", degree_mode: exact", "openjij"),
            ("qubo", "", "openjij"),
        )
        for v in ("edge", "face")
    ]
    cells += [
        f"{{formulation: cons, backend: {b}, backend_params: {{mode: {m}}}}}"
        for b in constraint_backends()
        for m in ("iterative", "direct")
    ]
    cells.append("{formulation: cons, backend: zdd}")
    table = _run(tmp_path, cells)
    assert len(table) == len(cells)
    for _, row in table.iterrows():
        if row.status == "skipped":
            skip_kind(row.reason, SWEEP_LIMITS)
            continue
        assert row.status == "solved", (row.formulation, row.backend, row.reason)
        _assert_solved_as_the_rule_says(row)
    assert (table.status == "solved").sum() >= len(cells) - 2  # cplex/smt if absent


@pytest.mark.slow
def test_a_rule_outside_the_package_runs_from_its_config_file(
    tutorial_no_border, tmp_path: Path
) -> None:
    """One module + one config file: the rule of docs/tutorials/add_rule.py chosen on the
    command line with puzzle.rules, its conf/rule/tutorial_no_border.yaml in a config directory outside
    the repository (the CLI registers the class it names)."""
    module = runpy.run_path(str(ROOT / "docs" / "tutorials" / "add_rule.py"))
    conf = tmp_path / "conf" / "rule"
    conf.mkdir(parents=True)
    (conf / "tutorial_no_border.yaml").write_text(module["CONFIG"])
    args = [f"puzzle.text={ROWS}", "puzzle.rules=[tutorial_no_border]", "formulation=qubo"]
    args += ["variables=face", "backend=openjij", "repetitions=1", "progress=false"]
    args += [f"hydra.searchpath=[file://{tmp_path / 'conf'}]", f"results_dir={tmp_path / 's'}"]
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench", "puzzle=text", *args],
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT / "docs" / "tutorials"),
            "PYTHONDONTWRITEBYTECODE": "1",
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    trials, _ = load(tmp_path / "s")
    assert list(trials.status) == ["solved"]
    _assert_solved_as_the_rule_says(trials.iloc[0])


def test_a_real_no_border_rule_takes_no_name_from_the_examples() -> None:
    """The examples' rule has a name no real rule takes: a reader who adds a rule called
    ``no_border`` to the package can still register the tutorial's rule and this module's."""

    class RealNoBorder(TutorialNoBorder):
        name = "no_border"

    module = runpy.run_path(str(ROOT / "docs" / "tutorials" / "add_rule.py"))
    tutorial = next(
        v for v in module.values() if isinstance(v, type) and issubclass(v, Rule) and v is not Rule
    )
    register_rule(RealNoBorder)
    try:
        for example in (tutorial, TutorialNoBorder):
            register_rule(example)
            unregister_rule(example.name)
    finally:
        unregister_rule("no_border")


def test_the_rules_docstring_says_which_rules_the_zdd_takes(tutorial_no_border) -> None:
    from slitherbench.solvers.zdd import rules_reason

    assert rules_reason(Puzzle.parse(TEXT)) is None  # rows of edge sums: the ZDD solves it
    assert "no_square" in rules_reason(Puzzle.parse(f"rules=no_square;{ROWS}"))
    doc = " ".join(rules_pkg.__doc__.split())
    assert "skips every puzzle with rules" not in doc
    assert "the ZDD takes a rule whose rows are ranges of edge sums" in doc
