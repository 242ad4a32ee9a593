"""Frames from a webcam, a video file, an RTSP/HTTP stream or a folder of images, one interface.

:func:`open_capture` picks the source from its description and starts a reader thread that feeds a
bounded queue, so the caller never blocks on a camera: :meth:`Capture.read` waits at most its
timeout. A live source (camera, stream) that drops out is reopened until ``reconnect_timeout``
passes; every change is reported as a :class:`CaptureStatus`. Files are read without losing
frames; live sources keep only the newest frames so the picture never lags.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

#: the largest picture decoded (8K is 33 MP): a damaged or hostile header claiming 30000x30000
#: would otherwise make the decoder allocate and fill gigabytes. OpenCV reads the variable at
#: its first decode, so setting it here (before any) is enough.
MAX_PIXELS = 40_000_000
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
STREAM_PREFIXES = ("rtsp://", "rtsps://", "http://", "https://", "rtmp://", "udp://", "tcp://")


class CaptureError(OSError):
    """A source that cannot give frames: the message names the source and what happened."""


class CaptureEnded(CaptureError):
    """A finite source (video file, folder) has no more frames."""


class CorruptImage(CaptureError):
    """One image that cannot be decoded."""


class UnusableImage(CorruptImage):
    """One image that decodes but that the models cannot read (a 1x2000 strip, no colour)."""


MIN_SIDE = 16  # pixels: less holds no tile
MAX_ASPECT = 8.0  # a table picture is at most a wide panorama, not a strip


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunks_fit(data: bytes) -> bool:
    """Does every PNG chunk's length fit in the file? OpenCV's reader allocates what a chunk
    claims before reading it: a damaged length of 2**31 costs 2 GB and seconds."""
    i = len(PNG_SIGNATURE)
    while i + 8 <= len(data):
        length = int.from_bytes(data[i:i + 4], "big")
        if length > len(data) - i - 12:
            return False
        if data[i + 4:i + 8] == b"IEND":
            return True
        i += 12 + length
    return True  # a file cut short fails in the decoder, cheaply


def check_image(image: np.ndarray, name: str) -> np.ndarray:
    """``image`` if the pipeline can read it; :class:`UnusableImage` naming why otherwise.

    One bad frame must not stop a batch or a stream: the callers report it and go on.
    """
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise UnusableImage(f"{name}: not an 8-bit colour picture (shape {image.shape}, "
                            f"{image.dtype})")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE or max(h, w) > MAX_ASPECT * min(h, w):
        raise UnusableImage(f"{name}: a {w}x{h} picture cannot show a table (each side at "
                            f"least {MIN_SIDE} px, at most {MAX_ASPECT:g}:1)")
    return image


@dataclass(frozen=True)
class CapturedFrame:
    """One picture and when it was taken.

    ``timestamp`` is the wall-clock time (seconds since the epoch) the frame was grabbed;
    ``position`` the time within a video file (seconds) or ``None`` for live sources and images.
    """

    image: np.ndarray  # BGR uint8 (H, W, 3)
    index: int
    timestamp: float
    position: float | None = None
    name: str = ""

    @property
    def time(self) -> float:
        """Camera time in seconds, for durations: the position within a video file (so a file
        read faster or slower than it plays gives the same readings), else the wall clock."""
        return self.timestamp if self.position is None else self.position


@dataclass(frozen=True)
class CaptureStatus:
    """A change in the source: ``opened``, ``lost``, ``reconnected``, ``skipped``, ``ended`` or
    ``failed``, with a sentence for the user."""

    kind: str
    message: str
    timestamp: float


def load_image(path: str | Path) -> np.ndarray:
    """A BGR image from a file; clear errors for a missing, unreadable or corrupt file."""
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such image file")
    if p.is_dir():
        raise IsADirectoryError(f"{p}: is a folder, not an image")
    return decode_image(np.fromfile(str(p), dtype=np.uint8), str(p))


def read_picture(path: str | Path) -> np.ndarray:
    """A BGR picture of any size from a file, for the training tools (a tile crop, a face, a
    labeled photo): one ``ValueError`` naming the file when it is missing or cannot be
    decoded (``datasets`` imports only ``scoring`` and keeps its own check). A picture the
    models are to read comes through :func:`load_image`, which also checks that it can show
    a table."""
    try:
        return _decoded(np.fromfile(str(path), dtype=np.uint8), str(path))
    except OSError:  # no such file, a folder, or CorruptImage
        raise ValueError(f"{path}: not a readable image") from None


def decode_image(data: bytes | np.ndarray, name: str) -> np.ndarray:
    """A BGR image from a file's bytes, checked by :func:`check_image`; :class:`CorruptImage`."""
    return check_image(_decoded(data, name), name)


