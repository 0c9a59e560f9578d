"""The contract every layer shares: statuses, the stored trial and iteration records, and what
a backend's solve returns.

This module imports nothing of the package, so the store, the report and the plots can rely
on it without loading a solver. The dataclasses *define* the stored columns: their field
names (with units: ``wall_s``), types and defaults. ``results/README.md``'s column table is
generated from them (``python -m slitherbench.method.record``) and a test keeps the two equal.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

Scalar = bool | int | float | str


class Status(StrEnum):
    SOLVED = "solved"
    MAX_ITERATIONS = "max_iterations"
    TIMEOUT = "timeout"
    SKIPPED = "skipped"
    ERROR = "error"
    # Deduction settled the whole board before any solve (presolve=rules or lookahead): an
    # answer the checker accepted, never credited to the backend (not a ran trial).
    PRESOLVED = "presolved"


# Outcomes that are a result; skipped and error trials are run again when a run resumes.
FINAL_STATUSES = frozenset({Status.SOLVED, Status.MAX_ITERATIONS, Status.TIMEOUT, Status.PRESOLVED})
# A cell label's suffix where the run took experiment=tune's settings (``hubo/sa+tuned``): the
# label is stored in the trial's ``cell`` column, and tables and comparisons read it back.
TUNED_SUFFIX = "+tuned"
RETRY_STATUSES = frozenset({Status.SKIPPED, Status.ERROR})


class Capability(StrEnum):
    """What a formulation produces and a backend takes; a pair runs when they share one."""

    CONSTRAINTS = "native constraints"
    POLYNOMIAL = "polynomial of any degree"
    QUADRATIC = "quadratic model"


@dataclass
class ExactResult:
    """An exact solve of a whole puzzle with its uniqueness settled."""

    status: str  # unique | multiple | infeasible | timeout
    answers: list[list[bool]] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def answer(self) -> list[bool] | None:
        return self.answers[0] if self.answers else None


class ConfigError(ValueError):
    """A configuration that cannot run; reported in one line, exit code 2."""


def _col(doc: str, default: Any = "", unit: str = "") -> Any:
    return field(default=default, metadata={"doc": doc, "unit": unit})


@dataclass
class SolveResult:
    """What :meth:`Backend.solve` returns: one sample (by model label) and how it was made.

    The runner judges the sample with the model's own energy; ``energy`` is the backend's
    figure, kept for comparison.
    """

    sample: dict[int, int]
    energy: float
    start_s: float = 0.0  # solver start-up and model hand-over
    reduction_s: float = 0.0  # HUBO -> QUBO reduction, where the backend does one
    solve_s: float = 0.0  # the backend's own search
    mode: str = "CPU"
    hint_used: bool = False
    # The sampler's own effort: sweeps (reads x sweeps, replicas x sweeps x rounds) or
    # integration steps x agents for simulated bifurcation; 0 where the backend has none.
    sweeps: int = 0
    extras: dict[str, Scalar] = field(default_factory=dict)


def merge_extras(acc: dict[str, Scalar], new: dict[str, Scalar]) -> None:
    """Fold one solve's extras into the trial's: flags any, counts max, text last."""
    for k, v in new.items():
        old = acc.get(k)
        if isinstance(v, bool) and isinstance(old, bool):
            acc[k] = old or v
        elif (
            isinstance(v, int | float) and isinstance(old, int | float) and not isinstance(v, bool)
        ):
            acc[k] = max(old, v)
        else:
            acc[k] = v


@dataclass
class Trial:
    """One run of the iterative method: a puzzle x formulation x backend x seed."""

    key: str = _col("config hash, puzzle hash and repetition: `<hash>-<puzzle>-r<k>`")
    experiment: str = _col("experiment name")
    config_hash: str = _col("hash of the cell's resolved configuration")
    cell: str = _col("`formulation/backend` label")
    repetition: int = _col("repetition number", 0)
    puzzle: str = _col("puzzle name (or its size)")
    rows: int = _col("board rows (Loopy's height on other boards)", 0)
    cols: int = _col("board columns (Loopy's width on other boards)", 0)
    clues: int = _col("numbered faces", 0)
    puzzle_rows: str = _col("the clues: rows joined by `/` (squares) or the Loopy game ID")
    board: str = _col("board kind: `square` or a Loopy grid type (`honeycomb`, ...)", "square")
    faces: int = _col("faces of the board (0 in stores from before boards: rows x cols)", 0)
    difficulty: str = _col("the corpus grade, where known")
    # Added later: empty in stores from before (reported as not recorded).
    grade: str = _col(
        "the board's deduction grade: the lowest level that solves it without assuming "
        "uniqueness (`rules`, `lookahead1`, `lookahead2`, `beyond`; empty: not recorded or "
        "not graded, as Colorlink)"
    )
    grade_shares: str = _col(
        "share of the board's edges fixed after each deduction level (JSON: `rules`, "
        "`lookahead1`, `lookahead2`; empty: not recorded)"
    )
    formulation: str = _col("formulation name")
    form_variant: str = _col("formulation with its variant, e.g. `hubo[exact]`")
    variables: str = _col("one binary per `edge` (the page) or per `face` (inside/outside)", "edge")
    backend: str = _col("backend name")
    formulation_params: str = _col("the formulation's parameters (JSON)")
    backend_params: str = _col("the backend's parameters (JSON)")
    seed: int = _col("the trial's seed", 0)
    max_iterations: int = _col("iteration budget", 0)
    time_limit_s: float = _col("time budget", 0.0, "s")
    status: str = _col(
        "solved, max_iterations, timeout, skipped, error or presolved", Status.ERROR.value
    )
    reason: str = _col("why, for every status but solved")
    iterations: int = _col("solves, retries of a non-zero-energy sample included", 0)
    retries: int = _col("solves that did not reach energy 0", 0)
    wall_s: float = _col("the trial in its process", 0.0, "s")
    solve_s: float = _col("the backends' own search time, summed", 0.0, "s")
    start_s: float = _col("solver start-up and model hand-over, summed", 0.0, "s")
    reduction_s: float = _col("HUBO -> QUBO reductions, summed", 0.0, "s")
    build_s: float = _col("building the model and adding cuts", 0.0, "s")
    overhead_s: float = _col("wall_s - solve_s", 0.0, "s")
    process_wall_s: float = _col("the trial seen from the parent, process start included", 0.0, "s")
    isolated: bool = _col("ran in a fresh child process", False)
    solve_cut: bool = _col("a solve that cannot be interrupted was stopped at the deadline", False)
    num_variables: int = _col("final model: variables", 0)
    num_terms: int = _col("final model: terms (one per native constraint)", 0)
    max_degree: int = _col("final model: highest term degree", 0)
    num_cuts: int = _col("final model: loop cuts", 0)
    answer: str = _col("the answer as 0/1 in edge order (solved only)")
    answer_loop_size: int = _col("edges of the answer loop", 0)
    verified: bool = _col("the independent checker accepted the answer", False)
    mode: str = _col("where the last solve ran: CPU, GPU, ...")
    hint_used: bool = _col("any solve started from the previous solution", False)
    warm_start: str = _col("hint given to later solves: previous, broken or none", "previous")
    presolve: str = _col(
        "deduction before each solve: none, rules, lookahead1 or lookahead2", "none"
    )
    presolve_s: float = _col("deduction time, summed (inside wall_s and the time limit)", 0.0, "s")
    presolve_fixed: float = _col(
        "share of the model's own variables (edges; faces with face variables) the presolve "
        "fixed before the first solve",
        0.0,
    )
    presolve_fixed_final: float = _col(
        "share of the model's own variables (edges or faces) fixed by the last solve (cuts help)",
        0.0,
    )
    unpresolved_variables: int = _col("variables of the first model without the presolve", 0)
    unpresolved_terms: int = _col("terms of the first model without the presolve", 0)
    first_variables: int = _col("variables of the first model (after the presolve)", 0)
    first_terms: int = _col("terms of the first model (after the presolve)", 0)
    sweeps: int = _col("the samplers' own effort (sweeps or SB steps x agents), summed", 0)
    extras: str = _col("backend-specific figures (JSON): flags any, counts max over solves", "{}")
    timestamp: str = _col("when the trial was stored (UTC, ISO 8601)")
    write_id: str = _col("this stored version of the trial (a re-run writes a new one)")

    @property
    def extras_dict(self) -> dict[str, Scalar]:
        return json.loads(self.extras or "{}")


@dataclass
class Iteration:
    """One solve of a trial."""

    key: str = _col("the trial's key")
    experiment: str = _col("experiment name")
    config_hash: str = _col("the trial's config hash")
    repetition: int = _col("repetition number", 0)
    puzzle: str = _col("puzzle name")
    formulation: str = _col("formulation name")
    form_variant: str = _col("formulation with its variant")
    backend: str = _col("backend name")
    seed: int = _col("the trial's seed", 0)
    iteration: int = _col("1, 2, ...", 0)
    energy: int = _col("the form's own energy of the sample", 0)
    backend_energy: float = _col("the energy the backend reported", 0.0)
    num_loops: int = _col("loops in the sample (energy-0 samples only)", 0)
    loop_sizes: list[int] = field(
        default_factory=list, metadata={"doc": "edges per loop", "unit": ""}
    )
    num_variables: int = _col("model variables at this solve", 0)
    num_terms: int = _col("model terms at this solve", 0)
    max_degree: int = _col("highest term degree at this solve", 0)
    num_cuts: int = _col("loop cuts at this solve", 0)
    # The model's size in detail (slitherbench/models/model_size.py); absent in stores from before.
    board_variables: int = _col(
        "variables at this solve: the board's own, edges (x) or faces (c; a face rule's in an "
        "edge form included)",
        0,
    )
    point_auxiliaries: int = _col(
        "variables at this solve: the degree rule's point auxiliaries (y)", 0
    )
    slack_variables: int = _col("variables at this solve: slack bits and other auxiliaries (s)", 0)
    reduction_auxiliaries: int = _col(
        "variables at this solve: the products (z) of the form's own HUBO -> QUBO reduction "
        "(`hubo2qubo`)",
        0,
    )
    backend_reduction_auxiliaries: int = _col(
        "product variables the backend's own HUBO -> QUBO reduction holds at this solve, "
        "outside the model (dimod backends' `reduction_added`; 0 elsewhere)",
        0,
    )
    terms_by_degree: list[int] = field(
        default_factory=list,
        metadata={
            "doc": "terms at this solve by degree: degree 1, 2, ... in order (a native "
            "constraint counts as one term of its variables' number)",
            "unit": "",
        },
    )
    coeff_min_abs: float = _col(
        "smallest absolute coefficient of the polynomial's terms at this solve (0: no polynomial)",
        0.0,
    )
    coeff_max_abs: float = _col(
        "largest absolute coefficient of the polynomial's terms at this solve", 0.0
    )
    build_s: float = _col("model building before this solve", 0.0, "s")
    start_s: float = _col("solver start-up", 0.0, "s")
    reduction_s: float = _col("HUBO -> QUBO reduction", 0.0, "s")
    solve_s: float = _col("the backend's own search", 0.0, "s")
    hint_used: bool = _col("started from the previous solution", False)
    sweeps: int = _col("the sampler's own effort in this solve (sweeps or SB steps x agents)", 0)
    mode: str = _col("CPU, GPU, ...")
    edges: str = _col("the sample's edges as 0/1 in edge order")
    extras: str = _col("backend-specific figures of this solve (JSON)", "{}")
    write_id: str = _col("the stored trial version these rows belong to")


# Columns the experiment adds to every trial besides the dataclass: where it was made.
PROVENANCE_COLUMNS = {
    "version_<package>": "version of slitherbench, hydra-core and each package the cell's "
    "formulation and backend declare",
    "git_commit": "the checkout's commit (`-dirty` when files under slitherbench/ or conf/ "
    "differ from it: changed, staged, deleted or untracked)",
    "git_changes": "those changed files (the first 10, then a count); empty when clean",
    "command": "the command line as it ran, every override included (workers a run starts "
    "record the run's); empty when the run was not started from the command line",
    "config_name": "the Hydra config the run composed (`config`)",
    "overrides": "this job's Hydra overrides (in a multirun sweep, the job's own)",
    "host": "host name",
    "cpu": "CPU model",
    "cpu_count": "logical CPUs",
    "gpu": "NVIDIA GPUs nvidia-smi lists",
    "python": "Python version",
    "slurm_job_id": "the SLURM job (`<array job>_<task>` for array tasks), empty outside SLURM",
}

# Trial columns the store repeats on each of the trial's iteration rows.
ITERATION_FROM_TRIAL = (
    "key",
    "experiment",
    "config_hash",
    "repetition",
    "puzzle",
    "formulation",
    "form_variant",
    "backend",
    "seed",
)


def column_names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


def columns_markdown() -> str:
    """The column tables of results/README.md."""
    out = []
    for title, cls in (("Trial columns", Trial), ("Iteration columns", Iteration)):
        out += [f"{title} (`{cls.__name__}` in `slitherbench/method/record.py`):", ""]
        out += ["| column | type | unit | meaning |", "|---|---|---|---|"]
        for f in dataclasses.fields(cls):
            out.append(f"| `{f.name}` | {f.type} | {f.metadata['unit']} | {f.metadata['doc']} |")
        out.append("")
    out += ["Provenance columns on every trial:", "", "| column | meaning |", "|---|---|"]
    out += [f"| `{k}` | {v} |" for k, v in PROVENANCE_COLUMNS.items()]
    return "\n".join(out) + "\n"


BEGIN, END = (
    "<!-- columns: generated by python -m slitherbench.method.record -->",
    "<!-- end columns -->",
)


def readme_with_columns(text: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{columns_markdown()}{END}{tail}"


def main() -> None:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "results/README.md")
    path.write_text(readme_with_columns(path.read_text()))
    print(f"columns written to {path}")


if __name__ == "__main__":
    main()
