#!/usr/bin/env bash
# Starts the real window under Xvfb, lets it render a few frames, and checks it exits cleanly.
# Usage: .ci/smoke-window.sh BINARY [SCREENSHOT.png]
set -euo pipefail
binary=$1
shot=${2:-}
display=:99
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp > /tmp/qm-xvfb.log 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  [ -e /tmp/.X11-unix/X99 ] && break
  sleep 0.1
done
data=$(mktemp -d)
frames=120
if [ -n "$shot" ]; then frames=600; fi
DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1 QUARTERMASTER_DATA_DIR=$data \
  timeout 60 "$binary" --frames "$frames" > /tmp/qm-smoke.log 2>&1 &
app=$!
if [ -n "$shot" ]; then
  sleep 4
  DISPLAY=$display /usr/bin/import -window root "$shot"
fi
if wait "$app"; then
  echo "window smoke run: rendered $frames frames and exited cleanly"
else
  code=$?
  echo "window smoke run FAILED (exit $code):"
  cat /tmp/qm-smoke.log
  exit 1
fi
