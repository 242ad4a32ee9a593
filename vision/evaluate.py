"""Score the shipped recognition on labeled images with the same code that runs it.

``mjtable eval`` measures :class:`vision.detector.Detector`, the runtime of ``detect``, ``read``,
``watch`` and the dashboard: its letterbox, decoding, NMS, two-stage classification, die faces
and automatic input size, set up for stills as ``detect`` sets it up. Only the threshold
differs: boxes down to ``MAP_CONF`` (0.01) are kept for AP, and precision, recall, multisets and
confusions are taken at the operating threshold. Everything is compared by class *name*, so
models with different class lists (ours, the reference ``mahjong-detector`` with riichi names,
which ``Detector`` reads in project names) are scored on the same labeled images in one run.

A two-stage design is scored twice: its detection stage alone (coarse ``tile``/``die`` boxes,
:meth:`Detector.find`) and the whole pipeline; its classifiers alone are scored on the labeled
boxes (crop accuracy). Needs only onnxruntime, OpenCV and numpy.
"""

from __future__ import annotations

import ast
import json
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scoring.tiles import CLASS_NAMES, DIE_CLASS, NUM_TILES
from vision.capture import load_image
from vision.detections import TileDetections
from vision.detector import Detector, load_detector
from vision.labels import BACK_CLASS
from vision.manifest import TableScore, score_reading
from vision.metrics import Detections, Evaluation
from vision.unsure import LOW_CONFIDENCE

TILE_NAMES: tuple[str, ...] = tuple(CLASS_NAMES[:NUM_TILES])
DIE_FACES: tuple[str, ...] = tuple(f"die{k}" for k in range(1, 7))
COARSE_NAMES = ("tile", "tile_back", "die")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
# boxes kept for AP; the operating threshold is Detector.conf. COCO keeps 0.001, but every box
# kept costs a crop classification (a die box eight): 0.01 keeps a quarter as many boxes (on the
# real fold: 256 against 990 on 4 photos, 0.23 s against 0.98 s a photo), as the old separate
# evaluator did for its two-stage detector
MAP_CONF = 0.01


def load_model(spec: str | Path, threads: int | None = None, size: int | None = None,
               conf: float = 0.25, grey: bool = False, backend: str | None = None,
               ink: bool = True, flips: bool = True, askew: bool = True,
               stills: bool = True) -> Detector:
    """The :class:`Detector` that ``mjtable detect --models`` builds, for evaluation (with
    ``stills`` false, the stream's that ``watch`` builds).

    ``spec``: a models folder (``detector.onnx``, with ``classifier.onnx``, ``dice.onnx`` and
    ``dice_finder.onnx`` when present), or ``DETECTOR[+CLASSIFIER[+DICE[+FINDER]]]`` ONNX
    files. ``size``: a fixed detector input size instead of the automatic choice; ``conf``:
    the operating threshold; ``grey``: the reference model's grey input; ``backend``, ``ink``,
    ``flips``: as :class:`Detector` takes them (a stream never mirrors); ``askew``: False reads
    no tile turned (its ``askew=()``).
    """
    flips = flips and stills
    if Path(spec).is_dir():
        return load_detector(spec, conf=conf, threads=threads, imgsz=size or "auto",
                             stills=stills, grey=grey, backend=backend, ink=ink, flips=flips,
                             askew=None if askew else ())
    parts = str(spec).split("+")
    if len(parts) > 4:
        raise ValueError(f"{spec}: expected a models folder or "
                         "DETECTOR[+CLASSIFIER[+DICE[+FINDER]]]")
    for part in parts:
        if not Path(part).is_file():
            raise FileNotFoundError(f"{part}: no such ONNX model")
    cls, dice, finder = [*parts[1:], None, None, None][:3]
    return Detector(parts[0], cls, dice=dice, dice_finder=finder, conf=conf, threads=threads,
                    imgsz=size or "auto", stills=stills, grey=grey, backend=backend, ink=ink,
                    flips=flips, askew=None if askew else ())


def named(dets: TileDetections, labels: Collection[str]) -> Detections:
    """Detector output in a dataset's names: tiles by name, a die as ``die1``..``die6`` (plain
    ``die`` when the labels give no faces), a face-down tile as ``tile_back`` when the labels
    have that class (else it is left out: it is no face), a coarse tile as ``tile``."""
    faces = not labels or any(n in DIE_FACES for n in labels)
    backs = "tile_back" in labels
    coarse = dets.data.get("coarse", np.zeros(len(dets), bool))
    keep, names = [], []
    for i, (c, f) in enumerate(zip(dets.class_id.tolist(), dets.face.tolist(), strict=True)):
        if c == BACK_CLASS:
            if not backs:
                continue
            name = "tile_back"
        elif c == DIE_CLASS:
            name = f"die{f}" if faces and f else "die"
        else:
            name = "tile" if coarse[i] else TILE_NAMES[c]
        keep.append(i)
        names.append(name)
    return Detections(dets.xyxy[keep].astype(float), dets.confidence[keep].astype(float), names)


