"""The Liaoyang ruleset (shared/rules/liaoyang.md): record checks, scoring, dice, escape."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scoring.errors import InvalidHand, RecordError
from scoring.record import HandRecord, Meld, Win
from scoring.rulesets.base import Ruleset, WallBreak, WinnerFacts
from scoring.rulesets.liaoyang import dice
from scoring.rulesets.liaoyang.evaluator import evaluate_loser_listed, evaluate_winner, readings
from scoring.rulesets.liaoyang.facts import LoserSeat, WinnerHand
from scoring.rulesets.liaoyang.options import OPTIONS, LiaoyangOptions
from scoring.rulesets.liaoyang.requirements import HUN_DISCARDED, first_failure
from scoring.rulesets.liaoyang.settle import bao_count, pay, transfers_and_items
from scoring.rulesets.liaoyang.wild import hun_may_be_claimed, hun_of, jiqiang_of
from scoring.settlement import Item, Settlement, Transfer, WinScore, explained_item
from scoring.tiles import TILE_NAMES, Tile, format_tiles, tile_from_name


def _names(tiles: Sequence[Tile]) -> list[str]:
    return [TILE_NAMES[t] for t in tiles]


def _loser_note(seat: int, item: Item) -> tuple[str, str]:
    """A loser's item as listed among the hand's: its note, said of that seat."""
    return f"seat {seat}: {item.note}", f"{seat}号座位：{item.note_zh}"


def _indicator_from(context: Any) -> Tile | None:
    """The indicator from a record ``Context`` or a mapping (tile index or tile text)."""
    value = context.get("indicator") if isinstance(context, Mapping) else getattr(
        context, "indicator", None)
    if value is None or isinstance(value, int):
        return value
    return tile_from_name(str(value))


class LiaoyangRuleset(Ruleset):
    name = "liaoyang"
    title = "辽阳麻将"
    label = ("Liaoyang", "辽阳")
    summary = "136 tiles, an indicator fixes the 混 wildcard, 底 caps, one winner"
    options = OPTIONS
    Options = LiaoyangOptions
    record_fields = frozenset({"context.indicator", "context.bao_tile", "seats.hun_discarded"})
    wall_tiles = 136
    last_tiles = dice.FENZHANG  # 分张: the last 4 drawable tiles
    rolls = 2  # the dealer, then the second roller
    turns_indicator = True
    wall_end = (f"{dice.DRAW_TILES} (+{dice.PER_HUN_DISCARDED} per 混 discarded) remain")
    detail_labels: ClassVar[Mapping[str, tuple[str, str]]] = {
        "indicator": ("indicator", "翻牌"), "hun": ("wildcard", "混"),
        "jiqiang": ("鸡枪 tiles", "鸡枪"),
        "hun_discarded": ("混 discarded", "打出的混"), "draw_threshold": ("draw at", "黄庄剩牌"),
        "bao_tile": ("宝 tile", "宝牌"), "bao": ("宝 count", "宝数"), "yao": ("all capped", "摇"),
        "losers": ("losers", "输家"), "seat": ("seat", "座位"), "f_i": ("loser fan f_i", "输家番"),
        "fans": ("fan items", "番项"), "raw": ("before the cap", "封顶前"), "pays": ("pays", "付"),
        "f_w": ("winner fan f_w", "赢家番"), "reading": ("reading", "拆分"),
        "melds": ("melds", "副露"), "hun_stood_for": ("混 stood for", "混代替"),
        "readings_tried": ("readings tried", "尝试的拆分"),
    }

    # ------------------------------------------------------------ record checks

    def validate(self, record: HandRecord) -> None:
        """What the Liaoyang spec forbids beyond the common record format."""
        ind = record.context.indicator
        self._check(record, self.opts(record), hun_of(ind) if ind is not None else None)

    def _check(self, record: HandRecord, opts: LiaoyangOptions, hun: Tile | None) -> None:
        """:meth:`validate` with the house rules and the 混 already read (by :meth:`score`)."""
        ind = record.context.indicator
        for k, seat in enumerate(record.seats):
            if seat.flowers:
                raise RecordError("Liaoyang is played without flowers", f"seats[{k}].flowers")
            if hun is None:
                continue
            for i, m in enumerate(seat.melds):
                if hun in m.tiles and not hun_may_be_claimed(m.type, opts.hun_claims):
                    what = ("吃 (\"混不能…用于吃牌\", whatever hun_claims says)"
                            if m.type == "chow" else "碰 or 杠 (option hun_claims)")
                    raise RecordError(f"a 混 ({TILE_NAMES[hun]}) may not be used to {what}",
                                      f"seats[{k}].melds[{i}]")
        if hun is not None:
            self._check_hun_copies(record, hun)
        if record.outcome != "win":
            return
        if len(record.wins) > 1:
            raise RecordError("only one winner per discard in Liaoyang: the first claimant "
                              "after the discarder in play order wins", "wins")
        if ind is None:
            raise RecordError("a Liaoyang win needs the indicator tile, which fixes the 混 and "
                              "鸡枪", "context.indicator")
        w = record.wins[0]
        if w.replacement == "flower":
            raise RecordError("Liaoyang has no flowers, so no flower replacement",
                              "wins[0].replacement")
        if w.discarder_after_kong and w.by != "discard":
            raise RecordError("discarder_after_kong (反弹) goes with a win by discard",
                              "wins[0].discarder_after_kong")
        if (w.discarder_after_kong and w.from_seat is not None
                and not any(m.is_kong for m in record.seats[w.from_seat].melds)):
            raise RecordError(f"反弹 is a discard right after the discarder's own kong, but seat "
                              f"{w.from_seat} shows no kong among its melds",
                              "wins[0].discarder_after_kong")
        if (w.by == "discard" and w.tile == hun and w.from_seat is not None
                and record.seats[w.from_seat].hun_discarded == 0):
            raise RecordError(f"the winning tile {TILE_NAMES[w.tile]} is a 混, so its discarder "
                              "discarded a 混 (hun_discarded must count it)",
                              f"seats[{w.from_seat}].hun_discarded")

    @staticmethod
    def _check_hun_copies(record: HandRecord, hun: Tile) -> None:
        """The 混 discarded (``hun_discarded``) are physical copies too: with those shown in
        hands, melds and as the 宝 tile they are at most 4 (a discarded 混 won by another
        player counts once)."""
        discarded = sum([s.hun_discarded for s in record.seats])
        if not discarded:
            return
        shown = sum(1 for s in record.seats for t in s.all_tiles() if t == hun)
        shown += record.context.bao_tile == hun
        if any(w.by == "discard" and w.tile == hun for w in record.wins[:1]):
            shown -= 1  # the discarded 混 now stands in the winner's hand
        if discarded + shown > 4:
            raise RecordError(f"{discarded} 混 ({TILE_NAMES[hun]}) discarded and {shown} more "
                              "shown: the set has 4", "seats")

    # ------------------------------------------------------------ scoring

    def score(self, record: HandRecord) -> Settlement:
        """Settle a hand; re-runs :meth:`validate` so callers that skip it (the match engine)
        still get the Liaoyang record checks."""
        opts = self.opts(record)
        ind = record.context.indicator
        hun = hun_of(ind) if ind is not None else None
        self._check(record, opts, hun)
        jiqiang = jiqiang_of(ind) if ind is not None else frozenset()
        hun_discarded = sum([s.hun_discarded for s in record.seats])
        details: dict[str, Any] = {
            "indicator": TILE_NAMES[ind] if ind is not None else None,
            "hun": TILE_NAMES[hun] if hun is not None else None,
            "jiqiang": _names(sorted(jiqiang)),
            "hun_discarded": hun_discarded,
            "draw_threshold": dice.draw_threshold(hun_discarded),
        }
        if record.outcome == "draw":
            return Settlement(self.name, "draw", [0, 0, 0, 0], [], record.dealer, {},
                              details=details)
        w = record.wins[0]
        if record.seats[w.seat].hun_discarded:
            raise InvalidHand(HUN_DISCARDED, f"seats[{w.seat}].hun_discarded",
                              reason="hun_discarded")
        hand = self._winner_hand(record, w, hun, jiqiang)
        ev = evaluate_winner(hand, opts)
        losers = self._losers(record, w, jiqiang)
        loser_items = [(lo, *evaluate_loser_listed(lo, opts)) for lo in losers]
        bao = bao_count(hand.physical, record.context.bao_tile)
        payments, yao = pay(ev.total, [(lo.seat, f_i) for lo, _, f_i, _ in loser_items], bao,
                            opts)
        transfers, pay_items = transfers_and_items(w.seat, ev.total, payments, yao, bao, opts)
        items: list[Item] = []
        loser_details = []
        for (lo, l_items, f_i, listed), p in zip(loser_items, payments, strict=True):
            items += [explained_item(i.name, i.value, i.unit, _loser_note, (lo.seat, i))
                      for i in l_items]
            loser_details.append({"seat": lo.seat, "f_i": f_i, "fans": list(listed),
                                  "raw": p.raw, "pays": p.total})
        items.extend(pay_items)
        details.update(bao_tile=(TILE_NAMES[record.context.bao_tile]
                                 if record.context.bao_tile is not None else None),
                       bao=bao, yao=yao, losers=loser_details)
        reading = ev.reading
        win_details = {
            "f_w": ev.total,
            "reading": str(reading.decomposition),
            "melds": [format_tiles(m.tiles) for m in hand.melds],
            "hun_stood_for": _names(reading.substitutions),
            "readings_tried": ev.readings_tried,
        }
        share = sum([p.total for p in payments])
        win_score = WinScore(w.seat, self._pattern(ev.reading), list(ev.items), share,
                             details=win_details)
        next_dealer = record.dealer if w.seat == record.dealer else (record.dealer + 1) % 4
        return Settlement(self.name, "win", Settlement.payments_from(transfers), [win_score],
                          next_dealer, {}, transfers=transfers, items=items, details=details)

    @staticmethod
    def _pattern(reading: Any) -> str:
        if reading.is_seven_pairs:
            return "七对"
        if len(reading.hand.melds) == 4:
            return "手把一"
        if reading.is_all_pungs:
            return "飘和"
        return "胡牌" if reading.hand.is_open else "闭门胡"

    @staticmethod
    def _winner_hand(record: HandRecord, w: Win, hun: Tile | None,
                     jiqiang: frozenset[Tile]) -> WinnerHand:
        seat = record.seats[w.seat]
        return WinnerHand.of(w.seat, w, seat.concealed, seat.melds, w.seat == record.dealer, hun,
                             jiqiang)

    @staticmethod
    def _losers(record: HandRecord, w: Win, jiqiang: frozenset[Tile]) -> list[LoserSeat]:
        seats = [k for k in range(4) if k != w.seat]
        all_closed = all([not record.seats[k].is_open for k in seats])
        fed_by = w.from_seat if w.by != "self_draw" else None  # 点炮 (or robbed)
        after_kong = w.by == "discard" and w.discarder_after_kong
        losers = []
        for k in seats:  # (each LoserSeat(...) filled in one step, without __init__'s frame)
            loser = _new(LoserSeat)
            loser.__dict__.update(seat=k, melds=record.seats[k].melds,
                                  is_dealer=k == record.dealer, dealt_in=fed_by == k,
                                  after_kong=after_kong and w.from_seat == k,
                                  all_losers_closed=all_closed, jiqiang=jiqiang)
            losers.append(loser)
        return losers

    # ------------------------------------------------------------ table procedure

    def drawable(self, undrawn: int, hun_discarded: int = 0, tail_drawn: int = 0) -> int:
        """Play stops with 16 undrawn tiles, plus 2 for every 混 discarded."""
        return max(0, undrawn - dice.draw_threshold(hun_discarded))

    def next_roller(self, dealer: int, rolls: Sequence[tuple[int, int]],
                    options: Mapping[str, Any]) -> int:
        """The dealer, then the seat its roll counts to (option ``dice_count``)."""
        if not rolls:
            return dealer
        opts = self.typed(options)
        return dice.second_roller(dealer, sum(rolls[0]), opts.dice_count)

    def roll_refusal(self, dealer: int, rolls: Sequence[tuple[int, int]], seat: int,
                     options: Mapping[str, Any]) -> str | None:
        want = self.next_roller(dealer, rolls, options)
        if seat == want or not rolls:
            return super().roll_refusal(dealer, rolls, seat, options)
        return (f"the dealer's roll {sum(rolls[0])} makes seat {want} the second roller, "
                f"not seat {seat}")

    def wall_break(self, dealer: int, rolls: Sequence[tuple[int, int]],
                   options: Mapping[str, Any]) -> WallBreak:
        opts = self.typed(options)
        return dice.wall_break(dealer, rolls, opts.dice_count)

    def claim_refusal(self, meld_type: str, tiles: Sequence[Tile], wildcards: frozenset[Tile],
                      options: Mapping[str, Any]) -> str | None:
        """A 混 is never used to 吃, and to 碰 or 杠 only with option ``hun_claims``."""
        hun = next((t for t in tiles if t in wildcards), None)
        opts = self.typed(options)
        if hun is None or hun_may_be_claimed(meld_type, opts.hun_claims):
            return None
        what = {"chow": "吃", "pung": "碰"}.get(meld_type, "杠")
        why = "混不能…用于吃牌" if meld_type == "chow" else "liaoyang option hun_claims"
        return f"a 混 ({TILE_NAMES[hun]}) may not be used to {what} ({why})"

    def win_refusal(self, facts: WinnerFacts, options: Mapping[str, Any]) -> str | None:
        if facts.hun_discarded:
            return f"seat {facts.seat} discarded a 混 and cannot win this hand"
        return None

    def escape_penalty(self, leaver: int, flower_points: int,
                       options: Mapping[str, Any]) -> list[Transfer]:
        """The spec is silent; we settle it as the leaver losing a whole 底 to each other player
        (掉底: the most one loser pays on a win short of 摇). Liaoyang has no flowers."""
        if not 0 <= leaver <= 3:
            raise ValueError(f"seat number {leaver} is out of range 0..3")
        opts = self.typed(options)
        return [Transfer(leaver, k, opts.di, "逃跑: one 底 to each other player",
                         "逃跑：付其他每家一个底")
                for k in range(4) if k != leaver]

    # ------------------------------------------------------------ shapes for 听 / waits

    def wildcards(self, options: Mapping[str, Any], context: Any) -> frozenset[int]:
        ind = _indicator_from(context)
        return frozenset() if ind is None else frozenset({hun_of(ind)})

    def is_winning_hand(self, concealed: list[int], melds: tuple[Meld, ...],
                        options: Mapping[str, Any], context: Any) -> bool:
        """Shape plus 三门齐, 有幺九, 有横 and the 手把一 rule; a closed hand counts as winning
        (it may still win by self-draw)."""
        ind = _indicator_from(context)
        if not concealed:
            return False
        win = Win(seat=0, tile=concealed[-1], by="self_draw")
        hand = WinnerHand.of(0, win, tuple(concealed), tuple(melds), False,
                             hun_of(ind) if ind is not None else None,
                             jiqiang_of(ind) if ind is not None else frozenset())
        return any(first_failure(r) is None for r in readings(hand))


_new = object.__new__
RULESET = LiaoyangRuleset()
