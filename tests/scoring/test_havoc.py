"""Double Domino Havoc at the table: who begins, the turn as steps, the rule of doubles,
discard-back, refusals that change nothing, whole rounds tallied, stop and undo, and
seeded random matches through export and import."""

from __future__ import annotations

import html as markup
import random
import re

import pytest

from referee import DominoSet, Tile
from referee.actions import Respond, Stop, Tally, Train, Undo
from referee.games import havoc
from scoring import services
from scoring.models import Action, Match, Round
from tests.conftest import DEEP_ONLY

from .conftest import form_fields, keep, snapshot, tap, watch

NAMES = ["Ana", "Ben", "Caro", "Dee", "Eve", "Fay", "Gus", "Hal"]
T = Tile.parse


def new(client, players: int, **options) -> Match:
    return keep(client, services.create_match("havoc", NAMES[:players], options))


def page(client, match: Match, query: str = "") -> str:
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def part(html: str, start: str, end: str) -> str:
    """The stretch of ``html`` from ``start`` to the first ``end`` after it ("" if none)."""
    found = re.search(re.escape(start) + ".*?" + re.escape(end), html, re.S)
    return found.group(0) if found else ""


def banner(html: str) -> str:
    start = 'id="banner" role="status">'
    return markup.unescape(part(html, start, "</p>")[len(start) : -len("</p>")])


def log(html: str) -> list[str]:
    """The round's log, oldest first."""
    lines = re.findall(
        r'<li><span class="said">(.*?)</span>', part(html, '<section class="log"', "</section>")
    )
    return [markup.unescape(line) for line in reversed(lines)]


def state_of(match: Match) -> havoc.HavocState:
    match.refresh_from_db()
    return services.load_table(match).state  # type: ignore[return-value]


def act(client, game: Match, kind: str, seat: int | None = None, status: int = 200, **fields):
    """One tap of the table form; ``from_`` stands for the field ``from``."""
    data = {"type": kind, **{k.rstrip("_"): v for k, v in fields.items()}}
    if seat is not None:
        data["seat"] = str(seat)
    response = tap(client, game, data)
    assert response.status_code == status, response.content.decode()[:3000]
    return response


def turn(client, match, seat: int, train: str | None = None, discard: str | None = None):
    """A normal turn: draw from the boneyard, maybe play to the train, maybe discard."""
    act(client, match, "draw", seat, from_="boneyard")
    if train:
        act(client, match, "train", seat, tile=train)
    if discard:
        act(client, match, "discard", seat, tile=discard)


# ---------------------------------------------------------------------------------------------
# The screen, step by step


def test_a_new_match_asks_who_begins_then_shows_that_seats_draw(scorekeeper):
    match = new(scorekeeper, 4)
    html = page(scorekeeper, match)
    assert banner(html).startswith("Round 1: who begins?")
    assert html.count('<li class="rack-card') == 4
    assert 'class="arrow cw"' in html and "Play goes <strong>clockwise</strong>" in html
    assert "Boneyard: <strong>31</strong>" in html  # double-9: 55 less 4 trays of six
    panel = part(html, 'id="seat-panel"', "</section>")
    assert [f'href="?seat={s}"' in panel for s in range(5)] == [True] * 4 + [False]
    assert 'value="boneyard"' not in panel  # nobody draws before the first player is chosen
    html = page(scorekeeper, match, "?seat=1")
    panel = part(html, 'id="seat-panel"', "</section>")
    assert "<h2>Ben begins</h2>" in panel and "Draw from the boneyard (31 left)" in panel
    assert 'name="seat" value="1"' in panel and 'name="from" value="boneyard"' in panel
    assert panel.count('<span class="visually-hidden">Drew </span>') == 10  # any double
    for tampered in ("?seat=4", "?seat=x", "?seat=-1", "?seat=999"):
        assert "<h2>" not in part(page(scorekeeper, match, tampered), 'id="seat-panel"', "</sec")
    before = snapshot(match)
    for source, says in (
        ({"from": "boneyard", "tile": "5-2"}, "info.public"),  # only a double is named
        ({"from": "1/5-2"}, "Ben's discard slot is empty"),
        ({"from": "0/5-2"}, "not the one in Ana's own slot"),
    ):
        response = tap(scorekeeper, match, {"type": "draw", "seat": "0", **source})
        assert response.status_code == 422 and says in markup.unescape(response.content.decode())
    assert snapshot(match) == before
    # A double as Ben's 7th tile goes to his slot at once, and Ana (counter-clockwise) answers.
    act(scorekeeper, match, "draw", 1, from_="boneyard", tile="9-9")
    state = state_of(match)
    assert state.racks[1].slot == T("9-9") and state.first == 1 and state.doubles.responder == 0
    html = page(scorekeeper, match)
    assert "<h2>Ana answers 9-9</h2>" in html and 'class="arrow ccw"' in html
    assert log(html) == [
        "Ben drew 9-9 and put it in the discard slot; play goes counter-clockwise (havoc.direction)"
    ]


