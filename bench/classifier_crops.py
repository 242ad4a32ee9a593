"""Top-1 of crop classifiers on a prepared classifier folder (``mjtable train prepare``'s
``classifier/val``), split by where each crop came from: tiles-real boxes, tile-faces photos,
dice. The crops are the ones training validates on (turned and shrunk with ``--turn --small``).

    python bench/classifier_crops.py WORK6/classifier/val models/classifier.onnx [OTHER.onnx ...]
        [--turns 4]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.detector import OnnxModel, to_tensor
from vision.training.crops import symmetric_probs


def top1(model_path: Path, folder: Path, threads: int = 1, turns: int = 1
         ) -> dict[str, tuple[int, int]]:
    """``{source: (right, crops)}`` for ``tiles``, ``faces``, ``art`` and ``dice`` crops, each
    classified in ``turns`` quarter turns averaged (as ``Detector(turns=...)`` does)."""
    model = OnnxModel(model_path, threads=threads)

    def run(crops: list[np.ndarray]) -> np.ndarray:
        return np.asarray(model.run(to_tensor(crops)))

    right: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    files = sorted(folder.glob("*/*.png"))
    batch = model.fixed_batch or 64
    for start in range(0, len(files), batch):
        chunk = files[start:start + batch]
        crops = [cv2.imread(str(f)) for f in chunk]
        probs = symmetric_probs(crops, run, turns)
        for f, p in zip(chunk, probs, strict=True):
            truth = f.parent.name
            source = "dice" if truth.startswith("die") else f.name.split("_")[0]
            seen[source] += 1
            right[source] += model.names[int(np.argmax(p))] == truth
    return {k: (right[k], seen[k]) for k in sorted(seen)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("models", type=Path, nargs="+")
    parser.add_argument("--turns", type=int, choices=(1, 4), default=1,
                        help="average over the crop's quarter turns (4) or not (1)")
    args = parser.parse_args()
    for path in args.models:
        counts = top1(path, args.folder, turns=args.turns)
        parts = "  ".join(f"{k} {r}/{n} = {r / n:.1%}" for k, (r, n) in counts.items())
        print(f"{path}: {parts}")


if __name__ == "__main__":
    main()
