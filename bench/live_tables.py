"""Table scenes read live: each labeled scene as a short still video through the Pipeline.

    python bench/live_tables.py DIR [--limit N] [--frames 6] [--models DIR]

``mjtable eval --tables DIR`` scores a still's reading (``mjtable read``); ``watch`` and the
dashboard read through :class:`vision.pipeline.Pipeline` instead: a stream's detector (each
crop once, no turned reading), the change mask's window passes after the first frame, the
stability rules, and a win only once a seat's laid-down hand holds. Here every scene of DIR
(manifests in the generator's format, ``docs/datasets.md``) is fed to a fresh Pipeline, set up
as ``watch`` sets one up, as ``--frames`` frames half a second apart; the record of the first
``win`` event (``Pipeline.hand_record``) and the last frame's table are scored with the same
``score_reading`` as ``eval``. Both ways of reading a laid-down hand (read again as a still,
the default, and as the stream reads it, ``showdown_stills=False``) are run in the same call,
taking turns scene by scene, so their times compare.
"""

from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.capture import load_image
from vision.detector import Detector, load_detector
from vision.evaluate import Scene, format_tables, load_scenes
from vision.manifest import TableScore, bottom_seat, score_reading
from vision.pipeline import Pipeline


def read_live(scene: Scene, detector: Detector, frames: int, showdown_stills: bool
              ) -> TableScore:
    """One scene through a fresh Pipeline, scored against its manifest."""
    m = scene.manifest
    image = load_image(scene.image)
    pipe = Pipeline(None, detector, ruleset=m.get("ruleset") or m["game"].get("ruleset")
                    or "shandong", dealer=int(m["game"].get("dealer", 0)),
                    corners=m.get("corners"),
                    bottom_seat=int(m.get("bottom_seat", bottom_seat(m))),
                    showdown_stills=showdown_stills)
    record = None
    result = None
    for i in range(frames):
        result = pipe.process(image.copy(), index=i, timestamp=100.0 + 0.5 * i)
        if record is None and any(e.type == "win" for e in result.events):
            record, _ = pipe.hand_record(result)
    assert result is not None
    reading = types.SimpleNamespace(table=result.table, detections=result.detections,
                                    dice=result.dice, record=record or {"wins": [{}]})
    return score_reading(reading, m)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tables", type=Path, help="folder of table scenes with manifests")
    ap.add_argument("--limit", type=int, help="only N scenes, evenly spaced by name")
    ap.add_argument("--frames", type=int, default=6, help="frames per scene (default 6)")
    ap.add_argument("--models", type=Path, help="models folder (default: the shipped ones)")
    ap.add_argument("--misses", type=int, default=10, help="misses listed per way")
    args = ap.parse_args(argv)
    if args.frames < 3:
        ap.error("--frames: a state must hold over 3 frames before it is reported")
    scenes = load_scenes(args.tables, args.limit)
    detector = load_detector(args.models)
    ways = {"showdown read as a still": True, "stream only": False}
    scores = {w: TableScore() for w in ways}
    spent = dict.fromkeys(ways, 0.0)
    for scene in scenes:
        for way, stills in ways.items():
            t0 = time.perf_counter()
            scores[way] += read_live(scene, detector, args.frames, stills)
            spent[way] += time.perf_counter() - t0
    for way in ways:
        print(format_tables(scores[way], f"live, {way}", spent[way] / len(scenes),
                            misses=args.misses,
                            how=f"{args.frames} frames each through the Pipeline"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
