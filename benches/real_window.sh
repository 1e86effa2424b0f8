#!/usr/bin/env bash
# The real window with a club's library, measured under Xvfb: start, the first frame, the custom
# cards arriving, and the slowest frame after each of a player's edits (a search, a card edit,
# a new force, three units added). Frame times come from the window itself (`--frame-log`:
# eframe's time for each frame, painting and buffer swap included).
#
# Every click finds its widget by label: the window lists its labelled widgets and where they
# are (`--widget-log`, the names a screen reader sees), so a changed layout cannot send a click
# to the wrong place; a label that does not appear stops the run with its name. At the end the
# frame log must say that the card was saved, the force created and three units added, or the
# run fails (exit 1): the figures are of those edits, not of idle frames.
#
# Usage: benches/real_window.sh BINARY DATA_DIR
#   DATA_DIR: a data folder to copy (it is not changed), e.g. one made by
#   QM_POPULATE_DIR=/tmp/club QM_POPULATE_CARDS=100000 cargo test --test it store_api:: -- --ignored
#   (its card names: a custom card whose name holds "Sherman" must match the search).
# Needs: xvfb-run, xdotool, import (apt-get install xvfb xauth xdotool imagemagick).
set -euo pipefail
binary=$(realpath "$1")
source_dir=$2
work=$(mktemp -d)
cp -a "$source_dir" "$work/data"
log=$work/frames.tsv
widgets=$work/widgets.tsv
export binary work log widgets

# Quoted: the driver reads the paths above from its environment.
cat > "$work/drive.sh" <<'SH'
#!/usr/bin/env bash
set -u
"$binary" --data-dir "$work/data" --frame-log "$log" --widget-log "$widgets" &
app=$!

fail() {
  echo "real_window: $*" >&2
  import -window root "$work/failed.png" && echo "screenshot: $work/failed.png" >&2
  kill "$app"
  exit 1
}

window=""
for _ in $(seq 100); do
  window=$(xdotool search --name Quartermaster 2>/dev/null | head -1)
  [ -n "$window" ] && break
  sleep 0.1
done
[ -n "$window" ] || fail "no Quartermaster window within 10 s"
sleep 3
xdotool windowfocus "$window"

# find_widget LABEL [ROLE] [only|first|last]: sets `at` to "X Y", the centre of the widget the
# window lists with exactly that label (and role), waiting up to 10 s for it. `only` (the
# default) refuses a label that names several widgets; `first` and `last` pick the top-most or
# the bottom-most.
find_widget() {
  local hits
  for _ in $(seq 100); do
    hits=$(label=$1 role=${2:-} awk -F'\t' \
      'NR > 1 && $1 == ENVIRON["label"] && (ENVIRON["role"] == "" || $2 == ENVIRON["role"]) {
         printf "%d %d\n", $3 + $5 / 2, $4 + $6 / 2 }' "$widgets" 2>/dev/null)
    if [ -n "$hits" ]; then
      case ${3:-only} in
        first) at=$(head -1 <<< "$hits"); return ;;
        last) at=$(tail -1 <<< "$hits"); return ;;
        *)
          [ "$(wc -l <<< "$hits")" -eq 1 ] ||
            fail "several widgets are labelled \"$1\"${2:+ ($2)}, at $(paste -sd, <<< "$hits")"
          at=$hits
          return ;;
      esac
    fi
    sleep 0.1
  done
  fail "no widget labelled \"$1\"${2:+ ($2)} appeared within 10 s (the window's list: $widgets)"
}

# click_label LABEL [ROLE] [only|first|last]: one click on the middle of that widget.
click_label() {
  find_widget "$@"
  echo "click \"$1\"${2:+ ($2)} at $at"
  # Word splitting of $at is the X and Y.
  # shellcheck disable=SC2086
  xdotool mousemove --window "$window" $at click 1
}

# click_field LABEL: a click on that text field, then a wait (up to 10 s) until it has the
# keys, so that no key typed next is lost.
click_field() {
  click_label "$1" TextInput
  for _ in $(seq 100); do
    label=$1 awk -F'\t' 'NR > 1 && $1 == ENVIRON["label"] && $2 == "TextInput" && $7 == 1 { f = 1 }
                        END { exit !f }' "$widgets" && return
    sleep 0.05
  done
  fail "the text field \"$1\" did not take the keys within 10 s"
}

