"""Any solver by command: the model is written to a file, a command line runs under the
trial's time limit, and the sample it writes back is judged by the harness.

Each solve writes the model as ``format`` (``auto``: qplib for the qubo form, hubo-json for
hubo, cnf for cons; see :mod:`slitherbench.models.export`) with its JSON sidecar, then runs
``command`` with these placeholders filled in:

``{input}`` the instance file, ``{output}`` where the sample goes, ``{sidecar}`` the sidecar,
``{seed}`` the solve's seed, ``{time_limit_s}`` the seconds left in the trial, ``{format}``,
``{python}`` this Python interpreter. The command line is split like a shell's (``shlex``)
but run without a shell: write ``bash -c '...'`` for pipes. ``{{`` is a literal brace.

The command is killed (its whole process group) when the time runs out: the trial is then a
``timeout``. Its sample is read from ``{output}``, or from its standard output when it wrote
no file: one 0/1 per variable of the sidecar's ``variables`` (the model's labels for the
polynomial formats, the edges x0..x{E-1} for the exact ones), whitespace-separated, ``#``
comment lines ignored; or a JSON object ``{"x0": 1, "x1": 0, ...}`` naming every one; or, for
cnf, a SAT solver's ``s``/``v`` lines. The exact formats' edges are completed with the
model's auxiliaries as the exact backends' are. The runner then judges the sample with the
model's own energy and the checker, as for every backend. A command that exits with a code
outside ``ok_exit_codes``, writes nothing readable, or a sample of the wrong length is an
``error`` with a one-line reason (exit code, last line of standard error).

With a presolve (``presolve=rules``), the file holds the presolved model: the edges deduction
fixed are no variables of the penalty formats, and one unit constraint each in the exact ones.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from slitherbench.method.record import Capability, SolveResult, Status
from slitherbench.models.formulations import Formulation, Model
from slitherbench.solvers.base import Backend

DEFAULT_COMMAND = (
    "{python} -m slitherbench.models.export.sample {input} {output} --seed {seed} "
    "--time-limit {time_limit_s}"
)
AUTO_FORMATS = {"qubo": "qplib", "hubo": "hubo-json", "cons": "cnf"}
TAIL = 300  # characters of the command's stdout and stderr kept in the iteration's extras


class ExternalError(RuntimeError):
    """The command failed or gave no usable sample (the trial is an ``error``)."""

    status = Status.ERROR
    extras: dict[str, Any] | None = None  # the command's exit code and output tails, if it ran


class ExternalTimeout(ExternalError):
    """The command ran past the time left and was killed (the trial is a ``timeout``)."""

    status = Status.TIMEOUT


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:200] if lines else ""


def parse_sample(text: str, names: Sequence[str], fmt: str) -> list[int]:
    """One 0/1 per name, from the documented sample formats (see the module's doc)."""
    body = text.strip()
    if not body:
        raise ExternalError("the command wrote no sample (empty output)")
    if body.startswith("{"):
        try:
            got = json.loads(body)
        except json.JSONDecodeError as exc:
            raise ExternalError(f"the command's JSON sample does not parse: {exc}") from None
        if not isinstance(got, dict):
            raise ExternalError("the command's JSON sample is not an object {name: 0/1}")
        missing = [n for n in names if n not in got]
        extra = [k for k in got if k not in set(names)]
        if missing or extra:
            raise ExternalError(
                f"the command's JSON sample names {len(got)} variables; the instance has "
                f"{len(names)} ({len(missing)} missing, {len(extra)} unknown, e.g. "
                f"{(missing or extra)[0]!r})"
            )
        values = [got[n] for n in names]
    else:
        lines = [ln for ln in body.splitlines() if not ln.lstrip().startswith("#")]
        if fmt == "cnf" and any(ln.startswith(("s ", "v ")) for ln in lines):
            return _dimacs_model(lines, len(names))
        values = [tok for ln in lines for tok in ln.split()]
        _check_bits(values)
        if len(values) != len(names):
            raise ExternalError(
                f"the command's sample has {len(values)} values; the instance has "
                f"{len(names)} variables"
            )
    _check_bits(values)
    return [int(v) for v in values]


def _check_bits(values: Sequence[Any]) -> None:
    for k, v in enumerate(values):
        if str(v) not in ("0", "1"):
            raise ExternalError(
                f"the command's sample value {k + 1} is {str(v)[:20]!r}, not 0 or 1"
            )


def _dimacs_model(lines: Sequence[str], n: int) -> list[int]:
    """A SAT solver's answer (``s SATISFIABLE``, ``v`` literal lines): variables 1..n."""
    status = next((ln[2:].strip() for ln in lines if ln.startswith("s ")), "")
    if status and status != "SATISFIABLE":
        raise ExternalError(f"the SAT solver answered {status}")
    lits = {int(t) for ln in lines if ln.startswith("v ") for t in ln[2:].split()}
    if not all(v in lits or -v in lits for v in range(1, n + 1)):
        raise ExternalError(f"the SAT solver's model does not give all of variables 1..{n}")
    return [int(v in lits) for v in range(1, n + 1)]


class ExternalBackend(Backend):
    name = "external"
    takes = frozenset({Capability.CONSTRAINTS, Capability.POLYNOMIAL, Capability.QUADRATIC})
    # It holds the time limit itself: the command is killed at the deadline.
    interruptible = True

    def __init__(
        self,
        command: str = DEFAULT_COMMAND,
        format: str = "auto",
        ok_exit_codes: Sequence[int] = (0, 10),
        keep_files: str | None = None,
        **params: Any,
    ) -> None:
        if not str(command).strip():
            raise ValueError("backend external needs a command")
        super().__init__(
            command=str(command),
            format=str(format),
            ok_exit_codes=[int(c) for c in ok_exit_codes],
            keep_files=keep_files,
            **params,
        )
        self._dir: Path | None = None
        self._solves = 0

    def format_for(self, formulation: Formulation) -> str:
        fmt = str(self.params["format"])
        return AUTO_FORMATS.get(formulation.name, "hubo-json") if fmt == "auto" else fmt

    def unsupported_reason(self, formulation: Formulation) -> str | None:
        from slitherbench.models.export import ExportError, unwritable_reason

        base = super().unsupported_reason(formulation)
        if base:
            return base
        fmt = self.format_for(formulation)
        try:
            reason = unwritable_reason(formulation, fmt)
        except ExportError as exc:
            return f"backend external: {exc}"
        return f"backend external does not accept this pairing: {reason}" if reason else None

    def start(self, model: Model) -> None:
        keep = self.params.get("keep_files")
        if keep:  # one directory per trial inside it, kept
            Path(str(keep)).mkdir(parents=True, exist_ok=True)
            self._dir = Path(tempfile.mkdtemp(prefix="trial-", dir=str(keep)))
        else:
            self._dir = Path(tempfile.mkdtemp(prefix="slitherbench-external-"))
        self._solves = 0

    def close(self) -> None:
        if self._dir is not None and not self.params.get("keep_files"):
            shutil.rmtree(self._dir, ignore_errors=True)
        self._dir = None

    def _argv(self, values: Mapping[str, str]) -> list[str]:
        try:
            return [tok.format_map(values) for tok in shlex.split(str(self.params["command"]))]
        except (KeyError, ValueError, IndexError) as exc:
            raise ExternalError(
                f"the command line has an unknown placeholder or a stray brace ({exc}); "
                f"placeholders: {', '.join('{' + k + '}' for k in values)}"
            ) from None

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        from slitherbench.models.export import write_instance

        if self._dir is None:
            self.start(model)
        assert self._dir is not None
        self._solves += 1
        t0 = time.perf_counter()
        fmt = self.format_for(model.formulation)
        stem = self._dir / f"model-{self._solves}"
        side = write_instance(model, stem, fmt, iteration=self._solves)
        path = self._dir / side["file"]
        output = self._dir / f"sample-{self._solves}.txt"
        values = {
            "input": str(path),
            "output": str(output),
            "sidecar": f"{path}.json",
            "seed": str(seed % (2**31)),
            "time_limit_s": "",  # the time left once the model is written
            "format": fmt,
            "python": sys.executable,
        }
        t1 = time.perf_counter()
        left = time_limit_s - (t1 - t0)  # writing the model counts against the trial's time
        if left <= 0:
            raise ExternalTimeout("the time limit was reached while the model was written")
        values["time_limit_s"] = f"{left:.3f}"
        argv = self._argv(values)
        rc, out, err = self._run(argv, left)
        t2 = time.perf_counter()
        if self.params.get("keep_files") and out:
            # A sample printed on standard output is a sample too: kept as {output}'s would be.
            (self._dir / f"sample-{self._solves}.stdout.txt").write_text(out)
        extras: dict[str, Any] = {
            "format": fmt,
            "exit_code": rc,
            "command_s": round(t2 - t1, 4),
            "stdout_tail": out[-TAIL:],
            "stderr_tail": err[-TAIL:],
        }
        try:
            sample = self._read_sample(model, side, fmt, rc, out, err, output)
        except ExternalError as exc:
            exc.extras = extras  # the trial keeps the command's output tails (runner._fail)
            raise
        return SolveResult(
            sample,
            float(model.energy(sample)),
            start_s=t1 - t0,
            solve_s=t2 - t1,
            mode="external",
            hint_used=False,
            extras=extras,
        )

    def _read_sample(
        self,
        model: Model,
        side: Mapping[str, Any],
        fmt: str,
        rc: int,
        out: str,
        err: str,
        output: Path,
    ) -> dict[int, int]:
        """The model's sample from what the command left (ExternalError if none)."""
        from slitherbench.models.export import format_module

        if rc not in self.params["ok_exit_codes"]:
            why = _last_line(err) or _last_line(out) or "no output"
            raise ExternalError(f"the command exited with code {rc}: {why}")
        text = output.read_text(errors="replace") if output.exists() else ""
        variables = side["variables"]
        names = [v["name"] for v in variables]
        bits = parse_sample(text if text.strip() else out, names, fmt)
        if format_module(fmt).FAMILY == "constraints":
            return model.complete([bool(b) for b in bits])  # the edges, auxiliaries filled
        return {int(v["label"]): b for v, b in zip(variables, bits, strict=True)}

    def _run(self, argv: list[str], time_limit_s: float) -> tuple[int, str, str]:
        """(exit code, stdout, stderr) of the command, killed with its process group at
        the deadline."""
        try:
            proc = subprocess.Popen(
                argv,  # in the harness's working directory: relative paths work as typed
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=True,  # its own process group: killed with its children
            )
        except OSError as exc:
            raise ExternalError(f"the command cannot start: {exc}") from None
        try:
            out, err = proc.communicate(timeout=max(time_limit_s, 0.001))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:  # a process that left the group may still hold the pipes: stop reading
                proc.communicate(timeout=1.0)
            except subprocess.TimeoutExpired:
                for pipe in (proc.stdout, proc.stderr):
                    if pipe is not None:
                        pipe.close()
                proc.wait()
            raise ExternalTimeout(
                f"the command ran past the {time_limit_s:.3g} s left and was killed"
            ) from None
        return proc.returncode, out, err
