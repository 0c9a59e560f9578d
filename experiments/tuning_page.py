"""The tuning studies as a findings page: every setting each cell's study tried, on its
training boards, against the cell's own (untuned) setting.

    python experiments/tuning_page.py --study results/tune_full/optuna.db \
        --tuned-dir conf/tuning/tuned_full --publish docs/findings/tune_full
    python experiments/tuning_page.py --rows docs/findings/tune_full/rows.csv \
        --publish docs/findings/tune_full            # the page again from its rows
    python experiments/tuning_page.py --quick        # tunes one cell on a 3x3 board first (s)

One row per completed Optuna trial (``experiment=tune`` / ``tune_full`` write the studies):
the cell, the setting (weights, effort), solved/ran on the training suite, the objective
and the trial's wall time. The rows carry the commit, host and budget the cell's tuned file
(``<tuned-dir>/<form>_<backend>.yaml``) recorded, so the page says what ran, not what
published it. Sections: per cell, whether any setting beat the untuned one and how many
solved anything; every setting; a figure of solved fraction against the effort, coloured by
the penalty weights' sum (the untuned setting starred).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib

from slitherbench.method.entry import OneLineArgumentParser, run_command

matplotlib.use("Agg")  # a script: no display
import matplotlib.pyplot as plt
import matplotlib.ticker
import optuna
import pandas as pd
from omegaconf import OmegaConf

from slitherbench.analysis import benchmark_page, render

COMMAND = "python experiments/tuning_page.py"
WEIGHTS = ("clue_weight", "degree_weight", "cut_weight")


def study_rows(storage: str, tuned_dir: Path) -> pd.DataFrame:
    """One row per completed trial of every study in ``storage``."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    rows = []
    for summary in optuna.get_all_study_summaries(storage):
        study = optuna.load_study(study_name=summary.study_name, storage=storage)
        written = _tuned_file(tuned_dir, summary.study_name)
        for t in study.trials:
            if t.state != optuna.trial.TrialState.COMPLETE:
                continue
            effort = {k: v for k, v in t.params.items() if k not in WEIGHTS}
            rows.append(
                {
                    "cell": summary.study_name.replace("_", "/", 1),
                    "trial": t.number,
                    "untuned": bool(t.user_attrs.get("untuned", False)),
                    **{k: t.params.get(k) for k in WEIGHTS},
                    "effort": ", ".join(f"{k}={v}" for k, v in sorted(effort.items())),
                    "effort_value": next(iter(effort.values()), None),
                    "solved": t.user_attrs.get("solved"),
                    "ran": t.user_attrs.get("ran"),
                    "objective_s": t.value,
                    "wall_s": (t.datetime_complete - t.datetime_start).total_seconds(),
                    "finished_utc": t.datetime_complete.strftime("%Y-%m-%d %H:%M"),
                    **written,
                }
            )
    if not rows:
        raise SystemExit(f"no completed trial in {storage}")
    return pd.DataFrame(rows).sort_values(["cell", "trial"], ignore_index=True)


def _tuned_file(tuned_dir: Path, name: str) -> dict:
    """What the cell's tuned file recorded about the study's run (empty: none written)."""
    path = tuned_dir / f"{name}.yaml"
    if not path.exists():
        return {}
    study = OmegaConf.to_container(OmegaConf.load(path).study)
    keep = ("objective", "repetitions", "time_limit_s", "max_iterations", "git_commit")
    out = {k: study.get(k) for k in keep}  # type: ignore[union-attr]
    out["training_puzzles"] = " ".join(study.get("training_puzzles") or [])  # type: ignore[union-attr]
    return out


def summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per cell: the untuned setting's result, the best, and how many settings solved."""
    out = []
    for cell, g in rows.groupby("cell", sort=True):
        base = g[g.untuned]
        best = g.loc[g.objective_s.idxmin()]
        base_value = float(base.objective_s.iloc[0]) if len(base) else float("nan")
        out.append(
            {
                "cell": cell,
                "settings": len(g),
                "solved anything": int((g.solved > 0).sum()),
                "untuned solved/ran": _ratio(base.iloc[0]) if len(base) else "–",
                "best solved/ran": _ratio(best),
                "best setting": _setting(best),
                "beats untuned": "yes" if best.objective_s < base_value else "no",
            }
        )
    return pd.DataFrame(out)


def _ratio(r: pd.Series) -> str:
    return f"{int(r.solved)}/{int(r.ran)}"


def _setting(r: pd.Series) -> str:
    w = "/".join(str(int(r[k])) for k in WEIGHTS)
    return f"weights {w}; {r.effort}" + (" (untuned)" if r.untuned else "")


