"""Camera and recognition off the GUI thread: frames, detections and status as Qt signals."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from ui.dashboard.camera_reading import tile_refs
from ui.dashboard.camera_view import Overlay, display_image
from vision.stability import STABLE_READINGS, STABLE_S
from vision.unsure import is_unsure, topk_of


def default_source() -> str:
    """The bundled sample video the demo plays."""
    import vision

    samples = Path(vision.__file__).resolve().parent / "samples"
    videos = sorted(samples.glob("*.mp4")) + sorted(samples.glob("*.avi"))
    if not videos:
        raise FileNotFoundError(f"no sample video in {samples}")
    return str(videos[0])


def overlays_from(dets: Any) -> list[Overlay]:
    """Boxes to draw from a ``TileDetections`` (labels, confidence, seat, top-k readings)."""
    out = []
    labels = dets.labels
    for i in range(len(dets)):
        conf = float(dets.confidence[i])
        seat = int(dets.seat[i]) if len(dets.seat) and dets.seat[i] >= 0 else None
        box = (float(dets.xyxy[i][0]), float(dets.xyxy[i][1]), float(dets.xyxy[i][2]),
               float(dets.xyxy[i][3]))
        out.append(Overlay(box, labels[i], conf, seat, is_unsure(dets, i), key=i,
                           topk=tuple(topk_of(dets, i))))
    return out


class CameraWorker(QThread):
    """Runs the vision pipeline on the source and hands results to the GUI thread.

    Frames are offered to the GUI one at a time: while the last picture has not been shown
    (:meth:`frame_shown`), newer ones are dropped, so a slow paint never queues seconds of
    video. Readings that carry events always go through. Without models the video still plays
    (no detections) and the reason shows as status.
    """

    frameReady = Signal(object, object, object)  # QImage (shrunk), list[Overlay], (w, h)
    status = Signal(str, str)  # kind ("opened", "lost", "reconnected", "ended", ...), message
    reading = Signal(object, object)  # vision.pipeline.FrameResult, waits per seat

    def __init__(self, source: Any, ruleset: str | None = None,
                 options: dict[str, Any] | None = None, dealer: int = 0,
                 loop: bool = True, realtime: bool = True, models: str | Path | None = None,
                 bottom_seat: int = 0, detector: Any = None,
                 stable_s: float = STABLE_S, stable_readings: int = STABLE_READINGS,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.ruleset = ruleset
        self.options = dict(options or {})
        self.dealer = dealer
        self.loop = loop
        self.realtime = realtime
        self.models = models
        self.bottom_seat = bottom_seat
        self.detector = detector
        self.stable_s, self.stable_readings = stable_s, stable_readings
        self.frames_done = 0
        self.frames_shown = 0
        self._stop = False
        self._in_flight = False

    def stop(self) -> None:
        self._stop = True
        self.wait(5000)

    def frame_shown(self) -> None:
        """The GUI painted the last frame: the next one may be sent."""
        self._in_flight = False
        self.frames_shown += 1

    def _offer_frame(self, image: Any, overlays: list[Overlay]) -> None:
        if not self._in_flight:
            self._in_flight = True
            self.frameReady.emit(display_image(image), overlays, (image.shape[1], image.shape[0]))

    def run(self) -> None:
        from vision.capture import CaptureError

        detector = self.detector
        if detector is None:
            from vision.detector import load_detector

            try:
                detector = load_detector(self.models)
            except Exception as exc:  # status, not a dialog: the video plays without readings
                self.status.emit("no_models", str(exc))
        try:
            while not self._stop:
                if detector is None:
                    self._play(self.source)
                else:
                    self._recognize(detector)
                if self._stop:
                    return
                if not self.loop:
                    self.status.emit("finished", "the video ended")
                    return
                self.status.emit("ended", "the video ended; replaying")
                time.sleep(0.2)
        except CaptureError as exc:
            self.status.emit("failed", str(exc))
        except Exception as exc:  # a bug or a bad model must not die silently in a thread
            self.status.emit("failed", f"{type(exc).__name__}: {exc}")

    def _play(self, source: Any) -> None:
        """The video alone, for a window without models."""
        from vision.capture import open_capture

        cap = open_capture(source, realtime=self.realtime)
        try:
            for frame in cap:
                for st in cap.statuses():
                    if st.kind != "ended":  # said once the last frame is shown (run)
                        self.status.emit(st.kind, st.message)
                self._offer_frame(frame.image, [])
                self.frames_done += 1
                if self._stop:
                    break
        finally:
            cap.close()

    def _recognize(self, detector: Any) -> None:
        from vision.pipeline import Pipeline

        pipeline = Pipeline(self.source, detector, ruleset=self.ruleset, options=self.options,
                            dealer=self.dealer,
                            bottom_seat=self.bottom_seat,
                            stable_s=self.stable_s, stable_readings=self.stable_readings,
                            capture_options={"realtime": self.realtime})
        try:
            for n, result in enumerate(pipeline.frames()):
                for st in result.statuses:
                    if st.kind != "ended":  # the reader is ahead: said after the last frame
                        self.status.emit(st.kind, st.message)
                if not self._in_flight:
                    refs = tile_refs(result)
                    overlays = [dataclasses.replace(o, key=refs.get(int(o.key)))  # type: ignore[call-overload]
                                for o in overlays_from(result.detections)]
                    self._offer_frame(result.frame.image, overlays)
                if result.events or n % 10 == 0:  # the seats change only with events
                    self.reading.emit(result, pipeline.waits(result))
                self.frames_done += 1
                if self._stop:
                    break
        finally:
            pipeline.close()
