"""Score a table reading against a synthetic scene's manifest (``mjtable dataset synth``).

The generator writes, for every scene, the true state of each seat and every object's box, seat
and role. :func:`manifest_detections` turns those boxes into the detections a perfect detector
would give (so the table logic is measured alone); :func:`compare` counts what a reading got
right, seat by seat, so tests and the bench can state an accuracy.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring.tiles import DIE_CLASS, parse_tiles, tile_from_name
from vision.detections import TileDetections
from vision.geometry import TableReading
from vision.labels import BACK_CLASS


def manifest_detections(manifest: dict[str, Any], min_visible: float = 0.5) -> TileDetections:
    """Every object at least ``min_visible`` visible, as a perfect detector reports it."""
    xyxy, cls, face = [], [], []
    for obj in manifest["objects"]:
        if obj.get("visible", 1.0) < min_visible:
            continue
        name = obj["tile"]
        if name == "die":
            c = DIE_CLASS
        elif name == "back":
            c = BACK_CLASS
        else:
            c = tile_from_name(name)
        xyxy.append(obj["xyxy"])
        cls.append(c)
        face.append(int(obj.get("face") or 0) if c == DIE_CLASS else 0)
    n = len(cls)
    return TileDetections(xyxy=np.array(xyxy, np.float32).reshape(-1, 4),
                          confidence=np.ones(n, np.float32), class_id=np.array(cls),
                          face=np.array(face, np.int8))


def bottom_seat(manifest: dict[str, Any]) -> int:
    """The seat at the bottom edge of the picture (the camera's orientation, which a user
    states once): the seat whose objects lie lowest, all roles together."""
    ys: dict[int, list[float]] = {}
    for obj in manifest["objects"]:
        if obj.get("seat") is not None:
            ys.setdefault(int(obj["seat"]), []).append((obj["xyxy"][1] + obj["xyxy"][3]) / 2)
    return max(ys, key=lambda k: float(np.median(ys[k])))


@dataclass
class Score:
    """Right / total per item kind over one or more scenes."""

    right: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def add(self, kind: str, ok: bool, what: str = "") -> None:
        self.total[kind] += 1
        self.right[kind] += ok
        if not ok and what:
            self.misses.append(what)

    def __iadd__(self, other: Score) -> Score:
        self.right.update(other.right)
        self.total.update(other.total)
        self.misses += other.misses
        return self

    def accuracy(self, kind: str | None = None) -> float:
        if kind is None:
            return sum(self.right.values()) / max(sum(self.total.values()), 1)
        return self.right[kind] / max(self.total[kind], 1)

    def summary(self) -> str:
        parts = [f"{k} {self.right[k]}/{self.total[k]}" for k in sorted(self.total)]
        return f"{self.accuracy():.1%} right ({', '.join(parts)})"


def compare(reading: TableReading, manifest: dict[str, Any], dice: tuple[int, ...] | None = None
            ) -> Score:
    """What the reading got right: each seat's melds (type, tiles, claimed from), flowers,
    discards, face-up hands (as multisets), and the dice."""
    score = Score()
    name = manifest.get("name", "?")
    for truth in manifest["game"]["seats"]:
        k = int(truth["seat"])
        seat = reading.seats[k]
        want_melds = sorted((m["type"] if m["type"] != "added_kong" else "exposed_kong",
                             tuple(sorted(parse_tiles(m["tiles"]))), m.get("from"))
                            for m in truth["melds"])
        got_melds = sorted((m.type, tuple(sorted(m.tiles)), m.from_seat) for m in seat.melds)
        score.add("melds", want_melds == got_melds,
                  f"{name} seat {k} melds {got_melds} != {want_melds}")
        want_fl = sorted(tile_from_name(f) for f in truth["flowers"])
        score.add("flowers", sorted(seat.flowers) == want_fl,
                  f"{name} seat {k} flowers {seat.flowers} != {want_fl}")
        want_disc = sorted(tile_from_name(t) for t in truth["discards"])
        score.add("discards", sorted(seat.discards) == want_disc,
                  f"{name} seat {k} discards {sorted(seat.discards)} != {want_disc}")
        if truth.get("revealed"):
            want_hand = sorted(parse_tiles(truth["concealed"]))
            score.add("hands", sorted(seat.hand) == want_hand and seat.hidden == 0,
                      f"{name} seat {k} hand {sorted(seat.hand)} != {want_hand}")
        else:  # standing tiles seen from behind: those the camera can see
            n = sum(1 for o in manifest["objects"] if o.get("seat") == k and o["role"] == "hand"
                    and o.get("visible", 1.0) >= 0.5)
            score.add("hidden", seat.hidden == n and not seat.hand,
                      f"{name} seat {k} hidden {seat.hidden}+{len(seat.hand)} != {n}")
    if dice is not None or manifest.get("dice"):
        want = tuple(sorted(manifest.get("dice") or ()))
        score.add("dice", tuple(sorted(dice or ())) == want, f"{name} dice {dice} != {want}")
    return score
