"""``TileDetections``: the one value passed between the vision steps.

Parallel arrays, one row per detected object, as supervision's ``Detections``: boxes in
original-image pixels, the chosen class, its confidence, the top-k classes with probabilities
(kept for the legal-reading repair), the die face, and the seat / role that table geometry
assigns later. Indexing with a mask, an index array or a slice returns a new, validated value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from scoring.tiles import DIE_CLASS, NUM_TILES
from vision.labels import BACK_CLASS, label_of

ROLES = ("hand", "meld", "flower", "discard", "wall", "dice", "indicator", "outside", "half",
         "")
NO_SEAT = -1


def _empty(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    return np.zeros(shape, dtype=dtype)


@dataclass
class TileDetections:
    """Detected tiles and dice of one frame.

    Attributes:
        xyxy: (N, 4) float32 boxes x1, y1, x2, y2 in original-image pixels.
        confidence: (N,) float32 score of the chosen class (detector score x classifier prob).
        class_id: (N,) int16 project class: 0..41 tiles, 42 die, 43 face-down tile.
        topk_ids: (N, K) int16 best classes, most probable first (-1 pads).
        topk_probs: (N, K) float32 their probabilities (0 pads).
        face: (N,) int8 die face 1..6, 0 when not a die or not read.
        seat: (N,) int8 seat 0..3 from table geometry, -1 unassigned.
        role: (N,) str role from :data:`ROLES`, ``""`` unassigned.
        group: (N,) int16 meld / row index within its seat and role, -1 none.
        sideways: (N,) bool the tile lies across its seat's direction (a claimed tile).
        data: extra per-row arrays, each of length N.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    topk_ids: np.ndarray = field(default_factory=lambda: _empty((0, 1), np.int16))
    topk_probs: np.ndarray = field(default_factory=lambda: _empty((0, 1), np.float32))
    face: np.ndarray = field(default_factory=lambda: _empty((0,), np.int8))
    seat: np.ndarray = field(default_factory=lambda: _empty((0,), np.int8))
    role: np.ndarray = field(default_factory=lambda: _empty((0,), "<U9"))
    group: np.ndarray = field(default_factory=lambda: _empty((0,), np.int16))
    sideways: np.ndarray = field(default_factory=lambda: _empty((0,), bool))
    data: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        n = len(self.xyxy)
        self.confidence = np.asarray(self.confidence, dtype=np.float32)
        self.class_id = np.asarray(self.class_id, dtype=np.int16)
        if n and len(self.topk_ids) == 0:  # default: the chosen class alone, with its score
            self.topk_ids = self.class_id.reshape(-1, 1).copy()
            self.topk_probs = np.ones((n, 1), np.float32)
        self.topk_ids = np.asarray(self.topk_ids, dtype=np.int16)
        self.topk_probs = np.asarray(self.topk_probs, dtype=np.float32)
        defaults = {"face": (0, np.int8), "seat": (NO_SEAT, np.int8), "role": ("", "<U9"),
                    "group": (-1, np.int16), "sideways": (False, bool)}
        for name, (fill, dtype) in defaults.items():
            value = np.asarray(getattr(self, name), dtype=dtype)  # type: ignore[call-overload]
            if value.size == 0 and n:
                value = np.full(n, fill, dtype=dtype)
            setattr(self, name, value)
        self._validate(n)

    def _validate(self, n: int) -> None:
        for name in ("confidence", "class_id", "face", "seat", "role", "group", "sideways"):
            value = getattr(self, name)
            if value.shape != (n,):
                raise ValueError(f"TileDetections.{name} has shape {value.shape}; expected ({n},) "
                                 "to match xyxy")
        if self.topk_ids.ndim != 2 or self.topk_ids.shape[0] != n:
            raise ValueError(f"TileDetections.topk_ids has shape {self.topk_ids.shape}; "
                             f"expected ({n}, K)")
        if self.topk_probs.shape != self.topk_ids.shape:
            raise ValueError(f"TileDetections.topk_probs has shape {self.topk_probs.shape}; "
                             f"expected {self.topk_ids.shape} like topk_ids")
        for key, value in self.data.items():
            if len(value) != n:
                raise ValueError(f"TileDetections.data[{key!r}] has length {len(value)}; "
                                 f"expected {n}")
        if n and (self.class_id.min() < 0 or self.class_id.max() > BACK_CLASS):
            raise ValueError(f"TileDetections.class_id must lie in 0..{BACK_CLASS}")
        bad_roles = set(self.role.tolist()) - set(ROLES)
        if bad_roles:
            raise ValueError(f"TileDetections.role has unknown roles {sorted(bad_roles)}")

    @classmethod
    def empty(cls) -> TileDetections:
        return cls(xyxy=np.zeros((0, 4), np.float32), confidence=np.zeros(0, np.float32),
                   class_id=np.zeros(0, np.int16))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: int | slice | list[int] | np.ndarray) -> TileDetections:
        """Rows selected by a boolean mask, an index array, a slice or one index."""
        if isinstance(index, int | np.integer):
            index = [int(index)]
        return TileDetections(
            **{f.name: getattr(self, f.name)[index] for f in fields(self) if f.name != "data"},
            data={k: v[index] for k, v in self.data.items()})

    def __iter__(self) -> Iterator[TileDetections]:
        for i in range(len(self)):
            yield self[i]

    @classmethod
    def merge(cls, parts: list[TileDetections]) -> TileDetections:
        """Rows of several values in order; their top-k widths are padded to the widest."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        k = max(p.topk_ids.shape[1] for p in parts)

        def pad(a: np.ndarray, fill: float) -> np.ndarray:
            return np.pad(a, ((0, 0), (0, k - a.shape[1])), constant_values=fill)

        keys = set.intersection(*(set(p.data) for p in parts))
        return cls(
            **{f.name: np.concatenate([getattr(p, f.name) for p in parts])
               for f in fields(cls) if f.name not in ("data", "topk_ids", "topk_probs")},
            topk_ids=np.concatenate([pad(p.topk_ids, -1) for p in parts]),
            topk_probs=np.concatenate([pad(p.topk_probs, 0.0) for p in parts]),
            data={key: np.concatenate([p.data[key] for p in parts]) for key in keys})

    def with_(self, **changes: Any) -> TileDetections:
        """A copy with some arrays replaced (validated again)."""
        return replace(self, **changes)

    def renamed(self, names: Mapping[int, tuple[np.ndarray, np.ndarray]]) -> TileDetections:
        """A copy with each row of ``names`` named anew by its ``(kinds, odds)``, likeliest
        first (a crop read again, two boxes' views joined): its class the first kind, its
        top-k the kinds that fit (the rest empty), its confidence the detector's own score
        (the confidence over the old first odds) times the new first odds, as
        ``Detector.classify`` scores a box."""
        if not names:
            return self
        conf, class_id = self.confidence.copy(), self.class_id.copy()
        topk_ids, topk_probs = self.topk_ids.copy(), self.topk_probs.copy()
        for row, (kinds, odds) in names.items():
            own = conf[row] / max(float(topk_probs[row, 0]), 1e-6)
            m = min(topk_ids.shape[1], len(kinds))
            topk_ids[row], topk_probs[row] = -1, 0.0
            topk_ids[row, :m], topk_probs[row, :m] = kinds[:m], odds[:m]
            class_id[row], conf[row] = kinds[0], own * float(odds[0])
        return self.with_(confidence=conf, class_id=class_id, topk_ids=topk_ids,
                          topk_probs=topk_probs)

    # ------------------------------------------------------------------ views

    @property
    def is_tile(self) -> np.ndarray:
        """(N,) bool: a face-up tile 0..41."""
        return self.class_id < NUM_TILES

    @property
    def is_die(self) -> np.ndarray:
        return self.class_id == DIE_CLASS

    @property
    def is_back(self) -> np.ndarray:
        return self.class_id == BACK_CLASS

    @property
    def center(self) -> np.ndarray:
        """(N, 2) box centres in pixels."""
        return (self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2

    @property
    def labels(self) -> list[str]:
        return [label_of(int(c)) for c in self.class_id]

    def scaled(self, sx: float, sy: float | None = None) -> TileDetections:
        """Boxes scaled by ``sx`` (and ``sy``), e.g. back to the original resolution."""
        s = np.array([sx, sy if sy is not None else sx] * 2, np.float32)
        return self.with_(xyxy=self.xyxy * s)

    def to_json_list(self) -> list[dict[str, Any]]:
        """The CLI's detection objects: label, box in pixels, confidence, and a die's face."""
        out: list[dict[str, Any]] = []
        for i in range(len(self)):
            item: dict[str, Any] = {
                "label": label_of(int(self.class_id[i])),
                "box": [round(float(v), 1) for v in self.xyxy[i]],
                "confidence": round(float(self.confidence[i]), 4),
            }
            if self.class_id[i] == DIE_CLASS and self.face[i]:
                item["face"] = int(self.face[i])
            out.append(item)
        return out
