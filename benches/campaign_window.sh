#!/usr/bin/env bash
# The real window opening a long campaign, measured under Xvfb: the slowest frame from the click
# on the campaign until it is on screen (it is read and folded in the background, so no frame
# waits for it), and when it arrived. Frame times come from the window itself (`--frame-log`:
# eframe's time for each frame, painting and buffer swap included).
#
# Usage: benches/campaign_window.sh BINARY DATA_DIR [RUNS]
#   DATA_DIR: a data folder to copy (it is not changed), e.g. one made by
#   QM_POPULATE_DIR=/tmp/long QM_POPULATE_EVENTS=100000 cargo test --test it \
#     campaign_share::populate -- --ignored
# Needs: xvfb-run, xdotool. The click assumes the window's default size (1200×780) at the top
# left of a 1600×1000 screen, with the one campaign first in the Campaign view's list.
set -euo pipefail
binary=$(realpath "$1")
source_dir=$2
runs=${3:-3}
for run in $(seq 1 "$runs"); do
  work=$(mktemp -d)
  cp -a "$source_dir" "$work/data"
  log=$work/frames.tsv
  inner=$work/drive.sh
  cat > "$inner" <<SH
#!/usr/bin/env bash
set -u
"$binary" --data-dir "$work/data" --frame-log "$log" &
app=\$!
sleep 4
window=\$(xdotool search --name Quartermaster | head -1)
xdotool windowfocus "\$window"
xdotool key ctrl+4; sleep 1
echo "click	\$(wc -l < "$log")" >> "$work/marks.tsv"
xdotool mousemove 60 ${QM_CAMPAIGN_Y:-61} click 1
sleep 6
echo "end	\$(wc -l < "$log")" >> "$work/marks.tsv"
import -window root "$work/opened.png" 2>/dev/null || true
kill \$app; wait \$app 2>/dev/null
exit 0
SH
  chmod +x "$inner"
  LIBGL_ALWAYS_SOFTWARE=1 timeout 120 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" "$inner"
  from=$(awk -F'\t' '$1 == "click" { print $2 }' "$work/marks.tsv")
  to=$(awk -F'\t' '$1 == "end" { print $2 }' "$work/marks.tsv")
  # Line n of the log (after its header) is frame n; its third column is frame n-1's time.
  awk -F'\t' -v a="$from" -v b="$to" -v run="$run" '
    NR > a + 1 && NR <= b + 1 && $3 != "-" { if ($3 > m) m = $3; n++ }
    NR > a && NR <= b && $5 != "" { if ($5 > v) { v = $5; vf = $1 } }
    $4 == "campaign opening" { opening = $2 }
    $4 == "campaign opened" { opened = $2 }
    END { printf "run %d: %d frames, slowest %.1f ms (view code at most %.1f ms, frame %d); opened %.0f ms after the click was seen\n", run, n, m, v, vf, opened - opening }
  ' "$log"
  echo "  frame log: $log, screenshot: $work/opened.png"
done
