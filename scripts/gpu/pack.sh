#!/bin/bash
# Build gpu/ (git-ignored), the bundle scripts/gpu/run.sh trains the tile classifier from on a
# lent GPU machine: close-up crops, face banks, rendered art, and the wheels that box lacks.
# Usage: bash scripts/gpu/pack.sh [SHARED_DATASETS]      (about a minute on 2 cores)
set -euo pipefail
S=${1:-../shared/datasets}
PY=${PY:-.venv/bin/python}
rm -rf gpu; mkdir -p gpu/wheels
W=$(mktemp -d)
$PY -m ui.cli train prepare --data "$S/tiles-real" --dice "$S/dice-real" --faces "$S/tile-faces" \
    --face-crops 3 --art fluffy --art gleitz --art uni --art-crops 5 --tile-crops 1 \
    --dice-crops 1 --turn --small 0.5 --out "$W/prep"
$PY scripts/gpu/bundle.py "$W/prep/classifier" gpu
$PY -m pip download -q --no-deps -d gpu/wheels ultralytics-opencv-headless==8.4.190 \
    ultralytics-thop platformdirs pyserial
rm -rf "$W"
du -sh gpu
