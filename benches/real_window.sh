#!/usr/bin/env bash
# The real window with a club's library, measured under Xvfb: start, the first frame, the custom
# cards arriving, and the slowest frame after each of a player's edits (a search, a card edit,
# a new force, three units added). Frame times come from the window itself (`--frame-log`:
# eframe's time for each frame, painting and buffer swap included).
#
# Usage: benches/real_window.sh BINARY DATA_DIR
#   DATA_DIR: a data folder to copy (it is not changed), e.g. one made by
#   QM_POPULATE_DIR=/tmp/club QM_POPULATE_CARDS=100000 cargo test --test it store_api:: -- --ignored
# Needs: xvfb-run, xdotool (apt-get install xvfb xauth xdotool). The clicks assume the window's
# default size (1200×780) at the top left of a 1600×1000 screen, and the populated data's names.
set -euo pipefail
binary=$(realpath "$1")
source_dir=$2
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
mark() { echo "\$1	\$(wc -l < "$log")" >> "$work/marks.tsv"; }
xdotool key ctrl+1; sleep 0.5
mark "type a search (7 keys)"
xdotool mousemove 426 43 click 1; xdotool type --delay 150 "sherman"; sleep 1
mark "select a custom card"
xdotool mousemove 311 141 click 1; sleep 1
xdotool mousemove 912 681 click 1; sleep 1
xdotool mousemove 260 66 click 1; xdotool key End; xdotool type --delay 100 " Mk II"; sleep 0.5
mark "save the edited card"
xdotool mousemove 58 220 click 1; sleep 1.5
mark "new force (Ctrl+N, name, Enter)"
xdotool key ctrl+n; sleep 0.7; xdotool mousemove 200 88 click 1
xdotool type --delay 80 "Club night"; xdotool key Return; sleep 1.5
mark "add a unit, three times"
for _ in 1 2 3; do xdotool mousemove 1030 171 click 1; sleep 0.7; done
mark "end"
kill \$app; wait \$app 2>/dev/null
exit 0
SH
chmod +x "$inner"
LIBGL_ALWAYS_SOFTWARE=1 timeout 180 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" "$inner"

# Line n of the log (after its header) is frame n; its third column is frame n-1's time.
awk -F'\t' 'NR == 2 { print "first frame begins at " $2 " ms after start" }
            NR == 3 { print "first frame took " $3 " ms" }
            $4 == "custom cards loaded" { print "custom cards loaded by " $2 " ms" }' "$log"
prev_name=""; prev_line=0
while IFS=$'\t' read -r name line; do
  if [ -n "$prev_name" ]; then
    slowest=$(awk -F'\t' -v a="$prev_line" -v b="$line" 'NR > a + 1 && NR <= b + 1 && $3 != "-" { if ($3 > m) m = $3 } END { print m + 0 }' "$log")
    printf '%-36s slowest frame %6.1f ms\n' "$prev_name" "$slowest"
  fi
  prev_name=$name; prev_line=$line
done < "$work/marks.tsv"
echo "frame log: $log"
