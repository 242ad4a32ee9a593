"""A settlement as a referee's working: pattern, items, multipliers, share, who pays whom."""

from __future__ import annotations

from scoring.settlement import Item, Settlement

SEAT_WINDS = "东南西北"
_UNITS = {"fan": "番", "hua": "花", "x": "×", "le": "勒子", "point": "分", "cap": "封顶"}


def _value(item: Item) -> str:
    if item.unit == "x":
        return f"×{item.value}"
    unit = _UNITS.get(item.unit, item.unit)
    return f"{item.value} {unit}".rstrip()


def _item_line(item: Item) -> str:
    note = f"  ({item.note})" if item.note else ""
    return f"    {item.name:<8} {_value(item)}{note}"


def format_settlement(s: Settlement, dealer: int | None = None) -> str:
    """Readable text of a settlement; seat winds are shown when the dealer is known."""

    def seat(k: int) -> str:
        if dealer is None:
            return f"seat {k}"
        return f"seat {k} ({SEAT_WINDS[(k - dealer) % 4]})"

    lines = [f"{s.ruleset}: {'draw (荒庄)' if s.outcome == 'draw' else 'win'}"]
    for key, value in s.details.items():
        lines.append(f"  {key}: {value}")
    for w in s.wins:
        lines.append(f"  winner {seat(w.seat)}: {w.pattern}")
        for key, value in w.details.items():
            lines.append(f"    {key}: {value}")
        lines.extend(_item_line(i) for i in w.items)
        lines.append(f"    share      {w.share}")
    if s.items:
        lines.append("  hand items:")
        lines.extend(_item_line(i) for i in s.items)
    if s.transfers:
        lines.append("  transfers:")
        for t in s.transfers:
            reason = f"  {t.reason}" if t.reason else ""
            lines.append(f"    {seat(t.payer)} pays {seat(t.payee)} {t.amount}{reason}")
    lines.append("  payments: " + "  ".join(f"{seat(k)} {p:+}" for k, p in enumerate(s.payments)))
    lines.append(f"  next dealer: {seat(s.next_dealer)}")
    if s.context:
        lines.append("  carried: " + ", ".join(f"{k}={v}" for k, v in s.context.items()))
    return "\n".join(lines)
