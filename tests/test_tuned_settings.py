"""The committed tuned settings (conf/tuning/tuned/, conf/tuning/tuned_full/) build the cells
and config hashes they built before they moved under conf/ (from the repository's top): the
folder's path never enters a hash, so stores made with them resume and report unchanged. The
hashes were taken from the code before the move; the tuned_full ones are those the published
paper-grade run's pages name."""

from __future__ import annotations

import pytest
from hydra import compose, initialize_config_dir

from slitherbench.run.plan import CONF_DIR, resolve_cells

PINNED = {
    # experiment=hubo_vs_qubo tuned=true: the default tuned_dir, conf/tuning/tuned
    ("hubo_vs_qubo", "tuning/tuned"): {
        "hubo/abs3+tuned": "d392891778bd",
        "qubo/abs3+tuned": "51c640349140",
        "hubo/openjij+tuned": "f26b93ae9b80",
        "qubo/openjij+tuned": "59cc13a26eb3",
        "hubo/sa+tuned": "226f44711dc0",
        "qubo/sa+tuned": "93b3f1fc8b32",
    },
    # experiment=hubo_vs_qubo_full tuned=true with conf/tuning/tuned_full (ABS3's edge forms
    # were not tuned: they run untuned, under their untuned hashes)
    ("hubo_vs_qubo_full", "tuning/tuned_full"): {
        "hubo/abs3": "ff0925f7e16e",
        "qubo/abs3": "30065f681a0b",
        "hubo/openjij+tuned": "796ddc0e8f53",
        "qubo/openjij+tuned": "3e68691a5a5c",
        "hubo/sa+tuned": "8042cf656d74",
        "qubo/sa+tuned": "79810b618e0f",
    },
}


# tuned_full in the fast subset (about a second each); tuned in the full suite
@pytest.mark.parametrize(
    ("experiment", "folder"),
    [p if p[0] == "hubo_vs_qubo_full" else pytest.param(*p, marks=pytest.mark.slow)
     for p in PINNED],
)  # fmt: skip
def test_tuned_files_build_the_cells_and_hashes_they_built_before_the_move(
    experiment: str, folder: str
) -> None:
    tuned_dir = CONF_DIR / folder
    assert sorted(p.stem for p in tuned_dir.glob("*.yaml")), f"no tuned settings in {tuned_dir}"
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[f"experiment={experiment}", "tuned=true", f"tuned_dir={tuned_dir}"],
        )
    cells = resolve_cells(cfg)
    assert {c.label: c.config_hash(cfg) for c in cells} == PINNED[(experiment, folder)]


def test_the_default_tuned_dirs_are_the_folders_under_conf() -> None:
    """``tuned_dir`` resolves under conf/ wherever the run starts (the resolver is relative
    to the package's conf/, not to the working directory)."""
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        default = compose(config_name="config")
        full = compose(config_name="config", overrides=["experiment=tune_full"])
        graded = compose(config_name="config", overrides=["experiment=tune_graded"])
    assert default.tuned_dir == str(CONF_DIR / "tuning/tuned")
    assert full.tuned_dir == str(CONF_DIR / "tuning/tuned_full")
    assert graded.tuned_dir == str(CONF_DIR / "tuning/tuned_graded")
    # a folder named conf/tuned would be a config group, and `tuned=true` a choice of it
    assert not (CONF_DIR / "tuned").exists()
