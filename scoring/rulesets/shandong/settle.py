"""Who pays whom: 自摸, 点炮 (明楼 discarder ×2), 一炮多响, 抢杠, 杠爆, then 承包 over them all.

Each win's payments are built first as if nobody were 承包 liable; 承包 then moves every one of
that winner's payments to the liable player without changing the amounts.
"""

from __future__ import annotations

from scoring.record import HandRecord, Win
from scoring.settlement import Transfer, explained_transfer

CHENGBAO_CLAIMS = 3  # claims by the winner on one player's discards that make that player liable


def base_transfers(record: HandRecord, win: Win, share: int) -> list[Transfer]:
    """The payments of one win before 承包."""
    b = win.seat
    if win.by == "discard":
        assert win.from_seat is not None
        if record.seats[win.from_seat].declared == "minglou":
            return [Transfer(win.from_seat, b, 2 * share, "点炮 (明楼 discarder pays 2S)",
                             "点炮（明楼者付2S）")]
        return [Transfer(win.from_seat, b, share, "点炮 (the discarder pays S)",
                         "点炮（放炮者付S）")]
    if win.by == "rob_kong":
        assert win.from_seat is not None
        return [Transfer(win.from_seat, b, 3 * share, "抢杠 (robbed player pays 3S)",
                         "抢杠（被抢者付3S）")]
    if win.kong_fed_by is not None:
        return [Transfer(win.kong_fed_by, b, 3 * share, "杠爆 (kong feeder pays 3S)",
                         "杠爆（供杠者付3S）")]
    return [Transfer(k, b, share, "自摸 (each other player pays S)", "自摸（其他每家付S）")
            for k in _others(b)]


def chengbao_payer(record: HandRecord, winner: int) -> int | None:
    """The player A on whose discards the winner made 3 or more claims (吃/碰/明杠), if any."""
    seat = record.seats[winner]
    if len(seat.melds) < CHENGBAO_CLAIMS:
        return None  # the usual hand: too few melds to have made that many claims
    claims = seat.claims_from
    for a in _others(winner):
        if claims.get(a, 0) >= CHENGBAO_CLAIMS:
            return a
    return None


def win_transfers(record: HandRecord, win: Win, share: int) -> list[Transfer]:
    """One win's payments, with 承包 applied."""
    out = base_transfers(record, win, share)
    liable = chengbao_payer(record, win.seat)
    if liable is None:
        return out
    return [explained_transfer(liable, t.payee, t.amount, _liable_reason, (t, liable))
            for t in out]


def _liable_reason(t: Transfer, liable: int) -> tuple[str, str]:
    """The reason of a payment the 承包 liable player makes (in place of ``t.payer``)."""
    if t.payer == liable:
        return f"承包: {t.reason}", f"承包：{t.reason_zh}"
    return f"承包: pays seat {t.payer}'s {t.reason}", f"承包：代{t.payer}号座位付 {t.reason_zh}"


def next_dealer(record: HandRecord) -> int:
    """Winner deals; after 一炮多响 the discarder; after a draw the dealer's 下家."""
    if record.outcome == "draw":
        return (record.dealer + 1) % 4
    if len(record.wins) > 1:
        from_seat = record.wins[0].from_seat
        assert from_seat is not None
        return from_seat
    return record.wins[0].seat


def next_streak(record: HandRecord) -> int:
    """荒庄 counter for the next hand: +1 after a draw, 0 after any win."""
    return record.context.huangzhuang_streak + 1 if record.outcome == "draw" else 0


def _others(seat: int) -> list[int]:
    return [(seat + i) % 4 for i in (1, 2, 3)]
