"""A newcomer's times: install the package into a fresh venv from a fresh clone, then run the
test suite and its fast subset, each timed, as the README tells a newcomer to.

    python experiments/newcomer_times.py                   # the README's steps, timed
    python experiments/newcomer_times.py --quick           # seconds: checks the script runs
    python experiments/newcomer_times.py --publish docs/findings/newcomer_times_DATE  # + page

The clone is of the checkout's HEAD (committed files only) into a temporary folder, with its
own venv (``python3 -m venv``); pip's download cache is the user's, as a newcomer's would be
after a first install (``--no-cache`` installs without it). Nothing is written into the
checkout. ``--quick`` makes no venv: this interpreter runs stand-in steps (pip's version, one
small test file on the clone): it checks the script, its numbers say nothing.

``--publish DEST`` stamps the rows (command, date, commit, machine, versions) and writes the
findings page DEST.md from them (:mod:`slitherbench.analysis.benchmark_page`); ``--rows
DEST/rows.csv --publish DEST`` writes it again without measuring.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slitherbench.analysis import benchmark_page  # noqa: E402
from slitherbench.method.entry import OneLineArgumentParser, run_command  # noqa: E402

COMMAND = "python experiments/newcomer_times.py"
PACKAGES = ("pip", "pytest")
# The README's steps (paths relative to the fresh clone), and the quick mode's stand-ins.
STEPS = {
    "install": [".venv/bin/pip", "install", "-e", ".[dev]"],
    "test suite": [".venv/bin/python", "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider"],
    "fast subset": [
        ".venv/bin/python",
        "-m",
        "pytest",
        "-q",
        "-m",
        "not slow",
        "-p",
        "no:cacheprovider",
    ],
}
QUICK_STEPS = {
    "install": ["{python}", "-m", "pip", "--version"],
    "fast subset": [
        "{python}",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/test_readme.py::test_the_readme_is_at_most_150_lines",
    ],
}


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    last = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
    return time.perf_counter() - t0, done.returncode, last[0][:200]


def measure(quick: bool, no_cache: bool) -> pd.DataFrame:
    """Clone, make the venv, run each step; one row per step."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "slitherbench"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        if quick:  # this interpreter and its packages, the clone's own code: nothing downloaded
            env["PYTHONPATH"] = str(repo)
        else:
            subprocess.run(["python3", "-m", "venv", ".venv"], cwd=repo, check=True)
        if no_cache:
            env["PIP_NO_CACHE_DIR"] = "1"
        steps = QUICK_STEPS if quick else STEPS
        for step, given in steps.items():
            cmd = [sys.executable if a == "{python}" else a for a in given]
            seconds, code, last = _run(cmd, repo, env)
            print(f"{step}: {seconds:.1f} s, exit {code}: {last}", flush=True)
            rows.append(
                {
                    "step": step,
                    "run": " ".join("python" if a == "{python}" else a for a in given),
                    "seconds": round(seconds, 1),
                    "exit_code": code,
                    "last_line": last,
                    "pip_cache": "off" if no_cache else "the user's",
                    "quick": quick,
                }
            )
    return pd.DataFrame(rows)


def _minutes(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def publish(rows: pd.DataFrame, dest: Path) -> Path:
    table = pd.DataFrame(
        {
            "step": rows["step"],
            "command (in the clone)": [f"`{c}`" for c in rows["run"]],
            "time": [_minutes(s) for s in rows["seconds"]],
            "seconds": [f"{s:g}" for s in rows["seconds"]],
            "exit code": rows["exit_code"].astype(str),
            "its last line": rows["last_line"].fillna("").astype(str),
        }
    )
    quick = bool(rows["quick"].any())
    caption = (
        "Each step once, in a fresh clone of the commit with its own venv; pip's download "
        f"cache: {rows['pip_cache'].iloc[0]}."
        + (" Quick mode: stand-in steps, the times mean nothing." if quick else "")
    )
    return benchmark_page.write_page(
        dest,
        rows,
        title="A newcomer's install and test times",
        script=COMMAND,
        sections=[("Times", benchmark_page.grid_markdown(table, caption))],
    )


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="stand-in steps: seconds")
    ap.add_argument("--no-cache", action="store_true", help="install without pip's cache")
    benchmark_page.add_options(ap)
    args = ap.parse_args(argv)
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    if not (ROOT / ".git").exists():
        print("error: the checkout has no .git: nothing to clone", file=sys.stderr)
        return 2
    rows = measure(args.quick, args.no_cache)
    if args.publish:
        flags = [f for f, on in (("--quick", args.quick), ("--no-cache", args.no_cache)) if on]
        stamped = benchmark_page.stamp(rows, PACKAGES, " ".join([COMMAND, *flags]))
        print(f"page: {publish(stamped, args.publish)}")
    if args.quick:
        print("(quick, not judged)")
    return 0 if (rows["exit_code"] == 0).all() else 1


if __name__ == "__main__":
    run_command(main)