def _decoded(data: bytes | np.ndarray, name: str) -> np.ndarray:
    """A BGR image from a file's bytes, any size; :class:`CorruptImage`."""
    buf = np.frombuffer(data, np.uint8) if isinstance(data, bytes | bytearray) else data
    head = buf[:8].tobytes()
    if head == PNG_SIGNATURE and not _png_chunks_fit(buf.tobytes()):
        raise CorruptImage(f"{name}: cannot decode the image (a PNG chunk runs past the end of "
                           "the file)")
    try:
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR) if buf.size else None
    except cv2.error as exc:  # some damaged headers make a decoder assert instead of failing
        raise CorruptImage(f"{name}: cannot decode the image ({exc.msg or exc})") from None
    if image is None:
        raise CorruptImage(f"{name}: cannot decode the image (corrupt, truncated or not an "
                           "image)")
    return image


# ---------------------------------------------------------------- sources


class FrameSource(Protocol):
    """What the reader thread needs from a source. ``read`` returns ``None`` when the source has
    no frame now (a live source dropped out, a file ended)."""

    name: str
    live: bool

    def open(self) -> None: ...

    def read(self) -> tuple[np.ndarray, float | None, str] | None: ...

    def close(self) -> None: ...


class VideoSource:
    """A camera index, a stream URL or a video file, through OpenCV's ``VideoCapture``."""

    def __init__(self, target: int | str, live: bool) -> None:
        self.target = target
        self.live = live
        if isinstance(target, int):
            self.name = f"camera {target}"
        else:
            self.name = f"stream {target}" if live else f"video {target}"
        self._cap: cv2.VideoCapture | None = None
        #: seconds one open or read of a stream URL may block (FFmpeg's own default is 30 s
        #: per step, which made a server that accepts and never answers take a minute)
        self.timeout = 10.0

    def open(self) -> None:
        if not self.live and not Path(str(self.target)).is_file():
            raise FileNotFoundError(f"{self.target}: no such video file")
        if self.live and isinstance(self.target, str):
            ms = max(1, round(self.timeout * 1000))
            cap = cv2.VideoCapture(self.target, cv2.CAP_FFMPEG,
                                   [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms,
                                    cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms])
        else:
            cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            what = "not connected or busy" if isinstance(self.target, int) else \
                "unreachable or not a video" if self.live else "not a readable video"
            raise CaptureError(f"{self.name} could not be opened ({what})")
        if self.live:
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap = cap

    def read(self) -> tuple[np.ndarray, float | None, str] | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        position = None if self.live else self._cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        return image, position, ""

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageFilesSource:
    """A folder of images (sorted by name) or a list of image files, read once each."""

    live = False

    def __init__(self, paths: list[Path], name: str) -> None:
        self.paths = paths
        self.name = name
        self._next = 0

    def open(self) -> None:
        if not self.paths:
            raise CaptureError(f"{self.name} holds no images "
                               f"({', '.join(sorted(IMAGE_SUFFIXES))})")
        self._next = 0

    def read(self) -> tuple[np.ndarray, float | None, str] | None:
        if self._next >= len(self.paths):
            return None
        path = self.paths[self._next]
        self._next += 1
        return load_image(path), None, str(path)  # CorruptImage is reported and skipped

    def close(self) -> None:
        pass


def source_for(source: int | str | Path | FrameSource) -> FrameSource:
    """The source a description names: ``0`` (webcam index), ``rtsp://...``, ``http://...``, a
    video file, an image file or a folder of images."""
    if not isinstance(source, int | str | Path):
        return source
    if isinstance(source, int) or (isinstance(source, str) and source.strip().isdigit()):
        return VideoSource(int(source), live=True)
    text = str(source)
    if text.lower().startswith(STREAM_PREFIXES):
        return VideoSource(text, live=True)
    path = Path(text)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        return ImageFilesSource(files, f"folder {path}")
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file, folder or camera")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFilesSource([path], f"image {path}")
    return VideoSource(text, live=False)


# ---------------------------------------------------------------- the threaded reader


