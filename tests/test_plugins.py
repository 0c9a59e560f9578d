"""Report items, puzzle sources and text formats are plugins, as forms and backends are: one
module (and, for a puzzle source, one config file) each, found by the generic machinery
(the report and its ``--items``, ``puzzle=NAME``, ``Puzzle.parse``) with no edit elsewhere."""

from __future__ import annotations

import inspect
import json
import pkgutil
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from hydra.utils import get_method
from omegaconf import OmegaConf

from slitherbench.analysis import plots
from slitherbench.analysis.report import main as report_main
from slitherbench.method.record import ConfigError
from slitherbench.puzzles import formats
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run.plan import CONF_DIR, puzzles_from_config

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "tests" / "data" / "store_v0_1"
PUZZLE_CONFIGS = sorted((CONF_DIR / "puzzle").glob("*.yaml"))


def _modules(package) -> list[str]:
    return [m.name for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")]


# -- report items ------------------------------------------------------------------------------
def test_every_report_item_module_is_found_and_every_item_is_described() -> None:
    items = plots.report_items()
    assert len(items) >= 10
    # Every module of the package but the shared ones holds at least one item found.
    holders = {cls.__module__.rsplit(".", 1)[1] for cls in items.values()}
    assert holders == set(_modules(plots)) - {"base", "style"}
    for name, cls in items.items():
        assert cls.name == name and cls.kind in ("table", "figure"), name
        assert cls.needs and set(cls.needs) <= {"trials", "iterations"}, name
        assert (cls.__doc__ or "").strip(), f"{name} says nothing of what it shows"
    orders = [cls.order for cls in items.values()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


ITEM_MODULE = '''
from slitherbench.analysis.plots.base import ReportItem, ran_only


class SolvedPerBackend(ReportItem):
    """Solved trials per backend."""

    name = "solved_per_backend"
    kind = "table"
    order = 45

    def write(self, data):
        path = data.out / "solved_per_backend.csv"
        ran = ran_only(data.trials)
        ran.status.eq("solved").groupby(ran.backend).sum().rename("solved").to_csv(path)
        return [path]
'''


@pytest.fixture
def extra_item(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One more module in the report item package (the package's path, extended)."""
    (tmp_path / "items").mkdir()
    (tmp_path / "items" / "solved_per_backend.py").write_text(ITEM_MODULE)
    monkeypatch.setattr(plots, "__path__", [*plots.__path__, str(tmp_path / "items")])
    plots.report_items.cache_clear()
    yield
    plots.report_items.cache_clear()


def test_a_new_report_item_is_one_module(
    extra_item: None, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert "solved_per_backend" in plots.report_items()
    out = tmp_path / "report"
    assert report_main([str(STORE), "--out", str(out), "--items", "solved_per_backend"]) == 0
    assert json.loads((out / "manifest.json").read_text())["files"] == ["solved_per_backend.csv"]
    assert (out / "solved_per_backend.csv").read_text().splitlines()[0] == "backend,solved"
    with pytest.raises(SystemExit):
        report_main(["--help"])
    assert "solved_per_backend" in capsys.readouterr().out  # --items names it


def test_an_unknown_report_item_is_one_line(tmp_path: Path, capsys) -> None:
    assert report_main([str(STORE), "--out", str(tmp_path), "--items", "scalling"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --items: no report item 'scalling' (known: table_by_puzzle")
    assert "\n" not in err


def test_an_item_named_that_has_nothing_to_show_says_so(tmp_path: Path, capsys) -> None:
    """--items naming an item that does not apply to the trials (no trial ran out of time)
    writes nothing for it, says so in one line with what the item shows, and lists it in the
    manifest; an item that applies is written as usual."""
    args = [str(STORE), "--out", str(tmp_path), "--items", "timeouts,table_by_form_backend"]
    assert report_main(args) == 0
    out = capsys.readouterr().out
    assert "note: --items timeouts has nothing to show in these trials: timeouts (" in out
    assert "table_by_form_backend has nothing" not in out
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["not_applicable"] == ["timeouts"]
    assert not list(tmp_path.glob("timeouts.*"))
    assert (tmp_path / "table_by_form_backend.md").exists()
    # every named item applies: the list is there, and empty
    args = [str(STORE), "--out", str(tmp_path / "one"), "--items", "table_by_form_backend"]
    assert report_main(args) == 0
    assert json.loads((tmp_path / "one" / "manifest.json").read_text())["not_applicable"] == []


@pytest.mark.slow
def test_every_report_item_that_applies_writes_its_files(tmp_path: Path) -> None:
    from slitherbench.analysis.plots import ReportData
    from slitherbench.store.results import load

    trials, iterations = load(STORE)
    data = ReportData(trials, iterations, tmp_path)
    wrote = {}
    for name, cls in plots.report_items().items():
        item = cls()
        if item.applies(data):
            files = item.write(data)
            assert files and all(f.parent == tmp_path and f.stat().st_size > 0 for f in files)
            wrote[name] = files
    # The store has one board kind, not the page's board, no grades (it predates them), too
    # few boards per cell to fit over and no trial out of time: those items stay out (the
    # grade table says "no grades recorded").
    assert set(plots.report_items()) - set(wrote) == {
        "table_by_board",
        "table_by_faces",
        "success_by_faces",
        "success_by_grade",
        "table_grade_test",
        "table_by_variables",
        "solved_by_variables",
        "page_table",
        "page_figure",
        "timeouts",
        "last_round",
    }
    assert not (trials.status == "timeout").any()
    timed_out = trials.assign(status=trials.status.where(trials.index != 0, "timeout"))
    for name in ("timeouts", "last_round"):
        assert plots.report_items()[name]().applies(ReportData(timed_out, iterations, tmp_path))


def test_boards_of_several_kinds_pool_by_faces_into_doubling_classes(tmp_path: Path) -> None:
    import pandas as pd

    from slitherbench.analysis.plots import ReportData
    from slitherbench.analysis.plots.by_faces import FigureByFaces, TableByFaces, face_class

    assert [face_class(f) for f in (9, 19, 33, 36, 42, 57, 83, 106, 150, 400)] == [
        0, 0, 0, 1, 1, 1, 2, 2, 3, 4,
    ]  # fmt: skip
    boards = [("square", 5, 5, 25), ("honeycomb", 4, 4, 19), ("square", 7, 7, 49),
              ("triangular", 5, 5, 50), ("square", 10, 10, 100)]  # fmt: skip
    rows = []
    for i, (board, r, c, faces) in enumerate(boards):
        for status in ("solved", "timeout", "skipped"):
            rows.append({"puzzle": f"p{i}", "board": board, "rows": r, "cols": c,
                         "faces": faces, "status": status, "form_variant": "hubo",
                         "backend": "sa", "seed": 0, "time_limit_s": 5.0})  # fmt: skip
    data = ReportData(pd.DataFrame(rows), pd.DataFrame(), tmp_path)
    assert TableByFaces().applies(data) and FigureByFaces().applies(data)
    TableByFaces().write(data)
    table = (tmp_path / "table_by_faces.md").read_text()
    # skipped trials are not counted; each class names the face counts it holds
    assert (
        "| Form | Backend | ~25 (19-25 faces) | ~50 (49-50 faces) | ~100 (100-100 faces) |" in table
    )
    assert "| hubo | sa | 2/4 | 2/4 | 1/2 |" in table
    assert any(f.suffix == ".png" for f in FigureByFaces().write(data))
    one_kind = ReportData(pd.DataFrame(rows).assign(board="square"), pd.DataFrame(), tmp_path)
    assert not TableByFaces().applies(one_kind)


# -- puzzle sources ----------------------------------------------------------------------------
def _source_and_keys(path: Path):
    cfg = OmegaConf.load(path)
    source = get_method(str(cfg["_target_"]))
    keys = {k: cfg[k] for k in cfg if k != "_target_" and not OmegaConf.is_missing(cfg, k)}
    return source, keys


@pytest.mark.parametrize("path", PUZZLE_CONFIGS, ids=lambda p: p.stem)
def test_each_puzzle_config_names_a_source_that_takes_its_keys(path: Path) -> None:
    assert "kind" not in OmegaConf.load(path), "a puzzle config names its source by _target_"
    source, keys = _source_and_keys(path)
    assert callable(source) and (source.__doc__ or "").strip()
    inspect.signature(source).bind(**keys)  # every key is an argument of the source


def test_the_puzzle_configs_and_their_sources_are_found() -> None:
    assert len(PUZZLE_CONFIGS) >= 10
    sources = {_source_and_keys(p)[0].__name__ for p in PUZZLE_CONFIGS}
    assert sources == {"suite", "generated", "text", "colorlink"}


# Two suites in the fast subset; the others (up to a second each) in the full suite.
@pytest.mark.parametrize(
    "path",
    [
        p if p.stem in ("tiny", "reference10") else pytest.param(p, marks=pytest.mark.slow)
        for p in PUZZLE_CONFIGS
        if OmegaConf.load(p)["_target_"].endswith(".suite")
    ],
    ids=lambda p: p.stem,
)
def test_every_suite_config_yields_its_puzzles(path: Path) -> None:
    puzzles = puzzles_from_config(OmegaConf.load(path))
    assert puzzles and all(isinstance(p, Puzzle) for p in puzzles)


SOURCE_MODULE = '''
from slitherbench.puzzles.puzzle import Puzzle


def rows_of_threes(size: int, count: int = 1):
    """Boards of one clue, a 3 in the corner."""
    return [
        Puzzle.from_rows(["3" + "." * (size - 1)] + ["." * size] * (size - 1), name=f"t{k}")
        for k in range(count)
    ]
'''


def test_a_new_puzzle_source_is_one_callable_and_one_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_puzzles.py").write_text(SOURCE_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "conf" / "puzzle").mkdir(parents=True)
    (tmp_path / "conf" / "puzzle" / "corner.yaml").write_text(
        "_target_: my_puzzles.rows_of_threes\nsize: 3\ncount: 2\n"
    )
    overrides = [f"hydra.searchpath=[file://{tmp_path / 'conf'}]", "puzzle=corner"]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[*overrides, "puzzle.size=4"])
    puzzles = puzzles_from_config(cfg.puzzle)
    assert [(p.name, p.rows, p.clues[0][0]) for p in puzzles] == [("t0", 4, 3), ("t1", 4, 3)]


def test_a_config_written_with_kind_still_names_its_source() -> None:
    old = OmegaConf.create({"kind": "suite", "name": "tiny"})
    new = OmegaConf.load(CONF_DIR / "puzzle" / "tiny.yaml")
    assert [p.to_text() for p in puzzles_from_config(old)] == [
        p.to_text() for p in puzzles_from_config(new)
    ]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            {"_target_": "slitherbench.sources.puzzle_sources.nothing"},
            "puzzle._target_ slitherbench",
        ),
        (
            {"_target_": "slitherbench.sources.puzzle_sources.suite", "name": "tiny", "nme": 1},
            "unexpected",
        ),
        ({"name": "tiny"}, "names no source"),
        (
            {"_target_": "slitherbench.sources.puzzle_sources.text", "text": "???"},
            "needs puzzle.text=",
        ),
    ],
)
def test_a_bad_puzzle_config_is_one_line(config: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as exc:
        puzzles_from_config(OmegaConf.create(config))
    assert "\n" not in str(exc.value)


# -- text formats ------------------------------------------------------------------------------
def test_every_format_module_is_found() -> None:
    assert set(formats.FORMATS) == set(_modules(formats)) - {"base"}
    assert formats.FORMATS == tuple(formats.READERS) == tuple(formats.WRITERS)


FORMAT_MODULE = """
from slitherbench.puzzles.formats.base import TextFormat
from slitherbench.puzzles.formats.rows import parse_clue_rows, write_rows

FORMAT = TextFormat(
    "semicolons",
    lambda text, name="": parse_clue_rows(text.removeprefix("rows;").replace(";", "/"), name),
    lambda puzzle: "rows;" + write_rows(puzzle, sep=";"),
    detects=lambda text: text.startswith("rows;"),
    priority=60,
)
"""


def test_a_new_format_is_one_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "semicolons.py").write_text(FORMAT_MODULE)
    monkeypatch.setattr(formats, "__path__", [*formats.__path__, str(tmp_path)])
    found = formats.text_formats()
    assert list(found)[-1] == "semicolons"
    p = Puzzle.from_rows(["3.", ".2"])
    assert found["semicolons"].read(found["semicolons"].write(p)) == p
