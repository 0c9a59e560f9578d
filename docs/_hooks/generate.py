"""MkDocs hook: the reference pages are generated from the code, never typed.

A page holds a marker such as ``<!-- generate: config -->``; at build time the marker is
replaced by text made from the source of truth:

- ``config``: every config group and option from ``conf/`` (each file as it is, comments
  included);
- ``columns``: the store's columns from ``slitherbench/method/record.py``;
- ``cli``: the ``--help`` of each command-line entry point;
- ``formats``: one puzzle in every text format, each read back to the same puzzle;
- ``errors``: every message the package raises to the user, from the source.

The notebook (``notebooks/analysis.py``) is executed on the committed small store
``tests/data/store_v0_1`` and added to the site as ``notebooks/analysis.ipynb``, figures
included; its figures go to a temporary directory, never into the checkout.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    from mkdocs.plugins import event_priority
except ImportError:  # the generators alone (tests) need no mkdocs

    def event_priority(priority: float):
        return lambda f: f


ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "conf"
TUNED = CONF / "tuning"  # tuned settings (experiment=tune writes them), not a config group
MARKER = re.compile(r"<!-- generate: (\w+) -->")
_TMP = tempfile.TemporaryDirectory(prefix="slitherbench-docs-")


def config_reference() -> str:
    out = [
        "The top-level settings, `conf/config.yaml` (every one can be overridden on the "
        "command line, `name=value`):",
        "",
        "```yaml",
        (CONF / "config.yaml").read_text().rstrip(),
        "```",
    ]
    for group in sorted(p for p in CONF.iterdir() if p.is_dir() and p != TUNED):
        files = sorted(group.rglob("*.yaml"))
        names = ", ".join(f"`{f.relative_to(group).with_suffix('')}`" for f in files)
        out += ["", f"## `{group.name}`", "", f"Options: {names}."]
        for f in files:
            name = f.relative_to(group).with_suffix("")
            out += ["", f"### `{group.name}={name}`", "", "```yaml", f.read_text().rstrip(), "```"]
    out += [
        "",
        "## Tuned settings: `conf/tuning/`",
        "",
        "Written by `experiment=tune` (`tuned/`) and `experiment=tune_full` (`tuned_full/`), "
        "one file per form and backend, and laid over a cell's own settings by `tuned=true` "
        "(from `tuned_dir`); data, not options to choose.",
    ]
    for f in sorted(TUNED.rglob("*.yaml")):
        name = f.relative_to(CONF).as_posix()
        out += ["", f"### `conf/{name}`", "", "```yaml", f.read_text().rstrip(), "```"]
    return "\n".join(out)


def columns_reference() -> str:
    sys.path.insert(0, str(ROOT))
    from slitherbench.method.record import columns_markdown

    return columns_markdown()


def _help(*argv: str) -> str:
    r = subprocess.run(
        [sys.executable, *argv, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return r.stdout.rstrip()


CLI = (
    ("python -m slitherbench", ("-m", "slitherbench")),
    ("python -m slitherbench.report", ("-m", "slitherbench.report")),
    ("python -m slitherbench.reproduce", ("-m", "slitherbench.reproduce")),
    ("python -m slitherbench.run.reference", ("-m", "slitherbench.run.reference")),
)


def cli_reference() -> str:
    out = []
    for title, argv in CLI:
        out += [f"## `{title} --help`", "", "```text", _help(*argv), "```", ""]
    return "\n".join(out)


def formats_reference() -> str:
    """One puzzle written in every format by the package's writers, each text read back by
    ``Puzzle.parse`` (format detected) to the same puzzle, or the build fails."""
    sys.path.insert(0, str(ROOT))
    from slitherbench.puzzles.formats import FORMATS, WRITERS, detect_format
    from slitherbench.puzzles.puzzle import Puzzle

    puzzle = Puzzle.parse("https://puzz.link/p?slither/5/5/h3880c2ci33ch")
    out = []
    for fmt in FORMATS:
        text = WRITERS[fmt](puzzle)
        back = Puzzle.parse(text)
        if back.clues != puzzle.clues or detect_format(text) != fmt:
            raise ValueError(f"the {fmt} text does not read back to the same puzzle")
        out += [f"### `{fmt}`", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(out)


# The exceptions a user sees as one ``error:`` line (the CLI catches them); other exceptions
# are programming errors.
USER_ERRORS = (
    "ConfigError",
    "PuzzleFormatError",
    "BoardError",
    "ColorlinkError",
    "FormUnavailable",
    "ExportError",
    "RuleError",
)


def _message(node: ast.expr) -> str:
    """A raise's message as written: f-string fields shown as ``{...}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
            for v in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _message(node.left) + _message(node.right)
    return "{" + ast.unparse(node) + "}"


