"""``mjtable dataset``: build training data (import real photo sets, synthesize table scenes)."""

from __future__ import annotations

import argparse
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("dataset", help="build and inspect detector training data",
                              description=__doc__)
    sub = p.add_subparsers(dest="dataset_command", metavar="ACTION", required=True)

    imp = sub.add_parser("import", help="import a real labeled photo set into the YOLO layout")
    imp.add_argument("name", choices=("tiles-real", "dice-real"), help="which set")
    imp.add_argument("--src", type=Path, default=None,
                     help="the set's folder (default: ../shared/datasets/NAME)")
    imp.add_argument("--out", type=Path, required=True, help="dataset folder to write")
    imp.add_argument("--val", type=float, default=0.2, help="validation fraction (default 0.2)")
    imp.add_argument("--seed", type=int, default=0, help="split seed (default 0)")
    imp.add_argument("--link", choices=("symlink", "copy", "hardlink"), default="symlink",
                     help="how images are placed (default symlink)")
    imp.add_argument("--dice-as", choices=("die", "faces"), default="die",
                     help="dice-real: class 42 'die' with faces in dice_faces.csv, or the face "
                          "as the class (die1..die6)")
    imp.add_argument("--overwrite", action="store_true", help="replace an existing dataset")
    imp.set_defaults(func=_import)


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
