"""Class sets a dataset can be written with.

``tiles43`` is the project's detector numbering (``scoring.tiles``: 0..41 tile kinds, 42 die).
``coarse`` serves a two-stage detector that first finds tile faces, tile backs and dice and
classifies crops afterwards. ``dice6`` keeps the pips of a die as the class (``die1``..``die6``),
for a model that reads dice faces.
"""

from __future__ import annotations

from scoring.tiles import CLASS_NAMES, DIE_CLASS

TILES43: tuple[str, ...] = CLASS_NAMES
COARSE: tuple[str, ...] = ("tile_face", "tile_back", "die")
DICE6: tuple[str, ...] = tuple(f"die{k}" for k in range(1, 7))

CLASS_SETS: dict[str, tuple[str, ...]] = {"tiles43": TILES43, "coarse": COARSE, "dice6": DICE6}

COARSE_FACE, COARSE_BACK, COARSE_DIE = range(3)
TILE_BACK = -1  # role of a face-down tile before it is mapped to a class set


def class_names(class_set: str) -> tuple[str, ...]:
    """The names of a class set; raises ``ValueError`` naming the choices for an unknown one."""
    try:
        return CLASS_SETS[class_set]
    except KeyError:
        raise ValueError(f"unknown class set {class_set!r}; choose one of "
                         f"{', '.join(CLASS_SETS)}") from None


def map_class(class_set: str, tile: int, die_face: int = 0) -> int | None:
    """The class id of one object in ``class_set``; ``None`` when the set does not label it.

    ``tile`` is a tile kind 0..41, :data:`TILE_BACK` for a face-down tile or
    ``scoring.tiles.DIE_CLASS`` for a die (then ``die_face`` is its pips, 1..6).
    """
    if class_set == "tiles43":
        return None if tile == TILE_BACK else tile
    if class_set == "coarse":
        if tile == DIE_CLASS:
            return COARSE_DIE
        return COARSE_BACK if tile == TILE_BACK else COARSE_FACE
    if class_set == "dice6":
        return die_face - 1 if tile == DIE_CLASS else None
    class_names(class_set)
    raise AssertionError("unreachable")
