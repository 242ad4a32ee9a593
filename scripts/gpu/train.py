"""One time-boxed classifier run on a lent GPU (scripts/gpu/run.sh): the project's own training
path (``vision.training.ultra``) with the model size chosen, and the two things an offline box
without polars cannot do replaced: AMP's check (it downloads a model) and the results reader."""

import argparse
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.training import ultra

p = argparse.ArgumentParser()
p.add_argument("--data", type=Path, required=True)
p.add_argument("--size", default="n")
p.add_argument("--name", required=True)
p.add_argument("--hours", type=float, required=True)
p.add_argument("--batch", type=int, default=256)
p.add_argument("--workers", type=int, default=6)
p.add_argument("--device", default="0")
p.add_argument("--lr0", type=float, default=0.02)
p.add_argument("--project", type=Path, default=Path("/tmp/runs"))
a = p.parse_args()

ultra.ultralytics_offline()
import ultralytics.engine.trainer as tr  # noqa: E402


def _read_csv(self):  # polars is not on the GPU box
    try:
        with open(self.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    return {k.strip(): [r[k] for r in rows] for k in (rows[0] if rows else {})}


tr.BaseTrainer.read_results_csv = _read_csv
tr.check_amp = lambda model: True  # the check downloads a model

ultra.MODEL_YAML["classifier"] = f"yolo11{a.size}-cls.yaml"
spec = ultra.TrainSpec(
    kind="classifier", data=a.data, epochs=400, imgsz=64, device=a.device, batch=a.batch,
    project=a.project, name=a.name, workers=a.workers, patience=1000,
    extra=(("time", a.hours), ("optimizer", "SGD"), ("lr0", a.lr0), ("momentum", 0.9),
           ("cos_lr", True), ("lrf", 0.01), ("warmup_epochs", 1.0), ("warmup_bias_lr", 0.0),
           ("cache", "ram")))
print(ultra.train(spec))
