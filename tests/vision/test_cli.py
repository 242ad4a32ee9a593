"""mjtable detect / read / watch: output formats and clear errors (models built in the test).
The built graphs ignore their input, so photos are read once (``--no-flips``, ``flips=False``):
a mirror image's boxes would not meet the photo's."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from tests.vision.onnx_graphs import fixed_detector
from ui.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"


@pytest.fixture
def models(tmp_path: Path) -> Path:
    """A 'models' folder whose detector always finds a 5p and a die showing 4 (die4 class)."""
    folder = tmp_path / "models"
    folder.mkdir()
    names = [*CLASS_NAMES[:42], "die1", "die2", "die3", "die4", "die5", "die6"]
    fixed_detector(folder / "detector.onnx", names,
                   [(320, 320, 100, 50, 13, 0.9), (100, 400, 30, 30, 45, 0.8)])
    return folder


def test_detect_json_line_per_image(models: Path, tmp_path: Path, capsys) -> None:
    img = tmp_path / "a.png"
    cv2.imwrite(str(img), np.zeros((720, 1280, 3), np.uint8))
    assert main(["detect", "--no-flips",
                 "--json", "--models", str(models), str(img), str(img)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    out = json.loads(lines[0])
    assert list(out) == ["image", "width", "height", "detections"]
    assert (out["image"], out["width"], out["height"]) == (str(img), 1280, 720)
    tile, die = out["detections"]
    assert tile == {"label": "5p", "box": [540.0, 310.0, 740.0, 410.0], "confidence": 0.9}
    assert die["label"] == "die" and die["face"] == 4 and set(die) == {"label", "box",
                                                                     "confidence", "face"}


def test_detect_decides_each_photos_size(tmp_path: Path, capsys) -> None:
    """Unrelated photos in one `detect`: a square close-up after a table photo is not read at
    the table's size (the model finds 12 boxes in a square photo at 960, 4 in a 1080p one at
    320; a stream that kept the first choice would find 0 in the 1080p one)."""
    from tests.vision.onnx_graphs import photo_scale_detector

    folder = tmp_path / "models"
    folder.mkdir()
    photo_scale_detector(folder / "detector.onnx", list(CLASS_NAMES))
    square, wide = tmp_path / "square.png", tmp_path / "wide.png"
    cv2.imwrite(str(square), np.zeros((960, 960, 3), np.uint8))
    cv2.imwrite(str(wide), np.zeros((1080, 1920, 3), np.uint8))
    argv = ["detect", "--no-flips",
            "--json", "--models", str(folder), str(square), str(wide), str(square)]
    assert main(argv) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [len(x["detections"]) for x in lines] == [12, 4, 12]


def test_detect_conf_filters(models: Path, tmp_path: Path, capsys) -> None:
    img = tmp_path / "a.png"
    cv2.imwrite(str(img), np.zeros((640, 640, 3), np.uint8))
    assert main(["detect", "--no-flips",
                 "--json", "--conf", "0.85", "--models", str(models), str(img)]) == 0
    assert [d["label"] for d in json.loads(capsys.readouterr().out)["detections"]] == ["5p"]


@pytest.mark.parametrize(("argv", "message"), [
    (["detect", "--conf", "2", "x.png"], "argument --conf: expected a finite number 0..1"),
    (["detect", "MISSING.png"], "MISSING.png: no such image file"),
    (["read", "x.png", "--ruleset", "nowhere"], "unknown ruleset 'nowhere'"),
    (["watch", "MISSING.mp4"], "no such file, folder or camera"),
])
def test_errors_are_one_line(argv, message, models: Path, capsys) -> None:
    if argv[0] in ("detect", "watch"):
        argv = [argv[0], "--models", str(models), *argv[1:]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_corrupt_image_is_a_clear_error(models: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really")
    assert main(["detect", "--models", str(models), str(bad)]) == 2
    assert "bad.jpg: cannot decode the image" in capsys.readouterr().err


def test_watch_prints_json_events(models: Path, tmp_path: Path, capsys) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((64, 64, 3), 10 * i, np.uint8))
    assert main(["watch", "--models", str(models), "--stable-readings", "1", "--stable-s", "0",
                 str(tmp_path)]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(x) for x in captured.out.splitlines()]
    assert lines[0] == {"type": "capture", "kind": "opened",
                        "message": f"folder {tmp_path} opened"}
    assert all("type" in x for x in lines)
    assert "3 frames" in captured.err


def test_backend_choice(models: Path, tmp_path: Path, capsys,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--backend`` on detect: each installed backend gives the same JSON; one that is not
    installed, or unknown, is one line and exit 2."""
    from vision.backends import openvino_installed

    img = tmp_path / "a.png"
    cv2.imwrite(str(img), np.zeros((720, 1280, 3), np.uint8))
    outs = []
    for backend in ("onnxruntime", "openvino") if openvino_installed() else ("onnxruntime",):
        assert main(["detect", "--no-flips",
                     "--json", "--backend", backend, "--models", str(models),
                     str(img)]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert all(o == outs[0] for o in outs) and len(outs[0]["detections"]) == 2
    assert main(["detect", "--backend", "tensorrt", str(img)]) == 2
    assert "invalid choice: 'tensorrt'" in capsys.readouterr().err
    monkeypatch.setattr("vision.backends.openvino_installed", lambda: False)
    assert main(["detect", "--backend", "openvino", "--models", str(models), str(img)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'mjtable[openvino]'" in err and len(err.strip().splitlines()) == 1
