"""The table screen for the scoring games: counts, points, hints, muggins, locks, the cross."""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.models import Action, Match, Round

from .conftest import form_fields, keep, snapshot, tap


def lead(client, match, seat: int, tile: str, **more):
    data = {"type": "play", "seat": str(seat), "tile": tile, "target": "lead", **more}
    return tap(client, match, data)


def play(client, match, seat: int, tile: str, on: str, face: str = "side"):
    data = {"type": "play", "seat": str(seat), "tile": tile, "target": f"{on}/{face}"}
    return tap(client, match, data)


def said(client, match, kind: str, seat: int, **more):
    return tap(client, match, {"type": kind, "seat": str(seat), **more})


@pytest.fixture
def all_fives(scorekeeper) -> Match:
    return keep(scorekeeper, services.create_match("all-fives", ["Ana", "Ben", "Caro"], {}))


@pytest.fixture
def muggins(scorekeeper) -> Match:
    return keep(scorekeeper, services.create_match("muggins", ["Ana", "Ben", "Caro"], {}))


def test_a_scoring_play_shows_the_count_its_parts_and_the_points(scorekeeper, all_fives):
    lead(scorekeeper, all_fives, 0, "5-5")
    html = play(scorekeeper, all_fives, 1, "5-0", "5-5").content.decode()
    assert "Count <strong>10</strong>" in html
    assert re.search(
        r'= <span class="part">10 <small>\(5-5\)</small></span> \+ '
        r'<span class="part">0 <small>\(5-0\)</small></span>',
        html,
    )
    assert "Ben&#x27;s 5-0 scored 10 (count 10)." in html
    assert "Ben played 5-0 on 5-5 · Ben +10" in html
    assert html.count('class="tile counts"') == 2  # both tiles make up the count
    all_fives.refresh_from_db()
    assert all_fives.totals == [10, 10, 0]


def test_the_picker_says_what_each_end_would_score(scorekeeper, all_fives):
    lead(scorekeeper, all_fives, 0, "5-5")
    html = scorekeeper.get(f"/matches/{all_fives.pk}/").content.decode()
    assert 'value="5-0" data-fits="A" data-gains="A:10"' in html
    assert 'value="5-1" data-fits="A" data-gains="A:0"' in html


def test_hints_can_be_turned_off_for_competitive_play(scorekeeper, db):
    match = keep(scorekeeper, services.create_match("all-fives", ["Ana", "Ben"], {"hints": False}))
    lead(scorekeeper, match, 0, "5-5")
    assert "data-gains" not in scorekeeper.get(f"/matches/{match.pk}/").content.decode()


def test_the_end_bonus_can_win_the_match_and_an_undo_reopens_it(scorekeeper, db):
    match = keep(scorekeeper, services.create_match("all-fives", ["Ana", "Ben"], {}))
    lead(scorekeeper, match, 0, "6-4")  # 10
    tap(scorekeeper, match, {"type": "draw", "seat": "1", "count": "16"})
    tap(scorekeeper, match, {"type": "pass", "seat": "1"})
    tap(scorekeeper, match, {"type": "pass", "seat": "0"})
    # Ana's 4 tiles hold 10 pips, Ben's 21 hold 140: 130 more than Ana's.
    html = tap(scorekeeper, match, {"type": "tally", "pips-0": "10", "pips-1": "140"})
    html = html.content.decode()
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.winner == 0 and match.totals == [140, 0]
    assert "the match is over" in html and "Ana wins the match with 140" in html
    assert "End bonus: Ben 130 → 130: 130" in html
    tap(scorekeeper, match, {"type": "undo"})
    match.refresh_from_db()
    assert match.status == Match.PLAYING and match.winner is None and match.totals == [10, 0]


def test_muggins_hides_the_count_and_asks_the_player_to_declare(scorekeeper, muggins):
    html = lead(scorekeeper, muggins, 0, "5-5").content.decode()
    assert "the count is yours to spot" in html and "Count <strong>" not in html
    assert "Ana, what did 5-5 score?" in html
    assert ">No score<" in html and ">Score 10<" in html
    assert "data-gains" not in html and "worth" not in html
    # Nor does a screen reader hear it: the layout's name reads the tiles, not the count.
    assert 'aria-label="The layout: lead double five">' in html and "Count 10" not in html
    # An undeclared score can be taken too: the calls are open from the play on.
    assert "Ben: Muggins!" in html and "Ana: Muggins!" not in html


