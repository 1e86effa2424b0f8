#!/usr/bin/env python3
"""Writes the measured part of docs/performance.md from what benches/perf.sh measured.

    python3 benches/perf_report.py RESULTS META [CRITERION_RUN_DIR ...]

RESULTS is perf.sh's results.tsv (one line a run: row, value), META its meta.tsv (when, where,
the load), and each CRITERION_RUN_DIR a copy of target/criterion from benches/rerun.sh. The
tables replace what lies between the two markers at the top of docs/performance.md; the rest
of the page (how each figure came about) is left as it is. Every figure is the median of its
runs with the lowest and highest in brackets; a row never measured says so rather than keep an
old number, and a row with a target says whether the median meets it.
"""

import contextlib
import io
import pathlib
import re
import statistics
import sys

HERE = pathlib.Path(__file__).resolve().parent
PAGE = HERE.parent / "docs/performance.md"
BEGIN = "<!-- benches/perf.sh: begin (generated; edit the script, not this block) -->"
END = "<!-- benches/perf.sh: end -->"

sys.path.insert(0, str(HERE))
import perf_table  # noqa: E402  (beside this file)

# (what, row in results.tsv, unit, target in that unit or None). Units: "ms", "s" (values in
# ms, shown in seconds), "%", "frames".
END_TO_END = [
    ("Start → first frame → exit at 100,000 cards and 10,000 forces (`--frames 1`, Xvfb), warm",
     "start_warm", "s", None),
    ("The same, first start after an install: the binary's and the database's pages dropped "
     "(`posix_fadvise`), the system's libraries cached as on a desktop", "start_own_dropped", "s", 500),
    ("The same, every page of the machine dropped (`drop_caches`: Mesa's software renderer and "
     "its LLVM read from disk too)", "start_cold", "s", 500),
    ("`campaign record … note x` at 100,000 events, not shared", "record_plain", "ms", 50),
    ("The same, shared to a folder (a sync first, then this machine's file appended)",
     "record_shared", "ms", 50),
    ("`campaign sync` with one changed file (another machine's note)", "sync_one_file", "ms", 60),
    ("`campaign sync` with nothing new", "sync_nothing", "ms", None),
    ("`campaign export` of the 100,000-event campaign to JSON", "export_ms", "s", None),
    ("`campaign import` of that file into an empty library", "import_ms", "s", None),
]

LEAGUE = [
    ("First read of a folder never read: the first table (the campaigns verified so far)",
     "league_first_first_table", "ms", 2000),
    ("First read of a folder never read: the whole table", "league_first_table", "s", 2000),
    ("First read: the slowest frame", "league_first_slowest", "ms", 16),
    ("Refresh, nothing changed: the table", "league_nothing_table", "ms", 2000),
    ("Refresh, nothing changed: the slowest frame", "league_nothing_slowest", "ms", 16),
    ("Refresh, one file rewritten: the table", "league_one_table", "ms", 2000),
    ("Refresh, one file rewritten: the slowest frame", "league_one_slowest", "ms", 16),
]

WINDOW = [
    ("Idle 30 s, nothing new: CPU of a core", "window_idle_cpu", "%", 1),
    ("Idle: frames drawn", "window_idle_frames", "frames", None),
    ("Another machine records 10 notes, 3 s apart: the slowest frame", "window_notes_slowest", "ms", 16),
    ("The same: the most a frame spent in the app's own work (all but painting)",
     "window_notes_own", "ms", None),
    ("A third machine joins (its whole file written): the slowest frame", "window_join_slowest", "ms", 16),
    ("The same: the most a frame spent in the app's own work", "window_join_own", "ms", None),
]


def read_results(path):
    rows = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if "\t" in line:
            row, value = line.split("\t", 1)
            try:  # dicts keep the order rows were first measured in
                rows.setdefault(row, []).append(float(value))
            except ValueError:
                pass
    return rows


def read_meta(path):
    meta = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if "\t" in line:
            key, value = line.split("\t", 1)
            meta[key] = value
    return meta


def show(value, unit):
    if unit == "s":
        return f"{value / 1000:.2f} s"
    if unit == "%":
        return f"{value:.2f} %"
    if unit == "frames":
        return f"{value:.0f}"
    if value >= 1000:
        return f"{value / 1000:.2f} s"
    return f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"


def figure(values, unit):
    if not values:
        return "not measured", None
    middle = statistics.median(values)
    if len(values) == 1:
        return show(middle, unit), middle
    return f"{show(middle, unit)} ({show(min(values), unit)}–{show(max(values), unit)})", middle


def target_text(target, unit):
    if target is None:
        return "—"
    if unit == "%":
        return f"{target:g} %"
    if unit == "s":
        return f"{target / 1000:g} s"
    return f"{target / 1000:g} s" if target >= 1000 else f"{target:g} ms"


def table(rows, results, meta, out):
    out.append("| What | Median (range) | Runs | Target | |")
    out.append("|---|---|---|---|---|")
    for what, row, unit, target in rows:
        values = results.get(row, [])
        text, middle = figure(values, unit)
        verdict = ""
        if target is not None and middle is not None:
            # A frame budget holds for every frame, so every run's slowest must meet it.
            judged = max(values) if row.endswith("slowest") or row.startswith("edit ") else middle
            verdict = "met" if judged <= target else "**not met**"
        out.append(f"| {what} | {text} | {len(values)} | {target_text(target, unit)} | {verdict} |")


