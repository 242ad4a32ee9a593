"""``mjtable dataset``: build training data (import real photo sets, synthesize table scenes)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from scoring.rulesets.registry import known_rulesets
from ui.commands._numbers import PIXELS, SEED, THREADS, number

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("dataset", help="build and inspect detector training data",
                              description=__doc__)
    sub = p.add_subparsers(dest="dataset_command", metavar="ACTION", required=True)

    imp = sub.add_parser("import", help="import a real labeled photo set into the YOLO layout")
    imp.add_argument("name", choices=("tiles-real", "dice-real", "examples"),
                     help="which set (examples: showdowns confirmed in the dashboard with "
                          "mjtable run --save-examples DIR; give --src DIR)")
    imp.add_argument("--src", type=Path, default=None,
                     help="the set's folder (default: ../shared/datasets/NAME)")
    imp.add_argument("--out", type=Path, required=True, help="dataset folder to write")
    imp.add_argument("--val", type=number(float, 0, 1), default=0.2,
                     help="validation fraction (default 0.2)")
    imp.add_argument("--seed", type=SEED, default=0, help="split seed (default 0)")
    imp.add_argument("--link", choices=("symlink", "copy", "hardlink"), default="symlink",
                     help="how images are placed (default symlink)")
    imp.add_argument("--dice-as", choices=("die", "faces"), default="die",
                     help="dice-real: class 42 'die' with faces in dice_faces.csv, or the face "
                          "as the class (die1..die6)")
    imp.add_argument("--overwrite", action="store_true", help="replace an existing dataset")
    imp.set_defaults(func=_import)
    register_more(sub)


def _import(args: argparse.Namespace) -> int:
    from datasets import importers

    src = args.src if args.src is not None else SHARED / args.name
    kwargs = {"val_fraction": args.val, "seed": args.seed, "link": args.link,
              "overwrite": args.overwrite}
    if args.name == "dice-real":
        kwargs["dice_as"] = args.dice_as
    summary = importers.IMPORTERS[args.name](src, args.out, **kwargs)
    print(summary)
    return 0


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(PIXELS(v)) for v in text.lower().split("x"))
    except (ValueError, argparse.ArgumentTypeError):
        raise argparse.ArgumentTypeError(f"size must look like 1920x1080 (each side 32..8192 "
                                         f"pixels), got {text!r}") from None
    return w, h


def register_more(sub: argparse._SubParsersAction) -> None:
    syn = sub.add_parser("synth", help="render synthetic table scenes with exact labels")
    syn.add_argument("--out", type=Path, required=True, help="dataset folder to write")
    syn.add_argument("--scenes", type=number(int, 1, 10**7), default=100,
                     help="how many scenes (default 100)")
    syn.add_argument("--seed", type=SEED, default=0, help="seed; same seed, same dataset")
    syn.add_argument("--size", type=_size, default=None,
                     help="WxH (default: table 1920x1080, hand 1024x768, dice 640x640)")
    syn.add_argument("--kind", choices=("table", "hand", "dice", "mix"), default="table",
                     help="full tables, phone close-ups of tiles, dice, or a mix")
    syn.add_argument("--classes", choices=("tiles43", "coarse"), default="tiles43",
                     help="tiles43: 42 tile kinds + die; coarse: tile_face, tile_back, die")
    syn.add_argument("--workers", type=THREADS, default=max(1, (os.cpu_count() or 1)),
                     help="parallel processes (default: all cores)")
    syn.add_argument("--val", type=number(float, 0, 1), default=0.2,
                     help="validation fraction (default 0.2; 1 holds back every scene)")
    syn.add_argument("--faces", choices=("art", "real", "mix"), default="art",
                     help="tile faces: drawn art, photos (tiles-real and tile-faces, each scene "
                          "from its own split's fold), or half and half (default art)")
    syn.add_argument("--showdowns", type=number(float, 0, 1), default=None, metavar="P",
                     help="chance that a table scene is at a showdown, every hand face up "
                          "(default: the game's own, about 0.12)")
    syn.add_argument("--ruleset", choices=known_rulesets(), default=None,
                     help="make each showdown winner's hand a win under these rules and name "
                          "them in the manifest (default: any complete hand)")
    syn.add_argument("--turn", type=number(float, 0, 45, unit="degrees"), default=None,
                     metavar="DEG", help="turn each table's camera about it by up to DEG "
                     "degrees either way, evenly (default: set square to the table, within a "
                     "few degrees)")
    syn.add_argument("--style", action="append", default=None,
                     help="only these art styles (repeatable; default all available)")
    syn.add_argument("--flat", action="store_true",
                     help="flat colours per class, no photometry (for checking labels)")
    syn.add_argument("--overwrite", action="store_true", help="replace an existing dataset")
    syn.add_argument("--quiet", action="store_true", help="no progress line")
    syn.set_defaults(func=_synth)

    cr = sub.add_parser("crops", help="detector training windows cut at native scale from "
                        "1920x1080 table scenes (classes tile_face, tile_back, die)")
    cr.add_argument("--out", type=Path, required=True, help="detector folder to write")
    _table_scenes(cr, "how many table scenes (default 100)",
                  "tile faces, as for synth (default mix: the detector meets both)")
    cr.add_argument("--window", type=PIXELS, default=320, help="window side in px (default 320)")
    cr.add_argument("--per-scene", type=number(int, 1, 1000), default=6,
                    help="windows per scene (default 6)")
    cr.add_argument("--style", action="append", default=None,
                    help="only these art styles (repeatable; default all available)")
    cr.add_argument("--also", type=Path, action="append", default=[], metavar="DIR",
                    help="another detector folder (e.g. prepare's detector/) that data.yaml "
                         "lists beside these images (repeatable)")
    cr.add_argument("--sequence", action="store_true",
                    help="each scene a step of the scripted two hands (the bundled video's "
                         "story) on a table, camera and faces of its own: tidy rows seen "
                         "straight down, as a live camera sees play")
    cr.set_defaults(func=_crops)

    pc = sub.add_parser("photo-crops", help="detector training windows cut at native scale "
                        "from the labeled photos of a detector folder (e.g. prepare's "
                        "detector/), each in its photo's fold")
    pc.add_argument("source", type=Path, help="detector folder with images/ and labels/")
    pc.add_argument("--out", type=Path, required=True, help="detector folder to write")
    pc.add_argument("--window", type=PIXELS, default=320, help="window side in px (default 320)")
    pc.add_argument("--per-photo", type=number(int, 1, 1000), default=2,
                    help="windows per photo, each around a random labeled object (default 2)")
    pc.add_argument("--seed", type=SEED, default=0, help="seed; same seed, same windows")
    pc.add_argument("--workers", type=THREADS, default=max(1, (os.cpu_count() or 1)),
                    help="parallel processes (default: all cores)")
    pc.add_argument("--overwrite", action="store_true", help="replace an existing dataset")
    pc.add_argument("--quiet", action="store_true", help="no progress line")
    pc.set_defaults(func=_photo_crops)

    for name, what, about, scenes_help, flag, default, each in (
            ("tile-faces", "tiles", "tile classifier crops (train|val/1m..f8) of the face-up "
             "tiles", "~60 face-up tiles each", "--per-tile", 1, "face-up tile"),
            ("die-faces", "dice", "die-face classifier crops (train|val/die1..die6) of the dice",
             "two dice each", "--per-die", 4, "die")):
        sf = sub.add_parser(name, help=f"{about} on 1920x1080 table scenes, at the size a "
                            "table camera sees")
        sf.add_argument("--out", type=Path, required=True, help="classifier folder to write")
        _table_scenes(sf, f"how many table scenes (default 100; {scenes_help})",
                      "tile faces, as for synth (default mix)")
        sf.add_argument(flag, dest="per_object", metavar="N", type=number(int, 1, 100),
                        default=default, help=f"jittered crops of each {each} (default {default})")
        sf.add_argument("--style", action="append", default=None,
                        help="only these art styles (repeatable; default all available)")
        sf.set_defaults(func=_scene_faces, what=what)

    art = sub.add_parser("setup-art", help="fetch the Debian tile sets (apt-get download) and "
                         "render their faces into the cache; optional, adds styles")
    art.set_defaults(func=_setup_art)

    st = sub.add_parser("stats", help="class histogram of a dataset folder")
    st.add_argument("dir", type=Path)
    st.set_defaults(func=_stats)

    sh = sub.add_parser("sheet", help="contact sheet PNG of a dataset with boxes drawn")
    sh.add_argument("dir", type=Path)
    sh.add_argument("--out", type=Path, default=None, help="image to write (default DIR/sheet.png)")
    sh.add_argument("--count", type=number(int, 1, 10_000), default=16,
                    help="how many images (default 16)")
    sh.add_argument("--cols", type=number(int, 1, 100), default=4, help="columns (default 4)")
    sh.add_argument("--cell", type=PIXELS, default=480, help="cell size in px (default 480)")
    sh.add_argument("--no-boxes", action="store_true", help="images only")
    sh.add_argument("--seed", type=SEED, default=0, help="which images (default 0)")
    sh.add_argument("--beside", type=Path, default=None, metavar="DIR2",
                    help="a second dataset (e.g. real photos) shown beside DIR, without boxes")
    sh.set_defaults(func=_sheet)


def _table_scenes(p: argparse.ArgumentParser, scenes_help: str, faces_help: str) -> None:
    """The options of a command that renders 1920x1080 table scenes into training data."""
    p.add_argument("--scenes", type=number(int, 1, 10**7), default=100, help=scenes_help)
    p.add_argument("--faces", choices=("art", "real", "mix"), default="mix", help=faces_help)
    p.add_argument("--seed", type=SEED, default=0, help="seed; same seed, same dataset")
    p.add_argument("--val", type=number(float, 0, 1), default=0.2,
                   help="validation fraction of the scenes (default 0.2)")
    p.add_argument("--workers", type=THREADS, default=max(1, (os.cpu_count() or 1)),
                   help="parallel processes (default: all cores)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing dataset")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def _synth(args: argparse.Namespace) -> int:
    from datasets.synth import synthesize

    summary = synthesize(args.out, args.scenes, seed=args.seed, kind=args.kind, size=args.size,
                         class_set=args.classes, workers=args.workers, val_fraction=args.val,
                         overwrite=args.overwrite, flat=args.flat, styles=args.style,
                         progress=not args.quiet, faces=args.faces,
                         showdowns=args.showdowns, ruleset=args.ruleset, turn=args.turn)
    print(summary)
    return 0


def _crops(args: argparse.Namespace) -> int:
    from datasets.native_crops import write_crops

    print(write_crops(args.out, args.scenes, seed=args.seed, window=args.window,
                      per_scene=args.per_scene, faces=args.faces, val_fraction=args.val,
                      workers=args.workers, styles=args.style, also=tuple(args.also),
                      overwrite=args.overwrite, progress=not args.quiet,
                      sequence=args.sequence))
    return 0


def _photo_crops(args: argparse.Namespace) -> int:
    from datasets.native_crops import write_photo_crops

    print(write_photo_crops(args.source, args.out, seed=args.seed, window=args.window,
                            per_photo=args.per_photo, workers=args.workers,
                            overwrite=args.overwrite, progress=not args.quiet))
    return 0


def _scene_faces(args: argparse.Namespace) -> int:
    from vision.training.scene_faces import write_scene_faces

    summary = write_scene_faces(args.out, args.scenes, what=args.what, seed=args.seed,
                                per_object=args.per_object, faces=args.faces,
                                val_fraction=args.val, workers=args.workers,
                                overwrite=args.overwrite, progress=not args.quiet,
                                styles=args.style)
    print(f"{summary.out}: {summary.images} crops of {summary.boxes} {args.what} from "
          f"{summary.scenes} scenes in {summary.seconds:.1f}s")
    return 0


def _stats(args: argparse.Namespace) -> int:
    from datasets.synth import balance, class_histogram

    names, counts, files = class_histogram(args.dir)
    total = sum(counts.values())
    print(f"{args.dir}: {files} images, {total} boxes")
    mean, low, high, group = balance(names, counts)
    peak = max(counts.values(), default=0) or 1
    for i, name in enumerate(names):
        c = counts.get(i, 0)
        dev = f"{(c / mean - 1) * 100:+5.0f}%" if mean and i in group else "     "
        print(f"{i:3d} {name:>9} {c:8d} {dev} {'#' * round(40 * c / peak)}")
    if mean:
        print(f"{len(group)} {'tile kinds' if len(group) == 42 else 'classes'}: mean {mean:.1f}, "
              f"from {low * 100:+.1f}% to {high * 100:+.1f}% of it")
    return 0


def _sheet(args: argparse.Namespace) -> int:
    from datasets.sheet import contact_sheet

    out = args.out or args.dir / "sheet.png"
    if args.beside is not None:
        from datasets.sheet import compare_sheet

        print(compare_sheet(args.dir, args.beside, out, count=args.count, cols=args.cols,
                            cell=min(args.cell, 320), seed=args.seed))
        return 0
    path = contact_sheet(args.dir, out, count=args.count, cols=args.cols, cell=args.cell,
                         boxes=not args.no_boxes, seed=args.seed)
    print(path)
    return 0


def _setup_art(args: argparse.Namespace) -> int:
    from datasets import art, debian_art

    made = debian_art.setup_art(log=print)
    print(f"styles now available: {', '.join(art.available_styles())} (cache {art.cache_dir()})")
    return 0 if made else 2
