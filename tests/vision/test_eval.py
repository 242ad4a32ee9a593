"""``mjtable eval`` runs what ``mjtable detect`` runs, and ``eval --tables`` reads scenes with
known answers as ``mjtable read`` does (models built in the test from the scenes' manifests).
The built graphs ignore their input, so photos are read once (``--no-flips``, ``flips=False``):
a mirror image's boxes would not meet the photo's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from tests.vision.onnx_graphs import (
    MANIFEST_NAMES,
    centre_pixel_classifier,
    fixed_detector,
    manifest_boxes,
    photo_scale_detector,
    red_for_class,
)
from ui.cli import main
from vision.capture import load_image
from vision.evaluate import evaluate, load_dataset, load_model, named

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"


def test_eval_runs_what_detect_runs(tmp_path: Path, capsys) -> None:
    """The same models folder, the same photos in the same order: eval's predictions at the
    operating threshold are detect's output, box for box (the input size chosen per photo)."""
    models = tmp_path / "models"
    models.mkdir()
    photo_scale_detector(models / "detector.onnx", list(CLASS_NAMES))
    (tmp_path / "data" / "images").mkdir(parents=True)
    (tmp_path / "data" / "labels").mkdir()
    photos = []
    for name, shape in (("a_square", (960, 960)), ("b_wide", (1080, 1920)),
                        ("c_square", (960, 960))):
        photos.append(tmp_path / "data" / "images" / f"{name}.png")
        cv2.imwrite(str(photos[-1]), np.zeros((*shape, 3), np.uint8))
        (tmp_path / "data" / "labels" / f"{name}.txt").write_text("")
    assert main(["detect", "--no-flips", "--json", "--models", str(models), *map(str, photos)]) == 0
    shown = [json.loads(x)["detections"] for x in capsys.readouterr().out.splitlines()]
    detector = load_model(models, flips=False)
    ours = []
    for path in photos:
        dets = detector.detect(load_image(path), conf=0.01)  # as evaluate() asks
        ours.append(dets[dets.confidence >= detector.conf])  # the operating threshold
    assert [d.to_json_list() for d in ours] == shown
    assert [len(d) for d in shown] == [12, 4, 12]
    report = evaluate(detector, load_dataset(tmp_path / "data"), label="same")
    assert report.evaluation.images == 3
    assert sum(report.evaluation.confusions.values()) == 28  # 12 + 4 + 12 on nothing labeled
    assert named(ours[1], {"1m"}).names == ["1m"] * 4


def test_detect_lists_what_eval_counts_with_a_crop_classifier(tmp_path: Path, capsys) -> None:
    """Two tile boxes found (0.9 and 0.4), both named 5m by a crop classifier sure of it at
    0.56: the second's confidence, 0.4 x 0.56, falls under the threshold, so `detect` lists
    the first alone, as eval counts it at the operating threshold (it listed both before)."""
    names = [*CLASS_NAMES[:42], *(f"die{k}" for k in range(1, 7))]
    models = tmp_path / "models"
    models.mkdir()
    fixed_detector(models / "detector.onnx", ["tile", "tile_back", "die"],
                   [(160, 160, 64, 64, 0, 0.9), (480, 480, 64, 64, 0, 0.4)])
    centre_pixel_classifier(models / "classifier.onnx", names, sharpness=1.0)
    image = np.zeros((640, 640, 3), np.uint8)
    image[..., 2] = red_for_class(names.index("5m"), len(names))
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), image)
    assert main(["detect", "--no-flips", "--json", "--models", str(models), str(path)]) == 0
    shown = json.loads(capsys.readouterr().out)["detections"]
    assert [(d["label"], d["box"]) for d in shown] == [("5m", [128.0, 128.0, 192.0, 192.0])]
    assert 0.45 < shown[0]["confidence"] < 0.55
    detector = load_model(models, flips=False)
    dets = detector.detect(image, conf=0.01)  # as evaluate() asks
    assert len(dets) == 2
    assert dets[dets.confidence >= detector.conf].to_json_list() == shown


