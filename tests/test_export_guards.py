"""The exporter's guards: an output it cannot write, a name with folders in it, a model past
the size limit, a puzzle from a file, the degree a quadratic format holds, the sidecar's
index base, files written whole (temporary name, then renamed, sidecar first) and the
progress shown on long writes."""

from __future__ import annotations

from pathlib import Path

import pytest

import slitherbench.models.export as export_pkg
from slitherbench.models.export import FORMATS, read_sidecar, write_instance
from slitherbench.models.formulations import Model, QuboFormulation
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run.export_cli import main

TWO = "3./.."  # a 2x2 board: every form and format is written in milliseconds


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def all_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


@pytest.fixture
def store(tmp_path: Path) -> Path:
    from slitherbench.models.formulations import ConsFormulation
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.sat import SatBackend
    from slitherbench.store.result_store import ResultStore

    p = Puzzle.parse(".3./3.3/.3.", name="ring")
    r = run_trial(p, ConsFormulation(), SatBackend(), seed=1, max_iterations=10)
    t = r.trial
    t.key, t.puzzle_rows, t.formulation_params = "k1-ring-r0", p.to_text(), "{}"
    ResultStore(tmp_path / "store").write(t, r.iterations)
    return tmp_path / "store"


MODES = {
    "one": [f"puzzle={TWO}", "form=cons", "format=cnf"],
    "suite": ["suite=tiny", "forms=cons", "variables=edge", "formats=cnf"],
}


@pytest.mark.parametrize("mode", [*MODES, "every"])
@pytest.mark.parametrize("where", ["proc", "file", "under_file"])
def test_an_unwritable_out_is_one_line(tmp_path, capsys, store, mode: str, where: str) -> None:
    afile = tmp_path / "afile"
    afile.write_text("kept")
    out = {"proc": "/proc/nope", "file": str(afile), "under_file": f"{afile}/sub"}[where]
    argv = MODES.get(mode, [f"store={store}", "iteration=all", "formats=cnf"])
    before = all_files(tmp_path)
    assert main([*argv, f"out={out}"]) == 2
    assert "out=" in one_line_error(capsys)
    assert all_files(tmp_path) == before and afile.read_text() == "kept"


@pytest.mark.parametrize("name", ["../escaped", "sub/x", "/tmp/abs", "..", ".", ""])
def test_a_name_with_folders_is_refused(tmp_path, capsys, name: str) -> None:
    out = tmp_path / "out"
    assert main([f"puzzle={TWO}", f"name={name}", f"out={out}"]) == 2
    assert "name=" in one_line_error(capsys)
    assert all_files(tmp_path) == []


def test_a_plain_name_is_written_under_out(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main([f"puzzle={TWO}", "name=mine", f"out={out}"]) == 0
    assert [p.name for p in all_files(tmp_path)] == ["mine.qplib", "mine.qplib.json"]


def test_a_model_past_the_size_limit_is_refused_before_it_is_built(tmp_path, capsys) -> None:
    # a 2x2 board has 12 edges: every form's model has at least 12 variables
    assert main([f"puzzle={TWO}", "max_variables=5", f"out={tmp_path}"]) == 2
    err = one_line_error(capsys)
    assert "max_variables=5" in err and "12" in err
    assert all_files(tmp_path) == []
    assert main([f"puzzle={TWO}", "max_variables=x", f"out={tmp_path}"]) == 2
    assert "max_variables=x" in one_line_error(capsys)


def test_the_size_limit_counts_the_built_models_variables(tmp_path, capsys) -> None:
    # qubo on 2x2: 12 edges pass the first check, the auxiliaries do not
    assert main([f"puzzle={TWO}", "max_variables=13", f"out={tmp_path}"]) == 2
    assert "variables" in one_line_error(capsys)
    assert main([f"puzzle={TWO}", "max_variables=1000", f"out={tmp_path}"]) == 0


def test_a_suite_past_the_size_limit_is_refused(tmp_path, capsys) -> None:
    argv = ["suite=tiny", "forms=cons", "variables=edge", "formats=cnf", "max_variables=20"]
    assert main([*argv, f"out={tmp_path}"]) == 2
    assert "max_variables=20" in one_line_error(capsys)
    assert all_files(tmp_path) == []


def test_a_puzzle_is_read_from_a_file(tmp_path, capsys) -> None:
    text = tmp_path / "board.txt"
    text.write_text("3.\n..\n")
    out = tmp_path / "out"
    assert main([f"puzzle_file={text}", "form=cons", "format=cnf", f"out={out}"]) == 0
    side = read_sidecar(Path(capsys.readouterr().out.split()[0]))
    assert side["puzzle"]["rows"] == 2 and side["puzzle"]["text"] == Puzzle.parse(TWO).to_text()
    assert main([f"puzzle_file={tmp_path / 'none.txt'}", f"out={out}"]) == 2
    assert "puzzle_file=" in one_line_error(capsys)
    assert main([f"puzzle_file={text}", f"puzzle={TWO}", f"out={out}"]) == 2
    one_line_error(capsys)


def test_a_quadratic_format_states_its_limit_and_the_models_degree(tmp_path, capsys) -> None:
    # hubo[aux] has degree 2 before any cut: its model at iteration 1 fits a quadratic file
    assert main([f"puzzle={TWO}", "form=hubo", "format=qplib", f"out={tmp_path}"]) == 0
    side = read_sidecar(Path(capsys.readouterr().out.split()[0]))
    assert side["stats"]["max_degree"] == 2
    # the exact degree rule is a degree-4 product: refused with both numbers
    argv = [f"puzzle={TWO}", "form=hubo", "degree_mode=exact", "format=qplib"]
    assert main([*argv, f"out={tmp_path / 'x'}"]) == 2
    err = one_line_error(capsys)
    assert "degree 2 at most" in err and "degree 4" in err and "iteration 1" in err


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_sidecar_says_its_index_base(tmp_path, fmt: str) -> None:
    from slitherbench.models.formulations import ConsFormulation

    p = Puzzle.parse(TWO)
    form = ConsFormulation() if fmt in ("cnf", "lp", "mps", "smt2") else QuboFormulation()
    side = write_instance(Model.build(p, form), tmp_path / "m", fmt)
    base = side["index_base"]
    assert base in (0, 1) and side["variables"][0]["index"] == base
    assert read_sidecar(tmp_path / side["file"])["index_base"] == base
    assert base == (1 if fmt == "cnf" else 0)  # DIMACS numbers variables from 1


def test_a_failed_write_leaves_nothing_and_keeps_the_old_file(tmp_path, monkeypatch) -> None:
    p = Puzzle.parse(TWO)
    model = Model.build(p, QuboFormulation())
    write_instance(model, tmp_path / "m", "bqm")
    old = (tmp_path / "m.bqm").read_bytes(), (tmp_path / "m.bqm.json").read_text()

    def broken(side):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_pkg, "sidecar_text", broken)
    other = Model.build(Puzzle.parse("1./.."), QuboFormulation())  # a file of other bytes
    with pytest.raises(OSError):
        write_instance(other, tmp_path / "m", "bqm")
    assert [f.name for f in all_files(tmp_path)] == ["m.bqm", "m.bqm.json"]
    assert ((tmp_path / "m.bqm").read_bytes(), (tmp_path / "m.bqm.json").read_text()) == old


