"""The product's eyes: camera frames to tiles, dice, seats, hand records and events.

Runs on onnxruntime (or OpenVINO, the ``openvino`` extra: ``vision.backends``) + OpenCV + numpy
and imports ``scoring``; no Qt. Importing this package
is cheap: the names below load their module on first use.

The API the dashboard uses::

    from vision import Pipeline, open_capture, load_detector, read_image

    detector = load_detector()                  # models/detector.onnx (+ classifier, dice)
    pipe = Pipeline(0, detector, ruleset="shanghai", dealer=0, stable_s=0.2,
                    corners=saved_corners, bottom_seat=0)   # or Pipeline(0, models=DIR)
    for result in pipe.frames():                # one FrameResult per camera frame (blocks);
                                                #   a GUI timer calls pipe.poll(0.02) instead
        result.frame.image                      # BGR picture, result.frame.timestamp
        result.detections                       # TileDetections: xyxy, class_id, confidence,
                                                #   topk_ids/probs, face, seat, role, group
        result.hands                            # stable SeatState per seat (None: not yet)
        result.dice                             # stable DiceReading (faces, total, wall_break)
        result.events                           # VisionEvent: match-engine events + "hand",
                                                #   "repaired"; result.statuses: camera changes
    pipe.waits(result)                          # 听 per seat showing 13 tiles
    pipe.hand_record(result)                    # the hand record for scoring, + assumptions

- :func:`open_capture` (``vision.capture``): webcam index, video file, RTSP/HTTP URL or image
  folder, read by a thread into a bounded queue; ``read(timeout)`` never blocks longer;
  reconnects a live source and reports each change as a ``CaptureStatus``.
- :func:`load_detector` / :class:`Detector` (``vision.detector``): single-stage or two-stage
  (coarse detector + batched crop classifier), read from the ONNX metadata; returns
  :class:`TileDetections` in original-image pixels. ``load_detector(stills=True)`` for unrelated
  photos (each chooses its own input size); the default suits the frames of one camera.
  ``backend="onnxruntime"|"openvino"|"auto"`` (default ``$MJTABLE_BACKEND`` or auto: OpenVINO
  when installed).
- :class:`Pipeline` analyses only where the picture changed (``vision.changes``: a change mask,
  the detector on windows around the changes, the other boxes kept with their classes);
  ``Pipeline(motion=-1)`` analyses every frame in full.
- :func:`read_image` (``vision.reading``): one photo to a validated hand record, with the tiles a
  repair changed, waits per seat and the dice.
- :class:`TableCalibration` / :func:`find_table_corners` (``vision.geometry``): the table's
  corners given (bottom-left, bottom-right, top-right, top-left of the picture) with the seat at
  the bottom edge, or found, or estimated from the tiles; ``to_json`` / ``from_json`` save a
  rig's calibration (``mjtable read|watch --calibration FILE``).
- Events (``VisionEvent.to_json()``): ``dice``, ``wall_broken``, ``indicator``, ``flower``,
  ``discard``, ``chow``, ``pung``, ``kong``, ``win`` in the match engine's own JSON form
  (``scoring.match.events``), plus ``hand`` (a seat's stable state), ``discards_seen`` and
  ``repaired`` (tiles the legal-reading repair changed).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Capture": "vision.capture", "CaptureError": "vision.capture",
    "CaptureEnded": "vision.capture", "CaptureStatus": "vision.capture",
    "CapturedFrame": "vision.capture", "open_capture": "vision.capture",
    "load_image": "vision.capture",
    "Detector": "vision.detector", "load_detector": "vision.detector",
    "TileDetections": "vision.detections",
    "TableCalibration": "vision.geometry", "find_table_corners": "vision.geometry",
    "read_table": "vision.geometry",
    "DiceReading": "vision.dice", "read_dice": "vision.dice",
    "ImageReading": "vision.reading", "read_image": "vision.reading",
    "read_detections": "vision.reading", "SeatState": "vision.reading",
    "Pipeline": "vision.pipeline", "FrameResult": "vision.pipeline",
    "VisionEvent": "vision.stability",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