def errors_reference() -> str:
    rows = []
    for path in sorted((ROOT / "slitherbench").rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            name = ast.unparse(node.exc.func).rsplit(".", 1)[-1]
            if name in USER_ERRORS and node.exc.args:
                text = _message(node.exc.args[0]).replace("|", "\\|").replace("`", "'")
                rows.append(
                    (module, node.lineno, f"| `{module}:{node.lineno}` | `{name}` | `{text}` |")
                )
    head = ["| where | exception | message (fields in braces) |", "|---|---|---|"]
    return "\n".join(head + [row for *_, row in sorted(rows)]) + "\n"


def architecture_reference() -> str:
    """The layers as ``lint-imports`` holds them (pyproject's contract), top to bottom, each
    with what its package docstring says it holds and may import."""
    import ast
    import tomllib

    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    rows = ["| layer | package | what it holds | what it may import |", "|---|---|---|---|"]
    for depth, layer in enumerate(contract["contracts"][0]["layers"]):
        for name in (n.strip() for n in layer.split("#")[0].split("|")):
            path = ROOT / Path(*name.split("."))
            path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
            doc = ast.get_docstring(ast.parse(path.read_text())) or ""
            doc = re.sub(r":\w+:`~?\.?([^`]+)`", r"`\1`", doc).replace("``", "`")
            paras = [" ".join(p.split()) for p in doc.split("\n\n") if p.strip()]
            imports = next((p for p in paras if p.startswith("Imports:")), "")
            holds = " ".join(p for p in paras if p is not imports)
            rows.append(
                f"| {depth + 1} | `{name}` | {holds} | {imports.removeprefix('Imports:').strip()} |"
            )
    return "\n".join(rows) + "\n"


GENERATORS = {
    "architecture": architecture_reference,
    "config": config_reference,
    "columns": columns_reference,
    "cli": cli_reference,
    "formats": formats_reference,
    "errors": errors_reference,
}


def on_page_markdown(markdown: str, page, config, files) -> str:
    return MARKER.sub(lambda m: GENERATORS[m[1]](), markdown)


def execute_notebook() -> Path:
    out = Path(_TMP.name)
    target = out / "notebooks" / "analysis.ipynb"  # mkdocs-jupyter's include pattern
    env = {
        **os.environ,
        "SLITHERBENCH_RESULTS": str(ROOT / "tests" / "data" / "store_v0_1"),
        "SLITHERBENCH_FIGURES": str(out / "figures"),
    }
    jupytext = Path(sys.executable).parent / "jupytext"
    cmd = [str(jupytext), "--to", "ipynb", "--execute", "--run-path", str(ROOT)]
    cmd += ["-o", str(target), str(ROOT / "notebooks" / "analysis.py")]
    target.parent.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise RuntimeError(f"executing notebooks/analysis.py failed:\n{r.stderr[-3000:]}")
    return target


@event_priority(100)  # before mkdocs-jupyter's on_files, which renders it
def on_files(files, config):
    from mkdocs.structure.files import File

    notebook = execute_notebook()
    # A plain File whose source directory is the temporary one (mkdocs-jupyter wraps plain
    # files; it cannot read File.generated's).
    root = notebook.parents[1]
    src = notebook.relative_to(root).as_posix()
    files.append(File(src, str(root), config.site_dir, config.use_directory_urls))
    return files
