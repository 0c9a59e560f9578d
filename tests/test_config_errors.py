"""Bad rule configs and generator sizes are one line naming the setting and what is wrong,
and the generator never writes a clue its reader refuses."""

from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf

from slitherbench.method.record import ConfigError
from slitherbench.puzzles.formats import WRITERS
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.sources import configured
from slitherbench.sources.generate import generate


@pytest.fixture
def rule_conf(tmp_path: Path, monkeypatch) -> Path:
    conf = tmp_path / "conf" / "rule"
    conf.mkdir(parents=True)
    monkeypatch.setattr(configured, "searchpath", lambda: [f"file://{tmp_path / 'conf'}"])
    return conf


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("name: only_name\n", "names no class (_target_: module.Class)"),
        ("_target_: nosuchmodule.NoRule\n", "cannot import module nosuchmodule"),
        (
            "_target_: slitherbench.puzzles.rules.NoSuchRule\n",
            "slitherbench.puzzles.rules has no NoSuchRule",
        ),
        ("_target_: NoDots\n", "names no class (_target_: module.Class)"),
    ],
)
def test_a_broken_rule_config_is_one_line_naming_the_rule(
    rule_conf: Path, capfd, text: str, says: str
) -> None:
    (rule_conf / "broken_rule.yaml").write_text(text)
    with pytest.raises(ConfigError) as info:
        configured.config_rules(OmegaConf.create({"rules": ["broken_rule"]}))
    message = str(info.value)
    assert "\n" not in message and "rule broken_rule" in message and says in message, message
    assert "ERROR" not in capfd.readouterr().err  # no log line of Hydra's beside it


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (0, 3), (-2, 4)])
def test_generate_refuses_a_board_below_2x2(rows: int, cols: int) -> None:
    with pytest.raises(ValueError, match=r"at least 2x2 cells"):
        generate(rows, cols, 0)


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("rows", 1, "puzzle.rows=1: at least 2"),
        ("cols", 0, "puzzle.cols=0: at least 2"),
        ("rows", "x", "puzzle.rows=x: a whole number"),
        ("count", 0, "puzzle.count=0: at least 1"),
        ("seed", "s", "puzzle.seed=s: a whole number"),
    ],
)
def test_the_generated_source_names_a_bad_size(key: str, value, says: str) -> None:
    from slitherbench.sources.puzzle_sources import generated

    args = {"rows": 3, "cols": 3, "count": 1, "seed": 0, key: value}
    with pytest.raises(ConfigError, match=says):
        generated(**args)


@pytest.mark.parametrize("size", [(2, 2), (3, 3), (2, 3)])
def test_every_generated_board_reads_back_in_every_format(size: tuple[int, int]) -> None:
    """A clue 4 on a square face means the loop is that face alone: the reader refuses it
    (0-3), so the generator must never draw a one-face region; 40 seeds of each small size."""
    for seed in range(40):
        p = generate(*size, seed)
        assert all(n is None or 0 <= n <= 3 for row in p.clues for n in row), p.to_text()
        for fmt, write in WRITERS.items():
            assert Puzzle.parse(write(p)).clues == p.clues, (fmt, seed)


def test_the_error_reference_lists_the_new_messages() -> None:
    import sys

    hooks = Path(__file__).resolve().parents[1] / "docs" / "_hooks"
    sys.path.insert(0, str(hooks))
    try:
        import generate as docs_generate
    finally:
        sys.path.remove(str(hooks))
    errors = docs_generate.errors_reference()
    for message in (
        "name={name}: a file name without folders (files go under out=)",
        "out={out}: a file is there, not a folder",
        "format {fmt} holds terms of degree 2 at most",
        "more than max_variables={limit}",
        "puzzle_file={path}: cannot read it",
        "rule {name}: conf/rule/{name}.yaml names no class",
        "puzzle.{key}={value}: a whole number",
        "the package {package} is not installed",
        "tune.weights={shown}: two whole numbers LOW, HIGH",
    ):
        assert message in errors, message
    assert "`ExportError`" in errors


