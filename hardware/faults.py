"""Fault injection for the simulated table, parsed from a short spec string.

``drop=0.01,corrupt=0.02,duplicate=0.01,delay=0.05@0.2,jam=0.1,unplug=5:2``

* ``drop``, ``corrupt``, ``duplicate``: probability per frame, both directions (``2%`` works).
* ``delay=P@S``: probability per outgoing frame of holding it (and all after it) S seconds.
* ``jam=P``: probability that a shuffle jams part-way (fault JAM, severity error).
* ``unplug=AT[:FOR]``: the cable is pulled AT seconds after start and back FOR seconds later.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class FaultSpec:
    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    delay_s: float = 0.2
    jam: float = 0.0
    unplug_at: float | None = None
    unplug_for: float = 1.0

    @classmethod
    def parse(cls, spec: str | None) -> FaultSpec:
        if not spec or not spec.strip():
            return cls()
        values: dict[str, float | None] = {}
        for part in spec.split(","):
            name, sep, raw = part.strip().partition("=")
            name = name.strip().lower()
            if not sep or not raw.strip():
                raise ValueError(f"fault '{part.strip()}' must be NAME=VALUE (in '{spec}')")
            raw = raw.strip()
            if name in ("drop", "corrupt", "duplicate", "jam"):
                values[name] = _probability(name, raw)
            elif name == "delay":
                p, _, secs = raw.partition("@")
                values["delay"] = _probability(name, p)
                if secs:
                    values["delay_s"] = _seconds(name, secs)
            elif name == "unplug":
                at, _, dur = raw.partition(":")
                values["unplug_at"] = _seconds(name, at)
                if dur:
                    values["unplug_for"] = _seconds(name, dur)
            else:
                known = "drop, corrupt, duplicate, delay, jam, unplug"
                raise ValueError(f"unknown fault '{name}' (known: {known})")
        return cls(**values)  # type: ignore[arg-type]

    def describe(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return ",".join(parts) or "none"


def _probability(name: str, raw: str) -> float:
    text = raw.strip()
    scale = 100.0 if text.endswith("%") else 1.0
    try:
        value = float(text.rstrip("%")) / scale
    except ValueError:
        raise ValueError(f"fault {name}: '{raw}' is not a probability") from None
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"fault {name}: probability {raw} is outside 0..1")
    return value


def _seconds(name: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"fault {name}: '{raw}' is not a number of seconds") from None
    if value < 0:
        raise ValueError(f"fault {name}: {raw} seconds is negative")
    return value
