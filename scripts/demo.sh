#!/usr/bin/env bash
# Install mjtable into ./.venv and run the main job on the bundled defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/mjtable score ui/samples/hand.json "$@"
