#!/usr/bin/env bash
# Takes the README's screenshots from the real window under Xvfb, in a neutral data folder
# (a fresh temp folder holding only the forces made here), in both themes and two sizes.
# Usage: docs/screenshots.sh BINARY OUT_DIR [VIEW...]
# Each shot is OUT_DIR/<view>-<theme>-<width>.png; views: start library forces resolve
# campaign print league, and table (Forces in table mode) (default: all).
set -euo pipefail
binary=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
views=("$@")
if [ ${#views[@]} -eq 0 ]; then
  views=(start library forces resolve campaign print league table)
fi
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)

# One folder with a few forces (legal, over budget, illegal), one left empty for the start card.
full=$(mktemp -d)
empty=$(mktemp -d)
"$binary" --data-dir "$full" force preset lorraine-1-us --out "$full/us.json" > /dev/null
"$binary" --data-dir "$full" force save "$full/us.json" > /dev/null
for f in belloludi_legal battle_of_tanks_over lorraine_1_german_three_panthers; do
  "$binary" --data-dir "$full" force save "$here/tests/fixtures/$f.json" > /dev/null
done
"$binary" --data-dir "$empty" force list > /dev/null

shoot() { # view theme width height
  local view=$1 theme=$2 width=$3 height=$4 data=$full prefs_view=$1 force=None table=false
  case $view in
    start) data=$empty; prefs_view=Library ;;
    table) prefs_view=Forces; force="Some(4)"; table=true ;;
    # The force that breaks its battle group's limit: legality and the budget in status colours.
    forces) force="Some(4)" ;;
    print) force="Some(1)" ;;
  esac
  # Resolve: Panther Ausf G at M4 75mm picked in the form, then one roll (the Roll button sits
  # 27 px into the dice column, which is 30 % of the window, at most 380 px wide).
  local clicks=""
  if [ "$view" = resolve ]; then
    local column=$(( width * 3 / 10 < 380 ? width * 3 / 10 : 380 ))
    local roll=$(( width - column + 27 ))
    clicks="xdotool mousemove 161 109 click 1; sleep 1
xdotool mousemove 123 252 click 1; sleep 1
xdotool mousemove 160 133 click 1; sleep 1
xdotool mousemove 98 160 click 1; sleep 1
xdotool mousemove $roll 84 click 1; sleep 1
xdotool mousemove $(( width / 2 )) $(( height - 60 )); sleep 1"
  fi
  prefs_view=${prefs_view^}
  cat > "$data/app.ron" <<RON
{
    "quartermaster-prefs": "(view:$prefs_view,theme:$theme,table_mode:$table,open_force:$force)",
    "window": "(normal_geometry:(outer_position_pixels:Some((x:0.0,y:0.0)),scale_factor:1.0,inner_size_points:(x:$width.0,y:$height.0)),fullscreen:false,maximized:false)",
}
RON
  local runner
  runner=$(mktemp)
  cat > "$runner" <<SH
#!/usr/bin/env bash
"$binary" --data-dir "$data" --frames 400 &
app=\$!
sleep 6
$clicks
/usr/bin/import -window root "$out/$view-${theme,,}-$width.png"
kill \$app 2>/dev/null || true
wait \$app 2>/dev/null || true
SH
  chmod +x "$runner"
  LIBGL_ALWAYS_SOFTWARE=1 timeout 60 \
    xvfb-run -a -s "-screen 0 ${width}x${height}x24 -nolisten tcp" "$runner" > /dev/null 2>&1
  rm -f "$runner"
}

for view in "${views[@]}"; do
  for theme in Light Dark; do
    shoot "$view" "$theme" 1600 1000
    shoot "$view" "$theme" 1024 700
  done
done
rm -rf "$full" "$empty"
echo "screenshots in $out"
