"""Proof of the one ruleset interface: a toy ruleset defined only here plugs in through the
registry and plays a whole match through the match engine, the command line and the dashboard
core, with no change anywhere else."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scoring import RecordError, get_ruleset, known_rulesets, score
from scoring.match import MatchStore
from scoring.rulesets.registry import register, unregister
from tests.toy.ruleset import TOY
from ui.cli import main
from ui.dashboard.core import HandSession

OTHERS = ["234p567p789s111sE", "123m456m789m999pS", "123s456s234m567pW"]
#: hand 1: the dealer (seat 0) is dealt a complete hand and wins at once (self-draw);
#: hand 2: it discards E and seat 1 wins on it
HAND_1 = [{"type": "dice", "seat": 0, "dice": [3, 4]}, {"type": "wall_broken"},
          {"type": "deal", "hands": ["123m456m789m123p55s", *OTHERS]},
          {"type": "win", "seats": [0], "tile": "5s"}]
HAND_2 = [{"type": "dice", "seat": 0, "dice": [6, 6]}, {"type": "wall_broken"},
          {"type": "deal", "hands": ["123m456m789m123p5sE", *OTHERS]},
          {"type": "discard", "seat": 0, "tile": "E"}, {"type": "win", "seats": [1]}]
LEAVES = {"type": "player_left", "seat": 2, "replacement": "e"}
#: self-draw +1 from each; a discard 3 from the discarder; the leaver 1 to each other player
TOTALS = [3 - 3 + 1, -1 + 3 + 1, -1 - 3, -1 + 1]


@pytest.fixture
def toy() -> Iterator[None]:
    register(TOY)
    yield
    unregister("toy")


def test_the_toy_is_known_only_while_registered(toy: None) -> None:
    assert known_rulesets()[-1] == "toy" and get_ruleset("toy") is TOY
    unregister("toy")
    assert "toy" not in known_rulesets()
    register(TOY)


def test_a_whole_match_through_the_engine(toy: None, tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "m.sqlite3")
    try:
        mid = store.new_match("toy", {"point": 1}, ["a", "b", "c", "d"], first_dealer=0)
        for event in HAND_1:
            match = store.append_event(mid, event)
        assert match.hands[0].settlement.payments == [3, -1, -1, -1]
        assert match.dealer == 0  # the dealer won: it deals again
        for event in HAND_2:
            match = store.append_event(mid, event)
        assert match.hands[1].settlement.payments == [-3, 3, 0, 0]
        assert match.hands[1].record.wins[0].from_seat == 0 and match.dealer == 1
        match = store.append_event(mid, LEAVES)
        assert match.totals == TOTALS and match.players[2] == "e"
        assert match.levels is None and match.state.room == 0
        assert store.replay(mid).totals == TOTALS
    finally:
        store.close()


def test_the_engine_asks_the_toy_its_table_rules(toy: None, tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "m.sqlite3")
    try:
        mid = store.new_match("toy", {}, ["a", "b", "c", "d"], first_dealer=0)
        match = store.append_event(mid, HAND_1[0])
        with pytest.raises(Exception, match="toy rolls the dice 1 time"):
            store.append_event(mid, {"type": "dice", "seat": 0, "dice": [1, 1]})
        with pytest.raises(Exception, match="toy turns no indicator"):
            store.append_event(mid, {"type": "indicator", "tile": "E"})
        match = store.append_event(mid, HAND_1[1])
        assert match.hand.wall()["wall_seat"] == 2 and match.hand.wall()["stacks_skipped"] == 7
        match = store.append_event(mid, HAND_1[2])
        assert match.hand.undrawn == 136 - 53  # the toy's wall, played out
        with pytest.raises(Exception, match="point is an option of toy"):
            store.new_match("shandong", {"point": 2}, ["a", "b", "c", "d"], first_dealer=0)
        with pytest.raises(Exception, match="must be at least 1"):
            store.new_match("toy", {"point": 0}, ["a", "b", "c", "d"], first_dealer=0)
    finally:
        store.close()


def mj(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    rc = main(["match", "--db", str(db), *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_a_whole_match_through_the_command_line(toy: None, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.sqlite3"
    with pytest.raises(SystemExit):
        main(["match", "new", "--help"])
    assert "toy (玩具麻将: a test's ruleset" in " ".join(capsys.readouterr().out.split())
    rc, out, err = mj(capsys, db, "new", "--ruleset", "toy", "--players", "a", "b", "c", "d",
                      "--dealer", "0", "--option", "point=1")
    assert rc == 0 and "match 1 (toy)" in out, err
    for i, event in enumerate([*HAND_1, *HAND_2, LEAVES]):
        path = tmp_path / f"e{i}.json"
        path.write_text(json.dumps(event), encoding="utf-8")
        rc, out, err = mj(capsys, db, "event", "1", str(path))
        assert rc == 0, err
    rc, out, _ = mj(capsys, db, "show", "1")
    assert rc == 0 and "hand  2" in out and "seat 1 wins discard from 0" in out
    rc, out, _ = mj(capsys, db, "export", "1")
    assert rc == 0 and json.loads(out)["totals"] == TOTALS


def record(**change: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "toy", "dealer": 0, "outcome": "win",
        "seats": [{"concealed": "123m456m789m123p55s"}, *({"concealed": h} for h in OTHERS)],
        "wins": [{"seat": 0, "tile": "5s", "by": "self_draw"}]}
    return {**data, **change}


def test_a_match_through_the_dashboards_match_core(toy: None, tmp_path: Path) -> None:
    from ui.dashboard.match_session import MatchSession

    store = MatchStore.open(tmp_path / "m.sqlite3")
    try:
        session = MatchSession(store)
        mid = session.new_match("toy", {}, ["a", "b", "c", "d"], 0)
        session.add_roll(3, 4)
        wb, _ = session.wall_break()
        assert wb is not None and (wb.wall_seat, wb.stacks_skipped) == (2, 7)
        for event in [*HAND_1, *HAND_2, LEAVES]:
            store.append_event(mid, event, who="camera")
        session.refresh()
        assert session.rolls == [] and session.match.totals == TOTALS
    finally:
        store.close()


def test_the_dashboard_core_scores_and_names_the_toy(toy: None) -> None:
    from ui.dashboard.i18n import word

    session = HandSession()
    session.load(record(options={"point": 2}))
    assert session.error is None and session.settlement is not None
    assert session.settlement.payments == [6, -2, -2, -2]
    assert word("toy") == "Toy"


def test_the_toy_refuses_another_rulesets_field(toy: None) -> None:
    with pytest.raises(RecordError, match="belongs to liaoyang records; toy does not read it"):
        score(record(context={"indicator": "E"}))


def test_the_new_match_dialog_lists_the_toy_from_the_registry(toy: None, qtbot: Any) -> None:
    from PySide6.QtCore import Qt

    from ui.dashboard.match_panel import NewMatchDialog

    dialog = NewMatchDialog()
    qtbot.addWidget(dialog)
    names = [dialog.ruleset.itemData(i) for i in range(dialog.ruleset.count())]
    assert names == list(known_rulesets()) and names[-1] == "toy"
    i = names.index("toy")
    assert dialog.ruleset.itemText(i) == "Toy"
    assert "any complete hand" in dialog.ruleset.itemData(i, Qt.ItemDataRole.ToolTipRole)
    dialog.ruleset.setCurrentIndex(i)
    assert list(dialog.option_widgets) == ["point"]
