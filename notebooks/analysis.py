# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # HUBO vs QUBO (and cons): what explains the comparison
#
# Run it from the repository root (the README's command; docs: Reference, "Report and notebook"):
#
#     .venv/bin/jupytext --to ipynb --execute --run-path . notebooks/analysis.py
#
# It writes `notebooks/analysis.ipynb` with every output. It loads a slitherbench store
# (`SLITHERBENCH_RESULTS`, default `results/hubo_vs_qubo`; a relative path is taken from the
# repository root, wherever the kernel runs) and shows, in order: what ran; success and
# iterations per board size with 95% intervals; how the model grows with each cut (where the
# QUBO's slack cuts cost what); the residual energy of the solves that miss 0; TTS99 by size;
# the paired HUBO-vs-QUBO test; one trial's board. Skipped and error trials are counted, never
# measured; trials run with different configurations are never pooled (the report's rule).
# Figures go to `<store>/notebook_figures` (`SLITHERBENCH_FIGURES`), made only once the store
# is found.

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Image, display

from slitherbench.analysis import compare, plots, render, tables
from slitherbench.store.results import load, what_is_missing


def repo_root() -> Path:
    """The repository root: the nearest directory at or above the working directory that
    holds notebooks/ (the kernel may start in notebooks/ itself)."""
    here = Path.cwd().resolve()
    return next((d for d in (here, *here.parents) if (d / "notebooks").is_dir()), here)


def from_root(path: str) -> Path:
    p = Path(path).expanduser()
    return p if p.is_absolute() else repo_root() / p


STORE = from_root(os.environ.get("SLITHERBENCH_RESULTS", "results/hubo_vs_qubo"))
raw, iterations = load(STORE)  # fails here, having created nothing, if there is no store
for line in what_is_missing([STORE]):
    print(f"warning: {line}")
OUT = from_root(os.environ.get("SLITHERBENCH_FIGURES", str(STORE / "notebook_figures")))
OUT.mkdir(parents=True, exist_ok=True)
# One configuration per line and row: never pooled (the report's rule, tables.by_configuration).
trials = tables.with_size(tables.by_configuration(raw))
print(f"{len(trials)} trials, {len(iterations)} solves from {STORE}")
trials.groupby(["form_variant", "backend"]).status.value_counts().unstack(fill_value=0)

# %% [markdown]
# ## Success and iterations per board size
# Solved/ran with the Wilson 95% interval; iterations and rounds (energy-0 solves) over
# **solved trials only**, with bootstrap intervals: read them beside the success rate.

# %%
by_size = tables.summarise(trials, tables.SIZE_KEYS, iterations=iterations)
cols = ["solved", "success", "iter_median", "rounds_median", "tts99_s"]
print(render.to_markdown(by_size, tables.SIZE_KEYS, cols))

# %%
ran = tables.ran_only(trials)
styles = plots.Styles(trials)
sizes = list(dict.fromkeys(ran.sort_values("cells")["size"]))
fig, axes = plt.subplots(1, len(sizes), figsize=(3.4 * len(sizes), 3), squeeze=False, sharey=True)
for ax, size in zip(axes[0], sizes, strict=True):
    d = ran[ran["size"] == size]
    for (form, backend), g in d.groupby(["form_variant", "backend"], sort=False):
        x = g.loc[g.status == "solved", "iterations"].to_numpy()
        plots.ecdf_with_band(ax, x, len(g), styles.cell(form, backend), f"{form}/{backend}")
    ax.set_title(size)
    ax.set_xlabel("iterations (solved trials)")
    ax.legend(fontsize=6)
axes[0][0].set_ylabel("fraction of trials solved")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## How the model grows with each cut
# Median variables, terms and highest degree at each iteration, per form: the HUBO adds one
# product term of degree |L| per loop; the QUBO adds ceil(log2 |L|) slack bits and O(|L|^2)
# quadratic terms per loop.

# %%
its = (
    iterations.drop(columns=["form_variant", "backend"], errors="ignore").merge(
        trials[["key", "size", "form_variant", "backend"]], on="key"
    )
    if not iterations.empty
    else pd.DataFrame(columns=["key", "size", "form_variant", "backend", "iteration", "energy"])
)
model_cols = ["num_variables", "num_terms", "max_degree"]
if its.empty:
    print("no iterations stored: nothing to show here")
else:
    growth = its.groupby(["size", "form_variant", "iteration"])[model_cols].median()
    fig, axes = plt.subplots(1, 3, figsize=(11, 3))
    for (size, form), g in growth.groupby(level=[0, 1]):
        g = g.droplevel([0, 1])
        for ax, col in zip(axes, g.columns, strict=True):
            ax.plot(g.index, g[col], label=f"{form} {size}", **styles.form(form))
    for ax, col in zip(axes, growth.columns, strict=True):
        ax.set_title(f"{col} by iteration", fontsize=9)
        ax.set_xlabel("iteration")
        ax.set_ylabel(f"{col} (median)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=6)
    fig.tight_layout()
    plt.show()

# %% [markdown]
# ## The solves that miss energy 0
# Residual energy of the samples that were retried: how far each cell lands from a valid
# multi-loop state.

# %%
missed = its[its.energy > 0]
if missed.empty:
    print("every solve reached energy 0")
else:
    print(missed.groupby(["form_variant", "backend"]).energy.describe()[["count", "50%", "max"]])
    missed.groupby(["form_variant", "backend"]).energy.value_counts().unstack(fill_value=0)

# %% [markdown]
# ## TTS99 by board size
# TTS99 = tau ln(0.01) / ln(1 - p), tau = the trial's time budget; infinite where nothing
# was solved (missing in the plot).

# %%
paths = plots.scaling_figure(trials, OUT) if trials["cells"].nunique() > 1 else []
for path in paths[:1]:  # the PNG (the PDF beside it is for papers)
    display(Image(filename=str(path)))
by_size.pivot_table(index="size", columns=["form_variant", "backend"], values="tts99_s")

# %% [markdown]
# ## The paired test: HUBO vs QUBO on the same puzzle and seed
# McNemar's exact test on solved/unsolved pairs, Wilcoxon on pairs both solved.

# %%
forms = set(raw.formulation)
if {"hubo", "qubo"} <= forms:
    # Pairs within one configuration only (compare's form of the same rule); it refuses in
    # one line when no configuration is on both sides.
    try:
        print(compare.to_markdown(compare.compare(raw, "hubo", "qubo")))
    except ValueError as exc:
        print(exc)
else:
    print(f"the store holds {sorted(forms)}: no HUBO-vs-QUBO pairs")

# %% [markdown]
# ## One trial's iterations on the board
# Grey dashes: loops an iteration found (and then forbade); thick black: the answer loop.

# %%
chosen = plots.pick_board_trial(trials, iterations)
if chosen is not None:
    paths = plots.board_figure(chosen, iterations, OUT)
    print(
        pd.Series(chosen)[["puzzle", "form_variant", "backend", "iterations", "status"]].to_dict()
    )
    display(Image(filename=str(paths[0])))
