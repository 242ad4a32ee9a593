"""Who pays whom for one Shanghai hand: shares, 承包 extras, the 5勒 hand cap, dealer, 荒番.

Transfers are built in three layers a referee can follow: the normal payment of each win (自摸,
点炮, 抢杠), the 承包 extras, then one "5勒封顶" refund per (capped payer, winner) that brings a
payer's total down to the hand cap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.record import HandRecord, Win
from scoring.rulesets.shanghai.contracts import partners
from scoring.settlement import Item, Transfer, explained_item, explained_transfer
from scoring.tiles import is_flower


def win_transfers(record: HandRecord, shares: Mapping[int, int],
                  options: Mapping[str, Any]) -> list[Transfer]:
    """Normal payments and 承包 extras for every winner, before the hand cap."""
    out: list[Transfer] = []
    for w in record.wins:
        out.extend(_normal(w, shares[w.seat]))
        out.extend(_contract_extras(record, w, shares[w.seat],
                                    int(options["chengbao_selfdraw_shares"])))
    return out


def _normal(w: Win, u: int) -> list[Transfer]:
    """自摸 (incl. 杠开, 八花齐): each other pays U; 点炮: the discarder U; 抢杠: the robbed 3U."""
    if w.by == "self_draw":
        reason, reason_zh = _EACH_PAYS["八花齐" if is_flower(w.tile) else (
            "杠开" if w.replacement else "自摸")]
        return [Transfer(p, w.seat, u, reason, reason_zh) for p in range(4) if p != w.seat]
    source = _source(w)
    if w.by == "discard":
        return [Transfer(source, w.seat, u, "点炮: the discarder pays U", "点炮：放炮者付U")]
    return [Transfer(source, w.seat, 3 * u, "抢杠: robbed player pays 3U", "抢杠：被抢者付3U")]


_EACH_PAYS = {label: (f"{label}: each other player pays U", f"{label}：其他每家付U")
              for label in ("八花齐", "杠开", "自摸")}


def _contract_extras(record: HandRecord, w: Win, u: int, selfdraw_shares: int) -> list[Transfer]:
    """What the winner's 承包 partners (or a non-ready discarder in their place) add.

    On a self-draw the partner pays ``selfdraw_shares`` U in all ("若自摸記分時承包者付5份點數"):
    its normal U plus the rest as the extra.
    """
    bound = partners(record, w.seat)
    if not bound:
        return []  # the usual hand: no 承包
    extra = selfdraw_shares - 1
    out: list[Transfer] = []
    winners = set(record.winners)
    for partner, n in sorted(bound.items()):
        times = f" × {n} contracts" if n > 1 else ""
        times_zh = f" × {n} 个承包" if n > 1 else ""
        if w.by == "self_draw":
            out.append(Transfer(partner, w.seat, extra * n * u,
                                f"承包: partner +{extra}U on self-draw "
                                f"({selfdraw_shares}U in all){times}",
                                f"承包：自摸时承包者另付{extra}U（共{selfdraw_shares}U）"
                                f"{times_zh}"))
            continue
        source = _source(w)
        ready = record.seats[source].ready
        if partner in winners:
            # both parties won on one discard: the partner pays nothing (it won); a
            # discarder that was not ready pays 2U to each
            if w.by == "discard" and not ready:
                out.append(Transfer(source, w.seat, n * u, "承包: discarder not ready, dealt in "
                                    f"to both parties, pays 2U{times}",
                                    f"承包：放炮者未听牌，一炮两响给承包双方，各付2U{times_zh}"))
        elif w.by == "rob_kong":
            out.append(Transfer(partner, w.seat, 3 * n * u, f"承包: partner +3U on 抢杠{times}",
                                f"承包：抢杠时承包者付3U{times_zh}"))
        elif source == partner:
            out.append(Transfer(partner, w.seat, n * u, f"承包: partner discarded, +1U{times}",
                                f"承包：承包者放炮，另付1U{times_zh}"))
        elif ready:
            out.append(Transfer(partner, w.seat, n * u,
                                f"承包: discarder ready, partner pays U{times}",
                                f"承包：放炮者已听牌，承包者另付U{times_zh}"))
        else:
            out.append(Transfer(source, w.seat, n * u,
                                f"承包: discarder not ready, pays the partner's U{times}",
                                f"承包：放炮者未听牌，代承包者付U{times_zh}"))
    return out


def _source(w: Win) -> int:
    """The discarder or the robbed player (the record guarantees one for these wins)."""
    if w.from_seat is None:
        raise ValueError(f"a win by {w.by} names the seat it came from")
    return w.from_seat


def apply_hand_cap(transfers: list[Transfer], cap: int) -> tuple[list[Transfer], list[Item]]:
    """No payer pays more than ``cap`` in total; refunds are added as transfers back.

    A capped payer's debt to each winner is cut in proportion and rounded down; the points left
    over go one at a time to its winners in play order after the payer.
    """
    if cap <= 0:
        return [], []
    refunds: list[Transfer] = []
    items: list[Item] = []
    totals = [0, 0, 0, 0]
    for t in transfers:
        totals[t.payer] += int(t.amount)
    for payer in range(4):
        total = totals[payer]
        if total <= cap:
            continue
        owed = [0, 0, 0, 0]
        for t in transfers:
            if t.payer == payer:
                owed[t.payee] += int(t.amount)
        paid = [o * cap // total for o in owed]
        order = [(payer + k) % 4 for k in range(1, 4) if owed[(payer + k) % 4] > 0]
        left = cap - sum(paid)
        i = 0
        while left > 0:
            paid[order[i % len(order)]] += 1
            left -= 1
            i += 1
        for payee in order:
            if paid[payee] < owed[payee]:
                refunds.append(explained_transfer(payee, payer, owed[payee] - paid[payee],
                                                  _refund_reason, (payer, cap)))
        items.append(explained_item("5勒封顶", cap, "cap", _cap_note,
                                    (payer, total, cap, tuple(order), tuple(owed), tuple(paid))))
    return refunds, items


def _refund_reason(payer: int, cap: int) -> tuple[str, str]:
    return f"5勒封顶: seat {payer} pays at most {cap}", f"5勒封顶：{payer}号座位最多付 {cap}"


def _cap_note(payer: int, total: int, cap: int, order: tuple[int, ...], owed: tuple[int, ...],
              paid: tuple[int, ...]) -> tuple[str, str]:
    """A capped payer's line: what it owed each winner and what it pays."""
    parts = [f"to seat {payee} {owed[payee]} -> {paid[payee]}" for payee in order]
    parts_zh = [f"给{payee}号座位 {owed[payee]} -> {paid[payee]}" for payee in order]
    return (f"seat {payer} owes {total} > {cap}: " + ", ".join(parts),
            f"{payer}号座位欠 {total} > {cap}：" + "，".join(parts_zh))


def next_dealer(record: HandRecord, options: Mapping[str, Any]) -> int:
    """The winner deals; a draw keeps the dealer; 一炮多响 per ``multi_win_dealer``."""
    if record.outcome == "draw":
        return record.dealer
    if len(record.wins) == 1:
        return record.wins[0].seat
    source = record.wins[0].from_seat
    assert source is not None
    winners = set(record.winners)
    nearest = next((source + k) % 4 for k in range(1, 4) if (source + k) % 4 in winners)
    if options["multi_win_dealer"] == "nearest_winner_next":
        return (nearest + 1) % 4
    return nearest


def next_huangfan(record: HandRecord) -> int:
    """荒番 counter for the next hand: +1 after a draw, -1 (not below 0) after a win."""
    h = record.context.huangfan
    return h + 1 if record.outcome == "draw" else max(0, h - 1)
