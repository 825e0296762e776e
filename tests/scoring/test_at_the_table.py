"""At the table (issue 19): the score strip on every game's screen, one tap for a tile that
fits one end, several tiles drawn in one tap and said back, end letters that stay with their
ends, tiles in pips or numerals, an explicit Dominards free drop, a refused Havoc tally kept
as it was ticked, and rule ids beside their sentence."""

from __future__ import annotations

import re

import pytest

from referee import Play, Tile, line
from scoring import services
from scoring.drawing import end_marks

from .conftest import keep, tap


def page(client, match, query: str = "") -> str:
    return client.get(f"/matches/{match.pk}/{query}").content.decode()


@pytest.mark.parametrize(
    "game, players",
    [("draw", 3), ("all-fives", 2), ("dominards", 3), ("dump-truck", 2), ("havoc", 3)],
)
def test_every_games_screen_has_the_score_strip(scorekeeper, game, players):
    names = ["Ana", "Ben", "Caro"][:players]
    match = keep(scorekeeper, services.create_match(game, names, {}))
    html = page(scorekeeper, match)
    strip = html[html.index('<ol class="strip"') : html.index("</ol>", html.index('class="strip"'))]
    assert all(f'<span class="name">{name}</span>' in strip for name in names)
    # It comes first in the table region, above the picker and the buttons.
    assert html.index('class="strip"') < html.index(
        'id="notice"' if 'id="notice"' in html else "<form"
    )


def test_the_strip_says_whose_turn_and_how_far_to_the_target(scorekeeper):
    match = keep(scorekeeper, services.create_match("all-fives", ["Ana", "Ben"], {}))
    tap(scorekeeper, match, {"type": "play", "seat": "0", "tile": "5-5", "target": "lead"})
    html = page(scorekeeper, match)
    strip = html[html.index('<ol class="strip"') : html.index("</ol>", html.index('class="strip"'))]
    assert '<li class="turn" aria-current="true"><span class="name">Ben</span>' in strip
    assert 'aria-label="Ana: 10 of 61"' in strip  # the lead scored 10, playing to 61


def test_end_letters_stay_with_their_ends_while_they_are_open():
    state = line.start("all-fives", {}, ["Ana", "Ben", "Caro"])
    letters = []
    for tile, on in [("5-5", None), ("5-0", "5-5"), ("5-4", "5-5"), ("0-0", "5-0"), ("4-4", "5-4")]:
        seat = state.turn if state.turn is not None else 0
        state = line.apply(state, Play(seat, Tile.parse(tile), Tile.parse(on) if on else None))
        letters.append({(str(m.end.on), m.end.face): m.letter for m in end_marks(state.layout)})
    # 5-4's end is C from the play that opened it until 4-4 covers it; 5-5's stays A.
    assert letters[2][("5-4", "side")] == letters[3][("5-4", "side")] == "C"
    assert letters[1][("5-5", "side")] == "A" and letters[4][("5-5", "end")] == "A"
    # A letter freed by a covered end goes to the next end that opens.
    assert letters[3][("0-0", "side")] == "B"


def test_several_tiles_are_drawn_in_one_tap_and_said_back(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    html = page(scorekeeper, draw_match)
    assert 'aria-label="Ben drew 3 tiles"' in html and 'aria-label="Ben drew 8 tiles"' in html
    response = tap(scorekeeper, draw_match, {"type": "draw", "seat": "1", "count": "3"})
    assert "Recorded: Ben drew 3 tiles: 8 in hand." in response.content.decode()


def test_the_picker_offers_the_tiles_that_can_go_first_and_folds_the_rest(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    html = page(scorekeeper, draw_match)
    assert "A tile that fits one end only is played as soon as it is tapped." in html
    # The six tiles bearing a 6 go on 6-6: together, first; the 21 others folded below,
    # each high number starting a row there.
    go, rest = html.split('<details class="more-tiles" id="more-tiles">')
    go = go[go.index('id="picker"') :]
    assert re.findall(r'name="tile" value="([\d-]+)"', go) == [f"6-{n}" for n in range(5, -1, -1)]
    assert "row-start" not in go
    assert "21 tiles that cannot go now" in rest
    starts = re.findall(
        r'<label class="pick[^"]*row-start"><input type="radio" name="tile" value="(\d)-', rest
    )
    assert starts == ["5", "4", "3", "2", "1", "0"]


def test_tiles_show_numerals_on_big_sets_and_as_each_phone_chooses(scorekeeper):
    from .test_havoc import turn

    big = keep(scorekeeper, services.create_match("havoc", ["Ana", "Ben", "Caro"], {}))
    turn(scorekeeper, big, 0, train="9-4", discard="5-2")  # tiles on the table to draw
    small = keep(scorekeeper, services.create_match("draw", ["Ana", "Ben"], {}))
    tap(scorekeeper, small, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    assert 'class="pipnum"' in page(scorekeeper, big)  # double-9 or more: numerals
    assert 'class="pipnum"' not in page(scorekeeper, small)  # double-6: pips
    assert scorekeeper.post(f"/matches/{small.pk}/faces/", {"faces": "numerals"}).status_code == 302
    assert 'class="pipnum"' in page(scorekeeper, small)
    scorekeeper.post(f"/matches/{big.pk}/faces/", {"faces": "pips"})
    html = page(scorekeeper, big)
    assert 'class="pip"' in html and 'aria-pressed="true">pips</button>' in html


def test_a_dominards_free_drop_is_a_choice_and_none_records_no_drop(scorekeeper):
    from scoring.forms import action_from_post

    post = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead", "drop": "none"}
    from django.http import QueryDict

    query = QueryDict(mutable=True)
    query.update(post)
    assert "drop" not in action_from_post(query, 3)


def test_a_refused_havoc_tally_comes_back_as_it_was_ticked(scorekeeper):
    from .test_havoc import BENS_TRAY, fill_a_train, new

    match = new(scorekeeper, 2)
    fill_a_train(scorekeeper, match, 0, 1)
    ticked = BENS_TRAY[:2]
    tray = [Tile.parse(t) for t in ticked]
    # Tapped and typed at once: refused, and kept as it was chosen.
    response = tap(scorekeeper, match, {"type": "tally", "hand-1": ticked, "pips-1": "7"})
    html = response.content.decode()
    assert response.status_code == 400
    for tile in ticked:
        assert f'value="{tile}" checked' in html
    assert 'name="pips-1" min="0" max="999" inputmode="numeric" value="7"' in html
    assert f"<output>{sum(t.pips for t in tray)}</output>" in html


def test_a_refusal_says_its_sentence_first_and_its_rule_beside_it(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    html = tap(
        scorekeeper, draw_match, {"type": "play", "seat": "2", "tile": "5-4", "target": "6-6"}
    ).content.decode()
    assert '<span class="rule-id">(<a class="rule" href="/rules/draw/#turn.order">' in html