@pytest.mark.slow  # among the slowest fast tests: the full suite runs it, the fast subset not
@pytest.mark.parametrize(
    ("override", "says"),
    [
        ("tune.n_trials=x", "tune.n_trials=x: a whole number, 1 or more"),
        ("tune.n_trials=0", "tune.n_trials=0: a whole number, 1 or more"),
        ("tune.weights=[4,1]", "tune.weights=[4, 1]: two whole numbers LOW, HIGH"),
        ("tune.weights=[a,b]", "tune.weights=['a', 'b']: two whole numbers LOW, HIGH"),
        ("tune.weights=[1]", "tune.weights=[1]: two whole numbers LOW, HIGH"),
        ("tune.seed=s", "tune.seed=s: a whole number"),
        ("tune.storage=nope", "tune.storage=nope: an Optuna storage URL"),
        ("cell=9", "cell=9: experiment=tune has cells 0..5"),
        ("tune.storage=sqlite:////proc/nope/x.db", "tune.storage: cannot open the study storage"),
        ("tune.storage=nodriver://x", "tune.storage: cannot open the study storage"),
        ("cells=[x]", "cells[0]='x': a cell is {formulation: NAME, backend: NAME}"),
        ("tune=0.5", "tune=0.5: the tuning budget is a mapping"),
        ("cells=[{formulation: qubo}]", "cells[0]={'formulation': 'qubo'}: a cell is"),
    ],
)
def test_the_tuners_settings_are_checked_before_any_study(
    tmp_path: Path, monkeypatch, override: str, says: str
) -> None:
    from hydra import compose, initialize_config_dir

    from slitherbench.run import tune
    from slitherbench.run.plan import CONF_DIR

    studies = []
    monkeypatch.setattr(tune, "tune_cell", lambda *a: studies.append(a))
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=["experiment=tune", override, f"results_dir={tmp_path / 'out'}"],
        )
    with pytest.raises(ConfigError) as info:
        tune.run_tuning(cfg)
    assert says in str(info.value) and "\n" not in str(info.value) and not studies
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value", ["{a: 1}", "[1,2]", "''"])
def test_a_results_dir_that_is_no_path_is_refused_and_logs_nowhere(value) -> None:
    from hydra import compose, initialize_config_dir

    from slitherbench.run.app import log_dir
    from slitherbench.run.plan import CONF_DIR, validate_config

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[f"results_dir={value}"])
    with pytest.raises(ConfigError, match="results_dir must be a folder name"):
        validate_config(cfg)
    assert "slitherbench-logs" in log_dir(cfg.results_dir)  # Hydra's logs: the temp folder


@pytest.mark.slow  # a fresh interpreter each: about 1.5 s
@pytest.mark.parametrize("value", ["{a: 1}", "[1,2]", "''"])
def test_a_results_dir_that_is_no_path_is_one_line(tmp_path: Path, monkeypatch, value) -> None:
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench", "puzzle=text", "puzzle.text=3./..",
         f"results_dir={value}", "progress=false"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr[-1500:]
    assert r.stderr.startswith("error: results_dir must be a folder name")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("overrides", "says"),
    [
        (["cells=[x]"], "cells[0]='x': a cell is {formulation: NAME, backend: NAME}"),
        (["cells=3"], "cells=3: a list of cells"),
        (["puzzle=text", "puzzle.text=3./..", "puzzle.rules=true"], "puzzle.rules=True: a rule"),
        (["puzzle=text", "puzzle.text=3./..", "puzzle.rules=5"], "puzzle.rules=5: a rule name"),
        (["puzzle=text", "puzzle.text=3./..", "puzzle.rules=[1]"], "unknown rule '1'"),
    ],
)
def test_cells_and_rules_of_the_wrong_type_are_one_line(tmp_path: Path, overrides, says) -> None:
    from hydra import compose, initialize_config_dir

    from slitherbench.run.experiment import run_experiment
    from slitherbench.run.plan import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[*overrides, f"results_dir={tmp_path / 'o'}"])
    with pytest.raises(ConfigError) as info:
        run_experiment(cfg)
    assert says in str(info.value) and "\n" not in str(info.value)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "override", ["time_limit_s=1e300", "time_limit_s=inf", "claim_timeout_s=1e20"]
)
def test_a_time_no_timer_can_wait_is_one_line(tmp_path: Path, override: str) -> None:
    from hydra import compose, initialize_config_dir

    from slitherbench.run.plan import CONF_DIR, validate_config

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[override])
    with pytest.raises(ConfigError, match=r"must be at most \d+ \(seconds\)"):
        validate_config(cfg)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["hydra.run.dir=null"], "hydra.run.dir=null: field 'hydra.run.dir' is not Optional"),
        (["hydra.job.chdir=x"], "hydra.job.chdir=x: Value 'x' is not a valid bool"),
        (["--nope"], "unrecognized arguments: --nope (--help lists the flags)"),
    ],
)
def test_hydras_own_settings_and_flags_are_checked_in_one_line(argv, says) -> None:
    from slitherbench.run.overrides import override_problem

    problem = override_problem(argv)
    assert problem is not None and says in problem and "\n" not in problem


@pytest.mark.parametrize("value", ["1e309", "2.50"])
def test_a_results_dir_read_as_a_fraction_is_refused(value: str) -> None:
    from hydra import compose, initialize_config_dir

    from slitherbench.run.plan import CONF_DIR, validate_config

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[f"results_dir={value}"])
    with pytest.raises(ConfigError, match="results_dir must be a folder name, got the number"):
        validate_config(cfg)


def test_the_generated_source_says_which_board_it_is_making(capsys) -> None:
    # A graded board can take a minute to make: each one is announced before it is made.
    from slitherbench.sources.puzzle_sources import generated

    boards = generated(rows=4, cols=4, count=2, seed=7, min_grade="lookahead1")
    lines = capsys.readouterr().err.splitlines()
    assert [b.meta["grade"] for b in boards] == ["lookahead1", "lookahead1"]
    assert lines == [
        f"puzzle: making board {k} of 2: square 4x4, seed {6 + k}, grade lookahead1 or more"
        for k in (1, 2)
    ]
    generated(rows=3, cols=3, count=1, seed=0)
    assert capsys.readouterr().err == ""  # one plain board is quick: nothing to say
