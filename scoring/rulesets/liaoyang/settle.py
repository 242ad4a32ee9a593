"""Liaoyang money: P_i = base × 2^(f_w + f_i) per loser, the 底 cap and 摇, then 宝 on top.

Kept apart from the 番 so a referee can check each step: the raw amount, the cap, 摇 (all three
losers reach the cap: each pays twice the cap), and 宝 (bao_value per 宝, outside the cap unless
``bao_inside_cap``).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.frozen import fast_init
from scoring.rulesets.liaoyang.options import LiaoyangOptions
from scoring.settlement import Item, Transfer, explained_item, explained_transfer


@fast_init
@dataclass(frozen=True)
class LoserPayment:
    seat: int
    f_i: int
    raw: int  # base × 2^(f_w + f_i), before the cap
    fan_amount: int  # after the cap / 摇 (宝 included when bao_inside_cap)
    bao_amount: int  # 宝 paid on top of the cap (0 when bao_inside_cap)

    @property
    def total(self) -> int:
        return self.fan_amount + self.bao_amount


def bao_count(winner_tiles: tuple[int, ...], bao_tile: int | None) -> int:
    """Each of the winner's physical tiles equal to the revealed tile is one 宝."""
    if bao_tile is None:
        return 0
    return winner_tiles.count(bao_tile)


def pay(f_w: int, losers: list[tuple[int, int]], bao: int,
        options: LiaoyangOptions) -> tuple[list[LoserPayment], bool]:
    """Amount each loser ``(seat, f_i)`` pays; also whether it was 摇."""
    bao_each = options.bao_points * bao
    inside = bao_each if options.bao_inside_cap else 0
    raws = [(seat, f_i, options.base * 2 ** (f_w + f_i)) for seat, f_i in losers]
    yao = bool(raws) and all([raw + inside >= options.di for _, _, raw in raws])
    out = []
    for seat, f_i, raw in raws:
        amount = 2 * options.di if yao else min(raw + inside, options.di)
        payment = _new(LoserPayment)  # (LoserPayment(...) without __init__'s Python frame)
        payment.__dict__.update(seat=seat, f_i=f_i, raw=raw, fan_amount=amount,
                                bao_amount=0 if options.bao_inside_cap else bao_each)
        out.append(payment)
    return out, yao


def transfers_and_items(winner: int, f_w: int, payments: list[LoserPayment], yao: bool,
                        bao: int, options: LiaoyangOptions) -> tuple[list[Transfer], list[Item]]:
    """Who pays whom and why, and the referee's lines for each loser's amount (their text is
    written when first read: :func:`scoring.settlement.explained_item`)."""
    transfers: list[Transfer] = []
    items: list[Item] = []
    for p in payments:
        why = (p, f_w, yao, bao, options)
        items.append(explained_item(_PAYS[p.seat], p.fan_amount, "point", _pays_note, why))
        transfers.append(explained_transfer(p.seat, winner, p.fan_amount, _pays_reason, why))
        if p.bao_amount:
            transfers.append(explained_transfer(p.seat, winner, p.bao_amount, _bao_reason,
                                                (bao, options.bao_points)))
    if yao:
        items.append(explained_item("摇", 2 * options.di, "point", _yao_note, (options.di,)))
    if bao:
        items.append(explained_item("宝", bao, "bao", _bao_note, (bao, options)))
    return transfers, items


_new = object.__new__
_PAYS = tuple(f"{seat}号座位付" for seat in range(4))  # each loser's line, by seat


def _formula(p: LoserPayment, f_w: int, yao: bool, bao: int,
             options: LiaoyangOptions) -> tuple[str, str]:
    """How one loser's amount was reached, in English and Chinese."""
    formula = f"{options.base}×2^(f_w {f_w} + f_i {p.f_i}) = {p.raw}"
    formula_zh = formula
    if options.bao_inside_cap and bao:
        formula += f", + 宝 {bao}×{options.bao_points}"
        formula_zh += f"，+ 宝 {bao}×{options.bao_points}"
    if yao:
        formula += f"; 摇: all three losers reach the 底 {options.di}, each pays {p.fan_amount}"
        formula_zh += f"；摇：三家都到底 {options.di}，每家付 {p.fan_amount}"
    elif p.fan_amount < p.raw + (options.bao_points * bao if options.bao_inside_cap else 0):
        formula += f"; 掉底: capped at the 底 {options.di}"
        formula_zh += f"；掉底：封顶于底 {options.di}"
    return formula, formula_zh


def _pays_note(p: LoserPayment, f_w: int, yao: bool, bao: int,
               options: LiaoyangOptions) -> tuple[str, str]:
    formula, formula_zh = _formula(p, f_w, yao, bao, options)
    return f"seat {p.seat} pays: {formula}", f"{p.seat}号座位付：{formula_zh}"


def _pays_reason(p: LoserPayment, f_w: int, yao: bool, bao: int,
                 options: LiaoyangOptions) -> tuple[str, str]:
    formula, formula_zh = _formula(p, f_w, yao, bao, options)
    return f"番 payment: {formula}", f"番分：{formula_zh}"


def _bao_reason(bao: int, bao_points: int) -> tuple[str, str]:
    return f"宝 {bao}×{bao_points} on top of the cap", f"宝 {bao}×{bao_points}，在封顶之外"


def _yao_note(di: int) -> tuple[str, str]:
    return f"all three losers reach the 底 {di}: each pays twice it", f"三家都到底 {di}：每家付两倍"


def _bao_note(bao: int, options: LiaoyangOptions) -> tuple[str, str]:
    where = "inside the cap" if options.bao_inside_cap else "on top of the cap"
    where_zh = "计入封顶" if options.bao_inside_cap else "在封顶之外"
    return (f"each loser pays {bao}×{options.bao_points} {where}",
            f"每个输家付 {bao}×{options.bao_points}，{where_zh}")
