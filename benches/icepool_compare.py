#!/usr/bin/env python3
"""Times icepool on the 10-against-7 net hits that `benches/armour_battles.rs` times.

The distribution: 10 d6 at 4+ against 7 d6 at 4+, net hits = attacker successes minus
defender successes, exact. Each icepool program is compared with the criterion benchmark
that computes the same thing (building both (successes, sixes) tables from scratch and
folding them): `armour_battles_fire/net_hits_10v7` and
`armour_battles_fire/net_hits_and_suppression_10v7`. The two programs:

* net hits: each die mapped to 0/1 hits, `10 @ hit - 7 @ hit` (the shortest icepool program);
* net hits + suppression: each die mapped to a (hit, six) vector and the two sums folded to
  (net hits, attacker sixes > defender sixes), which is what a fire query needs.

icepool caches intermediate dice, so each sample runs in a fresh interpreter ("cold", the
cost of answering a new question); the warm in-process median is printed too.

Usage: python3 benches/icepool_compare.py [--skip-cargo] [--samples N]
Needs `pip install icepool`.
"""

import argparse
import json
import math
import pathlib
import statistics
import subprocess
import sys
import timeit

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target/criterion/armour_battles_fire"
# Each icepool program against the criterion benchmark doing the same work.
OURS = {
    "net hits": "net_hits_10v7",
    "net hits + suppression": "net_hits_and_suppression_10v7",
}

NET_HITS = """
hit = icepool.d6.map(lambda x: 1 if x >= 4 else 0)
result = (10 @ hit) - (7 @ hit)
"""

NET_AND_SUPPRESSION = """
pair = icepool.d6.map(lambda x: icepool.Vector((int(x >= 4), int(x == 6))))
a, d = 10 @ pair, 7 @ pair
result = icepool.map(lambda a, d: (a[0] - d[0], a[1] > d[1]), a, d)
"""


def cold_sample(program: str) -> float:
    """Seconds to run `program` once in a fresh interpreter (import not counted)."""
    code = (
        "import time, icepool\n"
        "t = time.perf_counter()\n"
        f"{program}\n"
        "print(time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def warm_median(program: str, samples: int) -> float:
    """Median seconds per run inside one interpreter (icepool's caches warm)."""
    times = timeit.repeat(program, setup="import icepool", number=1, repeat=samples)
    return statistics.median(times)


def check_distribution() -> None:
    """icepool's answer equals the binomial formula, so both tools compute the same thing."""
    import icepool

    hit = icepool.d6.map(lambda x: 1 if x >= 4 else 0)
    net = (10 @ hit) - (7 @ hit)
    for k in range(-7, 11):
        exact = sum(
            math.comb(10, a) * math.comb(7, a - k) for a in range(11) if 0 <= a - k <= 7
        ) / 2**17
        assert abs(net.probability(k) - exact) < 1e-15, (k, net.probability(k), exact)


def quartermaster_medians_ns(skip_cargo: bool) -> dict:
    if not skip_cargo:
        subprocess.run(
            ["cargo", "bench", "--bench", "armour_battles", "--", "10v7"],
            cwd=ROOT,
            check=True,
        )
    medians = {}
    for label, bench in OURS.items():
        estimates = json.loads((CRITERION / bench / "new/estimates.json").read_text())
        medians[label] = estimates["median"]["point_estimate"]
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-cargo", action="store_true", help="reuse criterion's last run")
    parser.add_argument("--samples", type=int, default=15, help="icepool samples per variant")
    args = parser.parse_args()

    check_distribution()
    ours = quartermaster_medians_ns(args.skip_cargo)
    print()
    print("10 d6 at 4+ against 7 d6 at 4+, exact (medians; each row does the same work twice)")
    for label, program in [("net hits", NET_HITS), ("net hits + suppression", NET_AND_SUPPRESSION)]:
        cold = statistics.median(cold_sample(program) for _ in range(args.samples))
        warm = warm_median(program, args.samples)
        ours_ns = ours[label]
        print(
            f"  {label:<24} quartermaster {ours_ns / 1000:8.1f} µs   icepool cold {cold * 1e3:8.2f} ms"
            f" ({cold * 1e9 / ours_ns:,.0f}×)   warm {warm * 1e3:8.2f} ms ({warm * 1e9 / ours_ns:,.0f}×)"
        )


if __name__ == "__main__":
    main()