def test_the_sidecar_is_in_place_before_its_file(tmp_path, monkeypatch) -> None:
    import os

    order = []
    real = os.replace

    def replace(src, dst):
        order.append(Path(dst).name)
        real(src, dst)

    monkeypatch.setattr(export_pkg.os, "replace", replace)
    write_instance(Model.build(Puzzle.parse(TWO), QuboFormulation()), tmp_path / "m", "qplib")
    assert order == ["m.qplib.json", "m.qplib"]
    assert [f.name for f in all_files(tmp_path)] == ["m.qplib", "m.qplib.json"]


def test_a_long_write_shows_its_progress(tmp_path, capsys, monkeypatch) -> None:
    import slitherbench.run.export_cli as cli

    monkeypatch.setattr(cli, "PROGRESS_DELAY_S", 0)
    assert main([f"puzzle={TWO}", f"out={tmp_path}"]) == 0
    err = capsys.readouterr().err
    assert "export" in err and "sidecar" in err


@pytest.mark.parametrize("fmt", ["lp", "mps"])
def test_the_checked_readers_read_the_lp_and_mps_files(tmp_path, fmt: str) -> None:
    """The readers docs/instances/lp-mps.md names: HiGHS and CPLEX read both files, OR-Tools
    the MPS file (its LP reader takes another dialect: ``min: ...;``, lp_solve's)."""
    import highspy

    from slitherbench.models.formulations import ConsFormulation

    model = Model.build(Puzzle.parse(TWO), ConsFormulation())
    side = write_instance(model, tmp_path / "m", fmt)
    path = str(tmp_path / side["file"])
    rows, cols = side["stats"]["constraints"], side["stats"]["file_variables"]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(path) == highspy.HighsStatus.kOk
    assert (h.getNumRow(), h.getNumCol()) == (rows, cols)
    cplex = pytest.importorskip("cplex")
    c = cplex.Cplex()
    for stream in ("log", "results", "warning"):
        getattr(c, f"set_{stream}_stream")(None)
    c.read(path)
    assert (c.linear_constraints.get_num(), c.variables.get_num()) == (rows, cols)
    mb = pytest.importorskip("ortools.linear_solver.python.model_builder")
    m = mb.Model()
    read = m.import_from_mps_file if fmt == "mps" else m.import_from_lp_file
    assert read(path) == (fmt == "mps")  # OR-Tools reads the MPS file, not the CPLEX LP one
    if fmt == "mps":
        assert (m.num_constraints, m.num_variables) == (rows, cols)


@pytest.mark.parametrize(("fmt", "package"), [("cnf", "pysat"), ("smt2", "z3"), ("lp", "highspy")])
def test_a_missing_package_is_one_line_naming_it(tmp_path, capsys, monkeypatch, fmt, package):
    import sys

    for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, package, None)  # import raises ModuleNotFoundError
    assert main([f"puzzle={TWO}", "form=cons", f"format={fmt}", f"out={tmp_path}"]) == 2
    err = one_line_error(capsys)
    assert f"the package {package} is not installed" in err and f"format={fmt}" in err
    assert all_files(tmp_path) == []
