"""Model class names to the project's class ids (``shared/rules/README.md``).

Models name their classes in their ONNX metadata. A single-stage detector names tiles directly
(ours: ``1m``..``f8``, ``die``; the ``mahjong-detector`` reference uses riichi names such as
``chun`` and ``tou``); a two-stage detector has coarse classes (``tile``, ``die``, ``tile_back``)
and a crop classifier names tiles and die faces (``die1``..``die6``). Everything downstream sees
one numbering: 0..41 tiles, 42 a die, 43 a face-down tile.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from scoring.errors import TileError
from scoring.tiles import DIE_CLASS, NUM_TILES, TILE_NAMES, tile_from_name

BACK_CLASS = 43  # a face-down tile (wall, concealed kong); vision-internal, not a tile kind
LABELS: tuple[str, ...] = (*TILE_NAMES, "die", "back")

# riichi-style and other spellings seen in public models
_ALIASES = {
    "tou": "E", "ton": "E", "nan": "S", "sha": "W", "shaa": "W", "pe": "N", "pei": "N",
    "chun": "C", "hatsu": "F", "haku": "P",
    "east": "E", "south": "S", "west": "W", "north": "N",
    "red": "C", "green": "F", "white": "P",
}
COARSE_TILE = "tile"
COARSE_NAMES = {"tile": None, "tile_face": None, "die": DIE_CLASS, "dice": DIE_CLASS,
                "tile_back": BACK_CLASS, "back": BACK_CLASS}


@dataclass(frozen=True)
class ClassMap:
    """How one model's class indices read in the project's numbering.

    ``class_id[i]`` is the project class of model class ``i`` (-1: a coarse ``tile`` that needs
    the classifier); ``face[i]`` is the die face 1..6 that class means, 0 when it means none.
    """

    names: tuple[str, ...]
    class_id: tuple[int, ...]
    face: tuple[int, ...]

    @property
    def is_coarse(self) -> bool:
        """True for a two-stage detector, whose tiles must be named by a classifier."""
        return -1 in self.class_id


def parse_names(value: str | None, where: str) -> tuple[str, ...]:
    """The ``names`` metadata of an ultralytics export (a dict literal) as a tuple by index."""
    if not value:
        raise ValueError(f"{where}: the ONNX metadata has no 'names'; export with ultralytics "
                         "or add names={0: '1m', ...} to metadata_props")
    try:
        raw = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        raise ValueError(f"{where}: metadata 'names' is not a dict literal: {value[:80]!r}") \
            from None
    if isinstance(raw, dict):
        if sorted(raw) != list(range(len(raw))):
            raise ValueError(f"{where}: metadata 'names' keys are not 0..{len(raw) - 1}")
        return tuple(str(raw[i]) for i in range(len(raw)))
    if isinstance(raw, list | tuple):
        return tuple(str(n) for n in raw)
    raise ValueError(f"{where}: metadata 'names' is neither a dict nor a list")


def name_to_class(name: str) -> tuple[int, int]:
    """``(class_id, face)`` of one model class name; raises ``ValueError`` for an unknown name."""
    key = name.strip()
    low = key.lower()
    if low in COARSE_NAMES:
        cls = COARSE_NAMES[low]
        return (-1 if cls is None else cls), 0
    if low.startswith("die") and low[3:].lstrip("_- ").isdigit():
        face = int(low[3:].lstrip("_- "))
        if 1 <= face <= 6:
            return DIE_CLASS, face
    key = _ALIASES.get(low, key)
    try:
        tile = tile_from_name(key)
    except TileError:
        raise ValueError(f"unknown class name {name!r}") from None
    if not 0 <= tile < NUM_TILES:
        raise ValueError(f"unknown class name {name!r}")
    return tile, 0


def class_map(names: tuple[str, ...], where: str) -> ClassMap:
    ids: list[int] = []
    faces: list[int] = []
    for name in names:
        try:
            cls, face = name_to_class(name)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        ids.append(cls)
        faces.append(face)
    return ClassMap(names=names, class_id=tuple(ids), face=tuple(faces))


def label_of(class_id: int) -> str:
    return LABELS[class_id] if 0 <= class_id < len(LABELS) else str(class_id)
