"""Recognition speed at whole-table scale (issue 17), in one run on this machine.

Run: ``python bench/vision_bench.py [--models DIR] [--reference PATH] [--repeat 5] [--quick]``
(``--quick``: the whole-table pass once per photo and the video runs only, about two minutes on a
busy 2-core machine). Prints

- the load (``os.getloadavg``) and cores: other work on a 2-core machine halves these figures,
  so read the ratios, which come from the same run;
- ``detector_ms_median[backend=B, input=WxH, threads=T]``: the whole ``Detector.detect``
  (letterbox, inference, decoding, NMS, crop and die classification; in brackets the detection
  stage alone, ``Detector.find``) on the bundled 1920x1080 photos, median over photos x
  repeats, for each installed backend at the whole-table size (960, a 960x544 input) with 1 and
  2 threads, and onnxruntime on the square 960x960 input that was run before the rectangular
  letterbox (``whole_table_speedup``: that / each), the configurations taking turns photo by
  photo so that a change of load hits all alike;
- in the same run, on frames of the bundled video: onnxruntime on the square 960x960 input, on
  the 960x544 input, and on the calibrated table's region only (``TABLE REGION``: what the
  pipeline's full pass reads once the table is calibrated, vision/region.py; the table
  calibrated from the video's first frame as the pipeline does), and on the photos the table
  region of each photo's own calibration; ``table_region_speedup``: the square 960 pass on the
  same pictures / the table region pass;
- ``session_options_ms``: the detector's inference alone under the options weighed for two
  cores (onnxruntime threads spinning or sleeping; OpenVINO any-shape or exact-shape compile,
  float32 or bfloat16);
- the ``mahjong-detector`` reference (its YOLO11n at 640, grey input) on the same photos, when
  found (an installed ``mahjong_detector`` package, ``--reference`` or
  ``$MAHJONG_DETECTOR_ONNX``; ``pip download --no-deps mahjong-detector`` and unzip the wheel);
- ``video_fps[...]`` on ``vision/samples/table_1080p.mp4`` (1920x1080 at 5 fps, 259 frames of
  two whole hands played, with sensor noise) through the whole ``Pipeline`` (capture thread,
  detection, geometry, repair, stability, events): every frame analysed in full, with
  onnxruntime (today's every-frame rate, the yardstick) and each backend; and only what changed
  (``vision/changes.py``), with each backend; ``ratio_vs_every_frame_onnxruntime``;
- ``clip_fps[...]``: the same on a noise-free clip made from ``table_0.jpg`` with local changes
  (``vision/samples/clips.py``: the dice taken away and a tile discarded, then the dice back),
  where the change mask runs the detector on windows; the events of both must be equal;
- ``showdown_stills_cost``: the change-mask run again with a hand laid down read as the stream
  reads it (``Pipeline(showdown_stills=False)``), against the default, which reads such frames
  as ``mjtable read`` reads a photo (twenty-ninth session);
- ``delay``: for each event, the camera time from the frame that changed to the frame that
  reported it (in frames and ms of the video: a live stream at the same rate waits the same)
  plus that frame's processing time (what a live viewer waits; aim < 300 ms);
- ``still_read_ms_median``: in the same run, ``Detector.detect`` on the photos as ``mjtable
  read`` reads a still (each choosing its size, every quarter turn of each crop), with and
  without reading an unsure tile's crops again turned (``askew``, twenty-eighth session);
- ``sample_read_accuracy`` and ``pip_count_accuracy_dice_real`` as before.

Timings on a shared machine are noisy: rerun before drawing conclusions.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from vision.backends import AUTO, BACKENDS, openvino_installed  # noqa: E402
from vision.capture import load_image  # noqa: E402
from vision.changes import detect_region, find_region, input_windows, whole_input  # noqa: E402
from vision.detector import LETTERBOX_FILL, Detector, default_models_dir, load_detector  # noqa: E402

SAMPLES = ROOT / "vision" / "samples"
VIDEO = SAMPLES / "table_1080p.mp4"


def reference_model(path: str | None) -> Path | None:
    if path:
        return Path(path)
    env = os.environ.get("MAHJONG_DETECTOR_ONNX")
    if env:
        return Path(env)
    spec = importlib.util.find_spec("mahjong_detector")
    if spec is not None and spec.origin:
        candidate = Path(spec.origin).parent / "model.onnx"
        if candidate.is_file():
            return candidate
    return None


def latency_ms(detector: Detector, images: list, repeat: int, stage: str = "detect") -> float:
    """Median ms of ``Detector.detect`` (or of ``find``, the detection stage alone)."""
    run = getattr(detector, stage)
    for image in images * 2:
        run(image)  # warm-up: first runs allocate (and OpenVINO compiles shapes seen twice)
    times = []
    for _ in range(repeat):
        for image in images:
            t0 = time.perf_counter()
            run(image)
            times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def interleaved_ms(configs: dict, repeat: int) -> dict:
    """Median ms of ``detect`` and of ``find`` for each (detector, images) of ``configs``,
    the configurations taking turns photo by photo."""
    for det, images in configs.values():
        for image in images * 2:
            det.detect(image)  # warm-up: allocations, OpenVINO's compiles
    times: dict = {key: ([], []) for key in configs}
    for _ in range(repeat):
        for i in range(max(len(images) for _, images in configs.values())):
            for key, (det, images) in configs.items():
                for stage, out in zip((det.detect, det.find), times[key], strict=True):
                    t0 = time.perf_counter()
                    stage(images[i % len(images)])
                    out.append((time.perf_counter() - t0) * 1000)
    return {key: (statistics.median(d), statistics.median(f)) for key, (d, f) in times.items()}


def squared(image: np.ndarray) -> np.ndarray:
    """The frame padded to a square below it: a dynamic detector then runs on the square
    960x960 input every frame got before the rectangular letterbox."""
    h, w = image.shape[:2]
    return cv2.copyMakeBorder(image, 0, max(0, w - h), 0, max(0, h - w), cv2.BORDER_CONSTANT,
                              value=(LETTERBOX_FILL,) * 3)


class TableRegion:
    """``detect`` and ``find`` on the calibrated table's region only, as the pipeline runs a
    full pass once the table is calibrated: each picture's region is that of the pipeline's
    calibration of ``calibrate_on[picture]`` (the picture itself, or the video's first frame),
    made on its first frame by a whole-frame pass."""

    def __init__(self, detector: Detector, images: list, calibrate_on: list) -> None:
        from vision.pipeline import Pipeline

        self.detector = detector
        self.regions: dict[int, tuple[int, int, int, int]] = {}
        for image, first in zip(images, calibrate_on, strict=True):
            pipe = Pipeline(None, detector)  # the change mask's pipeline reads regions
            pipe.process(first, 0, 0.0)
            if pipe.region is None:
                raise ValueError("the pipeline found no table region in a bench picture")
            self.regions[id(image)] = pipe.region

    def detect(self, image: np.ndarray) -> object:
        return detect_region(self.detector, image, self.regions[id(image)])

    def find(self, image: np.ndarray) -> object:
        return find_region(self.detector, image, self.regions[id(image)])

    def inputs(self, images: list) -> str:
        """The regions and the detector input each runs at (w x h)."""
        out = []
        for image in images:
            region = self.regions[id(image)]
            boxed, lb = whole_input(self.detector, image)
            (x0, y0, x1, y1), = input_windows(lb, boxed.shape, (region,), 0)
            out.append(f"{region} -> {x1 - x0}x{y1 - y0}")
        return ", ".join(out)


def video_frames(indices: tuple[int, ...]) -> list[np.ndarray]:
    """The bundled video's frames at ``indices``, in order."""
    cap = cv2.VideoCapture(str(VIDEO))
    out = []
    for i in range(max(indices) + 1):
        ok, frame = cap.read()
        if not ok:
            break
        if i in indices:
            out.append(frame)
    cap.release()
    return out


def session_options(models: Path, repeat: int) -> list[str]:
    """The detector's inference alone on a 960x544 input under the session options weighed
    for a 2-core machine: onnxruntime's idle threads spinning (its default) or sleeping (ours);
    OpenVINO compiled for any shape or for exactly this one, and in bfloat16 (faster on a CPU
    that has it, but it moves boxes, so it is not used)."""
    import onnxruntime as ort

    x = np.random.default_rng(0).random((1, 3, 544, 960), dtype=np.float32)

    def ms(run: object) -> float:
        for _ in range(2):
            run(x)  # type: ignore[operator]
        times = []
        for _ in range(max(3, repeat)):
            t0 = time.perf_counter()
            run(x)  # type: ignore[operator]
            times.append((time.perf_counter() - t0) * 1000)
        return statistics.median(times)

    path = str(models / "detector.onnx")
    out = []
    for threads in (1, 2):
        row = []
        for spin in ("1", "0"):
            opts = ort.SessionOptions()
            opts.intra_op_num_threads, opts.inter_op_num_threads = threads, 1
            opts.add_session_config_entry("session.intra_op.allow_spinning", spin)
            sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
            row.append(f"{'spinning' if spin == '1' else 'sleeping (ours)'} "
                       f"{ms(lambda a, s=sess: s.run(None, {'images': a})):.1f}")
        out.append(f"onnxruntime, threads={threads}: " + ", ".join(row))
        if openvino_installed():
            import openvino as ov

            core = ov.Core()
            config = {"INFERENCE_NUM_THREADS": threads, "NUM_STREAMS": 1,
                      "PERFORMANCE_HINT": "LATENCY", "ENABLE_CPU_PINNING": False,
                      "INFERENCE_PRECISION_HINT": "f32"}
            model = core.read_model(path)
            row = []
            for label, shape, precision in (("any shape", None, "f32"),
                                            ("exact shape", x.shape, "f32"),
                                            ("exact shape bf16", x.shape, "bf16")):
                m = model.clone()
                if shape is not None:
                    m.reshape({0: list(shape)})
                req = core.compile_model(m, "CPU", dict(config, INFERENCE_PRECISION_HINT=precision)
                                         ).create_infer_request()
                row.append(f"{label} {ms(lambda a, r=req: r.infer({0: a})):.1f}")
            out.append(f"openvino, threads={threads}, unpinned: " + ", ".join(row))
    return out


STREAM_SHOWDOWN = "changed only, a hand laid down read as the stream reads"


def video_run(detector: Detector, motion: float, showdown_stills: bool = True
              ) -> tuple[float, int, list, list]:
    """The bundled video through the whole ``Pipeline``: ``motion`` 1.5 analyses only what
    changed (vision/changes.py), -1 every frame in full; ``showdown_stills``: a hand laid
    down read as a still. (fps, frames, events, per frame: (index, ms, reused))."""
    from vision.pipeline import Pipeline

    pipe = Pipeline(str(VIDEO), detector, ruleset=video_script().get("ruleset"), dealer=0,
                    motion=motion, showdown_stills=showdown_stills)
    events, frames = [], []
    t0 = time.perf_counter()
    for result in pipe.frames():
        events += result.events
        frames.append((result.frame.index, sum(result.timings.values()) * 1000,
                       result.reused))
    return len(frames) / (time.perf_counter() - t0), len(frames), events, frames


def video_script() -> dict:
    """The bundled video's script (``table_1080p.script.json``), or ``{}`` without one."""
    import json

    path = VIDEO.with_suffix(".script.json")
    return json.loads(path.read_text()) if path.is_file() else {}


def clip_run(detector: Detector, motion: float) -> tuple[float, list, list, object]:
    """The noise-free local-change clip fed frame by frame to ``Pipeline.process``:
    (fps, events, per frame (index, ms, reused), the change tracker)."""
    from vision.pipeline import Pipeline
    from vision.samples.clips import local_change_clip

    clip = local_change_clip()
    pipe = Pipeline(None, detector, ruleset="shanghai", motion=motion)
    events, frames = [], []
    t0 = time.perf_counter()
    for i, frame in enumerate(clip.frames):
        t1 = time.perf_counter()
        result = pipe.process(frame, i, i / clip.fps)
        frames.append((i, (time.perf_counter() - t1) * 1000, result.reused))
        events += result.events
    return len(clip.frames) / (time.perf_counter() - t0), events, frames, pipe.changes


def script_delays(events: list, frames: list) -> list[str]:
    """For each event of the bundled video that its script names (``table_1080p.script.json``:
    each step's first frame is when its change is in the picture): the camera time from that
    frame to the frame that reported it, plus that frame's processing time. The median is over
    the discards reported within their own step: the live delay; a discard reported only later
    (at the showdown) is one the models did not read in time, counted apart."""
    script = video_script()
    if not script:
        return ["no script beside the video: no delays"]
    fps, steps = float(script["fps"]), script["steps"]

    def key(e: dict) -> tuple:
        return (e["type"], e.get("seat"), str(e.get("tile", e.get("dice", e.get("tiles", "")))))

    todo = [(*steps[e["step"]]["frames"], key(e)) for e in script["events"]]
    ms = {index: t for index, t, _ in frames}
    out, waits = [], []
    for event in events:
        k = key({"type": event.type, **event.data})
        match = next((m for m in todo if m[2] == k and m[0] <= event.frame), None)
        if match is None:
            continue
        todo.remove(match)
        lag = event.frame - match[0]
        wait = lag / fps * 1000
        waits.append((event.type, lag, wait, ms[event.frame], event.frame < match[1]))
        out.append(f"{event.type} {k[2]} (seat {k[1]}): in the picture at frame {match[0]}, "
                   f"reported at {event.frame}: {lag} frames ({wait:.0f} ms of video) + "
                   f"{ms[event.frame]:.0f} ms processing = {wait + ms[event.frame]:.0f} ms"
                   + ("" if event.frame < match[1] else " (late: not read in its own step)"))
    on_time = [w for w in waits if w[0] == "discard" and w[4]]
    late = sum(1 for w in waits if w[0] == "discard" and not w[4])
    if on_time:
        total = statistics.median(w[2] + w[3] for w in on_time)
        out.append(f"discard delay median {total:.0f} ms over the {len(on_time)} scripted "
                   f"discards read in their own step: "
                   f"{statistics.median(w[1] for w in on_time):g} frames "
                   f"({statistics.median(w[2] for w in on_time):.0f} ms of video at {fps:g} "
                   f"fps) + {statistics.median(w[3] for w in on_time):.0f} ms processing "
                   f"(aim < 300 ms: {'met' if total < 300 else 'NOT met'})")
    out.append(f"{late} scripted discards reported late (the models did not read them in "
               f"their step); {len(todo)} of {len(script['events'])} scripted events not "
               "reported")
    return out


def delay_lines(events: list, frames: list, changes: list[int], fps: float) -> list[str]:
    ms = {index: t for index, t, _ in frames}
    out = []
    for event in events:
        start = max((c for c in changes if c <= event.frame), default=0)
        wait = (event.frame - start) / fps * 1000
        out.append(f"{event.type}: changed at frame {start}, reported at {event.frame}: "
                   f"{wait + ms[event.frame]:.0f} ms ({wait:.0f} ms of frames at {fps:g} fps "
                   f"+ {ms[event.frame]:.0f} ms processing)")
    return out


def kind_ms(frames: list, changes: object) -> str:
    """Median ms of the frames analysed and of those reused."""
    analysed = [t for _, t, reused in frames if not reused]
    reused = [t for _, t, r in frames if r]
    parts = [f"{len(analysed)} analysed (median {statistics.median(analysed):.0f} ms)"
             if analysed else "0 analysed"]
    if reused:
        parts.append(f"{len(reused)} reused (median {statistics.median(reused):.1f} ms)")
    passes = getattr(changes, "passes", None)
    if passes:
        parts.append("passes " + ", ".join(f"{k} {v}" for k, v in sorted(passes.items())))
    return "; ".join(parts)


def sample_accuracy(detector: Detector) -> str:
    import json

    from vision.dice import read_dice
    from vision.geometry import read_table
    from vision.manifest import Score, bottom_seat, compare
    from vision.reading import calibrate
    from vision.repair import repair

    total = Score()
    for path in sorted(SAMPLES.glob("table_*.jpg")):
        manifest = json.loads(path.with_suffix(".json").read_text())
        image = load_image(path)
        dets = detector.detect(image)
        table = read_table(dets, calibrate(image, bottom_seat=bottom_seat(manifest), dets=dets),
                           still=True)
        repair(table, {})
        roll = read_dice(table.detections)
        total += compare(table, manifest, roll.faces if roll else None)
    return total.summary()


def pip_accuracy(folder: Path) -> tuple[int, int] | None:
    from vision.dice import count_pips

    images = sorted((folder / "images").glob("*.jpg"))
    if not images:
        return None
    right = total = 0
    for path in images:
        image = load_image(path)
        h, w = image.shape[:2]
        for line in (folder / "labels" / f"{path.stem}.txt").read_text().splitlines():
            c, cx, cy, bw, bh = map(float, line.split())
            x1, y1 = int((cx - bw / 2) * w), int((cy - bh / 2) * h)
            x2, y2 = int((cx + bw / 2) * w), int((cy + bh / 2) * h)
            total += 1
            right += count_pips(image[max(0, y1):y2, max(0, x1):x2]) == int(c) + 1
    return right, total


def reference(path: str | None, backends: list[str], images: list, repeat: int,
              ours: dict) -> None:
    """The ``mahjong-detector`` reference on the same photos, when found."""
    ref = reference_model(path)
    if ref is None:
        print("mahjong-detector: not found (pip download --no-deps mahjong-detector; unzip; "
              "--reference .../mahjong_detector/model.onnx)")
        return
    for backend in backends:
        theirs = latency_ms(Detector(ref, threads=2, read_dice=False, grey=True,
                                     backend=backend), images, repeat)
        print(f"mahjong_detector_ms_median[backend={backend}, input=640x640, threads=2]: "
              f"{theirs:.1f}  (ratio to ours at 960x544: {theirs / ours[backend, 2][0]:.2f}; "
              "above 1: ours is faster)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None, help="folder with detector.onnx")
    parser.add_argument("--reference", help="the mahjong-detector model.onnx")
    parser.add_argument("--repeat", type=int, default=None,
                        help="passes over the photos (default 5; 1 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="only the whole-table pass and the video runs")
    parser.add_argument("--dice", type=Path, default=ROOT.parent / "shared" / "datasets" /
                        "dice-real", help="labeled dice photos (class k = k+1 pips)")
    args = parser.parse_args()
    if args.repeat is None:
        args.repeat = 1 if args.quick else 5
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} (1, 5, 15 min)")
    images = [load_image(p) for p in sorted(SAMPLES.glob("table_*.jpg"))]
    models = args.models or default_models_dir()
    if not images or not (models / "detector.onnx").is_file():
        print(f"need the bundled photos and a detector in {models}")
        return 2
    backends = [b for b in BACKENDS if b != "openvino" or openvino_installed()]
    print(f"photos: {len(images)} bundled table photos, {images[0].shape[1]}x"
          f"{images[0].shape[0]}; backends: {', '.join(backends)}"
          + ("" if openvino_installed() else " (openvino not installed: pip install "
             "'mjtable[openvino]')"))
    # the configurations take turns photo by photo, so a change of load hits all alike
    configs: dict[tuple[str, int], tuple[Detector, list]] = {
        ("square", 2): (load_detector(models, threads=2, imgsz=960, backend="onnxruntime"),
                        [squared(i) for i in images])}
    for backend in backends:
        for threads in (1, 2):
            configs[backend, threads] = (load_detector(models, threads=threads, imgsz=960,
                                                       backend=backend), images)
    # the table region, in the same run: on the video's frames (the table calibrated from its
    # first frame, as the pipeline does) and on the photos (each by its own calibration)
    first, *frames = video_frames((0, 60, 150, 250))
    def region_det() -> Detector:  # one each, as each configuration has its crop cache
        return load_detector(models, threads=2, imgsz=960, backend="onnxruntime")

    regions = {"video": TableRegion(region_det(), frames, [first] * len(frames)),
               "photos": TableRegion(region_det(), images, images)}
    configs["square video", 2] = (load_detector(models, threads=2, imgsz=960,
                                                backend="onnxruntime"),
                                  [squared(f) for f in frames])
    configs["rect video", 2] = (load_detector(models, threads=2, imgsz=960,
                                              backend="onnxruntime"), frames)
    configs["table region video", 2] = (regions["video"], frames)  # type: ignore[assignment]
    configs["table region photos", 2] = (regions["photos"], images)  # type: ignore[assignment]
    configs["still", 2] = (load_detector(models, threads=2, stills=True), images)
    configs["still, not askew", 2] = (load_detector(models, threads=2, stills=True, askew=()),
                                      images)
    ms = interleaved_ms(configs, args.repeat)
    still, plain = ms["still", 2][0], ms["still, not askew", 2][0]
    print(f"still_read_ms_median[backend=onnxruntime, threads=2, {len(images)} photos, as "
          f"`mjtable read` reads]: {still:.1f}; without reading unsure tiles turned "
          f"(askew=()): {plain:.1f}  ({still / plain:.2f}x)")
    base, base_find = ms["square", 2]
    print(f"detector_ms_median[backend=onnxruntime, input=960x960 square, threads=2]: "
          f"{base:.1f} ({base_find:.1f} the detection stage alone)  (before the rectangular "
          f"letterbox; {configs['square', 2][0].describe()})")
    whole = {key: v for key, v in ms.items() if key[0] in BACKENDS}
    for (backend, threads), (detect, find) in whole.items():
        print(f"detector_ms_median[backend={backend}, input=960x544, threads={threads}]: "
              f"{detect:.1f} ({find:.1f} the detection stage alone)")
    for (backend, threads), (detect, find) in whole.items():
        print(f"whole_table_speedup[backend={backend}, threads={threads}] vs square 960 "
              f"onnxruntime: {base / detect:.2f}x with the classifiers, "
              f"{base_find / find:.2f}x the detection stage  (goal >= 2x)")
    sq_video, sq_video_find = ms["square video", 2]
    rect_video, rect_video_find = ms["rect video", 2]
    print(f"detector_ms_median[backend=onnxruntime, input=960x960 square, threads=2, "
          f"{len(frames)} video frames]: {sq_video:.1f} ({sq_video_find:.1f} the detection "
          f"stage alone)")
    print(f"detector_ms_median[backend=onnxruntime, input=960x544, threads=2, "
          f"{len(frames)} video frames]: {rect_video:.1f} ({rect_video_find:.1f} the detection "
          f"stage alone)")
    for where, pictures, (sq, sq_find), (rect, rect_find) in (
            ("video", frames, (sq_video, sq_video_find), (rect_video, rect_video_find)),
            ("photos", images, (base, base_find), ms["onnxruntime", 2])):
        detect, find = ms[f"table region {where}", 2]
        print(f"detector_ms_median[backend=onnxruntime, TABLE REGION only, threads=2, "
              f"{len(pictures)} {'video frames' if where == 'video' else 'photos'}]: "
              f"{detect:.1f} ({find:.1f} the detection stage alone)  (region -> input: "
              f"{regions[where].inputs(pictures)})")
        print(f"table_region_speedup[backend=onnxruntime, threads=2, {where}] vs square 960 "
              f"onnxruntime on the same {where}: {sq / detect:.2f}x with the classifiers, "
              f"{sq_find / find:.2f}x the detection stage  (goal >= 2x; the whole frame "
              f"at 960x544 on them: {sq / rect:.2f}x, {sq_find / rect_find:.2f}x)")
    if not args.quick:
        for line in session_options(models, args.repeat):
            print(f"session_options_ms[detector inference, 960x544]: {line}")
    if not args.quick:
        reference(args.reference, backends, images, args.repeat, whole)
    if not args.quick:
        reader = load_detector(models, threads=2, stills=True)
        print(f"sample_read_accuracy: {sample_accuracy(reader)}")
        pips = pip_accuracy(args.dice)
        if pips is not None:
            print(f"pip_count_accuracy_dice_real: {pips[0] / pips[1]:.1%}  ({pips[0]}/{pips[1]} "
                  "dice, ground-truth boxes)")

    fps: dict[tuple[str, str], float] = {}
    runs = [("onnxruntime", "every frame")] + \
        [(b, "every frame") for b in backends if b != "onnxruntime"] + \
        [(b, "changed only") for b in backends] + [("onnxruntime", STREAM_SHOWDOWN)]
    mask_events: dict[str, tuple[list, list]] = {}
    for backend, mode in runs:
        det = load_detector(models, threads=2, backend=backend)
        rate, n, events, frames = video_run(det, -1.0 if mode == "every frame" else 1.5,
                                            showdown_stills=mode != STREAM_SHOWDOWN)
        fps[backend, mode] = rate
        if mode == "changed only":
            mask_events[backend] = (events, frames)
        print(f"video_fps[{mode}, backend={backend}]: {rate:.1f}  ({n} frames of {VIDEO.name}; "
              f"{kind_ms(frames, None)}; {len(events)} events)")
    today = fps["onnxruntime", "every frame"]
    print(f"showdown_stills_cost[changed only, backend=onnxruntime]: "
          f"{fps['onnxruntime', STREAM_SHOWDOWN] / fps['onnxruntime', 'changed only']:.2f}x "
          "the time with a hand laid down read as a still (against the stream alone)")
    for (backend, mode), rate in fps.items():
        if mode == "changed only":
            print(f"ratio_vs_every_frame_onnxruntime[changed only, backend={backend}]: "
                  f"{rate / today:.1f}x  (goal >= 2.5x; >= 10 fps: "
                  f"{'met' if rate >= 10 else 'NOT met'})")
    for backend in [] if args.quick else backends:
        det_full = load_detector(models, threads=2, backend=backend)
        det_mask = load_detector(models, threads=2, backend=backend)
        rate_full, ev_full, fr_full, _ = clip_run(det_full, -1.0)
        rate_mask, ev_mask, fr_mask, tracker = clip_run(det_mask, 1.5)
        same = [(e.frame, e.type, e.data) for e in ev_full] == \
            [(e.frame, e.type, e.data) for e in ev_mask]
        print(f"clip_fps[backend={backend}]: every frame {rate_full:.1f}, changed only "
              f"{rate_mask:.1f} ({rate_mask / rate_full:.1f}x); {kind_ms(fr_mask, tracker)}; "
              f"every frame: {kind_ms(fr_full, None)}; events {len(ev_mask)}, "
              f"{'the same' if same else 'NOT the same'} as every frame in full")
        if backend == AUTO:
            from vision.samples.clips import local_change_clip

            clip = local_change_clip()
            print(f"delay on the clip (changes at frames {sorted(clip.changes)}: "
                  f"{'; '.join(clip.changes.values())}), backend={backend}:")
            for line in delay_lines(ev_mask, fr_mask, sorted(clip.changes), clip.fps):
                print(f"  {line}")
            if not any(e.type == "discard" for e in ev_mask):
                print("  discard: no event (the shipped models' reading of table_0 is not a "
                      "legal table, so seat events are held back; the delay above is the "
                      "dice's, through the same stabilizer)")
    print(f"delay on the video, changed only, backend={AUTO} (what auto runs):")
    for line in script_delays(*mask_events[AUTO]):
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
