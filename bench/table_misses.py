"""Why a folder of table scenes' seats and winners are missed, by what their readings show.

Run: ``python bench/table_misses.py --tables DIR [--models DIR] [--limit N] [--examples K]``.
Each scene is read as ``mjtable eval --tables`` reads it (``mjtable read``'s reading, after
repair) and scored the same way; each seat read wrong is then counted by how its face-up
tiles (hand, melds, flowers) differ from the truth's:

- ``N misread``: as many tiles read as other kinds as there are missing; ``N missing``, ``N
  extra``, ``mixed``; ``+flowers`` where the flowers differ too;
- ``flowers only -A+B``: the tiles right, A flowers missing and B extra;
- ``melds cut wrong``: the same tiles, cut otherwise into hand and melds;

each also as ``in view`` or not (every face-up tile labeled and half seen, as the eval's own
split counts). Where each in-view face-up tile of a missed seat went is counted apart: no box
on it (IoU 0.5), its box given another seat or another role (the pond, the wall, outside the
rows), or read as another kind. A winner missed is counted by what was recorded (no win, a
win with another hand, another seat's win) and by its seat's category.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.capture import load_image  # noqa: E402
from vision.evaluate import load_model, load_scenes, scene_setting  # noqa: E402
from vision.manifest import (  # noqa: E402
    in_view,
    recorded_tiles,
    seat_face_up,
    truth_face_up,
    win_recorded,
    winner_of,
)
from vision.metrics import greedy_pairs  # noqa: E402
from vision.reading import read_image  # noqa: E402

SEAT_ROLES = ("hand", "meld", "flower")


def _tiles(hand: list[int], melds: list[tuple[int, ...]]) -> Counter[int]:
    """A hand's and its melds' tiles together, however they are cut."""
    return Counter(hand) + Counter(t for meld in melds for t in meld)


def seat_category(want: tuple[list[int], list[tuple[int, ...]], list[int]],
                  got: tuple[list[int], list[tuple[int, ...]], list[int]]) -> str:
    """How a seat's face-up tiles as read (``got``) differ from the truth's (``want``), each
    as :func:`vision.manifest.seat_face_up` gives them: (hand, melds, flowers)."""
    missing = sum((_tiles(*want[:2]) - _tiles(*got[:2])).values())
    extra = sum((_tiles(*got[:2]) - _tiles(*want[:2])).values())
    fl_missing = sum((Counter(want[2]) - Counter(got[2])).values())
    fl_extra = sum((Counter(got[2]) - Counter(want[2])).values())
    if not missing and not extra:
        return f"flowers only -{fl_missing}+{fl_extra}" if fl_missing or fl_extra \
            else "melds cut wrong"
    if missing == extra:
        what = f"{missing} misread"
    elif not extra:
        what = f"{missing} missing" if missing < 4 else "4+ missing"
    elif not missing:
        what = f"{extra} extra" if extra < 4 else "4+ extra"
    else:
        what = "mixed"
    return what + (" +flowers" if fl_missing or fl_extra else "")


def tile_fates(manifest: dict[str, Any], seat: int, dets: Any,
               min_visible: float = 0.5) -> Counter[str]:
    """Where each face-up tile of ``seat`` the scene shows went in the reading's detections:
    unboxed, to another seat, to another role (the pond, the wall, outside the rows), read as
    another kind; tiles read right at their seat and role are not counted."""
    objs = [o for o in manifest["objects"] if o.get("seat") == seat
            and o["role"] in SEAT_ROLES and o["tile"] not in ("back", "die")
            and o.get("visible", 1.0) >= min_visible]
    fates: Counter[str] = Counter()
    boxes = np.array([o["xyxy"] for o in objs], float).reshape(-1, 4)
    for g, p in greedy_pairs(boxes, dets.xyxy):
        obj = objs[g]
        sort = "flower" if obj["role"] == "flower" else "tile"
        if p is None:
            fates[f"{sort}: no box"] += 1
            continue
        role = str(dets.role[p])
        if int(dets.seat[p]) not in (seat, -1) and role in SEAT_ROLES:
            fates[f"{sort}: another seat's {role}"] += 1
        elif role not in SEAT_ROLES or (role == "flower") != (sort == "flower"):
            fates[f"{sort}: read as {role or 'nothing'}"] += 1
        elif dets.labels[p] != obj["tile"]:
            fates[f"{sort}: misread"] += 1
    return fates


def winner_category(record: dict[str, Any] | None, winner: int, want_hand: list[int],
                    want_melds: list[tuple[int, ...]]) -> str | None:
    """What the record says of a scene's win where it is not the truth's; ``None`` where it
    is (``winner`` recorded as the winner with the truth's hand and melds)."""
    if win_recorded(record, winner, want_hand, want_melds):
        return None
    wins = (record or {}).get("wins") or []
    if not wins:
        return "no win"
    if wins[0].get("seat") != winner:
        return "another seat's win"
    hand, melds = recorded_tiles(record, winner)
    return "a win, melds cut otherwise" if _tiles(hand, melds) == _tiles(
        want_hand, want_melds) else "a win with other tiles"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=Path, required=True, help="folder of scenes")
    parser.add_argument("--models", default=str(ROOT / "models"), help="models folder")
    parser.add_argument("--limit", type=int, help="read this many scenes, evenly spaced")
    parser.add_argument("--examples", type=int, default=6, help="scenes named per line")
    args = parser.parse_args()
    detector = load_model(args.models)
    seats: Counter[str] = Counter()
    fates: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    where: dict[str, list[str]] = defaultdict(list)
    read = missed = 0
    for scene in load_scenes(args.tables, limit=args.limit):
        manifest = scene.manifest
        reading = read_image(load_image(scene.image), detector, **scene_setting(manifest))
        name = manifest.get("name", scene.image.stem)
        read += 1
        for truth in manifest["game"]["seats"]:
            k = int(truth["seat"])
            want, got = truth_face_up(truth), seat_face_up(reading.table.seats[k])
            if want == got:
                continue
            missed += 1
            cat = seat_category(want, got)
            cat += "" if in_view(manifest, truth) else " (not all in view)"
            seats[cat] += 1
            where[cat].append(f"{name}:{k}")
            for fate, n in tile_fates(manifest, k, reading.table.detections).items():
                fates[fate] += n
                where[fate].append(f"{name}:{k}")
        winner = winner_of(manifest)
        if winner is None:
            continue
        truth = manifest["game"]["seats"][winner]
        want = truth_face_up(truth)
        said = winner_category(reading.record, winner, *want[:2])
        if said is None:
            continue
        seat_cat = seat_category(want, seat_face_up(reading.table.seats[winner]))
        cat = f"{said}; seat: {seat_cat}"
        cat += "" if in_view(manifest, truth, flowers=False) else " (not all in view)"
        winners[cat] += 1
        where[cat].append(name)

    def show(title: str, counts: Counter[str]) -> None:
        print(f"{title} ({sum(counts.values())}):")
        for cat, n in counts.most_common():
            print(f"  {n:5d}  {cat:45s} {' '.join(where[cat][:args.examples])}")

    print(f"{args.tables}: {read} scenes, {missed} seats missed")
    show("seats missed, by what their face-up tiles show", seats)
    show("their face-up tiles in view, where each went", fates)
    show("winners missed, by what was recorded", winners)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