def test_a_turn_is_a_draw_then_the_train_then_a_discard(scorekeeper):
    match = new(scorekeeper, 2)
    html = page(scorekeeper, match, "?seat=0")
    assert 'id="train-picker"' not in html and 'id="discard-picker"' not in html
    act(scorekeeper, match, "draw", 0, from_="boneyard")
    html = page(scorekeeper, match)
    assert '<li class="done">Draw</li><li class="now" aria-current="step">Play' in html
    assert "Start the train: tap the tile" in html
    assert part(html, 'id="train-picker"', "</fieldset>").count('class="pick"') == 55
    # The first train tile is free; its free end is chosen after it is tapped.
    chosen = page(scorekeeper, match, "?tile=4-9")
    assert "9-4 starts the train" in chosen
    assert 'value="9-4" class="button">9-4: 4 free' in chosen
    assert 'value="4-9" class="button">4-9: 9 free' in chosen
    assert chosen.count("free</button>") == 2
    assert page(scorekeeper, match, "?tile=9-9").count("free</button>") == 1
    act(scorekeeper, match, "train", 0, tile="9-4")
    html = page(scorekeeper, match)
    assert 'id="train-picker"' not in html and 'id="discard-picker"' in html
    assert "skip-play" not in html  # the discard is the step now, not a way to skip one
    assert banner(html) == "Ana: discard a tray tile to Ana's own slot."
    act(scorekeeper, match, "discard", 0, tile="5-2")
    html = page(scorekeeper, match)
    assert "<h2>Ben's turn</h2>" in html and 'value="0/5-2"' in html
    assert banner(html) == "Ben's turn: draw from the boneyard or take a discard (Ana's 5-2)."
    turn(scorekeeper, match, 1, discard="8-1")
    act(scorekeeper, match, "draw", 0, from_="boneyard")
    html = page(scorekeeper, match)
    picker = part(html, 'id="train-picker"', "</fieldset>")
    assert "Play to the train: a tile bearing 4" in picker
    offered = re.findall(r'name="tile" value="([^"]+)"', picker)
    assert sorted(offered) == [f"4-{n}" for n in range(10) if n != 9]  # 9-4 is on the train
    assert log(html) == [
        "Ana drew from the boneyard",
        "Ana played 9-4 to the train (4 free)",
        "Ana discarded 5-2",
        "Ben drew from the boneyard",
        "Ben discarded 8-1",
        "Ana drew from the boneyard",
    ]


def test_an_odd_double_turns_play_and_its_answer_is_a_match_then_a_replacement(scorekeeper):
    match = new(scorekeeper, 3)
    turn(scorekeeper, match, 0, train="9-4", discard="3-3")
    html = page(scorekeeper, match)
    assert "counter-clockwise" in html and 'class="arrow ccw"' in html
    assert banner(html) == (
        "3-3 lies in Ana's slot: Caro may take it onto Caro's train if it ends in 3, else Caro "
        "must put a 3 from the tray in its place, else Caro passes. (Caro's train is empty.)"
    )
    panel = part(html, 'id="seat-panel"', "</section>")
    assert "<h2>Caro answers 3-3</h2>" in panel and "in Ana's slot" in panel
    assert "onto Caro's train" not in panel  # an empty train cannot take it
    matches = re.findall(r'href="\?match=([^"]+)"', panel)
    assert sorted(matches) == sorted(str(Tile.of(3, n)) for n in range(10) if n != 3)
    # The answering tile, then the replacement.
    chosen = part(page(scorekeeper, match, "?match=1-3"), 'id="seat-panel"', "</section>")
    assert "3-3 leaves play" in chosen and 'name="match" value="3-1"' in chosen
    assert "Drew the replacement (not a double)" in chosen
    assert chosen.count('name="replacement"') == 9  # every double but 3-3
    act(scorekeeper, match, "respond", 2, match="3-1")
    state = state_of(match)
    assert state.racks[0].slot == T("3-1") and T("3-3") in state.out
    assert state.doubles is None and state.turn == 1 and state.direction == -1
    assert state.racks[2].tray == 6 and state.boneyard == 55 - 18 - 2
    html = page(scorekeeper, match)
    assert log(html)[-2:] == [
        "Ana discarded 3-3; play goes counter-clockwise (havoc.direction)",
        "Caro put 3-1 in the double's place and drew a replacement",
    ]
    assert "<h2>Ben's turn</h2>" in html and 'class="arrow ccw"' in html


