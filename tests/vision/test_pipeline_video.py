"""The bundled game video (two whole Shandong hands, ``table_1080p.mp4``) through the live
pipeline and ``mjtable watch``: the events must be exactly the generator's script.

The detector here is a labeled-truth detector (``labeled_truth.py``): it answers each frame with
the boxes the generator labeled for it, so what is tested is everything around the models
(capture, still-frame reuse, table geometry, stability, events, hand records). One test
runs the shipped models instead.
"""

from __future__ import annotations

import json

import pytest

from scoring import score
from scoring.record import parse_record
from tests.vision.labeled_truth import VIDEO, LabeledTruthDetector, script
from vision.capture import VideoSource
from vision.detector import default_models_dir
from vision.pipeline import Pipeline
from vision.stability import MATCH_EVENT_TYPES


def expected_events() -> list[dict]:
    return [{k: v for k, v in e.items() if k != "step"} for e in script()["events"]]


def same_record(got: dict, want: dict) -> bool:
    return parse_record(got).to_json() == parse_record(want).to_json()


def test_the_script_tells_two_whole_hands() -> None:
    data = script()
    assert data["video"] == VIDEO.name and data["size"] == [1920, 1080]
    assert data["frames"] == sum(b - a for a, b in (s["frames"] for s in data["steps"]))
    kinds = [e["type"] for e in data["events"]]
    for kind in ("dice", "wall_broken", "flower", "discard", "chow", "pung", "kong", "win"):
        assert kind in kinds
    assert kinds.count("win") == 2 and kinds.count("wall_broken") == 2
    first, second = (h["record"] for h in data["hands"])
    settled = score(parse_record(first))
    assert settled.next_dealer == second["dealer"] != first["dealer"]  # the next dealer deals
    assert score(parse_record(second)).payments == [-5, -5, 15, -5]
    dice = [e for e in data["events"] if e["type"] == "dice"]
    assert [d["seat"] for d in dice] == [first["dealer"]] * 2 + [second["dealer"]] * 2


def test_pipeline_on_the_video_gives_exactly_the_scripted_events() -> None:
    det = LabeledTruthDetector()
    pipe = Pipeline(str(VIDEO), det, ruleset=script()["ruleset"], dealer=0)
    events, records, kinds = [], [], []
    results = 0
    for result in pipe.frames():
        results += 1
        kinds += [s.kind for s in result.statuses]
        for e in result.events:
            if e.for_match:
                events.append(e.to_json())
            if e.type == "win":
                records.append(pipe.hand_record(result)[0])
    assert results == script()["frames"]
    assert events == expected_events()
    for got, hand in zip(records, script()["hands"], strict=True):
        assert same_record(got, hand["record"])
    # still frames reuse the last detections: about one detector run per step of the story
    assert det.calls <= 2 * len(script()["steps"])
    kinds += [s.kind for s in pipe.statuses()]
    assert kinds[0] == "opened" and kinds[-1] == "ended"  # the end comes after the last frame


def assert_watch_gives_the_script(lines: list[dict]) -> None:
    """``mjtable watch``'s lines hold the script's match events and both hands' records."""
    got = [{k: v for k, v in e.items() if k not in ("frame", "time")} for e in lines
           if e["type"] in MATCH_EVENT_TYPES]
    assert got == expected_events()
    records = [e["record"] for e in lines if e["type"] == "record"]
    assert len(records) == 2
    for got_record, hand in zip(records, script()["hands"], strict=True):
        assert same_record(got_record, hand["record"])


def test_mjtable_watch_prints_the_scripted_events_and_records(monkeypatch, capsys) -> None:
    import vision.detector
    from ui.cli import main

    det = LabeledTruthDetector()
    monkeypatch.setattr(vision.detector, "load_detector", lambda *a, **k: det)
    assert main(["watch", str(VIDEO), "--ruleset", "shandong"]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert_watch_gives_the_script(lines)
    # each record lists the tiles read unsurely: none, read from the labels
    assert [e["unsure"] for e in lines if e["type"] == "record"] == [[], []]
    assert lines[-1]["type"] == "capture" and lines[-1]["kind"] == "ended"
    assert f"{script()['frames']} frames" in err


@pytest.mark.slow
@pytest.mark.skipif(not (default_models_dir() / "detector.onnx").is_file(),
                    reason="no shipped models")
def test_mjtable_watch_with_the_shipped_models_gives_the_script(capsys) -> None:
    """What a user sees: ``mjtable watch`` on the bundled video with the shipped models prints
    the script's match events and both hands' records, every seat's tiles exactly (hand 1's
    loser holds a pair of the held-back 發 that the classifier alone reads 東: its green ink
    tells, ``vision.ink``)."""
    from ui.cli import main

    assert main(["watch", str(VIDEO), "--ruleset", "shandong"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert_watch_gives_the_script(lines)


class CutVideo(VideoSource):
    """The bundled video as a recording that stopped after ``frames`` frames."""

    def __init__(self, frames: int) -> None:
        super().__init__(str(VIDEO), live=False)
        self.left = frames

    def read(self):
        self.left -= 1
        return super().read() if self.left >= 0 else None


@pytest.mark.parametrize("cut", [3, 61, 137])
def test_a_video_that_stops_at_any_frame_keeps_the_hand_as_far_as_seen(cut: int) -> None:
    """A clean stop (the last status says the video ended) with every event seen up to there
    and none invented: a prefix of the script holding all the steps shown in full."""
    pipe = Pipeline(CutVideo(cut), LabeledTruthDetector(), ruleset="shandong", dealer=0)
    results = list(pipe.frames())
    assert len(results) == cut
    events = [e.to_json() for r in results for e in r.events if e.for_match]
    want = expected_events()
    assert events == want[:len(events)]
    shown = [e for e in script()["events"]
             if script()["steps"][e["step"]]["frames"][1] <= cut]
    assert len(events) >= len(shown)
    statuses = [s for r in results for s in r.statuses] + pipe.statuses()
    assert statuses[-1].kind == "ended" and "ended" in statuses[-1].message


def test_watch_names_a_video_cut_short_in_one_line(tmp_path, monkeypatch, capsys) -> None:
    """A recording cut off mid-file (no index at its end): one clear line, exit 2."""
    import vision.detector
    from ui.cli import main

    monkeypatch.setattr(vision.detector, "load_detector", lambda *a, **k: LabeledTruthDetector())
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(VIDEO.read_bytes()[: VIDEO.stat().st_size // 3])
    assert main(["watch", str(cut)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cut.mp4" in err[0] and "Traceback" not in err[0]
