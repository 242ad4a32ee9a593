"""Small ONNX models built in the test, so letterbox, decoding, NMS and classifier batching are
checked exactly, independent of any trained weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from scoring.tiles import TILE_NAMES

# every name a generator manifest's objects can take, as a single-stage detector's classes
MANIFEST_NAMES = [*TILE_NAMES, "tile_back", *(f"die{k}" for k in range(1, 7))]


def _save(graph: onnx.GraphProto, path: Path, meta: dict[str, str]) -> Path:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    for k, v in meta.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = k, v
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def _rows_output(rows: list[tuple[float, ...]], nc: int, n_anchors: int) -> np.ndarray:
    """(1, 4 + nc, n_anchors): ``rows`` as a detector's raw output (see :func:`fixed_detector`)."""
    out = np.zeros((1, 4 + nc, n_anchors), np.float32)
    for j, row in enumerate(rows):
        out[0, :4, j] = row[:4]
        if len(row) == 6:
            out[0, 4 + int(row[4]), j] = row[5]
        else:
            out[0, 4:, j] = row[4:]
    return out


def _wider_than(least: int, out: str) -> list[onnx.NodeProto]:
    """Nodes setting ``out`` to whether the input ``images`` is at least ``least`` px wide."""
    return [
        helper.make_node("Shape", ["images"], ["shape"]),
        helper.make_node("Constant", [], ["three"],
                         value=numpy_helper.from_array(np.array(3, np.int64), "three")),
        helper.make_node("Gather", ["shape", "three"], ["width"], axis=0),
        helper.make_node("Constant", [], ["least"],
                         value=numpy_helper.from_array(np.array(least, np.int64), "least")),
        helper.make_node("GreaterOrEqual", ["width", "least"], [out]),
    ]


def _plus_input(src: str, out: str) -> list[onnx.NodeProto]:
    """Nodes setting ``out`` to ``src + 0 * mean(images)``: the graph is a real function of its
    input, so onnxruntime cannot fold it away."""
    return [
        helper.make_node("ReduceMean", ["images"], ["m"], keepdims=0),
        helper.make_node("Constant", [], ["z"],
                         value=numpy_helper.from_array(np.zeros((), np.float32), "z")),
        helper.make_node("Mul", ["m", "z"], ["mz"]),
        helper.make_node("Add", [src, "mz"], [out]),
    ]


def _detector(path: Path, name: str, nodes: list[onnx.NodeProto], names: list[str],
              size: int, n_anchors: int, dynamic: bool) -> Path:
    """A detect model of ``nodes`` (input ``images``, output ``output0``) with ultralytics'
    metadata, saved at ``path``."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("images", TensorProto.FLOAT,
                                       ["batch", 3, "height", "width"] if dynamic
                                       else [1, 3, size, size])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT,
                                       [1, 4 + len(names), n_anchors])])
    meta = {"names": repr(dict(enumerate(names))), "imgsz": f"[{size}, {size}]",
            "stride": "32", "task": "detect"}
    return _save(graph, path, meta)


def fixed_detector(path: Path, names: list[str], rows: list[tuple[float, ...]],
                   size: int = 640, n_anchors: int = 64, dynamic: bool = False,
                   blind_below: int = 0, seen_always: int = 0) -> Path:
    """A detector that ignores its input and outputs ``rows`` (cx, cy, w, h, class, score...).

    ``dynamic``: the input's batch, height and width are free, as ``export --dynamic`` makes them.
    ``blind_below``: every score but those of the first ``seen_always`` rows is 0 for an input
    less than this many pixels wide (a model that sees more at a larger size).

    Each row is ``(cx, cy, w, h, cls, score)`` or ``(cx, cy, w, h, scores...)`` with one score per
    class; remaining anchors score 0. Output (1, 4 + nc, n_anchors), as ultralytics exports.
    """
    out = _rows_output(rows, len(names), n_anchors)
    nodes = [helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(out, "c")),
             *_plus_input("c", "out"),
             # out * max(width >= blind_below, seen always)
             *_wider_than(blind_below, "sees"),
             helper.make_node("Cast", ["sees"], ["gate"], to=TensorProto.FLOAT),
             helper.make_node("Constant", [], ["always"], value=numpy_helper.from_array(
                 (np.arange(n_anchors) < seen_always).astype(np.float32)[None, None], "al")),
             helper.make_node("Max", ["gate", "always"], ["gain"]),
             helper.make_node("Mul", ["out", "gain"], ["output0"])]
    return _detector(path, "fixed_detector", nodes, names, size, n_anchors, dynamic)


def two_scale_detector(path: Path, names: list[str], large: list[tuple[float, ...]],
                       small: list[tuple[float, ...]], split: int, size: int = 320,
                       n_anchors: int = 64) -> Path:
    """A dynamic detector that ignores its input's pixels and outputs the ``large`` rows for an
    input at least ``split`` px wide and the ``small`` rows for a narrower one (a model that
    boxes a thing otherwise at another scale); rows as :func:`fixed_detector`'s."""
    nodes = [helper.make_node("Constant", [], [name], value=numpy_helper.from_array(
        _rows_output(rows, len(names), n_anchors), name))
        for name, rows in (("big", large), ("little", small))]
    nodes += [*_wider_than(split, "wide"),
              helper.make_node("Where", ["wide", "big", "little"], ["chosen"]),
              *_plus_input("chosen", "output0")]
    return _detector(path, "two_scale_detector", nodes, names, size, n_anchors, True)