def test_a_double_nobody_answers_dies_and_its_placer_plays_on(scorekeeper):
    match = new(scorekeeper, 4)
    turn(scorekeeper, match, 0, discard="5-5")
    for seat, name in ((3, "Dee"), (2, "Caro"), (1, "Ben")):
        assert f"<h2>{name} answers 5-5</h2>" in page(scorekeeper, match)
        act(scorekeeper, match, "respond", seat, answer="pass")
    state = state_of(match)
    assert state.doubles is None and state.racks[0].slot is None and T("5-5") in state.out
    assert (state.turn, state.step, state.direction) == (0, havoc.DRAW, -1)
    html = page(scorekeeper, match)
    assert banner(html) == "Ana's turn: draw from the boneyard."
    assert log(html)[-1] == "Ben passed on the double"
    # The dead double is said aloud, with its rule (havoc.dead-double).
    assert "5-5 is dead: every seat passed, so it leaves play and Ana plays a normal turn." in (
        markup.unescape(html)
    )
    act(scorekeeper, match, "draw", 0, from_="boneyard")
    assert 'id="dead-double"' not in page(scorekeeper, match)


def test_a_train_ending_in_the_number_takes_the_double(scorekeeper):
    match = new(scorekeeper, 3)
    turn(scorekeeper, match, 0, train="9-4", discard="1-0")
    turn(scorekeeper, match, 1, train="7-2", discard="6-0")
    turn(scorekeeper, match, 2, discard="8-1")
    turn(scorekeeper, match, 0, train="4-5", discard="2-2")  # even: clockwise, to Ben
    html = page(scorekeeper, match)
    assert 'class="arrow cw"' in html and "(Ben's train ends in 2.)" in banner(html)
    assert 'name="answer" value="take"' in html and "Take 2-2 onto Ben's train" in html
    act(scorekeeper, match, "respond", 1, answer="take")
    state = state_of(match)
    assert state.racks[1].tiles == (T("7-2"), T("2-2")) and state.racks[1].free_end == 2
    assert state.racks[0].slot is None and (state.turn, state.step) == (1, havoc.DISCARD)
    html = page(scorekeeper, match)
    assert banner(html) == "Ben: discard a tray tile to Ben's own slot; 6-0 there leaves play."
    act(scorekeeper, match, "discard", 1, tile="9-0")
    state = state_of(match)
    assert state.turn == 2 and T("6-0") in state.out
    assert sum(len(r.train) + r.tray for r in state.racks) == 18  # havoc.invariant
    assert "Ben took the double onto the train" in log(page(scorekeeper, match))


def test_a_replacement_double_starts_the_rule_again_from_the_responder(scorekeeper):
    match = new(scorekeeper, 3)
    turn(scorekeeper, match, 0, train="9-4", discard="3-3")
    chosen = page(scorekeeper, match, "?match=3-1")
    assert 'name="replacement" value="4-4"' in chosen
    act(scorekeeper, match, "respond", 2, match="3-1", replacement="4-4")
    state = state_of(match)
    # 4-4 is even: play turns clockwise again, and Ana answers it from Caro's slot.
    assert state.racks[2].slot == T("4-4") and state.racks[0].slot == T("3-1")
    assert state.direction == 1 and state.doubles.responder == 0 and state.doubles.slot == 2
    assert state.racks[2].tray == 6 and state.boneyard == 55 - 18 - 3  # drew once more
    html = page(scorekeeper, match)
    assert banner(html).startswith("4-4 lies in Caro's slot: Ana may take it")
    assert "(Ana's train ends in 4.)" in banner(html) and 'class="arrow cw"' in html
    assert log(html)[-1] == (
        "Caro put 3-1 in the double's place and drew 4-4, another double; "
        "play goes clockwise (havoc.direction)"
    )
    act(scorekeeper, match, "respond", 0, answer="take")
    assert state_of(match).racks[0].tiles == (T("9-4"), T("4-4"))


