"""Capture: every kind of source, and the faults (file ends, device vanishes, corrupt image)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture import (
    CapturedFrame,
    CaptureEnded,
    CaptureError,
    CorruptImage,
    load_image,
    open_capture,
    read_picture,
)


def _write_video(path: Path, n: int, size: tuple[int, int] = (64, 48)) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, size)
    assert writer.isOpened()
    for i in range(n):
        writer.write(np.full((size[1], size[0], 3), i * 20 % 256, np.uint8))
    writer.release()
    return path


def _drain(cap, limit: float = 10.0) -> list[CapturedFrame]:
    frames = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            f = cap.read(timeout=0.2)
        except CaptureEnded:
            return frames
        if f is not None:
            frames.append(f)
    raise AssertionError("capture did not end")


def test_video_file_gives_every_frame_then_a_clear_end(tmp_path: Path) -> None:
    video = _write_video(tmp_path / "clip.avi", 7)
    with open_capture(str(video)) as cap:
        frames = _drain(cap)
        assert [f.index for f in frames] == list(range(7))
        assert frames[3].position == pytest.approx(0.3, abs=0.05)
        with pytest.raises(CaptureEnded, match=r"clip\.avi ended after 7 frames"):
            cap.read()
        kinds = [s.kind for s in cap.statuses()]
    assert kinds == ["opened", "ended"]


def test_iteration_stops_at_the_end(tmp_path: Path) -> None:
    video = _write_video(tmp_path / "clip.avi", 3)
    with open_capture(video) as cap:
        assert len(list(cap)) == 3


def test_folder_skips_a_corrupt_image_and_says_so(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((16, 16, 3), i, np.uint8))
    (tmp_path / "1b.jpg").write_bytes(b"\xff\xd8\xff garbage")
    with open_capture(tmp_path) as cap:
        frames = _drain(cap)
        statuses = cap.statuses()
    assert [Path(f.name).name for f in frames] == ["0.png", "1.png", "2.png"]
    skipped = [s for s in statuses if s.kind == "skipped"]
    assert len(skipped) == 1 and "1b.jpg: cannot decode" in skipped[0].message


def test_single_corrupt_image_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    with pytest.raises(CorruptImage, match=r"bad\.png: cannot decode"):
        load_image(bad)
    with pytest.raises(FileNotFoundError, match="no such image"):
        load_image(tmp_path / "none.png")


def test_a_training_picture_of_any_size_is_read_and_a_bad_one_named(tmp_path: Path) -> None:
    """The training tools read crops and faces of any size (an 8-px crop, which
    no table photo is), and a missing, folder or damaged file is one ValueError naming it."""
    small = tmp_path / "crop.png"
    cv2.imwrite(str(small), np.full((8, 8, 3), 7, np.uint8))
    assert read_picture(small).shape == (8, 8, 3)
    with pytest.raises(CorruptImage):
        load_image(small)  # a picture the models read must be able to show a table
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    long_chunk = tmp_path / "long.png"  # a chunk claiming 2 GB: refused, not allocated
    long_chunk.write_bytes(b"\x89PNG\r\n\x1a\n" + (2**31).to_bytes(4, "big") + b"IDAT" + b"x" * 8)
    for path in (bad, long_chunk, tmp_path / "none.png", tmp_path):
        with pytest.raises(ValueError, match=rf"{path.name}: not a readable image"):
            read_picture(path)


def test_empty_folder_and_missing_path(tmp_path: Path) -> None:
    with open_capture(tmp_path) as cap, pytest.raises(CaptureError, match="holds no images"):
        _drain(cap)
    with pytest.raises(FileNotFoundError, match="no such file, folder or camera"):
        open_capture(tmp_path / "missing.mp4")


def test_absent_camera_is_a_clear_error() -> None:
    with open_capture(63, reconnect_timeout=0) as cap, \
            pytest.raises(CaptureError, match="camera 63 could not be opened"):
        _drain(cap)


class FlakyCamera:
    """A simulated camera: gives ``first`` frames, vanishes for ``outage`` reopen attempts (or
    for good when None), then gives ``second`` frames."""

    live = True
    name = "camera sim"

    def __init__(self, first: int, outage: int | None, second: int = 0) -> None:
        self.first, self.outage, self.second = first, outage, second
        self.opens = 0
        self.sent = 0
        self.is_open = False

    def open(self) -> None:
        self.opens += 1
        if self.opens > 1 and (self.outage is None or self.opens <= 1 + self.outage):
            raise OSError("device not found")
        self.is_open = True

    def read(self):
        time.sleep(0.002)
        if not self.is_open:
            return None
        limit = self.first if self.opens == 1 else self.first + self.second
        if self.sent >= limit:
            return None  # the device stops giving frames
        self.sent += 1
        return np.full((16, 16, 3), self.sent, np.uint8), None, ""

    def close(self) -> None:
        self.is_open = False


def test_camera_that_comes_back_is_reconnected_and_reported() -> None:
    cam = FlakyCamera(first=3, outage=2, second=4)
    with open_capture(cam, queue_size=64, retry_interval=0.01, reconnect_timeout=5) as cap:
        frames: list[CapturedFrame] = []
        deadline = time.monotonic() + 5
        while len(frames) < 7 and time.monotonic() < deadline:
            f = cap.read(timeout=0.1)
            if f is not None:
                frames.append(f)
        kinds = [s.kind for s in cap.statuses()]
    assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2, 3, 4, 5, 6, 7]
    assert kinds[:3] == ["opened", "lost", "reconnected"]


def test_camera_that_vanishes_for_good_is_a_clear_error_and_never_blocks() -> None:
    cam = FlakyCamera(first=2, outage=None)
    with open_capture(cam, retry_interval=0.01, reconnect_timeout=0.3) as cap:
        got = 0
        t0 = time.monotonic()
        with pytest.raises(CaptureError, match="camera sim vanished and did not come back"):
            while time.monotonic() - t0 < 5:
                start = time.monotonic()
                f = cap.read(timeout=0.05)
                assert time.monotonic() - start < 0.5  # the caller is never frozen
                got += f is not None
    assert got == 2


def test_live_source_keeps_only_the_newest_frames() -> None:
    cam = FlakyCamera(first=50, outage=None)
    with open_capture(cam, queue_size=2, reconnect_timeout=0) as cap:
        time.sleep(1.0)  # the reader has long read all 50 frames, keeping the newest two
        first = cap.read(timeout=1)
    assert first is not None and int(first.image[0, 0, 0]) > 40


def test_corrupt_video_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(200))
    with open_capture(bad) as cap, pytest.raises(CaptureError, match=r"broken\.mp4 could not be "
                                                                     r"opened \(not a readable"):
        _drain(cap)


def test_truncated_video_ends_cleanly_with_what_it_had(tmp_path: Path) -> None:
    video = _write_video(tmp_path / "clip.avi", 20)
    data = video.read_bytes()
    video.write_bytes(data[: len(data) * 2 // 3])  # the recording was cut off
    with open_capture(video) as cap:
        frames = _drain(cap)
    assert 5 <= len(frames) < 20


class _MjpegServer:
    """A real HTTP camera stream (multipart JPEG, as IP cameras serve): each connection gets
    ``per_connection`` frames, then the server drops it."""

    def __init__(self, per_connection: int = 10) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 128, np.uint8))[1].tobytes()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                try:
                    for _ in range(per_connection):
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n"
                                         b"Content-Length: %d\r\n\r\n" % len(jpeg)
                                         + jpeg + b"\r\n")
                        time.sleep(0.01)
                except OSError:
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/cam.mjpg"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_http_camera_stream_drops_out_reconnects_then_vanishes() -> None:
    server = _MjpegServer(per_connection=10)
    try:
        with open_capture(server.url, queue_size=64, retry_interval=0.05,
                          reconnect_timeout=1.0) as cap:
            got = 0
            deadline = time.monotonic() + 20
            while got < 25 and time.monotonic() < deadline:  # more than one connection gives
                got += cap.read(timeout=0.2) is not None
            assert got >= 25
            server.stop()
            with pytest.raises(CaptureError, match="vanished and did not come back"):
                while time.monotonic() < deadline + 10:
                    cap.read(timeout=0.2)
            kinds = [s.kind for s in cap.statuses()]
    finally:
        server.server.server_close()
    assert kinds[0] == "opened" and "lost" in kinds and "reconnected" in kinds
    assert kinds[-1] == "failed"


def test_a_stream_server_that_never_answers_honours_the_timeout() -> None:
    """It accepts the connection and says nothing: FFmpeg alone would wait 30 s per step."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            while True:
                held.append(listener.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/x.mjpg"
    t0 = time.monotonic()
    try:
        with open_capture(url, reconnect_timeout=1.5, retry_interval=0.1) as cap, \
                pytest.raises(CaptureError, match=r"did not come back within 1\.5 s"):
            while time.monotonic() - t0 < 30:
                cap.read(timeout=0.2)
        assert time.monotonic() - t0 < 5
    finally:
        listener.close()
        for conn in held:
            conn.close()
