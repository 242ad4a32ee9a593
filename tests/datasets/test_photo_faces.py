"""Photo-faced scenes: faces come from the scene's own fold, seats keep their tiles' way up."""

from __future__ import annotations

import csv
import functools
import json
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import photo_faces
from datasets.faces import LABEL_FIXES, face_files, face_folds
from datasets.layout import seat_axes
from datasets.scene import make_scene
from datasets.synth import synthesize
from scoring.tiles import NUM_TILES
from tests.datasets.conftest import needs_art
from vision.training.prepare import group_folds, list_samples

ROOT = photo_faces.DATA_ROOT
SMALL = (960, 540)
needs_data = pytest.mark.skipif(not (ROOT / "tiles-real").is_dir()
                                or not (ROOT / "tile-faces").is_dir(),
                                reason=f"shared datasets not found at {ROOT}")


@functools.cache
def _folds() -> dict[str, dict[str, str]]:
    return {"tiles-real": group_folds(list_samples(ROOT / "tiles-real", "tiles"), 0.2, 0),
            "tile-faces": face_folds(ROOT / "tile-faces", 0.2, 0)}


def fold_of(source: str) -> str:
    """The fold of a photo source, worked out from the training code's rules, not the bank's."""
    dataset, name = source.split(":", 1)
    return _folds()[dataset][name]


@needs_art
@needs_data
@pytest.mark.parametrize("fold", ["train", "val"])
def test_a_scene_takes_faces_only_from_its_fold(fold: str) -> None:
    bank = photo_faces.face_bank(fold)
    assert sorted(bank) == list(range(NUM_TILES))
    assert {fold_of(f.source) for faces in bank.values() for f in faces} == {fold}
    scene = make_scene("table", 3, 1, SMALL, faces="real", fold=fold)
    assert scene.manifest["faces"] == "real" and scene.manifest["fold"] == fold
    photos = [o["photo"] for o in scene.manifest["objects"] if "photo" in o]
    faces_up = [o for o in scene.manifest["objects"] if o["tile"] not in ("back", "die")]
    assert len(photos) == len(faces_up) > 20
    assert {fold_of(p) for p in photos} == {fold}, "a photo of the other fold in the scene"
    # several photos of one kind in one scene, from both sets
    per_kind: dict[str, set[str]] = defaultdict(set)
    for o in faces_up:
        per_kind[o["tile"]].add(o["photo"])
    assert max(len(v) for v in per_kind.values()) >= 2
    assert {p.split(":")[0] for p in photos} == {"tiles-real", "tile-faces"}


@needs_art
@needs_data
def test_photo_scene_is_its_art_twin_with_other_faces() -> None:
    art = make_scene("table", 3, 2, SMALL)
    real = make_scene("table", 3, 2, SMALL, faces="real", fold="val")
    assert [o["xyxy"] for o in art.manifest["objects"]] == \
        [o["xyxy"] for o in real.manifest["objects"]]
    assert art.manifest["game"] == real.manifest["game"]
    assert not np.array_equal(art.image, real.image)
    assert art.manifest["faces"] == "art" and "photo" not in json.dumps(art.manifest["objects"])


@needs_art
@needs_data
def test_each_seat_sees_its_tiles_upright() -> None:
    scene = make_scene("table", 3, 1, SMALL, faces="real", fold="val")
    for body in scene.bodies:
        if body.seat is None or body.role not in ("hand", "discard", "flower", "meld"):
            continue
        right, toward = seat_axes(body.seat)
        if body.role == "hand" and abs(body.n[2]) < 0.5:  # standing: the face looks at its owner
            assert float(body.n @ toward) > 0.9
            continue
        up = float(body.v @ -toward)
        sideways = float(body.v @ -right)
        assert up > 0.99 or (body.role == "meld" and sideways > 0.99), body


@needs_art
@needs_data
def test_held_back_dataset_uses_held_back_faces(tmp_path: Path) -> None:
    summary = synthesize(tmp_path / "v", 2, seed=5, size=SMALL, val_fraction=1.0,
                         faces="real", progress=False)
    assert summary.scenes == 2
    assert not list((tmp_path / "v" / "images" / "train").iterdir())
    for path in (tmp_path / "v" / "manifests").glob("*.json"):
        manifest = json.loads(path.read_text())
        assert manifest["split"] == manifest["fold"] == "val"
        assert {fold_of(o["photo"]) for o in manifest["objects"] if "photo" in o} == {"val"}


def test_slivers_edges_and_turned_boxes_give_no_face() -> None:
    image = np.full((640, 640, 3), 235, np.uint8)
    kind = 0
    assert photo_faces.face_from_box(image, np.array([0.0, 100, 60, 180]), kind) is None
    assert photo_faces.face_from_box(image, np.array([100.0, 100, 120, 130]), kind) is None
    assert photo_faces.face_from_box(image, np.array([100.0, 100, 200, 170]), kind) is None
    image[:, :] = (40, 120, 60)  # table in the corners: a turned tile
    image[150:250, 120:180] = 235
    assert photo_faces.face_from_box(image, np.array([100.0, 130, 200, 270]), kind,
                                     strict=False) is None


def test_unknown_fold_or_source_is_named() -> None:
    with pytest.raises(ValueError, match="fold"):
        photo_faces.face_bank("test")
    with pytest.raises(ValueError, match="face source"):
        make_scene("table", 0, 0, SMALL, faces="photos")


@needs_data
def test_each_label_fix_names_a_face_and_changes_its_label() -> None:
    """A fix for a file that is gone, or that labels.csv already agrees with, is stale."""
    with (ROOT / "tile-faces" / "labels.csv").open(newline="") as fh:
        upstream = {row["file"]: row["tile"] for row in csv.DictReader(fh)}
    read = dict(face_files(ROOT / "tile-faces"))
    for file, tile in LABEL_FIXES.items():
        assert upstream[file] != tile
        assert read[file] == tile


def test_a_face_is_never_stored_mirrored() -> None:
    """A mirror image is no tile: even when the likeliest template is a mirror image (a
    character's handedness is what a coarse correlation misses), the face comes back as it
    was or turned half way, never mirrored."""
    rng = np.random.default_rng(3)
    face = np.full((photo_faces.FACE_PX[1], photo_faces.FACE_PX[0], 3), 230, np.uint8)
    face[8:30, 6:20] = 30  # ink heavy at the top left: far from its own mirror image
    face[40:70, 10:50] = rng.integers(0, 120, (30, 40, 1), dtype=np.uint8)
    gray = cv2.cvtColor(face, cv2.COLOR_RGB2GRAY)
    mirrored = photo_faces._signature(np.ascontiguousarray(gray[:, ::-1]))
    out, score, _ = photo_faces.upright(face, 0, {0: mirrored[None]})
    assert np.array_equal(out, face) or np.array_equal(out, face[::-1, ::-1])
    assert score < 0.99  # the mirrored template was not matched by mirroring


@needs_data
def test_each_mirrored_copy_is_a_labeled_tiles_real_photo() -> None:
    """A listed copy that is gone from tiles-real (or holds no boxes) is stale."""
    for name in photo_faces.MIRRORED_COPIES:
        assert (ROOT / "tiles-real" / "images" / name).is_file()
        assert (ROOT / "tiles-real" / "labels" / name).with_suffix(".txt").read_text().strip()
