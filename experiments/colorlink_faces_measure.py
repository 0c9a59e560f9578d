"""Edge vs face variables on Colorlink's annealing path: 5 generated two-colour puzzles per
size, 3 seeds each, 20 s a run (dwave on the make_quadratic reduction: 4x4 only, 5 s).

    .venv/bin/python experiments/colorlink_faces_measure.py            # the README's table
    .venv/bin/python experiments/colorlink_faces_measure.py --quick    # one 3x3 puzzle, 1 seed, 2 s
"""

import argparse
import statistics

from slitherbench.colorlink import check_colorlink, generate_colorlink, solve_colorlink

VARIANTS = {
    "edge (QUBO, dwave SA)": dict(variables="edge"),
    "face (HUBO, OpenJij, degree ban)": dict(variables="face", sampler="openjij", degree="ban"),
    "face (HUBO, OpenJij, degree gadget)": dict(
        variables="face", sampler="openjij", degree="gadget"
    ),
    "face (make_quadratic, dwave SA)": dict(variables="face", sampler="dwave"),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="one 3x3 puzzle, one seed, 2 s a run")
    args = ap.parse_args()
    sizes, puzzles_per_size, seeds = ([(3, 3)], 1, 1) if args.quick else ([(4, 4), (5, 5)], 5, 3)
    runs = puzzles_per_size * seeds
    print("| board | variables | solved | median s | max s | median iterations |")
    print("|---|---|---|---|---|---|")
    for rows, cols in sizes:
        puzzles = [generate_colorlink(rows, cols, 2, s) for s in range(puzzles_per_size)]
        for label, kw in VARIANTS.items():
            limit = 2.0 if args.quick else 20.0
            if kw.get("sampler") == "dwave":
                if rows > 4:
                    continue
                limit = 2.0 if args.quick else 5.0
            ok, secs, iters = 0, [], []
            for p in puzzles:
                for seed in range(seeds):
                    r = solve_colorlink(p, "sa", seed=seed, time_limit_s=limit, **kw)
                    if r.status == "solved":
                        assert not check_colorlink(p, r.answer) and r.answer == p.meta["answer"]
                        ok += 1
                        secs.append(r.seconds)
                        iters.append(r.iterations)
            med = f"{statistics.median(secs):.2f}" if secs else "-"
            mx = f"{max(secs):.2f}" if secs else "-"
            it = f"{statistics.median(iters)}" if iters else "-"
            print(
                f"| {rows}x{cols} | {label} | {ok}/{runs} in {limit:.0f} s | {med} | {mx} | {it} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
