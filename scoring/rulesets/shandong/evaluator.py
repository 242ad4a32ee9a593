"""One winner's value: the best reading, its 番 items, 花, multipliers and the share S.

This is the one place that owns the order of the items and the 推倒和 rule: if any 大和 item
applies, 番 is the sum of all that apply; otherwise 番 = 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine import Decomposition
from scoring.frozen import fast_init
from scoring.memo import memo_property
from scoring.record import HandRecord, Meld, Win
from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shandong.fans import BIG_HANDS, SMALL_HAND, Fan
from scoring.rulesets.shandong.hua import hua_items
from scoring.rulesets.shandong.shapes import winning_readings
from scoring.settlement import Item, WinScore, explained_item
from scoring.tiles import format_tiles

MAX_HUANGZHUANG_DOUBLINGS = 5
_new = object.__new__


@fast_init
@dataclass(frozen=True)
class WinValue:
    seat: int
    reading: Decomposition
    melds: tuple[Meld, ...]
    fans: tuple[Fan, ...]
    hua: list[Item]
    base: int
    multipliers: list[Item]

    @classmethod
    def of(cls, seat: int, reading: Decomposition, melds: tuple[Meld, ...],
           fans: tuple[Fan, ...], hua: list[Item], base: int,
           multipliers: list[Item]) -> WinValue:
        """The value with its sums worked out at once: :meth:`to_score` reads every one (the
        properties below work them out for a value built directly)."""
        value = _new(cls)  # (cls(...) filled with its sums in one step, without __init__)
        fan = sum([f.fan for f in fans])
        hua_total = sum([int(i.value) for i in hua])
        multiplier = 1
        for m in multipliers:
            multiplier *= int(m.value)
        value.__dict__.update(seat=seat, reading=reading, melds=melds, fans=fans, hua=hua,
                              base=base, multipliers=multipliers, fan=fan,
                              hua_total=hua_total, multiplier=multiplier,
                              share=(base + hua_total) * fan * multiplier)
        return value

    @memo_property
    def fan(self) -> int:
        return sum([f.fan for f in self.fans])

    @memo_property
    def hua_total(self) -> int:
        return sum([int(i.value) for i in self.hua])

    @memo_property
    def multiplier(self) -> int:
        out = 1
        for m in self.multipliers:
            out *= int(m.value)
        return out

    @memo_property
    def share(self) -> int:
        """S = (底 + 花) × 番 × multipliers."""
        return (self.base + self.hua_total) * self.fan * self.multiplier

    @property
    def reading_text(self) -> str:
        """The whole hand as read: concealed groups, then the melds in brackets."""
        melds = " ".join([f"[{format_tiles(m.tiles)}]" for m in self.melds])
        return f"{self.reading} {melds}".strip()

    @property
    def pattern(self) -> str:
        return "+".join([f.name for f in self.fans])

    def to_score(self) -> WinScore:
        items = [_FAN_ITEM.get(f) or Item(f.name, f.fan, "fan", f.note, f.note_zh)
                 for f in self.fans]
        items += self.hua
        items.append(Item("底", self.base, "point", "the base of S = (底 + 花) × 番 (option base)",
                          "每份 S = (底 + 花) × 番 的底（选项 base）"))
        items += self.multipliers
        mult = "".join(f" × {int(m.value)}" for m in self.multipliers)
        formula = f"({self.base} + {self.hua_total}) × {self.fan}{mult} = {self.share}"
        return WinScore(self.seat, self.pattern, items, self.share,
                        details={"fan": self.fan, "hua": self.hua_total,
                                 "multiplier": self.multiplier, "formula": formula,
                                 "reading": self.reading_text})


def fans_of(facts: WinFacts, options: Mapping[str, Any]) -> tuple[Fan, ...]:
    """The 番 items of one reading: the applying 大和 items, or 推倒和 alone."""
    big = tuple([f for f in BIG_HANDS if f.is_condition_met(facts, options)])
    return big or (SMALL_HAND,)


def multipliers(record: HandRecord, win: Win) -> list[Item]:
    """明楼 ×2 for a 明楼 winner; 荒庄 ×2^min(k, 5) after k drawn hands in a row."""
    out: list[Item] = []
    if record.seats[win.seat].declared == "minglou":
        out.append(_MINGLOU)
    k = record.context.huangzhuang_streak
    if k:
        n = min(k, MAX_HUANGZHUANG_DOUBLINGS)
        out.append(explained_item("荒庄", 2 ** n, "x", _streak_note, (k, n)))
    return out


# the items that are always the same, written once (items are frozen)
_FAN_ITEM = {f: Item(f.name, f.fan, "fan", f.note, f.note_zh) for f in (*BIG_HANDS, SMALL_HAND)}
_MINGLOU = Item("明楼", 2, "x", "the winner declared 明楼", "赢家明楼，×2")


def _streak_note(k: int, n: int) -> tuple[str, str]:
    return f"{k} drawn hand(s) before this one: ×2^{n}", f"此前连续荒庄 {k} 局：×2^{n}"


def evaluate(record: HandRecord, win: Win, options: Mapping[str, Any],
             found: list[Decomposition] | None = None) -> WinValue:
    """The reading worth the most 番 (ties: the first in the engine's order) among ``found``,
    the winning readings when the caller has them already."""
    seat = record.seats[win.seat]
    if found is None:
        found = winning_readings(seat.concealed, seat.melds, options["qidui_four_of_a_kind"],
                                 where=f"seats[{win.seat}]")
    best: tuple[Decomposition, tuple[Fan, ...]] | None = None
    for reading in found:
        fans = fans_of(WinFacts.of(record, win, reading), options)
        if best is None or sum(f.fan for f in fans) > sum(f.fan for f in best[1]):
            best = (reading, fans)
    assert best is not None
    return WinValue.of(win.seat, best[0], seat.melds, best[1], hua_items(seat), options["base"],
                       multipliers(record, win))
