"""What the app asks of a game (scoring.games): every game answers, and the answers are
the rulebook's."""

from __future__ import annotations

import pytest

from referee.rulebook import PRESETS
from scoring.games import acting, facts, lowest_wins_games
from scoring.screens import SCREENS, screen


def test_the_lowest_total_wins_where_hands_count_against_their_holders():
    assert lowest_wins_games() == {"havoc", "mexican-train", "chicken-foot"}


def test_only_the_train_games_build_trains_and_only_dump_truck_is_one_game():
    assert {slug for slug in PRESETS if facts(slug).trains} == {"mexican-train", "chicken-foot"}
    assert {slug for slug in PRESETS if not facts(slug).rounds} == {"dump-truck"}
    assert {slug for slug in PRESETS if facts(slug).all_at_once} == {"dump-truck"}


@pytest.mark.parametrize("slug", list(PRESETS))
def test_every_game_has_a_screen_and_says_who_acts(slug):
    from referee.games import engine

    assert screen(slug) in SCREENS.values()
    names = ["Ana", "Ben", "Caro", "Dan"] if slug.startswith("domino-") else ["Ana", "Ben", "Caro"]
    state = engine(slug).start(slug, {}, names)  # Dominó: four seats in two pairs
    seat = acting(slug, state)
    assert seat is None or 0 <= seat < len(names)
