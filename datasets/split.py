"""Group-aware train/val split: every image of one source lands in the same fold.

Augmented copies of one photo look alike; a random split by file would put near-duplicates on
both sides and overstate validation accuracy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping


def split_groups(group_of: Mapping[str, str], val_fraction: float = 0.2,
                 seed: int = 0) -> dict[str, str]:
    """``{file: "train"|"val"}`` keeping each group whole; deterministic for a seed.

    Groups are shuffled by ``seed`` (from sorted order, so the input order does not matter) and
    moved to val until val holds ``val_fraction`` of the images, rounded to the nearest group.
    """
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"val fraction must be in [0, 1), got {val_fraction}")
    sizes = Counter(group_of.values())
    groups = sorted(sizes)
    random.Random(seed).shuffle(groups)
    target = val_fraction * len(group_of)
    val: set[str] = set()
    taken = 0
    for g in groups:
        if taken >= target:
            break
        if abs(taken + sizes[g] - target) <= abs(taken - target):  # closer with it: take it
            val.add(g)
            taken += sizes[g]
    return {f: ("val" if g in val else "train") for f, g in group_of.items()}
