"""The untrusted-input boundaries, as fuzz targets shared by the hypothesis suite and
``bench/fuzz.py``: each takes bytes and may raise only the project's own errors for them.

A crash is any other exception (``RecursionError``, ``UnicodeDecodeError``, ``cv2.error``,
``OverflowError``...); the target names the errors its boundary promises.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware.errors import TableError
from hardware.plugins import get_protocol
from hardware.protocol import Frame, StreamDecoder
from scoring.errors import ScoringError
from scoring.jsonlimits import load_json
from scoring.match.errors import BadEvent, MatchError
from scoring.match.events import MatchCreated, event_from_json
from scoring.match.state import MatchState
from scoring.record import load_record
from scoring.scorer import score
from scoring.tournament import TournamentError, action_from_json
from ui.server.store import Refused, parse_row
from vision.capture import CaptureError, decode_image

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Target:
    name: str
    run: Callable[[bytes], None]
    allowed: tuple[type[BaseException], ...]  # the project's errors for bad input
    seeds: tuple[bytes, ...]  # valid inputs the fuzzer mutates


def record(data: bytes) -> None:
    """The hand-record parser, then the scorer on whatever it accepts."""
    score(load_record(data))


_MATCH = MatchState.create(MatchCreated(ruleset="shandong", players=("a", "b", "c", "d"),
                                        first_dealer=0))


def match_event(data: bytes) -> None:
    """A match event as the store reads it, applied to a fresh Shandong match."""
    event = event_from_json(load_json(data, "event", BadEvent))
    if not isinstance(event, MatchCreated):
        _MATCH.apply(event, 2)
    else:
        MatchState.create(event)


def tournament_action(data: bytes) -> None:
    """A referee action as the tournament server reads it."""
    action_from_json(load_json(data, "action", TournamentError))


def table_events(data: bytes) -> None:
    """A table's batch of events as the tournament server reads it, row by row."""
    body = load_json(data, "the body", Refused)
    rows = body.get("events") if isinstance(body, dict) else body
    for row in rows if isinstance(rows, list) else [rows]:
        parse_row(row)


def serial(data: bytes) -> None:
    """Both wire formats, fed in uneven chunks; decoded frames go through the protocol."""
    for name in ("default", "smart"):
        protocol = get_protocol(name)
        decoder = StreamDecoder(protocol.make_framer())
        out = []
        for i in range(0, len(data), 7):
            out += decoder.feed(data[i:i + 7])
        while decoder.pending:
            out += decoder.expire()
        assert sum(len(d.raw) for d in out) == len(data), "bytes lost by the framer"
        for d in out:
            if d.frame is not None:
                protocol.describe(d.frame)
                with contextlib.suppress(TableError, ValueError):
                    protocol.parse_event(d.frame)


def image(data: bytes) -> None:
    """The image loader on a file's bytes."""
    decode_image(data, "fuzz.png")


def _seed_records() -> tuple[bytes, ...]:
    paths = sorted((ROOT / "tests" / "cases").glob("*/*.json"))
    return tuple(p.read_bytes() for p in paths if not p.name.endswith(".expect.json"))[:40]


def _seed_events() -> tuple[bytes, ...]:
    hand = json.loads((ROOT / "ui" / "samples" / "hand.json").read_text(encoding="utf-8"))
    events = [{"type": "dice", "seat": 0, "dice": [3, 4]}, {"type": "wall_broken"},
              {"type": "discard", "seat": 0, "tile": "5p"}, {"type": "draw", "seat": 1},
              {"type": "hand_recorded", "record": hand},
              {"type": "amend", "target": 2, "who": "r", "why": "x", "event": None},
              {"type": "player_left", "seat": 2, "flower_points": 3}]
    return tuple(json.dumps(e).encode() for e in events)


def _seed_actions() -> tuple[bytes, ...]:
    actions = [{"name": "adjustment", "actor": "r", "created": "t", "why": "late",
                "player": "P01", "points": -10, "round": 1},
               {"name": "substituted", "actor": "r", "created": "t", "why": "ill", "round": 1,
                "table": 2, "seat": 3, "substitute": "S", "from_hand": 4},
               {"name": "round_seated", "actor": "r", "created": "t", "why": "x", "round": 1,
                "tables": [{"round": 1, "table": 1, "players": ["a", "b", "c", "d"]}],
                "repeats": [["a", "b", 1]]},
               {"name": "round_closed", "actor": "r", "created": "t", "why": "x", "round": 1}]
    return tuple(json.dumps(a).encode() for a in actions)


def _seed_batches() -> tuple[bytes, ...]:
    return tuple(json.dumps({"events": [{"seq": n + 1, "event": json.loads(e), "at": "t",
                                         "who": "table 1", "hash": "0" * 64}],
                             "log": {"match": 1, "created_at": "t"}}).encode()
                 for n, e in enumerate(_seed_events()))


def _seed_frames() -> tuple[bytes, ...]:
    default = get_protocol("default").make_framer()
    smart = get_protocol("smart").make_framer()
    return (default.encode(Frame(cmd=0x01, payload=b"", seq=1)),
            default.encode(Frame(cmd=0x81, payload=bytes(range(12)), seq=2)),
            smart.encode(Frame(cmd=0x01, family=0xA0)))


def _seed_images() -> tuple[bytes, ...]:
    out = []
    for shape, ext in (((32, 48, 3), ".png"), ((40, 40, 3), ".jpg"), ((24, 64, 3), ".bmp")):
        pixels = (np.arange(np.prod(shape)) % 251).astype(np.uint8).reshape(shape)
        out.append(cv2.imencode(ext, pixels)[1].tobytes())
    return tuple(out)


TARGETS = (
    Target("record", record, (ScoringError,), _seed_records()),
    Target("match_event", match_event, (MatchError, ScoringError), _seed_events()),
    Target("tournament_action", tournament_action, (TournamentError,), _seed_actions()),
    Target("table_events", table_events, (Refused,), _seed_batches()),
    Target("serial", serial, (), _seed_frames()),
    Target("image", image, (CaptureError,), _seed_images()),
)
