"""Inference backends for the shipped ONNX models: onnxruntime (always installed) and OpenVINO
(the ``mjtable[openvino]`` extra, the ``openvino`` package), which reads the same ONNX file and
gives the same boxes.

``auto`` is onnxruntime for stills and camera frames alike, measured with the shipped models on
this project's 2-core machine (``python bench/vision_bench.py --quick`` and the docs' table):
OpenVINO's whole-frame detection stage is 5-10% quicker, but the classifiers' batches and the
change mask's windows change shape from call to call, and those run slower on it (the bundled
video analysed only where it changed: 43.5 fps against 73.6), so the whole reading is no faster
(a photo with its classifiers: 92.9 ms against 91.9; 95.5 against 86.0 in a busier run).
``--backend openvino`` chooses it where it measures faster.

:func:`open_session` gives either as a session with onnxruntime's ``run(None, {name: tensor})``
plus the model's metadata and input, so :class:`vision.detector.OnnxModel` is the one place that
creates sessions and everything above it runs unchanged on either backend.

Options are chosen for a 2-core laptop that also decodes the camera: onnxruntime's idle threads
sleep instead of spinning (spinning halves a 2-thread pass on a busy CPU); OpenVINO runs one
latency stream, unpinned threads, in float32 (the CPU's default bfloat16 would change readings).
"""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

BACKENDS = ("onnxruntime", "openvino")
STATIC_SHAPES = 4  # input shapes OpenVINO compiles for exactly (a camera frame's, ...)
AUTO = "onnxruntime"  # what ``auto`` runs, for stills and video (measured: see above)
STATIC_MIN_SECONDS = 0.03  # a run this long on the any-shape compile earns its own (~0.5 s)


def openvino_installed() -> bool:
    return importlib.util.find_spec("openvino") is not None


def resolve_backend(name: str | None = None) -> str:
    """The backend to use: ``name``, else ``$MJTABLE_BACKEND``, else ``auto``: :data:`AUTO`,
    the one measured faster for stills and video alike (see the module's doc)."""
    name = name or os.environ.get("MJTABLE_BACKEND") or "auto"
    if name == "auto":
        return AUTO
    if name not in BACKENDS:
        raise ValueError(f"unknown inference backend {name!r}; choose auto, "
                         f"{' or '.join(BACKENDS)}")
    if name == "openvino" and not openvino_installed():
        raise ValueError("the openvino backend needs the openvino package "
                         "(pip install 'mjtable[openvino]')")
    return name


def open_session(path: Path, backend: str, threads: int
                 ) -> tuple[Any, dict[str, str], str, list[int | str]]:
    """A session for the model at ``path``: (session, metadata, input name, input shape with
    free dimensions as names). Raises ValueError for a file the backend cannot load."""
    if backend == "openvino":
        session = OpenVinoSession(path, threads)
        return session, session.meta, session.input_name, session.input_shape
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, threads)
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        ort_session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own types for a bad file
        raise ValueError(f"{path}: not a loadable ONNX model ({exc})") from None
    inp = ort_session.get_inputs()[0]
    return (ort_session, dict(ort_session.get_modelmeta().custom_metadata_map), inp.name,
            list(inp.shape))


class OpenVinoSession:
    """An ONNX model on OpenVINO's CPU plugin, answering ``run(None, {name: tensor})`` like an
    onnxruntime session.

    A model with free input dimensions is compiled once as it is (any shape runs), and again
    for exactly a shape that comes back after a run that took ``STATIC_MIN_SECONDS`` or more
    (up to ``STATIC_SHAPES``): a camera's whole frames all have one shape and run faster so,
    while a compile (about 0.5 s, a stall of the frame that waits for it) would be wasted on
    a one-off shape (a changed region's window) or a quick one (a few crops).
    """

    def __init__(self, path: Path, threads: int) -> None:
        import openvino as ov

        self.path = path
        self.core = ov.Core()
        self.config = {"INFERENCE_NUM_THREADS": max(1, threads), "NUM_STREAMS": 1,
                       "PERFORMANCE_HINT": "LATENCY", "ENABLE_CPU_PINNING": False,
                       "INFERENCE_PRECISION_HINT": "f32"}
        try:
            self.model = self.core.read_model(str(path))
        except Exception as exc:  # OpenVINO raises RuntimeError subclasses for a bad file
            raise ValueError(f"{path}: not a loadable ONNX model ({exc})") from None
        rt = self.model.get_rt_info()  # an RTMap: no .get()
        meta = rt["framework"] if "framework" in rt else {}  # noqa: SIM401
        self.meta = {str(k): v.astype(str) if hasattr(v, "astype") else str(v)
                     for k, v in meta.items()}
        inputs = self.model.inputs
        if len(inputs) != 1:
            raise ValueError(f"{path}: expected one image input, got {len(inputs)}")
        self.input_name = inputs[0].get_any_name()
        shape = inputs[0].get_partial_shape()
        self.input_shape: list[int | str] = [
            d.get_length() if d.is_static else f"dim{i}" for i, d in enumerate(shape)]
        self._any: Any = None  # the compile that takes any shape
        self._exact: dict[tuple[int, ...], Any] = {}
        self._slow: set[tuple[int, ...]] = set()  # shapes whose any-shape run was slow

    def _compile(self, shape: tuple[int, ...] | None) -> Any:
        model = self.model
        if shape is not None and not self.model.inputs[0].get_partial_shape().is_static:
            model = self.model.clone()
            model.reshape({0: list(shape)})
        try:
            return self.core.compile_model(model, "CPU", self.config).create_infer_request()
        except Exception as exc:
            raise ValueError(f"{self.path}: OpenVINO cannot compile it ({exc})") from None

    def _request(self, shape: tuple[int, ...]) -> Any:
        request = self._exact.get(shape)
        if request is not None:
            return request
        static = self.model.inputs[0].get_partial_shape().is_static
        if static or (shape in self._slow and len(self._exact) < STATIC_SHAPES):
            request = self._exact[shape] = self._compile(shape)
            return request
        if self._any is None:
            self._any = self._compile(None)
        return self._any

    def run(self, names: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        (tensor,) = feeds.values()
        tensor = np.ascontiguousarray(tensor, dtype=np.float32)
        shape = tuple(tensor.shape)
        request = self._request(shape)
        start = time.perf_counter()
        try:
            out = request.infer({0: tensor})
        except Exception as exc:  # a shape the model cannot take, as onnxruntime's errors
            raise ValueError(f"{self.path}: OpenVINO cannot run a {tensor.shape} input "
                             f"({exc})") from None
        if request is self._any and time.perf_counter() - start >= STATIC_MIN_SECONDS:
            self._slow.add(shape)
        return [np.array(out[i]) for i in range(len(out))]  # copies: the request reuses them
