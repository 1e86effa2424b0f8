#!/usr/bin/env bash
# Regenerates the measured part of docs/performance.md in one command (issue #39):
#
#   benches/perf.sh [RUNS] [CRITERION_RUNS]
#
# RUNS (default 5): how many times each end-to-end figure is taken — the command line at
# 100,000 events (hyperfine, at least 10 runs), the start at 100,000 cards, the League's first
# read and refreshes of 200 × 1,000 events, the real window with a shared 100,000-event
# campaign open (benches/shared_window.sh) and a club's edits (benches/real_window.sh).
# CRITERION_RUNS (default 3; 0 skips them): runs of every criterion bench (benches/rerun.sh,
# 12–14 minutes a run on the 2-core machines here).
#
# Each figure is written as its median and, in brackets, the lowest and highest run, between
# the markers at the top of docs/performance.md; the history below them is not touched. What
# was measured goes to target/perf/results.tsv (one line a run: row, value).
#
# The data is made once under target/perf/data and kept (delete it to make it again): 100,000
# custom cards, a 100,000-event campaign, a League folder of 200 campaigns × 1,000 events.
# Needs: hyperfine, xvfb-run, xdotool, imagemagick (import), python3; root for the start with
# every page of the machine dropped (`/proc/sys/vm/drop_caches`).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
criterion_runs=${2:-3}
perf=$PWD/target/perf
data=$perf/data
results=$perf/results.tsv
mkdir -p "$data"
: > "$results"
campaign="Long campaign"
battle=53
export LIBGL_ALWAYS_SOFTWARE=1

