"""The Shanghai ruleset (shared/rules/shanghai.md): special hands only, 勒子 caps, 承包."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scoring.record import HandRecord, Meld, Win
from scoring.rulesets.base import Ruleset, WallBreak, WinnerFacts
from scoring.rulesets.shanghai import payments, table
from scoring.rulesets.shanghai.contracts import contracts
from scoring.rulesets.shanghai.evaluator import ShareResult, evaluate, qualifying_patterns
from scoring.rulesets.shanghai.hand import HandFacts
from scoring.rulesets.shanghai.louhu import may_win_on_discard
from scoring.rulesets.shanghai.options import OPTIONS, ShanghaiOptions
from scoring.settlement import Number, Settlement, Transfer, WinScore, explained_item
from scoring.tiles import TILE_NAMES


def _draw_note(huangfan: int, next_huangfan: int) -> tuple[str, str]:
    return (f"drawn hand: nobody pays, 荒番 {huangfan} -> {next_huangfan}, dealer stays",
            f"和局：无人付分，荒番 {huangfan} -> {next_huangfan}，庄家连庄")


class ShanghaiRuleset(Ruleset):
    name = "shanghai"
    title = "上海麻将"
    label = ("Shanghai", "上海")
    summary = "144 tiles with flowers, special hands only, 勒子 caps, 承包, 漏胡"
    options = OPTIONS
    Options = ShanghaiOptions
    record_fields = frozenset({"context.huangfan"})
    wall_tiles = 144
    has_flowers = True
    rolls = 1
    multi_win = True
    counters = ("huangfan",)
    louhu = True
    exchange_tiles = table.EXCHANGE_TILES
    clock_seconds: ClassVar[Mapping[str, float]] = {
        "exchange": table.EXCHANGE_SECONDS, "discard": table.TURN_SECONDS,
        "claim": table.TURN_SECONDS}
    detail_labels: ClassVar[Mapping[str, tuple[str, str]]] = {
        "value": ("value before the cap", "封顶前数值"), "cap": ("cap", "封顶"),
        "floors": ("raised to 1 勒子 by", "保底1勒子"), "contracts": ("承包 contracts", "承包"),
        "claimer": ("seat that claimed", "吃碰杠者座位"), "feeder": ("seat fed", "被吃碰杠者座位"),
        "claims": ("claims", "次数"), "huangfan": ("荒番 counter", "荒番"),
    }

    def validate(self, record: HandRecord) -> None:
        """Refuse a win with no pattern (impossible records are refused by the core)."""
        opts = self.opts(record)
        for w in record.wins:
            evaluate(HandFacts.of(record, w), opts)

    def score(self, record: HandRecord) -> Settlement:
        opts = self.opts(record)
        huangfan = payments.next_huangfan(record)
        if record.outcome == "draw":
            return Settlement(
                ruleset=self.name, outcome="draw", payments=[0, 0, 0, 0], wins=[],
                next_dealer=record.dealer, context={"huangfan": huangfan},
                items=[explained_item("和局", 0, "point", _draw_note,
                                      (record.context.huangfan, huangfan))])
        results: dict[int, ShareResult] = {
            w.seat: evaluate(HandFacts.of(record, w), opts) for w in record.wins}
        shares = {seat: r.share for seat, r in results.items()}
        transfers = payments.win_transfers(record, shares, opts)
        le = int(opts["le"])
        refunds, cap_items = payments.apply_hand_cap(transfers, int(opts["hand_cap_le"]) * le)
        transfers = transfers + refunds
        wins = [WinScore(seat=s, pattern=r.pattern, items=r.items, share=r.share,
                         details=r.details) for s, r in results.items()]
        return Settlement(
            ruleset=self.name, outcome="win",
            payments=Settlement.payments_from(transfers), wins=wins,
            next_dealer=payments.next_dealer(record, opts),
            context={"huangfan": huangfan}, transfers=transfers, items=cap_items,
            details={"contracts": [c.to_json() for c in contracts(record)]})

    def is_winning_hand(self, concealed: list[int], melds: tuple[Meld, ...],
                        options: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
        """A 14-tile hand that makes one of the Shanghai patterns (八花齐 is not a shape)."""
        if not concealed or len(concealed) + 3 * len(melds) != 14:
            return False
        win = Win(seat=0, tile=concealed[-1], by="self_draw")
        hand = HandFacts(0, tuple(concealed), melds, (), win)
        return bool(qualifying_patterns(hand))

    def wall_break(self, dealer: int, rolls: Sequence[tuple[int, int]],
                   options: Mapping[str, Any]) -> WallBreak:
        return table.wall_break(dealer, rolls)

    def win_refusal(self, facts: WinnerFacts, options: Mapping[str, Any]) -> str | None:
        if facts.by == "discard" and not may_win_on_discard(facts.tile, facts.passed):
            return (f"漏胡: seat {facts.seat} passed on {TILE_NAMES[facts.tile]} while it would "
                    "win and has not drawn, claimed or konged since")
        return None

    def exchange_on(self, options: Mapping[str, Any]) -> bool:
        return bool(self.typed(options).exchange)

    def escape_room_fee(self, options: Mapping[str, Any]) -> Number:
        return table.escape_room_fee(self.typed(options))

    def escape_penalty(self, leaver: int, flower_points: int,
                       options: Mapping[str, Any]) -> list[Transfer]:
        """One 底 from the leaver, 75% of it shared by the other three (see
        :func:`table.escape_penalty`); flowers do not matter here. The match engine also resets
        the 荒番 counter to 0 when a player leaves."""
        return table.escape_penalty(leaver, self.typed(options))
