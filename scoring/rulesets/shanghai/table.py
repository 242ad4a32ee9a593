"""Table procedures that are not scoring: breaking the wall and the escape penalty."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.errors import RecordError
from scoring.rulesets.base import WallBreak
from scoring.settlement import Transfer

ESCAPE_TO_PLAYERS = 0.75  # of one 底; the other 25% is the room's fee and leaves the table
#: 换牌 (option ``exchange``): after the deal each player may bury this many tiles and swap them
#: with wall tiles, within EXCHANGE_SECONDS ("玩家將有15秒的時間埋下自己手中的五張牌")
EXCHANGE_TILES = 5
EXCHANGE_SECONDS = 15
#: the turn clock: 20 s to discard (else the drawn tile goes out) or to answer a claim prompt
#: (else it lapses): "玩家選擇打出牌的時間為20秒倒計時"
TURN_SECONDS = 20


def wall_break(dealer: int, rolls: Sequence[tuple[int, int]]) -> WallBreak:
    """The dealer rolls two dice once; the sum counts players in play order, then stacks.

    Counting counter-clockwise from the roller (roller = 1) is counting in play order, so the
    wall stands before seat ``dealer + sum - 1``; that many stacks are counted clockwise on it.
    """
    if len(rolls) != 1:
        raise RecordError(f"Shanghai breaks the wall with one roll of two dice, got {len(rolls)}",
                          "dice")
    d1, d2 = rolls[0]
    for d in (d1, d2):
        if not 1 <= d <= 6:
            raise RecordError(f"a die shows 1..6, got {d}", "dice")
    total = d1 + d2
    wall = (dealer + total - 1) % 4
    return WallBreak(rollers=(dealer,), wall_seat=wall, stacks_skipped=total,
                     explanation=f"dice {d1}+{d2}={total}: count {total} players from the "
                                 f"dealer (seat {dealer} = 1) to seat {wall}'s wall, skip "
                                 f"{total} stacks clockwise and draw after them")


def escape_penalty(leaver: int, options: Mapping[str, Any]) -> list[Transfer]:
    """The leaver pays one 底; 75% of it is shared equally by the other three players.

    The remaining 25% (the room's fee) leaves the table and is not a transfer between seats:
    the leaver's loss is ``sum(amounts) + escape_room_fee(options)``. Amounts are ``int`` when
    whole, otherwise ``float``; with an integer 底 each share is 底/4, a multiple of 1/4, which
    a float holds exactly.
    """
    if not 0 <= leaver <= 3:
        raise RecordError(f"seat number {leaver} is out of range 0..3", "leaver")
    share = _number(options["base"] * ESCAPE_TO_PLAYERS / 3)
    return [Transfer(leaver, k, share, "逃跑: 75% of one 底, shared by the other three",
                     "逃跑：一个底的75%，其他三家平分")
            for k in range(4) if k != leaver]


def escape_room_fee(options: Mapping[str, Any]) -> int | float:
    """The 25% of the escape penalty that goes to the room, not to a player."""
    return _number(options["base"] * (1 - ESCAPE_TO_PLAYERS))


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)
