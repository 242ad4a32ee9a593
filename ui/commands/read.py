"""`mjtable read IMAGE --ruleset R`: the hand record a photo of the table shows."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from scoring.rulesets.registry import help_text
from ui.commands._numbers import CONFIDENCE, PIXELS, SEAT, describe_range, number
from ui.errors import CommandError


def _corners(text: str) -> list[list[float]]:
    try:
        values = [float(v) for v in text.replace(";", ",").split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"corners must be 8 numbers, got {text!r}") from None
    if len(values) != 8:
        raise argparse.ArgumentTypeError(f"corners must be 8 numbers x,y x4, got {len(values)}")
    if not all(math.isfinite(v) and abs(v) <= 1e6 for v in values):
        raise argparse.ArgumentTypeError(f"corners must be finite pixel positions, got {text!r}")
    return [values[i:i + 2] for i in range(0, 8, 2)]


def add_calibration_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corners", type=_corners, help="the table's corners in pixels, x,y of the "
                   "bottom-left, bottom-right, top-right and top-left as the picture shows "
                   "them (default: found in the picture)")
    p.add_argument("--bottom-seat", type=SEAT, default=None,
                   help="the seat at the bottom edge of the picture (default 0)")
    p.add_argument("--calibration", type=Path, metavar="FILE", help="a saved calibration "
                   '(JSON {"corners": [[x, y] x4], "bottom_seat": k}); the options above win')


def add_detect_size(p: argparse.ArgumentParser) -> None:
    """``--detect-size``: the detector's input size, a number of pixels or ``auto``."""
    def size(text: str) -> int | str:
        if text == "auto":
            return text
        try:
            return int(PIXELS(text))
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                f"expected 'auto' or {describe_range(int, 32, 8192, unit='pixels')}, "
                f"got {text!r}") from None

    p.add_argument("--detect-size", type=size, default="auto", metavar="PX",
                   help="detector input size: 'auto' (default: the model's size, or 960 when "
                        "it finds only tiny tiles, as in a whole-table 1080p frame; each photo "
                        "decides for itself, a video once), or pixels, e.g. 960 for a whole "
                        "table, 320 for a close-up; needs a --dynamic export")


def add_backend(p: argparse.ArgumentParser) -> None:
    """``--backend``: the inference backend, as :func:`vision.backends.resolve_backend` takes."""
    p.add_argument("--backend", choices=("auto", "onnxruntime", "openvino"), default=None,
                   help="inference backend: 'auto' (default, or $MJTABLE_BACKEND: onnxruntime, "
                        "measured faster for photos and video alike with the shipped models), "
                        "'onnxruntime' or 'openvino' (pip install 'mjtable[openvino]')")


def add_flips(p: argparse.ArgumentParser) -> None:
    """``--no-flips``: read a close-up photo once instead of four ways (``Detector``'s
    ``flips``)."""
    p.add_argument("--no-flips", action="store_true",
                   help="find a close-up photo's boxes once, not also in its three mirror images "
                        "with each box scored by its mean over the four (about twice as fast, "
                        "fewer photos read exactly; a whole table is read once either way)")


def add_stability(p: argparse.ArgumentParser) -> None:
    """``--stable-s`` and ``--stable-readings``: when a live reading is reported
    (:class:`vision.stability.Stabilizer`), for ``watch`` and ``run`` alike."""
    from vision.stability import STABLE_READINGS, STABLE_S

    p.add_argument("--stable-s", type=number(float, 0, 3600, unit="seconds"), default=STABLE_S,
                   metavar="SECONDS",
                   help="camera time a seat, the dice or the indicator must hold before it is "
                        f"reported (default {STABLE_S:g})")
    p.add_argument("--stable-readings", type=number(int, 1, 1000), default=STABLE_READINGS,
                   metavar="N", help="analysed frames that must read it alike within that time "
                                     f"(default {STABLE_READINGS}; unchanged frames reuse a "
                                     "reading and do not count)")


