"""How much a picture changed, and where: the measure that decides whether the models run again.

A whole-picture mean hides what matters at a mahjong table: one discard is a tile among a
hundred, about 0.1 grey levels of the picture's mean change. :func:`local_change` takes the mean
over small blocks of the thumbnails (about a tile and a half each at 1080p) and reports the
largest, so one tile placed, taken or turned is seen while sensor noise, averaged over the
block, stays far below it.
"""

from __future__ import annotations

import numpy as np

BLOCK = 3  # thumbnail pixels per block side (a 96x54 thumbnail of 1080p: 60x60 px blocks)
LOCAL_CHANGE = 4.0  # grey levels (0..255) of a block's mean change that mean something moved


def local_change(a: np.ndarray, b: np.ndarray, block: int = BLOCK) -> float:
    """The largest mean absolute difference over ``block`` x ``block`` blocks of two
    same-sized grey thumbnails (H, W); the thumbnail's edge beyond whole blocks is ignored."""
    diff = np.abs(a.astype(np.float32) - b.astype(np.float32))
    h, w = (diff.shape[0] // block) * block, (diff.shape[1] // block) * block
    if h == 0 or w == 0:
        return float(diff.mean()) if diff.size else 0.0
    blocks = diff[:h, :w].reshape(h // block, block, w // block, block).mean(axis=(1, 3))
    return float(blocks.max())
