"""Events: a stable JSON form read back unchanged; malformed ones refused by key."""

from __future__ import annotations

import json

import pytest

from scoring.match import BadEvent, MatchStore, event_from_json
from scoring.match import events as ev
from scoring.match.errors import EventRefused
from tests.match.conftest import case

SAMPLES = [
    ev.MatchCreated(ruleset="shandong", players=("a", "b", "c", "d"), first_dealer=1,
                    options={"base": 10}, title="final"),
    ev.HandRecorded(record={"ruleset": "shandong"}),
    ev.PlayerLeft(seat=2, flower_points=3, replacement="e"),
    ev.Amendment(target=4, who="ref", why="typo", event={"type": "pung", "seat": 1}),
    ev.Adjusted(seat=3, points=-2.5, who="ref", why="slow play", ref="req-1",
                key="0123456789abcdef", mac="cd" * 32),
    ev.SignOff(target=2, referee="ref", key="0123456789abcdef", head="ab" * 32, mac="cd" * 32),
    ev.DiceRolled(seat=0, dice=(3, 5)),
    ev.WallBroken(wall_seat=2, stacks=8),
    ev.IndicatorTurned(tile="9m"),
    ev.Dealt(hands=("123m??", "?", "EEE", "")),
    ev.Exchanged(seat=1, given="123m??", taken="?????"),
    ev.Exchanged(seat=2, done=False),
    ev.Drew(seat=1, tile="5p"),
    ev.Drew(seat=1),
    ev.FlowerSetAside(seat=3, tile="f2"),
    ev.Discarded(seat=0, tile="C"),
    ev.Chowed(seat=1, tiles="345s"),
    ev.Punged(seat=2),
    ev.Konged(seat=3, kind="added", tile="E"),
    ev.Declared(seat=1, what="minglou"),
    ev.Won(seats=(1, 3), reveal={1: "123m"}, ready=(2,), bao_tile="5s"),
    ev.DrawGame(reveal={0: "11m"}),
]


@pytest.mark.parametrize("event", SAMPLES, ids=[e.type for e in SAMPLES])
def test_json_round_trip(event: ev.Event) -> None:
    text = json.dumps(event.to_json(), ensure_ascii=False)
    back = event_from_json(json.loads(text))
    assert back == event and back.to_json() == event.to_json()


def test_every_event_type_has_a_sample() -> None:
    assert {e.type for e in SAMPLES} == set(ev.EVENT_TYPES)


@pytest.mark.parametrize(("data", "message"), [
    ({"type": "discard", "seat": 0}, "discard.tile: missing"),
    ({"type": "discard", "seat": 4, "tile": "1m"}, "discard.seat: must be a seat number"),
    ({"type": "discard", "seat": 0, "tile": "1x"}, "discard.tile"),
    ({"type": "discard", "seat": 0, "tile": "1m", "color": 1}, "discard.color: unknown key"),
    ({"type": "teleport"}, "unknown event type 'teleport'"),
    ({"type": "dice", "seat": 0, "dice": [0, 7]}, "two dice values 1..6"),
    ({"type": "chow", "seat": 1, "tiles": "34s"}, "needs 3 tiles"),
    ({"type": "win", "seats": []}, "non-empty list of seats"),
    ({"type": "win", "seats": [1, 1]}, "listed twice"),
    ({"type": "win", "seats": [1], "reveal": {"1": "12?m"}}, "'?' (unknown tile) is not allowed"),
    ({"type": "kong", "seat": 1, "kind": "huge"}, "must be one of exposed, added, concealed"),
    ([1, 2], "an event is a JSON object"),
])
def test_bad_events_name_the_key(data, message: str) -> None:
    with pytest.raises(BadEvent) as info:
        event_from_json(data)
    assert message in str(info.value)


def test_typed_in_record_must_fit_the_match(store: MatchStore) -> None:
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    rec = case("shandong", "01-tuidaohe-discard")
    with pytest.raises(EventRefused, match="options differ from the match's: base"):
        store.add_hand(mid, {**rec, "options": {"base": 10}})
    with pytest.raises(EventRefused, match="huangzhuang_streak is 0 at this point"):
        store.add_hand(mid, {**rec, "context": {"huangzhuang_streak": 2}})
    with pytest.raises(EventRefused, match="this is a shandong match"):
        store.add_hand(mid, {**rec, "ruleset": "shanghai"})
    with pytest.raises(EventRefused, match="winner holds"):
        bad = json.loads(json.dumps(rec))
        bad["seats"][1]["concealed"] = "234m"
        store.add_hand(mid, bad)
    assert len(store.events(mid)) == 1


def test_correction_that_breaks_later_hands_is_refused(store: MatchStore) -> None:
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    first = store.add_hand(mid, case("shandong", "01-tuidaohe-discard")).last_seq  # -> dealer 1
    rec = case("shandong", "43-yipao-duoxiang-chengbao")  # dealer 1
    store.add_hand(mid, rec)
    # hand 1 as a dealer self-draw would keep the deal at seat 0: hand 2 no longer fits
    with pytest.raises(EventRefused, match=r"no longer replays.*seat 0 deals this hand"):
        store.amend(mid, first, ev.HandRecorded(record=case("shandong", "02-tuidaohe-self-draw")),
                    who="ref", why="test")
    with pytest.raises(EventRefused, match="no event #99"):
        store.amend(mid, 99, None, who="ref", why="test")
    with pytest.raises(EventRefused, match="match_created cannot be struck"):
        store.amend(mid, 1, None, who="ref", why="test")
    # renaming players is a correction of match_created
    m = store.amend(mid, 1, ev.MatchCreated(ruleset="shandong", players=("A", "b", "c", "d"),
                                            first_dealer=0), who="ref", why="spelling")
    assert m.players[0] == "A" and m.totals == [-5, 2, 6, -3]


