"""A fourth, toy ruleset that exists only in the tests: it proves a ruleset plugs in through the
registry (``scoring.rulesets.registry.register``) with no change outside its own folder.

The rules: 136 tiles, no flowers, one roll of the dealer; any standard shape or seven pairs wins.
A self-draw takes ``point`` from each other player, a discard 3 × ``point`` from the
discarder (several winners on one discard each take theirs). The dealer keeps the deal when it
wins or the hand is drawn. A leaver pays ``point`` to each other player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import is_complete
from scoring.errors import InvalidHand, RecordError
from scoring.record import HandRecord
from scoring.rulesets.base import RuleOptions, Ruleset, WallBreak, at_least_one, option
from scoring.settlement import Item, Settlement, Transfer, WinScore


@dataclass(frozen=True)
class ToyOptions(RuleOptions):
    point: int = option(1, "what a self-draw takes from each loser (a discard: three times it)")

    def check(self) -> None:
        at_least_one(self, "point")


class ToyRuleset(Ruleset):
    name = "toy"
    title = "玩具麻将"
    label = ("Toy", "玩具")
    summary = "a test's ruleset: any complete hand wins a fixed point"
    options = ToyOptions.specs()
    Options = ToyOptions
    multi_win = True

    def score(self, record: HandRecord) -> Settlement:
        opts: ToyOptions = self.opts(record)
        if record.outcome == "draw":
            return Settlement(self.name, "draw", [0, 0, 0, 0], [], record.dealer, {})
        transfers: list[Transfer] = []
        wins = []
        for i, w in enumerate(record.wins):
            seat = record.seats[w.seat]
            if not is_complete(list(seat.concealed), seven_pairs=not seat.melds):
                raise InvalidHand("not a complete hand", f"seats[{w.seat}]",
                                  reason="not_winning")
            if w.by == "self_draw":
                transfers += [Transfer(k, w.seat, opts.point, "self-draw", "自摸")
                              for k in range(4) if k != w.seat]
            elif w.from_seat is not None:
                transfers.append(Transfer(w.from_seat, w.seat, 3 * opts.point, "discard", "点炮"))
            else:
                raise RecordError("a win by discard names its discarder", f"wins[{i}].from")
            wins.append(WinScore(w.seat, "和", [Item("和", opts.point, "point")], opts.point))
        dealer_won = record.dealer in record.winners
        return Settlement(self.name, "win", Settlement.payments_from(transfers), wins,
                          record.dealer if dealer_won else (record.dealer + 1) % 4, {},
                          transfers=transfers)

    def wall_break(self, dealer: int, rolls: Sequence[tuple[int, int]],
                   options: Mapping[str, Any]) -> WallBreak:
        if len(rolls) != 1:
            raise ValueError(f"the toy dealer rolls once, got {len(rolls)} rolls")
        total = sum(rolls[0])
        wall = (dealer + total - 1) % 4
        return WallBreak((dealer,), wall, total, explanation=f"{total}: seat {wall}'s wall")

    def escape_penalty(self, leaver: int, flower_points: int,
                       options: Mapping[str, Any]) -> list[Transfer]:
        point = self.typed(options).point
        return [Transfer(leaver, k, point, "escape", "逃跑") for k in range(4) if k != leaver]


TOY = ToyRuleset()