def test_taking_a_discard_sends_the_takers_discard_to_that_slot(scorekeeper):
    match = new(scorekeeper, 3)
    turn(scorekeeper, match, 0, discard="5-2")
    turn(scorekeeper, match, 1, discard="7-1")
    act(scorekeeper, match, "draw", 2, from_="0/5-2")
    state = state_of(match)
    assert state.racks[0].slot is None and state.racks[2].known == (T("5-2"),)
    html = page(scorekeeper, match)
    assert "In the tray, taken from a discard: 5-2" in html
    assert log(html)[-1] == "Caro took 5-2 from Ana's discard slot"
    assert banner(html).startswith("Caro: play a tile to the train")
    act(scorekeeper, match, "discard", 2, tile="6-1")
    state = state_of(match)
    assert state.racks[0].slot == T("6-1") and state.racks[2].slot is None
    assert state.racks[1].slot == T("7-1") and state.turn == 0
    html = page(scorekeeper, match)
    assert 'value="1/7-1"' in html and 'value="0/6-1"' not in html  # not Ana's own slot


def test_the_discard_back_banner_names_the_slot_once(scorekeeper):
    match = new(scorekeeper, 3)
    turn(scorekeeper, match, 0, discard="5-2")
    act(scorekeeper, match, "draw", 1, from_="0/5-2")
    act(scorekeeper, match, "train", 1, tile="5-2")
    assert banner(page(scorekeeper, match)) == (
        "Ben: discard a tray tile to Ana's slot (Ben took from it: havoc.discard-back)."
    )


# ---------------------------------------------------------------------------------------------
# Refusals


@pytest.fixture
def midturn(scorekeeper) -> Match:
    """Two seats; Ana has drawn on her second turn and her train ends in 4."""
    match = new(scorekeeper, 2)
    turn(scorekeeper, match, 0, train="9-4", discard="5-2")
    turn(scorekeeper, match, 1, train="8-1", discard="6-3")
    act(scorekeeper, match, "draw", 0, from_="boneyard")
    return match


@pytest.mark.parametrize(
    ("data", "status", "says"),
    [
        ({"type": "draw", "seat": "0", "from": "boneyard"}, 422, "havoc.turn"),
        ({"type": "draw", "seat": "1", "from": "boneyard"}, 422, "It is Ana's turn, not Ben's"),
        ({"type": "train", "seat": "0", "tile": "7-2"}, 422, "does not match the free end"),
        ({"type": "train", "seat": "0", "tile": "6-4"}, 422, "Write the matching half first"),
        ({"type": "train", "seat": "0", "tile": "4-9"}, 422, "9-4 is on Ana"),
        ({"type": "train", "seat": "0", "tile": "4-x"}, 400, "not a tile"),
        ({"type": "train", "seat": "0", "tile": "4-10"}, 400, "not in a double-9 set"),
        ({"type": "train", "seat": "x", "tile": "4-7"}, 400, "is not a seat"),
        ({"type": "train", "seat": "7", "tile": "4-7"}, 422, "There is no seat 7"),
        ({"type": "discard", "seat": "0", "tile": "5-2"}, 422, "in Ana"),
        ({"type": "draw", "seat": "0", "from": "sky"}, 400, "not 'sky'"),
        ({"type": "draw", "seat": "0", "from": "1/6-3"}, 422, "Ana has drawn this turn"),
        ({"type": "respond", "seat": "0", "answer": "pass"}, 422, "No double is waiting"),
        ({"type": "pass", "seat": "0"}, 422, "discard to keep six tiles"),
        ({"type": "tally", "pips-1": "5"}, 422, "The round is not over"),
        ({"type": "flip", "seat": "0"}, 400, "Unknown action type"),
    ],
)
def test_refused_taps_change_nothing(scorekeeper, midturn, data, status, says):
    before = snapshot(midturn)
    response = tap(scorekeeper, midturn, data)
    assert response.status_code == status
    body = markup.unescape(response.content.decode())
    assert says in body, body[:3000]
    assert 'id="table"' in body and 'id="train-picker"' in body  # still Ana's turn to play
    assert snapshot(midturn) == before


def test_only_the_responder_answers_a_double(scorekeeper):
    match = new(scorekeeper, 4)
    turn(scorekeeper, match, 0, discard="3-3")  # Dee answers
    before = snapshot(match)
    for data in (
        {"type": "respond", "seat": "1", "answer": "pass"},
        {"type": "respond", "seat": "2", "match": "3-1"},
        {"type": "draw", "seat": "1", "from": "boneyard"},
        {"type": "respond", "seat": "3", "answer": "take"},  # Dee's train is empty
        {"type": "respond", "seat": "3", "match": "4-1"},
        {"type": "respond", "seat": "3", "match": "3-1", "replacement": "5-2"},
    ):
        response = tap(scorekeeper, match, data)
        assert response.status_code == 422, data
        body = response.content.decode()
        assert "havoc.doubles" in body or "info.public" in body, data
    assert snapshot(match) == before


