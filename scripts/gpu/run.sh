#!/bin/bash
# Train tile classifiers on a lent GPU machine from the bundle of scripts/gpu/pack.sh, in one
# call of the device tool (its box has torch and no network; a call carries 64 MiB, so move
# models/*.onnx aside for the call and back after it):
#   run: WHL=1 bash scripts/gpu/run.sh   carry: ["gpu"]   timeout_s: 590
# Every step logs to $OUT/run.log and stops the script if it fails; the runs' last.pt and
# results.csv are copied to $OUT as they are written, so a timed-out call still returns them.
# Arguments (defaults): table scenes with mixed faces (1000), with photo faces (700), hours of
# training for the n model (0.08) and the s model (0: skipped), CUDA device (0).
# Throughput is the CPU's augmentation, not the GPU: on the lent H200 two runs side by side,
# 7 loader workers each, took 10 s an epoch of 43,304 crops (about 4,300 crops/s a run), so
# one run gets every core unless both are asked for.
set -uo pipefail
MIX=${1:-1000}; REAL=${2:-700}; HN=${3:-0.08}; HS=${4:-0}; DEV=${5:-0}
R=$PWD; PY=${PY:-python3}; O=${OUT:-/tmp/gpu-out}; W=/tmp/mjgpu
mkdir -p "$O"; exec > >(tee "$O/run.log") 2>&1
step() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
fail() { step "FAILED: $*"; exit 1; }
T0=$(date +%s)
if [ -n "${WHL:-}" ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --target /tmp/site gpu/wheels/*.whl \
    || fail "wheels"
  export PYTHONPATH=/tmp/site:$R
fi
CORES=$(nproc); GEN=$(( CORES / 2 )); LOAD=$(( CORES - 2 ))
[ "$HN" != 0 ] && [ "$HS" != 0 ] && LOAD=$(( CORES / 2 - 1 ))
step "$CORES cores; $($PY -c 'import torch; print(torch.__version__, torch.cuda.is_available())')"
rm -rf $W; mkdir -p $W/data/tiles-real $W/data/tile-faces $W/closeup
export PYTHONUNBUFFERED=1 MJTABLE_DATA=$W/data MJTABLE_ART=$W/no-art MJTABLE_CACHE=$R/gpu/cache \
    YOLO_CONFIG_DIR=$W/yolo
tar xzf gpu/closeup.tgz -C $W/closeup || fail "closeup.tgz"
$PY -m ui.cli dataset tile-faces --out $W/mix --scenes "$MIX" --faces mix --val 0.08 --seed 31 \
    --workers $GEN --quiet > $W/mix.log 2>&1 & A=$!
$PY -m ui.cli dataset tile-faces --out $W/real --scenes "$REAL" --faces real --val 0.08 --seed 41 \
    --workers $GEN --quiet > $W/real.log 2>&1 & B=$!
wait $A || { cat $W/mix.log; fail "mixed-face scenes"; }
wait $B || { cat $W/real.log; fail "photo-face scenes"; }
tail -n 1 $W/mix.log $W/real.log
$PY scripts/gpu/link.py $W/CLS $W/closeup:2 $W/mix $W/real || fail "linking"
step "data ready"
copy_out() { for m in n s; do for f in weights/last.pt results.csv; do
  [ -f /tmp/runs/$m/$f ] && cp /tmp/runs/$m/$f "$O/$m.$(basename $f)"; done; done; }
( while sleep 15; do copy_out; done ) &
WATCH=$!
PIDS=()
for m in n s; do
  H=$HN; [ $m = s ] && H=$HS
  [ "$H" = 0 ] && continue
  $PY scripts/gpu/train.py --data $W/CLS --size $m --name $m --hours "$H" --device "$DEV" \
      --workers $LOAD > "$O/$m.log" 2>&1 & PIDS+=($!)
done
for p in "${PIDS[@]}"; do wait $p || step "a training run failed (see its log)"; done
kill $WATCH
copy_out
step "trained"; tail -n 2 "$O"/*.results.csv; ls -la "$O"
