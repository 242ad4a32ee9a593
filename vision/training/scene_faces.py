"""Classifier crops cut from whole-table scenes at the camera's native scale: tiles and dice.

An overhead camera sees a tile 26-40 px wide and a die 16-28 px across in a 1920x1080 frame,
turned toward its seat, lit by the room, beside its neighbours, smaller than anything in the
close-up photos. These crops are cut from the generator's table scenes with the runtime's own
crop (:func:`vision.training.crops.crop_box`) and filed under each object's class, so the
classifiers train on table tiles and dice as the runtime will see them. A scene's faces come
from its own fold (training scenes only from training photos), as ``synth`` chooses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.art import check_style
from datasets.native_crops import FRAME, CropSummary
from datasets.progress import Progress
from datasets.scene import FACE_SOURCES, make_scene
from datasets.synth import build_face_banks, run_tasks, scene_folds, scene_name
from datasets.yolo import prepare_out
from vision.training.crops import crop_box, jitter_box
from vision.training.prepare import CLASSIFIER_NAMES, DIE_NAMES

WHAT = ("tiles", "dice")
MIN_VISIBLE = 0.8  # a tile or die mostly hidden by another is no example of its face


@dataclass(frozen=True)
class FaceJob:
    out: Path
    seed: int
    per_object: int
    faces: str
    what: str
    styles: tuple[str, ...] | None = None


def _class_of(obj: dict[str, Any], what: str) -> str | None:
    """The classifier class an object of a scene's manifest is filed under, or None."""
    if obj.get("visible", 1.0) < MIN_VISIBLE:
        return None
    if what == "dice":
        return f"die{int(obj['face'])}" if obj["tile"] == "die" and obj.get("face") else None
    return obj["tile"] if obj["tile"] in CLASSIFIER_NAMES else None


def _faces_of(args: tuple[FaceJob, int, str]) -> tuple[int, int, list[str]]:
    """One scene's face-up tiles or dice as ``per_object`` jittered crops each, filed under
    their class, cut as the runtime cuts them."""
    job, index, split = args
    scene = make_scene("table", job.seed, index, FRAME, faces=job.faces, fold=split,
                       styles=list(job.styles) if job.styles else None)
    rng = np.random.default_rng([job.seed, index, 37])
    name = scene_name("table", job.seed, index)
    written = []
    found = [(c, o) for o in scene.manifest["objects"]
             if (c := _class_of(o, job.what)) is not None]
    tag = "d" if job.what == "dice" else "t"
    for n, (cls, obj) in enumerate(found):
        for k in range(job.per_object):
            box = jitter_box(np.array(obj["xyxy"], float), rng)
            crop = crop_box(scene.image, box)
            stem = f"{name}_{tag}{n}_{k}"
            cv2.imwrite(str(job.out / split / cls / f"{stem}.png"), crop)
            written.append(stem)
    return index, len(found), written


def write_scene_faces(out: Path | str, scenes: int, what: str = "tiles", seed: int = 0,
                      per_object: int = 1, faces: str = "mix", val_fraction: float = 0.2,
                      workers: int = 1, overwrite: bool = False, progress: bool = True,
                      styles: list[str] | None = None) -> CropSummary:
    """Classifier crops (``train|val/<class>/``) of the face-up tiles (``what="tiles"``: every
    tile kind and flower, the classifier's folders) or the dice (``"dice"``: ``die1``..``die6``)
    lying on 1920x1080 table scenes: ``per_object`` jittered crops of each, the scenes split
    into folds as ``write_crops`` splits them; drawn faces from ``styles`` only, if given."""
    if scenes < 1 or per_object < 1:
        raise ValueError(f"scenes and crops per object must be at least 1, got {scenes}, "
                         f"{per_object}")
    if what not in WHAT:
        raise ValueError(f"unknown crop subject {what!r}; choose one of {', '.join(WHAT)}")
    if faces not in FACE_SOURCES:
        raise ValueError(f"unknown face source {faces!r}; choose one of {', '.join(FACE_SOURCES)}")
    for style in styles or ():
        check_style(style)  # a style not here stops the run before anything is written
    out = Path(out)
    prepare_out(out, overwrite)
    classes = DIE_NAMES if what == "dice" else CLASSIFIER_NAMES
    for split in ("train", "val"):
        for cls in classes:
            (out / split / cls).mkdir(parents=True, exist_ok=True)
    fold = scene_folds(scenes, val_fraction, seed)
    build_face_banks(fold, faces)
    job = FaceJob(out, seed, per_object, faces, what, tuple(styles) if styles else None)
    bar = Progress(scenes, f"{what} crops", enabled=progress)
    objects = crops = 0
    for _, n, names in run_tasks(_faces_of, [(job, i, fold[str(i)]) for i in range(scenes)],
                                 workers):
        objects += n
        crops += len(names)
        bar.update()
    rate = bar.close()
    return CropSummary(out, scenes, crops, objects, scenes / max(rate, 1e-9))
