"""A short clip with local changes, made in memory from a bundled picture: for the test that
the change mask sees what analysing every frame in full sees, and for the bench's delay from a
change to its event. No sensor noise, so every frame that shows the same table is the same
picture (the bundled video's fresh noise makes full analysis itself flicker).

``table_0.jpg`` (10 fps): frames 0-6 as it is; from frame 7 the dice are taken away and seat 0
has discarded a tenth tile (a copy of its 7m, at the next place in its second row); from frame
14 the dice are back (the same faces: the next roll).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DICE = (880, 520, 972, 554)  # both dice of table_0, with a little felt around them
FELT_SHIFT = 150  # px to the right of the dice: bare felt of the same light
DISCARD_FROM = (1052, 798, 1087, 845)  # seat 0's 7m
DISCARD_TO = (990, 746)  # after its 1m, second row


@dataclass(frozen=True)
class Clip:
    frames: list[np.ndarray]
    fps: float
    changes: dict[int, str]  # frame index -> what changed there


def local_change_clip(hold: int = 7) -> Clip:
    """The clip described above, each state held ``hold`` frames."""
    from vision.capture import load_image

    base = load_image(HERE / "table_0.jpg")
    x0, y0, x1, y1 = DICE
    changed = base.copy()
    changed[y0:y1, x0:x1] = base[y0:y1, x0 + FELT_SHIFT:x1 + FELT_SHIFT]
    sx0, sy0, sx1, sy1 = DISCARD_FROM
    dx, dy = DISCARD_TO
    changed[dy:dy + sy1 - sy0, dx:dx + sx1 - sx0] = base[sy0:sy1, sx0:sx1]
    back = changed.copy()
    back[y0:y1, x0:x1] = base[y0:y1, x0:x1]
    frames = [base] * hold + [changed] * hold + [back] * hold
    return Clip(frames=[f.copy() for f in frames], fps=10.0,
                changes={hold: "dice taken away, seat 0 discards", 2 * hold: "dice back"})
