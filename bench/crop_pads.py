"""How often the crop classifier names a table's labeled face boxes right, per crop pad and with
the odds of several pads multiplied (how ``READ_PADS`` was chosen; MODELS.md, eighteenth
session), as ``mjtable read`` names them (``Detector.crop_probs``: each crop in its quarter
turns, the ink weighed). The boxes are the manifest's, so the detection stage plays no part.

    python bench/crop_pads.py REALVAL4 [MORE ...] [--limit 100] [--turns 1]
        [--pads 0.1 0 0.05 0.2 0,0.2]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.capture import load_image  # noqa: E402
from vision.evaluate import load_model, load_scenes  # noqa: E402


def right_shares(folder: Path, limit: int | None, choices: list[tuple[float, ...]],
                 models: Path, turns: int) -> tuple[int, list[float]]:
    """The labeled face boxes of ``folder``'s scenes and the share named right by each choice."""
    det = load_model(models, threads=2)
    det.turns = turns
    assert det.cls is not None, "the models have no crop classifier"
    names = np.array(list(det.cls.names))
    right, total = np.zeros(len(choices)), 0
    for scene in load_scenes(folder, limit):
        faces = [o for o in scene.manifest["objects"] if o.get("visible", 1.0) >= 0.5
                 and o["tile"] not in ("die", "back")]
        if not faces:
            continue
        image = load_image(scene.image)
        boxes = np.array([o["xyxy"] for o in faces], float)
        truth = np.array([o["tile"] for o in faces])
        for k, pads in enumerate(choices):
            probs = det.crop_probs(image, boxes, pads)
            right[k] += int((names[probs.argmax(axis=1)] == truth).sum())
        total += len(faces)
    return total, [r / max(total, 1) for r in right]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="table scenes with manifests")
    parser.add_argument("--limit", type=int, default=None, help="scenes per folder")
    parser.add_argument("--models", type=Path, default=ROOT / "models", help="models folder")
    parser.add_argument("--turns", type=int, choices=(1, 4), default=4,
                        help="quarter turns each crop is read in: 4 as a still, 1 as a stream")
    parser.add_argument("--pads", nargs="+", default=["0.1", "0", "0.05", "0.2", "0,0.2",
                                                      "0,0.05,0.2"],
                        help="each a pad or comma-separated pads whose odds are multiplied")
    args = parser.parse_args()
    choices = [tuple(float(p) for p in c.split(",")) for c in args.pads]
    for folder in args.folders:
        total, shares = right_shares(folder, args.limit, choices, args.models, args.turns)
        print(f"{folder}: {total} labeled face boxes")
        for pads, share in zip(choices, shares, strict=True):
            print(f"  pads {', '.join(f'{p:g}' for p in pads)}: {share:.2%} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