# label_matching REGEX [ROLE]: sets `found` to the top-most label matching REGEX (awk's
# syntax), waiting up to 10 s for one.
label_matching() {
  for _ in $(seq 100); do
    found=$(pattern=$1 role=${2:-} awk -F'\t' \
      'NR > 1 && $1 ~ ENVIRON["pattern"] && (ENVIRON["role"] == "" || $2 == ENVIRON["role"]) {
         print $1; exit }' "$widgets" 2>/dev/null)
    [ -n "$found" ] && return
    sleep 0.1
  done
  fail "no widget label matches /$1/${2:+ ($2)} within 10 s (the window's list: $widgets)"
}

mark() { echo "$1	$(wc -l < "$log")" >> "$work/marks.tsv"; }
xdotool key ctrl+1; sleep 0.5
mark "type a search (7 keys)"
click_field "Search"; xdotool type --delay 150 "sherman"; sleep 1
mark "select a custom card"
label_matching "[Ss]herman.* · custom$" Button
click_label "$found" Button; sleep 1
# The menu bar's Edit is above the card's.
click_label "Edit" Button last; sleep 1
click_field "Name"; xdotool key End; xdotool type --delay 100 " Mk II"; sleep 0.5
import -window root "$work/card-editor.png"
mark "save the edited card"
click_label "Save card" Button; sleep 1.5
mark "new force (Ctrl+N, name, Enter)"
xdotool key ctrl+n; sleep 0.7; click_field "Name"
xdotool type --delay 80 "Club night"; xdotool key Return; sleep 1.5
mark "add a unit, three times"
label_matching "^\\+ " Button
unit=$found
for _ in 1 2 3; do click_label "$unit" Button; sleep 0.7; done
import -window root "$work/force.png"
mark "end"
kill "$app"; wait "$app" 2>/dev/null
exit 0
SH
chmod +x "$work/drive.sh"
status=0
LIBGL_ALWAYS_SOFTWARE=1 timeout 180 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
  "$work/drive.sh" || status=$?
if [ "$status" -ne 0 ]; then
  echo "real_window: the run stopped (exit $status); frame log: $log" >&2
  exit 1
fi

# Line n of the log (after its header) is frame n; its third column is frame n-1's time.
awk -F'\t' 'NR == 2 { print "first frame begins at " $2 " ms after start" }
            NR == 3 { print "first frame took " $3 " ms" }
            index($4, "custom cards loaded") { print "custom cards loaded by " $2 " ms" }' "$log"
prev_name=""; prev_line=0
while IFS=$'\t' read -r name line; do
  if [ -n "$prev_name" ]; then
    slowest=$(awk -F'\t' -v a="$prev_line" -v b="$line" 'NR > a + 1 && NR <= b + 1 && $3 != "-" { if ($3 > m) m = $3 } END { print m + 0 }' "$log")
    printf '%-36s slowest frame %6.1f ms\n' "$prev_name" "$slowest"
  fi
  prev_name=$name; prev_line=$line
done < "$work/marks.tsv"

# What the window says it did: the edits the figures above are of.
notes=$(awk -F'\t' 'NR > 1 && $4 != "" { print "frame " $1 ": " $4 }' "$log")
missing=0
expect() {
  local count
  count=$(grep -oE "$2" <<< "$notes" | wc -l)
  printf '%-20s %d (want %d)\n' "$1" "$count" "$3"
  [ "$count" -ge "$3" ] || missing=1
}
expect "card edited" "Save custom card: [^;]* Mk II" 1
expect "force created" "New force: Club night" 1
expect "unit added" "Edit force: Add [^;]*" 3
echo "frame log: $log"
echo "screenshots: $work/card-editor.png $work/force.png"
if [ "$missing" -ne 0 ]; then
  echo "real_window: the frame log does not show every edit; its notes:" >&2
  echo "$notes" >&2
  exit 1
fi
