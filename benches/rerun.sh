#!/usr/bin/env bash
# Runs every criterion benchmark N times (default 3), keeping each run's results in
# target/bench-runs/run-K, so docs/performance.md can quote a median with its spread:
#   benches/rerun.sh 3 && python3 benches/perf_table.py target/bench-runs/run-*
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
out=target/bench-runs
rm -rf "$out"
mkdir -p "$out"
for k in $(seq 1 "$runs"); do
  for bench in armour_battles dice store library export campaign scale board bolt_action resolution army_data league; do
    cargo bench --bench "$bench" -- --warm-up-time 1 --measurement-time 3 > "$out/run-$k-$bench.log" 2>&1
  done
  cp -r target/criterion "$out/run-$k"
  echo "run $k of $runs done at $(date -u +%H:%M)"
done
