"""Start a detector from the weights of an exported YOLO11n ONNX (BatchNorm folded).

The reference ``mahjong-detector`` model is a YOLO11n trained on tile photos; its ONNX keeps
the ultralytics module names (``model.2.cv1.conv.weight``) with each BatchNorm folded into its
convolution's bias. Loading those as conv weights with an identity BatchNorm (weight 1, bias =
folded bias, mean 0, variance 1 - eps) reproduces every layer, so a new detector starts with
tile features instead of noise. Layers whose shape differs (the class outputs) stay random.

Identity BatchNorm computes the folded layer only in eval mode: once a layer trains, BatchNorm
normalizes by the batch's statistics and the features are lost (a detector unfrozen after a
frozen-backbone phase fell from mAP@0.5 0.79 to 0.27 in one epoch; ultralytics keeps frozen
BatchNorm in eval mode, so those layers stay at identity). :func:`calibrate_identity_bn` gives
each such layer the mean and spread of its input on training images, and scale and shift that
undo them: the same function in eval mode, and in train mode too while batches look like the
training images.
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


BN_EPS = 1e-3  # ultralytics Conv uses BatchNorm2d(eps=0.001)

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
            new[f"{bn}.weight"] = torch.ones_like(tensor)
            new[f"{bn}.bias"] = tensor
            new[f"{bn}.running_mean"] = torch.zeros_like(tensor)
            eps = float(getattr(model.get_submodule(bn), "eps", BN_EPS))  # type: ignore[attr-defined]
            new[f"{bn}.running_var"] = torch.full_like(tensor, 1 - eps)  # exactly x + b
            loaded += 1
        elif name in state and state[name].shape == tensor.shape:
            new[name] = tensor
            loaded += 1
        else:
            skipped += 1
    state.update(new)
    model.load_state_dict(state)  # type: ignore[attr-defined]
    return loaded, skipped


def identity_bn(model: object) -> list[tuple[str, object]]:
    """The BatchNorm layers of ``model`` still at the identity statistics of a folded seed."""
    import torch

    out = []  # (checkpoints are saved in float16: 1 - eps comes back as 0.99902)
    for name, m in model.named_modules():  # type: ignore[attr-defined]
        if isinstance(m, torch.nn.BatchNorm2d) and m.running_mean is not None \
                and bool((m.running_mean == 0).all()) \
                and bool(((m.running_var - (1 - m.eps)).abs() < 1e-4).all()) \
                and bool((m.weight == 1).all()):
            out.append((name, m))
    return out


def calibrate_identity_bn(model: object, batches: list[np.ndarray]) -> int:
    """Give every identity BatchNorm of ``model`` its input's statistics on ``batches``
    (float32 NCHW in 0..1), keeping what the layer computes; returns the layers changed.

    A layer computing ``x + b`` becomes ``(x - mu) / sqrt(var + eps) * sqrt(var + eps) + b + mu``
    with running mean ``mu`` and variance ``var``: equal in eval mode, and in train mode while
    a batch's statistics are near ``mu`` and ``var``.
    """
    import torch

    layers = identity_bn(model)
    if not layers:
        return 0
    sums: dict[str, list[torch.Tensor]] = {}

    def hook(name: str):  # type: ignore[no-untyped-def]
        def record(_m: object, inputs: tuple[torch.Tensor, ...], _out: object) -> None:
            x = inputs[0].detach().double()
            dims = (0, 2, 3)
            n = x.numel() / x.shape[1]
            acc = sums.setdefault(name, [torch.zeros(x.shape[1], dtype=torch.float64),
                                         torch.zeros(x.shape[1], dtype=torch.float64),
                                         torch.zeros((), dtype=torch.float64)])
            acc[0] += x.sum(dims)
            acc[1] += (x * x).sum(dims)
            acc[2] += n
        return record

    handles = [m.register_forward_hook(hook(name)) for name, m in layers]  # type: ignore[attr-defined]
    was_training = model.training  # type: ignore[attr-defined]
    model.eval()  # type: ignore[attr-defined]
    try:
        with torch.no_grad():
            for batch in batches:
                model(torch.from_numpy(np.ascontiguousarray(batch, dtype=np.float32)))  # type: ignore[operator]
    finally:
        for h in handles:
            h.remove()
        model.train(was_training)  # type: ignore[attr-defined]
    for name, m in layers:
        total, squares, n = sums[name]
        mean = total / n
        var = (squares / n - mean * mean).clamp(min=0)
        with torch.no_grad():
            m.running_mean.copy_(mean.float())  # type: ignore[attr-defined]
            m.running_var.copy_(var.float())  # type: ignore[attr-defined]
            m.weight.copy_(torch.sqrt(var + m.eps).float())  # type: ignore[attr-defined]
            m.bias.add_(mean.float())  # type: ignore[attr-defined]
    return len(layers)


def calibration_batches(images: list[Path], imgsz: int, batch: int = 8,
                        limit: int = 64) -> list[np.ndarray]:
    """Up to ``limit`` training images letterboxed to ``imgsz`` as RGB NCHW batches in 0..1."""
    from vision.capture import read_picture
    from vision.detector import letterbox, to_tensor

    chosen = images[:: max(1, len(images) // limit)][:limit]
    boxes = []
    for path in chosen:
        img = read_picture(path)
        boxes.append(letterbox(img, (imgsz, imgsz))[0])
    return [to_tensor(boxes[i:i + batch]) for i in range(0, len(boxes), batch)]


def training_images(kind: str, data: Path) -> list[Path]:
    """The training images of a detector ``data.yaml`` or a classifier folder, sorted."""
    suffixes = (".jpg", ".jpeg", ".png", ".bmp")
    if kind == "classifier":
        roots = [data / "train"]
    else:  # train: a folder, a list of folders, or a text file of image paths (as ultralytics)
        keys = dict(line.split(":", 1) for line in data.read_text().splitlines()
                    if ":" in line and not line.startswith((" ", "\t")))
        base = Path(keys.get("path", str(data.parent)).strip())
        base = base if base.is_absolute() else data.parent / base
        entries = keys.get("train", "images/train").strip().strip("[]").split(",")
        roots = [base / e.strip().strip("'\"") for e in entries if e.strip()]
    images: list[Path] = []
    for root in roots:
        if root.is_file():
            images += [Path(line.strip()) for line in root.read_text().splitlines()
                       if line.strip()]
        else:
            images += [p for p in root.rglob("*") if p.suffix.lower() in suffixes]
    images = sorted(p for p in images if p.suffix.lower() in suffixes)
    if not images:
        raise ValueError(f"{', '.join(map(str, roots))}: no training images")
    return images


def calibrate_checkpoint(checkpoint: Path, images: list[Path], imgsz: int, out: Path) -> int:
    """Write ``checkpoint`` to ``out`` with its identity BatchNorm calibrated on ``images``;
    returns the layers changed (0: nothing to do, ``out`` not written)."""
    import torch

    ckpt = torch.load(str(checkpoint), map_location="cpu", weights_only=False)
    key = "ema" if ckpt.get("ema") is not None else "model"
    model = ckpt[key].float()
    if not identity_bn(model):
        return 0
    changed = calibrate_identity_bn(model, calibration_batches(images, imgsz))
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": ckpt.get("train_args", {})}, out)
    return changed


def _metadata(path: Path) -> dict[str, str]:
    import onnx

    return {p.key: p.value for p in onnx.load(str(path), load_external_data=False).metadata_props}


def source_classes(path: Path) -> int:
    """The class count of an ultralytics ONNX export, from its ``names`` metadata."""
    import ast

    meta = _metadata(path)
    if "names" not in meta:
        raise ValueError(f"{path}: no 'names' metadata; not an ultralytics export")
    return len(ast.literal_eval(meta["names"]))


def seed_checkpoint(onnx_path: Path, data: Path, out: Path, kind: str = "detector") -> Path:
    """Write an ultralytics checkpoint seeded from the YOLO11n export ``onnx_path``.

    A detector keeps the source's class count (ultralytics then rebuilds only the last class
    convolution for ``data``'s classes, keeping the hidden layers); a classifier takes the
    backbone and C2PSA block of a detector and a fresh head, or a classifier whole (its head
    too where the shapes fit: the way to continue from a shipped ``classifier.onnx``).
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
        # from a classifier export (a shipped classifier.onnx) every layer fits as it is,
        # the head too when the classes match; from a detector, the backbone is renumbered
        same = _metadata(onnx_path).get("task") == "classify"
        loaded, skipped = load_folded(model, weights, () if same else CLASSIFIER_RENAME)
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
