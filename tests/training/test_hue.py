"""``python -m vision.training.hue``: hue-turned or greyed copies of classifier crops (no torch)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.bamboo import greyed
from vision.training.hue import grey_copies, hue_copies, hue_turned, main


def _crop(colour: tuple[int, int, int]) -> np.ndarray:
    """A near-white face with one stroke of ``colour`` (BGR)."""
    img = np.full((64, 64, 3), 235, np.uint8)
    cv2.line(img, (20, 10), (40, 54), colour, 6)
    return img


def _hue(bgr: tuple[int, int, int]) -> int:
    return int(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0])


def test_a_turned_crop_keeps_its_lightness_and_changes_its_ink_hue() -> None:
    green = _crop((40, 160, 40))
    blue = hue_turned(green, 60)  # 120 degrees on: green ink turns blue
    ink = blue[32, 30].tolist()
    assert abs(_hue(tuple(ink)) - (_hue((40, 160, 40)) + 60) % 180) <= 2
    assert np.abs(blue[2, 2].astype(int) - green[2, 2]).max() <= 1  # the grey face stays grey
    assert np.array_equal(hue_turned(green, 180), green)  # a whole turn is no change


def _folder(base: Path) -> Path:
    for kind, colour in (("1s", (40, 160, 40)), ("C", (30, 30, 200))):
        (base / kind).mkdir(parents=True)
        for i in range(3):
            cv2.imwrite(str(base / kind / f"c{i}.png"), _crop(colour))
    return base


def test_copies_are_made_for_the_kinds_asked_only_and_the_same_for_a_seed(
        tmp_path: Path) -> None:
    data = _folder(tmp_path / "train")
    assert hue_copies(data, tmp_path / "a", ("1s",), seed=5) == 3
    assert sorted(p.name for p in (tmp_path / "a" / "1s").iterdir()) == \
        ["hue_c0.png", "hue_c1.png", "hue_c2.png"]
    assert not (tmp_path / "a" / "C").exists()  # 紅中 keeps its red: no copies
    hues = {_hue(tuple(cv2.imread(str(p))[32, 30].tolist()))
            for p in (tmp_path / "a" / "1s").iterdir()}
    assert _hue((40, 160, 40)) not in hues  # every copy's ink turned away from green
    main(["--data", str(data), "--out", str(tmp_path / "b"), "--kinds", "1s", "--seed", "5"])
    for p in (tmp_path / "a" / "1s").iterdir():
        assert np.array_equal(cv2.imread(str(p)), cv2.imread(str(tmp_path / "b" / "1s" / p.name)))


def test_a_kind_without_crops_or_an_unreadable_crop_is_named(tmp_path: Path) -> None:
    data = _folder(tmp_path / "train")
    with pytest.raises(FileNotFoundError, match="no crops of 9s"):
        hue_copies(data, tmp_path / "out", ("9s",))
    (data / "1s" / "bad.png").write_bytes(b"not a png")
    with pytest.raises(ValueError, match=r"bad\.png: not a readable image"):
        hue_copies(data, tmp_path / "out", ("1s",))


def test_greyed_copies_are_a_seeded_share_of_each_kind_greyed_as_the_reading_greys(
        tmp_path: Path) -> None:
    data = _folder(tmp_path / "train")
    for i in range(3, 40):
        cv2.imwrite(str(data / "1s" / f"c{i}.png"), _crop((40, 160, 40)))
    n = grey_copies(data, tmp_path / "a", ("1s", "C"), 0.5, seed=7)
    made = sorted((tmp_path / "a" / "1s").iterdir())
    assert n == len(made) + len(list((tmp_path / "a" / "C").iterdir()))
    assert 12 <= len(made) <= 28  # about half of the 40
    assert all(p.name.startswith("grey_c") for p in made)
    source = cv2.imread(str(data / "1s" / made[0].name.removeprefix("grey_")))
    assert np.array_equal(cv2.imread(str(made[0])), greyed(source))
    main(["--grey", "0.5", "--data", str(data), "--out", str(tmp_path / "b"),
          "--kinds", "1s,C", "--seed", "7"])
    assert sorted(p.name for p in (tmp_path / "b" / "1s").iterdir()) == [p.name for p in made]
    assert grey_copies(data, tmp_path / "c", ("C",), 1.0) == 3
    with pytest.raises(ValueError, match="share of crops to grey"):
        grey_copies(data, tmp_path / "d", ("C",), 0.0)
