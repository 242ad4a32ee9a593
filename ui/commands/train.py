"""``mjtable train``: prepare the real-photo datasets and train the detector or classifier."""

from __future__ import annotations

import argparse
from pathlib import Path

from ui.commands._numbers import PIXELS, THREADS, number


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "train", help="train the tile/dice detector or crop classifier (needs the train extra)",
        description="'prepare' cuts the working datasets from the shared real photos; "
                    "'detector' and 'classifier' train a YOLO11n from its YAML, offline, into "
                    "PROJECT/NAME (resumable with --resume).")
    p.add_argument("kind", choices=["prepare", "detector", "classifier"])
    p.add_argument("--data", type=Path, required=True,
                   help="prepare: the tiles-real folder; detector: data.yaml; "
                        "classifier: folder with train/ and val/")
    p.add_argument("--dice", type=Path, action="append", default=[],
                   help="prepare: a dice photo folder (dice-real, dice-more; repeatable, each "
                        "split on its own)")
    p.add_argument("--out", type=Path, help="prepare: output folder")
    p.add_argument("--val-share", type=number(float, 0, 1), default=0.2,
                   help="prepare: share of source photos held back (default 0.2)")
    p.add_argument("--tile-crops", type=number(int, 1, 100), default=1,
                   help="prepare: classifier crops per training tile, each jittered (default 1)")
    p.add_argument("--dice-crops", type=number(int, 1, 100), default=1,
                   help="prepare: classifier crops per training die, jittered and turned "
                        "(default 1; 8 gives every rotation and mirror)")
    p.add_argument("--faces", type=Path,
                   help="prepare: the tile-faces folder (other tile sets; held back by look)")
    p.add_argument("--face-crops", type=number(int, 1, 1000), default=1,
                   help="prepare: classifier crops per training face (default 1)")
    p.add_argument("--art", action="append", default=[], metavar="STYLE",
                   help="prepare: add crops of this drawn-art style (repeatable; "
                        "mjtable dataset synth --help lists them)")
    p.add_argument("--art-crops", type=number(int, 0, 1000), default=8,
                   help="prepare: crops per drawn face and style (default 8)")
    p.add_argument("--turn", action="store_true",
                   help="prepare: give each tile crop a random quarter turn (both folds)")
    p.add_argument("--small", type=number(float, 0, 1), default=0.0, metavar="P",
                   help="prepare: shrink a tile crop to whole-table size (24-44 px wide) and "
                        "back with probability P (both folds; default 0)")
    p.add_argument("--epochs", type=number(int, 1, 100_000), default=50)
    p.add_argument("--imgsz", type=PIXELS, default=320)
    p.add_argument("--batch", type=number(int, 1, 4096), default=16)
    p.add_argument("--device", default="cpu", help="cpu or a CUDA index such as 0")
    p.add_argument("--project", type=Path, default=Path("runs"))
    p.add_argument("--name", default=None, help="run folder name (default: the kind)")
    p.add_argument("--workers", type=number(int, 0, 256), default=2)
    p.add_argument("--threads", type=THREADS,
                   help="torch CPU threads (default: all cores; 1 is faster on a busy machine)")
    p.add_argument("--seed-onnx", type=Path,
                   help="start from the weights of a YOLO11n detector ONNX "
                        "(e.g. mahjong-detector's); a classifier takes its backbone")
    p.add_argument("--init", type=Path,
                   help="start from this ultralytics checkpoint (.pt), e.g. an earlier run's "
                        "weights/last.pt for a second phase")
    p.add_argument("--freeze", type=number(int, 0, 1000), default=0,
                   help="keep the first N layers fixed (with --seed-onnx; saves CPU time)")
    p.add_argument("--frozen-stem", action="store_true",
                   help="classifier: train only layers 7+ on cached features of the seeded "
                        "stem (minutes instead of hours on a CPU; needs --seed-onnx)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="any other ultralytics training argument, e.g. warmup_epochs=1")
    p.add_argument("--resume", action="store_true",
                   help="continue PROJECT/NAME from weights/last.pt")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ui.cli import CommandError

    if args.kind == "prepare":
        from vision.training.prepare import TableLook, prepare

        if not args.out:
            raise CommandError("prepare needs --out")
        try:
            counts = prepare(args.data, args.dice, args.out, val_share=args.val_share,
                             tile_crops=args.tile_crops, dice_crops=args.dice_crops,
                             faces=args.faces, face_crops=args.face_crops,
                             art=tuple(args.art), art_crops=args.art_crops,
                             look=TableLook(turn=args.turn, small=args.small))
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        print(" ".join(f"{k}={v}" for k, v in counts.items()))
        return 0
    name = args.name or args.kind
    if args.frozen_stem:
        if args.kind != "classifier" or not args.seed_onnx:
            raise CommandError("--frozen-stem trains a classifier and needs --seed-onnx")
        from vision.training.headfit import fit_head

        folder = fit_head(args.data, args.seed_onnx, (args.project / name).resolve(),
                          epochs=args.epochs, imgsz=args.imgsz, batch=args.batch,
                          threads=args.threads or 0)
        print(f"run folder: {folder}")
        return 0
    from vision.training.ultra import TrainSpec, train

    seed = args.init
    if args.init and args.seed_onnx:
        raise CommandError("give --init or --seed-onnx, not both")
    if args.init and not args.init.is_file():
        raise CommandError(f"--init {args.init}: no such checkpoint")
    if args.seed_onnx and not args.resume:
        from vision.training.seed import seed_checkpoint

        seed = seed_checkpoint(args.seed_onnx, args.data, args.project / f"{name}-seed.pt",
                               kind=args.kind)
    if seed and not args.resume:
        from vision.training.seed import calibrate_checkpoint, training_images

        calibrated = args.project / f"{name}-calibrated.pt"
        changed = calibrate_checkpoint(seed, training_images(args.kind, args.data), args.imgsz,
                                       calibrated)
        if changed:
            print(f"gave {changed} BatchNorm layers still at the seed's identity statistics "
                  f"their input's statistics ({calibrated})")
            seed = calibrated
    spec = TrainSpec(kind=args.kind, data=args.data, epochs=args.epochs, imgsz=args.imgsz,
                     device=str(args.device), batch=args.batch, project=args.project, name=name,
                     workers=args.workers, seed_weights=seed, threads=args.threads,
                     extra=(*((("freeze", args.freeze),) if args.freeze else ()),
                            *_settings(args.set)))
    folder = train(spec, resume=args.resume)
    print(f"run folder: {folder}")
    return 0


def _settings(items: list[str]) -> tuple[tuple[str, object], ...]:
    """``KEY=VALUE`` strings as typed pairs (numbers and booleans parsed, the rest strings)."""
    import ast

    from ui.cli import CommandError

    out = []
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise CommandError(f"--set {item!r}: expected KEY=VALUE")
        try:
            value: object = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            value = {"true": True, "false": False}.get(raw.lower(), raw)
        out.append((key, value))
    return tuple(out)
