from __future__ import annotations

import json
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus" / "loopy_dev.jsonl"


def _corpus_path() -> Path:
    # CI has ../shared beside the checkout; fall back to the packaged copy of the same file.
    if CORPUS.exists():
        return CORPUS
    return Path(__file__).resolve().parents[1] / "slitherbench" / "data" / "loopy_dev.jsonl"


CORPUS_RECORDS = [json.loads(line) for line in _corpus_path().read_text().splitlines()]


# The fast subset reads one corpus board per size up to 10x10 (the first of each); the other
# boards of those sizes, and every board over 100 cells (10x18 and larger), are in the full
# suite only. Each corpus-wide check still runs on every size the fast subset covers.
FAST_CORPUS = {
    next(d["id"] for d in CORPUS_RECORDS if (d["rows"], d["cols"]) == size)
    for size in {(d["rows"], d["cols"]) for d in CORPUS_RECORDS if d["rows"] * d["cols"] <= 100}
}


@pytest.fixture(
    params=[
        d if d["id"] in FAST_CORPUS else pytest.param(d, marks=pytest.mark.slow)
        for d in CORPUS_RECORDS
    ],
    ids=[d["id"] for d in CORPUS_RECORDS],
)
def corpus_record(request: pytest.FixtureRequest) -> dict:
    return request.param


# Every exact family that runs the iterative method on the constraints (cons form): found by
# what it takes, so a new one is tested without editing this file.
def constraint_backends() -> list[str]:
    from hydra.utils import get_class
    from omegaconf import OmegaConf

    from slitherbench.backends.constraints import ConstraintBackend

    conf = Path(__file__).resolve().parents[1] / "conf" / "backend"
    return sorted(
        p.stem
        for p in conf.glob("*.yaml")
        if issubclass(get_class(OmegaConf.load(p)["_target_"]), ConstraintBackend)
    )
