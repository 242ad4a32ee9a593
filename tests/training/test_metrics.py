"""The evaluator's numbers on hand-made predictions whose AP is worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from vision.metrics import (
    Detections,
    Evaluation,
    average_precision,
    confusion_pairs,
    iou_matrix,
    match,
)


def det(boxes: list[list[float]], scores: list[float], names: list[str]) -> Detections:
    return Detections(np.array(boxes, dtype=float).reshape(-1, 4), np.array(scores, float), names)


def test_iou_of_known_boxes() -> None:
    a = np.array([[0, 0, 10, 10]])
    b = np.array([[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]])
    np.testing.assert_allclose(iou_matrix(a, b), [[1.0, 50 / 150, 0.0]])


def test_perfect_predictions_score_one() -> None:
    gt = det([[0, 0, 10, 10], [20, 0, 30, 10]], [1, 1], ["1m", "E"])
    ev = Evaluation(conf=0.25)
    ev.add(det([[0, 0, 10, 10], [20, 0, 30, 10]], [0.9, 0.8], ["1m", "E"]), gt)
    assert ev.mean_ap() == (1.0, 1.0, 2)
    assert ev.precision_recall() == (1.0, 1.0)
    assert ev.exact_multiset == ev.multiset_images == 1
    assert not ev.confusions


def test_ap_with_a_false_positive_between_hits() -> None:
    # scores .9 hit, .8 miss, .7 hit over 2 ground truths: precision 1 up to recall .5, then 2/3
    ap = average_precision(np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7]), 2)
    assert ap == pytest.approx((51 + 50 * 2 / 3) / 101)


def test_ap_through_the_evaluator_matches_the_hand_value() -> None:
    gt = det([[0, 0, 10, 10], [50, 0, 60, 10]], [1, 1], ["5p", "5p"])
    pred = det([[0, 0, 10, 10], [100, 100, 110, 110], [50, 0, 60, 10]], [0.9, 0.8, 0.7],
               ["5p", "5p", "5p"])
    ev = Evaluation(conf=0.75)
    ev.add(pred, gt)
    m50, m5095, n = ev.mean_ap()
    assert n == 1
    assert m50 == pytest.approx((51 + 50 * 2 / 3) / 101)
    assert m5095 == pytest.approx(m50)  # the hits are exact boxes: every threshold agrees
    p, r = ev.precision_recall()  # at conf .75: one hit, one miss among 2 predictions
    assert (p, r) == (0.5, 0.5)


def test_partial_overlap_counts_only_up_to_its_iou() -> None:
    # IoU 0.6: a hit at thresholds .50 .55 .60, a miss at the seven above
    gt = det([[0, 0, 10, 10]], [1], ["C"])
    pred = det([[0, 0, 10, 7.5]], [0.9], ["C"])
    assert iou_matrix(pred.boxes, gt.boxes)[0, 0] == pytest.approx(0.75)
    pred = det([[0, 0, 10, 6]], [0.9], ["C"])
    ev = Evaluation(conf=0.25)
    ev.add(pred, gt)
    m50, m5095, _ = ev.mean_ap()
    assert m50 == 1.0
    assert m5095 == pytest.approx(0.3)


def test_duplicate_detection_is_a_false_positive() -> None:
    flags = match(np.array([[0, 0, 10, 10], [0, 0, 10, 10]]), np.array([0.9, 0.8]),
                  np.array([[0, 0, 10, 10]]))
    assert flags[:, 0].tolist() == [True, False]


def test_wrong_class_costs_both_classes_and_is_a_confusion() -> None:
    gt = det([[0, 0, 10, 10], [20, 0, 30, 10]], [1, 1], ["1m", "2m"])
    pred = det([[0, 0, 10, 10], [20, 0, 30, 10]], [0.9, 0.9], ["1m", "3m"])
    ev = Evaluation(conf=0.25)
    ev.add(pred, gt)
    table = ev.ap_table()
    assert table["1m"] == (1.0, 1.0)
    assert table["2m"] == (0.0, 0.0)
    assert "3m" not in table  # no ground truth: not averaged
    assert ev.mean_ap()[:2] == (0.5, 0.5)
    assert ev.exact_multiset == 0
    assert ev.confusions == {("2m", "3m"): 1}


def test_multiset_ignores_position_and_filtered_names() -> None:
    gt = det([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], [1, 1, 1], ["1m", "1m", "die3"])
    # the two 1m boxes are swapped in place and the die is missing: the tile multiset is right
    pred = det([[20, 0, 30, 10], [0, 0, 10, 10]], [0.9, 0.9], ["1m", "1m"])
    ev = Evaluation(conf=0.25)
    ev.add(pred, gt, multiset_filter=["1m", "2m"])
    assert ev.exact_multiset == 1
    ev.add(det([[0, 0, 10, 10]], [0.2], ["1m"]), det([[0, 0, 10, 10]], [1], ["1m"]),
           multiset_filter=["1m"])  # below the operating threshold: empty multiset
    assert (ev.exact_multiset, ev.multiset_images) == (1, 2)


def test_confusion_pairs_name_misses_and_background() -> None:
    gt = det([[0, 0, 10, 10]], [1], ["N"])
    pred = det([[100, 100, 110, 110]], [0.9], ["W"])
    assert confusion_pairs(pred, gt) == {("N", "missed"): 1, ("background", "W"): 1}
