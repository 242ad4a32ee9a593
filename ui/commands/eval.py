"""``mjtable eval``: score the shipped recognition on labeled photos or whole-table scenes."""

from __future__ import annotations

import argparse
from pathlib import Path

from scoring.rulesets.registry import default_ruleset, help_text
from ui.commands._numbers import CONFIDENCE, PIXELS, THREADS, number
from ui.commands.read import add_backend, add_flips


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval", help="mAP, precision/recall, exact tile multisets and confusions of the models, "
                     "or whole tables read against their manifests",
        description="Each MODEL (default: the shipped models) is a models folder, as "
                    "`detect --models` takes, or DETECTOR[+CLASSIFIER[+DICE[+FINDER]]] ONNX "
                    "files; it runs through the same Detector as `detect`, `read` and `watch`. "
                    "With --data DIR (YOLO layout: images/, labels/, data.yaml names; without "
                    "data.yaml the project's 43 classes) every model, and the reference "
                    "mahjong-detector unless --no-reference, is scored on the same images. "
                    "With --tables DIR every scene (manifests/NAME.json and its picture, the "
                    "format of `dataset synth` and docs/datasets.md) is read as `mjtable read` "
                    "reads it (or, with --live, as `watch` reads a camera) and compared with "
                    "its manifest.")
    p.add_argument("models", nargs="*", metavar="MODEL")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--data", type=Path, help="YOLO-format folder")
    where.add_argument("--tables", type=Path, metavar="DIR",
                       help="folder of table scenes with manifests")
    p.add_argument("--ruleset", default=default_ruleset(), metavar="RULESET",
                   help="with --tables: the rules a winner's hand is read by, unless a manifest "
                        "names its own, as scenes from `dataset synth --ruleset R` do "
                        f"(default {default_ruleset()}); {help_text()}")
    p.add_argument("--reference", type=Path,
                   help="the mahjong-detector model.onnx (default: the installed package's)")
    p.add_argument("--no-reference", action="store_true", help="skip the reference model")
    p.add_argument("--conf", type=CONFIDENCE, default=0.25,
                   help="operating threshold for precision/recall, multisets, confusions and "
                        "table reading, as `detect --conf` (default 0.25)")
    p.add_argument("--limit", type=number(int, 1, 10**9),
                   help="only N images or scenes, evenly spaced by name")
    p.add_argument("--threads", type=THREADS, help="inference threads (default 2, or "
                   "$MJTABLE_THREADS)")
    p.add_argument("--imgsz", type=PIXELS,
                   help="run our detectors at this input size instead of the automatic choice "
                        "(a --dynamic export; the reference keeps its own)")
    add_backend(p)
    add_flips(p)
    p.add_argument("--no-ink", action="store_true",
                   help="read tiles by the classifier alone, without weighing their colour "
                        "(the ink between E and F, vision/ink.py; a crop read C or dots read "
                        "greyed too, vision/bamboo.py): what the colour adds")
    p.add_argument("--no-askew", action="store_true",
                   help="never read an unsure tile's crops again turned a little either way "
                        "(vision/training/crops.py ASKEW): what those readings add")
    p.add_argument("--live", nargs="?", const=6, type=number(int, 2, 1000), metavar="FRAMES",
                   help="with --tables: read each scene as `watch` reads a camera, FRAMES "
                        "frames of the picture (default 6, half a second apart) through the "
                        "live pipeline, scoring the first win's record and the last frame")
    p.add_argument("--no-showdown-stills", action="store_true",
                   help="with --live: read a hand laid down as the stream reads every frame, "
                        "not again as a still (what the still adds)")
    p.add_argument("--brief", action="store_true", help="no per-class table")
    p.add_argument("--misses", type=number(int, 0, 10**9), default=10,
                   help="with --tables: how many missed seats to list (default 10; the rest "
                        "are counted)")
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
    from vision.detector import default_models_dir
    from vision.evaluate import (
        evaluate,
        evaluate_live,
        evaluate_tables,
        format_report,
        format_tables,
        load_dataset,
        load_model,
        load_scenes,
    )

    if not 0.0 <= args.conf <= 1.0:
        raise CommandError(f"--conf must lie in 0..1, got {args.conf}")
    specs = [(m, m, False) for m in args.models or [str(default_models_dir())]]
    if args.tables is None and (args.live or args.no_showdown_stills):
        raise CommandError("--live and --no-showdown-stills read table scenes: give --tables")
    if args.no_showdown_stills and not args.live:
        raise CommandError("--no-showdown-stills is a way of --live")
    if args.tables is not None:
        scenes = load_scenes(args.tables, args.limit)
        print(f"{args.tables}: {len(scenes)} table scenes")
        for spec, label, _ in specs:
            detector = load_model(spec, args.threads, args.imgsz, args.conf,
                                  backend=args.backend, ink=not args.no_ink,
                                  flips=not args.no_flips, askew=not args.no_askew,
                                  stills=not args.live)
            if args.live:
                score, seconds = evaluate_live(detector, scenes, args.ruleset, args.live,
                                               not args.no_showdown_stills)
                how = (f"{args.live} frames of each through the live pipeline as `watch` "
                       "reads them, a hand laid down read "
                       + ("as the stream reads" if args.no_showdown_stills else "as a still"))
                print(format_tables(score, label, seconds, misses=args.misses, how=how))
                continue
            score, seconds = evaluate_tables(detector, scenes, args.ruleset)
            print(format_tables(score, label, seconds, misses=args.misses))
        return 0
    data = load_dataset(args.data, args.limit)
    if not args.no_reference:
        ref = args.reference or reference_model()
        if ref is None:
            raise CommandError("reference model not found: pip install --no-deps "
                               "mahjong-detector==0.0.6, pass --reference, or --no-reference")
        specs.append((str(ref), f"reference mahjong-detector ({ref})", True))
    print(f"{args.data}: {len(data)} images, {sum(len(d.gt.names) for d in data)} labeled objects")
    for spec, label, reference in specs:
        size = None if reference else args.imgsz
        detector = load_model(spec, args.threads, size, args.conf, grey=reference,
                              backend=args.backend, ink=not args.no_ink, flips=not args.no_flips,
                              askew=not args.no_askew)
        print(format_report(evaluate(detector, data, label), per_class=not args.brief))
    return 0
