"""Write a synthetic dataset: scenes rendered in parallel into the project's YOLO layout.

Each scene is a pure function of ``(seed, index, kind, size)``, so a dataset is reproducible and
the worker count changes only the speed. Beside each label file a manifest
(``manifests/NAME.json``) holds the ground truth: every seat's tiles, the dice, and for each
labeled object its class, seat, role and line in the label file.
"""

from __future__ import annotations

import json
import multiprocessing as mp
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from datasets import art, photo_faces
from datasets.classes import TILE_BACK, class_names, map_class
from datasets.progress import Progress
from datasets.scene import DEFAULT_SIZES, FACE_SOURCES, KINDS, make_scene
from datasets.split import split_groups
from datasets.yolo import (
    Box,
    make_folds,
    prepare_out,
    write_data_yaml,
    write_groups,
    write_labels,
)
from scoring.tiles import DIE_CLASS

T = TypeVar("T")
R = TypeVar("R")
MIX = {"table": 0.45, "hand": 0.45, "dice": 0.10}  # --kind mix


@dataclass(frozen=True)
class SynthJob:
    out: Path
    seed: int
    kind: str  # a scene kind or "mix"
    size: tuple[int, int] | None
    class_set: str
    flat: bool
    styles: tuple[str, ...] | None
    faces: str = "art"  # art | real | mix: a scene's photos come from its own split's fold
    showdowns: float | None = None  # chance of a showdown table; None: the game's own
    ruleset: str | None = None  # a showdown winner's hand is a win under these rules
    turn: float | None = None  # degrees a table's camera may turn either way; None: square


@dataclass(frozen=True)
class SynthSummary:
    out: Path
    scenes: int
    boxes: int
    seconds: float

    def __str__(self) -> str:
        rate = self.scenes / max(self.seconds, 1e-9)
        return (f"{self.out}: {self.scenes} scenes, {self.boxes} boxes in {self.seconds:.1f}s "
                f"({rate:.2f} scenes/s)")


def scene_folds(scenes: int, val_fraction: float, seed: int) -> dict[str, str]:
    """``{str(index): fold}``: a seeded share of the scenes held back; 1.0 holds back all."""
    if val_fraction == 1.0:
        return {str(i): "val" for i in range(scenes)}
    return split_groups({str(i): str(i) for i in range(scenes)}, val_fraction, seed)


def build_face_banks(fold: dict[str, str], faces: str) -> None:
    """The photo faces of every fold the scenes use, built (and cached on disk) before the
    worker processes start, each of which would otherwise build its own."""
    if faces != "art":
        for split in sorted(set(fold.values())):
            photo_faces.face_bank(split)


def kind_of(kind: str, seed: int, index: int) -> str:
    """The scene kind of one index (``mix`` draws it from the seed)."""
    if kind != "mix":
        return kind
    u = np.random.default_rng([seed, index, 99]).random()
    acc = 0.0
    for k, p in MIX.items():
        acc += p
        if u < acc:
            return k
    return "table"


def scene_name(kind: str, seed: int, index: int) -> str:
    return f"{kind}_s{seed}_{index:06d}"


