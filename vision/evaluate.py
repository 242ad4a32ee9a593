"""Score ONNX recognizers on a YOLO-format folder: ours, the two-stage pipeline, the reference.

Everything is compared by class *name*, so models with different class lists (our coarse
detector, the 48-name crop classifier, the reference ``mahjong-detector`` with riichi names) are
scored on the same labeled images in one run. Needs only onnxruntime, OpenCV and numpy.

Model kinds (read from the ONNX metadata that ultralytics writes: ``task``, ``names``, ``imgsz``):

- a detector (``task: detect``): boxes and names straight from the model;
- a pipeline ``DETECTOR+CLASSIFIER``: detector boxes, each cut from the full-resolution image
  (``vision.training.crops``) and named by the classifier; score = detector confidence x
  classifier probability. A ``die`` box takes the best die face, a tile box the best tile;
- ``DETECTOR+CLASSIFIER+DICE``: the same, with ``die`` boxes named by a separate die-face
  classifier (names ``die1``..``die6``), its probabilities averaged over the crop's eight
  turns and mirrors (a die's face reads the same in each);
- the reference (names ``chun``, ``haku`` ...): its own preprocessing (grayscale, autocontrast,
  black letterbox) and its names mapped to ours.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import CLASS_NAMES, NUM_TILES
from vision.metrics import Detections, Evaluation
from vision.training.crops import CROP_PAD, crop_box, symmetric_probs

TILE_NAMES: tuple[str, ...] = tuple(CLASS_NAMES[:NUM_TILES])
DIE_FACES: tuple[str, ...] = tuple(f"die{k}" for k in range(1, 7))
COARSE_NAMES = ("tile", "tile_face", "tile_back", "die")  # "tile" and "tile_face": one role
# riichi names of mahjong-detector -> ours (chun 中 red, hatsu 發 green, haku 白 white)
REFERENCE_NAMES = {"tou": "E", "nan": "S", "sha": "W", "pe": "N", "chun": "C", "hatsu": "F",
                   "haku": "P"}
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


def onnx_metadata(path: Path) -> dict[str, str]:
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return dict(sess.get_modelmeta().custom_metadata_map)


def _session(path: Path, threads: int | None = None):
    import onnxruntime as ort

    if not path.exists():
        raise FileNotFoundError(f"{path}: no such ONNX model")
    opts = ort.SessionOptions()
    if threads:
        opts.intra_op_num_threads = threads
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def _names(meta: dict[str, str], path: Path) -> list[str]:
    if "names" not in meta:
        raise ValueError(f"{path}: ONNX metadata has no 'names' (export it with mjtable export)")
    raw = ast.literal_eval(meta["names"])
    return [raw[k] for k in sorted(raw)] if isinstance(raw, dict) else list(raw)


def letterbox(image: np.ndarray, size: int, fill: int = 114) -> tuple[np.ndarray, float, int, int]:
    """Resize keeping the aspect ratio and pad to ``size`` square; returns (img, scale, px, py)."""
    h, w = image.shape[:2]
    scale = min(size / h, size / w)
    nh, nw = round(h * scale), round(w * scale)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    py, px = (size - nh) // 2, (size - nw) // 2
    out = np.full((size, size, 3), fill, dtype=np.uint8)
    out[py:py + nh, px:px + nw] = resized
    return out, scale, px, py


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best first."""
    order = np.argsort(-scores, kind="stable")
    keep = []
    area = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    while len(order):
        i = order[0]
        keep.append(i)
        rest = order[1:]
        lt = np.maximum(boxes[i, :2], boxes[rest, :2])
        rb = np.minimum(boxes[i, 2:], boxes[rest, 2:])
        inter = np.prod(np.clip(rb - lt, 0, None), axis=1)
        ious = inter / np.maximum(area[i] + area[rest] - inter, 1e-9)
        order = rest[ious <= iou]
    return np.array(keep, dtype=int)


