"""Where and with what a result was made: the command as it ran, package versions, git
commit (and whether the code that ran had local changes), host, CPU, GPU."""

from __future__ import annotations

import os
import platform
import shlex
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path

# Always recorded; each formulation and backend adds the packages it declares.
BASE_PACKAGES = ("slitherbench", "hydra-core", "pandas", "pyarrow")
# A run is dirty when the code or configuration it ran differs from its commit: a change,
# tracked or not (an untracked plugin module is code that ran), under these paths.
CODE_PATHS = ("slitherbench", "conf")
# Workers started by a run record the command of the run that started them, not their own.
COMMAND_ENV = "SLITHERBENCH_COMMAND"
# Changed files named in the ``git_changes`` column (the rest counted).
CHANGES_SHOWN = 10


def _version(pkg: str) -> str:
    if pkg == "slitherbench":  # the code that ran, even where the installed metadata is stale
        from slitherbench import __version__

        return __version__
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return ""


def git_state(repo: Path | None = None) -> tuple[str, list[str]]:
    """The checkout's commit (``-dirty`` when the code or configuration has local changes)
    and the changed paths under :data:`CODE_PATHS`: modified, staged, deleted or untracked
    (git's ignored files, such as ``__pycache__``, are not changes). ``("", [])`` outside
    a git checkout."""
    repo = repo or Path(__file__).resolve().parents[2]
    if not (repo / ".git").exists() or not shutil.which("git"):
        return "", []
    git = ["git", "-C", str(repo)]
    try:
        out = subprocess.run(
            [*git, "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        status = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=all", "--", *CODE_PATHS],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "", []
    commit = out.stdout.strip()
    changed = [line[3:] for line in status.stdout.splitlines() if line.strip()]
    return commit + ("-dirty" if commit and changed else ""), changed


def _changes_text(changed: list[str]) -> str:
    shown = ", ".join(changed[:CHANGES_SHOWN])
    more = len(changed) - CHANGES_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def run_command() -> dict[str, str]:
    """The command as it ran: the whole command line with every override, the Hydra config
    it composed, and the overrides of this job (in a multirun, one job of the sweep). Empty
    strings where the run did not come from the command line (Hydra's compose API)."""
    # Hydra's own state, read here rather than through plan.hydra_runtime: provenance is
    # part of the results layer (pages read it), which never imports the solvers' modules.
    from hydra.core.hydra_config import HydraConfig

    hc = HydraConfig.get() if HydraConfig.initialized() else None
    if hc is None:
        return {"command": os.environ.get(COMMAND_ENV, ""), "config_name": "", "overrides": ""}
    argv0 = Path(sys.argv[0])
    program = ["python", "-m", "slitherbench"] if argv0.name == "__main__.py" else [argv0.name]
    return {
        "command": os.environ.get(COMMAND_ENV) or shlex.join([*program, *sys.argv[1:]]),
        "config_name": str(hc.job.config_name or ""),
        "overrides": shlex.join(hc.overrides.task),
    }


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@cache
def gpu_names() -> tuple[str, ...]:
    """Names of the NVIDIA GPUs nvidia-smi lists (empty without a GPU or nvidia-smi)."""
    if not shutil.which("nvidia-smi"):
        return ()
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return tuple(x.strip() for x in out.stdout.splitlines() if x.strip())


def _slurm_job() -> str:
    job = os.environ.get("SLURM_ARRAY_JOB_ID") or os.environ.get("SLURM_JOB_ID", "")
    task = os.environ.get("SLURM_ARRAY_TASK_ID")
    return f"{job}_{task}" if job and task else job


def provenance(packages: tuple[str, ...] = ()) -> dict[str, str | int | bool]:
    """``version_<package>`` for the base packages and ``packages``, the checkout, the
    machine, and the command as it ran (read again at each call: a multirun's jobs differ)."""
    return {**_machine(packages), **run_command()}


@cache
def _checkout() -> tuple[str, list[str]]:
    """The checkout as the process first asked (a run asks as it starts): a file edited while
    it runs is not its code, whichever cell's packages are asked for later."""
    return git_state()


@cache
def _machine(packages: tuple[str, ...]) -> dict[str, str | int | bool]:
    info: dict[str, str | int | bool] = {
        f"version_{p.replace('-', '_')}": _version(p) for p in (*BASE_PACKAGES, *packages)
    }
    commit, changed = _checkout()
    info.update(
        git_commit=commit,
        git_changes=_changes_text(changed),
        host=socket.gethostname(),
        cpu=_cpu(),
        cpu_count=os.cpu_count() or 0,
        gpu=", ".join(gpu_names()),
        python=platform.python_version(),
        # The batch job this ran in (SLURM: job id, with the array task when there is one).
        slurm_job_id=_slurm_job(),
    )
    return info


def dirty_note(commits: Iterable[str], changes: Iterable[str] = ()) -> list[str]:
    """The lines of the warning a findings page opens with when some of its results ran from
    a dirty checkout (``<commit>-dirty``): which commits, and the changed files where they
    were recorded; empty when every result ran from a commit."""
    dirty = sorted({c for c in commits if str(c).endswith("-dirty")})
    if not dirty:
        return []
    changed = sorted({c for c in changes if c})
    said = (
        "changed files: " + "; ".join(f"`{c}`" for c in changed)
        if changed
        else "the changed files were not recorded (an older record: tracked files only)"
    )
    return [
        '!!! warning "Run from a checkout with local changes"',
        f"    Results came from {', '.join(f'`{c}`' for c in dirty)}: code or configuration that",
        f"    differs from the commit, so the commit alone does not say what ran; {said}.",
        "",
    ]