def settings_table(rows: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "cell": rows.cell,
            "trial": rows.trial.astype(int),
            "weights clue/degree/cut": [
                "/".join(str(int(r[k])) for k in WEIGHTS) for _, r in rows.iterrows()
            ],
            "effort": rows.effort + rows.untuned.map({True: " (untuned)", False: ""}),
            "solved/ran": [_ratio(r) for _, r in rows.iterrows()],
            "objective (s)": rows.objective_s.map(render.fmt),
            "wall (s)": rows.wall_s.map(lambda v: f"{v:.0f}"),
        }
    )


def figure(rows: pd.DataFrame, dest: Path) -> Path:
    cells = sorted(rows.cell.unique())
    fig, axes = plt.subplots(1, len(cells), figsize=(3.2 * len(cells), 3), squeeze=False)
    for ax, cell in zip(axes[0], cells, strict=True):
        g = rows[rows.cell == cell]
        frac = g.solved / g.ran
        sc = ax.scatter(
            g.effort_value, frac, c=g[list(WEIGHTS)].sum(axis=1), cmap="viridis", vmin=3, vmax=12
        )
        base = g[g.untuned]
        ax.scatter(
            base.effort_value,
            base.solved / base.ran,
            marker="*",
            s=220,
            facecolors="none",
            edgecolors="red",
            label="untuned",
        )
        name = g.effort.iloc[0].split("=")[0] or "effort"
        ax.set(xscale="log", title=cell, xlabel=f"{name} (log)", ylim=(-0.05, 1.05))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axes[0][0].set_ylabel("solved / ran (training)")
    axes[0][0].legend(loc="upper left", fontsize=8)
    fig.colorbar(sc, ax=axes[0].tolist(), label="clue + degree + cut weight")
    path = dest / "settings.png"
    fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return path


def sections(rows: pd.DataFrame) -> list[tuple[str, str]]:
    first = rows.iloc[0]
    budget = (
        f"Training boards: {first.get('training_puzzles', '?')}; "
        f"{_int(first.get('repetitions'))} seeds each, {render.fmt(first.get('time_limit_s'))} s "
        f"and {_int(first.get('max_iterations'))} iterations per trial. "
        f"Objective: {first.get('objective', '?')}."
    )
    caption = (
        "Per cell: the settings the study tried (the first is the cell's own), how many solved "
        "any training trial, and whether the best beat the untuned setting. " + budget
    )
    every = "Every completed setting, in the order tried. Wall: the setting's training runs."
    return [
        ("Per cell", render.grid_markdown(summary(rows), caption)),
        ("Every setting", render.grid_markdown(settings_table(rows), every)),
    ]


def _int(v: object) -> str:
    return "?" if v is None or v != v else str(int(v))  # type: ignore[call-overload]


def publish(rows: pd.DataFrame, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    fig = figure(rows, dest)
    return benchmark_page.write_page(
        dest,
        rows,
        title="Tuning: every setting tried, against the untuned one",
        script=COMMAND,
        sections=sections(rows),
        figures=[fig],
    )


def quick_study(root: Path) -> tuple[Path, Path]:
    """A real study in seconds: experiment=tune on one generated 3x3 board, two settings."""
    cmd = [
        sys.executable, "-m", "slitherbench", "experiment=tune", "puzzle=generated",
        "puzzle.rows=3", "puzzle.cols=3", "puzzle.count=1", "repetitions=1", "time_limit_s=2",
        "max_iterations=5", "tune.n_trials=2", "progress=false",
        "cells=[{formulation: qubo, backend: sa}]",
        f"results_dir={root / 'tune'}", f"tuned_dir={root / 'tuned'}", f"hydra.run.dir={root}",
    ]  # fmt: skip
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return root / "tune" / "optuna.db", root / "tuned"


def main() -> int:
    ap = OneLineArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--study", type=Path, default=Path("results/tune_full/optuna.db"))
    ap.add_argument("--tuned-dir", type=Path, default=Path("conf/tuning/tuned_full"))
    ap.add_argument("--quick", action="store_true", help="tune a 3x3 board first (seconds)")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    if args.quick:
        args.study, args.tuned_dir = quick_study(Path(tempfile.mkdtemp(prefix="tuning_page-")))
    if not args.study.exists():
        ap.error(f"{args.study}: no study here (run experiment=tune_full first)")
    rows = study_rows(f"sqlite:///{args.study.resolve()}", args.tuned_dir)
    command = f"{COMMAND} --study {args.study} --tuned-dir {args.tuned_dir}"
    stamped = benchmark_page.stamp(rows, ("optuna",), command)
    # what ran: the commit the tuned files recorded, when the trials finished
    # (none recorded where a cell's study has written no file yet)
    stamped["git_commit"] = rows.get("git_commit")
    stamped["measured_utc"] = rows["finished_utc"].str[:10]
    print(render.grid_markdown(summary(rows), ""))
    if args.publish:
        print(f"page: {publish(stamped, args.publish)}")
    return 0


if __name__ == "__main__":
    run_command(main)
