"""Camera and recognition off the GUI thread: frames, detections and status as Qt signals."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from ui.dashboard.camera_view import Overlay

LOW_CONFIDENCE = 0.5


def default_source() -> str:
    """The bundled sample video the demo plays."""
    import vision

    samples = Path(vision.__file__).resolve().parent / "samples"
    videos = sorted(samples.glob("*.mp4")) + sorted(samples.glob("*.avi"))
    if not videos:
        raise FileNotFoundError(f"no sample video in {samples}")
    return str(videos[0])


def overlays_from(dets: Any) -> list[Overlay]:
    """Boxes to draw from a ``TileDetections`` (labels, confidence, seat when known)."""
    out = []
    labels = dets.labels()
    for i in range(len(dets)):
        conf = float(dets.confidence[i])
        seat = int(dets.seat[i]) if len(dets.seat) and dets.seat[i] >= 0 else None
        box = (float(dets.xyxy[i][0]), float(dets.xyxy[i][1]), float(dets.xyxy[i][2]),
               float(dets.xyxy[i][3]))
        out.append(Overlay(box, labels[i], conf, seat, conf < LOW_CONFIDENCE, key=i))
    return out


class CameraWorker(QThread):
    """Reads the source, runs the detector and hands each result to the GUI thread."""

    frameReady = Signal(object, object)  # image (BGR ndarray), list[Overlay]
    status = Signal(str, str)  # kind ("opened", "lost", "reconnected", "ended", ...), message
    reading = Signal(object)  # the pipeline's per-frame result, for hand states and dice

    def __init__(self, source: Any, loop: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.loop = loop
        self._stop = False

    def stop(self) -> None:
        self._stop = True
        self.wait(3000)

    def run(self) -> None:
        from vision.capture import CaptureEnded, CaptureError, open_capture
        from vision.detector import load_detector

        try:
            detector = load_detector()
        except Exception as exc:  # no models: show the frames anyway, and say why
            detector = None
            self.status.emit("failed", f"detector unavailable: {exc}")
        while not self._stop:
            try:
                capture = open_capture(self.source, realtime=True)
            except (CaptureError, OSError, ValueError) as exc:
                self.status.emit("failed", str(exc))
                return
            try:
                while not self._stop:
                    for st in capture.statuses():
                        self.status.emit(st.kind, st.message)
                    frame = capture.read(timeout=0.5)
                    if frame is None:
                        continue
                    overlays: list[Overlay] = []
                    if detector is not None:
                        dets = detector.detect(frame.image)
                        overlays = overlays_from(dets)
                        self.reading.emit(dets)
                    self.frameReady.emit(frame.image, overlays)
            except CaptureEnded:
                self.status.emit("ended", "the video ended" + (", replaying" if self.loop
                                                               else ""))
            except CaptureError as exc:
                self.status.emit("failed", str(exc))
                return
            finally:
                capture.close()
            if not self.loop:
                return
            time.sleep(0.2)