class OnnxDetector:
    """An ultralytics YOLO detect export: letterbox, one forward pass, decode, class-aware NMS."""

    def __init__(self, path: Path, threads: int | None = None, gray: bool = False,
                 size: int | None = None) -> None:
        self.path = path
        self.session = _session(path, threads)
        meta = dict(self.session.get_modelmeta().custom_metadata_map)
        if meta.get("task", "detect") != "detect":
            raise ValueError(f"{path}: task is {meta.get('task')!r}, not a detector")
        raw = _names(meta, path)
        self.reference = any(n in REFERENCE_NAMES for n in raw)
        self.gray = gray or self.reference
        self.names = [REFERENCE_NAMES.get(n, n) for n in raw]
        shape = self.session.get_inputs()[0].shape
        self.size = int(shape[2]) if isinstance(shape[2], int) else int(
            ast.literal_eval(meta.get("imgsz", "[640, 640]"))[0])
        if size is not None and size != self.size:
            if isinstance(shape[2], int):
                raise ValueError(f"{path}: fixed {self.size} px input, cannot run at {size}")
            self.size = size
        self.input = self.session.get_inputs()[0].name

    def __call__(self, image: np.ndarray, conf: float = 0.001, iou: float = 0.7,
                 max_det: int = 300) -> Detections:
        if self.gray:  # the reference was trained on grayscale, contrast-stretched photos
            g = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            g = cv2.normalize(g, None, 0, 255, cv2.NORM_MINMAX)
            image = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
        img, scale, px, py = letterbox(image, self.size, fill=0 if self.reference else 114)
        x = img[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255
        out = self.session.run(None, {self.input: x})[0][0]  # (4 + nc, anchors)
        scores_all = out[4:].T
        cls = scores_all.argmax(1)
        scores = scores_all[np.arange(len(cls)), cls]
        keep = scores >= conf
        xywh, cls, scores = out[:4].T[keep], cls[keep], scores[keep]
        if not len(scores):
            return Detections.empty()
        boxes = np.concatenate([xywh[:, :2] - xywh[:, 2:] / 2, xywh[:, :2] + xywh[:, 2:] / 2], 1)
        boxes = (boxes - [px, py, px, py]) / scale
        h, w = image.shape[:2]
        boxes = np.clip(boxes, 0, [w, h, w, h])
        offset = cls[:, None] * 4096.0  # class-aware NMS in one pass
        kept = nms(boxes + offset, scores, iou)[:max_det]
        return Detections(boxes[kept], scores[kept], [self.names[c] for c in cls[kept]])


class OnnxClassifier:
    """An ultralytics YOLO classify export: RGB crop in [0, 1], softmax probabilities out."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        self.path = path
        self.session = _session(path, threads)
        meta = dict(self.session.get_modelmeta().custom_metadata_map)
        if meta.get("task") != "classify":
            raise ValueError(f"{path}: task is {meta.get('task')!r}, not a classifier")
        self.names = _names(meta, path)
        self.size = int(self.session.get_inputs()[0].shape[2])
        self.input = self.session.get_inputs()[0].name
        batch = self.session.get_inputs()[0].shape[0]
        self.batch = batch if isinstance(batch, int) else 64

    def probs(self, crops: np.ndarray) -> np.ndarray:
        """Probabilities (N, classes) of BGR crops (N, size, size, 3)."""
        x = crops[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255
        out = []
        for i in range(0, len(x), self.batch):
            chunk = x[i:i + self.batch]
            if len(chunk) < self.batch and self.batch != len(chunk):
                pad = np.zeros((self.batch - len(chunk), *chunk.shape[1:]), np.float32)
                res = self.session.run(None, {self.input: np.concatenate([chunk, pad])})[0]
                out.append(res[:len(chunk)])
            else:
                out.append(self.session.run(None, {self.input: chunk})[0])
        return np.concatenate(out) if out else np.zeros((0, len(self.names)))


class TwoStage:
    """Detector boxes named by the crop classifier; score = detection conf x class probability.

    With ``dice``, die boxes go to that die-face classifier instead of the tile classifier.
    """

    def __init__(self, detector: OnnxDetector, classifier: OnnxClassifier,
                 dice: OnnxClassifier | None = None) -> None:
        self.detector, self.classifier, self.dice = detector, classifier, dice
        if dice is not None and not set(dice.names) <= set(DIE_FACES):
            raise ValueError(f"{dice.path}: names {', '.join(dice.names)} are not die faces")
        self.names = list(dict.fromkeys([*classifier.names, *(dice.names if dice else ())]))

    def classify(self, image: np.ndarray, boxes: np.ndarray, kinds: Sequence[str]
                 ) -> tuple[list[str], np.ndarray]:
        """Names and probabilities of boxes whose detector class is ``kinds`` (die or tile)."""
        names, best = [""] * len(boxes), np.zeros(len(boxes))
        is_die = np.array([k == "die" for k in kinds], bool)
        routes = ([(self.dice, is_die), (self.classifier, ~is_die)] if self.dice
                  else [(self.classifier, np.ones(len(boxes), bool))])
        for model, rows in routes:
            idx = np.flatnonzero(rows)
            if not len(idx):
                continue
            crops = [crop_box(image, boxes[i], model.size, CROP_PAD) for i in idx]
            probs = (symmetric_probs(crops, lambda c, m=model: m.probs(np.stack(c)))
                     if model is self.dice else model.probs(np.stack(crops)))
            die_mask = np.array([n in DIE_FACES for n in model.names])
            tile_mask = np.array([n in TILE_NAMES for n in model.names])
            for row, i in enumerate(idx):
                mask = die_mask if kinds[i] == "die" else tile_mask
                p = np.where(mask, probs[row], -1.0)
                k = int(p.argmax())
                names[i], best[i] = model.names[k], probs[row, k]
        return names, best

    def __call__(self, image: np.ndarray, conf: float = 0.001, iou: float = 0.7) -> Detections:
        det = self.detector(image, conf=max(conf, 0.01), iou=iou)
        keep = [i for i, n in enumerate(det.names) if n in ("tile", "tile_face", "die")]
        ok = [i for i in keep if det.boxes[i, 2] - det.boxes[i, 0] >= 2
              and det.boxes[i, 3] - det.boxes[i, 1] >= 2]
        boxes = det.boxes[ok]
        names, probs = self.classify(image, boxes, [det.names[i] for i in ok])
        return Detections(boxes, det.scores[ok] * probs, names)


def load_model(spec: str, threads: int | None = None,
               size: int | None = None) -> OnnxDetector | TwoStage:
    """``detector.onnx``, ``detector.onnx+classifier.onnx`` or ``...+classifier.onnx+dice.onnx``;
    ``size``: the detector's input size, if not the exported one (a ``--dynamic`` export)."""
    parts = spec.split("+")
    if len(parts) > 3:
        raise ValueError(f"{spec}: expected DETECTOR[+CLASSIFIER[+DICE]]")
    detector = OnnxDetector(Path(parts[0]), threads, size=size)
    if len(parts) == 1:
        return detector
    dice = OnnxClassifier(Path(parts[2]), threads) if len(parts) == 3 else None
    return TwoStage(detector, OnnxClassifier(Path(parts[1]), threads), dice)


@dataclass
class LabeledImage:
    image: Path
    gt: Detections


def read_names(folder: Path) -> list[str]:
    """Class names from ``data.yaml`` (``names:`` as a list or an ``i: name`` block) or ours."""
    for candidate in (folder / "data.yaml", folder.parent / "data.yaml"):
        if candidate.exists():
            lines = candidate.read_text().splitlines()
            for i, line in enumerate(lines):
                if line.startswith("names:"):
                    rest = line[len("names:"):].strip()
                    if rest:
                        return [str(n) for n in ast.literal_eval(rest)]
                    out: dict[int, str] = {}
                    for sub in lines[i + 1:]:
                        if not sub.startswith((" ", "\t")) or ":" not in sub:
                            break
                        k, v = sub.split(":", 1)
                        out[int(k)] = v.strip().strip("'\"")
                    return [out[k] for k in sorted(out)]
    return list(CLASS_NAMES)


def load_dataset(folder: Path, limit: int | None = None) -> list[LabeledImage]:
    """Images under ``folder/images`` with labels at the same place under ``folder/labels``.

    ``limit`` keeps that many images evenly spaced over the sorted list.
    """
    if not (folder / "images").is_dir():
        raise FileNotFoundError(f"{folder}: expected images/ and labels/ (a YOLO-format folder)")
    names = read_names(folder)
    images = sorted(p for p in (folder / "images").rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        raise ValueError(f"{folder}/images: no images")
    if limit and limit < len(images):  # evenly spaced, so every source folder is represented
        images = [images[round(i * len(images) / limit)] for i in range(limit)]
    out = []
    for path in images:
        rel = path.relative_to(folder / "images").with_suffix(".txt")
        label = folder / "labels" / rel
        rows = (np.loadtxt(label, ndmin=2) if label.exists() and label.stat().st_size
                else np.zeros((0, 5)))
        if rows.shape[1] != 5:
            raise ValueError(f"{label}: expected 'class cx cy w h' rows")
        h, w = _image_size(path)
        boxes = np.stack([(rows[:, 1] - rows[:, 3] / 2) * w, (rows[:, 2] - rows[:, 4] / 2) * h,
                          (rows[:, 1] + rows[:, 3] / 2) * w, (rows[:, 2] + rows[:, 4] / 2) * h], 1)
        cls = rows[:, 0].astype(int)
        if len(cls) and (cls.min() < 0 or cls.max() >= len(names)):
            raise ValueError(f"{label}: class {cls.max()} outside the {len(names)} names")
        out.append(LabeledImage(path, Detections(boxes.reshape(-1, 4), np.ones(len(cls)),
                                                 [names[c] for c in cls])))
    return out


def _image_size(path: Path) -> tuple[int, int]:
    img = cv2.imread(str(path))
    if img is None:
        raise ValueError(f"{path}: not a readable image")
    return img.shape[:2]


def to_coarse(gt: Detections, tile: str = "tile") -> Detections:
    """Ground truth in the detector's coarse names (tile kinds -> ``tile``, die faces -> die)."""
    names = ["die" if n in DIE_FACES or n == "die" else tile if n in TILE_NAMES else n
             for n in gt.names]
    return Detections(gt.boxes, gt.scores, names)


@dataclass
class ModelReport:
    """One model's evaluation plus what it costs."""

    label: str
    evaluation: Evaluation
    names: list[str]
    seconds_per_image: float
    crop_accuracy: dict[str, tuple[int, int]] = field(default_factory=dict)


def evaluate(model: OnnxDetector | TwoStage, data: list[LabeledImage], conf: float,
             label: str) -> ModelReport:
    """Run ``model`` over ``data`` and score it against the labels."""
    coarse = isinstance(model, OnnxDetector) and set(model.names) <= set(COARSE_NAMES)
    ev = Evaluation(conf=conf)
    crop_acc: dict[str, list[int]] = {"tiles": [0, 0], "dice": [0, 0]}
    spent = 0.0
    for item in data:
        image = cv2.imread(str(item.image))
        t0 = time.perf_counter()
        pred = model(image)
        spent += time.perf_counter() - t0
        tile = "tile_face" if "tile_face" in model.names else "tile"
        gt = to_coarse(item.gt, tile) if coarse else item.gt
        multiset = None if coarse else TILE_NAMES
        ev.add(pred, gt, multiset_filter=multiset)
        if isinstance(model, TwoStage) and len(item.gt.names):  # classifier alone, labeled boxes
            kinds = ["die" if n in DIE_FACES else "tile" for n in item.gt.names]
            names, _ = model.classify(image, item.gt.boxes, kinds)
            for truth, got, kind in zip(item.gt.names, names, kinds, strict=True):
                key = "dice" if kind == "die" else "tiles"
                crop_acc[key][0] += int(truth == got)
                crop_acc[key][1] += 1
    return ModelReport(label, ev, list(model.names), spent / max(len(data), 1),
                       {k: (v[0], v[1]) for k, v in crop_acc.items() if v[1]})


def format_report(report: ModelReport, per_class: bool = True, top_confusions: int = 15) -> str:
    """The text block ``mjtable eval`` prints for one model."""
    ev = report.evaluation
    lines = [f"== {report.label}  ({report.seconds_per_image * 1000:.0f} ms/image, "
             f"{ev.images} images, operating conf {ev.conf:g})"]
    groups = [("all classes", None), ("42 tile kinds", TILE_NAMES),
              ("reference's 34 kinds", TILE_NAMES[:34]), ("die faces", DIE_FACES),
              ("coarse", COARSE_NAMES)]
    for title, names in groups:
        m50, m5095, n = ev.mean_ap(names)
        if n == 0:
            continue
        p, r = ev.precision_recall(names)
        lines.append(f"  {title:22s} mAP@0.5 {m50:.3f}  mAP@0.5:0.95 {m5095:.3f}  "
                     f"P {p:.3f}  R {r:.3f}  ({n} classes)")
    if ev.multiset_images:
        what = ("coarse multiset (tile/die counts)" if set(report.names) <= set(COARSE_NAMES)
                else "exact tile multiset")
        lines.append(f"  {what}: {ev.exact_multiset}/{ev.multiset_images} images "
                     f"({ev.exact_multiset / ev.multiset_images:.1%})")
    for key, (ok, n) in report.crop_accuracy.items():
        lines.append(f"  classifier on labeled {key} boxes: {ok}/{n} ({ok / n:.1%})")
    if per_class:
        table = ev.ap_table()
        lines.append("  per class  AP@0.5 / AP@0.5:0.95  (ground truths):")
        row = []
        for name, (a50, a5095) in table.items():
            row.append(f"{name:>9s} {a50:.2f}/{a5095:.2f} ({ev.stats[name].n_gt})")
            if len(row) == 4:
                lines.append("   " + "  ".join(row))
                row = []
        if row:
            lines.append("   " + "  ".join(row))
    confusions = [(k, v) for k, v in ev.confusions.most_common() if k[1] != "missed"
                  and k[0] != "background"][:top_confusions]
    if confusions:
        lines.append("  confusions (true -> predicted: count): " + ", ".join(
            f"{a}->{b}: {c}" for (a, b), c in confusions))
    missed = sum(v for k, v in ev.confusions.items() if k[1] == "missed")
    background = sum(v for k, v in ev.confusions.items() if k[0] == "background")
    lines.append(f"  at conf {ev.conf:g}: {missed} labeled objects missed, {background} "
                 "predictions on no labeled object")
    return "\n".join(lines)
