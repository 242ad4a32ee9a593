"""A scripted game rendered as a video: one table, one camera, one light, many moments.

:func:`render_sequence` plays a :class:`Story` (what happens at the table, step by step) on one
synthetic table: the look, the tile faces, the camera and the light are drawn once from the seed,
and every step is rendered from the same rig, so that only what the players changed changes in
the picture. Each step is held for a number of video frames with fresh sensor noise (a still
camera never gives two identical frames). The sequence's script is what a perfect observer would
report: the events in the order they happen, and for every win the hand record.

The tile faces are photos of one fold (``fold="val"``: faces no model was trained on), one photo
per kind, as on a real set where the four copies of a tile are printed alike.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets import photo_faces, textures
from datasets.camera import Camera
from datasets.game import GameSeat, GameState
from datasets.layout import Body, TileSize, die, table_layout
from datasets.render import Light, render
from datasets.scene import _camera_over, _look, _manifest, build_surfaces, plane_background
from scoring.record import Meld
from scoring.rulesets.registry import default_ruleset
from scoring.tiles import TILE_NAMES, format_tiles, parse_tiles

DIE_SIDE = 16.0  # mm
NOISE = 1.5  # sensor noise (grey levels) added to every video frame


@dataclass
class Dice:
    """The dice on the table in one step: values with their positions (mm) and whether they
    are still tumbling (then tilted and lifted off the table)."""

    values: tuple[int, ...]
    positions: tuple[tuple[float, float], ...]
    tumbling: bool = False


@dataclass
class Step:
    """One moment of the story: the table state, the dice, how long it is held."""

    note: str
    game: GameState
    dice: Dice | None
    hold: int  # video frames
    events: list[dict[str, Any]] = field(default_factory=list)  # what happened to get here


@dataclass(frozen=True)
class Rig:
    """What stays the same for a whole sequence: the tiles' size, camera, light and paint."""

    tsize: TileSize
    camera: Camera
    light: Light
    background: np.ndarray  # float32 RGB, the empty table in the picture
    surfaces: Any
    table: str
    look: textures.TileLook
    photos: dict[int, str]  # kind -> the photo its face shows
    layout_seed: int


def make_rig(seed: int, size: tuple[int, int], faces: str = "real", fold: str = "val") -> Rig:
    """One table, camera and light for a sequence, seat 0 at the bottom of the picture."""
    from datasets.scene import sample_light

    rng = np.random.default_rng([seed, 31])
    look = _look(rng, None)
    tsize = TileSize(27.0, 37.0, 19.0)
    w, h = size
    dist = 850.0  # straight above the centre: every standing hand shows its backs alike
    focal = min(w, h) / 2 * dist / 480
    camera = _camera_over(np.zeros(3), dist, 0.0, -np.pi / 2, focal, size, 0.0)
    light = sample_light(rng)
    tex_w = 48 if w <= 2000 else 72
    surfaces = build_surfaces(look, rng, tex_w, False)
    photos: dict[int, str] = {}
    if faces == "real":
        bank = photo_faces.face_bank(fold)
        tex_size = (tex_w, round(tex_w * 37 / 27))
        for kind, pool in sorted(bank.items()):
            face = pool[int(rng.integers(len(pool)))]
            surfaces.tops[kind] = textures.photo_top(face.rgb, look, tex_size, rng)
            photos[kind] = face.source
    background, table = plane_background(camera, rng, (-650, 650, -650, 650), 1.2, 480.0,
                                         False)
    background *= (light.ambient + light.diffuse * light.direction[2]) \
        * light.color.astype(np.float32)
    return Rig(tsize, camera, light, background, surfaces, table, look, photos,
               int(rng.integers(2 ** 31)))


def _die_bodies(dice: Dice, rng: np.random.Generator) -> list[Body]:
    out = []
    for value, (x, y) in zip(dice.values, dice.positions, strict=True):
        body = die(value, np.array([x, y, 0.0]), DIE_SIDE, float(rng.uniform(0, np.pi)), True,
                   rng)
        if dice.tumbling:  # in the air, turned: another face on top than the one it shows
            ax = rng.normal(0, 1, 3)
            ax /= np.linalg.norm(ax)
            rot, _ = cv2.Rodrigues(ax * rng.uniform(0.5, 1.1))
            body.u, body.v, body.n = rot @ body.u, rot @ body.v, rot @ body.n
            body.center = body.center + np.array([0, 0, rng.uniform(10, 40)])
        out.append(body)
    return out