class Capture:
    """Frames of one source, read by a background thread into a bounded queue.

    Args:
        source: what :func:`source_for` accepts, or a :class:`FrameSource`.
        queue_size: frames held for the caller; a live source drops the oldest when full.
        reconnect_timeout: how long a live source is retried after it drops out (0: give up).
        retry_interval: seconds between reopen attempts.
        realtime: pace a video file at its own frame rate (a demo); default: as fast as read.
    """

    def __init__(self, source: int | str | Path | FrameSource, *, queue_size: int = 4,
                 reconnect_timeout: float = 10.0, retry_interval: float = 0.5,
                 realtime: bool = False) -> None:
        self.source = source_for(source)
        self.name = self.source.name
        self._queue: queue.Queue[CapturedFrame | BaseException] = queue.Queue(
            maxsize=max(1, queue_size))
        self._status: list[CaptureStatus] = []
        self._status_lock = threading.Lock()
        self._stop = threading.Event()
        self._reconnect_timeout = reconnect_timeout
        self._retry_interval = retry_interval
        self._realtime = realtime
        self._finished: BaseException | None = None
        self.frames_read = 0
        self.frames_skipped = 0  # images or frames reported as ``skipped``
        self._thread = threading.Thread(target=self._run, name=f"capture {self.name}",
                                        daemon=True)
        self._thread.start()

    # -- caller side

    def read(self, timeout: float = 1.0) -> CapturedFrame | None:
        """The next frame, or ``None`` if none came within ``timeout`` seconds.

        Raises :class:`CaptureEnded` when a file or folder is finished and
        :class:`CaptureError` when the source failed, once every earlier frame was read.
        """
        if self._finished is not None:
            raise self._finished
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(item, BaseException):
            self._finished = item
            raise item
        return item

    def __iter__(self) -> Iterator[CapturedFrame]:
        """Every frame until the source ends (then stops) or fails (then raises)."""
        while True:
            try:
                frame = self.read(timeout=0.5)
            except CaptureEnded:
                return
            if frame is not None:
                yield frame

    def statuses(self) -> list[CaptureStatus]:
        """Status changes since the last call (oldest first)."""
        with self._status_lock:
            out, self._status = self._status, []
        return out

    def close(self) -> None:
        """Stop the reader thread and release the source."""
        self._stop.set()
        self._thread.join(timeout=5.0)

    def __enter__(self) -> Capture:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reader thread

    def _report(self, kind: str, message: str) -> None:
        with self._status_lock:
            self._status.append(CaptureStatus(kind, message, time.time()))
            del self._status[:-100]  # a caller that never looks keeps only the latest

    def skip(self, message: str) -> None:
        """Count and report a frame that cannot be used (the source goes on)."""
        with self._status_lock:
            self.frames_skipped += 1
        self._report("skipped", message)

    def _put(self, item: CapturedFrame | BaseException) -> None:
        final = isinstance(item, BaseException)
        while not self._stop.is_set():
            if self.source.live and not final:
                if self._queue.full():
                    with contextlib.suppress(queue.Empty):
                        self._queue.get_nowait()  # live: the newest frame matters most
                try:
                    self._queue.put_nowait(item)
                    return
                except queue.Full:
                    continue
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def _run(self) -> None:
        try:
            self._open_first()
            self._loop()
        except BaseException as exc:  # handed to the caller, never lost
            if not isinstance(exc, CaptureEnded):
                self._report("failed", str(exc))
            self._put(exc)
        finally:
            self.source.close()

    def _open_first(self) -> None:
        deadline = time.monotonic() + self._reconnect_timeout
        self._limit_open(deadline)
        try:
            self.source.open()
        except (OSError, cv2.error) as exc:
            if not self.source.live or self._reconnect_timeout <= 0:
                raise CaptureError(str(exc)) if isinstance(exc, cv2.error) else exc from None
            self._report("lost", f"{self.name}: {exc}; retrying")
            self._reconnect(deadline)
        self._report("opened", f"{self.name} opened")

    def _limit_open(self, deadline: float) -> None:
        """A stream's next open may block only until ``deadline`` (the stated timeout)."""
        if isinstance(self.source, VideoSource):
            left = deadline - time.monotonic()
            self.source.timeout = max(0.5, left if self._reconnect_timeout > 0 else 10.0)

    def _loop(self) -> None:
        interval = self._frame_interval()
        next_due = time.monotonic()
        while not self._stop.is_set():
            try:
                got = self.source.read()
                if got is not None:
                    check_image(got[0], got[2] or f"{self.name} frame {self.frames_read}")
            except CorruptImage as exc:
                self.skip(str(exc))
                continue
            if got is None:
                if not self.source.live:
                    self._report("ended", f"{self.name} ended after {self.frames_read} frames")
                    raise CaptureEnded(f"{self.name} ended after {self.frames_read} frames")
                self._report("lost", f"{self.name} stopped giving frames; reconnecting")
                self.source.close()
                self._reconnect()
                continue
            image, position, name = got
            self._put(CapturedFrame(image=image, index=self.frames_read, timestamp=time.time(),
                            position=position, name=name))
            self.frames_read += 1
            if interval:
                next_due += interval
                delay = next_due - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)

    def _frame_interval(self) -> float:
        if not self._realtime or not isinstance(self.source, VideoSource) or self.source.live:
            return 0.0
        cap = self.source._cap
        fps = cap.get(cv2.CAP_PROP_FPS) if cap is not None else 0.0
        return 1.0 / fps if fps and fps > 0 else 0.0

    def _reconnect(self, deadline: float | None = None) -> None:
        if deadline is None:
            deadline = time.monotonic() + self._reconnect_timeout
        attempts = 0
        last = ""
        while not self._stop.is_set():
            attempts += 1
            self._limit_open(deadline)
            try:
                self.source.open()
                self._report("reconnected", f"{self.name} back after {attempts} attempt(s)")
                return
            except (OSError, cv2.error) as exc:
                last = str(exc)
            if time.monotonic() >= deadline:
                raise CaptureError(f"{self.name} vanished and did not come back within "
                                   f"{self._reconnect_timeout:g} s ({last})")
            self._stop.wait(self._retry_interval)
        raise CaptureEnded(f"{self.name} closed")


def open_capture(source: int | str | Path | FrameSource, **options: object) -> Capture:
    """Start reading ``source`` (see :class:`Capture` for the options)."""
    return Capture(source, **options)  # type: ignore[arg-type]
