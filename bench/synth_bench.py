"""Speed of the synthetic scene generator: full-table scenes per second at 1920x1080.

The issue's target is 4 scenes/s on 2 cores. Prints the wall-clock rate with N workers and the
CPU time per scene (what an unloaded machine would give: workers / cpu-seconds-per-scene), and
the machine load, because the development machine is shared.

    .venv/bin/python bench/synth_bench.py --scenes 24 --workers 2
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET = 4.0  # scenes/s on 2 cores, from issue 8


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=24)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kind", default="table")
    ap.add_argument("--size", default="1920x1080")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))

    import resource

    from datasets import art
    from datasets.scene import make_scene
    from datasets.synth import synthesize

    art.available_styles()  # the art cache is warm before timing
    make_scene(args.kind, 999, 0, (w, h))  # warm the per-process caches
    c0 = time.process_time()
    t0 = time.perf_counter()
    for i in range(4):
        make_scene(args.kind, 998, i, (w, h))
    cpu_per_scene = (time.process_time() - c0) / 4
    single_wall = (time.perf_counter() - t0) / 4

    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        ch0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        synthesize(Path(tmp) / "d", args.scenes, seed=1, kind=args.kind, size=(w, h),
                   workers=args.workers, progress=False)
        wall = time.perf_counter() - t0
        ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = (ch1.ru_utime + ch1.ru_stime) - (ch0.ru_utime + ch0.ru_stime)
    load1 = os.getloadavg()[0]
    rate = args.scenes / wall
    cpu_rate = args.workers / max(child_cpu / args.scenes, 1e-9)
    print(f"{args.kind} {w}x{h}, {args.scenes} scenes, {args.workers} workers")
    print(f"  wall:  {rate:.2f} scenes/s  ({rate / TARGET:.2f}x the {TARGET:g}/s target)")
    print(f"  cpu:   {child_cpu / args.scenes:.3f} s/scene in workers, {cpu_per_scene:.3f} s/scene "
          f"in one process ({single_wall:.3f} s wall)")
    print(f"  unloaded estimate: {cpu_rate:.2f} scenes/s on {args.workers} cores "
          f"({cpu_rate / TARGET:.2f}x target)")
    print(f"  load average during run: {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
