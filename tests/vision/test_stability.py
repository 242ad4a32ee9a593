"""Stability and repair over crafted frame sequences, through the whole pipeline."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.tiles import parse_tiles
from tests.vision.scenes import Scene, SeatSpec, detections, table_corners, top_down
from vision.detections import TileDetections
from vision.pipeline import Pipeline
from vision.stability import Stabilizer

CAM = top_down()


class ScriptedDetector:
    """Plays back prepared detections, one per call (a table simulator, not a model)."""

    def __init__(self, script: list[TileDetections]) -> None:
        self.script = list(script)
        self.calls = 0

    def detect(self, image: np.ndarray) -> TileDetections:
        self.calls += 1
        return self.script.pop(0)


def _frames(n: int) -> list[np.ndarray]:
    return [np.full((1080, 1080, 3), i % 250, np.uint8) for i in range(n)]


def _run(script: list[TileDetections], **kw) -> tuple[Pipeline, list]:
    pipe = Pipeline(detector=ScriptedDetector(script), corners=table_corners(CAM), motion=-1,
                    **kw)
    results = [pipe.process(img, index=i, timestamp=float(i))
               for i, img in enumerate(_frames(len(script)))]
    return pipe, results


def _types(results) -> list[tuple[int, str]]:
    return [(r.frame.index, e.type) for r in results for e in r.events]


BASE = [SeatSpec(hand="123m456p789s5566s", melds=[]),
        SeatSpec(hidden=13), SeatSpec(hidden=13), SeatSpec(hidden=13)]


def scene(**changes) -> Scene:
    seats = [SeatSpec(**{**BASE[0].__dict__, **changes}), *BASE[1:]]
    return Scene(seats=seats, wall=40)


def test_state_is_reported_only_after_n_equal_readings() -> None:
    a = detections(scene(), CAM)[0]
    pipe, results = _run([a] * 4, stable_readings=5, stable_s=0)
    assert all(e.type != "hand" for r in results for e in r.events)
    pipe, results = _run([a] * 6, stable_readings=5, stable_s=0)
    hand_events = [(i, t) for i, t in _types(results) if t == "hand"]
    # the 5th frame, for the one hand shown face up; the three standing hands are reported
    # too, with no event: their backs tell nothing but a count
    assert hand_events == [(4, "hand")]
    assert pipe.hands[0] is not None and pipe.hands[0].tile_count == 13
    assert all(h is not None and h.hidden == 13 for h in pipe.hands[1:])


def test_state_is_reported_only_once_it_held_the_stable_time() -> None:
    """Two readings are not enough before the stable time has passed (frames 1 s apart)."""
    a = detections(scene(), CAM)[0]
    _, results = _run([a] * 5, stable_readings=2, stable_s=2.5)
    assert {i for i, t in _types(results) if t == "hand"} == {3}


def test_a_reading_seen_once_is_never_reported_by_reused_frames() -> None:
    """A still picture reuses its reading, but a reused frame is no second reading: the
    changed part is read again, and a reading that does not come back is never reported
    (once the fault behind false events: unchanged frames counted as agreeing readings)."""
    a = detections(scene(), CAM)[0]
    missing = a[np.arange(len(a)) != 3]  # the next reading of the same picture: 12 tiles
    det = ScriptedDetector([a, missing])
    pipe = Pipeline(detector=det, corners=table_corners(CAM), settle=False)
    img = np.full((1080, 1080, 3), 9, np.uint8)
    results = [pipe.process(img, i, 0.2 * i) for i in range(10)]
    assert [r.reused for r in results][:3] == [False, False, True] and det.calls == 2
    assert [e for r in results for e in r.events if e.data.get("seat") == 0] == []
    # read alike twice, then reused: reported once the stable time has passed
    det = ScriptedDetector([a, a])
    pipe = Pipeline(detector=det, corners=table_corners(CAM), settle=False, stable_s=0.5)
    results = [pipe.process(img, i, 0.2 * i) for i in range(6)]
    assert det.calls == 2
    assert [r.frame.index for r in results for e in r.events
            if e.type == "hand" and e.data["seat"] == 0] == [3]


def test_a_picture_changed_unread_breaks_the_run() -> None:
    from vision.stability import Stabilizer

    st = Stabilizer(seconds=0.2, readings=2)
    assert st.update("k", 1, time=0.0) is None and st.wanting()
    st.interrupt()  # hands over the table: the picture changed and was not read
    assert not st.wanting()
    assert st.update("k", 1, time=0.5, fresh=False) is None  # a reused frame starts nothing
    assert st.update("k", 1, time=0.6) is None
    assert st.update("k", 1, time=0.7) is None  # two readings, but only 0.1 s
    assert st.update("k", 1, time=0.8, fresh=False) == 1  # held 0.2 s: reported
    assert st.update("k", 1, time=1.0) is None  # once


def test_a_flicker_restarts_the_count_and_is_never_reported() -> None:
    a = detections(scene(), CAM)[0]
    missing = a[np.arange(len(a)) != 3]  # a tile hidden by an arm for one frame: 12 tiles
    _, results = _run([a, a, a, missing, a, a, a, a], stable_readings=4, stable_s=0)
    seat0 = [r.frame.index for r in results for e in r.events
             if e.type == "hand" and e.data["seat"] == 0]
    assert seat0 == [7]  # frames 4..7 are the first four equal, plausible ones


def test_discards_and_claims_become_match_events() -> None:
    s1 = detections(scene(discards="1m"), CAM)[0]
    s2 = detections(scene(discards="1m9p"), CAM)[0]
    s3 = detections(scene(hand="123m456p789s6s", discards="1m9p",
                          melds=[("pung", "NNN", 1)]), CAM)[0]
    _, results = _run([s1] * 3 + [s2] * 3 + [s3] * 3, stable_readings=3, stable_s=0)
    evs = [e.to_json() for r in results for e in r.events if e.for_match]
    assert evs == [{"type": "discard", "seat": 0, "tile": "1m"},
                   {"type": "discard", "seat": 0, "tile": "9p"},
                   {"type": "pung", "seat": 0}]


def test_fifth_copy_in_every_frame_is_repaired_and_reported() -> None:
    sc = Scene(seats=[SeatSpec(hand="1111m234p567s999s"), SeatSpec(discards="2m"),
                      SeatSpec(), SeatSpec()], wall=40)
    bad = detections(sc, CAM, misread={13: parse_tiles("1m")[0]})[0]
    pipe, results = _run([bad] * 3, stable_readings=3, stable_s=0)
    assert results[0].repair.changes and str(results[0].repair.changes[0]) == "1m->2m"
    assert pipe.hands[1] is not None and pipe.hands[1].discards == tuple(parse_tiles("2m"))
    # said once, with the seat it repaired (stable like it), not on every frame
    assert [(r.frame.index, e.type) for r in results for e in r.events
            if e.type == "repaired"] == [(2, "repaired")]


def test_impossible_reading_that_cannot_be_repaired_is_never_reported() -> None:
    sc = Scene(seats=[SeatSpec(hand="11111m234p567s99s"), SeatSpec(), SeatSpec(), SeatSpec()])
    dets = detections(sc, CAM)[0]
    dets = dets.with_(topk_ids=dets.class_id[:, None].copy(),
                      topk_probs=np.ones((len(dets), 1), np.float32))  # no alternatives
    pipe, results = _run([dets] * 4, stable_readings=2, stable_s=0)
    assert not results[-1].repair.legal
    assert pipe.hands[0] is None


def _dice_scene(dice: tuple[int, ...]) -> TileDetections:
    sc = Scene(seats=[SeatSpec(), SeatSpec(), SeatSpec(), SeatSpec()], wall=144, dice=dice)
    return detections(sc, CAM)[0]


def test_dice_read_once_stable_with_the_wall_break() -> None:
    pipe, results = _run([_dice_scene((2, 5))] * 3, stable_readings=3, stable_s=0,
                         ruleset="shanghai", dealer=1)
    evs = [e.to_json() for r in results for e in r.events]
    assert evs == [{"type": "dice", "seat": 1, "dice": [2, 5]},
                   {"type": "wall_broken", "wall_seat": 3, "stacks": 7}]
    assert pipe.dice is not None and pipe.dice.total == 7


def test_two_rolls_with_the_same_faces_count_twice_when_the_dice_leave_between() -> None:
    roll, gone = _dice_scene((3, 3)), _dice_scene(())
    pipe, results = _run([roll] * 2 + [gone] * 2 + [roll] * 2, stable_readings=2, stable_s=0,
                         ruleset="shandong", dealer=0)
    evs = [e.type for r in results for e in r.events if e.type in ("dice", "wall_broken")]
    assert evs == ["dice", "dice", "wall_broken"]  # Shandong breaks after the second roll
    assert pipe.rolls == [(3, 3), (3, 3)]
    assert pipe.dice is not None and pipe.dice.wall_break is not None


def test_unchanged_picture_reuses_detections() -> None:
    a = detections(scene(), CAM)[0]
    det = ScriptedDetector([a, a])
    pipe = Pipeline(detector=det, corners=table_corners(CAM), settle=False,
                    stable_readings=1, stable_s=0)  # nothing waits to be read again
    img = np.full((1080, 1080, 3), 9, np.uint8)
    first, second = pipe.process(img), pipe.process(img.copy())
    assert (first.reused, second.reused, det.calls) == (False, True, 1)
    moved = img.copy()
    moved[:540] = 200
    assert not pipe.process(moved).reused and det.calls == 2


def test_one_tile_placed_is_a_change_but_sensor_noise_is_not() -> None:
    """A discard is a tenth of a grey level of the whole picture's mean: still frames may be
    reused only while no block of the picture changed."""
    a = detections(scene(), CAM)[0]
    det = ScriptedDetector([a, a, a])
    pipe = Pipeline(detector=det, corners=table_corners(CAM), settle=False,
                    stable_readings=1, stable_s=0)
    rng = np.random.default_rng(0)
    img = np.full((1080, 1920, 3), 90, np.uint8)

    def noisy(image: np.ndarray) -> np.ndarray:
        return np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)

    pipe.process(noisy(img))
    assert pipe.process(noisy(img)).reused and det.calls == 1
    tile = img.copy()
    tile[500:543, 900:931] = 230  # one tile, 31x43 px, put down on the cloth
    assert not pipe.process(noisy(tile)).reused and det.calls == 2


def test_a_claimed_discard_leaves_the_pond_without_an_event() -> None:
    """The last discard taken into a meld: the claimer's meld is the event, not the pond."""
    from vision.reading import SeatState
    from vision.stability import events_between

    before = SeatState(0, (), 13, (), (), tuple(parse_tiles("1m9p")))
    claimed = SeatState(0, (), 13, (), (), tuple(parse_tiles("1m")))
    assert events_between(before, claimed, 0, 0.0) == []
    swept = SeatState(0, (), 13, (), (), ())
    assert [e.type for e in events_between(before, swept, 0, 0.0)] == ["discards_seen"]


