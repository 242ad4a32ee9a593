"""The ink colour of a tile's face, as evidence between 發 (``F``) and 東 (``E``).

Sets print 發 green and the winds black or blue. At table size the crop classifier tells the two
apart mostly by that colour, but it learned from greyed photos too, and a held-back 發 design
(a cursive one, shaped much like the same set's cursive 東) came out ``E``. The ink's colour
is measured against the face's own colour, so a room light's tint cancels, and weighed with
the classifier's odds (naive Bayes). Only green speaks, for 發: ink of another colour is no
evidence for a wind, as a 發 printed dark shows little green (``INK_FLOOR``). Crops with no
colour to judge (a greyed photo, a face that is not near white) give no evidence and keep the
classifier's reading.

The numbers are fitted by ``python -m vision.training.ink_fit`` (see there).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

MARGIN = 0.3  # of the crop on each side left out: the face's middle, clear of its rim
INK_SHARE = 15  # percent of the middle's pixels, the darkest: the ink
FACE_SHARE = 40  # percent, the brightest: the face
GREY = 8.0  # a crop whose colour spread (95th percentile) is under this: a greyed photo
NEUTRAL_FACE = 25.0  # face chroma (Lab) above this: a tinted face, its ink's hue unreliable
# log-odds of F against E from the ink's (a, b) shift: a * da + b * db + c (fitted on the
# training crops of F and E; c carries their prior), and its weight against the classifier's
# log-odds (fitted on held-back crops whose two likeliest readings are E and F): fitted with
# the shipped classifier, ``--data WORK/classifier --data TILETAB`` (MODELS.md)
GREEN_INK = (-0.64, 0.10, -0.65)
INK_WEIGHT = 1.93
INK_CAP = 4.0  # the ink alone is never surer than 98% (a shadow or a gap can tint the middle)
# ink that is not green is no evidence for a wind: no wind is printed green, but a 發 printed
# dark, or seen under a dim light, shows little green, and the fitted line took its bluish
# black for a wind's (REALVAL10D and 14D, 100 scenes each: the held-back dark 發 of
# IMG_20231119_110243 read E 4 and 2 times by the classifier alone, 20 and 17 with the ink
# both ways, 4 and 2 with green ink alone counted; no labeled E read F any way; MODELS.md,
# thirty-ninth session). The ink's log-odds are floored here.
INK_FLOOR = 0.0
MIN_PAIR = 0.1  # E and F together under this probability: the ink does not matter


def ink_shift(crop: np.ndarray) -> tuple[float, float] | None:
    """The ink's Lab (a, b) minus the face's, in the crop's middle; ``None`` where the
    crop holds no colour to judge."""
    spread = crop.max(axis=2).astype(np.int16) - crop.min(axis=2)
    if np.percentile(spread, 95) < GREY:
        return None
    h, w = crop.shape[:2]
    my, mx = int(h * MARGIN), int(w * MARGIN)
    middle = crop[my:h - my, mx:w - mx]
    lab = cv2.cvtColor(middle.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    light = lab[:, 0]
    ink = lab[light <= np.percentile(light, INK_SHARE)]
    face = lab[light >= np.percentile(light, 100 - FACE_SHARE)]
    fa, fb = float(face[:, 1].mean()), float(face[:, 2].mean())
    if np.hypot(fa, fb) > NEUTRAL_FACE:
        return None
    return float(ink[:, 1].mean()) - fa, float(ink[:, 2].mean()) - fb


def green_log_odds(crop: np.ndarray) -> float | None:
    """Log-odds of ``F`` against ``E`` from the ink's colour alone, from ``INK_FLOOR`` (ink
    that is not green says nothing) to ``INK_CAP`` (``None``: no colour)."""
    shift = ink_shift(crop)
    if shift is None:
        return None
    a, b, c = GREEN_INK
    return float(np.clip(a * shift[0] + b * shift[1] + c, INK_FLOOR, INK_CAP))


FLOOR = 1e-6  # the least probability a class is given where odds are taken


def log_odds(p: np.ndarray, a: int, b: int) -> float:
    """Log-odds of class ``a`` against ``b`` in one row of probabilities ``p``."""
    return float(np.log(max(float(p[a]), FLOOR)) - np.log(max(float(p[b]), FLOOR)))


def dark_fa_rival(names: Sequence[str]) -> dict[int, int]:
    """``{E: F}`` class indices, for :func:`vision.bamboo.weigh_shape`: a crop read 東 is read
    greyed too, and where its shape alone reads 發 (at ``RIVAL_SURE``) the two readings are
    weighed together. A 發 printed dark shows little green, and the colour crop of the
    held-back one of ``IMG_20231119_110243`` reads 東 where its greyed crop reads 發 (all 15 of
    REALVAL9D and 14D read 東 lean to 發 greyed at one pad or both, ``+0.3`` to ``+5.0``
    log-odds); of the 900 東 there, 14 crops of 1,800 read 發 at 0.3 or more greyed, their
    colour crops sure enough of 東 that none turns."""
    index = {n: i for i, n in enumerate(names)}
    return {index["E"]: index["F"]} if {"E", "F"} <= index.keys() else {}


def split_pair(p: np.ndarray, a: int, b: int, evidence: float) -> None:
    """One row of probabilities ``p`` with the share of ``a`` and ``b`` split anew, in place,
    by their odds plus ``evidence`` (log-odds of ``a`` against ``b`` from elsewhere: naive
    Bayes); other classes keep theirs."""
    pair = float(p[a] + p[b])
    odds = log_odds(p, a, b) + evidence
    p[a] = pair / (1.0 + np.exp(-odds))
    p[b] = pair - p[a]


def weigh_ink(crops: Sequence[np.ndarray], probs: np.ndarray, e: int, f: int) -> np.ndarray:
    """``probs`` (one row a crop) with each row's ``E`` + ``F`` share split anew by the
    classifier's odds times the ink's: other classes keep their probability."""
    out = probs.copy()
    for row, crop in enumerate(crops):
        p = out[row]
        if float(p[e] + p[f]) < MIN_PAIR:
            continue
        ink = green_log_odds(crop)
        if ink is None:
            continue
        split_pair(p, f, e, INK_WEIGHT * ink)
    return out