def perfect_models(manifest: dict, folder: Path) -> Path:
    """A models folder whose detector reports the manifest's visible objects exactly."""
    rows = [(*box, cls, 0.9) for box, cls, _ in manifest_boxes(manifest)]
    folder.mkdir()
    fixed_detector(folder / "detector.onnx", MANIFEST_NAMES, rows, n_anchors=len(rows) + 8)
    return folder


def relabeled(manifest: dict) -> dict:
    """The same photo labeled with three known differences from what it shows: one of the
    winner's 7m labeled 6m, one of seat 0's discards labeled seat 1's, the die showing 1
    labeled 3."""
    m = json.loads(json.dumps(manifest))
    winner = m["game"]["to_play"]
    seven = next(o for o in m["objects"] if o["seat"] == winner and o["role"] == "hand"
                 and o["tile"] == "7m")
    seven["tile"] = "6m"
    truth = m["game"]["seats"][winner]
    assert truth["concealed"] == "789m11155789p345s"
    truth["concealed"] = "689m11155789p345s"
    next(o for o in m["objects"] if o["seat"] == 0 and o["role"] == "discard")["seat"] = 1
    next(o for o in m["objects"] if o["tile"] == "die" and o["face"] == 1)["face"] = 3
    assert m["dice"] == [2, 1]
    m["dice"] = [2, 3]
    return m


@pytest.fixture
def tables(tmp_path: Path) -> tuple[Path, Path, int]:
    """The generator's layout (manifests/, images/SPLIT/) holding table_2 twice: as labeled,
    and relabeled with known differences; the models that read it perfectly; its face-up
    tiles."""
    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    for obj in manifest["objects"]:  # a real-face scene names each face's source photo
        if obj["tile"] not in ("die", "back"):
            obj["photo"] = f"faces:{obj['tile']}"
    folder = tmp_path / "tables"
    (folder / "manifests").mkdir(parents=True)
    (folder / "images" / "val").mkdir(parents=True)
    for name, m in (("right", manifest), ("relabeled", relabeled(manifest))):
        (folder / "manifests" / f"{name}.json").write_text(json.dumps({**m, "name": name}))
        shutil.copy(SAMPLES / "table_2.jpg", folder / "images" / "val" / f"{name}.jpg")
    faces = sum(1 for o in manifest["objects"]
                if o.get("visible", 1.0) >= 0.5 and o["tile"] not in ("die", "back"))
    return folder, perfect_models(manifest, tmp_path / "models"), faces