def test_a_discard_after_a_claim_seen_only_together_is_still_a_discard() -> None:
    """The seat was not seen still between its claimed discard and its next one (the bundled
    video: seat 2's W claimed, then its N): the pond lost its last tile and gained one."""
    from vision.reading import SeatState
    from vision.stability import events_between

    before = SeatState(2, (), 13, (), (), tuple(parse_tiles("1m9pW")))
    after = SeatState(2, (), 13, (), (), tuple(parse_tiles("1m9pN")))
    assert [(e.type, e.data) for e in events_between(before, after, 0, 0.0)] == [
        ("discard", {"seat": 2, "tile": "N"})]
    first = SeatState(2, (), 13, (), (), tuple(parse_tiles("W")))
    assert [(e.type, e.data) for e in events_between(first, SeatState(
        2, (), 13, (), (), tuple(parse_tiles("N"))), 0, 0.0)] == [
        ("discard", {"seat": 2, "tile": "N"})]
    misread = SeatState(2, (), 13, (), (), tuple(parse_tiles("2m9pWN")))  # an older one changed
    assert [e.type for e in events_between(before, misread, 0, 0.0)] == ["discards_seen"]


def test_stabilizer_rejects_zero_readings_and_negative_time() -> None:
    with pytest.raises(ValueError, match="at least 1 reading"):
        Stabilizer(0.2, 0)
    with pytest.raises(ValueError, match="0 s or more"):
        Stabilizer(-1.0, 2)


