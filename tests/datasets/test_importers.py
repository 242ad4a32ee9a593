"""Importers: layout, grouped split, dice remapping, on a tiny fake set and a few real files."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import numpy as np
import pytest

from datasets.importers import import_dice_real, import_tiles_real
from datasets.split import split_groups
from datasets.yolo import read_groups, read_labels, read_names

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"


def _fake_set(root: Path, groups: int, copies: int, cls_of=lambda g, c: g % 42,
              with_groups_csv: bool = True) -> Path:
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    rows = []
    for g in range(groups):
        for c in range(copies):
            name = f"src{g:02d}_jpg.rf.{c}"
            (root / "images" / f"{name}.jpg").write_bytes(b"\xff\xd8fake" + bytes([g, c]))
            (root / "labels" / f"{name}.txt").write_text(
                f"{cls_of(g, c)} 0.5 0.5 0.1 0.2\n{cls_of(g, c)} 0.25 0.75 0.1 0.1\n")
            rows.append((f"{name}.jpg", f"src{g:02d}_jpg"))
    if with_groups_csv:
        with (root / "groups.csv").open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["file", "source_root"])
            w.writerows(rows)
    return root


def test_tiles_import_keeps_groups_whole_and_is_deterministic(tmp_path: Path) -> None:
    src = _fake_set(tmp_path / "src", groups=20, copies=3)
    s1 = import_tiles_real(src, tmp_path / "a", val_fraction=0.2, seed=3)
    s2 = import_tiles_real(src, tmp_path / "b", val_fraction=0.2, seed=3)
    rows = read_groups(tmp_path / "a")
    assert rows == read_groups(tmp_path / "b")
    assert len(rows) == 60
    fold_of_group: dict[str, set[str]] = {}
    for file, group, split in rows:
        fold_of_group.setdefault(group, set()).add(split)
        assert file.startswith(split + "/")
    assert all(len(v) == 1 for v in fold_of_group.values())
    assert s1.images == s2.images == {"train": 48, "val": 12}
    assert s1.groups == {"train": 16, "val": 4}
    assert read_names(tmp_path / "a")[42] == "die"
    # images are symlinks to the source, labels are copied unchanged
    val_img = next((tmp_path / "a" / "images" / "val").iterdir())
    assert val_img.is_symlink() and val_img.resolve().parent == (src / "images").resolve()
    label = tmp_path / "a" / "labels" / "val" / (val_img.stem + ".txt")
    assert read_labels(label) == read_labels(src / "labels" / (val_img.stem + ".txt"))
    # another seed gives another split
    import_tiles_real(src, tmp_path / "c", val_fraction=0.2, seed=4)
    assert read_groups(tmp_path / "c") != rows


def test_copy_mode_and_refusing_to_mix_with_an_old_dataset(tmp_path: Path) -> None:
    src = _fake_set(tmp_path / "src", groups=5, copies=2)
    import_tiles_real(src, tmp_path / "out", link="copy")
    img = next((tmp_path / "out" / "images" / "train").iterdir())
    assert not img.is_symlink() and img.read_bytes().startswith(b"\xff\xd8fake")
    with pytest.raises(ValueError, match="already holds a dataset"):
        import_tiles_real(src, tmp_path / "out")
    import_tiles_real(src, tmp_path / "out", seed=9, overwrite=True)
    files = [p.name for p in (tmp_path / "out" / "images").rglob("*.jpg")]
    assert len(files) == len(set(files)) == 10


def test_bad_labels_are_named(tmp_path: Path) -> None:
    src = _fake_set(tmp_path / "src", groups=2, copies=1)
    bad = next((src / "labels").iterdir())
    bad.write_text("3 0.5 0.5 0.1\n")
    with pytest.raises(ValueError, match=f"{bad.name}:1: expected"):
        import_tiles_real(src, tmp_path / "out")
    bad.write_text("43 0.5 0.5 0.1 0.1\n")
    with pytest.raises(ValueError, match="class 43"):
        import_tiles_real(src, tmp_path / "out2")


def test_dice_remapped_to_die_with_faces_sidecar(tmp_path: Path) -> None:
    src = _fake_set(tmp_path / "src", groups=10, copies=1, cls_of=lambda g, c: g % 6,
                    with_groups_csv=False)
    import_dice_real(src, tmp_path / "die", seed=1)
    faces = {}
    with (tmp_path / "die" / "dice_faces.csv").open() as f:
        for r in csv.DictReader(f):
            faces[(r["file"], int(r["box"]))] = int(r["face"])
    assert len(faces) == 20
    for split, stem_box in [(k[0].split("/")[0], k) for k in faces]:
        assert split in ("train", "val")
        file, box = stem_box
        stem = file.split("/")[1]
        labels = read_labels(tmp_path / "die" / "labels" / split / f"{stem}.txt")
        assert labels[box].cls == 42
        assert faces[stem_box] == int(stem[3:5]) % 6 + 1
    import_dice_real(src, tmp_path / "faces", seed=1, dice_as="faces")
    assert read_names(tmp_path / "faces") == [f"die{k}" for k in range(1, 7)]
    classes = {b.cls for p in (tmp_path / "faces" / "labels").rglob("*.txt")
               for b in read_labels(p)}
    assert classes == set(range(6))


def test_split_fraction_and_validation() -> None:
    group_of = {f"f{i}": f"g{i // 3}" for i in range(300)}
    fold = split_groups(group_of, 0.2, seed=0)
    assert sum(v == "val" for v in fold.values()) == 60
    assert split_groups(group_of, 0.0)["f0"] == "train"
    with pytest.raises(ValueError, match="val fraction"):
        split_groups(group_of, 1.5)


@pytest.mark.skipif(not (SHARED / "tiles-real" / "groups.csv").exists()
                    or not (SHARED / "dice-real" / "labels").is_dir(),
                    reason="shared/datasets/tiles-real and dice-real are not on this machine")
def test_three_real_files_of_each_set(tmp_path: Path) -> None:
    for name, n in (("tiles-real", 3), ("dice-real", 3)):
        sub = tmp_path / name
        (sub / "images").mkdir(parents=True)
        (sub / "labels").mkdir()
        for img in sorted((SHARED / name / "images").iterdir())[:n]:
            (sub / "images" / img.name).symlink_to(img)
            shutil.copy(SHARED / name / "labels" / f"{img.stem}.txt", sub / "labels")
    # the first three tiles-real files are the three copies of one photo: one fold for all
    shutil.copy(SHARED / "tiles-real" / "groups.csv", tmp_path / "tiles-real")
    import_tiles_real(tmp_path / "tiles-real", tmp_path / "t", val_fraction=0.5)
    assert len({split for _, _, split in read_groups(tmp_path / "t")}) == 1
    import_dice_real(tmp_path / "dice-real", tmp_path / "d")
    boxes = [b for p in (tmp_path / "d" / "labels").rglob("*.txt") for b in read_labels(p)]
    assert boxes and all(b.cls == 42 for b in boxes)
    cv2 = pytest.importorskip("cv2")
    img = next((tmp_path / "d" / "images").rglob("*.jpg"))
    assert isinstance(cv2.imread(str(img)), np.ndarray)
