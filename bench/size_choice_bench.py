"""The detector's automatic input size on unrelated photos: one choice for all, or one a photo.

Run: ``python bench/size_choice_bench.py --data WORK/val [--prefix dice] [--first NAME]
[--models DIR]``. The labeled photos of ``--data`` (a YOLO folder with die faces ``die1``..
``die6``, as ``mjtable train prepare`` writes its held-back fold) whose names start with
``--prefix`` are detected in name order, ``--first`` moved to the front, three ways: as frames
of one camera (the first photo with enough boxes fixes the size, what ``detect`` did before each
still chose), each photo choosing (``Detector(stills=True)``, what ``detect``, ``read`` and
``eval`` do), and all at the exported size; the boxes counted are those ``detect`` lists
(``Detector.shown``). Prints, for each, the dice found (a die box at IoU
0.5 or more, one box each) and read right, the die boxes on no labeled die, and how many photos
ran at the table size.
``--sizes 640 ...`` adds runs with every photo at those input sizes, and every run splits the
dice found by the short side of their label in the photo's pixels (``--bins``): which dice an
input size can find at all.
"""

from __future__ import annotations

import argparse
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.capture import load_image  # noqa: E402
from vision.detector import TABLE_SIZE, load_detector  # noqa: E402
from vision.evaluate import load_dataset  # noqa: E402
from vision.metrics import greedy_pairs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="labeled YOLO folder")
    parser.add_argument("--prefix", default="dice", help="only photos whose name starts so")
    parser.add_argument("--first", help="the photo to detect first (a name in --data)")
    parser.add_argument("--models", type=Path, help="models folder (default: the shipped one)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[],
                        help="more runs, every photo at each of these input sizes")
    parser.add_argument("--bins", type=int, nargs="*", default=[16, 32, 64],
                        help="short sides (px in the photo) that split the dice found")
    args = parser.parse_args()
    data = [d for d in load_dataset(args.data) if d.image.name.startswith(args.prefix)]
    data.sort(key=lambda d: d.image.name != args.first)
    policies = (("one camera (first photo fixes the size)", {}),
                ("each photo chooses (stills)", {"stills": True}))
    exported = load_detector(args.models, threads=1).candidates[0]
    policies += tuple((f"all at {size}", {"imgsz": size, "stills": True})
                      for size in dict.fromkeys([exported, *args.sizes]))
    edges = [0, *sorted(args.bins), np.inf]
    bins = [f"{lo:g}-{hi:g}" if hi < np.inf else f"{lo:g}+" for lo, hi in pairwise(edges)]
    print(f"{args.data}: {len(data)} photos named {args.prefix}*, first {data[0].image.name}")
    for label, options in policies:
        det = load_detector(args.models, threads=1, **options)
        right = at_table = extra = 0
        by_side = np.zeros((len(bins), 2), int)  # (found, dice) by the label's short side
        for item in data:
            dets = det.shown(det.detect(load_image(item.image)))
            at_table += det.size_used == TABLE_SIZE
            rows = np.flatnonzero(dets.is_die)
            sides = (item.gt.boxes[:, 2:] - item.gt.boxes[:, :2]).min(axis=1)
            pairs = greedy_pairs(item.gt.boxes, dets.xyxy[rows])
            extra += len(rows) - sum(p is not None for _, p in pairs)
            for g, p in pairs:
                right += p is not None and f"die{int(dets.face[rows[p]])}" == item.gt.names[g]
                b = int(np.searchsorted(edges, sides[g], side="right")) - 1
                by_side[b] += (p is not None, 1)
        found, total = by_side.sum(axis=0)
        print(f"{label}: {total} dice, {found} found, {right} read right, {extra} die boxes on "
              f"no labeled die; {at_table} photos at {TABLE_SIZE}", flush=True)
        print("  found by short side (px): " + ", ".join(
            f"{name} {f}/{n}" for name, (f, n) in zip(bins, by_side, strict=True)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