def test_match_events_are_in_the_match_engines_form() -> None:
    from scoring.match import events
    s1 = detections(scene(discards="1m"), CAM)[0]
    s3 = detections(scene(hand="123m456p789s6s", discards="1m", flowers="f3",
                          melds=[("pung", "NNN", 1)]), CAM)[0]
    _, results = _run([s1] * 2 + [s3] * 2 + [_dice_scene((1, 6))] * 2, stable_readings=2,
                      stable_s=0)
    sent = [e.to_json() for r in results for e in r.events if e.for_match]
    assert {e["type"] for e in sent} >= {"discard", "pung", "flower", "dice"}
    for data in sent:
        assert events.event_from_json(data).to_json() == data


def test_pipeline_gives_a_valid_hand_record_after_a_win() -> None:
    from scoring.record import parse_record

    win = Scene(seats=[SeatSpec(hand="123m456m789m555mEE", drawn_apart=True),  # 混一色
                       SeatSpec(hand="123456789p1234s"), SeatSpec(hidden=13),
                       SeatSpec(hidden=13)], wall=20)
    pipe, results = _run([detections(win, CAM)[0]] * 2, stable_readings=2, stable_s=0,
                         ruleset="shanghai")
    assert [e.to_json() for r in results for e in r.events if e.type == "win"] == [
        {"type": "win", "seats": [0], "tile": "E"}]
    record, notes = pipe.hand_record(results[-1])
    parsed = parse_record(record)
    assert parsed.wins[0].seat == 0 and parsed.wins[0].tile == parse_tiles("E")[0]
    assert any("self-drawn" in n for n in notes)


