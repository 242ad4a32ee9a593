"""`mjtable detect IMAGE...`: the tiles and dice the models find in each picture."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ui.commands._numbers import CONFIDENCE, THREADS
from ui.commands.read import add_backend, add_detect_size, add_flips


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "detect", help="find tiles and dice in pictures",
        description="Run the shipped models on each IMAGE. With --json, one line per image: "
                    '{"image", "width", "height", "detections": [{"label", "box": [x1, y1, x2, '
                    'y2], "confidence"}]} with boxes in the image\'s pixels; a die is labelled '
                    '"die" with its top "face" 1..6.')
    p.add_argument("images", nargs="+", metavar="IMAGE", help="picture files")
    p.add_argument("--json", action="store_true", help="one JSON line per image")
    p.add_argument("--conf", type=CONFIDENCE, default=0.25, metavar="C",
                   help="minimum confidence 0..1 (default 0.25) of a box listed: that an "
                        "object is there, times, with a crop classifier, its class's "
                        "probability")
    p.add_argument("--models", type=Path, help="folder holding detector.onnx "
                   "(and classifier.onnx, dice.onnx, dice_finder.onnx); default: the shipped "
                   "models")
    add_detect_size(p)
    add_backend(p)
    add_flips(p)
    p.add_argument("--threads", type=THREADS, default=None,
                   help="CPU threads (default 2, or $MJTABLE_THREADS)")
    p.set_defaults(func=run)


def detect_json(path: str, detector) -> dict:  # type: ignore[no-untyped-def]
    """The JSON object of one image (the public form of ``mjtable detect --json``)."""
    from vision.capture import load_image

    image = load_image(path)
    dets = detector.shown(detector.detect(image))
    dets = dets[~dets.is_back]  # face-down tiles have no label in the rules notation
    h, w = image.shape[:2]
    return {"image": path, "width": w, "height": h, "detections": dets.to_json_list()}


def run(args: argparse.Namespace) -> int:
    from vision.detector import load_detector

    # unrelated photos: each decides its own input size (a video keeps one, see watch)
    detector = load_detector(args.models, conf=args.conf, threads=args.threads,
                              imgsz=args.detect_size, stills=True, backend=args.backend,
                              flips=not args.no_flips)
    failed = 0
    for path in args.images:
        try:
            out = detect_json(path, detector)
        except (OSError, ValueError) as exc:
            if len(args.images) == 1:
                raise
            print(f"mjtable detect: {exc}", file=sys.stderr)
            failed += 1
            continue
        if args.json:
            print(json.dumps(out, ensure_ascii=False), flush=True)
        else:
            items = [d["label"] + (f"({d['face']})" if "face" in d else "")
                     for d in sorted(out["detections"], key=lambda d: (d["box"][1] // 40,
                                                                       d["box"][0]))]
            print(f"{path} ({out['width']}x{out['height']}): {len(items)} found: "
                  + " ".join(items), flush=True)
    return 2 if failed else 0
