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
from vision.geometry import SeatReading, TableReading
from vision.labels import BACK_CLASS
from vision.unsure import is_unsure

SEAT_ROLES = ("hand", "meld", "flower")  # a seat's face-up tiles that its score counts


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
    states once). Seats lie a quarter turn apart around the table, 0, 1, 2, 3 counterclockwise
    seen from above: the turn that fits the directions from the table's centre to every seat's
    objects, all roles together, best, and the seat it puts straight below the centre. One
    turn for all seats, not the lowest seat alone: on a table turned some 30 degrees the lowest
    objects may be a neighbour's, and a seat with nothing labeled (out of the picture) would
    leave the lowest of the others to be taken for it."""
    at: dict[int, list[list[float]]] = {}
    for obj in manifest["objects"]:
        if obj.get("seat") is not None:
            x0, y0, x1, y1 = obj["xyxy"]
            at.setdefault(int(obj["seat"]), []).append([(x0 + x1) / 2, (y0 + y1) / 2])
    if not at:
        raise ValueError("the manifest places no object at a seat: no way to tell which seat "
                         "is at the bottom (give 'bottom_seat')")
    mid = {k: np.mean(v, axis=0) for k, v in at.items()}
    centre = np.mean(list(mid.values()), axis=0)
    # in the picture (y down) seat k lies a quarter turn clockwise of seat k - 1: turned back
    # by k quarter turns, every seat's direction estimates seat 0's
    zero = sum(np.exp(1j * (np.arctan2(*(v - centre)[::-1]) + k * np.pi / 2))
               for k, v in mid.items())
    down = np.pi / 2
    return min(range(4), key=lambda k: abs(np.angle(np.exp(1j * (np.angle(zero)
                                                                 - k * np.pi / 2 - down)))))


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


# ---------------------------------------------------------------- whole-table scores


def winner_of(manifest: dict[str, Any]) -> int | None:
    """The seat that won: ``game.winner`` when given, else the first of ``game.wins`` (a saved
    example's confirmed record), else the generator's rule (at a showdown every hand is laid
    down and the seat to play holds the finished hand)."""
    game = manifest["game"]
    if "winner" in game:
        return None if game["winner"] is None else int(game["winner"])
    if "wins" in game:
        return int(game["wins"][0]["seat"]) if game["wins"] else None
    k = game.get("to_play")
    return int(k) if k is not None and game["seats"][int(k)].get("revealed") else None


def in_view(manifest: dict[str, Any], truth: dict[str, Any], flowers: bool = True,
            min_visible: float = 0.5) -> bool:
    """Every face-up tile of the seat ``truth`` (one of ``game.seats``: its hand when laid
    down, its melds' faces, and its flowers unless ``flowers`` is false) is labeled and at
    least ``min_visible`` seen: a tile covered by a hand or cut off by the frame cannot be
    read, so a seat's reading can be right only when this holds."""
    seat = int(truth["seat"])
    want = len(parse_tiles(truth["concealed"])) if truth.get("revealed") else 0
    want += sum(2 if m["type"] == "concealed_kong" else len(parse_tiles(m["tiles"]))
                for m in truth["melds"])
    roles = ("hand", "meld", "flower") if flowers else ("hand", "meld")
    want += len(truth["flowers"]) if flowers else 0
    seen = sum(1 for o in manifest["objects"]
               if o.get("seat") == seat and o["role"] in roles and o["tile"] not in ("back", "die")
               and (o["role"] != "hand" or truth.get("revealed"))
               and o.get("visible", 1.0) >= min_visible)
    return seen >= want


def truth_face_up(truth: dict[str, Any]) -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """A seat's face-up tiles as compared: hand (sorted; none when hidden), melds, flowers."""
    hand = sorted(parse_tiles(truth["concealed"])) if truth.get("revealed") else []
    melds = sorted(tuple(sorted(parse_tiles(m["tiles"]))) for m in truth["melds"])
    return hand, melds, sorted(tile_from_name(f) for f in truth["flowers"])


def seat_face_up(seat: SeatReading) -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """A seat's face-up tiles as read, in the form :func:`truth_face_up` gives the truth's."""
    return (sorted(seat.hand), sorted(tuple(sorted(m.tiles)) for m in seat.melds),
            sorted(seat.flowers))


def recorded_tiles(record: dict[str, Any] | None, seat: int
                   ) -> tuple[list[int], list[tuple[int, ...]]]:
    """A seat's concealed tiles (sorted) and melds as a hand record gives them, in the form
    :func:`truth_face_up` gives the truth's; none where there is no record."""
    seats = (record or {}).get("seats") or []
    seat_json = seats[seat] if seats else {}
    return (sorted(parse_tiles(seat_json.get("concealed", ""))),
            sorted(tuple(sorted(parse_tiles(m["tiles"]))) for m in seat_json.get("melds", [])))


def win_recorded(record: dict[str, Any] | None, seat: int, hand: list[int],
                 melds: list[tuple[int, ...]]) -> bool:
    """Whether a hand record names ``seat`` its winner with these concealed tiles and melds
    (each in the form :func:`truth_face_up` gives them)."""
    wins = (record or {}).get("wins") or [{}]
    return wins[0].get("seat") == seat and recorded_tiles(record, seat) == (hand, melds)


@dataclass
class TableScore:
    """What ``mjtable eval --tables`` counts over scenes (one field pair: right, total)."""

    scenes: int = 0
    seats: list[int] = field(default_factory=lambda: [0, 0])  # face-up tiles exactly right
    winners: list[int] = field(default_factory=lambda: [0, 0])  # winner's hand exactly right
    # the same, of the seats (winners) whose face-up tiles are all in view (:func:`in_view`)
    seats_in_view: list[int] = field(default_factory=lambda: [0, 0])
    winners_in_view: list[int] = field(default_factory=lambda: [0, 0])
    tiles: list[int] = field(default_factory=lambda: [0, 0])  # read right, at the right seat
    wrong_seat: int = 0  # face-up tiles found but given to another seat
    missed: int = 0  # face-up tiles no box was found for
    dice: list[int] = field(default_factory=lambda: [0, 0])  # dice found with the right face
    rolls: list[int] = field(default_factory=lambda: [0, 0])  # scenes whose roll read right
    backs: list[int] = field(default_factory=lambda: [0, 0])  # labeled backs found as backs
    back_boxes: int = 0  # boxes read as face-down tiles
    hidden: list[int] = field(default_factory=lambda: [0, 0])  # hidden hands counted right
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    # per source photo of a face-up tile (real-face scenes name it): placements, and those
    # misread or not found, so a draw's misreads are traced to the few hard faces they share
    placed: Counter[str] = field(default_factory=Counter)
    misread: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)
    # face-up tiles at the seats (hand, melds, flowers) found: those marked unsure
    # (:mod:`vision.unsure`) of the misread ones, and of the ones read right
    unsure_misread: list[int] = field(default_factory=lambda: [0, 0])
    unsure_right: list[int] = field(default_factory=lambda: [0, 0])

    def __iadd__(self, other: TableScore) -> TableScore:
        self.scenes += other.scenes
        for name in ("seats", "winners", "seats_in_view", "winners_in_view", "tiles", "dice",
                     "rolls", "backs", "hidden", "unsure_misread", "unsure_right"):
            mine, theirs = getattr(self, name), getattr(other, name)
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        self.wrong_seat += other.wrong_seat
        self.missed += other.missed
        self.back_boxes += other.back_boxes
        self.confusions.update(other.confusions)
        self.placed.update(other.placed)
        self.misread.update(other.misread)
        self.misses += other.misses
        return self


def score_reading(reading: Any, manifest: dict[str, Any], min_visible: float = 0.5
                  ) -> TableScore:
    """One scene: an :class:`vision.reading.ImageReading` (after repair, as ``mjtable read``
    gives it) against the scene's manifest."""
    from vision.metrics import greedy_pairs

    out = TableScore(scenes=1)
    name = manifest.get("name", "?")
    table, dets = reading.table, reading.detections
    for truth in manifest["game"]["seats"]:
        k = int(truth["seat"])
        seat = table.seats[k]
        want = truth_face_up(truth)
        got = seat_face_up(seat)
        ok = want == got
        out.seats[0] += ok
        out.seats[1] += 1
        if in_view(manifest, truth, min_visible=min_visible):
            out.seats_in_view[0] += ok
            out.seats_in_view[1] += 1
        if not ok:
            out.misses.append(f"{name} seat {k}: read {format_seat(*got)}, is "
                              f"{format_seat(*want)}")
    winner = winner_of(manifest)
    if winner is not None:
        truth = manifest["game"]["seats"][winner]
        want_hand, want_melds, _ = truth_face_up(truth)
        ok = win_recorded(reading.record, winner, want_hand, want_melds)
        out.winners[0] += ok
        out.winners[1] += 1
        if in_view(manifest, truth, flowers=False, min_visible=min_visible):
            out.winners_in_view[0] += ok
            out.winners_in_view[1] += 1
        if not ok:
            wins = (reading.record or {}).get("wins") or [{}]
            got_hand, got_melds = recorded_tiles(reading.record, winner)
            said = f"a win by seat {wins[0]['seat']}" if "seat" in wins[0] else "no win"
            out.misses.append(f"{name} winner seat {winner}: recorded {said}, "
                              f"{format_seat(got_hand, got_melds, [])}; is "
                              f"{format_seat(want_hand, want_melds, [])}")
    # a saved example's tiles that no person confirmed ("checked": false) are no ground truth
    objects = [o for o in manifest["objects"] if o.get("visible", 1.0) >= min_visible
               and o.get("checked", True)]
    faces = [o for o in objects if o["tile"] not in ("die", "back")]
    pairs = greedy_pairs(np.array([o["xyxy"] for o in faces], float).reshape(-1, 4), dets.xyxy)
    labels = dets.labels
    for g, p in pairs:
        obj = faces[g]
        out.tiles[1] += 1
        source = obj.get("photo")
        if source:
            out.placed[source] += 1
            out.misread[source] += p is None or labels[p] != obj["tile"]
        if p is None:
            out.missed += 1
            continue
        right_seat = obj.get("seat") is None or int(dets.seat[p]) == int(obj["seat"])
        out.wrong_seat += not right_seat
        out.tiles[0] += labels[p] == obj["tile"] and right_seat
        if obj.get("role") in SEAT_ROLES:
            marks = out.unsure_misread if labels[p] != obj["tile"] else out.unsure_right
            marks[0] += is_unsure(dets, p)
            marks[1] += 1
        if labels[p] != obj["tile"]:
            out.confusions[(obj["tile"], labels[p])] += 1
    dice = [o for o in objects if o["tile"] == "die"]
    die_rows = np.flatnonzero(dets.is_die)
    for g, p in greedy_pairs(np.array([o["xyxy"] for o in dice], float).reshape(-1, 4),
                             dets.xyxy[die_rows]):
        out.dice[1] += 1
        out.dice[0] += p is not None and int(dets.face[die_rows[p]]) == int(dice[g]["face"])
    roll = manifest.get("dice") or manifest["game"].get("dice")
    if roll:
        seen = tuple(sorted(reading.dice.faces)) if reading.dice is not None else ()
        out.rolls[0] += seen == tuple(sorted(roll))
        out.rolls[1] += 1
    backs = [o for o in objects if o["tile"] == "back"]
    back_rows = np.flatnonzero(dets.is_back)
    out.back_boxes = len(back_rows)
    out.backs[1] = len(backs)
    out.backs[0] = sum(p is not None for _, p in greedy_pairs(
        np.array([o["xyxy"] for o in backs], float).reshape(-1, 4), dets.xyxy[back_rows]))
    for truth in manifest["game"]["seats"]:
        if truth.get("revealed"):
            continue
        k = int(truth["seat"])
        n = sum(1 for o in backs if o.get("seat") == k and o["role"] == "hand")
        out.hidden[0] += table.seats[k].hidden == n and not table.seats[k].hand
        out.hidden[1] += 1
    return out


def format_seat(hand: list[int], melds: list[tuple[int, ...]], flowers: list[int]) -> str:
    """A seat's face-up tiles in the usual notation: ``hand [meld] [meld] +flowers``."""
    from scoring.tiles import format_tiles

    parts = [format_tiles(hand, sort=True) or "-"]
    parts += [f"[{format_tiles(m, sort=True)}]" for m in melds]
    if flowers:
        parts.append("+" + format_tiles(flowers, sort=True))
    return " ".join(parts)