def render_step(rig: Rig, step: Step, index: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The clean picture (BGR uint8) of one step and its manifest (every labeled box)."""
    rng = np.random.default_rng(rig.layout_seed)  # the same seed: tiles that stay, stay put
    bodies = table_layout(step.game, rig.tsize, rng, messy=0.0, ordered=True)
    if step.dice is not None:
        bodies += _die_bodies(step.dice, np.random.default_rng([rig.layout_seed, index]))
    canvas, labels, _ = render(bodies, rig.camera, rig.surfaces, rig.light,
                               rig.background.copy(), np.random.default_rng(index))
    image = cv2.cvtColor(np.clip(canvas * 255 + 0.5, 0, 255).astype(np.uint8),
                         cv2.COLOR_RGB2BGR)
    manifest = _manifest("table", rig.layout_seed, index, rig.camera, rig.look, rig.table,
                         step.game, bodies, labels)
    return image, manifest


# -- the story


def _wall_break(ruleset: str, dealer: int, rolls: list[tuple[int, int]]) -> Any:
    """Where the ruleset breaks the wall after these rolls, ``None`` until it has them all."""
    from scoring.errors import ScoringError
    from scoring.rulesets.registry import get_ruleset

    rs = get_ruleset(ruleset)
    try:
        return rs.wall_break(dealer, list(rolls), rs.resolve_options({}))
    except ScoringError:
        return None


class Table:
    """The state of one hand as the story plays it, and the events a perfect observer sees.

    Every method is one thing a player does; each appends its events in the form the live
    pipeline reports them (the match engine's JSON) and :meth:`step` freezes the table as it now
    looks, to be held for some frames.
    """

    def __init__(self, dealer: int, hands: list[str], ruleset: str) -> None:
        self.ruleset = ruleset
        self.dealer = dealer
        self.seats = [GameSeat() for _ in range(4)]
        self.hands = [parse_tiles(h) for h in hands]
        self.wall_tiles = 144
        self.break_stack = 0
        self.dice: Dice | None = None
        self.events: list[dict[str, Any]] = []
        self.steps: list[Step] = []
        self.to_play = -1  # the seat holding 14 tiles, its drawn tile apart (-1: none)
        self.last_discarder = -1
        self.rolls: list[tuple[int, int]] = []

    def step(self, note: str, hold: int = 7) -> None:
        shown = [t for s in self.seats for t in (*s.concealed, *s.flowers, *s.discards,
                                                 *(t for m in s.melds for t in m.tiles))]
        over = sorted({TILE_NAMES[t] for t in shown if shown.count(t) > (1 if t >= 34 else 4)})
        if over:
            raise ValueError(f"the story shows more copies of {', '.join(over)} than a set has")
        game = GameState(self.dealer, (1, 1), copy.deepcopy(self.seats), self.wall_tiles,
                         self.break_stack, self.to_play, self.ruleset)
        self.steps.append(Step(note, game, self.dice, hold, self.events))
        self.events = []

    def event(self, etype: str, **data: Any) -> None:
        self.events.append({"type": etype, **data})

    def roll(self, seat: int, values: tuple[int, int], tumbles: int = 3) -> None:
        """Dice thrown, tumbling for a few frames, then settled (held)."""
        rng = np.random.default_rng([values[0], values[1], len(self.steps)])
        for i in range(tumbles):
            pos = tuple((float(-140 + 45 * i + 30 * j), float(-60 + 25 * i + rng.normal(0, 8)))
                        for j in range(2))
            faces = tuple(int(v) for v in rng.integers(1, 7, 2))
            self.dice = Dice(faces, pos, tumbling=True)
            self.step(f"seat {seat} throws the dice", hold=1)
        self.dice = Dice(values, ((-30.0, 10.0), (25.0, 0.0)))  # left to right as rolled
        self.event("dice", seat=seat, dice=list(values))
        self.rolls.append(values)
        wb = _wall_break(self.ruleset, self.dealer, self.rolls)
        if wb is not None:  # the ruleset's break: counted from the right end of that wall
            self.event("wall_broken", wall_seat=wb.wall_seat, stacks=wb.stacks_skipped)
            self.break_stack = (wb.wall_seat * 18 + 17 - wb.stacks_skipped) % 72
        self.step(f"seat {seat} rolls {values[0]} and {values[1]}")

    def deal(self) -> None:
        """Everyone takes their 13 (the dealer 14) from the wall."""
        self.dice = None
        for s, hand in enumerate(self.hands):
            self.seats[s].concealed = list(hand)
            self.wall_tiles -= len(hand)
        self.to_play = self.dealer
        self.step("the deal")

    def turn(self, seat: int, drawn: str, discard: str, note: str = "") -> None:
        """Draw from the wall and discard (the hand is back at 13)."""
        s = self.seats[seat]
        s.concealed.append(parse_tiles(drawn)[0])
        self.wall_tiles -= 1
        self._discard(seat, discard)
        self.step(note or f"seat {seat} draws and discards {discard}")

    def _discard(self, seat: int, tile: str) -> None:
        s = self.seats[seat]
        t = parse_tiles(tile)[0]
        s.concealed.remove(t)
        s.discards.append(t)
        self.to_play = -1
        self.last_discarder = seat
        self.event("discard", seat=seat, tile=TILE_NAMES[t])

    def flower(self, seat: int, flower: str, replacement: str) -> None:
        """A flower drawn is set aside and replaced from the wall (the hand stays at 14)."""
        s = self.seats[seat]
        f = parse_tiles(flower)[0]
        s.flowers.append(f)
        s.concealed.append(parse_tiles(replacement)[0])
        self.wall_tiles -= 2
        self.to_play = seat
        self.event("flower", seat=seat, tile=TILE_NAMES[f])
        self.step(f"seat {seat} draws {flower}, sets it aside and draws a replacement")

    def discard(self, seat: int, tile: str) -> None:
        self._discard(seat, tile)
        self.step(f"seat {seat} discards {tile}")

    def claim(self, seat: int, kind: str, tiles: str) -> None:
        """The last discard taken into a chow, pung or kong (claimed tile sideways)."""
        src = self.last_discarder
        taken = self.seats[src].discards.pop()
        meld = parse_tiles(tiles)
        rest = list(meld)
        rest.remove(taken)
        for t in rest:
            self.seats[seat].concealed.remove(t)
        n = len(meld)
        if kind == "chow":
            if src != (seat + 3) % 4:
                raise ValueError("a chow is claimed only from the seat before")
            order = [taken, *sorted(rest)]
            side: int | None = 0
            self.event("chow", seat=seat, tiles=format_tiles(sorted(meld)))
        else:
            order = meld
            side = {3: 0, 2: 1, 1: n - 1}[(src - seat) % 4]
            if kind == "pung":
                self.event("pung", seat=seat)
            else:
                self.event("kong", seat=seat, kind="exposed", tile=TILE_NAMES[taken])
        mtype = "exposed_kong" if kind == "kong" else kind
        self.seats[seat].melds.append(Meld(mtype, tuple(order), src))
        self.seats[seat].sideways.append(side)
        self.to_play = seat
        self.step(f"seat {seat} claims {TILE_NAMES[taken]} from seat {src}: {kind} {tiles}")

    def kong_replacement(self, seat: int, drawn: str, discard: str) -> None:
        """After a kong: a replacement tile from the wall, then a discard."""
        self.seats[seat].concealed.append(parse_tiles(drawn)[0])
        self.wall_tiles -= 1
        self._discard(seat, discard)
        self.step(f"seat {seat} draws a replacement for the kong and discards {discard}")

    def self_drawn_win(self, seat: int, drawn: str, hold: int = 10) -> dict[str, Any]:
        """The winning tile drawn; every hand laid face up, the winner's winning tile last.
        Returns the hand record."""
        t = parse_tiles(drawn)[0]
        self.wall_tiles -= 1
        for k, s in enumerate(self.seats):
            rest = sorted(s.concealed)
            s.concealed = [*rest, t] if k == seat else rest
            s.revealed = True
        self.to_play = -1  # laid down: no tile stands apart
        self.event("win", seats=[seat], tile=TILE_NAMES[t])
        record = {
            "ruleset": self.ruleset, "options": {}, "dealer": self.dealer,
            "seats": [{"concealed": format_tiles(s.concealed, sort=True),
                       "melds": [{"type": m.type, "tiles": format_tiles(m.tiles),
                                  **({"from": m.from_seat} if m.from_seat is not None else {})}
                                 for m in s.melds],
                       "flowers": [TILE_NAMES[f] for f in s.flowers]} for s in self.seats],
            "outcome": "win", "wins": [{"seat": seat, "tile": TILE_NAMES[t], "by": "self_draw"}],
            "context": {"dice": list(self.rolls[0])},  # the hand's first roll, as logged
        }
        self.step(f"seat {seat} draws {drawn} and wins; every hand laid face up", hold=hold)
        return record

    def cleared(self) -> None:
        """The tiles go into the table (an automatic table shuffles them)."""
        self.seats = [GameSeat() for _ in range(4)]
        self.wall_tiles = 0
        self.dice = None
        self.step("the tiles go into the table", hold=5)

    def wall_built(self) -> None:
        self.wall_tiles = 144
        self.step("the new walls rise", hold=5)


# -- the bundled video's story

RULESET = default_ruleset()  # the story (wall break, deals, wins) follows the default rules


def two_hands() -> tuple[list[Step], list[dict[str, Any]]]:
    """Two whole Shandong hands: the dealer rolls twice and the wall is broken where the dice
    say; discards grow; a flower is replaced; a pung, a chow and a kong are claimed; seat 1
    draws its winning tile; the tiles go into the table and seat 1, the winner, deals the next
    hand, which seat 2 wins after a pung. Returns the steps and each hand's record."""
    one = Table(0, ["1m1m1m7m8m2p3p5p6p6s9sFFN", "SSS2m3m4p5p6p7s8s9s5sW",
                    "CC9m1s2s4s4s6p7p8p1p2p3s", "C4pS1p9p9p3s3s4m5m6s7s8p"], RULESET)
    one.roll(0, (3, 4))
    one.roll(0, (2, 5))
    one.deal()
    one.discard(0, "N")
    one.flower(1, "f2", "5s")
    one.discard(1, "W")
    one.turn(2, "3s", "9m")
    one.turn(3, "E", "C")
    one.claim(2, "pung", "CCC")
    one.discard(2, "1s")
    one.turn(3, "6m", "4p")
    one.claim(0, "chow", "4p5p6p")
    one.discard(0, "9s")
    one.turn(1, "1p", "1p")
    one.turn(2, "8m", "2s")
    one.turn(3, "7s", "S")
    one.claim(1, "kong", "SSSS")
    one.kong_replacement(1, "7m", "7m")
    one.turn(2, "9p", "9p")
    one.turn(3, "2m", "2m")
    one.turn(0, "N", "N")
    first = one.self_drawn_win(1, "4m")
    one.cleared()
    one.wall_built()
    two = Table(1, ["6m7m8m1s1s2s3s5p5pSSPP", "WW1m9m2p3p4p5s6s7s8m8mNE",
                    "1m2m3m4m5m6m7p8p9p2s3s8p8p", "1p1p2p5p6p9s9s3m4m5mCFE"], RULESET)
    two.roll(1, (6, 1))
    two.roll(1, (4, 4))
    two.deal()
    two.discard(1, "E")
    two.turn(2, "W", "W")
    two.claim(1, "pung", "WWW")
    two.discard(1, "9m")
    two.turn(2, "N", "N")
    two.turn(3, "5p", "5p")
    two.turn(1, "1p", "1p")
    second = two.self_drawn_win(2, "4s")
    return one.steps + two.steps, [first, second]


def step_objects(manifest: dict[str, Any], min_visible: float = 0.5) -> list[list[Any]]:
    """A step's labeled boxes, compact: ``[name, x1, y1, x2, y2, visible, die face]``."""
    return [[o["tile"], *o["xyxy"], o["visible"], int(o.get("face") or 0)]
            for o in manifest["objects"] if o["visible"] >= min_visible]


def write_sequence(video: Path, script: Path, seed: int = 2026,
                   size: tuple[int, int] = (1920, 1080), fps: float = 5.0) -> dict[str, Any]:
    """Render :func:`two_hands` into ``video`` (mp4v) and its script into ``script`` (JSON):
    the expected events in order (each with the step it happens in), each hand's record, and
    for every step its frames and every labeled box (the ground truth of each frame)."""
    steps, records = two_hands()
    rig = make_rig(seed, size)
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise OSError(f"{video}: OpenCV cannot write mp4v video here")
    noise_rng = np.random.default_rng([seed, 37])
    out_steps, events, first = [], [], 0
    try:
        for k, step in enumerate(steps):
            image, manifest = render_step(rig, step, k)
            for _ in range(step.hold):
                noise = noise_rng.normal(0, NOISE, image.shape[:2]).astype(np.float32)
                writer.write(cv2.add(image, cv2.merge([noise] * 3), dtype=cv2.CV_8U))
            out_steps.append({"note": step.note, "frames": [first, first + step.hold],
                              "objects": step_objects(manifest)})
            events += [{**e, "step": k} for e in step.events]
            first += step.hold
    finally:
        writer.release()
    data = {
        "video": video.name, "fps": fps, "size": list(size), "frames": first, "seed": seed,
        "ruleset": RULESET, "faces": "real", "fold": "val",
        "photos": {TILE_NAMES[k]: v for k, v in sorted(rig.photos.items())},
        "hands": [{"dealer": r["dealer"], "record": r} for r in records],
        "events": events, "steps": out_steps,
    }
    script.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                      encoding="utf-8")
    return data
