"""The Shandong ruleset: validation, scoring and table procedures behind the Ruleset interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scoring.errors import InvalidHand
from scoring.record import HandRecord, Meld, Seat
from scoring.rulesets.base import Ruleset, WallBreak, WinnerFacts
from scoring.rulesets.shandong import settle, table
from scoring.rulesets.shandong.evaluator import evaluate
from scoring.rulesets.shandong.hua import hua_points
from scoring.rulesets.shandong.levels import level_for
from scoring.rulesets.shandong.options import OPTIONS, ShandongOptions
from scoring.rulesets.shandong.shapes import readings
from scoring.rulesets.shandong.validate import validate
from scoring.settlement import Item, Number, Settlement, Transfer, explained_item


def _liable_note(liable: int, claims: int) -> tuple[str, str]:
    return (f"seat {liable} is liable: the winner made {claims} claims on its discards, "
            "so it pays all this win collects",
            f"{liable}号座位承包：赢家吃碰杠其牌 {claims} 次，本次和牌所得全由其支付")


class ShandongRuleset(Ruleset):
    name = "shandong"
    title = "山东麻将"
    label = ("Shandong", "山东")
    summary = "144 tiles with flowers, 番 × (底 + 花), 明楼/暗楼, levels"
    options = OPTIONS
    Options = ShandongOptions
    record_fields = frozenset({"context.huangzhuang_streak", "seats.declared"})
    wall_tiles = 144
    has_flowers = True
    rolls = 2  # the dealer rolls twice
    multi_win = True
    counters = ("huangzhuang_streak",)
    declarations = ("minglou", "anlou")
    wall_end = f"{table.STACKS_LEFT_AT_DRAW} stacks remain"
    detail_labels: ClassVar[Mapping[str, tuple[str, str]]] = {
        "fan": ("fan", "番"), "hua": ("flower points", "花"), "multiplier": ("multiplier", "倍数"),
        "formula": ("S = (底 + 花) × 番 × multipliers", "每份算式"), "reading": ("reading", "拆分"),
        "chengbao_payer": ("承包 liable seat", "承包者座位"),
        "huangzhuang_streak": ("drawn hands in a row", "连续荒庄"),
    }

    def validate(self, record: HandRecord) -> None:
        validate(record, self.opts(record))

    def score(self, record: HandRecord) -> Settlement:
        opts = self.opts(record)
        found = validate(record, opts)
        scores = []
        transfers: list[Transfer] = []
        for win in record.wins:
            value = evaluate(record, win, opts, found[win.seat])
            score = value.to_score()
            liable = settle.chengbao_payer(record, win.seat)
            if liable is not None:
                claims = record.seats[win.seat].claims_on(liable)
                score.items.append(explained_item("承包", claims, "claims", _liable_note,
                                                  (liable, claims)))
                score.details["chengbao_payer"] = liable
            scores.append(score)
            transfers += settle.win_transfers(record, win, value.share)
        items: list[Item] = []
        k = settle.next_streak(record)
        if record.outcome == "draw":
            items.append(Item("荒庄", k, "count", "drawn hand: nobody pays; streak +1",
                               "荒庄：无人付分；荒庄计数加1"))
        return Settlement(ruleset=self.name, outcome=record.outcome,
                          payments=Settlement.payments_from(transfers), wins=scores,
                          next_dealer=settle.next_dealer(record),
                          context={"huangzhuang_streak": k}, transfers=transfers, items=items)

    def drawable(self, undrawn: int, hun_discarded: int = 0, tail_drawn: int = 0) -> int:
        """Stacks are counted: the deal leaves the front stack with one tile (53 dealt) and
        each front draw takes the top tile then the bottom one, so after an odd number of
        replacements (``tail_drawn``) both ends hold an odd tile, each a stack, and 12 tiles
        are 7 stacks: play goes on to 11 tiles. Further draws are assumed from the front."""
        stacks = self.wall_tiles // 2
        front = self.wall_tiles - undrawn - tail_drawn
        # stacks left after i more front draws: stacks - (front + i) // 2 - tail_drawn // 2
        limit = 2 * (stacks - table.STACKS_LEFT_AT_DRAW - tail_drawn // 2)
        return max(0, limit - front)

    def wall_break(self, dealer: int, rolls: Sequence[tuple[int, int]],
                   options: Mapping[str, Any]) -> WallBreak:
        return table.wall_break(dealer, rolls)

    def win_refusal(self, facts: WinnerFacts, options: Mapping[str, Any]) -> str | None:
        if facts.declared == "minglou" and facts.by != "self_draw":
            return f"seat {facts.seat} declared 明楼 and may win only by self-draw"
        return None

    def flower_points(self, seat: Seat) -> int:
        return int(hua_points(seat))

    def levels(self, totals: Sequence[Number]) -> list[str] | None:
        return [str(level_for(t)) for t in totals]  # type: ignore[arg-type]

    def escape_penalty(self, leaver: int, flower_points: int,
                       options: Mapping[str, Any]) -> list[Transfer]:
        opts = self.typed(options)
        return table.escape_transfers(leaver, flower_points, opts["base"], opts["escape_split"])

    def is_winning_hand(self, concealed: list[int], melds: tuple[Meld, ...],
                        options: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
        opts = self.typed(options)
        try:
            return bool(readings(concealed, melds, opts["qidui_four_of_a_kind"]))
        except InvalidHand:
            return False
