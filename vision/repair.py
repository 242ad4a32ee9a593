"""The most probable legal reading of a table when the best reading is impossible.

A reading is impossible when it shows a fifth copy of a tile (or a flower twice) or when a seat
that must hold a finished hand does not. Every visible tile keeps its top-k classes with
probabilities; a change costs ``log p(best) - log p(alternative)``. Sets of changes are tried in
order of total cost (best-first subset enumeration), so the first legal one is the most probable
legal reading; the changed tiles are reported so the user can check them.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from scoring.tiles import FLOWERS, NUM_KINDS, NUM_TILES, TILE_NAMES, Tile, is_flower, suit_of
from vision.detections import TileDetections
from vision.geometry import MeldReading, SeatReading, TableReading

MAX_CHANGES = 3
MAX_TRIES = 20000
UNSEEN_COST = 9.2  # a kind outside a tile's top-k: as if the classifier gave it 1e-4
NOT_A_FLOWER = 2 * UNSEEN_COST  # a flower read as no flower: costlier than any other flower


@dataclass(frozen=True)
class Change:
    row: int  # detection row
    old: Tile
    new: Tile
    cost: float  # log-probability lost

    def __str__(self) -> str:
        return f"{TILE_NAMES[self.old]}->{TILE_NAMES[self.new]}"


@dataclass
class Repair:
    """The outcome: ``legal`` and the changes made, or why no legal reading was found."""

    legal: bool
    changes: list[Change] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # what was wrong with the best reading

    @property
    def changed_rows(self) -> set[int]:
        return {c.row for c in self.changes}


@dataclass
class _Slot:
    row: int
    kind: Tile
    where: tuple[str, int, int]  # (role, seat, meld index or -1)
    alternatives: list[tuple[Tile, float]]  # (kind, cost) excluding the current kind
    # a kind outside the top-k costs as if the classifier gave it 1e-4, from this tile's own
    # odds: changing an unsure tile costs less than a sure one (REALVAL15D live,
    # table_s30_000037: an unsure flower read as another seat's sure f3, and the sure one
    # changed to the missing flower, neither ranking it, at one flat cost)
    unseen: float = UNSEEN_COST


def _alternatives(dets: TileDetections, row: int, kind: Tile,
                  p_now: float) -> list[tuple[Tile, float]]:
    """The other kinds of a tile's top-k (flowers for a flower, tiles for a tile), each with
    the log-probability lost reading it instead of ``kind`` (``p_now``: its odds,
    :func:`_own_odds`). A flower may also be no flower at all, a tile of its top-k, but only
    after every flower, ranked or not (``NOT_A_FLOWER`` more): a box in the flower row on a
    discard or on a standing tile's side, read as a flower the table already shows, when the
    table shows all eight."""
    probs = dets.topk_probs[row]
    ids = dets.topk_ids[row]
    alts = [(int(t), max(float(np.log(max(p_now, 1e-9)) - np.log(max(float(p), 1e-9))), 0.0))
            for t, p in zip(ids, probs, strict=True)
            if 0 <= t < NUM_TILES and t != kind and p > 0
            and (is_flower(int(t)) == is_flower(kind) or is_flower(kind))]
    return [(t, c + NOT_A_FLOWER if is_flower(kind) and not is_flower(t) else c)
            for t, c in alts]


def _own_odds(dets: TileDetections, row: int, kind: Tile) -> float:
    """The classifier's odds of ``kind`` for a tile (its top kind's when ``kind`` is not
    among its top-k)."""
    probs = dets.topk_probs[row]
    return max((float(p) for t, p in zip(dets.topk_ids[row], probs, strict=True) if t == kind),
               default=float(probs[0]) if len(probs) else 1.0)


def _slot(dets: TileDetections, row: int, kind: Tile, where: tuple[str, int, int]) -> _Slot:
    """Tile ``row`` read as ``kind``, its alternatives and its cost of an unranked kind."""
    p_now = _own_odds(dets, row, kind)
    unseen = UNSEEN_COST + float(np.log(max(p_now, 1e-9)))
    return _Slot(row, kind, where, _alternatives(dets, row, kind, p_now), max(unseen, 0.0))


def _slots(reading: TableReading) -> list[_Slot]:
    dets = reading.detections
    out: list[_Slot] = []

    def add(row: int, where: tuple[str, int, int]) -> None:
        out.append(_slot(dets, row, int(dets.class_id[row]), where))

    for s in reading.seats:
        for r, part, i in s.face_up(dets.is_tile):
            if part != "flowers":  # a seat's flowers are among the roles below
                add(r, (part, s.seat, i if part == "meld" else -1))
    roles = dets.role
    for row in np.flatnonzero(np.isin(roles, ["discard", "flower", "indicator"])).tolist():
        add(row, (str(roles[row]), int(dets.seat[row]), -1))
    return out


def problems_of(kinds: Sequence[Tile], slots: Sequence[_Slot], reading: TableReading,
                must_complete: dict[int, Callable[[list[Tile]], bool]]) -> list[str]:
    """Why this assignment of kinds to slots is impossible (empty when it is legal)."""
    out: list[str] = []
    counts = _shown(kinds, reading)
    for t, n in sorted(counts.items()):
        limit = 1 if is_flower(t) else 4
        if n > limit:
            out.append(f"{n} copies of {TILE_NAMES[t]}")
    melds: dict[tuple[int, int], list[Tile]] = {}
    hands: dict[int, list[Tile]] = {}
    for k, slot in zip(kinds, slots, strict=True):
        role, seat, m_i = slot.where
        if role == "meld":
            melds.setdefault((seat, m_i), []).append(k)
        elif role == "hand":
            hands.setdefault(seat, []).append(k)
    for (seat, m_i), tiles in melds.items():
        meld = reading.seats[seat].melds[m_i]
        if not _meld_ok(meld, tiles):
            out.append(f"seat {seat} meld {m_i + 1} is no longer a {meld.type}")
    for seat, complete in must_complete.items():
        if not complete(hands.get(seat, [])):
            out.append(f"seat {seat} does not hold a finished hand")
    return out


def _meld_ok(meld: MeldReading, shown: list[Tile]) -> bool:
    if meld.type == "concealed_kong":
        return len(set(shown)) == 1 and shown[0] == meld.tiles[0]
    if meld.type == "chow":
        lo = min(shown)
        return (len(shown) == 3 and suit_of(lo) < 3 and sorted(shown) == [lo, lo + 1, lo + 2]
                and suit_of(lo + 2) == suit_of(lo))
    return len(set(shown)) == 1


def repair(reading: TableReading, must_complete: dict[int, Callable[[list[Tile]], bool]]
           | None = None, max_changes: int = MAX_CHANGES, max_tries: int = MAX_TRIES,
           keep: frozenset[int] = frozenset()) -> Repair:
    """The most probable legal reading; ``reading`` is updated in place when one is found.

    ``must_complete`` maps a seat to a test its concealed tiles must pass (a winner's hand);
    :func:`winning_test` builds one from a ruleset. The detection rows in ``keep`` keep their
    kinds (a winner's hand already settled). The search stops after ``max_tries`` readings
    tried (a live pipeline cannot wait), reporting the reading as not repaired; counting tries,
    not seconds, the same table gives the same reading however busy the machine is.
    """
    must = must_complete or {}
    first = _slots(reading)
    problems = problems_of([s.kind for s in first], first, reading, must)
    if not problems:
        return Repair(legal=True)
    # too many copies of a kind, one kind at a time (each its own small question), then the
    # search for the rest: a whole table read face up can hold more misreads than the search's
    # few changes, while the winner's hand needs only its own few
    slots = _fewer_copies(first, reading, keep)
    kinds = [s.kind for s in slots]
    shown = _shown(kinds, reading)
    over = {t for t, n in shown.items() if n > (1 if is_flower(t) else 4)}
    relevant = [i for i, s in enumerate(slots) if s.row not in keep
                and (s.kind in over or (s.where[0] == "hand" and s.where[1] in must))]
    moves = sorted(((c, i, t) for i in relevant for t, c in slots[i].alternatives),
                   key=lambda m: m[0])
    if not problems_of(kinds, slots, reading, must):
        return _done(reading, first, kinds, problems)
    found, stopped = _search(kinds, moves, lambda k: not problems_of(k, slots, reading, must),
                             max_changes, max_tries)
    if found is not None:
        return _done(reading, first, found, problems)
    if stopped:
        problems = [*problems, "search stopped before a legal reading was found"]
    return Repair(legal=False, problems=problems)


def finish_hand(reading: TableReading, seat: int, complete: Callable[[list[Tile]], bool],
                max_changes: int = MAX_CHANGES, max_tries: int = MAX_TRIES) -> Repair:
    """The most probable reading of one seat's concealed tiles that ``complete`` accepts, with
    no kind more than four times among that seat's own tiles; the rest of the table is not
    asked (a misread elsewhere, a fifth copy or a flower seen twice, must not cost a shown
    win). ``reading`` is updated in place when one is found (within ``max_tries``)."""
    first = [s for s in _slots(reading) if s.where[1] == seat and s.where[0] in ("hand", "meld")]
    hand = [i for i, s in enumerate(first) if s.where[0] == "hand"]

    def ok(kinds: Sequence[Tile]) -> bool:
        own = _shown([kinds[i] for i in range(len(first))], _only(reading, seat))
        return (all(n <= 4 for n in own.values())
                and complete([kinds[i] for i in hand]))

    kinds = [s.kind for s in first]
    if ok(kinds):
        return Repair(legal=True)
    moves = sorted(((c, i, t) for i in hand for t, c in first[i].alternatives),
                   key=lambda m: m[0])
    found, stopped = _search(kinds, moves, ok, max_changes, max_tries)
    if found is None:
        why = f"seat {seat} does not hold a finished hand"
        return Repair(legal=False, problems=[why] + (
            ["search stopped before a legal reading was found"] if stopped else []))
    changes = [Change(s.row, s.kind, k, _cost(s, k)) for s, k in zip(first, found, strict=True)
               if k != s.kind]
    _apply(reading, first, found)
    return Repair(legal=True, changes=changes)


def _only(reading: TableReading, seat: int) -> TableReading:
    """``reading`` with the melds of one seat only (for its concealed kongs' hidden copies)."""
    return replace(reading, seats=[s if s.seat == seat else SeatReading(seat=s.seat)
                                   for s in reading.seats])


def _search(kinds: Sequence[Tile], moves: list[tuple[float, int, Tile]],
            ok: Callable[[list[Tile]], bool], max_changes: int,
            max_tries: int) -> tuple[list[Tile] | None, bool]:
    """Best-first over sets of at most ``max_changes`` moves ``(cost, slot, kind)`` (sorted by
    cost): the cheapest assignment ``ok`` accepts within ``max_tries`` asked, and whether the
    search was cut short."""
    if not moves:
        return None, False
    heap: list[tuple[float, tuple[int, ...]]] = [(moves[0][0], (0,))]
    tries = 0
    while heap and tries < max_tries:
        cost, combo = heapq.heappop(heap)
        last = combo[-1]
        if last + 1 < len(moves):  # successors: swap the last move for the next, or add it
            nxt = last + 1
            heapq.heappush(heap, (cost - moves[last][0] + moves[nxt][0], (*combo[:-1], nxt)))
            if len(combo) < max_changes:
                heapq.heappush(heap, (cost + moves[nxt][0], (*combo, nxt)))
        slots_hit = [moves[j][1] for j in combo]
        if len(set(slots_hit)) != len(slots_hit):
            continue
        tries += 1
        trial = list(kinds)
        for j in combo:
            _, i, t = moves[j]
            trial[i] = t
        if ok(trial):
            return trial, False
    return None, bool(heap)


def _shown(kinds: Sequence[Tile], reading: TableReading) -> Counter[Tile]:
    """Copies of each kind on the table (a concealed kong shows 2 faces but holds 4)."""
    shown = Counter(kinds)
    for s in reading.seats:
        for m in s.melds:
            if m.type == "concealed_kong":
                shown[m.tiles[0]] += 2
    return shown



def _cost(slot: _Slot, kind: Tile) -> float:
    return 0.0 if kind == slot.kind else dict(slot.alternatives).get(kind, slot.unseen)


def _choices(slot: _Slot, kind: Tile) -> list[Tile]:
    """Kinds a tile now read as ``kind`` may be changed to: its top-k, and for a flower every
    flower (a set has one of each, so a flower seen twice is another one, even one the
    classifier did not rank: its hand can still be scored, the change shown)."""
    out = [t for t, _ in slot.alternatives]
    if is_flower(kind):
        out += [t for t in FLOWERS if t not in out and t != slot.kind]
    if slot.kind not in out:
        out.append(slot.kind)
    return [t for t in out if t != kind]


def _fewer_copies(slots: list[_Slot], reading: TableReading,
                  keep: frozenset[int] = frozenset()) -> list[_Slot]:
    """Slots with each kind shown too often brought down to its limit by the cheapest changes
    to kinds that stay within theirs (tiles in melds and rows in ``keep`` keep their kind),
    as new starting kinds."""
    dets = reading.detections
    kinds = [s.kind for s in slots]
    for _ in range(len(slots)):
        shown = _shown(kinds, reading)
        limit = {t: 1 if is_flower(t) else 4 for t in shown}
        over = [t for t, n in shown.items() if n > limit[t]]
        if not over:
            break
        best: tuple[float, int, Tile] | None = None
        for i, slot in enumerate(slots):
            if kinds[i] not in over or slot.where[0] == "meld" or slot.row in keep:
                continue
            for t in _choices(slot, kinds[i]):
                if shown.get(t, 0) >= (1 if is_flower(t) else 4):
                    continue
                c = _cost(slot, t) - _cost(slot, kinds[i])
                if best is None or c < best[0]:
                    best = (c, i, t)
        if best is None:
            break
        kinds[best[1]] = best[2]
    return [slot if k == slot.kind else
            _slot(dets, slot.row, k, slot.where)
            for slot, k in zip(slots, kinds, strict=True)]


def _done(reading: TableReading, slots: Sequence[_Slot], kinds: Sequence[Tile],
          problems: list[str]) -> Repair:
    """The legal reading ``kinds`` written into ``reading``, its changes from the first."""
    changes = [Change(s.row, s.kind, k, _cost(s, k)) for s, k in zip(slots, kinds, strict=True)
               if k != s.kind]
    _apply(reading, slots, kinds)
    return Repair(legal=True, changes=changes, problems=problems)


def _apply(reading: TableReading, slots: Sequence[_Slot], kinds: Sequence[Tile]) -> None:
    """Write the repaired kinds back into the detections and the seat readings."""
    dets: TileDetections = reading.detections
    class_id = dets.class_id.copy()
    for slot, k in zip(slots, kinds, strict=True):
        class_id[slot.row] = k
    reading.detections = dets.with_(class_id=class_id)
    by_row = dict(zip((s.row for s in slots), kinds, strict=True))
    for seat in reading.seats:
        seat.hand = [by_row.get(r, t) for r, t in zip(seat.hand_rows, seat.hand, strict=True)]
        seat.melds = [_meld_with(m, by_row) for m in seat.melds]
        _refresh_lists(seat, reading)
    ind = np.flatnonzero(dets.role == "indicator")
    if len(ind):
        reading.indicator = int(class_id[ind[np.argmax(dets.confidence[ind])]])


def _meld_with(meld: MeldReading, by_row: dict[int, Tile]) -> MeldReading:
    if meld.type == "concealed_kong":
        return meld
    tiles = tuple(by_row.get(r, t) for r, t in zip(meld.rows, meld.tiles, strict=True))
    return replace(meld, tiles=tiles)


def _refresh_lists(seat: SeatReading, reading: TableReading) -> None:
    """A seat's flowers and discards as now read; a flower read anew as a tile is none of the
    seat's (left outside)."""
    dets = reading.detections
    kinds = dets.class_id
    gone = [r for r in seat.flower_rows if not is_flower(int(kinds[r]))]
    if gone:
        role, seat_of = dets.role.copy(), dets.seat.copy()
        role[gone], seat_of[gone] = "outside", -1
        reading.detections = dets.with_(role=role, seat=seat_of)
        seat.flower_rows = [r for r in seat.flower_rows if r not in gone]
    seat.flowers = [int(kinds[r]) for r in seat.flower_rows]
    seat.discards = [int(kinds[r]) for r in seat.discard_rows]


def winning_test(ruleset: str | None, melds: tuple = (), options: dict | None = None,
                 context: dict | None = None) -> Callable[[list[Tile]], bool]:
    """A test that a concealed part is a finished hand: the ruleset's own when it is
    implemented, the standard shape or seven pairs otherwise."""
    from scoring.waiting import rules_and_options

    rs, opts = rules_and_options(ruleset, options, lenient=True)
    ctx = context or {}
    return lambda hand: (len(hand) % 3 == 2 and all(t < NUM_KINDS for t in hand)
                         and rs.is_winning_hand(list(hand), melds, opts, ctx))
