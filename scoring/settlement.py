"""The result of scoring one hand: payments, every scoring item, and who paid whom."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scoring.frozen import fast_init

Number = int | float
#: writes an item's (note, note_zh) or a transfer's (reason, reason_zh) from its arguments
Writer = Callable[..., tuple[str, str]]


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


class _Written:
    """An item's note or a transfer's reason that a ruleset left to be written when first read
    (:func:`explained_item`, :func:`explained_transfer`): most settlements are only summed or
    compared, and their working costs more to write than to compute. Both languages are
    written at once and kept in the instance's ``__dict__``, where later reads find them before
    this (non-data) descriptor; an instance built with its text has it there from the start."""

    __slots__ = ("field", "pair")

    def __init__(self, field: str, pair: tuple[str, str]) -> None:
        self.field = field
        self.pair = pair

    def __get__(self, obj: object, owner: type | None = None) -> str:
        if obj is None:
            return ""  # the field's default, as the class showed it
        d = obj.__dict__
        pending = d.get("_write")
        if pending is not None:  # (texts stored before the writer is dropped: thread-safe)
            d[self.pair[0]], d[self.pair[1]] = pending[0](*pending[1])
            d.pop("_write", None)
        return d.get(self.field, "")  # type: ignore[no-any-return]


# the text fields keep their defaults in the generated __init__ (dataclasses read them from
# the fields, not from the class)
Item.note = _Written("note", ("note", "note_zh"))  # type: ignore[assignment]
Item.note_zh = _Written("note_zh", ("note", "note_zh"))  # type: ignore[assignment]
Transfer.reason = _Written("reason", ("reason", "reason_zh"))  # type: ignore[assignment]
Transfer.reason_zh = _Written("reason_zh", ("reason", "reason_zh"))  # type: ignore[assignment]
_new = object.__new__


def explained_item(name: str, value: Number, unit: str, write: Writer, args: tuple[Any, ...],
                   parts: tuple[Item, ...] = ()) -> Item:
    """``Item(name, value, unit, *write(*args), parts)``, its notes written when first read
    (``args`` must not change meanwhile: numbers, strings, frozen objects)."""
    item = _new(Item)
    d = item.__dict__
    d["name"] = name
    d["value"] = value
    d["unit"] = unit
    d["_write"] = (write, args)
    d["parts"] = parts
    return item


def explained_transfer(payer: int, payee: int, amount: Number, write: Writer,
                       args: tuple[Any, ...]) -> Transfer:
    """``Transfer(payer, payee, amount, *write(*args))``, its reasons written when first read."""
    transfer = _new(Transfer)
    d = transfer.__dict__
    d["payer"] = payer
    d["payee"] = payee
    d["amount"] = amount
    d["_write"] = (write, args)
    return transfer


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
