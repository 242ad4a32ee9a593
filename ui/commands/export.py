"""``mjtable export``: turn a training run into an ONNX model with its metadata."""

from __future__ import annotations

import argparse
from pathlib import Path

from ui.commands._numbers import PIXELS, number


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "export", help="export a training run to ONNX (needs the train extra)",
        description="Export RUN/weights/best.pt (or last.pt) to ONNX with ultralytics, static "
                    "batch 1 (any batch for a classifier); the ONNX metadata keeps names, "
                    "imgsz and task. Prints opset and input/output shapes.")
    p.add_argument("run", type=Path, nargs="?", help="a run folder or a .pt checkpoint")
    p.add_argument("--average", action="append", default=[], metavar="ONNX[:WEIGHT]",
                   type=_member,
                   help="instead of a run: one classifier averaging these classifiers' outputs, "
                        "each with its weight (default 1), written to --out (repeat, 2 or more)")
    p.add_argument("--out", type=Path, help="ONNX path (default: next to the checkpoint)")
    p.add_argument("--imgsz", type=PIXELS, help="input size (default: the training size)")
    p.add_argument("--opset", type=number(int, 7, 30), default=17)
    p.add_argument("--dynamic", action="store_true",
                   help="free batch, height and width: the detector can then run at another "
                        "size than --imgsz (mjtable detect --detect-size)")
    p.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                   help="rename a class in the metadata, e.g. tile_face=tile (repeatable)")
    p.set_defaults(func=run)


def _member(text: str) -> tuple[Path, float]:
    """``ONNX[:WEIGHT]``: a path and its weight (1 without one); a tail that is no number is
    part of the path (``C:\\models\\a.onnx``)."""
    path, _, tail = text.rpartition(":")
    try:
        float(tail)
    except ValueError:
        return Path(text), 1.0
    if not path:
        raise argparse.ArgumentTypeError(f"expected ONNX[:WEIGHT], got {text!r}")
    return Path(path), number(float, 0, above=True)(tail)


def run(args: argparse.Namespace) -> int:
    from ui.cli import CommandError
    from vision.training.ultra import checkpoint_of, describe_onnx, export_onnx

    if args.average:
        return _average(args)
    if args.run is None:
        raise CommandError("export: give a run folder or checkpoint, or --average")
    rename = {}
    for item in args.rename:
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            raise CommandError(f"--rename {item!r}: expected OLD=NEW")
        rename[old] = new
    weights = checkpoint_of(args.run)
    out = args.out or weights.with_suffix(".onnx")
    export_onnx(weights, out, imgsz=args.imgsz, opset=args.opset, rename=rename,
                dynamic=args.dynamic)
    print(describe_onnx(out))
    return 0


def _average(args: argparse.Namespace) -> int:
    from ui.cli import CommandError
    from vision.training.ensemble import average_classifiers
    from vision.training.ultra import describe_onnx

    if args.run is not None or args.out is None:
        raise CommandError("export --average: give --out and no run")
    try:
        average_classifiers(args.average, args.out)
    except (ValueError, FileNotFoundError) as exc:
        raise CommandError(f"export --average: {exc}") from None
    print(describe_onnx(args.out))
    return 0
