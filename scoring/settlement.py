"""The result of scoring one hand: payments, every scoring item, and who paid whom."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.frozen import fast_init

Number = int | float


@fast_init
@dataclass(frozen=True)
class Item:
    """One line of a referee's working: a fan, a flower point, a multiplier, a cap.

    ``parts`` are the lines this one is the total of (Shanghai 碰碰胡 = 底 + each 花), shown under
    it, so that every list of items a referee reads adds up.
    """

    name: str  # Chinese name as the rules write it, e.g. "清一色"
    value: Number
    unit: str  # "fan", "hua", "x" (multiplier), "le", "point", "cap", ...
    note: str = ""  # short English gloss or the reason it applies
    note_zh: str = ""  # the same in Chinese: a referee reads the working in either language
    parts: tuple[Item, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "value": self.value, "unit": self.unit}
        if self.note:
            out["note"] = self.note
        if self.note_zh:
            out["note_zh"] = self.note_zh
        if self.parts:
            out["parts"] = [p.to_json() for p in self.parts]
        return out


@fast_init
@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``amount`` to ``payee``; ``reason`` names the rule (e.g. "点炮", "承包")."""

    payer: int
    payee: int
    amount: Number
    reason: str = ""  # English, with the rule's Chinese name
    reason_zh: str = ""  # the same in Chinese

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"payer": self.payer, "payee": self.payee, "amount": self.amount,
                               "reason": self.reason}
        if self.reason_zh:
            out["reason_zh"] = self.reason_zh
        return out


@dataclass
class WinScore:
    seat: int
    pattern: str
    items: list[Item]
    share: Number
    details: dict[str, Any] = field(default_factory=dict)  # e.g. what each 混 stood for

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "pattern": self.pattern,
                               "items": [i.to_json() for i in self.items], "share": self.share}
        out.update(self.details)
        return out


@dataclass
class Settlement:
    ruleset: str
    outcome: str
    payments: list[Number]
    wins: list[WinScore]
    next_dealer: int
    context: dict[str, Any]
    transfers: list[Transfer] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)  # hand-level items (multipliers, 宝, caps)
    details: dict[str, Any] = field(default_factory=dict)  # ruleset extras (混, 鸡枪, 宝 tile)

    def __post_init__(self) -> None:
        if len(self.payments) != 4:
            raise ValueError("a settlement has four payments")

    @staticmethod
    def payments_from(transfers: list[Transfer]) -> list[Number]:
        """Net change per seat; zero-sum by construction."""
        pay: list[Number] = [0, 0, 0, 0]
        for t in transfers:
            pay[t.payer] -= t.amount
            pay[t.payee] += t.amount
        return pay

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "outcome": self.outcome,
            "payments": list(self.payments),
            "wins": [w.to_json() for w in self.wins],
            "next_dealer": self.next_dealer,
            "context": dict(self.context),
            "transfers": [t.to_json() for t in self.transfers],
        }
        if self.items:
            out["items"] = [i.to_json() for i in self.items]
        out.update(self.details)
        return out
