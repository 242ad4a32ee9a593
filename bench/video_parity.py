"""The bundled video both ways (issue 17): analysing every frame in full against only what
changed, with the same models; are the events the same, and which differ?

Run: ``python bench/video_parity.py [--models DIR]`` (about a minute on a busy 2-core machine:
the every-frame pass runs the models on all 259 frames). Prints the event count of each pass,
every event that only one of them gives (a unified diff of ``frame type data``; ``hand``
events shortened to the seat and its face-up hand), and for each pass the scripted events seen
(``vision_bench.script_delays``: in their own step, late, not at all). Rerun it when a model
is replaced: the test ``test_bundled_video_with_the_shipped_models_both_ways`` asks for no
difference.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from vision_bench import VIDEO, script_delays, video_script  # noqa: E402

from vision.detector import load_detector  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.stability import VisionEvent  # noqa: E402


def run(models: Path | None, every_frame: bool) -> tuple[list[VisionEvent], list]:
    """The video through the whole pipeline: its events and, per frame, (index, ms, reused)."""
    pipe = Pipeline(str(VIDEO), load_detector(models), ruleset=video_script().get("ruleset"),
                    dealer=0, motion=-1.0 if every_frame else 1.5)
    events, frames = [], []
    for result in pipe.frames():
        events += result.events
        frames.append((result.frame.index, sum(result.timings.values()) * 1000, result.reused))
    return events, frames


def line(e: VisionEvent) -> str:
    data = e.data
    if e.type == "hand":
        data = {"seat": data["seat"], "concealed": data["concealed"],
                "melds": [m["tiles"] for m in data["melds"]]}
    return f"{e.frame:4d} {e.type} {data}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None, help="folder with detector.onnx")
    args = parser.parse_args()
    masked, masked_frames = run(args.models, every_frame=False)
    full, full_frames = run(args.models, every_frame=True)
    same = [(e.frame, e.type, e.data) for e in masked] == [(e.frame, e.type, e.data)
                                                          for e in full]
    print(f"events: only what changed {len(masked)}, every frame in full {len(full)}: "
          f"{'the same' if same else 'NOT the same'}")
    for diff in difflib.unified_diff([line(e) for e in masked], [line(e) for e in full],
                                     "only what changed", "every frame in full", n=0,
                                     lineterm=""):
        print(f"  {diff}")
    for name, events, frames in (("only what changed", masked, masked_frames),
                                 ("every frame in full", full, full_frames)):
        print(f"scripted events, {name}: {'; '.join(script_delays(events, frames)[-2:])}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
