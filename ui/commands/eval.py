"""``mjtable eval``: score detectors and the two-stage pipeline on a labeled YOLO folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from ui.commands._numbers import CONFIDENCE, PIXELS, THREADS, number


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval", help="mAP, precision/recall, exact tile multisets and confusions of ONNX models",
        description="MODEL is a detector ONNX or DETECTOR+CLASSIFIER (the two-stage pipeline). "
                    "Every model given, and the reference mahjong-detector ONNX with --reference, "
                    "is scored on the same images of DIR (YOLO layout: images/, labels/, "
                    "data.yaml names; without data.yaml the project's 43 classes).")
    p.add_argument("models", nargs="+", metavar="MODEL")
    p.add_argument("--data", type=Path, required=True, help="YOLO-format folder")
    p.add_argument("--reference", type=Path,
                   help="the mahjong-detector model.onnx (default: the installed package's)")
    p.add_argument("--no-reference", action="store_true", help="skip the reference model")
    p.add_argument("--conf", type=CONFIDENCE, default=0.25,
                   help="operating threshold for precision/recall, multisets, confusions")
    p.add_argument("--limit", type=number(int, 1, 10**9),
                   help="only the first N images (sorted by name)")
    p.add_argument("--threads", type=THREADS, help="onnxruntime threads (default: all cores)")
    p.add_argument("--imgsz", type=PIXELS,
                   help="run our detectors at this input size (a --dynamic export; the "
                        "reference keeps its own)")
    p.add_argument("--brief", action="store_true", help="no per-class table")
    p.set_defaults(func=run)


def reference_model() -> Path | None:
    """The ONNX inside the installed ``mahjong-detector`` package, if installed."""
    import importlib.util

    spec = importlib.util.find_spec("mahjong_detector")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "model.onnx"
    return path if path.exists() else None


def run(args: argparse.Namespace) -> int:
    from ui.cli import CommandError
    from vision.evaluate import evaluate, format_report, load_dataset, load_model

    data = load_dataset(args.data, args.limit)
    specs = [(m, m) for m in args.models]
    if not args.no_reference:
        ref = args.reference or reference_model()
        if ref is None:
            raise CommandError("reference model not found: pip install --no-deps "
                               "mahjong-detector==0.0.6, pass --reference, or --no-reference")
        specs.append((str(ref), f"reference mahjong-detector ({ref})"))
    print(f"{args.data}: {len(data)} images, {sum(len(d.gt.names) for d in data)} labeled objects")
    for spec, label in specs:
        size = args.imgsz if spec in args.models else None
        try:
            model = load_model(spec, args.threads, size)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        print(format_report(evaluate(model, data, args.conf, label), per_class=not args.brief))
    return 0
