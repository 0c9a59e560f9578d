"""Config hashes, trial keys and seeds of today's experiments, pinned before boards beyond the
square came in: a stored square trial must keep its key, or a resume would run it again and
a report would count it twice. The values were taken from the code at commit 96bfac4.
"""

from __future__ import annotations

import hashlib

import pytest
from hydra import compose, initialize_config_dir

from slitherbench.run.plan import CONF_DIR, plan_jobs, puzzles_from_config, resolve_cells

PINNED = [
    ("smoke", 16, "9a9cbe5cda80-7ae1e8b232-r0", 1480309189, "2a8c5a70bed445db"),
    ("hubo_vs_qubo", 90, "ff0925f7e16e-9c47770dc6-r0", 1977492960, "177035a888e2f733"),
    ("backends", 84, "06c6526df912-d2c0ff4213-r0", 1678310696, "918b0481edf11793"),
    ("survey_table", 360, "28115d8810d4-0b679f7df2-r0", 1267178674, "8bc129faec324ea3"),
    ("cut_kinds", 1440, "ae0b0dcc3442-9c47770dc6-r0", 1977492960, "3f0eaec44125fc15"),
]


# The fast subset pins two experiments (one key rule for all); the rest, about a second each,
# in the full suite.
@pytest.mark.parametrize(
    ("experiment", "count", "first_key", "first_seed", "digest"),
    [p if p[0] in ("smoke", "hubo_vs_qubo") else pytest.param(*p, marks=pytest.mark.slow)
     for p in PINNED],
)  # fmt: skip
def test_trial_keys_and_seeds_are_unchanged(
    experiment: str, count: int, first_key: str, first_seed: int, digest: str
) -> None:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[f"experiment={experiment}"])
    jobs = plan_jobs(cfg, resolve_cells(cfg), puzzles_from_config(cfg.puzzle))
    blob = "\n".join(f"{j.key} {j.seed}" for j in jobs)
    assert (len(jobs), jobs[0].key, jobs[0].seed) == (count, first_key, first_seed)
    assert hashlib.sha1(blob.encode()).hexdigest()[:16] == digest
