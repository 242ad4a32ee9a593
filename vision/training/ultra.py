"""Ultralytics training and export, set up to run offline on a laptop CPU.

Everything that reaches the network is off (``YOLO_OFFLINE``, no auto-install, ``sync=False``),
models are built from their YAML (a ``.pt`` name would be downloaded), and CPU training uses
every core (ultralytics keeps one free, which halves speed on a 2-core machine). torch and
ultralytics are imported only inside these functions: the runtime never needs them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MODEL_YAML = {"detector": "yolo11n.yaml", "classifier": "yolo11n-cls.yaml"}
TASK = {"detector": "detect", "classifier": "classify"}


def default_cache() -> Path:
    """Where ultralytics keeps its settings: the user cache, never the repository."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("mjtable")) / "ultralytics"


def ultralytics_offline(threads: int | None = None, cache: Path | None = None) -> Any:
    """Import ultralytics with downloads, telemetry and auto-installs off; returns the module."""
    cache = cache or default_cache()
    cache.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "false")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(cache))
    try:
        import ultralytics
        from ultralytics.utils import SETTINGS, torch_utils
    except ImportError as exc:
        raise RuntimeError("training needs the train extra: pip install 'mjtable[train]' "
                           f"({exc})") from None
    SETTINGS.update({"sync": False})
    torch_utils.NUM_THREADS = threads or os.cpu_count() or 1
    return ultralytics


@dataclass(frozen=True)
class TrainSpec:
    """One training run; ``project/name`` is the run folder (weights, results.csv, args.yaml)."""

    kind: str  # "detector" or "classifier"
    data: Path
    epochs: int
    imgsz: int
    device: str = "cpu"
    batch: int = 16
    project: Path = Path("runs")
    name: str = "train"
    workers: int = 2
    patience: int = 100
    seed_weights: Path | None = None  # a .pt checkpoint to start from (see vision.training.seed)
    threads: int | None = None  # torch CPU threads; None: every core
    extra: tuple[tuple[str, Any], ...] = ()


def run_dir(spec: TrainSpec) -> Path:
    return (spec.project / spec.name).resolve()


def train(spec: TrainSpec, resume: bool = False) -> Path:
    """Train (or resume the run in ``project/name``); returns the run folder."""
    if spec.kind not in MODEL_YAML:
        raise ValueError(f"unknown model kind {spec.kind!r}; choose detector or classifier")
    if not spec.data.exists():
        raise FileNotFoundError(f"{spec.data}: no such dataset (run 'mjtable train prepare' first)")
    ultralytics_offline(spec.threads)
    from ultralytics import YOLO

    folder = run_dir(spec)
    last = folder / "weights" / "last.pt"
    if resume:
        if not last.exists():
            raise FileNotFoundError(f"{last}: nothing to resume")
        YOLO(str(last)).train(resume=True)
        return folder
    if folder.exists() and any(folder.iterdir()):
        raise FileExistsError(f"{folder}: run folder exists; use --resume or another --name")
    start = str(spec.seed_weights) if spec.seed_weights else MODEL_YAML[spec.kind]
    model = YOLO(start, task=TASK[spec.kind])
    args: dict[str, Any] = dict(
        data=str(spec.data), epochs=spec.epochs, imgsz=spec.imgsz, device=spec.device,
        batch=spec.batch, project=str(spec.project.resolve()), name=spec.name, exist_ok=True,
        workers=spec.workers, amp=spec.device != "cpu", plots=False,
        pretrained=spec.seed_weights is not None,
        patience=spec.patience, seed=0, deterministic=False, verbose=True)
    if spec.kind == "classifier":
        # crops are already cut around a tile: crop a little, no mirror (the photos hold
        # mirrored copies already), no RandAugment (slow on CPU, colour matters for dragons)
        args.update(scale=0.15, fliplr=0.0, auto_augment=None, erasing=0.1)
    args.update(dict(spec.extra))
    model.train(**args)
    return folder


def export_onnx(weights: Path, out: Path, imgsz: int | None = None, opset: int = 17,
                simplify: bool = True, rename: dict[str, str] | None = None,
                dynamic: bool = False) -> Path:
    """Export a trained checkpoint to ONNX, keeping ultralytics' metadata: batch 1 (free for a
    classifier, :func:`~vision.training.batching.free_batch`) and the ``imgsz`` input, or with
    ``dynamic`` any batch, height and width (``imgsz`` then goes to the metadata as the size to
    run at unless told otherwise).

    ``rename`` changes class names in the metadata (e.g. ``tile_face`` -> ``tile``, the name the
    runtime reads), not their order.
    """
    import shutil

    ultralytics_offline()
    from ultralytics import YOLO

    if not weights.exists():
        raise FileNotFoundError(f"{weights}: no such checkpoint")
    model = YOLO(str(weights))
    if rename:
        names = dict(model.model.names)
        unknown = set(rename) - set(names.values())
        if unknown:
            raise ValueError(f"--rename: {', '.join(sorted(unknown))} not among the classes "
                             f"{', '.join(names.values())}")
        model.model.names = {k: rename.get(v, v) for k, v in names.items()}
    kwargs: dict[str, Any] = dict(format="onnx", opset=opset, simplify=simplify, dynamic=dynamic,
                                  device="cpu")
    if imgsz:
        kwargs["imgsz"] = imgsz
    produced = Path(model.export(**kwargs))
    out.parent.mkdir(parents=True, exist_ok=True)
    if produced.resolve() != out.resolve():
        shutil.copy2(produced, out)
    if not dynamic and model.task == "classify":
        from vision.training.batching import free_batch

        free_batch(out, out)  # the runtime classifies a frame's crops in one batch
    return out


def checkpoint_of(run: Path) -> Path:
    """The checkpoint of a run folder (best.pt, else last.pt) or ``run`` itself if a file."""
    if run.is_file():
        return run
    for name in ("best.pt", "last.pt"):
        if (run / "weights" / name).exists():
            return run / "weights" / name
    raise FileNotFoundError(f"{run}: no weights/best.pt or weights/last.pt")


def describe_onnx(path: Path) -> str:
    """One line per fact the model card records: opset, inputs and outputs, metadata."""
    import onnx

    model = onnx.load(str(path), load_external_data=False)

    def shape(v: onnx.ValueInfoProto) -> str:
        dims = [d.dim_value or d.dim_param for d in v.type.tensor_type.shape.dim]
        return f"{v.name} {list(dims)}"

    meta = {p.key: p.value for p in model.metadata_props}
    opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    return "\n".join([
        f"{path}  ({path.stat().st_size / 1e6:.1f} MB)",
        f"opset {opset}",
        "inputs: " + ", ".join(shape(v) for v in model.graph.input),
        "outputs: " + ", ".join(shape(v) for v in model.graph.output),
        f"task {meta.get('task')}, imgsz {meta.get('imgsz')}, {len(eval_names(meta))} names",
    ])


def eval_names(meta: dict[str, str]) -> list[str]:
    import ast

    raw = ast.literal_eval(meta.get("names", "{}"))
    return [raw[k] for k in sorted(raw)] if isinstance(raw, dict) else list(raw)