def centre_pixel_classifier(path: Path, names: list[str], size: int = 64,
                            batch: int | str = "batch", sharpness: float = 4.0) -> Path:
    """A classifier whose answer is written in the crop: class ``round(R * (nc - 1))`` where R
    is the red value (0..1) of the crop's centre pixel; output softmax probabilities (B, nc),
    the surer the higher ``sharpness``."""
    nc = len(names)
    c = size // 2
    nodes = [
        helper.make_node("Constant", [], ["starts"],
                         value=numpy_helper.from_array(np.array([0, c, c], np.int64), "s")),
        helper.make_node("Constant", [], ["ends"],
                         value=numpy_helper.from_array(np.array([1, c + 1, c + 1], np.int64),
                                                       "e")),
        helper.make_node("Constant", [], ["axes"],
                         value=numpy_helper.from_array(np.array([1, 2, 3], np.int64), "a")),
        helper.make_node("Slice", ["images", "starts", "ends", "axes"], ["px"]),
        helper.make_node("Constant", [], ["shape"],
                         value=numpy_helper.from_array(np.array([-1, 1], np.int64), "sh")),
        helper.make_node("Reshape", ["px", "shape"], ["r"]),
        helper.make_node("Constant", [], ["scale"],
                         value=numpy_helper.from_array(np.array(nc - 1, np.float32), "k")),
        helper.make_node("Mul", ["r", "scale"], ["rk"]),
        helper.make_node("Constant", [], ["ar"],
                         value=numpy_helper.from_array(np.arange(nc, dtype=np.float32)[None],
                                                       "ar")),
        helper.make_node("Sub", ["rk", "ar"], ["d"]),
        helper.make_node("Mul", ["d", "d"], ["d2"]),
        helper.make_node("Constant", [], ["sharp"],
                         value=numpy_helper.from_array(np.array(-sharpness, np.float32), "n")),
        helper.make_node("Mul", ["d2", "sharp"], ["logits0"]),
        # as an ultralytics export with batch 1 does: a reshape that names the batch as 1
        helper.make_node("Constant", [], ["lshape"], value=numpy_helper.from_array(
            np.array([batch if isinstance(batch, int) else -1, nc], np.int64), "ls")),
        helper.make_node("Reshape", ["logits0", "lshape"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["output0"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "centre_pixel_classifier",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [batch, 3, size, size])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [batch, nc])])
    meta = {"names": repr(dict(enumerate(names))), "imgsz": f"[{size}, {size}]",
            "task": "classify"}
    return _save(graph, path, meta)


def red_for_class(j: int, nc: int) -> int:
    """The red value (0..255) that :func:`centre_pixel_classifier` reads as class ``j``."""
    return round(j / (nc - 1) * 255)


def manifest_boxes(manifest: dict, size: int = 640) -> list[tuple[tuple[float, ...], int, dict]]:
    """The visible objects of a generator manifest: each as its (cx, cy, w, h) box in the
    ``size`` x ``size`` letterboxed input, its class index in ``MANIFEST_NAMES``, and the
    object itself."""
    w, h = manifest["size"]
    r = size / max(w, h)
    pad_x, pad_y = (size - w * r) / 2, (size - h * r) / 2
    out = []
    for obj in manifest["objects"]:
        if obj.get("visible", 1.0) < 0.5:
            continue
        name = obj["tile"]
        cls = MANIFEST_NAMES.index("tile_back" if name == "back" else
                                   f"die{obj['face']}" if name == "die" else name)
        x1, y1, x2, y2 = obj["xyxy"]
        box = ((x1 + x2) / 2 * r + pad_x, (y1 + y2) / 2 * r + pad_y, (x2 - x1) * r,
               (y2 - y1) * r)
        out.append((box, cls, obj))
    return out


def photo_scale_detector(path: Path, names: list[str]) -> Path:
    """A dynamic 320 detector whose finds depend on the photo, for the automatic size choice.

    Four large boxes (class 0, a close-up's tiles) at any input size; eight tiny ones (class 1,
    whole-table tiles) and ten faint ones (class 2, score 0.05) only at 960. The tiny boxes lie
    in the picture of a square photo but below a 1920x1080 one (its input at 960 is 960x544).
    So a 960x960 photo reads best at 960 (12 boxes at conf 0.25) and a 1920x1080 one at 320
    (4 boxes; 960 finds no more).
    """
    rows = [(40 + 70 * i, 160, 60, 80, 0, 0.8) for i in range(4)]
    rows += [(100 + 20 * i, 700, 6, 8, 1, 0.8) for i in range(8)]
    rows += [(100 + 20 * i, 480, 6, 8, 2, 0.05) for i in range(10)]
    return fixed_detector(path, names, rows, size=320, dynamic=True, blind_below=960,
                          seen_always=4)
