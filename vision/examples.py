"""A confirmed showdown saved as a labeled example, so a club's own tiles and camera can
become training data (``mjtable run --save-examples DIR``, then ``mjtable dataset import
examples``).

One example is the frame (``images/NAME.jpg``), YOLO labels in the project's class order
(``labels/NAME.txt``: 0-41 tiles, 42 die, as ``tiles-real``) and a manifest in the generator's
format (``manifests/NAME.json``, which ``mjtable eval --tables`` reads). Tiles a person
confirmed (the winner's and every face-up hand that was scored) carry ``"checked": true``;
the rest (discards, walls) are the camera's reading, kept but marked unchecked, so an
importer can choose. Face-down tiles are in the manifest only.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.tiles import DIE_CLASS, NUM_TILES, TILE_NAMES, Tile
from vision.detections import TileDetections
from vision.labels import BACK_CLASS


def example_manifest(dets: TileDetections, record: Mapping[str, Any], size: tuple[int, int],
                     confirmed: Mapping[int, Tile], session: str = "") -> dict[str, Any]:
    """The manifest of one confirmed frame: ``confirmed`` maps a detection row to the tile a
    person confirmed there (rows not in it keep the camera's class, unchecked); ``record`` is
    the confirmed hand record (JSON form), its seats the manifest's ground truth."""
    objects = []
    for row in range(len(dets)):
        cls = int(dets.class_id[row])
        checked = row in confirmed
        if checked:
            name = TILE_NAMES[confirmed[row]]
        elif cls == DIE_CLASS:
            name = "die"
        elif cls == BACK_CLASS:
            name = "back"
        elif 0 <= cls < NUM_TILES:
            name = TILE_NAMES[cls]
        else:
            continue
        obj: dict[str, Any] = {
            "tile": name, "seat": int(dets.seat[row]) if dets.seat[row] >= 0 else None,
            "role": str(dets.role[row]) or None,
            "xyxy": [round(float(v), 1) for v in dets.xyxy[row]],
            "visible": 1.0, "checked": checked}
        if cls == DIE_CLASS and dets.face[row]:
            obj["face"] = int(dets.face[row])
        objects.append(obj)
    seats = []
    for k, seat in enumerate(record.get("seats", [])):
        seats.append({"seat": k, "concealed": seat.get("concealed", ""),
                      "melds": seat.get("melds", []), "flowers": seat.get("flowers", []),
                      "revealed": bool(seat.get("concealed"))})
    game = {"dealer": record.get("dealer", 0), "seats": seats,
            "dice": list(record.get("context", {}).get("dice", [])),
            "wins": record.get("wins", []), "ruleset": record.get("ruleset")}
    return {"kind": "confirmed", "size": list(size), "session": session,
            "objects": objects, "game": game}


def yolo_lines(manifest: Mapping[str, Any]) -> str:
    """The manifest's tiles and dice as YOLO label lines (``class cx cy w h``, normalised)."""
    w, h = manifest["size"]
    lines = []
    for obj in manifest["objects"]:
        name = obj["tile"]
        if name == "back":
            continue
        cls = DIE_CLASS if name == "die" else TILE_NAMES.index(name)
        x1, y1, x2, y2 = obj["xyxy"]
        x1, x2 = max(0.0, x1), min(float(w), x2)
        y1, y2 = max(0.0, y1), min(float(h), y2)
        if x2 <= x1 or y2 <= y1:
            continue
        lines.append(f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
                     f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}\n")
    return "".join(lines)


def save_example(folder: str | os.PathLike[str], image: np.ndarray,
                 manifest: dict[str, Any], name: str | None = None) -> Path:
    """Write one example under ``folder``; returns the manifest's path. Each file is written
    whole or not at all (a crash never leaves half an example)."""
    root = Path(folder)
    name = name or time.strftime("%Y%m%d-%H%M%S") + f"-{time.time_ns() % 10**6:06d}"
    parts = {"images": (f"{name}.jpg", None), "labels": (f"{name}.txt", yolo_lines(manifest)),
             "manifests": (f"{name}.json", json.dumps(manifest, ensure_ascii=False, indent=1))}
    for sub, (file, text) in parts.items():
        (root / sub).mkdir(parents=True, exist_ok=True)
        tmp = root / sub / f".{file}.tmp"
        if text is None:
            ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            if not ok:
                raise ValueError("the frame could not be encoded as JPEG")
            tmp.write_bytes(data.tobytes())
        else:
            tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, root / sub / file)
    return root / "manifests" / f"{name}.json"
