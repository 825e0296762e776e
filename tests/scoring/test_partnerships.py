"""Partnerships at the table (RULES.md §8): two team totals in the strip with whose turn,
the teams marked by colour and shape, the round and the match spoken of by team, only an
opponent offered Muggins, the home page and the export by team."""

from __future__ import annotations

import json

import pytest

from scoring import services
from scoring.models import Action, Match

from .conftest import keep, snapshot, tap

NAMES = ["Ana", "Ben", "Caro", "Dan"]
PAIRS = {"partnerships": True}
# Ana leads 6-6 and everyone knocks: Ben & Dan hold 12 to Ana & Caro's 30, and score 30.
BLOCKED = [
    {"type": "play", "seat": 0, "tile": "6-6"},
    {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3}, {"type": "pass", "seat": 0},
    {"type": "tally", "pips": {"0": 9, "1": 4, "2": 21, "3": 8}},
]  # fmt: skip


def document(rounds: int, target: int = 50) -> dict:
    return {
        "format": "boneyard-match/1",
        "game": "block",
        "options": {**PAIRS, "hand_size": 2, "target": target},
        "players": NAMES,
        "rounds": [{"actions": BLOCKED}] * rounds,
    }


def page(client, match, path: str = "") -> str:
    return client.get(f"/matches/{match.pk}/{path}").content.decode()


def strip_of(html: str) -> str:
    start = html.index('<ol class="strip"')
    return html[start : html.index("</ol>", start)]


def test_the_strip_shows_two_team_totals_and_who_is_to_play(scorekeeper):
    match = keep(scorekeeper, services.create_match("all-fives", NAMES, PAIRS))
    tap(scorekeeper, match, {"type": "play", "seat": "0", "tile": "5-5", "target": "lead"})
    strip = strip_of(page(scorekeeper, match))
    teams = strip.split("<li")[1:]
    assert len(teams) == 2
    assert 'class=" team team-0"' in teams[0] and "Ana</span> &amp; <span" in teams[0]
    assert '<strong class="total">10</strong>' in teams[0]
    assert 'aria-label="Ana &amp; Caro: 10 of 61"' in teams[0]
    # Ben is to play: his team is the one acting, and his name is the one marked.
    assert teams[1].startswith(' class="turn team team-1" aria-current="true"')
    assert '<span class="to-act">Ben</span>' in teams[1] and "●" in teams[0] and "◆" in teams[1]
    assert "(you)" not in strip  # the scorekeeper's phone has taken no seat


def test_the_scoreboard_marks_each_seats_team(scorekeeper):
    match = keep(scorekeeper, services.create_match("draw", NAMES, PAIRS))
    html = page(scorekeeper, match)
    board = html[html.index('class="scoreboard"') :]
    for name, team, mark in [("Ana", 0, "●"), ("Ben", 1, "◆"), ("Caro", 0, "●"), ("Dan", 1, "◆")]:
        assert f'team-{team}">\n        <span class="name"><span class="team-mark" ' in board
        assert f'aria-hidden="true">{mark}</span> {name}</span>' in board


def test_the_round_is_won_by_a_team(scorekeeper):
    match = keep(scorekeeper, services.import_match(document(1)))
    html = page(scorekeeper, match)
    assert "Round 1: Ben &amp; Dan win the round: 30" in html
    assert (
        '<tr class="team-1"><td><span class="team-mark" aria-hidden="true">◆</span> Ben</td>'
        in (html)
    )


def test_a_won_match_names_the_team_on_the_table_the_home_page_and_the_export(scorekeeper):
    match = keep(scorekeeper, services.import_match(document(2)))
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.winner == 1 and match.totals == [0, 60, 0, 0]
    assert "Ben &amp; Dan win the match with 60." in page(scorekeeper, match)
    home = scorekeeper.get("/").content.decode()
    assert "Ana &amp; Caro v Ben &amp; Dan" in home and "0 – 60 · Ben &amp; Dan won" in home
    exported = json.loads(page(scorekeeper, match, "export.json"))
    assert exported["teams"] == [[0, 2], [1, 3]]
    assert exported["team_totals"] == {"0": 0, "1": 60}
    assert exported["winner"] == 1 and exported["winners"] == [1, 3]


def test_stopping_the_match_says_which_team_the_totals_make_the_winner(scorekeeper):
    match = keep(scorekeeper, services.import_match(document(1, target=100)))
    assert "The totals now decide: Ben &amp; Dan win with 30" in page(scorekeeper, match)


def test_only_an_opponent_is_offered_muggins_and_a_partners_call_is_refused(scorekeeper):
    match = keep(scorekeeper, services.create_match("muggins", NAMES, PAIRS))
    tap(scorekeeper, match, {"type": "play", "seat": "0", "tile": "6-4", "target": "lead"})
    html = page(scorekeeper, match)
    calls = html[html.index('class="calls"') : html.index("</form>", html.index('class="calls"'))]
    assert "Ben: Muggins!" in calls and "Dan: Muggins!" in calls and "Caro" not in calls
    before = snapshot(match)
    response = tap(scorekeeper, match, {"type": "muggins", "seat": "2"})
    assert response.status_code == 422, response.status_code
    said = response.content.decode()
    assert "Caro is Ana&#x27;s partner: only an opponent (Ben or Dan) may call Muggins" in said
    assert "team.muggins" in said
    assert snapshot(match) == before
    assert not Action.objects.filter(round__match=match, kind="muggins").exists()


@pytest.mark.parametrize("game", ["block", "draw", "all-fives", "muggins", "fives-and-threes",
                                  "cross", "cross-spinners", "doubles"])  # fmt: skip
def test_every_partnership_game_starts_with_two_teams(scorekeeper, game):
    match = keep(scorekeeper, services.create_match(game, NAMES, PAIRS))
    strip = strip_of(page(scorekeeper, match))
    assert strip.count("<li") == 2 and "Ana</span> &amp; <span" in strip


def test_the_replay_marks_each_seats_team_and_both_winners(scorekeeper):
    match = keep(scorekeeper, services.import_match(document(2)))
    html = page(scorekeeper, match, "rounds/2/?step=6")
    board = html[html.index('class="scoreboard"') :]
    assert '<li class=" winner team-1"><span class="name"><span class="team-mark"' in board
    assert board.count(" winner team-1") == 2 and "winner team-0" not in board
