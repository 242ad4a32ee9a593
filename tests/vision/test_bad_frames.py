"""A picture of extreme shape is skipped, counted and reported; the batch or stream goes on."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from tests.vision.onnx_graphs import fixed_detector
from ui.cli import main
from vision.capture import UnusableImage, load_image, open_capture
from vision.detector import letterbox
from vision.pipeline import Pipeline

SHAPES = [(1, 2000), (5000, 1), (2, 2), (40, 2000)]


@pytest.fixture
def models(tmp_path: Path) -> Path:
    folder = tmp_path / "models"
    folder.mkdir()
    names = [*CLASS_NAMES[:42], "die1", "die2", "die3", "die4", "die5", "die6"]
    fixed_detector(folder / "detector.onnx", names, [(320, 320, 100, 50, 13, 0.9)])
    return folder


def _folder(tmp_path: Path) -> Path:
    """0.png good, 1.png a 1x2000 strip, 2.png a 5000x1 column, 3.png good."""
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), np.full((480, 640, 3), 40, np.uint8))
    cv2.imwrite(str(folder / "1.png"), np.zeros((1, 2000, 3), np.uint8))
    cv2.imwrite(str(folder / "2.png"), np.zeros((5000, 1, 3), np.uint8))
    cv2.imwrite(str(folder / "3.png"), np.full((480, 640, 3), 90, np.uint8))
    return folder


@pytest.mark.parametrize(("h", "w"), SHAPES)
def test_extreme_shapes_are_a_clear_error(tmp_path: Path, h: int, w: int) -> None:
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), np.zeros((h, w, 3), np.uint8))
    with pytest.raises(UnusableImage, match=f"a {w}x{h} picture cannot show a table"):
        load_image(path)


@pytest.mark.parametrize(("h", "w"), SHAPES)
def test_letterbox_survives_any_shape(h: int, w: int) -> None:
    out, _ = letterbox(np.zeros((h, w, 3), np.uint8), (640, 640))
    assert out.shape == (640, 640, 3)


def test_detect_reports_the_bad_image_and_goes_on(models: Path, tmp_path: Path,
                                                  capsys) -> None:
    folder = _folder(tmp_path)
    images = [str(p) for p in sorted(folder.iterdir())]
    assert main(["detect", "--json", "--models", str(models), *images]) == 2
    out, err = capsys.readouterr()
    assert [json.loads(x)["image"] for x in out.splitlines()] == [images[0], images[3]]
    assert "1x2000" not in err and "a 2000x1 picture" in err and "a 1x5000 picture" in err
    assert "internal error" not in err


def test_watch_folder_skips_counts_and_goes_on(models: Path, tmp_path: Path, capsys) -> None:
    folder = _folder(tmp_path)
    assert main(["watch", "--models", str(models), "--stable-readings", "1", "--stable-s", "0",
                 str(folder)]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(x) for x in out.splitlines()]
    skipped = [x["message"] for x in lines if x.get("kind") == "skipped"]
    assert len(skipped) == 2 and "2000x1" in skipped[0] and "1x5000" in skipped[1]
    assert "2 frames in" in err and "2 frame(s) skipped" in err
    assert lines[-1]["kind"] == "ended"


class OddCamera:
    """A live source whose driver hands over a broken frame now and then."""

    name, live = "camera 9", True

    def __init__(self) -> None:
        self.frames = [np.full((480, 640, 3), 50, np.uint8), np.zeros((1, 2000, 3), np.uint8),
                       np.zeros((480, 640), np.uint8), np.full((480, 640, 3), 60, np.uint8)]

    def open(self) -> None:
        pass

    def read(self):  # type: ignore[no-untyped-def]
        if not self.frames:  # then a still picture, slowly
            time.sleep(0.05)
            return np.full((480, 640, 3), 70, np.uint8), None, ""
        return self.frames.pop(0), None, ""

    def close(self) -> None:
        pass


class Boom:
    """A detector that fails on the second picture it sees."""

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, image: np.ndarray):  # type: ignore[no-untyped-def]
        from vision.detections import TileDetections

        self.calls += 1
        if self.calls == 2:
            raise cv2.error("OpenCV(5.0.0) resize.cpp: error: (-215) inv_scale_x > 0")
        return TileDetections.empty()


def test_a_stream_skips_unusable_frames(tmp_path: Path) -> None:
    cap = open_capture(OddCamera(), reconnect_timeout=0)
    got = []
    try:
        while len(got) < 2:
            frame = cap.read(timeout=2)
            if frame is not None:
                got.append(frame)
    finally:
        cap.close()
    assert [int(f.image[0, 0, 0]) for f in got] == [50, 60]
    assert cap.frames_skipped == 2
    kinds = [(s.kind, s.message) for s in cap.statuses()]
    assert next(m for k, m in kinds if k == "skipped").startswith("camera 9 frame 1: a 2000x1")


def test_a_frame_that_fails_to_process_is_skipped(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    for p in (folder / "1.png", folder / "2.png"):
        p.unlink()
    cv2.imwrite(str(folder / "2.png"), np.full((480, 640, 3), 200, np.uint8))
    pipe = Pipeline(str(folder), Boom(), stable_s=0, stable_readings=1, settle=False, motion=-1)
    try:
        results = list(pipe.frames())
        rest = pipe.statuses()
    finally:
        pipe.close()
    assert [Path(r.frame.name).name for r in results] == ["0.png", "3.png"]
    assert pipe.frames_skipped == 1
    skipped = [s.message for r in results for s in r.statuses if s.kind == "skipped"]
    skipped += [s.message for s in rest if s.kind == "skipped"]
    assert len(skipped) == 1 and "2.png: cannot be processed" in skipped[0]
    assert "inv_scale_x" in skipped[0]


def test_a_header_claiming_a_huge_picture_is_refused_fast() -> None:
    import struct
    import zlib

    from vision.capture import CorruptImage, decode_image

    png = bytearray(cv2.imencode(".png", np.zeros((32, 32, 3), np.uint8))[1].tobytes())
    png[16:24] = struct.pack(">II", 30_000, 30_000)  # IHDR width, height
    png[29:33] = struct.pack(">I", zlib.crc32(bytes(png[12:29])))
    t0 = time.perf_counter()
    with pytest.raises(CorruptImage, match="cannot decode the image"):
        decode_image(bytes(png), "bomb.png")
    assert time.perf_counter() - t0 < 2


def test_a_png_chunk_longer_than_the_file_is_refused_fast() -> None:
    """Found by bench/fuzz.py: OpenCV allocated the 2 GB an IDAT length claimed."""
    from vision.capture import CorruptImage, decode_image

    png = bytearray(cv2.imencode(".png", np.zeros((32, 48, 3), np.uint8))[1].tobytes())
    idat = png.index(b"IDAT") - 4
    png[idat:idat + 4] = (2**31 + 270).to_bytes(4, "big")
    t0 = time.perf_counter()
    with pytest.raises(CorruptImage, match="runs past the end"):
        decode_image(bytes(png), "long-chunk.png")
    assert time.perf_counter() - t0 < 1