def test_a_play_and_its_declaration_are_recorded_in_one_step(scorekeeper, muggins):
    # fives.muggins: "the app records a play and its declaration together, in one step,
    # whenever one phone makes both: no other phone can call between them".
    page = scorekeeper.get(f"/matches/{muggins.pk}/").content.decode()
    assert 'id="play-form" class="play" data-declare' in page and 'id="declare-now"' in page
    assert 'name="declare" value="0"' in page and 'name="declare" value="10"' in page
    response = lead(scorekeeper, muggins, 0, "5-5", declare="10")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Recorded: Ana led 5-5; Ana declared 10." in html
    muggins.refresh_from_db()
    # One transaction, one version for each entry: no version shows the play undeclared.
    assert muggins.version == 2 and muggins.totals == [10, 0, 0]
    log = Action.objects.filter(round__match=muggins).order_by("seq")
    assert [(a.kind, a.payload.get("points")) for a in log] == [("play", None), ("declare", 10)]
    assert "what did 5-5 score?" not in html  # nothing left to declare
    # A phone that saw the table before the play finds its call refused as stale.
    assert said(scorekeeper, muggins, "muggins", 1, version="0").status_code == 409


def test_a_play_with_a_declaration_over_its_count_records_neither(scorekeeper, muggins):
    before = snapshot(muggins)
    response = lead(scorekeeper, muggins, 0, "5-5", declare="15")
    assert response.status_code == 422 and "cannot claim 15" in response.content.decode()
    assert snapshot(muggins) == before


