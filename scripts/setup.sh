#!/usr/bin/env bash
# Install mjtable into ./.venv (Python 3.11+), with the system libraries Qt needs on a bare machine.
# Usage: scripts/setup.sh [EXTRAS]   e.g. scripts/setup.sh dev
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"

# Qt (PySide6) and OpenCV load these shared libraries even offscreen; the font draws Chinese labels.
libs="libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-wqy-microhei"
missing=""
for lib in $libs; do
  dpkg -s "$lib" >/dev/null 2>&1 || missing="$missing $lib"
done
if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  echo "installing system libraries:$missing" >&2
  $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq $missing >/dev/null \
    || echo "warning: could not install$missing; the dashboard may not start" >&2
fi

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
if [ -n "$extras" ]; then
  .venv/bin/python -m pip install -q -e ".[$extras]"
else
  .venv/bin/python -m pip install -q -e .
fi
