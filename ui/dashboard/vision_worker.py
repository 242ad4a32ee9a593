"""Camera and recognition off the GUI thread: frames, detections and status as Qt signals."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from scoring.record import Seat
from ui.dashboard.camera_view import Overlay
from ui.dashboard.core import TileRef

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


def suggestions_from(result: Any) -> dict[TileRef, list[tuple[int, float]]]:
    """Each standing tile's top-k readings, keyed by where it sits in its seat's hand."""
    dets = result.detections
    out: dict[TileRef, list[tuple[int, float]]] = {}
    for seat in result.table.seats:
        for i, row in enumerate(seat.hand_rows):
            ids = dets.topk_ids[row] if len(dets.topk_ids) else []
            probs = dets.topk_probs[row] if len(dets.topk_probs) else []
            top = [(int(t), float(p)) for t, p in zip(ids, probs, strict=False) if 0 <= t < 42]
            if top and float(dets.confidence[row]) < LOW_CONFIDENCE:
                out[TileRef(seat.seat, "concealed", i)] = top
    return out


def live_seats(result: Any) -> list[Seat]:
    """What each seat shows right now, as scoring's Seat (hidden hands stay empty)."""
    from vision.reading import scoring_melds

    seats = []
    for s in result.table.seats:
        seats.append(Seat(concealed=() if s.hidden else tuple(s.hand),
                          melds=scoring_melds(s.melds, s.seat), flowers=tuple(s.flowers)))
    return seats


def tile_refs(result: Any) -> dict[int, TileRef]:
    """Detection row -> where that tile sits, so clicking a box corrects the right tile."""
    refs: dict[int, TileRef] = {}
    for s in result.table.seats:
        for i, row in enumerate(s.hand_rows):
            refs[row] = TileRef(s.seat, "concealed", i)
        for i, row in enumerate(s.flower_rows):
            refs[row] = TileRef(s.seat, "flowers", i)
    return refs


class CameraWorker(QThread):
    """Runs the vision pipeline on the source and hands each result to the GUI thread."""

    frameReady = Signal(object, object)  # image (BGR ndarray), list[Overlay]
    status = Signal(str, str)  # kind ("opened", "lost", "reconnected", "ended", ...), message
    reading = Signal(object, object)  # vision.pipeline.FrameResult, waits per seat

    def __init__(self, source: Any, ruleset: str | None = None, dealer: int = 0,
                 loop: bool = True, realtime: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.ruleset = ruleset
        self.dealer = dealer
        self.loop = loop
        self.realtime = realtime
        self.frames_done = 0
        self._stop = False

    def stop(self) -> None:
        self._stop = True
        self.wait(5000)

    def run(self) -> None:
        from vision.capture import CaptureError
        from vision.detector import load_detector
        from vision.pipeline import Pipeline

        try:
            detector = load_detector()
        except Exception as exc:  # shown as status: the window keeps working without a camera
            self.status.emit("failed", f"models unavailable: {exc}")
            return
        while not self._stop:
            pipeline = Pipeline(self.source, detector, ruleset=self.ruleset, dealer=self.dealer,
                                capture_options={"realtime": self.realtime})
            try:
                for result in pipeline.frames():
                    for st in result.statuses:
                        self.status.emit(st.kind, st.message)
                    refs = tile_refs(result)
                    overlays = [dataclasses.replace(o, key=refs.get(o.key))
                                for o in overlays_from(result.detections)]
                    self.frameReady.emit(result.frame.image, overlays)
                    self.reading.emit(result, pipeline.waits(result))
                    self.frames_done += 1
                    if self._stop:
                        break
            except CaptureError as exc:
                self.status.emit("failed", str(exc))
                return
            finally:
                pipeline.close()
            if not self.loop or self._stop:
                return
            self.status.emit("ended", "the video ended; replaying")
            time.sleep(0.2)
