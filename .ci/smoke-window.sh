#!/usr/bin/env bash
# Starts the real window under Xvfb, lets it render a few frames, and checks it exits cleanly.
# Usage: .ci/smoke-window.sh BINARY [SCREENSHOT.png]
set -euo pipefail
binary=$1
shot=${2:-}
data=$(mktemp -d)
frames=120
if [ -n "$shot" ]; then frames=600; fi
# xvfb-run -a picks a free display number, so a stale X server never collides with this run.
runner=$(mktemp)
cat > "$runner" <<SH
#!/usr/bin/env bash
"$binary" --frames "$frames" &
app=\$!
if [ -n "$shot" ]; then
  sleep 4
  /usr/bin/import -window root "$shot"
fi
wait \$app
SH
chmod +x "$runner"
if LIBGL_ALWAYS_SOFTWARE=1 QUARTERMASTER_DATA_DIR=$data \
  timeout 120 xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" "$runner" > /tmp/qm-smoke.log 2>&1; then
  echo "window smoke run: rendered $frames frames and exited cleanly"
  # The real eframe, not a test double, kept the window's preferences in the data folder.
  if ! grep -q quartermaster-prefs "$data/app.ron" 2>/dev/null; then
    echo "window smoke run FAILED: no preferences in $data/app.ron after quitting"
    exit 1
  fi
  echo "preferences saved at quit in $data/app.ron"
else
  code=$?
  echo "window smoke run FAILED (exit $code):"
  cat /tmp/qm-smoke.log
  exit 1
fi
