"""Native-scale detector windows: boxes clipped to the window, a ready detector folder."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.native_crops import (
    boxes_in_window,
    window_origins,
    write_crops,
    write_photo_crops,
)
from datasets.yolo import read_groups, read_labels, read_names
from tests.datasets.conftest import needs_art
from ui.cli import main


def test_boxes_are_clipped_to_the_window_or_left_out() -> None:
    xyxy = np.array([[10.0, 10, 40, 50], [300, 100, 340, 140], [310, 0, 360, 40],
                     [400, 400, 430, 440]])
    boxes = boxes_in_window(xyxy, [0, 1, 2, 0], (0, 0), 320)
    assert [b.cls for b in boxes] == [0, 1]  # half of box 1 inside; box 2 a fifth; box 3 none
    whole, clipped = boxes
    assert whole.cx == pytest.approx(25 / 320) and whole.h == pytest.approx(40 / 320)
    assert clipped.w == pytest.approx(20 / 320) and clipped.cx == pytest.approx(310 / 320)


def test_windows_stay_inside_the_frame() -> None:
    rng = np.random.default_rng(0)
    xyxy = np.array([[0.0, 0, 20, 30], [1900, 1050, 1920, 1080]])
    for x0, y0 in window_origins(xyxy, (1920, 1080), 320, 50, rng):
        assert 0 <= x0 <= 1600 and 0 <= y0 <= 760
    assert len(window_origins(np.zeros((0, 4)), (1920, 1080), 320, 3, rng)) == 3


@needs_art
def test_crops_make_a_detector_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    other = tmp_path / "real"
    (other / "images" / "train").mkdir(parents=True)
    out = tmp_path / "crops"
    assert main(["dataset", "crops", "--out", str(out), "--scenes", "2", "--per-scene", "3",
                 "--faces", "art", "--val", "0.5", "--workers", "1", "--quiet",
                 "--also", str(other)]) == 0
    assert "6 windows from 2 scenes" in capsys.readouterr().out
    assert read_names(out) == ["tile_face", "tile_back", "die"]
    yaml = (out / "data.yaml").read_text()
    assert f"train: [images/train, {(other / 'images' / 'train').resolve()}]" in yaml
    groups = read_groups(out)
    assert len(groups) == 6 and {g[2] for g in groups} == {"train", "val"}
    for file, group, split in groups:
        assert file.startswith(split + "/") and Path(file).stem.startswith(group)
    seen = set()
    for split in ("train", "val"):
        for label in (out / "labels" / split).glob("*.txt"):
            for box in read_labels(label, 3):
                seen.add(box.cls)
                assert box.cx - box.w / 2 >= -1e-6 and box.cx + box.w / 2 <= 1 + 1e-6
                assert box.w * 320 < 80  # native scale: a table tile, never shrunk
    assert {0, 1} <= seen
    with pytest.raises(ValueError, match="already holds"):
        write_crops(out, 1, faces="art", progress=False)


@needs_art
def test_sequence_windows_are_steps_of_the_scripted_hands(tmp_path: Path) -> None:
    """``--sequence``: windows of the live loop's tidy, straight-down frames, each labeled with
    the step's own boxes (the rig of a scene is seeded by its index, not the bundled video's)."""
    from datasets.native_crops import CropJob, _sequence_frame

    out = tmp_path / "seq"
    summary = write_crops(out, 2, window=640, per_scene=2, faces="art", val_fraction=0.5,
                          progress=False, sequence=True)
    assert summary.images == 4 and summary.boxes > 0
    job = CropJob(out, 0, 640, 2, "art", None, True)
    image, xyxy, classes = _sequence_frame(job, 0, "train")
    assert image.shape == (1080, 1920, 3) and len(xyxy) == len(classes) > 50
    assert set(classes) <= {0, 1, 2} and 1 in classes  # walls and standing hands: backs
    assert (xyxy[:, 2] - xyxy[:, 0]).max() < 80  # native scale
    again, _, _ = _sequence_frame(job, 0, "train")
    assert np.array_equal(image, again)  # seeded: the same window every time


@needs_art
def test_die_faces_file_each_die_under_its_face(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from datasets.scene import make_scene
    from datasets.synth import scene_folds, scene_name

    out = tmp_path / "dice"
    assert main(["dataset", "die-faces", "--out", str(out), "--scenes", "2", "--per-die", "2",
                 "--faces", "art", "--val", "0.5", "--workers", "1", "--quiet"]) == 0
    assert "crops of" in capsys.readouterr().out
    crops = sorted(out.glob("*/die*/*.png"))
    fold = scene_folds(2, 0.5, 0)
    for index in (0, 1):
        split = fold[str(index)]
        scene = make_scene("table", 0, index, (1920, 1080), faces="art", fold=split)
        faces = [o["face"] for o in scene.manifest["objects"]
                 if o["tile"] == "die" and o.get("visible", 1.0) >= 0.8]
        name = scene_name("table", 0, index)
        got = sorted(c.parent.name for c in crops if c.name.startswith(name + "_"))
        assert faces and got == sorted(f"die{f}" for f in faces for _ in range(2))
        assert all(c.parent.parent.name == split for c in crops if c.name.startswith(name))


@needs_art
def test_tile_faces_file_each_face_up_tile_under_its_kind(tmp_path: Path) -> None:
    """Every face-up tile a camera sees whole (hand, melds, flowers, discards) is one crop in
    its kind's folder of its scene's fold; backs, dice and half-hidden tiles are none."""
    from datasets.scene import make_scene
    from datasets.synth import scene_folds, scene_name
    from vision.training.scene_faces import write_scene_faces

    out = tmp_path / "tiles"
    summary = write_scene_faces(out, 2, what="tiles", faces="art", val_fraction=0.5,
                                workers=1, progress=False)
    crops = sorted(out.glob("*/*/*.png"))
    assert summary.images == len(crops) == summary.boxes
    fold = scene_folds(2, 0.5, 0)
    for index in (0, 1):
        split = fold[str(index)]
        scene = make_scene("table", 0, index, (1920, 1080), faces="art", fold=split)
        kinds = sorted(o["tile"] for o in scene.manifest["objects"]
                       if o["tile"] not in ("back", "die") and o.get("visible", 1.0) >= 0.8)
        name = scene_name("table", 0, index)
        mine = [c for c in crops if c.name.startswith(name + "_")]
        assert len(kinds) > 20 and sorted(c.parent.name for c in mine) == kinds
        assert {c.parent.parent.name for c in mine} == {split}
    with pytest.raises(ValueError, match="unknown crop subject"):
        write_scene_faces(tmp_path / "x", 1, what="walls", progress=False)


@needs_art
def test_tile_faces_drawn_in_the_styles_asked_for(tmp_path: Path) -> None:
    """``styles`` picks the drawn sets a crop run shows (the font sets alone, say); a style
    not here stops the run before any scene is drawn."""
    from vision.training.scene_faces import write_scene_faces

    pictures = {}
    for style in ("uni", "gleitz"):
        out = tmp_path / style
        write_scene_faces(out, 1, faces="art", val_fraction=0.0, progress=False,
                          styles=[style])
        pictures[style] = {c.relative_to(out): c.read_bytes() for c in out.glob("*/*/*.png")}
    assert pictures["uni"].keys() == pictures["gleitz"].keys()  # one deal, one layout
    assert all(pictures["uni"][k] != pictures["gleitz"][k] for k in pictures["uni"])
    with pytest.raises(ValueError, match="art style 'nowhere' is not available"):
        write_scene_faces(tmp_path / "x", 1, faces="art", progress=False, styles=["nowhere"])
    assert not (tmp_path / "x").exists()


def _labeled_photo(folder: Path, split: str, name: str, box: tuple[int, int, int, int]) -> None:
    """A 640x480 grey photo with one die box painted white, labeled as a die."""
    image = np.full((480, 640, 3), 90, np.uint8)
    x0, y0, x1, y1 = box
    image[y0:y1, x0:x1] = 255
    (folder / "images" / split).mkdir(parents=True, exist_ok=True)
    (folder / "labels" / split).mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "images" / split / f"{name}.png"), image)
    (folder / "labels" / split / f"{name}.txt").write_text(
        f"2 {(x0 + x1) / 1280:.6f} {(y0 + y1) / 960:.6f} {(x1 - x0) / 640:.6f} "
        f"{(y1 - y0) / 480:.6f}\n")


def test_photo_crops_keep_the_photo_scale_and_fold(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "photos", tmp_path / "windows"
    _labeled_photo(source, "train", "far", (500, 400, 512, 412))  # a 12-px die
    _labeled_photo(source, "val", "held", (40, 40, 100, 100))
    assert main(["dataset", "photo-crops", str(source), "--out", str(out), "--per-photo", "3",
                 "--workers", "1", "--quiet"]) == 0
    assert "6 windows from 2 photos" in capsys.readouterr().out
    assert len(list((out / "images" / "train").glob("far_w*.jpg"))) == 3
    assert all(p.name.startswith("held_w") for p in (out / "images" / "val").glob("*"))
    assert len(list((out / "images" / "val").glob("held_w*.jpg"))) == 3
    for window in (out / "images" / "train").glob("far_w*.jpg"):
        crop = cv2.imread(str(window))
        assert crop.shape == (320, 320, 3)  # cut, never shrunk
        (box,) = read_labels(out / "labels" / "train" / f"{window.stem}.txt")
        assert box.cls == 2 and box.w * 320 == pytest.approx(12, abs=0.01)
        cx, cy = round(box.cx * 320), round(box.cy * 320)
        assert crop[cy, cx].mean() > 240  # the label lies on the die's pixels
    assert {(group, split) for _, group, split in read_groups(out)} == {("far", "train"),
                                                                        ("held", "val")}
    assert read_names(out) == ["tile_face", "tile_back", "die"]


def test_photo_crops_name_an_unreadable_photo(tmp_path: Path) -> None:
    source = tmp_path / "photos"
    (source / "images" / "train").mkdir(parents=True)
    (source / "images" / "train" / "bad.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ValueError, match=r"bad\.jpg: not an image"):
        write_photo_crops(source, tmp_path / "out", progress=False)
    with pytest.raises(ValueError, match="no images"):
        write_photo_crops(tmp_path / "empty", tmp_path / "out2", progress=False)