def test_eval_tables_on_scenes_with_known_answers(tables, capsys) -> None:
    from vision.evaluate import evaluate_tables, load_scenes

    folder, models, faces = tables
    scenes = load_scenes(folder)
    assert [s.manifest["name"] for s in scenes] == ["relabeled", "right"]
    score, _ = evaluate_tables(load_model(models, flips=False), scenes)
    assert score.scenes == 2
    assert score.seats == [7, 8]  # every seat right in "right"; the winner's seat not in the other
    assert score.winners == [1, 2]
    assert score.tiles == [2 * faces - 2, 2 * faces] and score.wrong_seat == 1
    assert score.missed == 0
    assert score.confusions == {("6m", "7m"): 1}
    # the misread 7m traced to its source photo, among all it was placed
    sevens = sum(o["tile"] == "7m" and o.get("visible", 1.0) >= 0.5
                 for o in json.loads((SAMPLES / "table_2.json").read_text())["objects"])
    assert +score.misread == {"faces:7m": 1} and score.placed["faces:7m"] == 2 * sevens
    assert score.dice == [3, 4] and score.rolls == [1, 2]
    assert score.backs == [56, 56] and score.back_boxes == 56 and score.hidden == [0, 0]
    assert main(["eval", "--no-flips", str(models), "--tables", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "seats whose face-up tiles (hand, melds, flowers) are exactly right: 7/8 (87.5%)" in out
    assert "winner's hand exactly right (recorded as the win): 1/2 (50.0%)" in out
    assert score.seats_in_view == score.seats and "in view" not in out  # the camera sees all
    assert f"{2 * faces - 2}/{2 * faces}" in out and "1 given to the wrong seat" in out
    assert "top confusions (true -> read: count): 6m->7m: 1" in out
    assert score.unsure_misread == [0, 1] and "holding 0/1 (0.0%) of the misread" in out
    assert (f"by source photo (1 of {len(score.placed)} sources; misread of placed): "
            f"faces:7m 1/{2 * sevens}") in out
    assert "relabeled winner seat 2: recorded a win by seat 2, " in out
    assert main(["eval", "--no-flips", str(models), "--tables", str(folder), "--misses", "0"]) == 0
    out = capsys.readouterr().out
    assert "  miss: " not in out and f"  ... {len(score.misses)} more misses" in out


def test_eval_tables_counts_the_misreads_that_the_unsure_marks_hold(tables, tmp_path: Path,
                                                                    capsys) -> None:
    """The winner's first 7m read at 0.4: marked unsure in both scenes, a misread in the
    relabeled one (labeled 6m there), right in the other; every other tile read surely."""
    from vision.evaluate import evaluate_tables, load_scenes

    folder, _, _ = tables
    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    winner = manifest["game"]["to_play"]
    seven = next(o for o in manifest["objects"] if o["seat"] == winner and o["role"] == "hand"
                 and o["tile"] == "7m")
    rows = [(*box, cls, 0.4 if obj is seven else 0.9)
            for box, cls, obj in manifest_boxes(manifest)]
    models = tmp_path / "unsure"
    models.mkdir()
    fixed_detector(models / "detector.onnx", MANIFEST_NAMES, rows, n_anchors=len(rows) + 8)
    at_seats = sum(1 for o in manifest["objects"] if o.get("visible", 1.0) >= 0.5
                   and o["role"] in ("hand", "meld", "flower"))
    score, _ = evaluate_tables(load_model(models, flips=False), load_scenes(folder))
    assert score.unsure_misread == [1, 1]
    assert score.unsure_right == [1, 2 * at_seats - 1]
    assert main(["eval", "--no-flips", str(models), "--tables", str(folder)]) == 0
    assert (f"marked unsure (confidence under 0.5, worth a look): 2 of {2 * at_seats} "
            f"({2 / (2 * at_seats):.1%}), holding 1/1 (100.0%) of the misread"
            ) in capsys.readouterr().out


def test_a_seat_is_in_view_only_when_every_face_up_tile_is_seen() -> None:
    """Fresh real-face table_s21_000019: a player's hand covered five of the winner's tiles, so
    no reading could be right. ``eval --tables`` also gives its shares over the seats and
    winners the camera sees whole, beside those over all."""
    from vision.evaluate import format_tables
    from vision.manifest import TableScore, in_view, winner_of

    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    winner = winner_of(manifest)
    seats = manifest["game"]["seats"]
    assert winner is not None and all(in_view(manifest, truth) for truth in seats)
    hand = [o for o in manifest["objects"] if o.get("seat") == winner and o["role"] == "hand"]
    hand[0]["visible"] = 0.3  # under a player's hand
    assert not in_view(manifest, seats[winner])
    assert not in_view(manifest, seats[winner], flowers=False)
    hand[0]["visible"] = 1.0
    flower = next(o for o in manifest["objects"] if o.get("seat") == 3 and o["role"] == "flower")
    manifest["objects"].remove(flower)  # cut off by the frame: not labeled at all
    assert not in_view(manifest, seats[3]) and in_view(manifest, seats[3], flowers=False)
    score = TableScore(scenes=3, seats=[9, 12], seats_in_view=[9, 10], winners=[2, 3],
                       winners_in_view=[2, 3])
    text = format_tables(score, "models", 0.1)
    assert "exactly right: 9/12 (75.0%); of the 10 with every face-up tile in view: 9/10 (90.0%)" \
        in text
    assert "(recorded as the win): 2/3 (66.7%)\n" in text  # all in view: said once


def test_eval_tables_live_reads_scenes_as_watch_does(tables, capsys) -> None:
    """``eval --tables --live``: each scene through the live pipeline as a few frames of the
    picture; perfect models read there what a still reads, the relabeled winner's 6m
    included, and a live reading is refused without table scenes."""
    from vision.evaluate import evaluate_live, evaluate_tables, load_scenes

    folder, models, faces = tables
    scenes = load_scenes(folder)
    still, _ = evaluate_tables(load_model(models, flips=False), scenes)
    stream = load_model(models, stills=False)
    assert not stream.stills and not stream.flips and stream.askew == ()
    for stills in (True, False):
        live, _ = evaluate_live(stream, scenes, frames=4, showdown_stills=stills)
        assert (live.seats, live.winners, live.tiles) == (still.seats, still.winners,
                                                          still.tiles) == ([7, 8], [1, 2],
                                                                           [2 * faces - 2,
                                                                            2 * faces])
        assert live.misses == still.misses
    with pytest.raises(ValueError, match="needs 2 frames or more"):
        evaluate_live(stream, scenes, frames=1)
    assert main(["eval", str(models), "--tables", str(folder), "--live", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 frames of each through the live pipeline as `watch` reads them, a hand laid " \
        "down read as a still" in out
    assert "winner's hand exactly right (recorded as the win): 1/2 (50.0%)" in out
    assert main(["eval", str(models), "--tables", str(folder), "--live",
                 "--no-showdown-stills"]) == 0
    assert "6 frames of each" in capsys.readouterr().out
    assert main(["eval", "--data", str(folder), "--live"]) == 2
    assert "--live and --no-showdown-stills read table scenes" in capsys.readouterr().err
    assert main(["eval", "--tables", str(folder), "--no-showdown-stills"]) == 2
    assert "--no-showdown-stills is a way of --live" in capsys.readouterr().err


def test_labeled_photos_beside_their_manifests_are_scenes(tmp_path: Path, capsys) -> None:
    from vision.evaluate import load_scenes

    assert [s.image.name for s in load_scenes(SAMPLES)] == ["table_0.jpg", "table_1.jpg",
                                                           "table_2.jpg"]
    (tmp_path / "x.json").write_text('{"game": {"seats": []}, "objects": []}')
    assert main(["eval", "--tables", str(tmp_path)]) == 2
    assert "x.json: no picture x.jpg for this manifest" in capsys.readouterr().err
    assert main(["eval", "--tables", str(tmp_path / "none")]) == 2
    assert "none: no such folder" in capsys.readouterr().err


def test_eval_tables_counts_backs_and_hidden_hands_apart(tmp_path: Path) -> None:
    """A table in play (every hand standing hidden) read perfectly, and the same photo with one
    standing tile of seat 1 left unlabeled: backs and hidden-hand counts are scored apart from
    the face-up tiles."""
    from vision.evaluate import evaluate_tables, load_scenes
    from vision.manifest import winner_of

    manifest = json.loads((SAMPLES / "table_0.json").read_text())
    assert winner_of(manifest) is None and not any(s["revealed"] for s in
                                                   manifest["game"]["seats"])
    short = json.loads(json.dumps(manifest))
    hidden = [o for o in short["objects"] if o["tile"] == "back" and o["role"] == "hand"
              and o["seat"] == 1]
    short["objects"].remove(hidden[0])
    folder = tmp_path / "tables"
    folder.mkdir()
    for name, m in (("a_labeled", manifest), ("b_one_back_unlabeled", short)):
        (folder / f"{name}.json").write_text(json.dumps(m))
        shutil.copy(SAMPLES / "table_0.jpg", folder / f"{name}.jpg")
    backs = sum(1 for o in manifest["objects"]
                if o["tile"] == "back" and o.get("visible", 1.0) >= 0.5)
    score, _ = evaluate_tables(load_model(perfect_models(manifest, tmp_path / "models"),
                                          flips=False),
                               load_scenes(folder))
    assert score.hidden == [7, 8]  # seat 1 of the second scene shows one more than labeled
    assert score.backs == [2 * backs - 1, 2 * backs - 1] and score.back_boxes == 2 * backs
    assert score.seats == [8, 8] and score.winners == [0, 0] and score.wrong_seat == 0
    assert score.tiles[0] == score.tiles[1] and not score.confusions



def test_eval_tables_reads_a_saved_example(tmp_path: Path) -> None:
    """A confirmed showdown saved by ``run --save-examples`` (``vision.examples``) is a scene
    ``eval --tables`` scores: its winner from ``game.wins``, its rules from ``game.ruleset``,
    unchecked boxes left out of the tile count."""
    from vision.evaluate import evaluate_tables, load_scenes
    from vision.examples import example_manifest, save_example
    from vision.manifest import manifest_detections, winner_of
    from vision.reading import calibrate, read_detections

    truth = json.loads((SAMPLES / "table_2.json").read_text())
    image = load_image(SAMPLES / "table_2.jpg")
    dets = manifest_detections(truth)
    reading = read_detections(dets, calibrate(image, None, 0, dets), ruleset="shandong",
                              dealer=truth["game"]["dealer"])
    found = reading.detections
    confirmed = {r: int(found.class_id[r]) for r in range(len(found))
                 if found.role[r] != "discard" and found.class_id[r] < 42}
    manifest = example_manifest(found, reading.record, (image.shape[1], image.shape[0]),
                                confirmed)
    assert winner_of(manifest) == 2 and manifest["game"]["ruleset"] == "shandong"
    save_example(tmp_path / "examples", image, manifest, name="showdown")
    score, _ = evaluate_tables(load_model(perfect_models(truth, tmp_path / "models"), flips=False),
                               load_scenes(tmp_path / "examples"), ruleset="shanghai")
    assert score.winners == [1, 1] and score.seats == [4, 4] and score.rolls == [1, 1]
    checked = sum(1 for o in manifest["objects"] if o["checked"])
    assert score.tiles == [checked, checked]  # discards unchecked: not counted


def test_bottom_seat_of_a_turned_table_is_the_one_below_its_centre() -> None:
    """On a table turned ~30 degrees seat 2 lies below the centre, to the right; seat 1 (on the
    left) shows only a few tiles, near its bottom corner, lower than seat 2's in the picture."""
    from vision.manifest import bottom_seat

    def obj(seat: int, x: float, y: float) -> dict:
        return {"seat": seat, "xyxy": [x - 10, y - 10, x + 10, y + 10]}

    objects = ([obj(0, 700 + 25 * i, 300 - 9 * i) for i in range(14)]  # top
               + [obj(1, x, y) for x, y in [(650, 580), (690, 600), (690, 820), (700, 840),
                                            (720, 848)]]  # left, few and low
               + [obj(2, 1000 + 20 * i, 860 - 9 * i) for i in range(16)]  # bottom right
               + [obj(3, 1130 + 8 * i, 220 + 25 * i) for i in range(16)])  # right
    assert bottom_seat({"objects": objects}) == 2


def test_bottom_seat_with_a_seat_out_of_the_picture() -> None:
    """A start of hand with the camera over seat 2's shoulder (REALVAL3 table_s16_000078):
    seat 2 has nothing labeled, seat 0 is across the table at the top, seats 1 and 3 at the
    sides, both below the centre of what is labeled. The bottom is seat 2's, though it shows
    nothing (taking the lowest seat shown, seat 1, turned every seat a quarter)."""
    from vision.manifest import bottom_seat

    def obj(seat: int, x: float, y: float) -> dict:
        return {"seat": seat, "xyxy": [x - 10, y - 10, x + 10, y + 10]}

    objects = ([obj(0, 850 + 25 * i, 139 + (i % 3) * 30) for i in range(14)]  # top
               + [obj(1, 549 + (i % 2) * 60, 380 + 28 * i) for i in range(11)]  # left
               + [obj(3, 1425 - (i % 2) * 60, 390 + 28 * i) for i in range(12)])  # right
    assert bottom_seat({"objects": objects}) == 2
    with pytest.raises(ValueError, match="no object at a seat"):
        bottom_seat({"objects": [{"seat": None, "xyxy": [0, 0, 9, 9]}]})
