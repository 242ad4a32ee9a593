"""承包 contracts, derived from the melds' ``from`` fields.

A contract binds two players when one made 3 or more claims (吃/碰/明杠, a 补杠 counting as its
pung) on the other's discards this hand. It is symmetric (either party winning makes the other
pay), and when each fed the other 3 times there are two contracts, counted separately.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.frozen import fast_init
from scoring.record import HandRecord

CLAIMS_FOR_CONTRACT = 3


@fast_init
@dataclass(frozen=True)
class Contract:
    claimer: int  # made the claims
    feeder: int  # whose discards were claimed
    claims: int

    def parties(self) -> frozenset[int]:
        return frozenset((self.claimer, self.feeder))

    def partner_of(self, seat: int) -> int | None:
        if seat == self.claimer:
            return self.feeder
        if seat == self.feeder:
            return self.claimer
        return None

    def to_json(self) -> dict[str, int]:
        return {"claimer": self.claimer, "feeder": self.feeder, "claims": self.claims}


def contracts(record: HandRecord) -> list[Contract]:
    """Every contract of this hand, one per (claimer, feeder) direction."""
    out: list[Contract] = []
    for claimer, seat in enumerate(record.seats):
        if len(seat.melds) < CLAIMS_FOR_CONTRACT:
            continue  # most seats: too few melds to have made that many claims
        claims = seat.claims_from
        if not claims or max(claims.values()) < CLAIMS_FOR_CONTRACT:
            continue  # no claims, or too few on any one seat
        for feeder in range(4):
            n = claims.get(feeder, 0)
            if feeder != claimer and n >= CLAIMS_FOR_CONTRACT:
                out.append(Contract(claimer, feeder, n))
    return out


def partners(record: HandRecord, winner: int) -> dict[int, int]:
    """For a winner: each contract partner and how many contracts bind them (1 or 2)."""
    out: dict[int, int] = {}
    for c in contracts(record):
        p = c.partner_of(winner)
        if p is not None:
            out[p] = out.get(p, 0) + 1
    return out