def test_kongs_become_kong_events_of_the_right_kind() -> None:
    before = detections(scene(hand="123m456p789s6s", melds=[("pung", "NNN", 1)]), CAM)[0]
    added = detections(scene(hand="123m456p789s6s", melds=[("exposed_kong", "NNNN", 1)]),
                       CAM)[0]
    hidden = detections(scene(hand="123m456p6s", melds=[("exposed_kong", "NNNN", 1),
                                                        ("concealed_kong", "CCCC", None)]),
                        CAM)[0]
    _, results = _run([before] * 2 + [added] * 2 + [hidden] * 2, stable_readings=2, stable_s=0)
    kongs = [(r.frame.index, e.to_json()) for r in results for e in r.events
             if e.type == "kong"]
    assert kongs == [(3, {"type": "kong", "seat": 0, "kind": "added", "tile": "N"}),
                     (5, {"type": "kong", "seat": 0, "kind": "concealed", "tile": "C"})]


def test_poll_never_blocks_and_reads_a_folder(tmp_path) -> None:
    import time

    import cv2

    from vision.capture import CaptureEnded

    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((40, 40, 3), 50 * i, np.uint8))
    empty = TileDetections.empty()
    pipe = Pipeline(tmp_path, ScriptedDetector([empty, empty]))
    got = []
    deadline = time.monotonic() + 10
    with pytest.raises(CaptureEnded):
        while time.monotonic() < deadline:
            t0 = time.monotonic()
            result = pipe.poll(timeout=0.05)
            assert time.monotonic() - t0 < 1.0
            if result is not None:
                got.append(result.frame.index)
    pipe.close()
    assert got == [0, 1]


def test_models_wait_for_a_moving_picture_to_settle() -> None:
    a = detections(scene(), CAM)[0]
    det = ScriptedDetector([a] * 10)
    pipe = Pipeline(detector=det, corners=table_corners(CAM), stable_readings=2, stable_s=0)
    still = np.full((1080, 1080, 3), 9, np.uint8)
    frames = [still, still]  # the second is read again: the first reading's confirmation
    frames += [np.full((1080, 1080, 3), 40 * k, np.uint8) for k in range(1, 4)]  # a hand moves
    frames += [np.full((1080, 1080, 3), 200, np.uint8)] * 2  # a changed table, read once still
    results = [pipe.process(f, index=i, timestamp=0.1 * i) for i, f in enumerate(frames)]
    # the first moving frame is read (a change may be done at once), then the models wait
    assert [r.reused for r in results] == [False, False, False, True, True, True, False]
    assert det.calls == 4
    # a picture that never settles still gets read after SETTLE_WAIT seconds
    moving = [np.full((1080, 1080, 3), (30 * k) % 250, np.uint8) for k in range(1, 20)]
    more = [pipe.process(f, index=10 + i, timestamp=1.0 + 0.1 * i)
            for i, f in enumerate(moving)]
    assert 1 <= sum(not r.reused for r in more) <= 3


