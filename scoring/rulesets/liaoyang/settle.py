"""Liaoyang money: P_i = base × 2^(f_w + f_i) per loser, the 底 cap and 摇, then 宝 on top.

Kept apart from the 番 so a referee can check each step: the raw amount, the cap, 摇 (all three
losers reach the cap: each pays twice the cap), and 宝 (bao_value per 宝, outside the cap unless
``bao_inside_cap``).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.frozen import fast_init
from scoring.rulesets.liaoyang.options import LiaoyangOptions
from scoring.settlement import Item, Transfer


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
        out.append(LoserPayment(seat, f_i, raw, amount, 0 if options.bao_inside_cap else bao_each))
    return out, yao


def transfers_and_items(winner: int, f_w: int, payments: list[LoserPayment], yao: bool,
                        bao: int, options: LiaoyangOptions) -> tuple[list[Transfer], list[Item]]:
    """Who pays whom and why, and the referee's lines for each loser's amount."""
    transfers: list[Transfer] = []
    items: list[Item] = []
    for p in payments:
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
        items.append(Item(f"{p.seat}号座位付", p.fan_amount, "point",
                          f"seat {p.seat} pays: {formula}", f"{p.seat}号座位付：{formula_zh}"))
        transfers.append(Transfer(p.seat, winner, p.fan_amount, f"番 payment: {formula}",
                                  f"番分：{formula_zh}"))
        if p.bao_amount:
            transfers.append(Transfer(p.seat, winner, p.bao_amount,
                                      f"宝 {bao}×{options.bao_points} on top of the cap",
                                      f"宝 {bao}×{options.bao_points}，在封顶之外"))
    if yao:
        items.append(Item("摇", 2 * options.di, "point",
                          f"all three losers reach the 底 {options.di}: each pays twice it",
                          f"三家都到底 {options.di}：每家付两倍"))
    if bao:
        where = "inside the cap" if options.bao_inside_cap else "on top of the cap"
        where_zh = "计入封顶" if options.bao_inside_cap else "在封顶之外"
        items.append(Item("宝", bao, "bao", f"each loser pays {bao}×{options.bao_points} {where}",
                          f"每个输家付 {bao}×{options.bao_points}，{where_zh}"))
    return transfers, items