def test_a_log_that_stops_replaying_is_shown_and_can_be_fixed(store: MatchStore) -> None:
    import sqlite3

    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    store.add_hand(mid, case("shandong", "01-tuidaohe-discard"))
    # an entry written by another program (or an older ruleset) that the rules now refuse
    bad = ev.HandRecorded(record=case("shandong", "02-tuidaohe-self-draw"))  # dealer 0, not 1
    db = sqlite3.connect(store.path)
    db.execute("INSERT INTO events (match_id, seq, at, who, type, body) VALUES (?, 3, '', '', "
               "'hand_recorded', ?)", (mid, json.dumps(bad.to_json())))
    db.commit()
    db.close()
    m = store.load(mid)
    assert m.problem is not None and "event #3" in str(m.problem)
    assert m.totals == [0, 8, 0, -8]  # the match up to the event that no longer fits
    with pytest.raises(EventRefused, match="event #3"):
        store.append_event(mid, ev.DiceRolled(seat=1, dice=(1, 1)))
    m = store.amend(mid, 3, None, who="ref", why="not from this table")
    assert m.problem is None and m.totals == [0, 8, 0, -8]


def test_correcting_a_live_event_rederives_the_hand(store: MatchStore) -> None:
    from tests.match.test_hand import PRIORITY_DEAL

    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    misread = list(PRIORITY_DEAL)
    misread[3] = "12m 456p 789p 234s 44p"  # the camera took 5s for 4p
    deal = store.append_event(mid, ev.Dealt(hands=tuple(misread))).last_seq  # type: ignore
    store.append_event(mid, ev.Discarded(seat=0, tile="3m"))
    with pytest.raises(EventRefused, match="pair must be 2, 5 or 8"):
        store.append_event(mid, ev.Won(seats=(3,)))
    m = store.amend(mid, deal, ev.Dealt(hands=tuple(PRIORITY_DEAL)), who="ref",  # type: ignore
                    why="seat 3 held 5s5s, not 4p4p")
    assert m.hand is not None and m.hand.seats[3].known[22] == 2  # 5s
    m = store.append_event(mid, ev.Won(seats=(3,)))
    assert m.totals == [-25, 0, 0, 25]
    # striking the discard would leave a win with no discard to win on: refused
    with pytest.raises(EventRefused, match="no longer replays"):
        store.amend(mid, deal + 1, None, who="ref", why="test")


def test_a_new_winner_of_an_early_hand_is_corrected_with_the_hands_it_moves(
        store: MatchStore) -> None:
    """Hand 1 was a dealer self-draw, so seat 0 also dealt hand 2: neither correction replays
    alone (each leaves a dealer that does not fit), both together do, in one transaction."""
    from tests.match.test_matches import rotated

    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    first = store.add_hand(mid, case("shandong", "01-tuidaohe-discard")).last_seq  # -> dealer 1
    second = store.add_hand(mid, case("shandong", "43-yipao-duoxiang-chengbao")).last_seq
    fixed_first = ev.HandRecorded(record=case("shandong", "02-tuidaohe-self-draw"))
    fixed_second = ev.HandRecorded(record=rotated(case("shandong", "43-yipao-duoxiang-chengbao"),
                                                  -1))
    for seq, event in ((first, fixed_first), (second, fixed_second)):
        with pytest.raises(EventRefused, match="no longer replays"):
            store.amend(mid, seq, event, who="ref", why="test")
    with pytest.raises(EventRefused, match="corrected twice"):
        store.amend_many(mid, [(first, fixed_first), (first, None)], who="ref", why="test")
    assert len(store.events(mid)) == 3  # nothing written by the refusals
    m = store.amend_many(mid, [(first, fixed_first), (second, fixed_second)], who="ref 王",
                         why="hand 1 was the dealer's self-draw")
    # 02: [15, -5, -5, -5]; 43 turned one seat back: [-6, 6, 5, -5]
    assert m.totals == [9, 1, 0, -10] and m.problem is None
    assert [a.event.target for a in m.amendments] == [first, second]
    assert store.replay(mid).totals == m.totals


def test_a_typed_hand_after_live_dice_finishes_that_hand(store: MatchStore) -> None:
    """The camera logged the dice; the referee types the hand in: one match, the record takes
    the logged dice, a contradicting record is refused, and replay agrees."""
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    store.append_event(mid, ev.DiceRolled(seat=0, dice=(3, 5)), who="camera")
    record = case("shandong", "01-tuidaohe-discard")
    wrong = json.loads(json.dumps(record))
    wrong.setdefault("context", {})["dice"] = [2, 2]
    with pytest.raises(EventRefused, match="logged with dice"):
        store.add_hand(mid, wrong)
    record.get("context", {}).pop("dice", None)
    m = store.add_hand(mid, record, who="ref")
    assert m.hand is None and len(m.hands) == 1
    assert m.hands[0].record.context.dice == (3, 5)
    assert m.totals == [0, 8, 0, -8]
    store.append_event(mid, ev.DiceRolled(seat=m.dealer, dice=(1, 2)), who="camera")
    assert store.load(mid).hand is not None  # the next hand starts live again
    assert MatchStore.open(store.path).load(mid).totals == [0, 8, 0, -8]  # replayed from disk
