"""The ink's colour between 發 and 東 (``vision.ink``) and the fit of its numbers."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ink
from vision.detector import default_models_dir
from vision.training.ink_fit import crops_of, logistic

E, F, OTHER = 0, 1, 2


def tile(ink_bgr: tuple[int, int, int], face_bgr: tuple[int, int, int] = (228, 238, 242),
         light: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """A 64-px crop: a face with a character's strokes across its middle, under a light."""
    import cv2

    crop = np.full((64, 64, 3), face_bgr, np.uint8)
    for y in (24, 30, 36, 42):
        cv2.line(crop, (18, y), (46, y + 3), ink_bgr, 2)
    cv2.line(crop, (32, 16), (30, 48), ink_bgr, 3)
    return np.clip(crop * np.array(light), 0, 255).astype(np.uint8)


GREEN, BLUE, BLACK = (40, 110, 20), (170, 40, 50), (30, 30, 30)


DARK_FA = (55, 50, 45)  # a 發 printed a dark bluish green (held-back IMG_20231119_110243: ink
# shifted about (-0.4, -9) from the face, as this), or under a dim light


def test_green_ink_speaks_for_fa_and_other_ink_says_nothing() -> None:
    """Green ink is evidence for 發 (no wind is printed green); blue or black ink is none for
    東, since a 發 printed dark shows as little green (``INK_FLOOR``)."""
    green, blue = ink.green_log_odds(tile(GREEN)), ink.green_log_odds(tile(BLUE))
    black, dark = ink.green_log_odds(tile(BLACK)), ink.green_log_odds(tile(DARK_FA))
    assert green is not None and blue is not None and black is not None and dark is not None
    assert ink.INK_CAP >= green > 1.0
    assert black == blue == dark == ink.INK_FLOOR == 0.0
    a, b, c = ink.GREEN_INK  # without the floor the fitted line would speak for 東
    for crop in (tile(BLUE), tile(BLACK), tile(DARK_FA)):
        da, db = ink.ink_shift(crop)
        assert a * da + b * db + c < 0


@pytest.mark.parametrize("light", [(0.85, 0.96, 1.05), (1.05, 1.0, 0.9)])  # warm, cold
def test_a_tinted_room_light_does_not_turn_the_ink(light) -> None:
    green = ink.green_log_odds(tile(GREEN, light=light))
    blue = ink.green_log_odds(tile(BLUE, light=light))
    assert green is not None and green > 1.0
    assert blue == 0.0


def test_a_light_that_dyes_the_face_gives_no_evidence() -> None:
    """Under a lamp this yellow the face is no longer near white: judging the ink's hue
    against it would be guessing, so the classifier's reading stands."""
    assert ink.ink_shift(tile(GREEN, light=(0.78, 0.95, 1.08))) is None


@pytest.mark.parametrize("crop", [
    tile(BLACK, face_bgr=(200, 200, 200)),  # a greyed photo: no colour at all
    tile(GREEN, face_bgr=(230, 60, 235)),  # a face dyed magenta (a photo's hue shifted)
])
def test_no_colour_to_judge_gives_no_evidence(crop: np.ndarray) -> None:
    assert ink.ink_shift(crop) is None
    assert ink.green_log_odds(crop) is None


def test_weigh_ink_splits_only_east_and_fa_anew() -> None:
    crops = [tile(GREEN), tile(BLUE), tile(GREEN), tile(BLACK, face_bgr=(200, 200, 200))]
    probs = np.array([[0.90, 0.06, 0.04],   # 發 read 東: the green ink turns it
                      [0.55, 0.40, 0.05],   # 東 in doubt: blue ink leaves it as it is
                      [0.03, 0.02, 0.95],   # neither: left alone
                      [0.30, 0.60, 0.10]],  # no colour: left alone
                     np.float32)
    out = ink.weigh_ink(crops, probs, E, F)
    assert out[0].argmax() == F
    np.testing.assert_allclose(out[1:], probs[1:], rtol=1e-6)
    np.testing.assert_allclose(out[:, OTHER], probs[:, OTHER])
    np.testing.assert_allclose(out[:, E] + out[:, F], probs[:, E] + probs[:, F], rtol=1e-6)
    assert probs[0, E] == pytest.approx(0.90)  # the input is not changed


def test_a_dark_fa_read_east_is_read_by_its_greyed_shape_too() -> None:
    """The colour crop of a 發 printed dark reads 東; its greyed crop, shape alone, reads 發
    surely: the two weighed together read 發. A 東 whose greyed crop reads 東 stays 東."""
    from vision.bamboo import weigh_shape

    rivals = ink.dark_fa_rival(["E", "F", "N"])
    assert rivals == {E: F} and ink.dark_fa_rival(["E", "N"]) == {}
    crops = [tile(DARK_FA), tile(BLACK)]
    probs = np.array([[0.70, 0.28, 0.02], [0.70, 0.28, 0.02]], np.float32)

    def greyed_reads(seen: list[np.ndarray]) -> np.ndarray:
        # the first crop's shape is 發's, the second's 東's
        return np.array([[0.05, 0.94, 0.01], [0.97, 0.02, 0.01]], np.float32)[:len(seen)]

    out = weigh_shape(crops, probs, rivals, greyed_reads)
    assert out[0].argmax() == F and out[1].argmax() == E
    np.testing.assert_allclose(out[1], probs[1], rtol=1e-6)


def test_logistic_finds_the_side_of_each_feature() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 2))
    y = (1 / (1 + np.exp(-(2.0 * x[:, 0] - 1.0 * x[:, 1] + 0.5))) > rng.uniform(size=400))
    a, b, c = logistic(x, y.astype(float))
    assert a > 1.0 and b < -0.4 and c > 0


def test_fit_data_without_east_or_fa_is_one_clear_error(tmp_path) -> None:
    (tmp_path / "train" / "1m").mkdir(parents=True)
    with pytest.raises(ValueError, match="no E/ or F/ crops"):
        crops_of([tmp_path / "train"])


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped models")
def test_eval_no_ink_reads_east_and_fa_by_the_classifier_alone() -> None:
    """``mjtable eval --no-ink`` measures what the colour adds: the same models, the ink off."""
    from ui.cli import build_parser
    from vision.evaluate import load_model

    models = default_models_dir()
    shipped = load_model(models)
    names = list(shipped.cls.names)
    assert shipped._ink_pair == (names.index("E"), names.index("F"))
    assert load_model(models, ink=False)._ink_pair is None
    assert build_parser().parse_args(["eval", "--tables", "x", "--no-ink"]).no_ink
