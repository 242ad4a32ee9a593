"""A seeded table that plays legal hands and reports them as match events (test helper).

It keeps the true tiles itself (the wall, every hand) and shows the engine what a camera would:
some draws face down (``?``), every discard, claim and flower face up. A win is offered to the
engine only when the engine's own mirror accepts it, so wins follow the ruleset; every other
event is legal by construction and must be accepted.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from scoring.match import events as ev
from scoring.match.errors import EventRefused
from scoring.match.hand import HandState
from scoring.rulesets.registry import get_ruleset
from scoring.tiles import TILE_NAMES, is_flower, next_in_cycle, suit_of

RESERVE = {"shandong": 12, "liaoyang": 16, "shanghai": 0}  # the specs' end of the wall


def name(t: int) -> str:
    return TILE_NAMES[t]


@dataclass
class Seat:
    hand: list[int] = field(default_factory=list)
    melds: list[tuple[str, int]] = field(default_factory=list)  # (type, tile)
    hun_discarded: bool = False


class SimTable:
    def __init__(self, rng: random.Random, ruleset: str, options: dict, dealer: int,
                 counters: dict, *, hide: float = 0.2, claim: float = 0.4,
                 win: float = 0.9) -> None:
        self.rng, self.ruleset, self.dealer = rng, ruleset, dealer
        self.hide, self.claim_rate, self.win_rate = hide, claim, win
        self.mirror = HandState.start(ruleset, options, dealer, counters)
        self.out: list[ev.Event] = []
        flowers = ruleset != "liaoyang"
        self.wall = [t for t in range(42 if flowers else 34) for _ in range(1 if t >= 34 else 4)]
        rng.shuffle(self.wall)
        self.front, self.back = 0, len(self.wall)
        self.seats = [Seat() for _ in range(4)]
        self.hun: int | None = None
        self.hun_total = 0
        self.kongs = 0

    # ------------------------------------------------------------ plumbing

    def emit(self, event: ev.Event) -> None:
        self.mirror = self.mirror.apply(event)  # a legal event must be accepted
        self.out.append(event)

    def would_accept(self, event: ev.Event) -> bool:
        if isinstance(event, ev.Won) and not self.shape_ok(event):
            return False
        try:
            self.mirror.apply(event)
        except EventRefused:
            return False
        return True

    def shape_ok(self, win: ev.Won) -> bool:
        """A quick look with the ruleset's shape test before asking the engine to score."""
        rs = get_ruleset(self.ruleset)
        ctx = {"indicator": self.mirror.indicator} if self.mirror.indicator is not None else {}
        w = self.mirror.window
        for k in win.seats:
            seat = self.mirror.seats[k]
            hand = [t for t in self.seats[k].hand if not is_flower(t)]
            if w is not None and k != w.seat:
                hand = [*hand, w.tile]
            if len(hand) % 3 != 2:
                # 八花齐 is not a shape: let the engine judge a 13-tile Shanghai hand
                return len(self.seats[k].hand) == 13 and self.ruleset == "shanghai"
            if not rs.is_winning_hand(hand, tuple(seat.melds), self.mirror.options, ctx):
                return False
        return True

    @property
    def undrawn(self) -> int:
        return self.back - self.front

    @property
    def drawable(self) -> int:
        if self.ruleset == "shandong":
            # count the stacks as they stand: a stack with one tile left at either end is one
            tail = len(self.wall) - self.back
            def stacks_after(i: int) -> int:
                return len(self.wall) // 2 - (self.front + i) // 2 - tail // 2
            return sum(1 for i in range(self.undrawn) if stacks_after(i) > 6)
        reserve = RESERVE[self.ruleset] + (2 * self.hun_total if self.ruleset == "liaoyang" else 0)
        return max(0, self.undrawn - reserve)

    def shown(self, t: int) -> str:
        return "?" if self.rng.random() < self.hide and not is_flower(t) else name(t)

    def take_front(self) -> int:
        t = self.wall[self.front]
        self.front += 1
        return t

    def take_back(self) -> int:
        self.back -= 1
        return self.wall[self.back]

    # ------------------------------------------------------------ a hand

    def play(self) -> list[ev.Event]:
        rng = self.rng
        rs = get_ruleset(self.ruleset)
        if self.ruleset == "shandong":
            for _ in range(2):
                self.emit(ev.DiceRolled(seat=self.dealer, dice=(rng.randint(1, 6),
                                                                rng.randint(1, 6))))
        elif self.ruleset == "liaoyang":
            first = (rng.randint(1, 6), rng.randint(1, 6))
            self.emit(ev.DiceRolled(seat=self.dealer, dice=first))
            second = rs.wall_break(self.dealer, [first, (1, 1)], self.mirror.options).rollers[1]
            self.emit(ev.DiceRolled(seat=second, dice=(rng.randint(1, 6), rng.randint(1, 6))))
        else:
            self.emit(ev.DiceRolled(seat=self.dealer, dice=(rng.randint(1, 6),
                                                            rng.randint(1, 6))))
        self.emit(ev.WallBroken())
        if self.ruleset == "liaoyang":
            # the indicator stays face up in the wall, deep in the tail where neither the
            # front (which stops 16 short) nor a few kong replacements reach it
            ind = self.wall[-12]
            self.emit(ev.IndicatorTurned(tile=name(ind)))
            self.hun = next_in_cycle(ind)
        hands = []
        for k in range(4):
            n = 14 if k == self.dealer else 13
            tiles = [self.take_front() for _ in range(n)]
            self.seats[k].hand = tiles
            hands.append("".join(self.shown(t) for t in tiles))
        self.emit(ev.Dealt(hands=tuple(hands)))  # type: ignore[arg-type]
        for i in range(4):
            self.replace_flowers((self.dealer + i) % 4)
        turn = self.dealer
        drew = True
        while True:
            result = self.turn(turn, drew)
            if result is None:
                return self.out
            turn, drew = result

    def replace_flowers(self, k: int) -> bool:
        """Set aside every flower seat ``k`` holds; ``False`` if the wall ran out."""
        seat = self.seats[k]
        while any(is_flower(t) for t in seat.hand):
            f = next(t for t in seat.hand if is_flower(t))
            seat.hand.remove(f)
            self.emit(ev.FlowerSetAside(seat=k, tile=name(f)))
            if self.drawable < 1:
                return False  # no replacement left: the hand is drawn
            t = self.take_back()
            seat.hand.append(t)
            self.emit(ev.Drew(seat=k, tile=self.shown(t)))
        return True

    def reveal(self, seats: list[int]) -> dict[int, str]:
        return {k: "".join(name(t) for t in self.seats[k].hand) for k in seats}

    def turn(self, k: int, drew: bool) -> tuple[int, bool] | None:
        """Seat ``k`` holds 14: win, kong or discard. Returns the next (seat, drew) or None."""
        rng, seat = self.rng, self.seats[k]
        if drew and rng.random() < self.win_rate:
            win = ev.Won(seats=(k,), reveal=self.reveal([k]),
                         tile=None if self.mirror.started else name(seat.hand[-1]),
                         bao_tile=self.bao())
            if self.would_accept(win):
                self.emit(win)
                return None
        counts = Counter(seat.hand)
        if self.drawable >= 1 and self.kongs < 4 and rng.random() < self.claim_rate:
            quad = [t for t, n in counts.items() if n == 4 and t != self.hun]
            added = [t for typ, t in seat.melds if typ == "pung" and counts[t] and t != self.hun]
            if quad:
                t = quad[0]
                for _ in range(4):
                    seat.hand.remove(t)
                seat.melds.append(("concealed_kong", t))
                self.emit(ev.Konged(seat=k, kind="concealed", tile=name(t)))
                return self.replacement(k)
            if added:
                t = added[0]
                seat.hand.remove(t)
                seat.melds = [("added_kong", x) if (typ, x) == ("pung", t) else (typ, x)
                              for typ, x in seat.melds]
                self.emit(ev.Konged(seat=k, kind="added", tile=name(t)))
                robbers = [j for j in self.others(k)
                           if rng.random() < self.win_rate and self.would_accept(
                               ev.Won(seats=(j,), reveal=self.reveal([j])))]
                if robbers:
                    self.emit(ev.Won(seats=(robbers[0],), reveal=self.reveal([robbers[0]])))
                    return None
                return self.replacement(k)
        # discard: mostly a lone tile, never a flower
        choices = [t for t in seat.hand if not is_flower(t)]
        lone = [t for t in choices if counts[t] == 1 and t != self.hun]
        t = rng.choice(lone or choices)
        seat.hand.remove(t)
        if t == self.hun:
            self.hun_total += 1
            seat.hun_discarded = True
        self.emit(ev.Discarded(seat=k, tile=name(t)))
        return self.after_discard(k, t)

    def others(self, k: int) -> list[int]:
        return [(k + i) % 4 for i in (1, 2, 3)]

    def bao(self) -> str | None:
        if self.ruleset != "liaoyang" or self.undrawn < 1:
            return None
        return name(self.wall[self.front])

    def replacement(self, k: int) -> tuple[int, bool] | None:
        if self.drawable < 1:
            return self.draw_game()
        t = self.take_back()
        self.seats[k].hand.append(t)
        self.emit(ev.Drew(seat=k, tile=self.shown(t)))
        self.kongs += 1
        if not self.replace_after_draw(k):
            return self.draw_game()
        return k, True

    def replace_after_draw(self, k: int) -> bool:
        return self.replace_flowers(k)

    def after_discard(self, k: int, t: int) -> tuple[int, bool] | None:
        rng = self.rng
        winners = []
        for j in self.others(k):
            if rng.random() < self.win_rate and self.would_accept(
                    ev.Won(seats=(j,), reveal=self.reveal([j]), bao_tile=self.bao())):
                winners.append(j)
        if winners:
            if self.ruleset == "liaoyang":
                winners = winners[:1]
            win = ev.Won(seats=tuple(winners), reveal=self.reveal(winners), bao_tile=self.bao())
            if self.would_accept(win):
                self.emit(win)
                return None
        nxt = (k + 1) % 4
        if rng.random() < self.claim_rate and t != self.hun:
            # maybe a 吃 first that a 碰 then overrides (claim priority)
            chow = self.chow_for(nxt, t)
            pungers = [j for j in self.others(k) if self.seats[j].hand.count(t) >= 2]
            if chow and pungers and rng.random() < 0.5:
                self.emit(ev.Chowed(seat=nxt, tiles="".join(name(x) for x in chow)))
                chow = None  # undone by the 碰 below
            if pungers:
                j = pungers[0]
                seat = self.seats[j]
                if (seat.hand.count(t) >= 3 and self.drawable >= 1 and self.kongs < 4
                        and rng.random() < 0.5):
                    for _ in range(3):
                        seat.hand.remove(t)
                    seat.melds.append(("exposed_kong", t))
                    self.emit(ev.Konged(seat=j, kind="exposed"))
                    return self.replacement(j)
                for _ in range(2):
                    seat.hand.remove(t)
                seat.melds.append(("pung", t))
                self.emit(ev.Punged(seat=j))
                return self.turn(j, False)
            if chow:
                seat = self.seats[nxt]
                for x in chow:
                    if x != t:
                        seat.hand.remove(x)
                seat.melds.append(("chow", min(chow)))
                self.emit(ev.Chowed(seat=nxt, tiles="".join(name(x) for x in chow)))
                return self.turn(nxt, False)
        if self.drawable < 1:
            return self.draw_game()
        t2 = self.take_front()
        self.seats[nxt].hand.append(t2)
        self.emit(ev.Drew(seat=nxt, tile=self.shown(t2)))
        if not self.replace_flowers(nxt):
            return self.draw_game()
        return nxt, True

    def chow_for(self, j: int, t: int) -> list[int] | None:
        if suit_of(t) > 2:
            return None
        hand = self.seats[j].hand
        r = t % 9
        for lo in (r - 2, r - 1, r):
            if lo < 0 or lo + 2 > 8:
                continue
            run = [t - r + lo + i for i in range(3)]
            need = [x for x in run if x != t]
            if all(x in hand for x in need) and self.hun not in run:
                return run
        return None

    def draw_game(self) -> None:
        reveal = self.reveal([k for k in range(4) if self.rng.random() < 0.5])
        self.emit(ev.DrawGame(reveal=reveal))
        return None