def test_a_responder_holding_a_taken_tile_of_the_number_must_match(scorekeeper):
    match = new(scorekeeper, 3)
    turn(scorekeeper, match, 0, discard="3-1")
    act(scorekeeper, match, "draw", 1, from_="0/3-1")  # the table saw Ben take a 3
    act(scorekeeper, match, "discard", 1, tile="5-2")
    turn(scorekeeper, match, 2, discard="3-3")  # counter-clockwise: Ben answers
    html = markup.unescape(page(scorekeeper, match))
    assert 'value="pass" class="button" disabled' in html
    assert "Ben took 3-1 from a discard slot and holds a 3" in html
    before = snapshot(match)
    act(scorekeeper, match, "respond", 1, status=422, answer="pass")
    assert snapshot(match) == before
    act(scorekeeper, match, "respond", 1, match="3-1")
    state = state_of(match)
    assert state.racks[2].slot == T("3-1") and state.racks[1].known == ()


def test_a_tampered_match_query_is_ignored(scorekeeper):
    match = new(scorekeeper, 3)
    turn(scorekeeper, match, 0, discard="3-3")
    html = page(scorekeeper, match, "?match=10-3")  # not in a double-9 set
    assert 'id="match-picker"' in html


def test_a_stale_screen_and_a_spectator_change_nothing(scorekeeper, spectator):
    match = new(scorekeeper, 2)
    old = form_fields(page(scorekeeper, match))
    act(scorekeeper, match, "draw", 0, from_="boneyard")
    before = snapshot(match)
    stale = {**old, "type": "train", "seat": "0", "tile": "9-4"}
    response = scorekeeper.post(f"/matches/{match.pk}/act/", stale, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "Ana drew from the boneyard meanwhile" in response.content.decode()
    assert snapshot(match) == before
    watch(spectator, match)
    html = page(spectator, match)
    assert 'id="seat-panel"' not in html and 'id="stop"' not in html
    fresh = {**form_fields(page(scorekeeper, match)), "type": "train", "seat": "0", "tile": "9-4"}
    response = spectator.post(f"/matches/{match.pk}/act/", fresh, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and snapshot(match) == before


# ---------------------------------------------------------------------------------------------
# Whole rounds, the tally, stop and undo

WINNER_TRAIN = ["9-4", "4-5", "5-6", "6-7", "7-8", "8-3"]
WINNER_DISCARDS = ["1-0", "2-0", "3-0", "4-0", "5-0"]
LOSER_DISCARDS = [["2-1", "3-1", "4-1", "5-1", "6-1"], ["7-1", "8-1", "9-1", "7-2", "8-2"]]
BENS_TRAY = ["9-0", "8-0", "7-0", "6-0", "3-2", "4-2"]  # 41 pips, none of them seen


def fill_a_train(client, match: Match, winner: int, *losers: int) -> None:
    """``winner`` begins and fills its train in six turns; the others, clockwise after
    it, only draw and discard."""
    for n, tile in enumerate(WINNER_TRAIN):
        turn(client, match, winner, train=tile, discard=WINNER_DISCARDS[n] if n < 5 else None)
        for seat, discards in zip(losers, LOSER_DISCARDS, strict=False):
            if n < 5:
                turn(client, match, seat, discard=discards[n])


def test_rounds_are_tallied_by_hands_and_by_pips_and_the_lowest_total_wins(scorekeeper):
    match = new(scorekeeper, 2, rounds=2)
    fill_a_train(scorekeeper, match, 0, 1)
    html = page(scorekeeper, match)
    assert banner(html).startswith("Ana's train is full: Ana wins round 1. Tally the trays")
    form = part(html, 'id="tally-form"', "</form>")
    assert "Ben's tray holds 6 tiles" in markup.unescape(form) and 'name="hand-0"' not in form
    assert 'name="hand-1" value="9-0"' in form and 'name="hand-1" value="9-4"' not in form
    act(scorekeeper, match, "draw", 1, status=422, from_="boneyard")  # the round is over
    act(scorekeeper, match, "tally", status=422, **{"hand-1": ["9-0", "8-0"]})  # two of six
    act(scorekeeper, match, "tally", status=422, **{"pips-1": "200"})  # six tiles hold 108
    act(scorekeeper, match, "tally", **{"hand-1": BENS_TRAY})
    act(scorekeeper, match, "undo")  # a tally can be taken back, and made again
    assert banner(page(scorekeeper, match)).startswith("Ana's train is full")
    act(scorekeeper, match, "tally", **{"hand-1": BENS_TRAY})
    match.refresh_from_db()
    assert match.totals == [0, 41] and match.status == Match.PLAYING
    html = page(scorekeeper, match)
    result = part(html, 'id="round-result"', "</section>")
    assert "Round 1: Ana filled the train" in result
    assert "<td>Ana</td><td>0</td><td>0</td>" in result
    assert "<td>Ben</td><td>41</td><td>41</td>" in result
    # The next round begins with the seat clockwise of the first, with empty racks.
    assert banner(html) == "Ben's turn: draw from the boneyard."
    assert html.count("train 0/6 · tray 6") == 2 and "Boneyard: <strong>43</strong>" in html
    assert log(html) == []
    act(scorekeeper, match, "draw", 0, status=422, from_="boneyard")
    fill_a_train(scorekeeper, match, 1, 0)
    act(scorekeeper, match, "tally", **{"pips-0": "30"})
    match.refresh_from_db()
    assert match.totals == [30, 41] and match.status == Match.FINISHED and match.winner == 0
    html = page(scorekeeper, match)
    assert banner(html) == "The match is over."
    assert "Round 2: Ben filled the train" in html and "Ana wins the match" in html
    assert 'id="seat-panel"' not in html and 'id="stop"' not in html
    leaders = list(Round.objects.filter(match=match).values_list("number", "leader"))
    assert leaders == [(1, None), (2, 1)]  # round 2: the seat clockwise of round 1's first
    assert services.verify(match) == []
    act(scorekeeper, match, "stop", status=422)


def test_stop_ends_the_match_mid_round_and_can_be_taken_back(scorekeeper):
    match = new(scorekeeper, 2)
    turn(scorekeeper, match, 0, train="9-4", discard="5-2")
    act(scorekeeper, match, "draw", 1, from_="boneyard")
    html = page(scorekeeper, match)
    assert 'id="stop"' in html
    act(scorekeeper, match, "stop")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.totals == [0, 0] and match.winner is None
    html = page(scorekeeper, match)
    assert "The table stopped the match" in html and "Ana and Ben share the win" in html
    assert log(html)[-1] == "The table stopped the match"
    assert 'name="type" value="undo"' in html
    act(scorekeeper, match, "draw", 0, status=422, from_="boneyard")
    act(scorekeeper, match, "undo")
    match.refresh_from_db()
    assert match.status == Match.PLAYING and match.winner is None
    state = state_of(match)
    assert (state.turn, state.step) == (1, havoc.PLAY) and not state.stopped
    act(scorekeeper, match, "discard", 1, tile="6-3")


def test_stop_between_rounds_keeps_the_tallied_round_and_can_be_taken_back(scorekeeper):
    match = new(scorekeeper, 2)
    fill_a_train(scorekeeper, match, 0, 1)
    act(scorekeeper, match, "tally", **{"pips-1": "12"})
    act(scorekeeper, match, "stop")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.totals == [0, 12] and match.winner == 0
    assert Round.objects.filter(match=match).count() == 1  # the stop is logged in round 1
    html = page(scorekeeper, match)
    assert "Round 1: Ana filled the train" in html and "Ana wins the match" in html
    act(scorekeeper, match, "undo")
    match.refresh_from_db()
    assert match.status == Match.PLAYING and match.totals == [0, 12]
    html = page(scorekeeper, match)
    assert banner(html) == "Ben's turn: draw from the boneyard."
    act(scorekeeper, match, "draw", 1, from_="boneyard")
    kinds = list(Action.objects.filter(round__match=match).values_list("round__number", "kind"))
    assert kinds[-4:] == [(1, "tally"), (1, "stop"), (1, "undo"), (2, "draw")]
    match.refresh_from_db()
    assert services.verify(match) == []


def test_a_tally_may_tap_one_tray_and_type_another(scorekeeper):
    # tally.hands: each hand by its tiles or its pips; one hand both ways is refused.
    match = new(scorekeeper, 3)
    fill_a_train(scorekeeper, match, 0, 1, 2)
    form = markup.unescape(part(page(scorekeeper, match), 'id="tally-form"', "</form>"))
    assert "Tap the tiles of each tray, or type its pip total" in form
    before = snapshot(match)
    both = {"hand-1": BENS_TRAY, "pips-1": "41", "pips-2": "12"}
    response = act(scorekeeper, match, "tally", status=400, **both)
    assert "Ben's hand is both tapped and typed" in markup.unescape(response.content.decode())
    assert snapshot(match) == before
    act(scorekeeper, match, "tally", **{"hand-1": BENS_TRAY, "pips-2": "12"})
    match.refresh_from_db()
    assert match.totals == [0, sum(Tile.parse(t).pips for t in BENS_TRAY), 12]
    tally = Action.objects.get(round__match=match, kind="tally").payload
    assert set(tally) == {"type", "hands", "pips"} and tally["pips"] == {"2": 12}


def test_with_the_boneyard_empty_seats_take_discards_or_skip_the_draw(scorekeeper):
    # Imported: 43 turns of draw and discard empty the boneyard; 3-1 and 8-7 stay unseen.
    tiles = [str(t) for t in DominoSet(9).tiles if not t.is_double and str(t) not in ("3-1", "8-7")]
    actions = []
    for n, tile in enumerate(tiles):
        actions += [{"type": "draw", "seat": n % 2, "from": "boneyard"},
                    {"type": "discard", "seat": n % 2, "tile": tile}]  # fmt: skip
    document = {"format": "boneyard-match/1", "game": "havoc", "options": {},
                "players": NAMES[:2], "rounds": [{"actions": actions}]}  # fmt: skip
    match = keep(scorekeeper, services.import_match(document))
    anas, bens = tiles[-1], tiles[-2]
    html = page(scorekeeper, match)
    empty = "Ben's turn: the boneyard is empty, so Ben takes a discard"
    assert banner(html) == f"{empty}: Ana's {anas}."
    assert "Draw from the boneyard" not in html and f'value="0/{anas}"' in html
    act(scorekeeper, match, "draw", 1, status=422, from_="boneyard")
    act(scorekeeper, match, "draw", 1, from_=f"0/{anas}")
    act(scorekeeper, match, "discard", 1, tile="3-3")  # back to Ana's slot; Ana answers
    # The replacement comes from another discard slot, named in the form.
    chosen = part(page(scorekeeper, match, "?match=3-1"), 'id="seat-panel"', "</section>")
    assert "from a discard: the boneyard is empty" in chosen
    assert "Drew the replacement" not in chosen and 'name="replacement"' not in chosen
    assert f'name="from" value="1/{bens}"' in chosen
    act(scorekeeper, match, "respond", 0, match="3-1", from_=f"1/{bens}")
    state = state_of(match)
    assert state.racks[0].slot == T("3-1") and state.racks[0].known == (T(bens),)
    assert state.racks[1].slot is None and state.turn == 1
    assert log(page(scorekeeper, match))[-1] == (
        f"Ana put 3-1 in the double's place and took {bens} from Ben's slot"
    )
    act(scorekeeper, match, "draw", 1, from_="0/3-1")
    act(scorekeeper, match, "discard", 1, tile="8-7")  # to Ana's slot again
    # Nothing for Ana to take: she skips the draw, and discards nothing.
    html = page(scorekeeper, match)
    assert banner(html).startswith("Ana had nothing to draw: play a tile to the train")
    assert "Nothing to play: end Ana's turn" in html and 'id="discard-picker"' not in html
    act(scorekeeper, match, "discard", 0, status=422, tile="9-9")
    act(scorekeeper, match, "pass", 0)
    assert state_of(match).turn == 1
    assert banner(page(scorekeeper, match)).startswith(empty)
    match.refresh_from_db()
    assert services.verify(match) == []


# ---------------------------------------------------------------------------------------------
# Whole random matches through the app, export and import


def declared_hands(state: havoc.HavocState, rng: random.Random) -> Tally:
    """A tally the table could make: every tray but the winner's holds the tiles it took
    from a discard slot and, for the rest, tiles nobody has seen."""
    pool = list(state.unseen())
    rng.shuffle(pool)
    hands = {}
    for seat, rack in enumerate(state.racks):
        if seat != state.filled:
            rest = [pool.pop() for _ in range(rack.tray - len(rack.known))]
            hands[seat] = (*rack.known, *rest)
    return Tally(hands=tuple(hands.items()))


def choose(state: havoc.HavocState, rng: random.Random):
    """A legal action, mostly to the train so that rounds end; now and then an undo."""
    legal = [a for a in havoc.legal_actions(state) if not isinstance(a, Stop)]
    trains = [a for a in legal if isinstance(a, Train)]
    if trains and rng.random() < 0.7:
        return rng.choice(trains)
    undo = [a for a in legal if isinstance(a, Undo)]
    if undo and rng.random() < 0.03:
        return undo[0]
    answers = [a for a in legal if isinstance(a, Respond) and (a.take or a.match)]
    if answers and rng.random() < 0.5:
        return rng.choice(answers)
    return rng.choice([a for a in legal if not isinstance(a, Undo)])


def record_random_match(seed: int, players: int, rounds: int) -> Match:
    """A match played at random by the rules, recorded action by action: ``rounds`` rounds,
    or with ``rounds`` 0 in the options, stopped after two."""
    rng = random.Random(seed)
    match = services.create_match("havoc", NAMES[:players], {"rounds": rounds})
    while match.status != Match.FINISHED:
        table = services.load_table(match)
        state = table.state
        if state.ended is not None:
            action = declared_hands(state, rng)
        elif table.between_rounds and table.number == 3:
            action = Stop()  # two rounds tallied: the table has played enough
        else:
            action = choose(state, rng)
        assert services.record(match.pk, action.to_dict(), match.version, services.new_key())
        match.refresh_from_db()
    return match


@pytest.mark.parametrize(
    ("seed", "players", "rounds"),
    # Eight players' two rounds are the costliest app test there is: make test-deep's.
    [(1, 2, 2), (2, 4, 0), pytest.param(3, 8, 2, marks=[pytest.mark.deep, *DEEP_ONLY])],
)
def test_random_matches_survive_export_and_import(db, seed, players, rounds):
    match = record_random_match(seed, players, rounds)
    document = services.export_match(match)
    assert len(document["rounds"]) == 2 and all("result" in r for r in document["rounds"])
    assert document["totals"] == {str(s): t for s, t in enumerate(match.totals)}
    assert document["winner"] == match.winner
    assert services.verify(match) == []
    copied = services.import_match(document)
    assert services.export_match(copied) == document
    assert services.verify(copied) == []
    assert (copied.totals, copied.winner, copied.status) == (match.totals, match.winner, "finished")
    rounds = [
        Round.objects.filter(match=m).values_list("leader", "carry", "result")
        for m in (match, copied)
    ]
    assert list(rounds[0]) == list(rounds[1])


# ---------------------------------------------------------------------------------------------
# htmx


def test_htmx_gets_the_table_fragment_and_a_plain_post_is_redirected(scorekeeper):
    match = new(scorekeeper, 2)
    response = scorekeeper.get(f"/matches/{match.pk}/?seat=0", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and 'id="table"' in body and "<html" not in body
    assert "<h2>Ana begins</h2>" in body and 'id="share"' not in body
    response = act(scorekeeper, match, "draw", 0, from_="boneyard")
    body = response.content.decode()
    assert 'id="table"' in body and "<html" not in body and "Start the train" in body
    assert response["X-Table-Version"] == "1"
    response = tap(scorekeeper, match, {"type": "train", "seat": "0", "tile": "9-4"}, htmx=False)
    assert response.status_code == 302
    assert "<html" in page(scorekeeper, match)


def test_the_pickers_offer_exactly_the_legal_train_tiles_and_discards():
    # The screen checks one tile per picker; the referee's legal_actions is the truth.
    import random

    from referee.actions import Discard as DiscardAction
    from referee.actions import Stop as StopAction
    from referee.actions import Train as TrainAction
    from referee.actions import Undo as UndoAction
    from referee.games import havoc
    from scoring.screens.havoc import _turn

    chance = random.Random(3)
    state = havoc.start("havoc", {}, list(NAMES[:4]))
    for _ in range(120):
        if state.ended is not None:
            break
        if state.doubles is None and state.turn is not None and state.step != "draw":
            legal = havoc.legal_actions(state)
            turn = _turn(state, {})
            offered = {str(item["tile"]) for item in turn["discards"]}
            assert offered == {str(a.tile) for a in legal if isinstance(a, DiscardAction)}
            if turn.get("train", {}).get("end") is not None:
                trains = {str(item["tile"]) for item in turn["train"]["tiles"]}
                assert trains == {str(a.tile) for a in legal if isinstance(a, TrainAction)}
        choices = [
            a for a in havoc.legal_actions(state) if not isinstance(a, UndoAction | StopAction)
        ]
        state = havoc.apply(state, chance.choice(choices))