def calibration_of(args: argparse.Namespace) -> tuple[list[list[float]] | None, int]:
    """Corners and bottom seat from --calibration, --corners and --bottom-seat."""
    corners, bottom = args.corners, args.bottom_seat
    if args.calibration is not None:
        from vision.geometry import TableCalibration

        try:
            data = json.loads(args.calibration.read_text(encoding="utf-8"))
            saved = TableCalibration.from_json(data)
        except (OSError, ValueError) as exc:
            raise CommandError(f"{args.calibration}: not a usable calibration ({exc})") from None
        corners = corners if corners is not None else [list(c) for c in saved.corners]
        bottom = bottom if bottom is not None else saved.bottom_seat
    return corners, 0 if bottom is None else bottom


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "read", help="read a hand record from a photo of the table",
        description="Detect the tiles in IMAGE, place them at the seats (seat 0 at the bottom of "
                    "the picture, play order counterclockwise), repair an impossible reading "
                    "with the models' runner-up classes, and print the hand record for "
                    "`mjtable score`. What the picture cannot tell (who won on whose discard) "
                    "comes from the options or is stated as an assumption on stderr.")
    p.add_argument("image", help="photo of the table")
    p.add_argument("--ruleset", required=True, metavar="RULESET", help=help_text())
    p.add_argument("--dealer", type=SEAT, default=0, help="the dealer's seat (default 0)")
    p.add_argument("--winner", type=SEAT, help="the winner's seat (default: the seat showing 14)")
    p.add_argument("--by", choices=("self_draw", "discard", "rob_kong"), help="how it was won")
    p.add_argument("--from", dest="from_seat", type=SEAT, help="the discarder's seat")
    p.add_argument("--tile", help="the winning tile (default: the one standing apart, else "
                   "the rightmost)")
    add_calibration_options(p)
    p.add_argument("--details", action="store_true", help="print the record with the changed "
                   "tiles, waits, dice, notes and the tiles read unsurely (worth a look) as one "
                   "JSON object")
    p.add_argument("--models", type=Path, help="folder holding the models")
    add_detect_size(p)
    add_backend(p)
    add_flips(p)
    p.add_argument("--conf", type=CONFIDENCE, default=0.25,
                   help="minimum confidence (default 0.25)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from scoring.errors import RecordError
    from scoring.record import parse_record
    from scoring.rulesets.registry import known_rulesets
    from scoring.tiles import tile_from_name
    from vision.capture import load_image
    from vision.detector import load_detector
    from vision.reading import read_image
    from vision.unsure import unsure_tiles

    if args.ruleset not in known_rulesets():
        raise CommandError(f"unknown ruleset {args.ruleset!r}; known: "
                           f"{', '.join(known_rulesets())}")
    corners, bottom_seat = calibration_of(args)
    image = load_image(args.image)
    detector = load_detector(args.models, conf=args.conf, imgsz=args.detect_size, stills=True,
                             backend=args.backend, flips=not args.no_flips)
    reading = read_image(image, detector, ruleset=args.ruleset, corners=corners,
                         bottom_seat=bottom_seat,
                         dealer=args.dealer, winner=args.winner, by=args.by,
                         from_seat=args.from_seat,
                         winning_tile=tile_from_name(args.tile) if args.tile else None)
    body = reading.to_json() if args.details else reading.record
    print(json.dumps(body, ensure_ascii=False, indent=2))
    if not args.details:
        for note in reading.notes:
            print(f"note: {note}", file=sys.stderr)
        unsure = unsure_tiles(reading.table)
        if unsure:
            where = ", ".join(f"seat {u['seat']} {u['where']} {u['read']}" for u in unsure)
            print(f"note: read unsurely, worth a look (--details gives their other readings): "
                  f"{where}", file=sys.stderr)
    try:
        parse_record(reading.record)
    except RecordError as exc:
        raise CommandError(f"the record read from {args.image} is not valid: {exc}") from None
    return 0
