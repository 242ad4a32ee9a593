"""Copies of classifier crops with their hue turned or their colour taken out, for kinds whose
colour varies by tile set.

``python -m vision.training.hue --data CLS/train --out HUE/train [--kinds 1s,...,9s] [--seed 38]``
``python -m vision.training.hue --grey 0.4 --data CLS/train --out GREY/train --kinds ... --seed 41``

The crop classifier learned the bamboo suit mostly in green and 紅中 (``C``) always in red, so
it took colour for shape: a held-back set's all-red bird (``tile-faces`` ``1s/415``) was read
``C`` at 1.00, and the same crop with red and green swapped ``1s`` at 0.99. Sets print their
birds and sticks in any colour, so a copy of each bamboo crop with its hue turned a clear step
(60-300 degrees) teaches the shape; kinds whose colour is part of the kind (the dragons, the
flowers of many sets, the red 萬) keep theirs. A copy's file name is the crop's with ``hue_``
before it, in the kind's folder under ``--out``; link the copies beside the crops they came
from to train on both (MODELS.md, thirty-eighth session).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision.bamboo import greyed
from vision.capture import read_picture

BAMBOO = tuple(f"{n}s" for n in range(1, 10))
TURN = (30, 150)  # OpenCV hue units (0-179): a turn of 60 to 300 degrees


def hue_turned(image: np.ndarray, turn: int) -> np.ndarray:
    """``image`` (BGR) with every pixel's hue turned by ``turn`` OpenCV hue units."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int16) + turn) % 180).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def hue_copies(data: Path, out: Path, kinds: tuple[str, ...] = BAMBOO, seed: int = 38) -> int:
    """Write a hue-turned copy of every crop in ``data/<kind>/`` under ``out/<kind>/``, each
    turned by its own seeded draw from ``TURN`` (kinds in the order given, files by name);
    returns how many were written."""
    rng = random.Random(seed)
    return _copies(data, out, kinds, "hue_",
                   lambda image: hue_turned(image, rng.randint(*TURN)))


def grey_copies(data: Path, out: Path, kinds: tuple[str, ...], share: float,
                seed: int = 41) -> int:
    """Write a greyed copy (file name ``grey_`` + the crop's) of a seeded ``share`` of the
    crops in each ``data/<kind>/`` under ``out/<kind>/``; returns how many were written."""
    if not 0.0 < share <= 1.0:
        raise ValueError(f"share of crops to grey must lie in (0, 1], not {share}")
    rng = random.Random(seed)
    return _copies(data, out, kinds, "grey_", greyed,
                   keep=lambda: rng.random() < share)


def _copies(data: Path, out: Path, kinds: tuple[str, ...], prefix: str,
            change: Callable[[np.ndarray], np.ndarray],
            keep: Callable[[], bool] = lambda: True) -> int:
    """``change``d copies of the crops of ``kinds`` (in the order given, files by name) that
    ``keep`` picks, written as ``out/<kind>/<prefix><name>``; how many were written."""
    written = 0
    for kind in kinds:
        folder = data / kind
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder}: no crops of {kind}")
        (out / kind).mkdir(parents=True, exist_ok=True)
        for path in sorted(folder.iterdir(), key=lambda p: p.name):
            if not keep():
                continue
            copy = change(read_picture(path))
            if not cv2.imwrite(str(out / kind / f"{prefix}{path.name}"), copy):
                raise OSError(f"{out / kind}: cannot write {prefix}{path.name}")
            written += 1
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True,
                        help="crops by kind: DATA/<kind>/*.png (a training split)")
    parser.add_argument("--out", type=Path, required=True, help="where the copies go")
    parser.add_argument("--kinds", default=",".join(BAMBOO),
                        help="comma-separated kinds to copy (default the bamboo suit)")
    parser.add_argument("--grey", type=float, metavar="SHARE",
                        help="write greyed copies of this share of each kind's crops instead")
    parser.add_argument("--seed", type=int, default=38)
    args = parser.parse_args(argv)
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    if args.grey is None:
        n = hue_copies(args.data, args.out, kinds, args.seed)
        print(f"{args.out}: {n} hue-turned copies of {', '.join(kinds)}")
    else:
        n = grey_copies(args.data, args.out, kinds, args.grey, args.seed)
        print(f"{args.out}: {n} greyed copies of {', '.join(kinds)}")


if __name__ == "__main__":
    main()
