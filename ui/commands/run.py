"""`mjtable run`: the dashboard. With no arguments, the demo on the bundled defaults."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ui.commands._numbers import MATCH_ID, SEAT, number
from ui.commands.read import add_backend, add_stability
from ui.errors import CommandError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="start the dashboard (the demo by default)",
        description="Start the dashboard. With no options: the bundled sample video, the shipped "
                    "models, a simulated table and the match log in the user data folder.")
    p.add_argument("--camera", help="webcam index, video file, stream URL or image folder "
                                    "('none' for no camera; default: the bundled sample video)")
    p.add_argument("--port", help="table serial port or URL, 'simulator' (default) or 'none'")
    p.add_argument("--match", type=MATCH_ID,
                   help="reopen this match from the log (default: latest)")
    p.add_argument("--db", type=Path, help="match log file (default: in the user data folder)")
    p.add_argument("--hand", type=Path, help="a hand record to show at start")
    p.add_argument("--models", type=Path,
                   help="folder with detector.onnx (+ classifier.onnx, dice.onnx, "
                        "dice_finder.onnx); default: the shipped models")
    p.add_argument("--bottom-seat", type=SEAT, default=0, metavar="SEAT",
                   help="the seat (0-3) at the bottom edge of the camera picture (default 0)")
    p.add_argument("--lang", choices=("en", "zh"), default=None,
                   help="label language (default: the system's, Chinese for a zh locale)")
    p.add_argument("--operator", default=os.environ.get("USER", "operator"),
                   help="name written into the log with each correction")
    p.add_argument("--save-examples", type=Path, metavar="DIR",
                   help="save every confirmed camera showdown (frame, corrected tiles) as a "
                        "labeled example in DIR, for 'mjtable dataset import examples' "
                        "(default: off)")
    add_backend(p)
    add_stability(p)
    p.add_argument("--sync", action="store_true",
                   help="push the match to the tournament server it was bound to by "
                        "'mjtable match push' (in the background; survives network drops)")
    p.add_argument("--outbox", type=Path, help="with --sync: the outbox file (default: the "
                                               "user's data folder)")
    p.add_argument("--tab", action="append", default=[], choices=("score", "match", "table"),
                   help="with --screenshot: grab this tab as PATH-TAB.png (repeatable)")
    p.add_argument("--screenshot", type=Path, help="save the window as PNG, then exit")
    p.add_argument("--exit-after", type=number(float, 0, 10**7, unit="seconds"), metavar="SECONDS",
                   help="close after this many seconds (with --screenshot: when to take it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.screenshot is not None and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from ui.dashboard.app import SAMPLE_HAND, RunOptions
    from ui.dashboard.app import run as run_app
    from ui.dashboard.i18n import system_language

    if args.backend is not None:  # the camera thread loads the models: it reads this
        from vision.backends import resolve_backend

        os.environ["MJTABLE_BACKEND"] = resolve_backend(args.backend)
    if args.hand is not None and not args.hand.is_file():
        raise CommandError(f"--hand {args.hand}: no such file")
    if args.models is not None and not (args.models / "detector.onnx").is_file():
        raise CommandError(f"--models {args.models}: no detector.onnx in that folder")
    opts = RunOptions(camera=args.camera, port=args.port, match=args.match, db=args.db,
                      lang=args.lang or system_language(), operator=args.operator,
                      screenshot=args.screenshot,
                      exit_after=args.exit_after, hand=args.hand or SAMPLE_HAND,
                      models=args.models, bottom_seat=args.bottom_seat,
                      save_examples=args.save_examples, tabs=tuple(args.tab),
                      sync=args.sync, outbox=args.outbox,
                      stable_s=args.stable_s, stable_readings=args.stable_readings)
    return run_app(opts)
