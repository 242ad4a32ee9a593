"""Synthetic scenes: labels match the rendered pixels, manifests match labels, seeds reproduce."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.classes import TILE_BACK, map_class
from datasets.game import sample_game
from datasets.scene import flat_class_color, make_scene
from datasets.synth import balance, label_lines, synthesize
from datasets.yolo import read_labels, read_names
from scoring.engine import is_complete
from scoring.tiles import DIE_CLASS, NUM_KINDS, TILE_NAMES, parse_tiles
from tests.datasets.conftest import needs_art
from ui.cli import main

SMALL = (960, 540)


def _class_mask(img: np.ndarray, cls: int) -> np.ndarray:
    r, g, b = (round(c * 255) for c in flat_class_color(cls))
    return (img[..., 2] == r) & (img[..., 1] == g) & (img[..., 0] == b)


@pytest.mark.parametrize(("kind", "index"), [("table", 0), ("table", 3), ("hand", 1),
                                             ("hand", 2), ("dice", 0)])
def test_flat_render_boxes_cover_their_faces(kind: str, index: int) -> None:
    scene = make_scene(kind, 7, index, SMALL if kind == "table" else None, flat=True)
    img = scene.image
    h, w = img.shape[:2]
    labeled = [lab for lab in scene.labels if lab.cls != TILE_BACK]
    assert labeled, "a scene without any labeled face"
    covered = {c: np.zeros((h, w), bool) for c in {lab.cls for lab in labeled}}
    for lab in labeled:
        x0, y0, x1, y1 = lab.xyxy
        xi0, yi0, xi1, yi1 = int(x0), int(y0), int(np.ceil(x1)), int(np.ceil(y1))
        inside = _class_mask(img[yi0:yi1, xi0:xi1], lab.cls)
        # a face (a quad, maybe rotated) fills at least ~half of its box, and its pixels reach
        # every side of the box (the box is tight; rounded corners may stop short of it)
        assert inside.mean() > 0.4, (kind, TILE_NAMES[lab.cls] if lab.cls < 42 else "die")
        tx = 3 + int(0.1 * inside.shape[1])
        ty = 3 + int(0.1 * inside.shape[0])
        assert inside[:, :tx].any() and inside[:, -tx:].any(), lab
        assert inside[:ty].any() and inside[-ty:].any(), lab
        covered[lab.cls][max(yi0 - 2, 0):yi1 + 2, max(xi0 - 2, 0):xi1 + 2] = True
    # the other way round: nearly every pixel of a class colour lies in a box of that class
    # (the rest belongs to faces more than half hidden, which are not labeled)
    total = outside = 0
    for cls, cov in covered.items():
        m = _class_mask(img, cls)
        total += int(m.sum())
        outside += int((m & ~cov).sum())
    for cls in set(range(43)) - set(covered):
        stray = int(_class_mask(img, cls).sum())
        total += stray
        outside += stray
    assert outside <= 0.06 * total, (outside, total)


def test_scene_is_a_function_of_its_seed() -> None:
    a = make_scene("table", 3, 5, (480, 270), styles=["gleitz"]) if _art() else None
    if a is None:
        a = make_scene("table", 3, 5, (480, 270), flat=True)
        b = make_scene("table", 3, 5, (480, 270), flat=True)
        c = make_scene("table", 4, 5, (480, 270), flat=True)
    else:
        b = make_scene("table", 3, 5, (480, 270), styles=["gleitz"])
        c = make_scene("table", 4, 5, (480, 270), styles=["gleitz"])
    assert a.encoded == b.encoded
    assert [lab.xyxy for lab in a.labels] == [lab.xyxy for lab in b.labels]
    assert a.manifest == b.manifest
    assert a.encoded != c.encoded


def test_a_turned_camera_turns_the_tables_rows() -> None:
    """``turn``: the camera turned about the table by up to that many degrees either way,
    evenly; by default it is set square within a few degrees (the rows' angle measured from
    the labeled face-up tiles, as the reader measures it)."""
    from vision.geometry import row_angle

    def rows(turn: float | None) -> list[float]:
        out = []
        for index in range(6):
            scene = make_scene("table", 5, index, SMALL, flat=True, turn=turn)
            faces = np.array([lab.xyxy for lab in scene.labels if lab.cls < 42], float)
            out.append(abs(np.degrees(row_angle((faces[:, :2] + faces[:, 2:]) / 2))))
        return out

    square, turned = rows(None), rows(45.0)
    assert max(square) < 15.0, square
    assert max(turned) > 25.0 and max(turned) <= 45.0, turned
    with pytest.raises(ValueError, match=r"turn must be 0\.\.45 degrees, got 50"):
        synthesize(Path("unused"), 1, turn=50.0)


def _art() -> bool:
    from tests.datasets.conftest import HAVE_ART

    return HAVE_ART


def test_games_are_legal() -> None:
    for seed in range(150):
        g = sample_game(random.Random(seed))
        counts: Counter[int] = Counter()
        for s, seat in enumerate(g.seats):
            counts.update(seat.concealed + seat.flowers + seat.discards)
            n_sets = 0
            for m, side in zip(seat.melds, seat.sideways, strict=True):
                counts.update(m.tiles)
                n_sets += 1
                if m.type == "chow":
                    assert m.from_seat == (s + 3) % 4
                    assert sorted(m.tiles) == [min(m.tiles) + i for i in range(3)]
                    assert min(m.tiles) < 27 and min(m.tiles) // 9 == max(m.tiles) // 9
                else:
                    assert len(set(m.tiles)) == 1
                if m.type == "concealed_kong":
                    assert m.from_seat is None and side is None
                else:
                    assert m.from_seat not in (None, s) and 0 <= side < len(m.tiles)
            expect = 3 * (4 - n_sets) + (2 if s == g.to_play else 1)
            assert len(seat.concealed) == expect
            if seat.revealed and s == g.to_play:
                assert is_complete(seat.concealed) or len(seat.concealed) == expect
        assert all(counts[k] <= 4 for k in range(NUM_KINDS))
        assert all(counts[k] <= 1 for k in range(NUM_KINDS, 42))
        assert sum(counts.values()) + g.wall_tiles == 144


def test_manifest_agrees_with_labels_and_seats(tmp_path: Path) -> None:
    synthesize(tmp_path / "d", 3, seed=2, kind="table", size=SMALL, flat=True, progress=False,
               class_set="coarse")
    names = read_names(tmp_path / "d")
    assert names == ["tile_face", "tile_back", "die"]
    for mpath in sorted((tmp_path / "d" / "manifests").glob("*.json")):
        man = json.loads(mpath.read_text())
        labels = read_labels(tmp_path / "d" / "labels" / man["split"] / f"{man['name']}.txt", 3)
        lines = [o["label"] for o in man["objects"] if o["label"] is not None]
        assert sorted(lines) == list(range(len(labels)))
        w, h = man["size"]
        for obj in man["objects"]:
            box = labels[obj["label"]]
            kind = (DIE_CLASS if obj["tile"] == "die" else TILE_BACK if obj["tile"] == "back"
                    else TILE_NAMES.index(obj["tile"]))
            assert box.cls == map_class("coarse", kind, obj.get("face", 0)) == obj["class"]
            x0, y0, x1, y1 = obj["xyxy"]
            assert abs(box.cx * w - (x0 + x1) / 2) < 0.11 and abs(box.w * w - (x1 - x0)) < 0.11
            assert abs(box.cy * h - (y0 + y1) / 2) < 0.11
            if obj["tile"] == "die":
                assert obj["face"] in man["dice"]
        # every labeled face belongs to the seat and role the ground truth says
        seats = man["game"]["seats"]
        for obj in man["objects"]:
            if obj["tile"] in ("back", "die"):
                continue
            seat = seats[obj["seat"]]
            pool = {"hand": parse_tiles(seat["concealed"]),
                    "meld": [t for m in seat["melds"] for t in parse_tiles(m["tiles"])],
                    "flower": parse_tiles("".join(seat["flowers"])),
                    "discard": parse_tiles("".join(seat["discards"]))}[obj["role"]]
            assert TILE_NAMES.index(obj["tile"]) in pool
        total = sum(len(parse_tiles(s["concealed"])) + len(parse_tiles("".join(s["flowers"])))
                    + len(parse_tiles("".join(s["discards"])))
                    + sum(len(parse_tiles(m["tiles"])) for m in s["melds"]) for s in seats)
        assert total + man["game"]["wall_tiles"] == 144
        assert len(man["dice"]) == 2 and all(1 <= d <= 6 for d in man["dice"])


def test_label_lines_per_class_set() -> None:
    scene = make_scene("table", 1, 0, SMALL, flat=True)
    t43, lines43 = label_lines(scene.labels, SMALL, "tiles43")
    coarse, lines_c = label_lines(scene.labels, SMALL, "coarse")
    backs = sum(lab.cls == TILE_BACK for lab in scene.labels)
    assert backs > 0 and len(coarse) == len(scene.labels) == len(t43) + backs
    assert all(b.cls < 43 for b in t43) and {b.cls for b in coarse} <= {0, 1, 2}
    assert sum(x is None for x in lines43) == backs and None not in lines_c


@needs_art
def test_cli_synth_stats_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "syn"
    assert main(["dataset", "synth", "--out", str(out), "--scenes", "3", "--kind", "hand",
                 "--size", "320x240", "--workers", "2", "--style", "gleitz", "--quiet"]) == 0
    assert len(list((out / "images").rglob("*.jpg"))) == 3
    assert main(["dataset", "stats", str(out)]) == 0
    assert "3 images" in capsys.readouterr().out
    assert main(["dataset", "sheet", str(out), "--out", str(tmp_path / "s.png"),
                 "--cell", "120"]) == 0
    sheet = cv2.imread(str(tmp_path / "s.png"))
    assert sheet is not None and sheet.shape[1] == 4 * 120 + 5 * 4
    assert main(["dataset", "synth", "--out", str(out), "--scenes", "1"]) == 2
    assert "already holds a dataset" in capsys.readouterr().err
    assert main(["dataset", "synth", "--out", str(tmp_path / "x"), "--scenes", "1",
                 "--style", "nope"]) == 2
    assert "not available" in capsys.readouterr().err


def test_sampler_balances_the_face_up_kinds() -> None:
    # the faces a table shows for sure (discards, melds, flowers, hands laid down); the full
    # check over 1,000 rendered scenes is in docs/datasets.md (mjtable dataset stats)
    counts: Counter[int] = Counter()
    for seed in range(600):
        g = sample_game(random.Random(seed))
        for s in g.seats:
            counts.update(s.discards + s.flowers + [t for m in s.melds for t in m.tiles])
            if s.revealed:
                counts.update(s.concealed)
    _mean, low, high, group = balance([*list(TILE_NAMES), "die"], counts)
    assert len(group) == 42
    assert low > -0.2 and high < 0.2, (low, high)


def test_balance_report() -> None:
    c = Counter({0: 90, 1: 110, 42: 500})
    mean, low, high, group = balance(["a", "b"], Counter({0: 90, 1: 110}))
    assert (mean, round(low, 2), round(high, 2), group) == (100.0, -0.1, 0.1, [0, 1])
    mean, *_ = balance([*list(TILE_NAMES), "die"], c)
    assert mean == 200 / 42  # the die class is not one of the balanced kinds


def test_mix_kinds_are_fixed_by_seed() -> None:
    from datasets.synth import kind_of

    kinds = [kind_of("mix", 0, i) for i in range(200)]
    assert kinds == [kind_of("mix", 0, i) for i in range(200)]
    assert set(kinds) == {"table", "hand", "dice"}
    assert kind_of("table", 0, 5) == "table"
    with pytest.raises(ValueError, match="unknown scene kind"):
        synthesize("/nonexistent", 1, kind="street")


def test_close_up_manifest_lists_its_tiles() -> None:
    scene = make_scene("hand", 4, 3, (320, 240), flat=True)
    tiles = Counter(scene.manifest["tiles"])
    assert sum(tiles.values()) >= 3
    seen = Counter(o["tile"] for o in scene.manifest["objects"] if o["tile"] not in ("back",))
    assert all(seen[t] <= tiles[t] for t in seen)  # every labeled face is one of them


def test_showdowns_sets_the_share_of_showdown_tables() -> None:
    games = [make_scene("table", 4, i, SMALL, flat=True, showdowns=1.0).manifest["game"]
             for i in range(3)]
    assert all(s["revealed"] for g in games for s in g["seats"])
    game = make_scene("table", 4, 0, SMALL, flat=True, showdowns=0.0).manifest["game"]
    assert not any(s["revealed"] for s in game["seats"])
    with pytest.raises(ValueError, match="showdowns"):
        synthesize("/nonexistent", 1, showdowns=2.0)
