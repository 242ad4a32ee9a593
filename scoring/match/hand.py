"""One hand followed event by event: tiles, turns, claims, the wall, and the finished record.

:class:`HandState` is immutable from the outside: :meth:`HandState.apply` returns a new state or
raises :class:`~scoring.match.errors.EventRefused` with the rule that forbids the event. When the
hand ends (a win or a draw game) the state holds the derived hand record, every field filled, and
its settlement from the ruleset.

Claims on a discard are resolved by priority as they arrive: a higher claim (和 > 杠/碰 > 吃) on
the same discard undoes a lower one made before the claimant acted again, a lower or equal one is
refused. Tiles the camera did not see are counted as unknown; a discard or claim of a known tile
from a hand with unknown tiles takes one of those.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import ScoringError
from scoring.match.errors import EventRefused
from scoring.match.events import (
    Chowed,
    Dealt,
    Declared,
    DiceRolled,
    Discarded,
    DrawGame,
    Drew,
    Event,
    Exchanged,
    FlowerSetAside,
    IndicatorTurned,
    Konged,
    Punged,
    WallBroken,
    Won,
)
from scoring.match.tiletext import one_tile_or_unknown, parse_with_unknown
from scoring.record import HandRecord, Meld, Seat, parse_record
from scoring.rulesets.base import Ruleset, WinnerFacts
from scoring.rulesets.registry import get_ruleset
from scoring.settlement import Settlement
from scoring.tiles import (
    FLOWERS,
    TILE_NAMES,
    Tile,
    format_tiles,
    is_flower,
    suit_of,
)

PRIORITY = {"chow": 1, "pung": 2, "kong": 2, "win": 3}
CLAIM_NAMES = {"chow": "吃", "pung": "碰", "kong": "明杠", "win": "和"}
DEALT = 13 * 4 + 1  # the dealer takes 14, the others 13


def _name(t: Tile | None) -> str:
    return "?" if t is None else TILE_NAMES[t]


@dataclass
class SeatInPlay:
    known: Counter[Tile] = field(default_factory=Counter)
    unknown: int = 0
    melds: list[Meld] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    river: list[Tile] = field(default_factory=list)  # discards still lying on the table
    discards: int = 0
    declared: str | None = None
    ready: bool = False
    hun_discarded: int = 0
    owed: int = 0  # replacement draws owed for flowers set aside during the deal
    louhu: set[Tile] = field(default_factory=set)  # 漏胡: tiles passed while winning
    drew: bool = False  # the seat's last tile came from the wall (not a claim)
    last_drawn: Tile | None = None
    drawn_source: str | None = None  # "wall", "kong" or "flower"
    kong_fed_by: int | None = None
    drawn_drawable: int = 10**6  # drawable tiles left just after its last draw (none yet)
    konged_last: bool = False  # its last action was a kong (Liaoyang 反弹)

    def clone(self) -> SeatInPlay:
        new = SeatInPlay.__new__(SeatInPlay)
        new.__dict__.update(self.__dict__)
        new.known = Counter(self.known)
        new.melds = list(self.melds)
        new.flowers = list(self.flowers)
        new.river = list(self.river)
        new.louhu = set(self.louhu)
        return new

    @property
    def standing(self) -> int:
        return sum(self.known.values()) + self.unknown

    @property
    def size(self) -> int:
        """Standing tiles plus melds, each kong counted as 3."""
        return self.standing + 3 * len(self.melds)

    def take(self, tile: Tile, n: int, seat: int) -> None:
        """Remove ``n`` copies of ``tile`` from the hand, using unseen tiles where needed."""
        have = self.known[tile]
        if have + self.unknown < n:
            raise EventRefused(f"seat {seat} does not hold {n} × {TILE_NAMES[tile]}")
        use_known = min(have, n)
        self.known[tile] -= use_known
        if not self.known[tile]:
            del self.known[tile]
        self.unknown -= n - use_known

    def add(self, tile: Tile | None) -> None:
        if tile is None:
            self.unknown += 1
        else:
            self.known[tile] += 1

    def concealed_tiles(self) -> list[Tile]:
        return sorted(self.known.elements())


@dataclass(frozen=True)
class Window:
    """A claim window: after a discard, or after a 补杠 that others may rob."""

    kind: str  # "discard" or "rob"
    seat: int  # the discarder, or the player making the 补杠
    tile: Tile
    base: HandState  # the state the claims start from
    claim: tuple[int, int, str] | None = None  # (priority, seat, claim) applied so far
    after_kong: bool = False  # the discarder discarded right after its own kong


@dataclass
class HandState:
    ruleset: str
    options: dict[str, Any]  # as the match gives them (they go into the hand record)
    dealer: int
    counters: dict[str, int]
    rolls: list[tuple[int, tuple[int, int]]] = field(default_factory=list)
    broken: bool = False
    wall_seat: int | None = None
    stacks: int | None = None
    indicator_stack: int | None = None  # Liaoyang: the stack whose top tile is the indicator
    wall_text: str = ""  # the ruleset's reading of the dice, for the referee
    indicator: Tile | None = None
    indicator_drawn: bool = False  # a kong replacement reached the face-up indicator itself
    dealt: bool = False
    started: bool = False  # the dealer has discarded: the deal's flower round is over
    undrawn: int = 0
    tail_drawn: int = 0  # replacements taken from the tail of the wall (Shandong stacks)
    seats: list[SeatInPlay] = field(default_factory=lambda: [SeatInPlay() for _ in range(4)])
    turn: int = 0
    need: str = "deal"  # "deal", "draw", "discard", "replacement" or "over"
    replacement_for: str | None = None  # "kong" or "flower"
    window: Window | None = None
    any_claim: bool = False
    hun_total: int = 0
    #: 一炮多响 / several robbers: (the tile, how many winners beyond the first show it)
    shared_win: tuple[Tile, int] | None = None
    record: HandRecord | None = None
    settlement: Settlement | None = None
    #: Shanghai 换牌 (option ``exchange``): seat -> whether it exchanged, once it is recorded
    exchanged: dict[int, bool] = field(default_factory=dict)
    #: ``options`` resolved once by the ruleset when the hand starts
    rule_options: Any = None

    @classmethod
    def start(cls, ruleset: str, options: dict[str, Any], dealer: int,
              counters: dict[str, int]) -> HandState:
        rules = get_ruleset(ruleset)
        return cls(ruleset=ruleset, options=dict(options), rule_options=rules.typed(options),
                   dealer=dealer, counters=dict(counters), undrawn=rules.wall_tiles, turn=dealer)

    def clone(self) -> HandState:
        new = HandState.__new__(HandState)
        new.__dict__.update(self.__dict__)
        new.seats = [s.clone() for s in self.seats]
        new.rolls = list(self.rolls)
        new.exchanged = dict(self.exchanged)
        return new

    # ------------------------------------------------------------ what the table shows

    @property
    def rules(self) -> Ruleset:
        """The ruleset this hand is played under: everything ruleset-specific is asked of it."""
        return get_ruleset(self.ruleset)

    @property
    def over(self) -> bool:
        return self.need == "over"

    @property
    def wild(self) -> frozenset[Tile]:
        """The wildcard kinds this hand (Liaoyang's 混, from the indicator)."""
        if self.indicator is None:
            return frozenset()
        return self.rules.wildcards(self.rule_options, {"indicator": self.indicator})

    @property
    def hun(self) -> Tile | None:
        """The wildcard, where the ruleset makes one (Liaoyang's 混)."""
        return min(self.wild, default=None)

    @property
    def drawable(self) -> int:
        """How many more tiles may be drawn, as the ruleset ends its wall."""
        return self.rules.drawable(self.undrawn, self.hun_total, self.tail_drawn)

    def wall(self) -> dict[str, Any]:
        """Where the wall was broken and what it still holds (the dashboard's wall panel)."""
        return {"wall_seat": self.wall_seat, "stacks_skipped": self.stacks,
                "indicator_stack": self.indicator_stack, "explanation": self.wall_text,
                "undrawn": self.undrawn, "drawable": self.drawable,
                "kept_back": self.undrawn - self.drawable,
                "hun": TILE_NAMES[self.hun] if self.hun is not None else None}

    def status(self) -> str:
        """One line a referee reads: whose turn, what is expected, what the wall holds."""
        if self.over:
            return "hand over"
        if self.need == "deal":
            steps = [f"dice {len(self.rolls)}/{self.rules.rolls}",
                     "wall broken" if self.broken else "wall not broken"]
            if self.rules.turns_indicator:
                steps.append(f"indicator {_name(self.indicator)}" if self.indicator is not None
                             else "no indicator yet")
            return "before the deal: " + ", ".join(steps)
        if pending := self.exchange_pending:
            return f"换牌 (exchange): seat(s) {pending} still to record as done or not"
        return (f"seat {self.turn} to {self.need}; {self.undrawn} tiles in the wall, "
                f"{self.drawable} drawable")

    # ------------------------------------------------------------ apply

    def apply(self, event: Event) -> HandState:
        """The state after ``event``; :class:`EventRefused` names the rule it breaks."""
        if self.over:
            raise EventRefused("the hand is over", event)
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            raise EventRefused(f"{event.type} is not an event of a hand in play", event)
        if (pending := self.exchange_pending) and event.type in ("discard", "kong", "win"):
            raise EventRefused(f"换牌 comes first: record seat(s) {pending} as exchanged or "
                               "not (option exchange)", event)
        try:
            new = self.clone()
            handler(new, event)
            new._check_counts()
        except EventRefused as exc:
            if exc.event is None:
                raise EventRefused(exc.reason, event) from None
            raise
        return new

    # each handler mutates ``s`` (a fresh clone) in place

    @staticmethod
    def _on_dice(s: HandState, ev: DiceRolled) -> None:
        if s.dealt or s.broken:
            raise EventRefused("the dice are rolled before the wall is broken")
        n = s.rules.rolls
        if len(s.rolls) >= n:
            raise EventRefused(f"{s.ruleset} rolls the dice {n} time(s) per hand")
        why = s.rules.roll_refusal(s.dealer, [r for _, r in s.rolls], ev.seat, s.rule_options)
        if why:
            raise EventRefused(why)
        s.rolls.append((ev.seat, ev.dice))

    @staticmethod
    def _on_wall_broken(s: HandState, ev: WallBroken) -> None:
        if s.dealt or s.broken:
            raise EventRefused("the wall is broken once, before the deal")
        wall_seat, stacks = ev.wall_seat, ev.stacks
        if s.rolls:
            if len(s.rolls) < s.rules.rolls:
                raise EventRefused(f"{s.ruleset} needs {s.rules.rolls} dice rolls "
                                   f"before the wall is broken, got {len(s.rolls)}")
            wb, _ = s.rules.read_wall_break(s.dealer, [r for _, r in s.rolls], s.rule_options)
            if wb is not None:
                if wall_seat is not None and wall_seat != wb.wall_seat:
                    raise EventRefused(f"the dice break the wall of seat {wb.wall_seat}, "
                                       f"not seat {wall_seat}")
                if stacks is not None and stacks != wb.stacks_skipped:
                    raise EventRefused(f"the dice skip {wb.stacks_skipped} stacks, not {stacks}")
                wall_seat, stacks = wb.wall_seat, wb.stacks_skipped
                s.indicator_stack = wb.indicator_stack
                s.wall_text = wb.explanation
        s.broken = True
        s.wall_seat = wall_seat
        s.stacks = stacks

    @staticmethod
    def _on_indicator(s: HandState, ev: IndicatorTurned) -> None:
        if not s.rules.turns_indicator:
            raise EventRefused(f"{s.ruleset} turns no indicator (it has no wildcard)")
        if s.indicator is not None:
            raise EventRefused(f"the indicator is already {_name(s.indicator)}")
        if s.dealt:
            raise EventRefused("the indicator is turned before the deal")
        s.indicator = one_tile_or_unknown(ev.tile)

    @staticmethod
    def _on_deal(s: HandState, ev: Dealt) -> None:
        if s.dealt:
            raise EventRefused("the tiles are already dealt")
        if s.rules.turns_indicator and s.indicator is None:
            raise EventRefused("turn the indicator (which fixes the 混) before the deal")
        for k, text in enumerate(ev.hands):
            known, unknown = parse_with_unknown(text)
            want = 14 if k == s.dealer else 13
            if len(known) + unknown != want:
                raise EventRefused(f"seat {k} is dealt {want} tiles "
                                   f"({'dealer' if want == 14 else 'not the dealer'}), "
                                   f"got {len(known) + unknown}")
            if not s.rules.has_flowers and any(is_flower(t) for t in known):
                raise EventRefused(f"{s.ruleset} plays without flowers (seat {k})")
            seat = s.seats[k]
            seat.known.update(known)
            seat.unknown += unknown
        s.undrawn -= DEALT
        s.dealt = True
        s.turn = s.dealer
        s.need = "discard"
        s.seats[s.dealer].drew = True  # the dealer's 14th tile counts as drawn (天和)

    @property
    def exchange_pending(self) -> list[int]:
        """Seats whose 换牌 (done or not) is still to be recorded before play starts."""
        if not self.dealt or self.started or not self.rules.exchange_on(self.rule_options):
            return []
        return [k for k in range(4) if k not in self.exchanged]

    @staticmethod
    def _on_exchange(s: HandState, ev: Exchanged) -> None:
        """换牌: the seat buries 5 tiles and takes 5 from the wall (the wall keeps its size).

        Tiles not given leave the seat's hand unseen: which 5 were swapped is not known.
        """
        if not s.rules.exchange_on(s.rule_options):
            raise EventRefused(f"换牌 is off: it is a {s.ruleset} house option (exchange)"
                               if s.rules.exchange_tiles else f"{s.ruleset} has no 换牌")
        if not s.dealt or s.started:
            raise EventRefused("换牌 comes after the deal and before the dealer's first discard")
        if ev.seat in s.exchanged:
            raise EventRefused(f"seat {ev.seat}'s 换牌 is already recorded "
                               f"({'done' if s.exchanged[ev.seat] else 'not done'})")
        if not ev.done and (ev.given or ev.taken):
            raise EventRefused("a seat that did not exchange gives and takes no tiles")
        if ev.done and (ev.given is None) != (ev.taken is None):
            raise EventRefused("name both the tiles buried (given) and taken, or neither")
        n = s.rules.exchange_tiles
        for key, text in (("given", ev.given), ("taken", ev.taken)):
            known, unknown = parse_with_unknown(text) if text is not None else ((), n)
            if len(known) + unknown != n:
                raise EventRefused(f"exchange.{key}: needs {n} tiles, got "
                                   f"{len(known) + unknown}")
        seat = s.seats[ev.seat]
        if ev.done and ev.given is not None and ev.taken is not None:
            given, unknown_given = parse_with_unknown(ev.given)
            for t in given:
                seat.take(t, 1, ev.seat)
            if unknown_given:
                if seat.unknown < unknown_given:
                    raise EventRefused(f"seat {ev.seat} has {seat.unknown} unseen tile(s), "
                                       f"cannot bury {unknown_given}")
                seat.unknown -= unknown_given
            taken, unknown_taken = parse_with_unknown(ev.taken)
            for t in taken:
                seat.add(t)
            seat.unknown += unknown_taken
        elif ev.done:
            seat.unknown += sum(seat.known.values())
            seat.known.clear()
        s.exchanged[ev.seat] = ev.done

    def _close_window(self) -> None:
        """No (more) claims on the last discard: seats that could have won pass it (漏胡)."""
        w = self.window
        if w is None:
            return
        self.window = None
        if w.kind != "discard" or not self.rules.louhu:
            return
        # the claimant took the tile (漏胡 is for passing a win, and a claim lifts it anyway);
        # the others' hands are as they were when the tile came out
        claimant = w.claim[1] if w.claim else None
        for k, seat in enumerate(self.seats):
            if k in (w.seat, claimant) or seat.unknown:
                continue
            if _could_win(self, k, w.tile):
                seat.louhu.add(w.tile)

    @staticmethod
    def _on_draw(s: HandState, ev: Drew) -> None:
        tile = one_tile_or_unknown(ev.tile)
        seat = s.seats[ev.seat]
        if not s.dealt:
            raise EventRefused("nobody draws before the deal")
        if s.drawable < 1:
            raise EventRefused(f"no drawable tile is left ({s.undrawn} in the wall, "
                               f"{s.undrawn - s.drawable} stay): record a draw game")
        if tile is not None and is_flower(tile) and not s.rules.has_flowers:
            raise EventRefused(f"{s.ruleset} plays without flowers")
        if seat.owed:  # a replacement for a flower set aside during the deal
            seat.owed -= 1
            source = "flower"
        elif ev.seat == s.turn and s.need == "replacement":
            source = s.replacement_for or "kong"
            s._close_window()  # nobody robbed the 补杠
            s.need = "discard"
        elif ev.seat == s.turn and s.need == "draw":
            s._close_window()
            source = "wall"
            s.need = "discard"
            seat.kong_fed_by = None
        else:
            raise EventRefused(s._whose_turn(ev.seat))
        s.undrawn -= 1
        if source != "wall":
            s.tail_drawn += 1
        seat.add(tile)
        if (tile is not None and tile == s.indicator and source == "kong"
                and not s.indicator_drawn and s._seen_counts()[tile] > 4):
            # replacements come from the tail, towards the indicator's stack: this is it
            s.indicator_drawn = True
        seat.louhu.clear()
        seat.drew = True
        seat.last_drawn = tile
        seat.drawn_source = source
        seat.drawn_drawable = s.drawable
        if source != "kong":
            seat.kong_fed_by = None

    def _whose_turn(self, seat: int) -> str:
        if self.need == "deal":
            return "the tiles are not dealt yet"
        owing = [k for k, st in enumerate(self.seats) if st.owed]
        extra = f"; seat(s) {owing} owe a flower replacement" if owing else ""
        return f"it is seat {self.turn}'s turn to {self.need}, not seat {seat}'s{extra}"

    @staticmethod
    def _on_flower(s: HandState, ev: FlowerSetAside) -> None:
        tile = one_tile_or_unknown(ev.tile)
        if tile is None or not is_flower(tile):
            raise EventRefused(f"{ev.tile} is not a flower")
        if not s.rules.has_flowers:
            raise EventRefused(f"{s.ruleset} plays without flowers")
        seat = s.seats[ev.seat]
        if not s.dealt:
            raise EventRefused("flowers are set aside after the deal")
        if s.started:
            if ev.seat != s.turn or s.need != "discard":
                raise EventRefused(s._whose_turn(ev.seat))
            s._close_window()
            s.need = "replacement"
            s.replacement_for = "flower"
        else:
            seat.owed += 1
        seat.take(tile, 1, ev.seat)
        seat.flowers.append(tile)

    def _flower_in_hand(self) -> str | None:
        for k, seat in enumerate(self.seats):
            flowers = [t for t in seat.known if is_flower(t)]
            if flowers:
                return f"seat {k} holds {_name(flowers[0])}: set it aside first"
            if seat.owed:
                return f"seat {k} still draws a replacement for a flower"
        return None

    @staticmethod
    def _on_discard(s: HandState, ev: Discarded) -> None:
        tile = one_tile_or_unknown(ev.tile)
        assert tile is not None
        if ev.seat != s.turn or s.need != "discard":
            raise EventRefused(s._whose_turn(ev.seat))
        if is_flower(tile):
            raise EventRefused("a flower is set aside, not discarded")
        if not s.started and (msg := s._flower_in_hand()):
            raise EventRefused(msg)
        seat = s.seats[ev.seat]
        if seat.known.get(tile, 0) == 0 and any(is_flower(t) for t in seat.known):
            raise EventRefused(f"seat {ev.seat} holds a flower: set it aside first")
        seat.take(tile, 1, ev.seat)
        s._close_window()
        s.started = True
        seat.discards += 1
        seat.river.append(tile)
        seat.drew = False
        if tile == s.hun:
            seat.hun_discarded += 1
            s.hun_total += 1
        after_kong, seat.konged_last = seat.konged_last, False
        s.turn = (ev.seat + 1) % 4
        s.need = "draw"
        base = s.clone()
        s.window = Window("discard", ev.seat, tile, base, None, after_kong)

    # ------------------------------------------------------------ claims on a discard

    def _claim_base(self, seat: int, claim: str) -> tuple[HandState, Window]:
        """The state a claim applies to, after the priority rule (和 > 杠/碰 > 吃)."""
        w = self.window
        if w is None or w.kind != "discard":
            raise EventRefused(f"there is no discard to claim ({self.status()})")
        if seat == w.seat:
            raise EventRefused("a player cannot claim its own discard")
        prio = PRIORITY[claim]
        if w.claim is not None:
            p0, s0, c0 = w.claim
            if prio <= p0:
                raise EventRefused(
                    f"seat {s0}'s {CLAIM_NAMES[c0]} already takes this {_name(w.tile)} "
                    f"(和 > 杠/碰 > 吃)")
        base = w.base.clone()
        base.window = None
        return base, w

    def _claim_check(self, tiles: list[Tile], meld_type: str) -> None:
        """The ruleset says which tiles a claim may use (Liaoyang: a 混 never in a 吃)."""
        why = self.rules.claim_refusal(meld_type, tiles, self.wild, self.rule_options)
        if why:
            raise EventRefused(why)

    def _after_claim(self, base: HandState, w: Window, seat: int, claim: str) -> None:
        """Copy ``base`` (with the claim applied) into ``self`` and keep the window open."""
        base.window = Window("discard", w.seat, w.tile, w.base,
                             (PRIORITY[claim], seat, claim), w.after_kong)
        base.any_claim = True
        self.__dict__.update(base.__dict__)

    @staticmethod
    def _on_chow(s: HandState, ev: Chowed) -> None:
        base, w = s._claim_base(ev.seat, "chow")
        if ev.seat != (w.seat + 1) % 4:
            raise EventRefused(f"吃 only from the 上家: seat {ev.seat} may chow seat "
                               f"{(ev.seat - 1) % 4}'s discards, this is seat {w.seat}'s")
        tiles = sorted(parse_with_unknown(ev.tiles)[0])
        lo = tiles[0]
        if suit_of(lo) > 2 or tiles != [lo, lo + 1, lo + 2] or suit_of(lo + 2) != suit_of(lo):
            raise EventRefused(f"{ev.tiles} is not a run of three in one suit")
        if w.tile not in tiles:
            raise EventRefused(f"the chow {ev.tiles} does not use the discard {_name(w.tile)}")
        base._claim_check(tiles, "chow")
        seat = base.seats[ev.seat]
        rest = list(tiles)
        rest.remove(w.tile)
        for t in rest:
            seat.take(t, 1, ev.seat)
        base._claimed(ev.seat, w, Meld("chow", tuple(tiles), w.seat))
        base.need = "discard"
        s._after_claim(base, w, ev.seat, "chow")

    @staticmethod
    def _on_pung(s: HandState, ev: Punged) -> None:
        base, w = s._claim_base(ev.seat, "pung")
        base._claim_check([w.tile], "pung")
        base.seats[ev.seat].take(w.tile, 2, ev.seat)
        base._claimed(ev.seat, w, Meld("pung", (w.tile,) * 3, w.seat))
        base.need = "discard"
        s._after_claim(base, w, ev.seat, "pung")

    def _claimed(self, seat: int, w: Window, meld: Meld) -> None:
        st = self.seats[seat]
        st.melds.append(meld)
        river = self.seats[w.seat].river
        river.pop()  # the claimed discard leaves the river
        st.louhu.clear()
        st.drew = False
        st.konged_last = False
        self.turn = seat

    def _kong_limit(self) -> None:
        if self.drawable < 1:
            raise EventRefused(f"no replacement tile is left ({self.rules.wall_end}): a kong "
                               "now has no effect")

    @staticmethod
    def _on_kong(s: HandState, ev: Konged) -> None:
        s._kong_limit()
        if ev.kind == "exposed":
            base, w = s._claim_base(ev.seat, "kong")
            if ev.tile is not None and one_tile_or_unknown(ev.tile) != w.tile:
                raise EventRefused(f"the discard is {_name(w.tile)}, not {ev.tile}")
            base._claim_check([w.tile], "exposed_kong")
            base.seats[ev.seat].take(w.tile, 3, ev.seat)
            base._claimed(ev.seat, w, Meld("exposed_kong", (w.tile,) * 4, w.seat))
            base.need = "replacement"
            base.replacement_for = "kong"
            seat = base.seats[ev.seat]
            seat.kong_fed_by = w.seat
            seat.konged_last = True
            s._after_claim(base, w, ev.seat, "kong")
            return
        if ev.seat != s.turn or s.need != "discard":
            raise EventRefused(s._whose_turn(ev.seat))
        if ev.tile is None:
            raise EventRefused(f"name the tile of the {ev.kind} kong")
        s._close_window()  # the claimant acted again: its claim stands
        tile = one_tile_or_unknown(ev.tile)
        assert tile is not None
        s._claim_check([tile], "exposed_kong")
        seat = s.seats[ev.seat]
        before = s.clone()
        if ev.kind == "concealed":
            seat.take(tile, 4, ev.seat)
            seat.melds.append(Meld("concealed_kong", (tile,) * 4, None))
        else:
            idx = next((i for i, m in enumerate(seat.melds)
                        if m.type == "pung" and m.tiles[0] == tile), None)
            if idx is None:
                raise EventRefused(f"seat {ev.seat} has no pung of {_name(tile)} to add to")
            seat.take(tile, 1, ev.seat)
            pung = seat.melds[idx]
            seat.melds[idx] = Meld("added_kong", (tile,) * 4, pung.from_seat)
            # others may rob this tile (抢杠) until the replacement is drawn
            before.window = None
            s.window = Window("rob", ev.seat, tile, before)
        s.need = "replacement"
        s.replacement_for = "kong"
        seat.kong_fed_by = None
        seat.konged_last = True
        seat.louhu.clear()

    @staticmethod
    def _on_declare(s: HandState, ev: Declared) -> None:
        seat = s.seats[ev.seat]
        if not s.dealt:
            raise EventRefused("declarations come after the deal")
        if ev.what == "ting":
            seat.ready = True
            return
        if ev.what not in s.rules.declarations:
            raise EventRefused(f"{ev.what} is no {s.ruleset} declaration")
        if seat.declared is not None:
            raise EventRefused(f"seat {ev.seat} already declared {seat.declared}")
        seat.declared = ev.what
        seat.ready = True

    # ------------------------------------------------------------ the end of the hand

    @staticmethod
    def _on_win(s: HandState, ev: Won) -> None:
        w = s.window
        bao = one_tile_or_unknown(ev.bao_tile)
        if w is not None and w.kind == "discard" and all(k != w.seat for k in ev.seats):
            base, w = s._claim_base(ev.seats[0], "win")
            by, from_seat, tile = "discard", w.seat, w.tile
            base.seats[w.seat].river.pop()
        elif w is not None and w.kind == "rob" and w.seat not in ev.seats:
            base = w.base.clone()
            by, from_seat, tile = "rob_kong", w.seat, w.tile
            base.seats[w.seat].take(tile, 1, w.seat)
        else:
            if len(ev.seats) != 1 or ev.seats[0] != s.turn:
                raise EventRefused(f"only seat {s.turn} can win now, by self-draw "
                                   f"({s.status()})")
            base = s.clone()
            base.window = None
            by, from_seat = "self_draw", None
            tile = base._self_drawn_tile(ev)
        if len(ev.seats) > 1 and not s.rules.multi_win:
            first = min(ev.seats, key=lambda k: (k - (from_seat or 0)) % 4)
            raise EventRefused(f"{s.ruleset} allows one winner per discard: seat {first}, the "
                               "first claimant after the discarder in play order")
        base._reveal(ev.reveal)
        for k in ev.ready:
            base.seats[k].ready = True
        wins = []
        for k in ev.seats:
            seat = base.seats[k]
            why = s.rules.win_refusal(WinnerFacts(k, by, tile, seat.declared,
                                                  seat.hun_discarded, frozenset(seat.louhu)),
                                      s.rule_options)
            if why:
                raise EventRefused(why)
            if seat.unknown:
                raise EventRefused(f"seat {k} has {seat.unknown} unseen tile(s): reveal its "
                                   "hand in the win event")
            wins.append(base._win_json(k, tile, by, from_seat, w))
        for k in ev.seats:
            if by != "self_draw":
                base.seats[k].add(tile)
        if by != "self_draw" and len(ev.seats) > 1:
            base.shared_win = (tile, len(ev.seats) - 1)  # one tile in every winner's hand
        base.need = "over"
        s.__dict__.update(base.__dict__)
        s._finish("win", wins, bao)

    def _self_drawn_tile(self, ev: Won) -> Tile:
        seat = self.seats[self.turn]
        flowers = sorted(seat.flowers)
        if (self.need == "replacement" and self.replacement_for == "flower"
                and flowers == list(FLOWERS)):
            return seat.flowers[-1]  # 八花齐: the eighth flower wins at once
        if self.need != "discard":
            raise EventRefused(f"seat {self.turn} must {self.need} before it can win")
        if not seat.drew:
            raise EventRefused(f"seat {self.turn} took its last tile by a claim: no self-draw "
                               "win (win on the discard instead)")
        named = one_tile_or_unknown(ev.tile)
        # before the dealer's first discard its last tile is a deal's one (any tile of the
        # hand may be the 天和 tile) unless it came after a kong, which is play
        if seat.last_drawn is not None and (self.started or seat.drawn_source == "kong"):
            if named is not None and named != seat.last_drawn:
                raise EventRefused(f"seat {self.turn} drew {_name(seat.last_drawn)}, "
                                   f"not {ev.tile}")
            return seat.last_drawn
        if named is None:
            raise EventRefused("name the winning tile: the camera did not see it drawn")
        return named

    def _reveal(self, reveal: dict[int, str]) -> None:
        for k, text in reveal.items():
            seat = self.seats[k]
            tiles = Counter(parse_with_unknown(text)[0])
            if sum(tiles.values()) != seat.standing:
                raise EventRefused(f"seat {k} stands {seat.standing} tiles, the reveal "
                                   f"shows {sum(tiles.values())}")
            missing = seat.known - tiles
            if missing:
                lacks = format_tiles(missing.elements(), True)
                raise EventRefused(f"seat {k}'s reveal lacks {lacks} it is known to hold")
            seat.known = tiles
            seat.unknown = 0

    def _win_json(self, k: int, tile: Tile, by: str, from_seat: int | None,
                  w: Window | None) -> dict[str, Any]:
        seat = self.seats[k]
        out: dict[str, Any] = {"seat": k, "tile": TILE_NAMES[tile], "by": by}
        if from_seat is not None:
            out["from"] = from_seat
        # the deal's flower replacements are not 杠上开花; a kong is play even before the
        # dealer's first discard (and a flower after it)
        if by == "self_draw" and (seat.drawn_source == "kong"
                                  or (seat.drawn_source == "flower" and self.started)):
            out["replacement"] = seat.drawn_source
            if seat.drawn_source == "kong" and seat.kong_fed_by is not None:
                out["kong_fed_by"] = seat.kong_fed_by
        if seat.discards == 0 and not self.any_claim:
            out["first_turn"] = True
        last = self.rules.last_tiles
        drawer = self.seats[from_seat] if by == "discard" and from_seat is not None else seat
        if by != "rob_kong" and self.started and drawer.drawn_drawable < last:
            out["last_tiles"] = True
        if by == "discard" and w is not None and w.after_kong:
            out["discarder_after_kong"] = True
        return out

    @staticmethod
    def _on_draw_game(s: HandState, ev: DrawGame) -> None:
        if not s.dealt or s.need not in ("draw", "replacement"):
            raise EventRefused(f"a draw game comes when a tile is due, not now ({s.status()})")
        if s.drawable:
            raise EventRefused(f"{s.drawable} tile(s) are still drawable: no draw game yet")
        s._close_window()
        s._reveal(ev.reveal)
        for k in ev.ready:
            s.seats[k].ready = True
        s.need = "over"
        s._finish("draw", [], None)

    def _finish(self, outcome: str, wins: list[dict[str, Any]], bao: Tile | None) -> None:
        record = self.record_json(outcome, wins, bao)
        self.record, self.settlement = score_record(record)

    def record_json(self, outcome: str, wins: list[dict[str, Any]],
                    bao: Tile | None = None) -> dict[str, Any]:
        """The hand record (``shared/rules/README.md``) of this hand as it stands."""
        seats = []
        for seat in self.seats:
            concealed = "" if seat.unknown else format_tiles(seat.concealed_tiles())
            entry: dict[str, Any] = {
                "concealed": concealed,
                "melds": [m.to_json() for m in seat.melds],
                "flowers": [TILE_NAMES[t] for t in seat.flowers],
            }
            if seat.ready:
                entry["ready"] = True
            if seat.declared:
                entry["declared"] = seat.declared
            if seat.hun_discarded:
                entry["hun_discarded"] = seat.hun_discarded
            seats.append(entry)
        context: dict[str, Any] = {k: self.counters.get(k, 0) for k in self.rules.counters}
        if self.rolls:
            context["dice"] = list(self.rolls[0][1])
        if self.indicator is not None:
            context["indicator"] = TILE_NAMES[self.indicator]
        if bao is not None:
            context["bao_tile"] = TILE_NAMES[bao]
        out: dict[str, Any] = {"ruleset": self.ruleset, "options": dict(self.options),
                               "dealer": self.dealer, "seats": seats, "outcome": outcome}
        if outcome == "win":
            out["wins"] = wins
        out["context"] = context
        return out

    def _check_counts(self) -> None:
        """At most 4 copies of a tile (one of a flower) among everything seen."""
        counts = self._seen_counts()
        for t, n in enumerate(counts):
            if n > (1 if t >= 34 else 4):
                limit = 1 if is_flower(t) else 4
                raise EventRefused(f"{n} copies of {_name(t)} would be on the table; "
                                   f"the set has {limit}")

    def _seen_counts(self) -> list[int]:
        counts = [0] * len(TILE_NAMES)
        for seat in self.seats:
            for t, n in seat.known.items():
                counts[t] += n
            for t in seat.river:
                counts[t] += 1
            for t in seat.flowers:
                counts[t] += 1
            for m in seat.melds:
                counts[m.tiles[0]] += 1 if m.type == "chow" else len(m.tiles)
                if m.type == "chow":
                    counts[m.tiles[1]] += 1
                    counts[m.tiles[2]] += 1
        if self.indicator is not None and not self.indicator_drawn:
            counts[self.indicator] += 1
        if self.shared_win is not None:
            tile, extra = self.shared_win
            counts[tile] -= extra
        return counts


def score_record(data: dict[str, Any]) -> tuple[HandRecord, Settlement]:
    """Parse and score a hand record; any refusal of the rules becomes :class:`EventRefused`."""
    from scoring.scorer import score

    try:
        record = parse_record(data)
        return record, score(record)
    except ScoringError as exc:
        raise EventRefused(str(exc)) from None


def _could_win(s: HandState, k: int, tile: Tile) -> bool:
    """Would ``tile`` complete seat ``k``'s fully known hand under the ruleset (漏胡)?"""
    seat = s.seats[k]
    rs = s.rules
    hand = [*seat.concealed_tiles(), tile]
    if any(is_flower(t) for t in hand):
        return False
    context = {"indicator": s.indicator} if s.indicator is not None else {}
    try:
        return bool(rs.is_winning_hand(hand, tuple(seat.melds), s.rule_options, context))
    except ScoringError:
        return False


def flower_points(hand: HandState | None, seat: int) -> int:
    """The points a leaving player shows in the hand in progress (Shandong's 花 for its escape
    penalty), as its ruleset counts them; 0 between hands."""
    if hand is None:
        return 0
    st = hand.seats[seat]
    return hand.rules.flower_points(Seat(melds=tuple(st.melds), flowers=tuple(st.flowers)))
