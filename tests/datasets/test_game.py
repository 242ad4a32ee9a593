"""The sampled game state: a showdown winner's hand is a win under the scene's ruleset."""

from __future__ import annotations

import random

from datasets.game import ruleset_win_test, sample_game


def _winner_hands(ruleset: str | None, n: int = 40) -> list[bool]:
    wins = ruleset_win_test("shandong")
    out = []
    for seed in range(n):
        game = sample_game(random.Random(seed), showdown=True, ruleset=ruleset)
        seat = game.seats[game.to_play]
        assert seat.revealed
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
