"""The dashboard's Qt-free hand session: loading, corrections that re-score and are logged."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from scoring.tiles import tile_from_name
from ui.commands.waits import parse_meld
from ui.dashboard.core import Correction, HandSession, TileRef

SAMPLE = Path(__file__).resolve().parents[2] / "ui" / "samples" / "hand.json"


@pytest.fixture
def session() -> HandSession:
    s = HandSession()
    s.load(json.loads(SAMPLE.read_text(encoding="utf-8")))
    return s


def test_loading_scores_the_hand(session: HandSession) -> None:
    assert session.settlement is not None and session.error is None
    assert session.settlement.payments == [0, 8, 0, -8]


def test_a_correction_rescores_and_is_announced(session: HandSession) -> None:
    seen: list[Correction] = []
    session.corrected.connect(seen.append)
    # seat 1 holds 234m678m345p55s + EEE; make 6m-7m-8m into 6p: the hand no longer wins
    index = list(session.record.seats[1].concealed).index(tile_from_name("6m"))
    session.replace_tile(TileRef(1, "concealed", index), tile_from_name("6p"), "ref", "misread")
    assert session.settlement is None and "winning" in (session.error or "")
    assert seen[-1].what == f"concealed[{index}]: 6m -> 6p" and seen[-1].who == "ref"
    session.replace_tile(TileRef(1, "concealed", index), tile_from_name("6m"), "ref", "undo")
    assert session.settlement.payments == [0, 8, 0, -8]
    assert len(session.corrections) == 2


def test_correcting_a_flower_changes_the_flower_points(session: HandSession) -> None:
    session.remove_flower(1, 0, "ref", "it was on the floor")
    # one flower less: (5 + 2) x 1 = 7
    assert session.settlement.payments == [0, 7, 0, -7]
    session.add_flower(1, tile_from_name("f2"), "ref", "found it")
    assert session.settlement.payments == [0, 8, 0, -8]


def test_meld_edits(session: HandSession) -> None:
    # turning the claimed EEE into a concealed kong adds tiles: the record must say why it fails
    with pytest.raises(ValueError, match="invalid"):
        session.add_meld(1, parse_meld("ckong:SSSS", 1), "ref", "typo")
    assert session.settlement.payments == [0, 8, 0, -8]  # the refused change left nothing behind
    session.remove_meld(2, 0, "ref", "not there")
    assert session.record.seats[2].melds == ()


def test_a_change_that_breaks_the_counts_is_refused(session: HandSession) -> None:
    e = tile_from_name("E")
    with pytest.raises(ValueError, match="2 copies of f1"):
        session.add_flower(1, tile_from_name("f1"), "ref", "x")
    session.replace_tile(TileRef(1, "concealed", 0), e, "ref", "x")  # the fourth E: allowed
    with pytest.raises(ValueError, match="5 copies of E"):
        session.replace_tile(TileRef(1, "concealed", 1), e, "ref", "x")
    assert len(session.corrections) == 1


def test_pung_correction_corrects_the_whole_pung(session: HandSession) -> None:
    session.replace_tile(TileRef(1, "melds", 1, 0), tile_from_name("S"), "ref", "misread")
    assert session.record.seats[1].melds[0].tiles == (tile_from_name("S"),) * 3


def test_one_naming_of_seats_wind_and_player() -> None:
    from ui.dashboard import i18n

    i18n.set_language("en")
    assert i18n.seat_name(1, 0, ["Ann", "Bo", "Chen", "Dee"]) == "南 Bo"
    assert i18n.seat_name(0, 1) == "北 Player 1"
    i18n.set_language("zh")
    try:
        assert i18n.seat_name(0, 1) == "北 玩家1"
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("lang", "want"), [("zh_CN.UTF-8", "zh"), ("en_US.UTF-8", "en"),
                                            ("C", "en")])
def test_language_follows_the_system_locale(lang: str, want: str) -> None:
    import subprocess
    import sys

    env = {**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""}
    out = subprocess.run([sys.executable, "-c", "from ui.dashboard.i18n import system_language;"
                          "print(system_language())"], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == want
