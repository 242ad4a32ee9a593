"""Why the close-up fold's photos miss an exact tile multiset: boxes missed, misread, or extra.

Run: ``python bench/closeup_misses.py --data WORK8/val [--models DIR] [--imgsz 320]
[--no-flips]``. Each photo of tiles is read as ``mjtable detect`` reads it; its tile boxes
are matched to the labeled tiles (IoU 0.5, one box each, dice left out) and the photo is
counted by what went wrong: labeled tiles with no box, matched boxes read as another kind,
and boxes on no labeled tile. The fold's labels box a hand row, not always every tile in the
photo, so a photo that fails by extra boxes alone may hold tiles the labels leave out.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision.capture import load_image  # noqa: E402
from vision.evaluate import load_dataset, load_model  # noqa: E402
from vision.metrics import greedy_pairs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="labeled YOLO folder")
    parser.add_argument("--models", default=str(ROOT / "models"), help="models folder")
    parser.add_argument("--imgsz", type=int, help="detector input size (default: automatic)")
    parser.add_argument("--no-flips", action="store_true", help="read each photo once")
    args = parser.parse_args()
    detector = load_model(args.models, size=args.imgsz, flips=not args.no_flips)
    kinds: Counter[str] = Counter()
    for item in load_dataset(args.data):
        tiles = [i for i, name in enumerate(item.gt.names) if not name.startswith("die")]
        if not tiles:
            continue
        found = detector.detect(load_image(item.image))
        found = found[found.is_tile]
        names = [CLASS_NAMES[c] for c in found.class_id]
        truth = [item.gt.names[i] for i in tiles]
        pairs = greedy_pairs(item.gt.boxes[tiles], found.xyxy)
        missed = sum(p is None for _, p in pairs)
        misread = sum(p is not None and names[p] != truth[g] for g, p in pairs)
        extra = len(found) - sum(p is not None for _, p in pairs)
        causes = [label for n, label in ((missed, "missed"), (misread, "misread"),
                                         (extra, "extra boxes")) if n]
        kinds["exact" if not causes else f"only {causes[0]}" if len(causes) == 1
              else "more than one cause"] += 1
    total = sum(kinds.values())
    print(f"{args.data}: {total} photos of tiles")
    for kind, n in kinds.most_common():
        print(f"  {kind}: {n} ({100 * n / total:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
