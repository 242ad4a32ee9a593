#!/usr/bin/env bash
# Install mjtable into ./.venv and run the main job on the bundled defaults: the dashboard with
# the sample video, the shipped models, a simulated table and the match log in the user data
# folder. Without a screen it renders the window offscreen for a few seconds and saves a PNG.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = Darwin ]; then
  exec .venv/bin/mjtable run "$@"
fi
out="${MJTABLE_DEMO_PNG:-mjtable-demo.png}"
echo "no screen found: running the demo offscreen for 10 s and saving $out" >&2
QT_QPA_PLATFORM=offscreen .venv/bin/mjtable run --screenshot "$out" --exit-after 10 "$@"
echo "saved $out" >&2
