"""Fit the numbers of :mod:`vision.ink` from a folder of classifier crops.

``python -m vision.training.ink_fit --data WORK/classifier --data TILETAB [--models DIR]``

Each ``--data`` folder holds classifier crops (``mjtable train prepare``'s ``classifier/``,
``mjtable dataset tile-faces``' table-scene crops); their crops are taken together.

- ``GREEN_INK``: a logistic regression of ``F`` against ``E`` on the ink shift of the training
  crops (``train/F``, ``train/E``) that have colour to judge;
- ``INK_WEIGHT``: on the held-back crops (``val/``) whose two likeliest readings by the shipped
  classifier are ``E`` and ``F``, a logistic regression on (classifier log-odds, ink log-odds);
  the weight is the ratio of the two coefficients.

It prints both with the held-back crops read right before and after; copy them into
``vision/ink.py``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision import ink
from vision.capture import read_picture


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-2) -> np.ndarray:
    """Weights (one a column of ``x``, then the intercept) by Newton's method."""
    a = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(a @ w)))
        hessian = (a * (p * (1 - p))[:, None]).T @ a + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, a.T @ (p - y) + ridge * w)
    return w


def crops_of(folders: list[Path]) -> tuple[list[np.ndarray], np.ndarray]:
    """The ``E`` (0) and ``F`` (1) crops under ``folders``."""
    crops, labels = [], []
    for label, name in enumerate(("E", "F")):
        for path in sorted(p for folder in folders for p in (folder / name).glob("*.png")):
            image = read_picture(path)
            crops.append(image)
            labels.append(label)
    if not crops:
        raise ValueError(f"{', '.join(map(str, folders))}: no E/ or F/ crops")
    return crops, np.array(labels, float)


def main(argv: list[str] | None = None) -> None:
    from vision.detector import load_detector
    from vision.training.crops import symmetric_probs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, action="append",
                        help="classifier crops: train/ and val/ with E/ and F/ (repeatable)")
    parser.add_argument("--models", type=Path, help="models folder (default: the shipped)")
    args = parser.parse_args(argv)

    crops, y = crops_of([d / "train" for d in args.data])
    shifts = [ink.ink_shift(c) for c in crops]
    has = np.array([s is not None for s in shifts])
    x = np.array([s for s in shifts if s is not None])
    a, b, c = logistic(x, y[has])
    print(f"GREEN_INK = ({a:.2f}, {b:.2f}, {c:.2f})  "
          f"# {has.sum()} of {len(crops)} training crops with colour")

    ink.GREEN_INK = (a, b, c)  # the held-back crops' ink log-odds as the runtime reads them
    det = load_detector(args.models)
    assert det.cls is not None
    names = list(det.cls.names)
    e, f = names.index("E"), names.index("F")
    crops, y = crops_of([d / "val" for d in args.data])
    probs = symmetric_probs(crops, det.classify_crops, 4)
    top2 = np.sort(np.argsort(-probs, axis=1)[:, :2], axis=1)
    rows, inks = [], []
    for i, crop in enumerate(crops):
        evidence = ink.green_log_odds(crop)
        if evidence is not None and tuple(top2[i]) == tuple(sorted((e, f))):
            rows.append(i)
            inks.append(evidence)
    if not rows:
        raise SystemExit("no held-back crop has E and F as its two likeliest readings")
    odds = np.log(np.maximum(probs[rows, f], 1e-6)) - np.log(np.maximum(probs[rows, e], 1e-6))
    w = logistic(np.stack([odds, np.array(inks)], axis=1), y[rows])
    print(f"INK_WEIGHT = {w[1] / w[0]:.2f}  # from {len(rows)} held-back crops read E or F")
    ink.INK_WEIGHT = w[1] / w[0]
    before = probs.argmax(axis=1)
    after = ink.weigh_ink(crops, probs, e, f).argmax(axis=1)
    truth = np.where(y == 1, f, e)
    print(f"held-back E and F crops read right: {int((before == truth).sum())} -> "
          f"{int((after == truth).sum())} of {len(crops)}")


if __name__ == "__main__":
    main()
