"""Keep a store beside the findings page written from it, so the page can be written again
and checked from the repository: ``docs/findings/NAME/store/parts/`` holds the trials and
iterations as Parquet (zstd), provenance included, without the columns no page reads (each
solve's sample bits, the host name).

    python experiments/keep_store.py results/hubo_vs_qubo docs/findings/hubo_vs_qubo/store

It refuses a store over the budget of 5 MB (``--max-mb``); the page is then written from the
kept copy (``python -m slitherbench.report docs/findings/NAME/store --publish ...``), and the
test suite writes it again from there and compares, byte for byte.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.store.results import load

# Never read by the report or a page: each solve's sample (one 0/1 per edge) and the host.
DROPPED = {"trials": ("host",), "iterations": ("edges",)}
BUDGET_MB = 5.0


def keep(source: Path, dest: Path, max_mb: float = BUDGET_MB) -> dict[str, int]:
    """Write the kept copy; return each file's size in bytes."""
    trials, iterations = load(source)
    parts = dest / "parts"
    if parts.exists() and any(parts.iterdir()):
        raise FileExistsError(f"{parts} holds files already: give an empty destination")
    parts.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for kind, frame in (("trials", trials), ("iterations", iterations)):
        frame = frame.drop(columns=[c for c in DROPPED[kind] if c in frame])
        path = parts / f"{kind}-kept.parquet"
        table = pa.Table.from_pandas(frame, preserve_index=False)
        pq.write_table(table, path, compression="zstd")
        sizes[path.name] = path.stat().st_size
    total = sum(sizes.values())
    if total > max_mb * 1e6:
        for name in sizes:
            (parts / name).unlink()
        raise ValueError(f"the kept store takes {total / 1e6:.1f} MB, over --max-mb {max_mb:g}")
    return sizes


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", type=Path, help="the store the page was written from")
    ap.add_argument("dest", type=Path, help="docs/findings/NAME/store")
    ap.add_argument("--max-mb", type=float, default=BUDGET_MB, help="size budget (MB)")
    args = ap.parse_args(argv)
    try:
        sizes = keep(args.source, args.dest, args.max_mb)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, size in sizes.items():
        print(f"{args.dest / 'parts' / name}: {size:,} bytes")
    return 0


if __name__ == "__main__":
    run_command(main)
