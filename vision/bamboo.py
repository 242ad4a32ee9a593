"""Bamboo printed in other colours: a crop read 紅中 or in the dots suit checked by its shape.

The crop classifier leans on colour: its training sets print the bamboo suit green, 紅中 red and
the dots in black, blue and red, so a held-back set's all-red bird (1s) came out 紅中 (``C``) at
up to 1.00 and a 9s printed black with a red middle row came out 9p, while the same crops
greyed read 1s and 9s (MODELS.md, thirty-eighth and fortieth sessions). Sets print bamboo in
any colour, so a crop read ``C`` or in the dots suit is also read greyed, where only its shape
speaks, and where the greyed crop reads its bamboo rival (the bird for 紅中, the same number for
the dots) surely, the two readings' odds are multiplied between the kind and its rival (naive
Bayes, the greyed crop's weighed less, as the ink's colour weighs between 發 and 東 in
:mod:`vision.ink`). A real 紅中 or dots tile keeps its reading: its colour reading is sure
enough against the bamboo that a greyed crop leaning to the bamboo does not outweigh it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.ink import log_odds, split_pair

GREY_WEIGHT = 0.75  # the greyed crop's log-odds count three quarters: the same classifier
#                    seeing the same shape again is no independent evidence (REALVAL10D and 14D,
#                    140 scenes, and the bundled table_1's blurred 紅中: of the crops read 紅中
#                    or dots whose greyed crop reads the bamboo surely, 36 of 38 bamboo turned
#                    and 1 of 42 紅中 or dots; counted whole, 38 and 3, that 紅中 among them)
RIVAL_SURE = 0.3  # the greyed crop reads the rival at least this likely, or it is no
#                   evidence (a 紅中 read unsurely, its greyed crop 1s at 0.20 and 紅中 at
#                   0.004, is no bird: REALVAL10D table_s25_000016). 0.3 rather than 0.5
#                   (more likely than all else): REALVAL9D-20D, 23D and 26D read 11 seats and
#                   35 face-up tiles more, two seats fewer (a 9p read 9s, a 9999p kong)


def bamboo_rivals(names: Sequence[str]) -> dict[int, int]:
    """Class index of each kind whose colour may hide a bamboo tile (``C``, ``1p``..``9p``)
    -> its bamboo rival's (``1s``; ``1s``..``9s``), for a classifier's class ``names``."""
    index = {n: i for i, n in enumerate(names)}
    pairs = [("C", "1s"), *((f"{n}p", f"{n}s") for n in range(1, 10))]
    return {index[a]: index[b] for a, b in pairs if a in index and b in index}


def greyed(crop: np.ndarray) -> np.ndarray:
    """A BGR crop with its colour taken out (three equal channels)."""
    return cv2.cvtColor(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def weigh_shape(crops: Sequence[np.ndarray], probs: np.ndarray, rivals: dict[int, int],
                classify: Callable[[list[np.ndarray]], np.ndarray]) -> np.ndarray:
    """``probs`` (one row a crop) with each row whose likeliest class has a rival (``rivals``:
    :func:`bamboo_rivals`, :func:`vision.ink.dark_fa_rival`) and whose greyed crop reads that
    rival surely (``RIVAL_SURE``): its share of the two split anew by its odds times those of
    its greyed crop, weighed by ``GREY_WEIGHT`` (``classify``: the classifier's probabilities
    of a list of crops); other rows and classes are kept. The shape speaks for the rival only:
    a greyed crop leaning to the colour's own reading (東 0.51 against 發 0.36, the colour crop
    東 at 0.83: REALVAL15D table_s30_000062's 發, read 發 over its crops until such a pad
    made its 東 surer) is the same classifier seeing the same shape again, nothing new."""
    out = probs.copy()
    first = out.argmax(axis=1)
    rows = [r for r in range(len(out)) if int(first[r]) in rivals]
    if not rows:
        return out
    grey = classify([greyed(crops[r]) for r in rows])
    for r, g in zip(rows, grey, strict=True):
        kind = int(first[r])
        rival = rivals[kind]
        if g[rival] >= RIVAL_SURE:
            split_pair(out[r], kind, rival, GREY_WEIGHT * min(log_odds(g, kind, rival), 0.0))
    return out
