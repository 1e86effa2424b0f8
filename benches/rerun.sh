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
failed=()
for k in $(seq 1 "$runs"); do
  # Each run's copy holds only what that run measured, never a figure left from an older one.
  rm -rf target/criterion
  for bench in armour_battles dice store library export campaign scale board bolt_action resolution army_data league; do
    # A bench that fails is named at the end (its rows then read "not run"); the rest still run.
    cargo bench --bench "$bench" -- --warm-up-time 1 --measurement-time 3 > "$out/run-$k-$bench.log" 2>&1 ||
      failed+=("$bench (run $k: $out/run-$k-$bench.log)")
  done
  cp -r target/criterion "$out/run-$k"
  echo "run $k of $runs done at $(date -u +%H:%M)"
done
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'failed: %s\n' "${failed[@]}" | tee "$out/failed.txt" >&2
  exit 1
fi
