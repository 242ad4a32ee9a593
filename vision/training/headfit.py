"""Fast classifier training on a laptop CPU: frozen seeded stem, cached features, trained top.

Training a YOLO11n-cls end to end costs a forward and backward pass through the whole network
for every crop and epoch; on 2 shared cores that is hours. The stem (layers 0-6) seeded from a
tile detector (``vision.training.seed``) already separates tile patterns, so it stays frozen:
its output is computed once per crop and cached, and only layers 7-9 and the head are trained on
the cache (seconds per epoch). The result is an ordinary ultralytics classification checkpoint
(``weights/last.pt``) that ``mjtable export`` turns into ONNX like any other run.

Augmentation comes from the data: each training crop is cut from jittered boxes
(``vision.training.prepare``) of photos that exist in flipped, rotated and relit copies.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import cv2
import numpy as np

from vision.capture import read_picture
from vision.training.prepare import CLASSIFIER_NAMES

FROZEN_LAYERS = 7  # layers 0..6 of YOLO11n-cls: the stem the cache holds


def load_crops(folder: Path, names: tuple[str, ...], size: int) -> tuple[np.ndarray, np.ndarray]:
    """All crops under ``folder/<name>/`` as uint8 RGB (N, 3, size, size) and class indices."""
    images, labels = [], []
    for k, name in enumerate(names):
        for path in sorted((folder / name).glob("*.png")) if (folder / name).is_dir() else []:
            img = read_picture(path)
            if img.shape[:2] != (size, size):
                img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
            images.append(img[:, :, ::-1].transpose(2, 0, 1))
            labels.append(k)
    if not images:
        raise ValueError(f"{folder}: no crops in class folders")
    return np.stack(images), np.array(labels)


def fit_head(data: Path, seed_onnx: Path, out: Path, epochs: int = 12, imgsz: int = 64,
             batch: int = 512, lr: float = 3e-3, threads: int = 0) -> Path:
    """Train the classifier top on cached stem features; returns the run folder.

    The feature cache is kept in ``data/stem-<imgsz>.pt`` (reused while the crops and seed are
    unchanged) and the checkpoint is written after every epoch, so an interrupted run keeps
    what it learned.
    """
    import os

    import torch
    from torch import nn

    from vision.training.seed import CLASSIFIER_RENAME, load_folded, onnx_weights
    from vision.training.ultra import ultralytics_offline

    threads = threads or os.cpu_count() or 1
    ultralytics_offline(threads)
    from ultralytics.nn.tasks import ClassificationModel

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out}: run folder exists; choose another --name")
    (out / "weights").mkdir(parents=True, exist_ok=True)
    names = CLASSIFIER_NAMES
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False)
    loaded, _ = load_folded(model, onnx_weights(seed_onnx), CLASSIFIER_RENAME)
    if loaded < 60:
        raise ValueError(f"{seed_onnx}: only {loaded} tensors fit the classifier stem")
    stem = nn.Sequential(*model.model[:FROZEN_LAYERS]).eval()
    top = nn.Sequential(*model.model[FROZEN_LAYERS:])

    def features(x_uint8: np.ndarray) -> torch.Tensor:
        chunks = []
        with torch.no_grad():
            for i in range(0, len(x_uint8), 512):
                x = torch.from_numpy(x_uint8[i:i + 512]).float() / 255
                chunks.append(stem(x))
        return torch.cat(chunks)

    t0 = time.time()
    cache = data / f"stem-{imgsz}.pt"
    key = f"{seed_onnx.resolve()}:{seed_onnx.stat().st_size}:{FROZEN_LAYERS}"
    stored = torch.load(cache, weights_only=False) if cache.exists() else None
    if stored and stored.get("key") == key:
        ftr, ytr, fva, yva = (stored[k] for k in ("ftr", "ytr", "fva", "yva"))
    else:
        xtr, ytr = load_crops(data / "train", names, imgsz)
        xva, yva = load_crops(data / "val", names, imgsz)
        ftr, fva = features(xtr), features(xva)
        torch.save({"key": key, "ftr": ftr, "ytr": ytr, "fva": fva, "yva": yva}, cache)
    print(f"cached stem features: train {tuple(ftr.shape)}, val {tuple(fva.shape)} "
          f"in {time.time() - t0:.0f} s", flush=True)
    ytr_t, yva_t = torch.from_numpy(ytr), torch.from_numpy(yva)
    opt = torch.optim.AdamW(top.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * ((len(ftr) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    gen = torch.Generator().manual_seed(0)
    with (out / "results.csv").open("w", newline="") as fh:
        log = csv.writer(fh)
        log.writerow(["epoch", "train_loss", "val_top1", "seconds"])
        for epoch in range(1, epochs + 1):
            top.train()
            perm = torch.randperm(len(ftr), generator=gen)
            total = 0.0
            for i in range(0, len(perm), batch):
                idx = perm[i:i + batch]
                logits = top(ftr[idx])
                loss = loss_fn(logits, ytr_t[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
                total += float(loss.detach()) * len(idx)
            top.eval()
            with torch.no_grad():
                pred = torch.cat([top(fva[i:i + 1024])[0].argmax(1)
                                  for i in range(0, len(fva), 1024)])
            acc = float((pred == yva_t).float().mean())
            log.writerow([epoch, f"{total / len(ftr):.4f}", f"{acc:.4f}",
                          f"{time.time() - t0:.0f}"])
            fh.flush()
            print(f"epoch {epoch}/{epochs} loss {total / len(ftr):.4f} val top-1 {acc:.4f}",
                  flush=True)
            _save(model, out, data, seed_onnx, imgsz, epoch, epochs)
    return out


def _save(model: object, out: Path, data: Path, seed_onnx: Path, imgsz: int, epoch: int,
          epochs: int) -> None:
    """An ultralytics classification checkpoint ``weights/last.pt`` (eval mode, names set)."""
    import copy

    import torch

    saved = copy.deepcopy(model).eval()
    saved.names = dict(enumerate(CLASSIFIER_NAMES))  # type: ignore[attr-defined]
    saved.task = "classify"  # type: ignore[attr-defined]
    args = {"task": "classify", "imgsz": imgsz, "data": str(data), "epochs": epochs,
            "model": "yolo11n-cls.yaml", "seed_onnx": str(seed_onnx),
            "frozen_layers": FROZEN_LAYERS}
    saved.args = args  # type: ignore[attr-defined]
    torch.save({"model": saved, "train_args": args, "epoch": epoch,
                "date": time.strftime("%Y-%m-%dT%H:%M:%S")}, out / "weights" / "last.pt")
