"""Which of the export's copies of one photo are mirror images of which: their handedness.

The tiles-real export (Roboflow) made three augmented copies of most source photos, turned,
scaled and some of them flipped. A flipped copy's tiles are mirror images, which no camera
shows, so :mod:`datasets.photo_faces` mirrors the faces of the copies listed in its
``MIRRORED_COPIES`` back. Whether two copies share their handedness is a question of geometry:
SIFT matches between two copies of the same handedness fit a similarity (a turn, a scale and a
shift, no reflection) with many inliers and few against the other's mirror image, and the
reverse when they differ. Which side of a photo's copies is the photo as taken is not: the
export flipped one, two or none of three (hand_111: two of three), so a person decides it from
what reads one way only (corner indices, the order of a sorted hand, 伍's 亻 on the left), once
a photo. ``python -m datasets.copy_mirrors [NAME ...]`` prints each photo's copies by side.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

FEATURES = 2000  # SIFT keypoints a copy
RATIO = 0.75  # Lowe's ratio test
INLIER_PX = 4.0  # RANSAC reprojection threshold, in the 640-px copies' pixels
CLEAR = 2.0  # one fit beats the other by this factor ...
AT_LEAST = 5  # ... and by this many inliers, or the pair's handedness is unknown

Features = tuple[Sequence[cv2.KeyPoint], np.ndarray | None]


def _features(image: np.ndarray) -> Features:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.SIFT_create(FEATURES).detectAndCompute(grey, None)


def _inliers(a: Features, b: Features) -> int:
    """Inliers of the best similarity from ``a``'s keypoints to ``b``'s."""
    (ka, da), (kb, db) = a, b
    if da is None or db is None or len(ka) < 2 or len(kb) < 2:
        return 0
    pairs = cv2.BFMatcher().knnMatch(da, db, k=2)
    good = [m for m, n in (p for p in pairs if len(p) == 2) if m.distance < RATIO * n.distance]
    if len(good) < 3:
        return 0
    pa = np.float32([ka[m.queryIdx].pt for m in good])
    pb = np.float32([kb[m.trainIdx].pt for m in good])
    _, inl = cv2.estimateAffinePartial2D(pa, pb, method=cv2.RANSAC,
                                         ransacReprojThreshold=INLIER_PX)
    return 0 if inl is None else int(inl.sum())


def _mirrored(image: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(image[:, ::-1])


def _hand(a: Features, b: Features, b_mirrored: Features) -> bool | None:
    """:func:`same_hand` from the copies' features (``b_mirrored``: of ``b``'s mirror image)."""
    same, mirror = _inliers(a, b), _inliers(a, b_mirrored)
    if same > CLEAR * max(mirror, AT_LEAST):
        return True
    if mirror > CLEAR * max(same, AT_LEAST):
        return False
    return None


def same_hand(a: np.ndarray, b: np.ndarray) -> bool | None:
    """Whether two copies (BGR images) show the photo with the same handedness; ``None``: the
    fits do not tell (too few matches, or neither fit clearly the better)."""
    return _hand(_features(a), _features(b), _features(_mirrored(b)))


def sides(images: Sequence[np.ndarray]) -> list[int] | None:
    """Each copy's side, 0 for the first copy's handedness and 1 for its mirror image, when
    every pair of copies tells and they agree; ``None`` otherwise. Each copy's features are
    found once, for all the pairs it is in."""
    plain = [_features(i) for i in images]
    flipped = [_features(_mirrored(i)) for i in images]
    out = [0]
    for i in range(1, len(images)):
        hand = _hand(plain[0], plain[i], flipped[i])
        if hand is None:
            return None
        out.append(0 if hand else 1)
    for i in range(1, len(images)):
        for j in range(i + 1, len(images)):
            if _hand(plain[i], plain[j], flipped[j]) is not (out[i] == out[j]):
                return None
    return out


def copies_by_photo(root: Path) -> dict[str, list[Path]]:
    """tiles-real's (``root``) copies, by the photo they were made from, sorted."""
    from vision.training.prepare import list_samples

    out: dict[str, list[Path]] = defaultdict(list)
    for sample in list_samples(root, "tiles"):
        out[sample.group].append(sample.image)
    return {g: sorted(v) for g, v in sorted(out.items())}


def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    if image is None:
        raise ValueError(f"{path}: not a readable image")
    return image


def main(argv: list[str] | None = None) -> None:
    from datasets.photo_faces import DATA_ROOT

    names = sys.argv[1:] if argv is None else argv
    for photo, files in copies_by_photo(DATA_ROOT / "tiles-real").items():
        if len(files) < 2 or (names and not any(n in photo for n in names)):
            continue
        found = sides([_read(f) for f in files])
        if found is None:
            print(f"{photo}: the copies' handedness does not tell")
            continue
        for side in (0, 1):
            print(f"{photo} side {side}: "
                  + " ".join(f.name for f, s in zip(files, found, strict=True) if s == side))


if __name__ == "__main__":
    main()
