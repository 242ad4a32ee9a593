"""Detector training images at the camera's native scale: windows cut from whole-table scenes.

In a 1920x1080 overhead frame a tile is 26-40 px wide, about as large as tiles are in the
320-px close-up photos the detector trains on. Windows cut from the full-resolution frame,
never shrunk, teach the detector table tiles (faces, backs, dice) at the size it trains on, and
let it run on the frame without shrinking it. The output is a detector folder like
``vision.training.prepare``'s ``detector/``: classes ``tile_face, tile_back, die``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import COARSE, COARSE_BACK, COARSE_DIE, COARSE_FACE
from datasets.progress import Progress
from datasets.scene import FACE_SOURCES, make_scene
from datasets.synth import build_face_banks, label_lines, run_tasks, scene_folds, scene_name
from datasets.yolo import (
    IMAGE_SUFFIXES,
    SPLITS,
    Box,
    make_folds,
    prepare_out,
    read_labels,
    write_data_yaml,
    write_groups,
    write_labels,
)

WINDOW = 320
FRAME = (1920, 1080)
MIN_INSIDE = 0.5  # share of a box inside a window for it to be labeled there


@dataclass(frozen=True)
class CropJob:
    out: Path
    seed: int
    window: int
    per_scene: int
    faces: str
    styles: tuple[str, ...] | None
    sequence: bool = False  # frames of a played-out hand, as the bundled video shows them


@dataclass(frozen=True)
class CropSummary:
    out: Path
    scenes: int
    images: int
    boxes: int
    seconds: float
    source: str = "scenes"  # what the windows were cut from

    def __str__(self) -> str:
        return (f"{self.out}: {self.images} windows from {self.scenes} {self.source}, "
                f"{self.boxes} boxes in {self.seconds:.1f}s "
                f"({self.scenes / max(self.seconds, 1e-9):.2f} {self.source}/s)")


def window_origins(xyxy: np.ndarray, frame: tuple[int, int], window: int, count: int,
                   rng: np.random.Generator) -> list[tuple[int, int]]:
    """Top-left corners of ``count`` windows, each around a random object (jittered by a third
    of the window), inside the frame; anywhere when there are no objects."""
    w, h = frame
    out = []
    for _ in range(count):
        if len(xyxy):
            box = xyxy[int(rng.integers(len(xyxy)))]
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            cx += rng.uniform(-window / 3, window / 3)
            cy += rng.uniform(-window / 3, window / 3)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        x0 = int(np.clip(round(cx - window / 2), 0, w - window))
        y0 = int(np.clip(round(cy - window / 2), 0, h - window))
        out.append((x0, y0))
    return out


def boxes_in_window(xyxy: np.ndarray, classes: list[int], origin: tuple[int, int],
                    window: int) -> list[Box]:
    """The boxes (pixels) that lie at least :data:`MIN_INSIDE` inside one window, clipped to it
    and normalized to it."""
    x0, y0 = origin
    out = []
    for (a, b, c, d), cls in zip(xyxy, classes, strict=True):
        ca, cb = max(a, x0), max(b, y0)
        cc, cd = min(c, x0 + window), min(d, y0 + window)
        if cc <= ca or cd <= cb:
            continue
        if (cc - ca) * (cd - cb) < MIN_INSIDE * (c - a) * (d - b):
            continue
        out.append(Box(cls, ((ca + cc) / 2 - x0) / window, ((cb + cd) / 2 - y0) / window,
                       (cc - ca) / window, (cd - cb) / window))
    return out


def pixel_boxes(boxes: list[Box], frame: tuple[int, int]) -> np.ndarray:
    """(N, 4) corners in pixels of normalized boxes in a ``frame`` (width, height)."""
    w, h = frame
    return np.array([[(b.cx - b.w / 2) * w, (b.cy - b.h / 2) * h, (b.cx + b.w / 2) * w,
                      (b.cy + b.h / 2) * h] for b in boxes]).reshape(-1, 4)


def _sequence_frame(job: CropJob, index: int, split: str
                    ) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """One step of :func:`datasets.sequence.two_hands` on a table, camera, light and faces of
    its own (seeded by ``index``; photo faces from ``split``'s fold), with a video's sensor
    noise: the tidy, straight-down frames the live loop reads, which random table scenes
    (tilted cameras, messy walls) do not show."""
    from datasets.sequence import NOISE, make_rig, render_step, two_hands

    rng = np.random.default_rng([job.seed, index, 37])
    faces = job.faces if job.faces != "mix" else ("real" if index % 2 == 0 else "art")
    rig = make_rig(job.seed * 100_003 + index, FRAME, faces=faces, fold=split)
    steps, _ = two_hands()
    k = int(rng.integers(len(steps)))
    image, manifest = render_step(rig, steps[k], k)
    noise = rng.normal(0, NOISE, image.shape[:2]).astype(np.float32)
    image = cv2.add(image, cv2.merge([noise] * 3), dtype=cv2.CV_8U)
    coarse = {"die": COARSE_DIE, "back": COARSE_BACK}
    objects = manifest["objects"]
    xyxy = np.array([o["xyxy"] for o in objects], np.float64).reshape(-1, 4)
    classes = [coarse.get(o["tile"], COARSE_FACE) for o in objects]
    return image, xyxy, classes


def _one_scene(args: tuple[CropJob, int, str]) -> tuple[int, int, list[str]]:
    job, index, split = args
    if job.sequence:
        image, xyxy, classes = _sequence_frame(job, index, split)
    else:
        scene = make_scene("table", job.seed, index, FRAME, faces=job.faces, fold=split,
                           styles=list(job.styles) if job.styles else None)
        boxes, _ = label_lines(scene.labels, FRAME, "coarse")
        xyxy = pixel_boxes(boxes, FRAME)
        classes = [b.cls for b in boxes]
        image = scene.image
    rng = np.random.default_rng([job.seed, index, 31])
    name = scene_name("table", job.seed, index)
    names, total = [], 0
    for k, (x0, y0) in enumerate(window_origins(xyxy, FRAME, job.window, job.per_scene, rng)):
        stem = f"{name}_w{k}"
        crop = image[y0:y0 + job.window, x0:x0 + job.window]
        ok, enc = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise OSError("JPEG encoding failed")
        (job.out / "images" / split / f"{stem}.jpg").write_bytes(enc.tobytes())
        inside = boxes_in_window(xyxy, classes, (x0, y0), job.window)
        write_labels(job.out / "labels" / split / f"{stem}.txt", inside)
        names.append(stem)
        total += len(inside)
    return index, total, names


def write_crops(out: Path | str, scenes: int, seed: int = 0, window: int = WINDOW,
                per_scene: int = 6, faces: str = "mix", val_fraction: float = 0.2,
                workers: int = 1, styles: list[str] | None = None, also: tuple[Path, ...] = (),
                overwrite: bool = False, progress: bool = True,
                sequence: bool = False) -> CropSummary:
    """Render ``scenes`` 1920x1080 table scenes and write ``per_scene`` native-scale windows
    of each, with coarse labels, into a detector folder at ``out``.

    Windows of one scene share its fold; with photo faces a scene's fold is also the fold its
    faces come from. ``sequence``: each scene is a step of the scripted two hands on a table
    and camera of its own (:func:`_sequence_frame`). ``also`` names other detector folders
    (prepare's ``detector/``) that ``data.yaml`` lists beside these images, so one file trains
    on both.
    """
    if scenes < 1 or per_scene < 1:
        raise ValueError(f"scenes and windows per scene must be at least 1, got {scenes}, "
                         f"{per_scene}")
    if not 64 <= window <= min(FRAME):
        raise ValueError(f"window must be 64..{min(FRAME)} px, got {window}")
    if faces not in FACE_SOURCES:
        raise ValueError(f"unknown face source {faces!r}; choose one of {', '.join(FACE_SOURCES)}")
    for extra in also:
        if not (Path(extra) / "images" / "train").is_dir():
            raise ValueError(f"{extra}: no images/train (expected a detector folder)")
    out = Path(out)
    prepare_out(out, overwrite)
    make_folds(out)
    fold = scene_folds(scenes, val_fraction, seed)
    build_face_banks(fold, faces)
    job = CropJob(out, seed, window, per_scene, faces, tuple(styles) if styles else None,
                  sequence)
    bar = Progress(scenes, "crops", enabled=progress)
    boxes, rows = 0, []
    for index, n, names in run_tasks(_one_scene, [(job, i, fold[str(i)]) for i in
                                                  range(scenes)], workers):
        boxes += n
        rows += [(f"{fold[str(index)]}/{stem}.jpg", scene_name("table", seed, index),
                  fold[str(index)]) for stem in names]
        bar.update()
    rate = bar.close()
    write_data_yaml(out, COARSE, also)
    write_groups(out, sorted(rows))
    return CropSummary(out, scenes, len(rows), boxes, scenes / max(rate, 1e-9))


def _photo_windows(args: tuple[Path, Path, str, int, int, int]) -> tuple[str, list[str], int]:
    """The windows of one labeled photo (see :func:`write_photo_crops`)."""
    image_path, out, split, window, per_photo, seed = args
    image = cv2.imread(str(image_path))
    if image is None:
        raise ValueError(f"{image_path}: not an image OpenCV can read")
    h, w = image.shape[:2]
    side = min(window, w, h)
    label = image_path.parent.parent.parent / "labels" / split / f"{image_path.stem}.txt"
    boxes = read_labels(label)
    xyxy = pixel_boxes(boxes, (w, h))
    rng = np.random.default_rng([seed, *image_path.stem.encode()])
    names, total = [], 0
    for k, (x0, y0) in enumerate(window_origins(xyxy, (w, h), side, per_photo, rng)):
        stem = f"{image_path.stem}_w{k}"
        ok, enc = cv2.imencode(".jpg", image[y0:y0 + side, x0:x0 + side],
                               [cv2.IMWRITE_JPEG_QUALITY, 95])
        if not ok:
            raise OSError("JPEG encoding failed")
        (out / "images" / split / f"{stem}.jpg").write_bytes(enc.tobytes())
        inside = boxes_in_window(xyxy, [b.cls for b in boxes], (x0, y0), side)
        write_labels(out / "labels" / split / f"{stem}.txt", inside)
        names.append(stem)
        total += len(inside)
    return split, names, total


def write_photo_crops(source: Path | str, out: Path | str, seed: int = 0, window: int = WINDOW,
                      per_photo: int = 2, workers: int = 1, overwrite: bool = False,
                      progress: bool = True) -> CropSummary:
    """Windows cut at native scale from the labeled photos of a detector folder (prepare's
    ``detector/``), each around a random labeled object, each in its photo's fold.

    A 640-px dice photo shrunk to the detector's 320 leaves far dice under 8 px; a 320 window
    of the photo itself keeps them at their own size, at the cost of a 320 image.
    """
    source, out = Path(source), Path(out)
    photos = [(p, split) for split in SPLITS
              for p in sorted((source / "images" / split).glob("*"))
              if p.suffix.lower() in IMAGE_SUFFIXES]
    if not photos:
        raise ValueError(f"{source}: no images under images/train or images/val")
    if per_photo < 1:
        raise ValueError(f"windows per photo must be at least 1, got {per_photo}")
    if not 64 <= window <= 4096:
        raise ValueError(f"window must be 64..4096 px, got {window}")
    prepare_out(out, overwrite)
    make_folds(out)
    bar = Progress(len(photos), "windows", enabled=progress)
    boxes, rows = 0, []
    for split, names, n in run_tasks(_photo_windows, [(p, out, split, window, per_photo, seed)
                                                      for p, split in photos], workers):
        boxes += n
        rows += [(f"{split}/{stem}.jpg", stem.rsplit("_w", 1)[0], split) for stem in names]
        bar.update()
    rate = bar.close()
    write_data_yaml(out, COARSE)
    write_groups(out, sorted(rows))
    return CropSummary(out, len(photos), len(rows), boxes, len(photos) / max(rate, 1e-9),
                       "photos")
