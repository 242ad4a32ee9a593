"""What Shandong forbids in a record that the core format allows; each error names the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import Decomposition
from scoring.errors import InvalidHand, RecordError
from scoring.record import HandRecord, Win
from scoring.rulesets.shandong.shapes import winning_readings
from scoring.tiles import is_flower


def validate(record: HandRecord, options: Mapping[str, Any]) -> dict[int, list[Decomposition]]:
    """Refuse what Shandong forbids; the winning readings of each winner, found once."""
    found: dict[int, list[Decomposition]] = {}
    for i, win in enumerate(record.wins):
        where = f"wins[{i}]"
        if is_flower(win.tile):
            raise InvalidHand("Shandong has no win by flowers (八花齐 is a Shanghai hand); "
                              "flowers are set aside and replaced", f"{where}.tile",
                              reason="flower_win")
        _check_minglou(record, win, where)
        _check_first_turn(record, win, where)
        _check_replacement(record, win, where)
        seat = record.seats[win.seat]
        found[win.seat] = winning_readings(seat.concealed, seat.melds,
                                           options["qidui_four_of_a_kind"],
                                           where=f"seats[{win.seat}]")
    return found


def _check_minglou(record: HandRecord, win: Win, where: str) -> None:
    if record.seats[win.seat].declared == "minglou" and not win.is_self_draw:
        how = "on a discard" if win.by == "discard" else "by 抢杠"
        raise InvalidHand(f"seat {win.seat} declared 明楼 and may win only by self-draw, "
                          f"not {how}", f"{where}.by", reason="minglou_not_self_draw")


def _check_first_turn(record: HandRecord, win: Win, where: str) -> None:
    if not win.first_turn:
        return
    if win.seat == record.dealer and not win.is_self_draw:
        raise RecordError("the dealer's first-turn win (天和) is its dealt hand, so it is "
                          "self-drawn", f"{where}.first_turn")
    for k, seat in enumerate(record.seats):
        if seat.is_open:
            raise RecordError(f"a first-turn win (天和/地和) comes before any claim, but "
                              f"seat {k} shows a claimed meld", f"{where}.first_turn")
    if any(m.type == "concealed_kong" for m in record.seats[win.seat].melds) and (
            win.replacement is None):
        # a 暗杠 declared before the first discard draws a replacement, and the win can only
        # be on that (or on a flower's replacement after it): a dealt-complete hand shows no kong
        raise RecordError(f"seat {win.seat} shows a 暗杠, declared before its first discard, "
                          "so a first-turn win after it is the self-drawn replacement tile "
                          "(replacement 'kong' or 'flower')", f"{where}.first_turn")
    if win.by == "discard":
        # before the winner's own first discard only the seats from the dealer up to its 上家
        # have discarded
        assert win.from_seat is not None
        if (win.from_seat - record.dealer) % 4 > (win.seat - record.dealer) % 4:
            raise RecordError(f"a first-turn win (地和) comes before the winner's own first "
                              f"discard, but seat {win.from_seat} discards after seat "
                              f"{win.seat} in the first go-around (dealer {record.dealer})",
                              f"{where}.first_turn")


def _check_replacement(record: HandRecord, win: Win, where: str) -> None:
    """The core checks the kong or flower replaced and the fed kong; Shandong also needs to
    know who fed a replacement kong, since 杠爆 makes that seat pay 3S."""
    seat = record.seats[win.seat]
    fed = win.kong_fed_by
    feeders = {m.from_seat for m in seat.melds if m.type == "exposed_kong"}
    if (win.replacement == "kong" and fed is None and len(feeders) == 1
            and all(m.type == "exposed_kong" for m in seat.melds if m.is_kong)):
        # the kong the replacement came from can only be a 明杠 fed by that seat: 杠爆
        (only,) = feeders
        raise RecordError(f"every kong of the winner is an exposed_kong claimed from seat "
                          f"{only}, so the replacement came from a kong that seat fed: set "
                          f"kong_fed_by to {only} (杠爆: it pays 3S)", f"{where}.kong_fed_by")
