"""Static int8 quantization of a detector ONNX with its box/score decoding kept in float.

Quantizing the whole graph returns no detections: the decode tail (DFL softmax, anchor
arithmetic, class sigmoid) loses everything in int8. Everything after the head's last
convolutions (``/model.N/`` nodes that are not inside ``cv2``/``cv3`` branches) stays float.
Calibration uses real images letterboxed exactly as at inference. Needs onnxruntime only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np


def decode_nodes(model_path: Path) -> list[str]:
    """Names of the detect head's decoding nodes (kept in float)."""
    import onnx

    model = onnx.load(str(model_path))
    heads = sorted({int(m.group(1)) for n in model.graph.node
                    if (m := re.match(r"/model\.(\d+)/", n.name))})
    if not heads:
        raise ValueError(f"{model_path}: no /model.N/ nodes; not an ultralytics export")
    head = f"/model.{heads[-1]}/"
    return [n.name for n in model.graph.node
            if n.name.startswith(head) and not re.match(rf"{re.escape(head)}cv[23]\.", n.name)]


def quantize_detector(model_path: Path, out: Path, images: list[Path], size: int) -> Path:
    """Write an int8 (QDQ, per-channel) copy of ``model_path`` calibrated on ``images``."""
    import cv2
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from vision.detector import letterbox, to_tensor

    if not images:
        raise ValueError("quantization needs calibration images")

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.it: Iterator[Path] = iter(images)

        def get_next(self) -> dict[str, np.ndarray] | None:
            path = next(self.it, None)
            if path is None:
                return None
            img = cv2.imread(str(path))
            if img is None:
                raise ValueError(f"{path}: not a readable image")
            return {"images": to_tensor([letterbox(img, (size, size))[0]])}

    pre = out.with_suffix(".pre.onnx")
    quant_pre_process(str(model_path), str(pre))
    quantize_static(str(pre), str(out), Reader(), quant_format=QuantFormat.QDQ,
                    per_channel=True, weight_type=QuantType.QInt8,
                    activation_type=QuantType.QUInt8, nodes_to_exclude=decode_nodes(pre))
    pre.unlink()
    import onnx

    src, dst = onnx.load(str(model_path)), onnx.load(str(out))
    del dst.metadata_props[:]
    dst.metadata_props.extend(src.metadata_props)  # names, imgsz, task for the runtime
    onnx.save(dst, str(out))
    return out