def classify_boxes(detector: Detector, image: np.ndarray, gt: Detections) -> list[str]:
    """What the classifiers alone name each labeled tile and die box (crop accuracy): the
    boxes go through the same :meth:`Detector.classify` and die-face reading as detections."""
    is_die = np.array([n == "die" or n in DIE_FACES for n in gt.names], bool)
    n = len(gt.names)
    dets = TileDetections(xyxy=gt.boxes, confidence=np.ones(n),
                          class_id=np.where(is_die, DIE_CLASS, 0),
                          data={"coarse": ~is_die})
    dets = detector.classify(image, dets)
    if detector.dice is not None:
        dets = detector.read_dice_faces(image, dets)
    return named(dets, DIE_FACES).names


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
    return load_image(path).shape[:2]  # type: ignore[return-value]


def to_coarse(gt: Detections) -> Detections:
    """Ground truth in a detection stage's coarse names (tile kinds -> ``tile``, die faces ->
    ``die``)."""
    names = ["die" if n in DIE_FACES or n == "die" else "tile" if n in TILE_NAMES
             or n == "tile_face" else n for n in gt.names]
    return Detections(gt.boxes, gt.scores, names)


@dataclass
class ModelReport:
    """One model's evaluation plus what it costs; ``stage``: its detection stage alone."""

    label: str
    evaluation: Evaluation
    names: list[str]
    seconds_per_image: float
    crop_accuracy: dict[str, tuple[int, int]] = field(default_factory=dict)
    stage: Evaluation | None = None


def evaluate(detector: Detector, data: list[LabeledImage], label: str) -> ModelReport:
    """Run ``detector`` over ``data`` as ``mjtable detect`` runs it and score it against the
    labels, at its own operating threshold (``detector.conf``)."""
    labels = {n for item in data for n in item.gt.names}
    coarse = {"tile", "die", *({"tile_back"} & labels)}  # a back counts where backs are labeled
    ev = Evaluation(conf=detector.conf)
    stage = Evaluation(conf=detector.conf) if detector.two_stage else None
    crop_acc: dict[str, list[int]] = {"tiles": [0, 0], "dice": [0, 0]}
    spent = 0.0
    for item in data:
        image = load_image(item.image)
        t0 = time.perf_counter()
        pred = detector.detect(image, conf=MAP_CONF)
        spent += time.perf_counter() - t0
        ev.add(named(pred, labels), item.gt, multiset_filter=TILE_NAMES)
        if stage is None:
            continue
        assert detector.last_found is not None
        stage.add(named(detector.last_found, coarse), to_coarse(item.gt))
        faces = [i for i, n in enumerate(item.gt.names) if n in TILE_NAMES or n in DIE_FACES]
        if faces:  # the classifiers alone, on the labeled boxes
            gt = Detections(item.gt.boxes[faces], item.gt.scores[faces],
                            [item.gt.names[i] for i in faces])
            for truth, got in zip(gt.names, classify_boxes(detector, image, gt), strict=True):
                key = "dice" if truth in DIE_FACES else "tiles"
                crop_acc[key][0] += int(truth == got)
                crop_acc[key][1] += 1
    return ModelReport(label, ev, list(detector.det.names), spent / max(len(data), 1),
                       {k: (v[0], v[1]) for k, v in crop_acc.items() if v[1]}, stage)


def _map_lines(ev: Evaluation, groups: list[tuple[str, Collection[str] | None]],
               indent: str = "  ") -> list[str]:
    lines = []
    for title, names in groups:
        m50, m5095, n = ev.mean_ap(names)
        if n == 0:
            continue
        p, r = ev.precision_recall(names)
        lines.append(f"{indent}{title:22s} mAP@0.5 {m50:.3f}  mAP@0.5:0.95 {m5095:.3f}  "
                     f"P {p:.3f}  R {r:.3f}  ({n} classes)")
    return lines