def label_lines(scene_labels: list[Any], size: tuple[int, int], class_set: str
                ) -> tuple[list[Box], list[int | None]]:
    """YOLO boxes of a scene in a class set, and each object's line (None when not labeled)."""
    w, h = size
    boxes: list[Box] = []
    lines: list[int | None] = []
    for lab in scene_labels:
        cls = map_class(class_set, lab.cls, lab.face)
        if cls is None:
            lines.append(None)
            continue
        x0, y0, x1, y1 = lab.xyxy
        lines.append(len(boxes))
        boxes.append(Box(cls, (x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h))
    return boxes, lines


def _render_one(job: SynthJob, index: int, split: str) -> tuple[int, int]:
    kind = kind_of(job.kind, job.seed, index)
    size = job.size or DEFAULT_SIZES[kind]
    scene = make_scene(kind, job.seed, index, size, flat=job.flat,
                       styles=list(job.styles) if job.styles else None, faces=job.faces,
                       fold=split, showdowns=job.showdowns, ruleset=job.ruleset,
                       turn=job.turn)
    name = scene_name(kind, job.seed, index)
    suffix = ".png" if job.flat else ".jpg"
    img_path = job.out / "images" / split / (name + suffix)
    img_path.write_bytes(scene.encoded)
    boxes, lines = label_lines(scene.labels, size, job.class_set)
    write_labels(job.out / "labels" / split / (name + ".txt"), boxes)
    manifest = scene.manifest
    manifest["name"] = name
    manifest["split"] = split
    manifest["classes"] = job.class_set
    for obj, line, lab in zip(manifest["objects"], lines, scene.labels, strict=True):
        obj["label"] = line
        obj["class"] = None if line is None else boxes[line].cls
        if lab.cls == TILE_BACK:
            obj["tile"] = "back"
    (job.out / "manifests" / (name + ".json")).write_text(json.dumps(manifest))
    return index, len(boxes)


def _worker(args: tuple[SynthJob, int, str]) -> tuple[int, int]:
    return _render_one(*args)


def _init_worker() -> None:
    import cv2

    cv2.setNumThreads(1)  # the pool is the parallelism; OpenCV threads would only contend


def run_tasks(worker: Callable[[T], R], tasks: list[T], workers: int) -> Iterator[R]:
    """``worker`` over ``tasks`` in this process or a pool of ``workers``, results unordered."""
    workers = max(1, min(workers, len(tasks)))
    if workers == 1:
        yield from map(worker, tasks)
        return
    # spawn, not fork: a forked child can deadlock on the parent's OpenCV thread pool
    ctx = mp.get_context("spawn")
    with ctx.Pool(workers, initializer=_init_worker) as pool:
        yield from pool.imap_unordered(worker, tasks, chunksize=2)


def synthesize(out: Path | str, scenes: int, seed: int = 0, kind: str = "table",
               size: tuple[int, int] | None = None, class_set: str = "tiles43",
               workers: int = 1, val_fraction: float = 0.2, overwrite: bool = False,
               flat: bool = False, styles: list[str] | None = None,
               progress: bool = True, faces: str = "art",
               showdowns: float | None = None, ruleset: str | None = None,
               turn: float | None = None) -> SynthSummary:
    """Render ``scenes`` scenes into ``out`` (see the module docstring).

    ``faces="real"`` dresses every scene with photo faces from the fold of its own split
    (scenes in ``val`` only held-back photos), ``"mix"`` half of them; ``val_fraction=1``
    makes every scene a validation scene. ``showdowns`` sets the chance that a table scene is
    at a showdown (default: the game's own, about 12%); ``ruleset`` makes each showdown
    winner's hand a win under those rules (default: any complete hand); ``turn`` turns each
    table's camera about it by up to that many degrees either way (default: nearly square).
    """
    if kind not in (*KINDS, "mix"):
        raise ValueError(f"unknown scene kind {kind!r}; choose one of {', '.join(KINDS)}, mix")
    if scenes < 1:
        raise ValueError(f"scenes must be at least 1, got {scenes}")
    if size is not None and (size[0] < 64 or size[1] < 64):
        raise ValueError(f"image size {size[0]}x{size[1]} is too small (64x64 at least)")
    names = class_names(class_set)
    if faces not in FACE_SOURCES:
        raise ValueError(f"unknown face source {faces!r}; choose one of {', '.join(FACE_SOURCES)}")
    if showdowns is not None and not 0.0 <= showdowns <= 1.0:
        raise ValueError(f"showdowns must be a chance in [0, 1], got {showdowns}")
    if turn is not None and not 0.0 <= turn <= 45.0:
        raise ValueError(f"turn must be 0..45 degrees, got {turn}")
    if ruleset is not None:
        from scoring.rulesets.registry import get_ruleset

        get_ruleset(ruleset)  # an unknown name is one line before any scene is drawn
    if styles:
        for style in styles:  # loads (and caches) the art before workers fork
            art.check_style(style)
    elif not flat:
        art.available_styles()
    out = Path(out)
    prepare_out(out, overwrite)
    if (out / "manifests").is_dir():
        for p in (out / "manifests").glob("*.json"):
            p.unlink()
    make_folds(out)
    (out / "manifests").mkdir(exist_ok=True)
    kinds = {i: kind_of(kind, seed, i) for i in range(scenes)}
    fold = scene_folds(scenes, val_fraction, seed)
    if not flat:
        build_face_banks(fold, faces)
    job = SynthJob(out, seed, kind, size, class_set, flat, tuple(styles) if styles else None,
                   faces, showdowns, ruleset, turn)
    tasks = [(job, i, fold[str(i)]) for i in range(scenes)]
    bar = Progress(scenes, f"synth {kind}", enabled=progress)
    boxes = 0
    for _, n in run_tasks(_worker, tasks, workers):
        boxes += n
        bar.update()
    rate = bar.close()
    write_data_yaml(out, names)
    suffix = ".png" if flat else ".jpg"
    write_groups(out, [(f"{fold[str(i)]}/{scene_name(kinds[i], seed, i)}{suffix}",
                        scene_name(kinds[i], seed, i), fold[str(i)]) for i in range(scenes)])
    return SynthSummary(out, scenes, boxes, scenes / max(rate, 1e-9))


def class_histogram(out: Path | str) -> tuple[list[str], Counter[int], int]:
    """Box counts per class of a dataset folder (any of ours: synthetic or imported)."""
    from datasets.yolo import iter_label_files, read_labels, read_names

    out = Path(out)
    names = read_names(out)
    counts: Counter[int] = Counter()
    files = iter_label_files(out)
    if not files:
        raise ValueError(f"{out}: no label files under labels/train or labels/val")
    for _, path in files:
        counts.update(b.cls for b in read_labels(path, len(names)))
    return names, counts, len(files)


def balance(names: list[str], counts: Counter[int]) -> tuple[float, float, float, list[int]]:
    """Mean count of the balanced classes and the lowest and highest relative deviation.

    For the 43-class layout the balanced classes are the 42 tile kinds (dice are not meant to
    be as frequent as any one tile); otherwise every class.
    """
    from scoring.tiles import TILE_NAMES

    group = ([i for i, n in enumerate(names) if n in TILE_NAMES]
             if "die" in names and len(names) == 43 else list(range(len(names))))
    values = [counts.get(i, 0) for i in group]
    mean = sum(values) / len(values) if values else 0.0
    if not mean:
        return 0.0, 0.0, 0.0, group
    return mean, min(values) / mean - 1, max(values) / mean - 1, group


__all__ = ["DIE_CLASS", "SynthSummary", "balance", "class_histogram", "synthesize"]