def test_a_moved_camera_is_calibrated_again_unless_corners_were_given() -> None:
    a = detections(scene(), CAM)[0]
    for corners, expect_new in ((None, True), (table_corners(CAM), False)):
        pipe = Pipeline(detector=ScriptedDetector([a] * 3), corners=corners, settle=False)
        pipe.process(np.full((1080, 1080, 3), 9, np.uint8))
        first = pipe.calibration
        pipe.process(np.full((1080, 1080, 3), 12, np.uint8))  # light flicker: same view
        assert pipe.calibration is first
        pipe.process(np.full((1080, 1080, 3), 200, np.uint8))  # another view altogether
        assert (pipe.calibration is not first) == expect_new


def _played(wall: int) -> TileDetections:
    """Mid-hand: every seat standing, discards in the pond, ``wall`` tiles left."""
    seats = [SeatSpec(hidden=13, discards=d) for d in ("1m9p", "2s", "7m", "E")]
    return detections(Scene(seats=seats, wall=wall), CAM)[0]


@pytest.mark.parametrize(("ruleset", "next_dealer"), [("shandong", 2), ("shanghai", 1)])
def test_a_drawn_hand_passes_the_deal_as_its_ruleset_says(ruleset: str,
                                                          next_dealer: int) -> None:
    """The wall played out with no win seen, then a fresh wall: a drawn hand (荒庄), and the
    next hand's dice are the next dealer's as the ruleset settles a draw (Shandong: the
    dealer's 下家; Shanghai: the dealer stays)."""
    from scoring.match import events

    script = ([_dice_scene((2, 5))] * 2 + [_played(60)] * 2 + [_played(0)] * 2
              + [_dice_scene((3, 3))] * 2)
    pipe, results = _run(script, ruleset=ruleset, dealer=1)
    evs = [e.to_json() for r in results for e in r.events if e.type in ("dice", "draw_game")]
    assert evs == [{"type": "dice", "seat": 1, "dice": [2, 5]}, {"type": "draw_game"},
                   {"type": "dice", "seat": next_dealer, "dice": [3, 3]}]
    assert pipe.dealer == next_dealer
    assert events.event_from_json({"type": "draw_game"}).to_json() == {"type": "draw_game"}


def test_a_hand_whose_end_was_not_seen_keeps_its_dealer() -> None:
    """A fresh wall after a low one, with neither a win nor a played-out wall seen: no event
    is made up and the dealer stays."""
    script = [_dice_scene((2, 5))] * 2 + [_played(30)] * 2 + [_dice_scene((3, 3))] * 2
    pipe, results = _run(script, ruleset="shandong", dealer=1)
    evs = [e.to_json() for r in results for e in r.events if e.type in ("dice", "draw_game")]
    assert evs == [{"type": "dice", "seat": 1, "dice": [2, 5]},
                   {"type": "dice", "seat": 1, "dice": [3, 3]}]
    assert pipe.dealer == 1


def _standing(hidden: int, discards: str) -> TileDetections:
    seats = [SeatSpec(hidden=hidden, discards=discards)] + \
        [SeatSpec(hidden=13, discards=d) for d in ("2s", "7m", "E")]
    return detections(Scene(seats=seats, wall=40), CAM)[0]


def test_a_standing_hands_count_of_backs_does_not_decide_its_events() -> None:
    """Tile backs are the detector's least sure boxes: two readings of one still picture may
    find 13, 12 or 14 of a standing hand. Its discards count as soon as two readings agree
    on them, whatever the count of backs, and the count alone is no event."""
    script = [_standing(13, "1m"), _standing(12, "1m"), _standing(14, "1m9p"),
              _standing(11, "1m9p"), _standing(13, "1m9p")]
    _, results = _run(script, stable_readings=2, stable_s=0)
    seat0 = [(r.frame.index, e.type, e.data.get("tile")) for r in results for e in r.events
             if e.data.get("seat") == 0]
    assert seat0 == [(1, "discard", "1m"), (3, "discard", "9p")]