def format_report(report: ModelReport, per_class: bool = True, top_confusions: int = 15) -> str:
    """The text block ``mjtable eval`` prints for one model."""
    ev = report.evaluation
    lines = [f"== {report.label}  ({report.seconds_per_image * 1000:.0f} ms/image, "
             f"{ev.images} images, operating conf {ev.conf:g})"]
    lines += _map_lines(ev, [("all classes", None), ("42 tile kinds", TILE_NAMES),
                             ("reference's 34 kinds", TILE_NAMES[:34]), ("die faces", DIE_FACES)])
    if ev.multiset_images:
        lines.append(f"  exact tile multiset: {ev.exact_multiset}/{ev.multiset_images} images "
                     f"({ev.exact_multiset / ev.multiset_images:.1%})")
    if report.stage is not None:
        st = report.stage
        lines += _map_lines(st, [("detection stage alone", COARSE_NAMES)])
        per = ", ".join(f"{name} {a50:.2f}/{a5095:.2f} ({st.stats[name].n_gt})"
                        for name, (a50, a5095) in st.ap_table().items())
        lines.append(f"    coarse AP@0.5 / AP@0.5:0.95: {per}; tile/die counts exact: "
                     f"{st.exact_multiset}/{st.multiset_images} images")
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


# ---------------------------------------------------------------- whole tables


@dataclass
class Scene:
    """One labeled table photo: the picture and its manifest (``docs/datasets.md``)."""

    image: Path
    manifest: dict[str, Any]


def load_scenes(folder: Path, limit: int | None = None) -> list[Scene]:
    """Every manifest of ``folder`` with its picture: ``manifests/NAME.json`` with the image
    ``NAME.*`` anywhere under ``images/`` (the generator's layout), or ``NAME.json`` beside
    ``NAME.jpg`` (a folder of labeled photos, ``vision/samples``); a manifest's ``image`` key,
    relative to the manifest, names the picture instead. ``limit``: evenly spaced."""
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such folder")
    root = folder / "manifests" if (folder / "manifests").is_dir() else folder
    paths = sorted(root.glob("*.json"))
    if limit and limit < len(paths):
        paths = [paths[round(i * len(paths) / limit)] for i in range(limit)]
    images: dict[str, Path] = {}
    if (folder / "images").is_dir():
        images = {p.stem: p for p in (folder / "images").rglob("*")
                  if p.suffix.lower() in IMAGE_SUFFIXES}
    out = []
    for path in paths:
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: not a readable manifest ({exc})") from None
        if not isinstance(manifest, dict) or "objects" not in manifest or "game" not in manifest:
            continue  # a close-up or dice scene: no table to read
        manifest.setdefault("name", path.stem)
        if "image" in manifest:
            image = path.parent / manifest["image"]
        else:
            beside = [path.with_suffix(s) for s in IMAGE_SUFFIXES if path.with_suffix(s).exists()]
            image = images.get(path.stem) or (beside[0] if beside else path.with_suffix(".jpg"))
        if not image.is_file():
            raise FileNotFoundError(f"{path}: no picture {image.name} for this manifest")
        out.append(Scene(image, manifest))
    if not out:
        raise ValueError(f"{folder}: no table manifests (expected manifests/NAME.json with a "
                         "'game' and 'objects', see docs/datasets.md)")
    return out


def evaluate_tables(detector: Detector, scenes: list[Scene], ruleset: str | None = None
                    ) -> tuple[TableScore, float]:
    """Read every scene as ``mjtable read`` does (detect, find the table, seat the tiles,
    repair, build the record), score it against its manifest; also seconds per scene.
    ``ruleset`` (default: the registry's first) judges a winner's hand unless the manifest
    names its own (``ruleset``, or ``game.ruleset`` as a saved example has it)."""
    from vision.reading import read_image

    return _scored(scenes, ruleset,
                   lambda image, setting: read_image(image, detector, **setting))


def scene_setting(manifest: dict[str, Any], ruleset: str | None = None) -> dict[str, Any]:
    """What a reader is told of a scene, as a user tells ``read`` or ``watch``: its ruleset
    (the manifest's own, else ``ruleset``, else the registry's first), dealer, corners when
    labeled and the seat at the bottom of the picture."""
    from scoring.rulesets.registry import default_ruleset
    from vision.manifest import bottom_seat

    m = manifest
    return {"ruleset": m.get("ruleset") or m["game"].get("ruleset") or ruleset
            or default_ruleset(), "dealer": int(m["game"].get("dealer", 0)),
            "corners": m.get("corners"), "bottom_seat": int(m.get("bottom_seat", bottom_seat(m)))}


def _scored(scenes: list[Scene], ruleset: str | None,
            read: Callable[[np.ndarray, dict[str, Any]], Any]) -> tuple[TableScore, float]:
    """Each scene's picture read by ``read(image, scene_setting)`` and scored against its
    manifest; also the seconds ``read`` took per scene."""
    total = TableScore()
    spent = 0.0
    for scene in scenes:
        image = load_image(scene.image)
        t0 = time.perf_counter()
        reading = read(image, scene_setting(scene.manifest, ruleset))
        spent += time.perf_counter() - t0
        total += score_reading(reading, scene.manifest)
    return total, spent / max(len(scenes), 1)