def board_rows(run_dirs, out):
    """The 254-unit end of turn: its size (printed by the bench into its log) and its check."""
    sizes = set()
    for run in run_dirs:
        log = pathlib.Path(f"{run}-board.log")
        if log.exists():
            sizes.update(re.findall(r"board_end_turn/254 units: (\d+) bytes", log.read_text()))
    perf_table.RUNS[:] = [pathlib.Path(r) for r in run_dirs]
    size = " / ".join(sorted(sizes)) + " bytes" if sizes else "not measured"
    out.append("| What | Median (range) | Target | |")
    out.append("|---|---|---|---|")
    out.append(f"| A 254-unit Bolt Action end of turn: the event's size | {size} | 16,384 bytes | "
               f"{'met' if sizes and max(map(int, sizes)) <= 16384 else ''} |")
    runs = len(perf_table.run_medians("board_end_turn/verify/254"))
    median = perf_table.median_ns("board_end_turn/verify/254")
    verdict = "" if median is None else ("met" if median <= 200_000 else "**not met**")
    text = f"{perf_table.figure('board_end_turn/verify/254')}, {runs} run{'s' if runs != 1 else ''}" if runs else "not measured"
    out.append(f"| The same: verifying it (decided again and compared) | {text} | 0.2 ms | {verdict} |")


def criterion_tables(run_dirs):
    if not run_dirs:
        return ["Criterion's benchmarks were not run this time (`benches/perf.sh RUNS 0`)."]
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        sys.argv = [sys.argv[0], *map(str, run_dirs)]
        perf_table.main()
    return text.getvalue().rstrip().splitlines()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    results = read_results(sys.argv[1])
    meta = read_meta(sys.argv[2])
    # Each run is a directory (rerun.sh keeps its logs beside them, named alike).
    run_dirs = [pathlib.Path(p) for p in sys.argv[3:] if pathlib.Path(p).is_dir()]
    out = [BEGIN, ""]
    out.append(
        f"**Measured by `benches/perf.sh`**: {meta.get('started', '?')} to "
        f"{meta.get('criterion ended', meta.get('ended end-to-end', '?'))}, commit "
        f"{meta.get('commit', '?')}, release build, on {perf_table.machine()}; load average "
        f"{meta.get('load at start', '?')} at the start, {meta.get('load at end of the end-to-end runs', '?')} "
        f"after the end-to-end runs, {meta.get('load at end', '?')} at the end. Each figure is the median of its runs and, in brackets, the lowest "
        "and highest. The window's figures are Xvfb at 1600×1000 with Mesa's software renderer "
        "(`--frame-log`); the League's are kittest driving the real `App` (no painting).")
    out.append("")
    out.append("### The command line and the start (issue #39, items 3, 4 and 6)")
    out.append("")
    table(END_TO_END, results, meta, out)
    out.append("")
    exported, imported = results.get("export_events", []), results.get("import_events", [])
    size = results.get("export_bytes", [])
    if results.get("import_refused"):
        out.append("**The export did not re-import**: `campaign import` refused the file.")
    elif exported and imported:
        out.append(f"The export ({size[0] / 1e6:.1f} MB) re-imports: {imported[0]:,.0f} events back "
                   f"of {exported[0]:,.0f} ({'all' if imported[0] == exported[0] else '**not all**'}).")
    out.append("")
    out.append("### The League: 200 campaigns × 1,000 events (issue #39, item 2)")
    out.append("")
    table(LEAGUE, results, meta, out)
    out.append("")
    out.append("### The window with a shared 100,000-event campaign open (`benches/shared_window.sh`, issue #39, item 1)")
    out.append("")
    table(WINDOW, results, meta, out)
    out.append("")
    out.append("### A board battle at 254 units (issue #39, item 5; criterion, `benches/board.rs`)")
    out.append("")
    board_rows(run_dirs, out)
    out.append("")
    edits = [row for row in results if row.startswith("edit ")]
    if edits:
        out.append("### A club's edits in the window at 100,000 cards (`benches/real_window.sh`)")
        out.append("")
        loaded = results.get("custom_cards_loaded", [])
        rows = [(f"{row[5:]}: the slowest frame", row, "ms", 16) for row in edits]
        table(rows, results, meta, out)
        if loaded:
            out.append("")
            out.append(f"The custom cards were loaded (on their own thread) {figure(loaded, 'ms')[0]} after start.")
        out.append("")
    out.append("### Criterion's benchmarks")
    out.append("")
    if meta.get("criterion failed"):
        out.append(f"**A bench failed**: {meta['criterion failed']}. Its rows read \"not run\".")
        out.append("")
    out.extend(criterion_tables(run_dirs))
    out.extend(["", END])

    page = PAGE.read_text()
    if BEGIN in page and END in page:
        head, rest = page.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        page = head + "\n".join(out) + tail
    else:
        sys.exit(f"{PAGE} has no markers ({BEGIN} … {END}) to write between")
    PAGE.write_text(page)


if __name__ == "__main__":
    main()