def test_a_stray_back_beside_a_hand_laid_down_does_not_hide_its_win() -> None:
    """Fourteen tiles face up that win, with one more box read as a back in the row (a
    neighbouring wall's, or a flicker): the win is seen, the back is not counted."""
    win = Scene(seats=[SeatSpec(hand="123m456m789m555mEE", hidden=1),
                       SeatSpec(hand="123456789p1234s"), SeatSpec(hidden=13),
                       SeatSpec(hidden=13)], wall=20)
    pipe, results = _run([detections(win, CAM)[0]] * 2, stable_readings=2, stable_s=0,
                         ruleset="shanghai")
    assert [e.data["seats"] for r in results for e in r.events if e.type == "win"] == [[0]]
    record, notes = pipe.hand_record(results[-1])  # the record keeps the winner's tiles
    assert record["seats"][0]["concealed"] == "123455556789mEE"
    assert any("1 back beside a winning hand laid down" in n for n in notes)


class StreamWithStills(ScriptedDetector):
    """A stream's scripted detections, and a photo's (``as_still``) of the same table."""

    def __init__(self, script: list[TileDetections], stills: list[TileDetections]) -> None:
        super().__init__(script)
        self.still = ScriptedDetector(stills)

    def as_still(self) -> ScriptedDetector:
        return self.still


def test_a_hand_laid_down_is_read_again_as_a_still() -> None:
    """The stream misreads one tile of a hand laid down as a kind no repair reaches (the true
    one is not among its runners-up), so the 14 tiles win nothing. The frame is read again as
    a photo is read (``Detector.as_still``), and so is each frame analysed while the hand
    lies: the win and its record are the still's. Without ``showdown_stills``, no win."""
    win = Scene(seats=[SeatSpec(hand="123m456p789s55666s"), SeatSpec(hidden=13),
                       SeatSpec(hidden=13), SeatSpec(hidden=13)], wall=20)
    right = detections(win, CAM)[0]
    wrong = detections(win, CAM, misread={0: parse_tiles("9p")[0]})[0]
    wrong.topk_ids[0] = parse_tiles("9p8p7p")  # 1m is no runner-up
    for stills in (True, False):
        det = StreamWithStills([wrong] * 4, [right] * 4)
        pipe = Pipeline(detector=det, corners=table_corners(CAM), motion=-1,
                        stable_readings=2, stable_s=0, showdown_stills=stills)
        results = [pipe.process(img, index=i, timestamp=float(i))
                   for i, img in enumerate(_frames(3))]
        wins = [(r.frame.index, e.data["seats"]) for r in results for e in r.events
                if e.type == "win"]
        if not stills:
            assert wins == [] and det.still.calls == 0 and det.calls == 3
            continue
        # frame 0 read both ways, frames 1 and 2 as stills only
        assert wins == [(1, [0])] and (det.calls, det.still.calls) == (1, 3)
        assert "still" in results[0].timings and "still" not in results[1].timings
        record, _ = pipe.hand_record(results[1])
        assert record["seats"][0]["concealed"] == "123m456p55666789s"


def test_a_hand_laid_down_with_a_tile_the_stream_missed_is_read_as_a_still() -> None:
    """The stream finds 13 of the 14 tiles laid down (one unboxed): no hand of 14 shows, yet
    the hand lies face up, so the frame is read as a still, which finds all 14 and the win."""
    win = Scene(seats=[SeatSpec(hand="123m456p789s55666s"), SeatSpec(hidden=13),
                       SeatSpec(hidden=13), SeatSpec(hidden=13)], wall=20)
    right = detections(win, CAM)[0]
    short = right[np.arange(len(right)) != 4]  # the 5p unboxed
    det = StreamWithStills([short] * 4, [right] * 4)
    pipe = Pipeline(detector=det, corners=table_corners(CAM), motion=-1, stable_readings=2,
                    stable_s=0)
    results = [pipe.process(img, index=i, timestamp=float(i)) for i, img in enumerate(_frames(3))]
    assert [(r.frame.index, e.data["seats"]) for r in results for e in r.events
            if e.type == "win"] == [(1, [0])]
    assert "still" in results[0].timings and det.still.calls == 3
