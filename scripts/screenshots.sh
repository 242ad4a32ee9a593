#!/usr/bin/env bash
# The README's and docs' dashboard screenshots, from the real thing: `mjtable run` with the
# shipped models on the bundled video, a simulated table and a fresh match log, offscreen, in
# English and Chinese. Each grab is taken after SECONDS (default 26: the 52 s video is in the
# first hand's last turns, melds and discards on the table; the README's are taken at 36, after
# the first showdown). What the pictures show is what a
# new user sees.
# Usage: scripts/screenshots.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-26}"
mj=".venv/bin/mjtable"
[ -x "$mj" ] || { echo "run scripts/setup.sh first" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for lang in en zh; do
  suffix=""; [ "$lang" = zh ] && suffix="-zh"
  QT_QPA_PLATFORM=offscreen "$mj" run --lang "$lang" --db "$work/$lang.sqlite3" \
    --operator referee --screenshot "$work/dashboard.png" --tab score --tab match --tab table \
    --exit-after "$seconds"
  for tab in score match table; do
    cp "$work/dashboard-$tab.png" "docs/screenshots/dashboard-$tab$suffix.png"
  done
done
ls -l docs/screenshots