LIVE_FRAMES = 6  # frames of a scene fed to the live pipeline: 2.5 s of a still picture
FRAME_GAP = 0.5  # seconds of camera time between them


def evaluate_live(detector: Detector, scenes: list[Scene], ruleset: str | None = None,
                  frames: int = LIVE_FRAMES, showdown_stills: bool = True
                  ) -> tuple[TableScore, float]:
    """Read every scene as ``mjtable watch`` reads a camera that shows it for a while: a fresh
    :class:`vision.pipeline.Pipeline` (the stream's ``detector``, the change mask, stability)
    fed ``frames`` frames of the picture ``FRAME_GAP`` s apart; the record of its first win
    (:meth:`Pipeline.hand_record`) and its last frame's table are scored as
    :func:`evaluate_tables` scores a still. Also seconds per scene."""
    from types import SimpleNamespace

    from vision.pipeline import Pipeline

    if frames < 2:
        raise ValueError(f"a live reading needs 2 frames or more to hold, got {frames}")

    def live(image: np.ndarray, setting: dict[str, Any]) -> SimpleNamespace:
        pipe = Pipeline(None, detector, showdown_stills=showdown_stills, **setting)
        record = None
        for i in range(frames):
            result = pipe.process(image.copy(), index=i, timestamp=i * FRAME_GAP)
            if record is None and any(e.type == "win" for e in result.events):
                record, _ = pipe.hand_record(result)
        return SimpleNamespace(table=result.table, detections=result.detections,
                               dice=result.dice, record=record or {"wins": [{}]})

    return _scored(scenes, ruleset, live)


def _share(pair: list[int]) -> str:
    right, n = pair
    return f"{right}/{n} ({right / n:.1%})" if n else "none labeled"


def _in_view(every: list[int], in_view: list[int]) -> str:
    """The share of those whose face-up tiles are all in view, where some are not."""
    if in_view[1] == every[1]:
        return ""
    return f"; of the {in_view[1]} with every face-up tile in view: {_share(in_view)}"


def _marked(score: TableScore) -> str:
    """How many tiles the unsure marks ask a person to look at, and how many misreads they hold."""
    misread, right = score.unsure_misread, score.unsure_right
    found = misread[1] + right[1]
    if not found:
        return "none found"
    marked = misread[0] + right[0]
    return (f"{marked} of {found} ({marked / found:.1%}), holding {_share(misread)} of the "
            "misread")


def format_tables(score: TableScore, label: str, seconds: float, top_confusions: int = 15,
                  misses: int = 10, how: str = "read as `mjtable read` reads") -> str:
    """The text block ``mjtable eval --tables`` prints for one model (``how``: how the
    scenes were read)."""
    lines = [f"== {label}  ({seconds:.2f} s/scene, {score.scenes} scenes, {how})",
             f"  seats whose face-up tiles (hand, melds, flowers) are exactly right: "
             f"{_share(score.seats)}{_in_view(score.seats, score.seats_in_view)}",
             f"  winner's hand exactly right (recorded as the win): {_share(score.winners)}"
             f"{_in_view(score.winners, score.winners_in_view)}",
             f"  face-up tiles read right and at the right seat: {_share(score.tiles)}; "
             f"{score.wrong_seat} given to the wrong seat, {score.missed} not found",
             f"  face-up tiles at the seats marked unsure (confidence under {LOW_CONFIDENCE}, "
             f"worth a look): {_marked(score)}",
             f"  dice found with the right face: {_share(score.dice)}; rolls read right: "
             f"{_share(score.rolls)}",
             f"  tile backs (counted apart): {_share(score.backs)} labeled backs found, "
             f"{score.back_boxes} boxes read as backs; hidden hands counted right: "
             f"{_share(score.hidden)}"]
    confusions = score.confusions.most_common(top_confusions)
    if confusions:
        lines.append("  top confusions (true -> read: count): " + ", ".join(
            f"{a}->{b}: {c}" for (a, b), c in confusions))
    hard = [(src, n) for src, n in score.misread.most_common() if n]
    if hard:
        lines.append(f"  face-up tiles misread or not found, by source photo ({len(hard)} of "
                     f"{len(score.placed)} sources; misread of placed): " + ", ".join(
                         f"{src} {n}/{score.placed[src]}"
                         for src, n in hard[:top_confusions // 2]))
    for miss in score.misses[:misses]:
        lines.append(f"  miss: {miss}")
    if len(score.misses) > misses:
        lines.append(f"  ... {len(score.misses) - misses} more misses")
    return "\n".join(lines)
