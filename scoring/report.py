"""A settlement as a referee's working: pattern, items, multipliers, share, who pays whom.

Every line is in Chinese and English: an item shows its Chinese name, value and both notes, and
the parts it totals indented under it; details are words and tiles (the ruleset names its keys),
never Python structures.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.settlement import Item, Settlement

SEAT_WINDS = "东南西北"
_UNITS = {"fan": "番", "hua": "花", "x": "×", "le": "勒子", "point": "分", "cap": "封顶",
          "claims": "次", "count": "次", "bao": "宝"}
# words of the report itself and of the counters every ruleset carries: (English, 中文)
_FRAME: dict[str, tuple[str, str]] = {
    "win": ("win", "和牌"), "draw": ("draw", "荒庄"), "winner": ("winner", "赢家"),
    "share": ("share", "每份"), "hand_items": ("hand items", "整局项目"),
    "transfers": ("who pays whom", "付款明细"), "payments": ("payments", "结算"),
    "next_dealer": ("next dealer", "下一庄"), "carried": ("carried to the next hand", "带入下局"),
    "pays": ("pays", "付给"), "none": ("none", "无"), "yes": ("yes", "是"), "no": ("no", "否"),
}


def _both(key: str) -> str:
    en, zh = _FRAME[key]
    return f"{zh} {en}"


def _value(item: Item) -> str:
    if item.unit == "x":
        return f"×{item.value}"
    unit = _UNITS.get(item.unit, item.unit)
    return f"{item.value} {unit}".rstrip()


def _notes(item: Item) -> str:
    text = " / ".join(n for n in (item.note, item.note_zh) if n)
    return f"  ({text})" if text else ""


def _item_lines(item: Item, indent: str = "    ", mark: str = "") -> list[str]:
    """The item, then each part it totals one step further in, marked '+'."""
    lines = [f"{indent}{mark}{item.name:<8} {_value(item)}{_notes(item)}"]
    for part in item.parts:
        lines.extend(_item_lines(part, indent + "  ", "+ "))
    return lines


def _label(key: str, labels: Mapping[str, tuple[str, str]]) -> str:
    pair = labels.get(key)
    return key if pair is None else f"{pair[1]} {pair[0]}"


def _plain(value: Any, labels: Mapping[str, tuple[str, str]]) -> str:
    """A detail value as words and tiles."""
    if value is None:
        return _both("none")
    if isinstance(value, bool):
        return _both("yes" if value else "no")
    if isinstance(value, Mapping):
        return ", ".join(f"{_label(str(k), labels)} {_plain(v, labels)}"
                         for k, v in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_plain(v, labels) for v in value) if value else _both("none")
    return str(value)


def _detail_lines(details: Mapping[str, Any], labels: Mapping[str, tuple[str, str]],
                  indent: str) -> list[str]:
    lines = []
    for key, value in details.items():
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            lines.append(f"{indent}{_label(key, labels)}:")
            lines.extend(f"{indent}  {_plain(v, labels)}" for v in value)
        else:
            lines.append(f"{indent}{_label(key, labels)}: {_plain(value, labels)}")
    return lines


def _labels_of(ruleset: str) -> Mapping[str, tuple[str, str]]:
    from scoring.errors import RulesetNotImplemented
    from scoring.rulesets.registry import get_ruleset

    try:
        return get_ruleset(ruleset).detail_labels
    except RulesetNotImplemented:  # an unknown ruleset still prints, with its raw keys
        return {}


def format_settlement(s: Settlement, dealer: int | None = None) -> str:
    """Readable text of a settlement; seat winds are shown when the dealer is known."""
    labels = _labels_of(s.ruleset)

    def seat(k: int) -> str:
        if dealer is None:
            return f"seat {k}"
        return f"seat {k} ({SEAT_WINDS[(k - dealer) % 4]})"

    lines = [f"{s.ruleset}: {_both('draw' if s.outcome == 'draw' else 'win')}"]
    lines.extend(_detail_lines(s.details, labels, "  "))
    for w in s.wins:
        lines.append(f"  {_both('winner')} {seat(w.seat)}: {w.pattern}")
        lines.extend(_detail_lines(w.details, labels, "    "))
        for i in w.items:
            lines.extend(_item_lines(i))
        lines.append(f"    {_both('share')} {w.share}")
    if s.items:
        lines.append(f"  {_both('hand_items')}:")
        for i in s.items:
            lines.extend(_item_lines(i))
    if s.transfers:
        lines.append(f"  {_both('transfers')}:")
        for t in s.transfers:
            reason = " / ".join(r for r in (t.reason, t.reason_zh) if r)
            lines.append(f"    {seat(t.payer)} {_both('pays')} {seat(t.payee)} {t.amount}"
                         + (f"  ({reason})" if reason else ""))
    lines.append(f"  {_both('payments')}: "
                 + "  ".join(f"{seat(k)} {p:+}" for k, p in enumerate(s.payments)))
    lines.append(f"  {_both('next_dealer')}: {seat(s.next_dealer)}")
    if s.context:
        lines.append(f"  {_both('carried')}: "
                     + ", ".join(f"{_label(k, labels)} {v}" for k, v in s.context.items()))
    return "\n".join(lines)
