"""`mjtable read` end to end on a bundled showdown photo: ONNX model -> letterbox -> decoding ->
table geometry -> hand record, checked against the scene's manifest.

The model is built here and outputs the manifest's boxes (a perfect detector), so what is tested
is everything after the network, through the real command line.
It ignores its input, so the photo is read once (``--no-flips``): a mirror image's boxes
would not meet the photo's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.record import parse_record
from scoring.tiles import parse_tiles
from tests.vision.onnx_graphs import MANIFEST_NAMES as NAMES
from tests.vision.onnx_graphs import fixed_detector, manifest_boxes
from ui.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"


def perfect_model(manifest: dict, folder: Path) -> Path:
    rows = [(*box, cls, 0.9) for box, cls, _ in manifest_boxes(manifest)]
    folder.mkdir()
    fixed_detector(folder / "detector.onnx", NAMES, rows, n_anchors=len(rows) + 8)
    return folder


def test_read_a_showdown_photo(tmp_path: Path, capsys) -> None:
    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    models = perfect_model(manifest, tmp_path / "models")
    argv = ["read", "--no-flips", str(SAMPLES / "table_2.jpg"), "--ruleset", "shanghai", "--models",
            str(models), "--bottom-seat", "0", "--dealer", str(manifest["game"]["dealer"])]
    assert main(argv) == 0
    out = capsys.readouterr()
    printed = json.loads(out.out)
    # hands in the usual sorted notation, not in the order the tiles stand in the row
    assert [s["concealed"] for s in printed["seats"]] == [
        "1489m7p699sEP", "1236p8sSP", "789m11155789p345s", "26m23449p78sC"]
    record = parse_record(printed)
    assert record.context.dice is not None
    assert sorted(record.context.dice) == sorted(manifest["dice"])
    for truth in manifest["game"]["seats"]:
        seat = record.seats[truth["seat"]]
        assert sorted(seat.concealed) == sorted(parse_tiles(truth["concealed"])), truth["seat"]
        want = sorted((m["type"], tuple(sorted(parse_tiles(m["tiles"]))), m.get("from"))
                      for m in truth["melds"])
        got = sorted((m.type, tuple(sorted(m.tiles)), m.from_seat) for m in seat.melds)
        assert got == want
        assert sorted(seat.flowers) == sorted(parse_tiles("".join(truth["flowers"])))


def test_details_carry_the_dice_even_when_they_make_no_roll(tmp_path: Path, capsys) -> None:
    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    argv = ["read", "--no-flips",
            str(SAMPLES / "table_2.jpg"), "--ruleset", "shanghai", "--details"]
    assert main([*argv, "--models", str(perfect_model(manifest, tmp_path / "both"))]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(dice["faces"]) == sorted(manifest["dice"]) and dice["total"] == 3
    one = {**manifest, "objects": [o for o in manifest["objects"] if o["tile"] != "die"
                                   or o["face"] != 2]}
    assert main([*argv, "--models", str(perfect_model(one, tmp_path / "one"))]) == 0
    assert json.loads(capsys.readouterr().out)["dice"] == {
        "faces": [1], "note": "no roll read: 1 die seen, 1 with a face read; a roll needs 2"}


def test_details_list_the_tiles_read_unsurely_where_they_lie(tmp_path: Path, capsys) -> None:
    """A winner's hand tile and a kong's tile read at 0.4 are listed for a person to check,
    with their seat, place and box; the tiles read at 0.9 and the discards are not."""
    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    winner = manifest["game"]["to_play"]
    seven = next(o for o in manifest["objects"] if o["seat"] == winner and o["role"] == "hand"
                 and o["tile"] == "7m")
    three = next(o for o in manifest["objects"] if o["seat"] == 1 and o["role"] == "meld"
                 and o["tile"] == "3m")
    low = next(o for o in manifest["objects"] if o["role"] == "discard")
    rows = [(*box, cls, 0.4 if obj is seven or obj is three or obj is low else 0.9)
            for box, cls, obj in manifest_boxes(manifest)]
    models = tmp_path / "models"
    models.mkdir()
    fixed_detector(models / "detector.onnx", NAMES, rows, n_anchors=len(rows) + 8)
    argv = ["read", "--no-flips", str(SAMPLES / "table_2.jpg"), "--ruleset", "shanghai",
            "--details", "--models", str(models)]
    assert main(argv) == 0
    unsure = json.loads(capsys.readouterr().out)["unsure"]
    assert winner > 1
    assert sorted((u["seat"], u["where"].split()[0], u["read"]) for u in unsure) == [
        (1, "meld", "3m"), (winner, "hand", "7m")]
    for u, obj in zip(sorted(unsure, key=lambda u: u["seat"]), (three, seven), strict=True):
        assert u["confidence"] == pytest.approx(0.4, abs=1e-3)
        assert u["box"] == pytest.approx(obj["xyxy"], abs=1.5)
        assert u["readings"][0]["tile"] == u["read"]
    # without --details, a line on stderr names them
    assert main([*argv[:-3], "--models", str(models)]) == 0
    err = capsys.readouterr().err
    assert "note: read unsurely, worth a look" in err
    assert "seat 1 meld" in err and f"seat {winner} hand 7m" in err


def test_read_with_a_winner_who_does_not_hold_a_winning_hand_says_why(tmp_path: Path,
                                                                      capsys) -> None:
    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    models = perfect_model(manifest, tmp_path / "models")
    argv = ["read", "--no-flips", str(SAMPLES / "table_2.jpg"), "--ruleset", "shanghai", "--models",
            str(models), "--bottom-seat", "0", "--winner", "0"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "is not valid" in err and "seats[0]" in err


@pytest.mark.parametrize("name", ["table_0", "table_1"])
def test_read_a_table_in_play_gives_a_valid_draw_record(name: str, tmp_path: Path,
                                                        capsys) -> None:
    manifest = json.loads((SAMPLES / f"{name}.json").read_text())
    models = perfect_model(manifest, tmp_path / "models")
    assert main(["read", "--no-flips",
                 str(SAMPLES / f"{name}.jpg"), "--ruleset", "shandong", "--models",
                 str(models)]) == 0
    record = parse_record(json.loads(capsys.readouterr().out))
    assert record.outcome == "draw"
    for truth in manifest["game"]["seats"]:
        got = sorted(sorted(m.tiles) for m in record.seats[truth["seat"]].melds)
        assert got == sorted(sorted(parse_tiles(m["tiles"])) for m in truth["melds"])


def test_read_with_a_saved_calibration(tmp_path: Path, capsys) -> None:
    manifest = json.loads((SAMPLES / "table_2.json").read_text())
    models = perfect_model(manifest, tmp_path / "models")
    bad = tmp_path / "bad.json"
    bad.write_text('{"corners": [[0, 0]]}')
    argv = ["read", "--no-flips", str(SAMPLES / "table_2.jpg"), "--ruleset", "shanghai", "--models",
            str(models)]
    assert main([*argv, "--calibration", str(bad)]) == 2
    assert "bad.json: not a usable calibration" in capsys.readouterr().err
    # the whole picture as the table, seat 0 at the bottom: a valid (if rough) calibration
    good = tmp_path / "rig.json"
    good.write_text(json.dumps({"corners": [[0, 1080], [1920, 1080], [1920, 0], [0, 0]],
                                "bottom_seat": 0}))
    assert main([*argv, "--calibration", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "shanghai"
