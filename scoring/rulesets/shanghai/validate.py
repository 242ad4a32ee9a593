"""What Shanghai forbids in a record that the core format allows; each error names the field.

承包 is derived from the melds' ``from`` fields and the 杠开 floor from ``replacement``, so a
record whose melds or replacement cannot have happened would move points: it is refused.
"""

from __future__ import annotations

from scoring.errors import RecordError
from scoring.record import HandRecord, Win
from scoring.tiles import TILE_NAMES

MAX_MELDS = 4  # 4 sets + a pair: a fifth meld cannot exist


def validate_record(record: HandRecord) -> None:
    for k, seat in enumerate(record.seats):
        if len(seat.melds) > MAX_MELDS:
            raise RecordError(f"seat {k} shows {len(seat.melds)} melds; a hand holds at most "
                              f"{MAX_MELDS} (承包 is counted from these melds)",
                              f"seats[{k}].melds")
    for i, win in enumerate(record.wins):
        where = f"wins[{i}]"
        _check_replacement(record, win, where)
        _check_rob(record, win, where)


def _check_replacement(record: HandRecord, win: Win, where: str) -> None:
    """杠开 needs the kong or flower that was replaced; 杠爆 needs the fed exposed kong."""
    seat = record.seats[win.seat]
    if win.replacement == "kong" and not any(m.is_kong for m in seat.melds):
        raise RecordError("a win on a kong's replacement tile (杠开) needs a kong among the "
                          "winner's melds", f"{where}.replacement")
    if win.replacement == "flower" and not seat.flowers:
        raise RecordError("a win on a flower's replacement tile (杠开) needs a flower among "
                          "the winner's flowers", f"{where}.replacement")
    fed = win.kong_fed_by
    if fed is not None and not any(m.type == "exposed_kong" and m.from_seat == fed
                                   for m in seat.melds):
        raise RecordError(f"kong_fed_by needs an exposed_kong claimed from seat {fed} among "
                          "the winner's melds", f"{where}.kong_fed_by")


def _check_rob(record: HandRecord, win: Win, where: str) -> None:
    """Only a 补杠 can be robbed: the robbed seat still shows the pung it was adding to."""
    if win.by != "rob_kong":
        return
    assert win.from_seat is not None
    robbed = record.seats[win.from_seat]
    if not any(m.type == "pung" and m.kind == win.tile for m in robbed.melds):
        raise RecordError(f"only a 补杠 can be robbed (抢杠): seat {win.from_seat} has no pung "
                          f"of {TILE_NAMES[win.tile]} to add to", f"{where}.from")
