#!/usr/bin/env bash
# Base-install smoke test: a venv with only the runtime dependencies (no dev or train extra) runs
# `mjtable detect` on a bundled photo and the offscreen demo, and both must use the shipped models.
# Usage: scripts/smoke.sh [VENV]   (default: ./.venv-base)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(realpath -m "${1:-.venv-base}")"
python="${PYTHON:-python3}"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q .
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cd "$out"  # run from elsewhere so the installed package is what runs, not the checkout
if "$venv/bin/python" -c "import onnx" 2>/dev/null; then
  echo "smoke: onnx is importable in the base venv; the check would not mean anything" >&2
  exit 1
fi
photo="$OLDPWD/vision/samples/table_2.jpg"
"$venv/bin/mjtable" detect --json "$photo" >"$out/detect.json"
"$venv/bin/python" - "$out/detect.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
items = doc if isinstance(doc, list) else [doc]
boxes = [b for item in items for b in item.get("detections", item.get("boxes", []))]
tiles = [b for b in boxes if b.get("name", b.get("class")) not in ("die", "tile_back")]
print(f"smoke: detect found {len(tiles)} tiles on table_2.jpg")
sys.exit(0 if len(tiles) >= 20 else 1)
PY
QT_QPA_PLATFORM=offscreen "$venv/bin/mjtable" run --db "$out/match.db" \
  --screenshot "$out/demo.png" --exit-after 6 2>"$out/demo.err" || { cat "$out/demo.err" >&2; exit 1; }
cat "$out/demo.err" >&2
if grep -q "without recognition\|camera failed" "$out/demo.err"; then
  echo "smoke: the demo did not load the models" >&2
  exit 1
fi
[ -s "$out/demo.png" ] || { echo "smoke: the demo saved no screenshot" >&2; exit 1; }
echo "smoke: base install ok (detect returns tiles, the demo loads the models)"
