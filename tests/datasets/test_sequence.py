"""The scripted game (``datasets/sequence.py``): the story keeps to one tile set, and each step
rendered from the one rig reads back (from its labeled boxes) as the story says: every standing
hand 13 or 14 tiles, the discards and melds in front of the right seat."""

from __future__ import annotations

import pytest

from datasets.sequence import Table, make_rig, render_step, two_hands
from scoring.tiles import parse_tiles
from tests.datasets.conftest import needs_art
from vision.geometry import read_table
from vision.manifest import manifest_detections
from vision.reading import calibrate, seat_states


def test_a_story_that_shows_a_fifth_copy_is_refused() -> None:
    table = Table(0, ["1m1m1m1m2m3m4m5m6m7m8m9mEE", "1m" + "2p" * 3 + "3s" * 3 + "5p" * 3 + "9s"
                      * 3, "", ""], "shandong")
    with pytest.raises(ValueError, match="more copies of 1m"):
        table.deal()


@needs_art
@pytest.mark.parametrize("step", [8, 17, 22, 27])  # the deal, a chow, a kong, the showdown
def test_steps_read_back_as_the_story_says(step: int) -> None:
    steps, _ = two_hands()
    rig = make_rig(2026, (960, 540), faces="art")
    image, manifest = render_step(rig, steps[step], step)
    dets = manifest_detections(manifest)
    reading = read_table(dets, calibrate(image, None, 0, dets))
    game = steps[step].game
    for state, truth in zip(seat_states(reading), game.seats, strict=True):
        assert state.tile_count == len(truth.concealed) + 3 * len(truth.melds)
        assert state.discards == tuple(truth.discards)
        assert sorted(state.flowers) == sorted(truth.flowers)
        assert [(m[0], m[2]) for m in state.melds] == [
            (m.type, m.from_seat) for m in truth.melds]
        if truth.revealed:  # laid face up as the story lays it: the winning tile last
            assert state.concealed == tuple(truth.concealed)
    if step == 27:
        assert seat_states(reading)[1].concealed[-1] == parse_tiles("4m")[0]
