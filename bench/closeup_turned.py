"""The close-up fold's scores split in two: Roboflow's turned copies and the rest.

Run: ``python bench/closeup_turned.py --data WORK8/val [--models DIR] [--imgsz 320]``.
``tiles-real`` holds copies of its photos turned by up to 45 degrees; turning leaves black
corners, and the boxes of a turned copy are the turned boxes' upright hulls, looser than the
tile. A photo is counted as turned when most of its four corner patches (a tenth of each side)
are black. Each half is scored as ``mjtable eval --data`` scores the whole fold, so the two
show how much of the fold's miss is the turned copies and how much the plain photos.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.capture import load_image  # noqa: E402
from vision.evaluate import LabeledImage, evaluate, format_report, load_dataset, load_model  # noqa: E402

BLACK = 8  # grey level under which a corner pixel is the fill a turn leaves


def is_turned(image: np.ndarray) -> bool:
    """Whether the photo has the black corners a turned copy has."""
    h, w = image.shape[:2]
    dy, dx = max(1, h // 10), max(1, w // 10)
    grey = image.max(axis=2)
    corners = (grey[:dy, :dx], grey[:dy, -dx:], grey[-dy:, :dx], grey[-dy:, -dx:])
    return float(np.mean([(c < BLACK).mean() for c in corners])) > 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="labeled YOLO folder")
    parser.add_argument("--models", default=str(ROOT / "models"), help="models folder")
    parser.add_argument("--imgsz", type=int, help="fixed detector input (default: automatic)")
    args = parser.parse_args()
    data = load_dataset(args.data)
    halves: dict[str, list[LabeledImage]] = {"turned copies": [], "other photos": []}
    for item in data:
        halves["turned copies" if is_turned(load_image(item.image)) else "other photos"
               ].append(item)
    detector = load_model(args.models, size=args.imgsz)
    for label, items in halves.items():
        print(f"== {args.data}: {label}, {len(items)} of {len(data)} photos", flush=True)
        if items:
            print(format_report(evaluate(detector, items, label), per_class=False,
                                top_confusions=5), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
