#!/usr/bin/env bash
# The real window with a long shared campaign open, measured under Xvfb (issue #39, item 1):
# the CPU it uses while idle, and the slowest frame while it looks at the folder every two
# seconds — with nothing new, while another machine records ten notes, and after a third
# machine joins (its whole file written to the folder). Frame times come from the window
# itself (`--frame-log`): the slowest whole frame, and the most any frame spent on its own
# work (`view_ms`: all the app does in a frame but painting, which under Xvfb is Mesa's
# software renderer); CPU from /proc (user + system ticks).
#
# Usage: benches/shared_window.sh BINARY DATA_DIR OTHER_DATA_DIR [BATTLE]
#   DATA_DIR: a library with one campaign, shared to a folder (`campaign share NAME --folder
#   F`); OTHER_DATA_DIR: another machine's library that joined it. Both are changed (notes are
#   recorded); a third library is made as a copy of OTHER_DATA_DIR. BATTLE: where the notes
#   go (default 2). E.g. a 100,000-event campaign from
#   QM_POPULATE_DIR=A QM_POPULATE_EVENTS=100000 cargo test --test it campaign_share::populate -- --ignored
# Needs: xvfb-run, xdotool.
set -euo pipefail
binary=$(realpath "$1")
data=$(realpath "$2")
other=$(realpath "$3")
battle=${4:-2}
work=$(mktemp -d)
log=$work/frames.tsv
name=$("$binary" --data-dir "$data" campaign list | head -1 | sed 's/  \[.*//')
cat > "$data/app.ron" <<RON
{
    "quartermaster-prefs": "(view:Campaign,open_campaign:Some(1))",
    "window": "(normal_geometry:(outer_position_pixels:Some((x:0.0,y:0.0)),scale_factor:1.0,inner_size_points:(x:1600.0,y:1000.0)),fullscreen:false,maximized:false)",
}
RON
inner=$work/drive.sh
cat > "$inner" <<SH
#!/usr/bin/env bash
set -u
"$binary" --data-dir "$data" --frame-log "$log" &
app=\$!
mark() { echo "\$1	\$(wc -l < "$log")	\$(awk '{ print \$14 + \$15 }' /proc/\$app/stat)	\$(date +%s.%N)" >> "$work/marks.tsv"; }
for _ in \$(seq 1 120); do grep -q "campaign opened" "$log" 2>/dev/null && break; sleep 0.5; done
sleep 3
mark "idle 30 s, nothing new"
sleep 30
mark "another machine records 10 notes, 3 s apart"
for n in \$(seq 1 10); do
  "$binary" --data-dir "$other" campaign record "$name" --battle $battle note "note \$n" > /dev/null
  sleep 3
done
mark "a third machine joins (its whole file written)"
rm -rf "$work/third"; cp -a "$other" "$work/third"
"$binary" --data-dir "$work/third" campaign record "$name" --battle $battle note "joined" > /dev/null 2>&1
sleep 30
mark "end"
import -window root "$work/end.png" 2>/dev/null || true
kill \$app; wait \$app 2>/dev/null
exit 0
SH
chmod +x "$inner"
LIBGL_ALWAYS_SOFTWARE=1 timeout 300 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" "$inner"
ticks=$(getconf CLK_TCK)
prev=""
while IFS=$'\t' read -r what line cpu at; do
  if [ -n "$prev" ]; then
    IFS=$'\t' read -r pwhat pline pcpu pat <<< "$prev"
    awk -F'\t' -v a="$pline" -v b="$line" -v what="$pwhat" -v c0="$pcpu" -v c1="$cpu" \
        -v t0="$pat" -v t1="$at" -v hz="$ticks" '
      NR > a + 1 && NR <= b + 1 && $3 != "-" { n++; if ($3 > m) m = $3 }
      NR > a + 1 && NR <= b + 1 && $5 > own { own = $5 }
      END { printf "%-48s %4d frames, slowest %6.1f ms (own work %5.1f ms), CPU %5.2f %% of a core over %.1f s\n",
                   what, n, m, own, 100 * (c1 - c0) / hz / (t1 - t0), t1 - t0 }' "$log"
  fi
  prev="$what	$line	$cpu	$at"
done < "$work/marks.tsv"
echo "frame log: $log, screenshot: $work/end.png"
