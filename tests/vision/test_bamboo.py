"""A crop read 紅中 or dots checked by its greyed shape against the bamboo (``vision.bamboo``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import bamboo
from vision.detector import default_models_dir

C, BIRD, OTHER, NINE_P, NINE_S = 0, 1, 2, 3, 4
RIVALS = {C: BIRD, NINE_P: NINE_S}
RED = (40, 40, 200)


def crop(bgr: tuple[int, int, int]) -> np.ndarray:
    out = np.full((64, 64, 3), (228, 238, 242), np.uint8)
    out[20:44, 24:40] = bgr
    return out


SHADE = int(bamboo.greyed(crop(RED))[32, 32, 0])


def greyed_says(probs: list[float] | None):
    """A classifier of greyed crops that answers ``probs`` for each, and the crops it saw."""
    seen: list[np.ndarray] = []

    def classify(crops: list[np.ndarray]) -> np.ndarray:
        seen.extend(crops)
        return np.array([probs for _ in crops], np.float32).reshape(len(crops), -1)

    return classify, seen


def test_a_red_bird_read_as_red_dragon_is_a_bird_by_its_shape() -> None:
    """Colour says 紅中 but not surely; the greyed crop is sure of the bird: a bird."""
    classify, seen = greyed_says([0.002, 0.99, 0.004, 0.002, 0.002])
    probs = np.array([[0.90, 0.06, 0.04, 0.0, 0.0]], np.float32)
    out = bamboo.weigh_shape([crop(RED)], probs, RIVALS, classify)
    assert out[0].argmax() == BIRD
    assert out[0, C] + out[0, BIRD] == pytest.approx(0.96)
    assert out[0, OTHER] == pytest.approx(0.04)
    assert probs[0, C] == pytest.approx(0.90)  # the input is not changed
    assert len(seen) == 1 and np.ptp(seen[0], axis=2).max() == 0  # read greyed
    assert seen[0][32, 32, 0] == SHADE


def test_bamboo_printed_in_the_dots_colours_is_bamboo_by_its_shape() -> None:
    classify, _ = greyed_says([0.0, 0.0, 0.05, 0.05, 0.90])
    probs = np.array([[0.0, 0.0, 0.02, 0.80, 0.18]], np.float32)
    out = bamboo.weigh_shape([crop(RED)], probs, RIVALS, classify)
    assert out[0].argmax() == NINE_S


def test_a_sure_red_dragon_stays_though_its_grey_shape_leans_to_the_bird() -> None:
    """A real 紅中's colour reading is sure against the bird: a greyed crop that leans to
    the bird (as the classifier's greyed 紅中 often do) does not turn it."""
    classify, _ = greyed_says([0.007, 0.76, 0.233, 0.0, 0.0])
    probs = np.array([[0.9990, 0.00001, 0.00099, 0.0, 0.0]], np.float32)
    out = bamboo.weigh_shape([crop(RED)], probs, RIVALS, classify)
    assert out[0].argmax() == C


def test_a_blurred_red_dragon_stays_though_its_greyed_crop_reads_the_bird() -> None:
    """The bundled table_1's far 紅中 discard, blurred: colour 0.968 against the bird's 0.026,
    greyed 0.025 against 0.964. The greyed crop is the same classifier seeing the same shape
    again, so its odds count less (``GREY_WEIGHT``): 紅中 stays."""
    classify, _ = greyed_says([0.0248, 0.9635, 0.0117, 0.0, 0.0])
    probs = np.array([[0.9683, 0.0260, 0.0057, 0.0, 0.0]], np.float32)
    out = bamboo.weigh_shape([crop(RED)], probs, RIVALS, classify)
    assert out[0].argmax() == C


def test_a_greyed_crop_that_names_nothing_surely_is_no_evidence() -> None:
    """A 紅中 read unsurely whose greyed crop names no kind surely (the bird at 0.2, 紅中 at
    0.004) stays 紅中: only a greyed crop that leans to the bird (``RIVAL_SURE``) speaks."""
    classify, _ = greyed_says([0.004, 0.20, 0.796, 0.0, 0.0])
    probs = np.array([[0.55, 0.025, 0.425, 0.0, 0.0]], np.float32)
    out = bamboo.weigh_shape([crop(RED)], probs, RIVALS, classify)
    np.testing.assert_array_equal(out, probs)


def test_a_greyed_crop_leaning_to_the_bamboo_under_half_still_speaks() -> None:
    """Bamboo printed black and red, read 9p; greyed, 9s leads at 0.4 with 6s close: the
    bamboo is the likeliest reading though under half (``RIVAL_SURE``), and it counts."""
    classify, _ = greyed_says([0.0, 0.0, 0.35, 0.01, 0.40])
    probs = np.array([[0.0, 0.0, 0.02, 0.58, 0.40]], np.float32)
    out = bamboo.weigh_shape([crop(RED)], probs, RIVALS, classify)
    assert out[0].argmax() == NINE_S
    assert out[0, NINE_P] + out[0, NINE_S] == pytest.approx(0.98)


def test_a_greyed_crop_leaning_to_the_colours_own_reading_adds_nothing() -> None:
    """REALVAL15D table_s30_000062: a 發's colour crop read 東 at 0.83, its greyed crop 東 0.51
    and 發 0.36; counted as evidence it made 東 surer still and, with the box's other crops,
    turned the tile 東. The shape speaks for the rival only."""
    classify, _ = greyed_says([0.0, 0.0, 0.14, 0.51, 0.35])
    probs = np.array([[0.0, 0.0, 0.06, 0.83, 0.11]], np.float32)
    out = bamboo.weigh_shape([crop(RED)], probs, RIVALS, classify)
    np.testing.assert_allclose(out, probs, rtol=1e-6)


def test_only_crops_read_as_a_kind_with_a_bamboo_rival_are_read_again() -> None:
    classify, seen = greyed_says(None)
    probs = np.array([[0.2, 0.7, 0.1, 0.0, 0.0], [0.1, 0.1, 0.8, 0.0, 0.0]], np.float32)
    out = bamboo.weigh_shape([crop(RED), crop(RED)], probs, RIVALS, classify)
    np.testing.assert_array_equal(out, probs)
    assert not seen
    empty = np.zeros((0, 5), np.float32)
    assert bamboo.weigh_shape([], empty, RIVALS, classify).shape == (0, 5)


def test_the_rivals_are_the_bird_for_red_dragon_and_the_same_number_for_dots() -> None:
    names = ["1m", "1p", "9p", "1s", "9s", "C", "F"]
    assert bamboo.bamboo_rivals(names) == {1: 3, 2: 4, 5: 3}
    assert bamboo.bamboo_rivals(["C", "F"]) == {}


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped models")
def test_the_shipped_reader_reads_shapes_greyed_unless_told_not_to_weigh_colour() -> None:
    from vision.evaluate import load_model

    models = default_models_dir()
    reader = load_model(models)
    names = list(reader.cls.names)
    rivals = reader._shape_rivals
    assert rivals[names.index("C")] == names.index("1s")
    assert rivals[names.index("9p")] == names.index("9s")
    assert rivals[names.index("E")] == names.index("F") and len(rivals) == 11
    assert load_model(models, ink=False)._shape_rivals == {}
