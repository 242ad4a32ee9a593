"""Start a detector from the weights of an exported YOLO11n ONNX (BatchNorm folded).

The reference ``mahjong-detector`` model is a YOLO11n trained on tile photos; its ONNX keeps
the ultralytics module names (``model.2.cv1.conv.weight``) with each BatchNorm folded into its
convolution's bias. Loading those as conv weights with an identity BatchNorm (weight 1, bias =
folded bias, mean 0, variance 1 - eps) reproduces every layer, so a new detector starts with
tile features instead of noise. Layers whose shape differs (the class outputs) stay random.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def onnx_weights(path: Path) -> dict[str, np.ndarray]:
    """The named initializers of an ONNX model."""
    import onnx
    from onnx import numpy_helper

    if not path.exists():
        raise FileNotFoundError(f"{path}: no such ONNX model")
    model = onnx.load(str(path))
    return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}


# a YOLO11n classifier shares the detector's backbone layers 0-8; its layer 9 is the
# detector's layer 10 (C2PSA; the detector's 9 is SPPF)
CLASSIFIER_RENAME = (("model.10.", "model.9."),)


def load_folded(model: object, weights: dict[str, np.ndarray],
                rename: tuple[tuple[str, str], ...] = ()) -> tuple[int, int]:
    """Copy folded conv weights into an ultralytics model; returns (loaded, skipped) tensors."""
    import torch

    state = model.state_dict()  # type: ignore[attr-defined]
    loaded = skipped = 0
    new: dict[str, torch.Tensor] = {}
    for onnx_name, value in weights.items():
        if not onnx_name.startswith("model.") or not onnx_name.endswith((".weight", ".bias")):
            continue
        name = onnx_name
        for old, new_prefix in rename:
            if name.startswith(old):
                name = new_prefix + name[len(old):]
        tensor = torch.from_numpy(np.array(value, dtype=np.float32))
        if name.endswith(".conv.bias") and name.replace(".conv.bias", ".bn.bias") in state:
            prefix = name[: -len(".conv.bias")]
            bn = f"{prefix}.bn"
            if state[f"{bn}.bias"].shape != tensor.shape:
                skipped += 1
                continue
            eps = 1e-3  # ultralytics Conv uses BatchNorm2d(eps=0.001)
            new[f"{bn}.weight"] = torch.ones_like(tensor)
            new[f"{bn}.bias"] = tensor
            new[f"{bn}.running_mean"] = torch.zeros_like(tensor)
            new[f"{bn}.running_var"] = torch.full_like(tensor, 1 - eps)
            loaded += 1
        elif name in state and state[name].shape == tensor.shape:
            new[name] = tensor
            loaded += 1
        else:
            skipped += 1
    state.update(new)
    model.load_state_dict(state)  # type: ignore[attr-defined]
    return loaded, skipped


def source_classes(path: Path) -> int:
    """The class count of an ultralytics ONNX export, from its ``names`` metadata."""
    import ast

    import onnx

    meta = {p.key: p.value for p in onnx.load(str(path), load_external_data=False).metadata_props}
    if "names" not in meta:
        raise ValueError(f"{path}: no 'names' metadata; not an ultralytics export")
    return len(ast.literal_eval(meta["names"]))


def seed_checkpoint(onnx_path: Path, data: Path, out: Path, kind: str = "detector") -> Path:
    """Write an ultralytics checkpoint seeded from the YOLO11n detector ``onnx_path``.

    A detector keeps the source's class count (ultralytics then rebuilds only the last class
    convolution for ``data``'s classes, keeping the hidden layers); a classifier takes the
    backbone and C2PSA block and a fresh head.
    """
    from vision.training.ultra import ultralytics_offline

    ultralytics_offline()
    import torch
    from ultralytics.nn.tasks import ClassificationModel, DetectionModel

    weights = onnx_weights(onnx_path)
    if kind == "detector":
        model: object = DetectionModel("yolo11n.yaml", nc=source_classes(onnx_path), verbose=False)
        loaded, skipped = load_folded(model, weights)
        minimum = 150
    elif kind == "classifier":
        nc = sum(1 for p in data.joinpath("train").iterdir() if p.is_dir())
        model = ClassificationModel("yolo11n-cls.yaml", nc=nc, verbose=False)
        loaded, skipped = load_folded(model, weights, CLASSIFIER_RENAME)
        minimum = 60
    else:
        raise ValueError(f"unknown model kind {kind!r}")
    if loaded < minimum:
        raise ValueError(f"{onnx_path}: only {loaded} tensors fit a YOLO11n {kind}; "
                         "not a YOLO11n detector export?")
    task = "detect" if kind == "detector" else "classify"
    model.task = task  # type: ignore[attr-defined]
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {"task": task}}, out)
    print(f"seeded {loaded} tensors from {onnx_path} ({skipped} did not fit)")
    return out
