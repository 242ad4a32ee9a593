"""The sampled game state: a showdown winner's hand is a win under the scene's ruleset."""

from __future__ import annotations

import random

from datasets.game import ruleset_win_test, sample_game
from vision.manifest import winner_of


def _winner_hands(ruleset: str | None, n: int = 40) -> list[bool]:
    wins = ruleset_win_test("shandong")
    out = []
    for seed in range(n):
        game = sample_game(random.Random(seed), showdown=True, ruleset=ruleset)
        seat = game.seats[game.to_play]
        assert seat.revealed and not game.drawn
        out.append(wins(seat.concealed, tuple(seat.melds)))
    return out


def test_showdowns_drawn_under_a_ruleset_are_wins_under_it() -> None:
    assert all(_winner_hands("shandong"))
    game = sample_game(random.Random(1), showdown=True, ruleset="shandong")
    assert game.to_json()["ruleset"] == "shandong"


def test_without_a_ruleset_a_complete_shape_is_enough() -> None:
    # Shandong asks a 2, 5 or 8 pair among other things: plain complete hands often fail it
    assert not all(_winner_hands(None))
    assert "ruleset" not in sample_game(random.Random(1), showdown=True).to_json()


def test_a_showdown_with_no_win_left_to_deal_is_a_drawn_game() -> None:
    """REALVAL15D table_s30_000291: late in a game (three melds each) the pool left the seat to
    play no hand that wins under Shandong; it was dealt a hand as any other and laid down, and
    the manifest named no winner, so `eval` counted a winner whose hand no reading could
    record as a win. Such a showdown is a drawn game: every hand face up, ``winner`` null."""
    wins = ruleset_win_test("shandong")
    for seed in (739, 956, 1871):  # late showdowns the pool deals no winning hand
        game = sample_game(random.Random(seed), progress=0.9, showdown=True, ruleset="shandong")
        seat = game.seats[game.to_play]
        assert game.drawn and not wins(seat.concealed, tuple(seat.melds))
        assert all(s.revealed for s in game.seats)
        manifest = {"game": game.to_json()}
        assert manifest["game"]["winner"] is None and winner_of(manifest) is None
    won = sample_game(random.Random(0), progress=0.9, showdown=True, ruleset="shandong")
    assert not won.drawn and winner_of({"game": won.to_json()}) == won.to_play
