"""``mjtable train prepare``: folds, crops per box, and the die-crop symmetries (no torch)."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.training.fakes import fake_dataset
from ui.cli import main
from vision.training.crops import dihedral, symmetric_probs
from vision.training.prepare import Sample, label_names


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("sources")
    return (fake_dataset(base / "tiles", 10, 42, dice=False),
            fake_dataset(base / "dice", 4, 6, dice=True))


def _prepare(sources: tuple[Path, Path], out: Path, *extra: str) -> Path:
    tiles, dice = sources
    assert main(["train", "prepare", "--data", str(tiles), "--dice", str(dice),
                 "--out", str(out), *extra]) == 0
    return out


def _crops(folder: Path) -> dict[str, int]:
    return {d.name: len(list(d.glob("*.png"))) for d in folder.iterdir() if d.is_dir()}


def test_prepare_keeps_copies_of_a_photo_in_one_fold(sources, tmp_path: Path) -> None:
    out = _prepare(sources, tmp_path / "work")
    with (out / "split.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    folds: dict[str, set[str]] = {}
    for row in rows:
        folds.setdefault(row["group"], set()).add(row["fold"])
    assert all(len(f) == 1 for f in folds.values())
    assert {r["fold"] for r in rows} == {"train", "val"}


def test_crops_per_box_multiply_training_crops_only(sources, tmp_path: Path) -> None:
    one = _prepare(sources, tmp_path / "one")
    many = _prepare(sources, tmp_path / "many", "--tile-crops", "3", "--dice-crops", "8")
    train1, train3 = _crops(one / "classifier" / "train"), _crops(many / "classifier" / "train")
    for name, n in train1.items():
        assert train3[name] == n * (8 if name.startswith("die") else 3), name
    assert sum(train1.values()) > 0
    # validation is the same plain crop per labeled box either way
    val1, val3 = one / "classifier" / "val", many / "classifier" / "val"
    assert _crops(val1) == _crops(val3)
    for crop in val1.rglob("*.png"):
        assert (cv2.imread(str(crop)) == cv2.imread(str(val3 / crop.relative_to(val1)))).all()


def test_zero_crops_per_box_is_a_clear_error(sources, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    tiles, dice = sources
    assert main(["train", "prepare", "--data", str(tiles), "--dice", str(dice),
                 "--out", str(tmp_path / "w"), "--dice-crops", "0"]) == 2
    assert "--dice-crops: expected a whole number 1..100" in capsys.readouterr().err


def test_the_eight_symmetries_are_distinct_and_closed() -> None:
    crop = np.arange(4 * 4 * 3, dtype=np.uint8).reshape(4, 4, 3)
    seen = {dihedral(crop, k).tobytes() for k in range(8)}
    assert len(seen) == 8
    for k in range(8):  # every symmetry of a symmetry is one of the eight
        assert {dihedral(dihedral(crop, k), j).tobytes() for j in range(8)} == seen
    assert (dihedral(crop, 0) == crop).all()


def test_symmetric_probs_average_over_the_eight() -> None:
    crops = [np.zeros((4, 4, 3), np.uint8), np.full((4, 4, 3), 9, np.uint8)]
    crops[0][0, 0] = 255  # a bright corner: lands in another corner under each symmetry
    calls: list[int] = []

    def probs(batch: list[np.ndarray]) -> np.ndarray:
        calls.append(len(batch))
        # class 0 if the top-left pixel is bright, else class 1
        return np.array([[1.0, 0.0] if c[0, 0, 0] == 255 else [0.0, 1.0] for c in batch])

    out = symmetric_probs(crops, probs)
    assert calls == [16]  # one batch of 8 x 2
    assert np.allclose(out, [[0.25, 0.75], [0.0, 1.0]])  # the corner is top-left in 2 of 8


def test_tile_crops_average_over_their_quarter_turns_only() -> None:
    crop = np.zeros((4, 4, 3), np.uint8)
    crop[0, 0] = 255  # top-left: one of the four quarter turns keeps it there
    seen: list[np.ndarray] = []

    def probs(batch: list[np.ndarray]) -> np.ndarray:
        seen.extend(batch)
        return np.array([[1.0, 0.0] if c[0, 0, 0] == 255 else [0.0, 1.0] for c in batch])

    assert np.allclose(symmetric_probs([crop], probs, 4), [[0.25, 0.75]])
    assert len(seen) == 4 and not any(np.array_equal(c, c[:, ::-1]) for c in seen)
    assert np.allclose(symmetric_probs([crop], probs, 1), [[1.0, 0.0]])  # as it is


def test_a_label_the_photo_contradicts_is_fixed_only_where_it_still_reads_so() -> None:
    image = Path("shared/dice-real/images/IMG_20191209_095954.jpg")
    sample = Sample(image, image.with_suffix(".txt"), "g", "dice")
    rows = np.array([[0, .5, .5, .1, .1], [1, .5, .5, .1, .1], [1, .4, .5, .1, .1]])
    assert label_names(sample, rows) == ["die1", "die2", "die3"]
    assert label_names(sample, rows[[0, 2, 0]]) == ["die1", "die2", "die1"]  # another row
    rows[2, 0] = 4
    assert label_names(sample, rows) == ["die1", "die2", "die5"]  # upstream changed: left be
    other = Sample(Path("shared/dice-more/images/IMG_20191209_095954.jpg"), image, "g", "dice")
    assert label_names(other, rows[[0, 1, 1]]) == ["die1", "die2", "die2"]
