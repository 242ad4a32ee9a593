"""`mjtable watch SOURCE`: the live pipeline without a window, printing what it sees."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from scoring.rulesets.registry import help_text
from ui.commands._numbers import SEAT, number
from ui.commands.read import (
    add_backend,
    add_calibration_options,
    add_detect_size,
    add_stability,
    calibration_of,
)
from ui.errors import CommandError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch", help="run the live pipeline headless and print events",
        description="Read SOURCE (a webcam index such as 0, a video file, an rtsp:// or "
                    "http:// stream, or a folder of images) and print one JSON line per event: "
                    "stable hands, discards, claims, flowers, dice and the wall break, wins "
                    "(each followed by its hand record), drawn hands (draw_game), and camera "
                    "status changes.")
    p.add_argument("source", help="camera index, video file, stream URL or image folder")
    p.add_argument("--ruleset", metavar="RULESET",
                   help=f"for the wall break and win shapes: {help_text()}")
    p.add_argument("--dealer", type=SEAT, default=0, help="the dealer's seat (default 0)")
    add_stability(p)
    add_calibration_options(p)
    p.add_argument("--realtime", action="store_true", help="play a video file at its own rate")
    p.add_argument("--max-frames", type=number(int, 1, 10**12), help="stop after this many frames")
    p.add_argument("--models", type=Path, help="folder holding the models")
    add_detect_size(p)
    add_backend(p)
    p.set_defaults(func=run)


def record_line(pipe: Any, result: Any, event: Any) -> dict[str, Any]:
    """The hand record of a win as seen (self-drawn unless a person says otherwise), or why
    there is none; with the tiles read unsurely, for a person to check."""
    from vision.unsure import unsure_tiles

    line: dict[str, Any] = {"type": "record", "frame": event.frame,
                            "time": round(event.timestamp, 3)}
    try:
        record, notes = pipe.hand_record(result, winner=event.data["seats"][0])
    except ValueError as exc:
        return {**line, "error": str(exc)}
    return {**line, "record": record, "notes": notes, "unsure": unsure_tiles(result.table)}


def run(args: argparse.Namespace) -> int:
    from vision.capture import CaptureError
    from vision.detector import load_detector
    from vision.pipeline import Pipeline

    corners, bottom_seat = calibration_of(args)
    detector = load_detector(args.models, imgsz=args.detect_size, backend=args.backend)
    pipe = Pipeline(args.source, detector, ruleset=args.ruleset, dealer=args.dealer,
                    corners=corners, bottom_seat=bottom_seat,
                    stable_s=args.stable_s, stable_readings=args.stable_readings,
                    capture_options={"realtime": args.realtime})
    frames = reused = 0
    t0 = time.perf_counter()
    ended: list[Any] = []  # the reader reaches a file's end before its last frames are read
    try:
        for result in pipe.frames():
            frames += 1
            reused += result.reused
            for status in result.statuses:
                if status.kind == "ended":
                    ended.append(status)
                    continue
                print(json.dumps({"type": "capture", "kind": status.kind,
                                  "message": status.message}, ensure_ascii=False), flush=True)
            for event in result.events:
                print(json.dumps(event.with_time(), ensure_ascii=False), flush=True)
                if event.type == "win":  # the hand record the dashboard would score and log
                    print(json.dumps(record_line(pipe, result, event), ensure_ascii=False),
                          flush=True)
            if args.max_frames and frames >= args.max_frames:
                break
        else:
            for status in ended + pipe.statuses():  # printed after the file's last frame
                print(json.dumps({"type": "capture", "kind": status.kind,
                                  "message": status.message}, ensure_ascii=False), flush=True)
    except CaptureError as exc:
        raise CommandError(str(exc)) from None
    finally:
        pipe.close()
        elapsed = time.perf_counter() - t0
        if frames:
            print(f"mjtable watch: {frames} frames in {elapsed:.1f} s "
                  f"({frames / max(elapsed, 1e-9):.1f} fps, {reused} unchanged frames reused)",
                  file=sys.stderr)
        if pipe.frames_skipped:
            print(f"mjtable watch: {pipe.frames_skipped} frame(s) skipped (see the 'skipped' "
                  "lines)", file=sys.stderr)
    return 0
