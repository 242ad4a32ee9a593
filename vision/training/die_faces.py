"""Die-face classifier crops cut from whole-table scenes at the camera's native scale.

An overhead camera sees a die 16-28 px across in a 1920x1080 frame, smaller than the dice of
the close-up photos the die-face classifier learned. These crops are cut from the generator's
table scenes with the runtime's own crop (:func:`vision.training.crops.crop_box`), filed under
each die's face, so training sees table dice as the runtime will.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.native_crops import FRAME, CropSummary
from datasets.progress import Progress
from datasets.scene import FACE_SOURCES, make_scene
from datasets.synth import build_face_banks, run_tasks, scene_folds, scene_name
from datasets.yolo import prepare_out
from vision.training.crops import crop_box, jitter_box


@dataclass(frozen=True)
class DieJob:
    out: Path
    seed: int
    per_die: int
    faces: str


def _die_faces_of(args: tuple[DieJob, int, str]) -> tuple[int, int, list[str]]:
    """One scene's dice as classifier crops: ``per_die`` jittered crops of each die, filed
    under its face (``die1``..``die6``), cut as the runtime cuts them."""
    job, index, split = args
    scene = make_scene("table", job.seed, index, FRAME, faces=job.faces, fold=split)
    rng = np.random.default_rng([job.seed, index, 37])
    name = scene_name("table", job.seed, index)
    written = []
    dice = [o for o in scene.manifest["objects"]
            if o["tile"] == "die" and o.get("face") and o.get("visible", 1.0) >= 0.8]
    for d, obj in enumerate(dice):
        for k in range(job.per_die):
            box = jitter_box(np.array(obj["xyxy"], float), rng)
            crop = crop_box(scene.image, box)
            stem = f"{name}_d{d}_{k}"
            cv2.imwrite(str(job.out / split / f"die{int(obj['face'])}" / f"{stem}.png"), crop)
            written.append(stem)
    return index, len(dice), written


def write_die_faces(out: Path | str, scenes: int, seed: int = 0, per_die: int = 4,
                    faces: str = "mix", val_fraction: float = 0.2, workers: int = 1,
                    overwrite: bool = False, progress: bool = True) -> CropSummary:
    """Die-face classifier crops (``train/die1``..``val/die6``) of the dice lying on 1920x1080
    table scenes, 16-28 px across as an overhead camera sees them: ``per_die`` jittered crops
    of each die, the scenes split into folds as ``write_crops`` splits them."""
    if scenes < 1 or per_die < 1:
        raise ValueError(f"scenes and crops per die must be at least 1, got {scenes}, {per_die}")
    if faces not in FACE_SOURCES:
        raise ValueError(f"unknown face source {faces!r}; choose one of {', '.join(FACE_SOURCES)}")
    out = Path(out)
    prepare_out(out, overwrite)
    for split in ("train", "val"):
        for face in range(1, 7):
            (out / split / f"die{face}").mkdir(parents=True, exist_ok=True)
    fold = scene_folds(scenes, val_fraction, seed)
    build_face_banks(fold, faces)
    job = DieJob(out, seed, per_die, faces)
    bar = Progress(scenes, "die faces", enabled=progress)
    dice = crops = 0
    for _, n, names in run_tasks(_die_faces_of, [(job, i, fold[str(i)]) for i in range(scenes)],
                                 workers):
        dice += n
        crops += len(names)
        bar.update()
    rate = bar.close()
    return CropSummary(out, scenes, crops, dice, scenes / max(rate, 1e-9))
