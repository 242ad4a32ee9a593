"""What a table turned under the camera costs `mjtable read`, in one run on this machine.

Run: ``python bench/turned_bench.py [--models DIR] [--degrees 30] [--repeat 3]``. Reads the
bundled 1920x1080 photos as ``mjtable read`` reads them (``vision.reading.read_image``, the
shipped models as ``read`` loads them), each as it is and turned ``--degrees`` under the camera
(``vision.squaring.turned_picture``: nothing cut off), the two taking turns photo by photo so
that a change of load hits both alike. Prints the median ms of each, their ratio (a turned
table is found twice: once to measure its rows, once squared), and whether each turned photo
read every seat's face-up tiles as the photo itself.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.capture import load_image  # noqa: E402
from vision.detector import load_detector  # noqa: E402
from vision.evaluate import scene_setting  # noqa: E402
from vision.manifest import seat_face_up  # noqa: E402
from vision.reading import read_image  # noqa: E402
from vision.squaring import turned_picture  # noqa: E402

SAMPLES = ROOT / "vision" / "samples"


def seats(reading) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [seat_face_up(s) for s in reading.table.seats]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, help="models folder (default: the shipped one)")
    parser.add_argument("--degrees", type=float, default=30.0, help="the camera's turn")
    parser.add_argument("--repeat", type=int, default=3, help="reads of each photo each way")
    args = parser.parse_args()
    detector = load_detector(args.models, threads=2, stills=True)
    photos = []
    for path in sorted(SAMPLES.glob("table_*.jpg")):
        image = load_image(path)
        setting = scene_setting(json.loads(path.with_suffix(".json").read_text()))
        photos.append((path.name, image, turned_picture(image, args.degrees), setting))
    print(f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {len(photos)} photos, "
          f"turned {args.degrees:g} degrees; {detector.describe()}")
    times: dict[str, list[float]] = {"square": [], "turned": []}
    for name, square, turned, setting in photos:  # warm-up, and what each reads
        same = seats(read_image(square, detector, **setting)) == \
            seats(read_image(turned, detector, **setting))
        print(f"  {name}: turned, every seat read as square: {'yes' if same else 'NO'}")
    for _ in range(args.repeat):
        for _, square, turned, setting in photos:
            for key, image in (("square", square), ("turned", turned)):
                t0 = time.perf_counter()
                read_image(image, detector, **setting)
                times[key].append((time.perf_counter() - t0) * 1000)
    square_ms, turned_ms = (statistics.median(times[k]) for k in ("square", "turned"))
    print(f"read_ms_median[square]: {square_ms:.0f}; read_ms_median[turned "
          f"{args.degrees:g} degrees]: {turned_ms:.0f}  ({turned_ms / square_ms:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
