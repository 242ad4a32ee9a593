"""`mjtable waits TILES`: which tiles complete the hand (听牌), under a ruleset's shapes."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from scoring.record import MELD_TYPES, Meld
from scoring.rulesets.registry import help_text
from scoring.tiles import TILE_NAMES, format_tiles, parse_tiles, tile_from_name
from scoring.waiting import seat_waits, wildcards_for
from ui.errors import CommandError

_SHORT_TYPES = {"kong": "exposed_kong", "ckong": "concealed_kong", "akong": "added_kong"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "waits", help="which tiles complete a hand (听牌)",
        description="List the tiles that complete the concealed TILES together with the melds. "
                    "Meld types are inferred (3 identical: pung, a run: chow, 4 identical: "
                    "exposed kong) or given as TYPE:TILES, e.g. concealed_kong:1111m.")
    p.add_argument("tiles", help="concealed tiles, e.g. 123m456p789s1122z")
    p.add_argument("--melds", nargs="*", default=[], metavar="MELD", help="laid-down melds")
    p.add_argument("--ruleset", metavar="RULESET",
                   help=f"apply this ruleset's winning shapes: {help_text()}")
    p.add_argument("--indicator", help="indicator tile; the ruleset says which tile it makes "
                   "the wildcard (without one: the next tile)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def parse_meld(text: str, seat: int = 0) -> Meld:
    """``EEE``, ``567m``, ``1111m`` or ``TYPE:TILES`` into a meld (claimed from the 上家)."""
    mtype, _, body = text.rpartition(":")
    tiles = tuple(parse_tiles(body))
    if mtype:
        mtype = _SHORT_TYPES.get(mtype, mtype)
        if mtype not in MELD_TYPES:
            raise CommandError(f"meld {text!r}: unknown type {mtype!r}")
    elif len(tiles) == 4:
        mtype = "exposed_kong"
    elif len(tiles) == 3:
        mtype = "pung" if len(set(tiles)) == 1 else "chow"
    else:
        raise CommandError(f"meld {text!r}: a meld has 3 or 4 tiles")
    size = 3 if mtype in ("chow", "pung") else 4
    lo = min(tiles)
    ok = len(tiles) == size and (
        sorted(tiles) == [lo, lo + 1, lo + 2] and lo < 27 and lo % 9 <= 6
        if mtype == "chow" else len(set(tiles)) == 1)
    if not ok:
        raise CommandError(f"meld {text!r} is not a valid {mtype}")
    source = None if mtype == "concealed_kong" else (seat - 1) % 4
    return Meld(type=mtype, tiles=tiles, from_seat=source, text=body)


def run(args: argparse.Namespace) -> int:
    concealed = parse_tiles(args.tiles)
    melds = tuple(parse_meld(m) for m in args.melds)
    if any(t >= 34 for t in concealed):
        raise CommandError("flowers are not part of a hand's shape")
    total = len(concealed) + 3 * len(melds)
    if total != 13:
        raise CommandError(f"a waiting hand holds 13 tiles (kongs count 3); got {total}")
    shown = Counter(concealed) + Counter(t for m in melds for t in m.tiles)
    indicator = tile_from_name(args.indicator) if args.indicator else None
    if indicator is not None:
        shown[indicator] += 1
    for t, n in shown.items():
        if n > 4:
            raise CommandError(f"{n} copies of {TILE_NAMES[t]}; the set has 4")
    context = {"indicator": indicator} if indicator is not None else {}
    if indicator is not None and indicator >= 34:
        raise CommandError("the indicator must be a playing tile")
    found = seat_waits(concealed, melds, ruleset=args.ruleset, context=context,
                       visible=[indicator] if indicator is not None else [])
    result = [t for t, _ in found]
    left = dict(found)
    wild = wildcards_for(args.ruleset, {}, context)
    if args.json:
        print(json.dumps({"tiles": format_tiles(concealed),
                          "waits": [TILE_NAMES[t] for t in result],
                          "left": {TILE_NAMES[t]: n for t, n in left.items()},
                          "wildcards": [TILE_NAMES[t] for t in sorted(wild)]},
                         ensure_ascii=False))
    elif result:
        print("waits: " + "  ".join(f"{TILE_NAMES[t]} ({left[t]} left)" for t in result))
    else:
        print("not ready (no tile completes this hand)")
    return 0
