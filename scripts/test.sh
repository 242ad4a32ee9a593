#!/usr/bin/env bash
# Install mjtable with its dev extra into ./.venv and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