def test_a_play_with_its_declaration_sent_twice_is_recorded_once(scorekeeper, muggins):
    page = scorekeeper.get(f"/matches/{muggins.pk}/").content.decode()
    data = {**form_fields(page), "type": "play", "seat": "0", "tile": "5-5", "target": "lead"}
    for _ in range(2):
        response = scorekeeper.post(
            f"/matches/{muggins.pk}/act/", {**data, "declare": "10"}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
    assert Action.objects.filter(round__match=muggins).count() == 2
    muggins.refresh_from_db()
    assert muggins.version == 2 and muggins.totals == [10, 0, 0]


def test_a_call_before_the_declaration_stands_on_a_play_worth_nothing(scorekeeper, muggins):
    # A refusal would tell Ben that 6-3 made nothing while Ana may still declare, and say
    # she declared what she had not: the call stands, takes nothing and closes the window.
    lead(scorekeeper, muggins, 0, "6-3")  # entered alone (a page without its script)
    response = said(scorekeeper, muggins, "muggins", 1)
    html = response.content.decode()
    assert response.status_code == 200 and "Ben called Muggins!" in html
    assert "declared all" not in html and "what did 6-3 score?" not in html
    muggins.refresh_from_db()
    assert muggins.totals == [0, 0, 0]


def test_an_under_declared_score_is_taken_with_muggins(scorekeeper, muggins):
    lead(scorekeeper, muggins, 0, "5-5")
    html = said(scorekeeper, muggins, "declare", 0, points="5").content.decode()
    assert "Ben: Muggins!" in html and "Caro: Muggins!" in html and "Ana: Muggins!" not in html
    html = said(scorekeeper, muggins, "muggins", 2).content.decode()
    assert "Caro called Muggins! · Caro +5" in html
    muggins.refresh_from_db()
    assert muggins.totals == [5, 0, 5]
    # Once the next tile is down, the log says what the play was worth.
    assert "Ana led 5-5 · worth" not in html
    html = play(scorekeeper, muggins, 1, "5-0", "5-5").content.decode()
    assert "Ana led 5-5 · worth 10" in html


def test_an_over_declaration_is_refused_with_the_true_count(scorekeeper, muggins):
    lead(scorekeeper, muggins, 0, "5-5")
    before = snapshot(muggins)
    response = said(scorekeeper, muggins, "declare", 0, points="15")
    html = response.content.decode()
    assert response.status_code == 422
    assert "fives.muggins" in html and "made the count 10" in html and "cannot claim 15" in html
    assert snapshot(muggins) == before


def test_a_wrong_muggins_call_is_refused_and_changes_nothing(scorekeeper, muggins):
    lead(scorekeeper, muggins, 0, "5-5")
    said(scorekeeper, muggins, "declare", 0, points="10")
    before = snapshot(muggins)
    response = said(scorekeeper, muggins, "muggins", 1)
    assert response.status_code == 422 and "Nothing to take" in response.content.decode()
    assert snapshot(muggins) == before


def test_a_false_claim_can_be_challenged(scorekeeper, db):
    match = keep(
        scorekeeper, services.create_match("muggins", ["Ana", "Ben"], {"false_claim_penalty": True})
    )
    lead(scorekeeper, match, 0, "5-5")
    html = said(scorekeeper, match, "declare", 0, points="20").content.decode()
    assert "Ben: challenge the claim" in html
    said(scorekeeper, match, "challenge", 1)
    match.refresh_from_db()
    assert match.totals == [10, 10]


@pytest.mark.parametrize(
    "data",
    [
        {"type": "declare", "seat": "0", "points": "ten"},
        {"type": "declare", "seat": "0"},
        {"type": "declare", "seat": "0", "points": "-5"},
        {"type": "muggins", "seat": "9"},
        {"type": "muggins"},
        {"type": "challenge", "seat": "x"},
    ],
)
def test_tampered_muggins_posts_change_nothing(scorekeeper, muggins, data):
    lead(scorekeeper, muggins, 0, "5-5")
    before = snapshot(muggins)
    response = tap(scorekeeper, muggins, data)
    assert response.status_code in (400, 422)
    assert 'role="alert"' in response.content.decode()
    assert snapshot(muggins) == before


def test_fives_and_threes_rotates_the_lead(scorekeeper, db):
    match = keep(
        scorekeeper,
        services.create_match("fives-and-threes", ["Ana", "Ben", "Caro"], {"hand_size": 1}),
    )
    html = lead(scorekeeper, match, 1, "6-3").content.decode()  # Ben plays out: 9 scores 3
    # Pub rules count nothing at a round's end: no tally is asked for (issue 28), the tile
    # that chips out scores its point and the next round begins.
    assert "Round 1: Ben wins <small>(domino)" in html and 'value="tally"' not in html
    match.refresh_from_db()
    assert match.totals == [0, 3 + 1, 0]  # the chip-out point
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert html.count('type="radio" name="seat"') == 1 and 'value="2" checked' in html
    assert "The seat left of the last leader leads" in html
    refused = lead(scorekeeper, match, 0, "6-6")
    assert refused.status_code == 422 and "Caro leads this round" in refused.content.decode()
    lead(scorekeeper, match, 2, "6-6")
    assert Round.objects.get(match=match, number=2).leader == 2


def test_doubles_shows_the_unlocked_numbers_and_why_a_tile_is_locked(scorekeeper, db):
    match = keep(scorekeeper, services.create_match("doubles", ["Ana", "Ben"], {}))
    lead(scorekeeper, match, 0, "3-3")
    html = play(scorekeeper, match, 1, "3-1", "3-3").content.decode()
    assert "Unlocked: <strong>3</strong>" in html
    assert re.search(r'value="1-0" data-fits="" data-why="Ones are locked until 1-1', html)
    response = play(scorekeeper, match, 0, "1-0", "3-1")
    assert response.status_code == 422 and "line.unlock" in response.content.decode()


def test_cross_shows_the_faces_still_missing(scorekeeper, db):
    match = keep(scorekeeper, services.create_match("cross", ["Ana", "Ben"], {}))
    lead(scorekeeper, match, 0, "6-6")
    html = play(scorekeeper, match, 1, "6-5", "6-6").content.decode()
    assert "The cross on 6-6 still misses 3 faces: side, end, end." in html
    response = play(scorekeeper, match, 0, "5-4", "6-5")
    assert response.status_code == 422 and "line.cross" in response.content.decode()


@pytest.mark.parametrize("game", ["all-fives", "muggins", "fives-and-threes", "cross",
                                  "cross-spinners", "doubles"])  # fmt: skip
def test_every_game_starts_from_the_new_match_form(scorekeeper, db, game):
    data = {"game": game, "player-0": "Ana", "player-1": "Ben"}
    response = scorekeeper.post("/matches/new/", data)
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.game == game and scorekeeper.get(response["Location"]).status_code == 200


def test_a_lead_that_must_be_a_double_says_so(scorekeeper, db):
    match = keep(scorekeeper, services.create_match("doubles", ["Ana", "Ben"], {}))
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert 'value="6-3" data-fits="" data-why="The lead must be a double; 6-3 is not' in html


def test_a_tile_off_the_open_cross_says_why(scorekeeper, db):
    match = keep(scorekeeper, services.create_match("cross", ["Ana", "Ben"], {}))
    lead(scorekeeper, match, 0, "6-6")
    html = play(scorekeeper, match, 1, "6-5", "6-6").content.decode()
    assert 'value="5-4" data-fits="" data-why="Until the cross on 6-6 is complete' in html


def test_a_score_past_61_says_it_was_not_scored(scorekeeper, db):
    document = {
        "format": "boneyard-match/1", "game": "fives-and-threes", "options": {},
        "players": ["Ana", "Ben"], "rounds": [{"actions": [
            {"type": "play", "seat": 0, "tile": "5-5"}]}],
    }  # fmt: skip
    match = keep(scorekeeper, services.import_match(document))
    Match.objects.filter(pk=match.pk).update(totals=[2, 60])  # as if Ben were at 60
    html = play(scorekeeper, match, 1, "5-0", "5-5").content.decode()  # 10 scores 2
    assert "Ben&#x27;s 5-0 made 2, which would pass 61: not scored (count 10)." in html


def test_the_summary_shows_the_round_in_progress(scorekeeper, all_fives):
    lead(scorekeeper, all_fives, 0, "5-5")
    html = scorekeeper.get(f"/matches/{all_fives.pk}/summary/").content.decode()
    assert "in progress" in html and "+10" in html
