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
# # Iteration distributions: HUBO vs QUBO (and cons), across backends
#
# Loads a slitherbench results store (set `SLITHERBENCH_RESULTS`, default
# `results/hubo_vs_qubo`), then shows how many elimination iterations each formulation
# needed, how the backends compare, and one trial's iterations drawn on the board.
# Pair with an `.ipynb` by `jupytext --set-formats ipynb,py:percent notebooks/analysis.py`.

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt

from slitherbench import plots, tables
from slitherbench.results import load

STORE = Path(os.environ.get("SLITHERBENCH_RESULTS", "results/hubo_vs_qubo"))
trials, iterations = load(STORE)
print(f"{len(trials)} trials, {len(iterations)} iterations from {STORE}")
trials.groupby(["form_variant", "backend"]).status.value_counts().unstack(fill_value=0)

# %% [markdown]
# ## Iterations to the answer, per formulation
# Solved trials only; the legend gives solved/total. Statistics first, then the ECDF.

# %%
solved = trials[trials.status == "solved"]
solved.groupby(["form_variant", "backend"]).iterations.describe()[
    ["count", "min", "50%", "mean", "max"]
]

# %%
fig, ax = plt.subplots(figsize=(5, 3))
styles = plots.Styles(trials)
for form, d in solved.groupby("form_variant"):
    st = styles.form(form)
    ax.hist(
        d.iterations,
        bins=range(1, int(solved.iterations.max()) + 2),
        histtype="step",
        color=st["color"],
        linestyle=st["linestyle"],
        label=form,
        linewidth=1.5,
    )
ax.set_xlabel("iterations to the answer")
ax.set_ylabel("solved trials")
ax.legend()
plt.show()

# %% [markdown]
# ## Backends compared (per formulation and backend, over the whole suite)

# %%
summary = tables.summarise(trials, tables.CELL_KEYS)
summary[
    [
        "form_variant",
        "backend",
        "solved",
        "iter_median",
        "wall_median_s",
        "solve_median_s",
        "variables",
        "max_degree",
    ]
]

# %%
out = Path(os.environ.get("SLITHERBENCH_FIGURES", STORE / "notebook_figures"))
out.mkdir(parents=True, exist_ok=True)
plots.time_to_solution_figure(trials, out)
plots.iterations_figure(trials, out, panel="backend")
sorted(p.name for p in out.iterdir())

# %% [markdown]
# ## One trial's iterations on the board
# Grey dashes: loops the iteration found (and then forbade); thick black: the answer loop.

# %%
chosen = plots.pick_board_trial(trials, iterations)
if chosen is not None:
    paths = plots.board_figure(chosen, iterations, out)
    print(chosen[["puzzle", "form_variant", "backend", "iterations", "status"]].to_dict())
    from IPython.display import Image, display

    display(Image(filename=str(paths[0])))
