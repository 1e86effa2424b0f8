#!/usr/bin/env python3
"""Prints the performance tables of docs/performance.md from criterion's results.

Run the benchmarks first (`cargo bench`, or one at a time: `cargo bench --bench scale`),
then `python3 benches/perf_table.py` and paste its output over the tables. Every figure is
criterion's median of the named benchmark, read from
`target/criterion/<group>/<bench>/new/estimates.json`; a benchmark not yet run prints "not
run" rather than an old number. The machine is named from /proc/cpuinfo and nproc.

One run says little on a shared machine (the same code has measured 1.3× slower an hour
later). `benches/rerun.sh N` runs every benchmark N times and keeps each run's results in
`target/bench-runs/run-K`; `python3 benches/perf_table.py target/bench-runs/run-*` then prints
each figure as the median of the runs' medians with their range ("6.2 µs (5.9–7.4)").
"""

import datetime
import json
import os
import pathlib
import platform

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target/criterion"

# (what, criterion path under target/criterion, target)
ROWS = [
    ("Armour Battles fire odds, 12 AT vs 10 reaction dice", "armour_battles_fire/fire_odds_12v10", "100 µs"),
    ("All 1,920 fire situations", "armour_battles_fire/fire_table_1920", "100 ms"),
    ("Net hits 10 vs 7 dice / with suppression (compared with icepool)",
     ["armour_battles_fire/net_hits_10v7", "armour_battles_fire/net_hits_and_suppression_10v7"], "—"),
    ("Monte Carlo: 1 M fire actions (8 vs 6 dice)", "monte_carlo/fire_8v6_1m_actions", "50 ms"),
    ("Open and load 10,000 cards and 1,000 forces", "load/open_and_load_library_10k_cards_1k_forces", "100 ms"),
    ("Save one force (10 lines, replacing)", "save/save_force_replace_10_lines", "2 ms"),
    ("Library keystroke: filter / whole frame, 10,000 cards",
     ["library_10k/filter 'pan'", "library_10k_keystroke frame"], "16 ms"),
    ("90 poker cards to PDF", "export/90_cards_pdf", "150 ms"),
    ("After-action PDF", "export/after_action_pdf", "—"),
    ("Record one battle event (synced to disk)", "record one event (synced)", "—"),
    ("Merge two 10,000-event logs (9,000 shared, 1,000 new on each side)",
     "merge two 10,000-event logs (1,000 new each)", "100 ms"),
    ("Merge a 10,000-event log into an empty copy (a machine joining)",
     "merge a 10,000-event log into an empty copy", "—"),
    ("BattleScribe data, 2.6 MB, 500 units, 3,000 options: read and map / and store",
     ["army_data_2mb/read, resolve and map 500 units",
      "army_data_2mb/and store in one transaction (in memory)"], "1 s"),
]

# A shared campaign at 100,000 events (`fn sync` and `fn join` of benches/campaign.rs): issue
# 21's targets. `campaign::script::long_campaign` gives 99 battles of ten machines' signed play.
SHARED = [
    ("Sync with nothing new: 10 machines' files, 100,000 events",
     "sync/nothing new (100000 events, 10 machines)", "50 ms"),
    ("Sync bringing 10 new events from one of the 10 files, 100,000 events",
     "sync/10 new events from one of 10 files (100000 events)", "100 ms"),
    ("Join a 10-machine folder: 1,000 / 10,000 / 100,000 events",
     ["join a 10-machine folder/1000 events", "join a 10-machine folder/10000 events",
      "join a 10-machine folder/100000 events"], "linear"),
]

# The growth series of benches/scale.rs: (what, bench name, target at 100,000 cards).
SCALE = [
    ("One force edit, model work", "edit", "5 ms"),
    ("One custom card edit, model work", "card edit", "5 ms"),
    ("Library frame", "library frame", "8 ms"),
    ("A force edit and the Library frame after it", "edit then library frame", "16 ms"),
    ("A card edit and the Library frame after it (the card selected)", "card edit then library frame", "16 ms"),
    ("Library frame after a keystroke", "library keystroke frame", "8 ms"),
    ("Forces frame", "forces frame", "8 ms"),
]
SIZES = [1_000, 10_000, 100_000]


RUNS = [CRITERION]


def run_medians(path: str):
    """The benchmark's median in each run that has it, in ns."""
    found = []
    for run in RUNS:
        estimates = run / path / "new/estimates.json"
        if estimates.exists():
            found.append(json.loads(estimates.read_text())["median"]["point_estimate"])
    return found


def median_ns(path: str):
    found = sorted(run_medians(path))
    if not found:
        return None
    middle = len(found) // 2
    return found[middle] if len(found) % 2 else (found[middle - 1] + found[middle]) / 2


def figure(path: str) -> str:
    """The median, and over several runs the range of the runs' medians."""
    found = run_medians(path)
    if len(found) < 2:
        return human(median_ns(path))
    return f"{human(median_ns(path))} ({human(min(found))}–{human(max(found))})"


def human(ns) -> str:
    if ns is None:
        return "not run"
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


def machine() -> str:
    model = platform.processor() or "unknown CPU"
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def print_rows(rows) -> None:
    """A table of (what, bench path or paths, target) rows."""
    print("| What | Median | Target |")
    print("|---|---|---|")
    for what, paths, target in rows:
        paths = paths if isinstance(paths, list) else [paths]
        print(f"| {what} | {' / '.join(figure(p) for p in paths)} | {target} |")


def main() -> None:
    import sys

    if len(sys.argv) > 1:
        RUNS[:] = [pathlib.Path(arg) for arg in sys.argv[1:]]
    runs = f" over {len(RUNS)} runs (median of the runs' medians, and their range)" if len(RUNS) > 1 else ""
    print(f"Medians from criterion on {machine()}{runs}, {datetime.date.today().isoformat()}.")
    print()
    print_rows(ROWS)
    print()
    print("A shared campaign (ten machines' files in one folder):")
    print()
    print_rows(SHARED)
    print()
    print("Growth with the library (custom cards; a tenth as many forces):")
    print()
    print("| What | " + " | ".join(f"{n:,} cards" for n in SIZES) + " | Target at 100,000 |")
    print("|---|" + "---|" * len(SIZES) + "---|")
    for what, bench, target in SCALE:
        cells = [figure(f"scale/{bench}/{n}") for n in SIZES]
        print(f"| {what} | " + " | ".join(cells) + f" | {target} |")


if __name__ == "__main__":
    main()
