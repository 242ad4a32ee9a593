"""The back-colour shares behind ``vision/backs.py``'s thresholds (``BACK_SHARE``, ``LEAST_BACK``,
``BLANK_BACK``, and ``UNSURE_BACK`` for faces named under ``UNSURE_FACE``), measured on labeled
table scenes: each box the detector finds (named, before colour has changed any) matched to the
labeled objects, its share of middle pixels nearer the frame's backs' colour than its faces',
summarised by what it is and what it was read as.

    python bench/back_shares.py REALVAL6 REALVAL4 REALVAL3 ARTVAL ARTVAL2 vision/samples
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vision.detector as detector_module  # noqa: E402
from vision.backs import UNSURE_FACE, back_shares  # noqa: E402
from vision.capture import load_image  # noqa: E402
from vision.evaluate import load_model, load_scenes  # noqa: E402
from vision.metrics import greedy_pairs  # noqa: E402


def shares_by_group(folders: list[Path], models: Path) -> dict[str, list[float]]:
    """Shares of the found boxes, grouped as ``read <kind> on <labeled kind>``."""
    det = load_model(models, threads=2)
    det.unboxed_blanks = lambda image, dets: dets  # boxes added where colour shows a face
    det.unboxed_backs = lambda image, dets: dets  # and where it shows a back
    unchanged = detector_module.told_by_colour, detector_module.tops_told_by_colour
    detector_module.told_by_colour = lambda image, dets: dets
    detector_module.tops_told_by_colour = lambda image, dets: dets
    groups: dict[str, list[float]] = defaultdict(list)
    try:
        for folder in folders:
            for scene in load_scenes(folder):
                image = load_image(scene.image)
                dets = det.detect(image)
                shares = back_shares(image, dets)
                if shares is None:
                    continue
                objs = [o for o in scene.manifest["objects"] if o.get("visible", 1.0) >= 0.5]
                boxes = np.array([o["xyxy"] for o in objs], float).reshape(-1, 4)
                on = {p: objs[g]["tile"] for g, p in greedy_pairs(boxes, dets.xyxy)
                      if p is not None}
                for i in np.flatnonzero(~dets.is_die):
                    truth = on.get(int(i), "nothing")
                    truth = truth if truth in ("back", "nothing", "P") else "a face"
                    read = "back" if dets.is_back[i] else \
                        "P" if dets.labels[i] == "P" else "a face"
                    groups[f"read {read} on {truth}"].append(float(shares[i]))
                    if read == "a face" and dets.confidence[i] < UNSURE_FACE:
                        groups[f"read a face, unsure, on {truth}"].append(float(shares[i]))
    finally:
        detector_module.told_by_colour, detector_module.tops_told_by_colour = unchanged
    return groups


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="table scenes with manifests")
    parser.add_argument("--models", type=Path, default=ROOT / "models", help="models folder")
    args = parser.parse_args()
    groups = shares_by_group(args.folders, args.models)
    print("share of a box's middle nearer the backs' colour: min / 1% / 50% / 99% / max")
    for name in sorted(groups):
        v = np.array(groups[name])
        q = np.percentile(v, [0, 1, 50, 99, 100])
        print(f"  {name}: {len(v)} boxes: " + " / ".join(f"{x:.3f}" for x in q)
              + f"; under 0.2: {int((v < 0.2).sum())}, under 0.5: {int((v < 0.5).sum())}, "
              f"0.4 or more: {int((v >= 0.4).sum())}, 0.97 or more: {int((v >= 0.97).sum())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
