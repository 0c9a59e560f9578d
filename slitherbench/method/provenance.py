"""Where and with what a result was made: package versions, git commit, host, CPU, GPU."""

from __future__ import annotations

import os
import platform
import shutil
import socket
import subprocess
from functools import cache
from importlib import metadata
from pathlib import Path

# Always recorded; each formulation and backend adds the packages it declares.
BASE_PACKAGES = ("slitherbench", "hydra-core", "pandas", "pyarrow")


def _version(pkg: str) -> str:
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return ""


def _git_commit() -> str:
    repo = Path(__file__).resolve().parents[2]
    if not (repo / ".git").exists() or not shutil.which("git"):
        return ""
    try:
        out = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    commit = out.stdout.strip()
    return commit + ("-dirty" if commit and dirty.stdout.strip() else "")


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


@cache
def provenance(packages: tuple[str, ...] = ()) -> dict[str, str | int | bool]:
    """``version_<package>`` for the base packages and ``packages``, and the machine."""
    info: dict[str, str | int | bool] = {
        f"version_{p.replace('-', '_')}": _version(p) for p in (*BASE_PACKAGES, *packages)
    }
    info.update(
        git_commit=_git_commit(),
        host=socket.gethostname(),
        cpu=_cpu(),
        cpu_count=os.cpu_count() or 0,
        gpu=", ".join(gpu_names()),
        python=platform.python_version(),
        # The batch job this ran in (SLURM: job id, with the array task when there is one).
        slurm_job_id=_slurm_job(),
    )
    return info