say() { echo "perf: $* ($(date -u +%H:%M:%S))" >&2; }
# put ROW VALUE: one run's figure.
put() { printf '%s\t%s\n' "$1" "$2" >> "$results"; }
# hyper ROW JSON: each run of a hyperfine export, in ms.
hyper() {
  python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["results"][0]["times"]:
    print(f"{sys.argv[2]}\t{t * 1000:.3f}")' "$2" "$1" >> "$results"
}
xvfb() { xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" "$@"; }
# populate TEST VAR=VALUE…: one of the ignored tests that fill a data folder, in a release build.
populate() { env "${@:2}" cargo test --release -q --test it "$1" -- --ignored > /dev/null; }

echo "started	$(date -u '+%Y-%m-%d %H:%M') UTC" > "$perf/meta.tsv"
echo "load at start	$(cut -d' ' -f1-3 /proc/loadavg)" >> "$perf/meta.tsv"
echo "commit	$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (with changes)')" >> "$perf/meta.tsv"

say "release build"
cargo build --release -q
cargo test --release -q --test it --no-run 2> /dev/null
bin=$PWD/target/release/quartermaster

if [ ! -f "$data/club/quartermaster.sqlite3" ]; then
  say "filling a library of 100,000 custom cards and 10,000 forces"
  populate store_api::populate QM_POPULATE_DIR="$data/club" QM_POPULATE_CARDS=100000
fi
if [ ! -f "$data/long/quartermaster.sqlite3" ]; then
  say "filling a library with one campaign of 100,000 events"
  populate campaign_share::populate QM_POPULATE_DIR="$data/long" QM_POPULATE_EVENTS=100000
fi
if [ ! -f "$data/league/campaign-199.json" ]; then
  say "filling a League folder of 200 campaigns × 1,000 events"
  populate ui_league::populate QM_POPULATE_DIR="$data/league"
fi

# shared DIR: DIR/a (Ann on club-a) shares a fresh copy of the long campaign to DIR/folder,
# DIR/b (Bob on club-b) joins it from there: two machines' libraries and their folder.
shared() {
  rm -rf "$1"
  mkdir -p "$1"
  cp -a "$data/long" "$1/a"
  "$bin" --data-dir "$1/a" campaign player Ann --machine club-a > /dev/null
  "$bin" --data-dir "$1/a" campaign share "$campaign" --folder "$1/folder" > /dev/null
  "$bin" --data-dir "$1/b" campaign player Bob --machine club-b > /dev/null
  "$bin" --data-dir "$1/b" campaign sync "$campaign" "$1/folder" > /dev/null
}

say "start at 100,000 cards: warm, with the app's own files dropped, with every page dropped"
rm -rf "$perf/club"
cp -a "$data/club" "$perf/club"
start="$bin --data-dir $perf/club --frames 1"
xvfb hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$perf/warm.json" "$start" > /dev/null
hyper start_warm "$perf/warm.json"
# The binary and the database evicted (posix_fadvise), the system's libraries left as a desktop
# keeps them (its compositor holds the GL driver): a first start after an install or upgrade.
evict="python3 -c 'import os, sys; [os.posix_fadvise(os.open(p, os.O_RDONLY), 0, 0, os.POSIX_FADV_DONTNEED) for p in sys.argv[1:] if os.path.exists(p)]' $bin $perf/club/quartermaster.sqlite3 $perf/club/quartermaster.sqlite3-wal $perf/club/quartermaster.sqlite3-shm"
xvfb hyperfine -N --style none --runs "$runs" --prepare "$evict" --export-json "$perf/own.json" "$start" > /dev/null
hyper start_own_dropped "$perf/own.json"
# Every page of the machine dropped: the binary, Mesa's software renderer (LLVM), the fonts,
# the database, all read from disk. Needs root.
if bash -c 'sync; echo 3 > /proc/sys/vm/drop_caches' 2> /dev/null; then
  xvfb hyperfine -N --style none --runs "$runs" --prepare "bash -c 'sync; echo 3 > /proc/sys/vm/drop_caches'" \
    --export-json "$perf/cold.json" "$start" > /dev/null
  hyper start_cold "$perf/cold.json"
fi

say "the command line at 100,000 events"
cli_runs=$((runs > 10 ? runs : 10))
rm -rf "$perf/plain"
cp -a "$data/long" "$perf/plain"
"$bin" --data-dir "$perf/plain" campaign player Ann --machine club-a > /dev/null
shared "$perf/cli"
note="campaign record '$campaign' --battle $battle note x"
hf() { hyperfine -N --style none --warmup 1 --runs "$cli_runs" --export-json "$perf/$1.json" "${@:2}" > /dev/null; hyper "$1" "$perf/$1.json"; }
hf record_plain "$bin --data-dir $perf/plain $note"
hf record_shared "$bin --data-dir $perf/cli/a $note"
hf sync_one_file --prepare "$bin --data-dir $perf/cli/b $note" \
  "$bin --data-dir $perf/cli/a campaign sync '$campaign'"
hf sync_nothing "$bin --data-dir $perf/cli/a campaign sync '$campaign'"

say "a 100,000-event campaign exported and imported again"
rm -rf "$perf/imported" "$perf/long.json"
at=$(date +%s%N)
"$bin" --data-dir "$perf/plain" campaign export "$campaign" --out "$perf/long.json" > /dev/null
put export_ms $(( ($(date +%s%N) - at) / 1000000 ))
put export_bytes "$(stat -c %s "$perf/long.json")"
at=$(date +%s%N)
if "$bin" --data-dir "$perf/imported" campaign import "$perf/long.json" > /dev/null; then
  put import_ms $(( ($(date +%s%N) - at) / 1000000 ))
  put import_events "$("$bin" --data-dir "$perf/imported" campaign list | sed -n 's/.*battles, \([0-9]*\) events.*/\1/p')"
else
  put import_refused 1
fi
put export_events "$("$bin" --data-dir "$perf/plain" campaign list | sed -n 's/.*battles, \([0-9]*\) events.*/\1/p')"

say "the League: 200 campaigns × 1,000 events, a first read and refreshes ($runs sessions)"
for _ in $(seq "$runs"); do
  QM_LEAGUE_DIR="$data/league" QM_LEAGUE_RUNS=1 QM_LEAGUE_REFRESHES=5 \
    cargo test --release -q --test it ui_league::time -- --ignored --nocapture 2> /dev/null |
    python3 -c 'import re, sys
kinds = {"first read": "league_first", "nothing changed": "league_nothing", "one file changed": "league_one"}
for line in sys.stdin:
    for words, row in kinds.items():
        m = re.search(words + r": first table after (\d+) ms, whole table after (\d+) ms .* slowest ([\d.]+) ms", line)
        if m:
            print(f"{row}_first_table\t{m[1]}\n{row}_table\t{m[2]}\n{row}_slowest\t{m[3]}")' >> "$results"
done

say "the window with the shared campaign open: idle, another machine's notes, a join ($runs runs)"
for _ in $(seq "$runs"); do
  shared "$perf/window"
  bash benches/shared_window.sh "$bin" "$perf/window/a" "$perf/window/b" "$battle" |
    python3 -c 'import re, sys
kinds = {"idle": "window_idle", "another machine": "window_notes", "a third machine": "window_join"}
for line in sys.stdin:
    for words, row in kinds.items():
        m = re.search(r"(\d+) frames, slowest +([\d.]+) ms \(own work +([\d.]+) ms\), CPU +([\d.]+) %", line)
        if line.startswith(words) and m:
            print(f"{row}_frames\t{m[1]}\n{row}_slowest\t{m[2]}\n{row}_own\t{m[3]}\n{row}_cpu\t{m[4]}")' >> "$results"
done

say "the window at 100,000 cards: a search, a card edit, a new force, units added ($runs runs)"
for _ in $(seq "$runs"); do
  bash benches/real_window.sh "$bin" "$data/club" |
    python3 -c 'import re, sys
for line in sys.stdin:
    m = re.match(r"(.+?) +slowest frame +([\d.]+) ms", line)
    if m:
        print(f"edit {m[1]}\t{m[2]}")
    m = re.match(r"custom cards loaded by (\d+) ms", line)
    if m:
        print(f"custom_cards_loaded\t{m[1]}")' >> "$results" || say "a real_window run failed"
done

echo "load at end of the end-to-end runs	$(cut -d' ' -f1-3 /proc/loadavg)" >> "$perf/meta.tsv"
echo "ended end-to-end	$(date -u '+%H:%M') UTC" >> "$perf/meta.tsv"
runs_dirs=()
if [ "$criterion_runs" -gt 0 ]; then
  say "every criterion bench, $criterion_runs runs"
  # A bench that fails is named in the page; the others' figures still count.
  bash benches/rerun.sh "$criterion_runs" >&2 || say "a criterion bench failed"
  runs_dirs=(target/bench-runs/run-*)
  echo "criterion ended	$(date -u '+%H:%M') UTC" >> "$perf/meta.tsv"
  echo "load at end	$(cut -d' ' -f1-3 /proc/loadavg)" >> "$perf/meta.tsv"
  if [ -f target/bench-runs/failed.txt ]; then
    echo "criterion failed	$(paste -sd ';' target/bench-runs/failed.txt)" >> "$perf/meta.tsv"
  fi
fi
python3 benches/perf_report.py "$results" "$perf/meta.tsv" "${runs_dirs[@]}"
say "docs/performance.md regenerated"
