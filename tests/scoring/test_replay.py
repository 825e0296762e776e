"""The replay screen: any round stepped through action by action, equal at every step to the
referee's own replay of the match document, with links that walk the steps and the rounds."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench import matches
from referee import DominoSet, Draw, Pass, Play, Tally, line, parse_action, replay
from referee.actions import Stop
from referee.document import play_round
from referee.games import havoc
from referee.rulebook import preset
from scoring import services
from scoring.models import Match
from scoring.screens.replay import replay_context
from tests.conftest import DEEP

from .conftest import keep, watch
from .test_dominards import whole_game
from .test_dump_truck import honest_game
from .test_export_import import DOCUMENT as DRAW_WITH_AN_UNDO
from .test_havoc import choose, declared_hands

NAMES = ["Ana", "Ben", "Caro", "Dan"]


def honest_line_match(slug: str, players: int, seed: int, most_rounds: int = 3) -> dict:
    """A match of a line game played by the rules from shuffled hands: each seat plays a
    tile it holds where one fits, else draws, else knocks, and the real hands are tallied;
    rounds follow until a seat wins or ``most_rounds`` are played."""
    rng = random.Random(seed)
    names = NAMES[:players]
    rounds: list[list[dict]] = []
    totals, leader = None, None
    while len(rounds) < most_rounds:
        state = line.start(slug, {}, names, leader, totals)
        tiles = list(DominoSet(state.top).tiles)
        rng.shuffle(tiles)
        size = state.hands[0]
        hands = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
        stock = tiles[players * size :]
        actions = []
        while state.result is None:
            if state.is_over:
                action = Tally(hands=tuple((s, tuple(hand)) for s, hand in enumerate(hands)))
            else:
                legal = line.legal_actions(state)
                plays = [a for a in legal if isinstance(a, Play) and a.tile in hands[a.seat]]
                if plays:
                    action = rng.choice(plays)
                    hands[action.seat].remove(action.tile)
                elif Draw(state.turn, 1) in legal:
                    action = Draw(state.turn, 1)
                    hands[state.turn].append(stock.pop(0))
                else:
                    action = Pass(state.turn)
            state = line.apply(state, action)
            actions.append(action.to_dict())
        rounds.append(actions)
        totals, leader = state.totals, line.next_leader(state)
        if state.match_over:
            break
    return {
        "format": "boneyard-match/1",
        "game": slug,
        "players": names,
        "rounds": [{"actions": actions} for actions in rounds],
    }


def havoc_match(seed: int, players: int) -> dict:
    """Two rounds of Double Domino Havoc played at random by the rules (as the table's own
    tests play them), then stopped: the document the table would have recorded."""
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Caro", "Dan", "Eve"][:players]
    rounds: list[list[dict]] = []
    state = havoc.start("havoc", {}, names)
    actions: list[dict] = []
    while True:
        if state.result is not None:
            rounds.append(actions)
            if len(rounds) == 2:
                actions.append(Stop().to_dict())
                break
            state = havoc.start(
                "havoc", {}, names, havoc.next_leader(state), state.totals, state.carry
            )
            actions = []
        action = declared_hands(state, rng) if state.ended is not None else choose(state, rng)
        state = havoc.apply(state, action)
        actions.append(action.to_dict())
    return {
        "format": "boneyard-match/1",
        "game": "havoc",
        "players": names,
        "rounds": [{"actions": actions} for actions in rounds],
    }


def quick_block_rounds() -> dict:
    """Block with one tile each: every lead is a domino, so each round is a lead and a tally."""
    rounds = [
        [{"type": "play", "seat": 0, "tile": "6-6"}, {"type": "tally", "hands": {"1": ["5-4"]}}],
        [{"type": "play", "seat": 1, "tile": "3-3"}, {"type": "tally", "hands": {"0": ["6-5"]}}],
        [{"type": "play", "seat": 0, "tile": "2-1"}, {"type": "tally", "hands": {"1": ["4-4"]}}],
    ]
    return {
        "format": "boneyard-match/1",
        "game": "block",
        "options": {"hand_size": 1, "target": 50},
        "players": ["Ana", "Ben"],
        "rounds": [{"actions": actions} for actions in rounds],
    }


# The scoring games' matches, each played once in a process when a test first asks for it,
# not at import: every worker of every leg imports this module (the browser tests too).
@cache
def all_fives() -> dict:
    return honest_line_match("all-fives", 2, seed=2)


@cache
def dominards() -> dict:
    return whole_game(1, 2)


@cache
def havoc_game() -> dict:
    return havoc_match(seed=3, players=3)


def steps(actions: int) -> list[int]:
    """The steps of a round of ``actions`` to check: every one in make test-deep; in make
    test its first two, its last two and every third between (each step is a replay from
    the round's start, so a round's every step costs its length squared)."""
    if DEEP:
        return list(range(actions + 1))
    return sorted({0, 1, actions - 1, actions, *range(0, actions + 1, 3)} - {-1})


def every_step_matches_the_referee(match: Match) -> int:
    """Each step of each round (:func:`steps`), as the screen replays it, against the
    referee's replay of the match document: the round's start as the referee deals it, then
    play_round over the first k actions. Returns the steps checked."""
    document = services.document_of(match)
    family = preset(match.game).family
    checked = 0
    for number, round_doc in enumerate(document["rounds"], start=1):
        earlier = {**document, "rounds": [*document["rounds"][: number - 1], {"actions": []}]}
        start = replay(earlier).rounds[-1].state
        actions = [parse_action(a, family) for a in round_doc["actions"]]
        for k in steps(len(actions)):
            expected = play_round(start, actions[:k]).state
            context = replay_context(match, number, str(k))
            assert context is not None
            assert (context["step"], context["steps"]) == (k, len(actions))
            assert context["state"] == expected, (number, k)
            totals = [row["total"] for row in context["scoreboard"]]
            assert totals == list(expected.totals), (number, k)
            if family == "line":
                assert context["count"] == expected.layout.count, (number, k)
                holds = [row["holds"].split(" ")[0] for row in context["scoreboard"]]
                assert holds == [str(h) for h in expected.hands]
            checked += 1
    return checked


def page(client, match: Match, number: int, query: str = "") -> str:
    response = client.get(f"/matches/{match.pk}/rounds/{number}/{query}")
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# ---------------------------------------------------------------------------------------------
# Every step of every round equals the referee's replay


@pytest.mark.parametrize(
    "played",
    [
        pytest.param(lambda: DRAW_WITH_AN_UNDO, id="draw-with-an-undo"),
        pytest.param(lambda: honest_line_match("draw", 3, seed=1), id="draw"),
        pytest.param(quick_block_rounds, id="block"),
        pytest.param(all_fives, id="all-fives"),
        pytest.param(
            lambda: honest_line_match("fives-and-threes", 3, seed=3), id="fives-and-threes"
        ),
        pytest.param(lambda: honest_line_match("muggins", 2, seed=4), id="muggins"),
        pytest.param(dominards, id="dominards"),
        pytest.param(lambda: honest_game(1, 2), id="dump-truck"),
        pytest.param(havoc_game, id="havoc"),
    ],
)
@pytest.mark.deep  # every step in make test-deep (steps())
def test_every_step_of_every_round_is_the_referees_replay(db, played):
    document = played()
    match = services.import_match(document)
    assert every_step_matches_the_referee(match) == sum(
        len(steps(len(r["actions"]))) for r in document["rounds"]
    )


@pytest.mark.deep
def test_every_step_of_a_recorded_match_is_the_referees_replay(db):
    # Recorded tap by tap, as the table does, rather than imported.
    match = services.create_match("all-fives", ["Ana", "Ben"], {})
    for round_doc in all_fives()["rounds"]:
        for action in round_doc["actions"]:
            services.record(match.pk, action, match.version, services.new_key())
            match.refresh_from_db()
    assert services.export_match(match) == services.export_match(services.import_match(all_fives()))
    assert every_step_matches_the_referee(match) > 2


def test_the_scoring_games_really_score_in_these_matches(db):
    # Not a test of the screen: it keeps the matches above from replaying only zeros.
    for document in (all_fives(), dominards(), havoc_game()):
        assert any(replay(document).totals) and len(document["rounds"]) > 1


def test_a_later_round_starts_from_the_totals_the_earlier_rounds_made(scorekeeper):
    match = keep(scorekeeper, services.import_match(quick_block_rounds()))
    first = replay_context(match, 1, "2")
    second = replay_context(match, 2, "0")
    third = replay_context(match, 3, None)
    assert [row["total"] for row in first["scoreboard"]] == [9, 0]
    assert [row["total"] for row in second["scoreboard"]] == [9, 0]
    assert [row["total"] for row in third["scoreboard"]] == [9, 11]
    html = page(scorekeeper, match, 2)
    scores = re.findall(r'<strong class="total">(\d+)</strong>', html)
    assert scores == ["9", "0"]
    assert "Step 0 of 2" in html and "The round before any action." in html
    # The last step: the tally, what it scored, and the round's result.
    html = page(scorekeeper, match, 2, "?step=2")
    assert "The hands were tallied · Ben +11" in html
    assert "Round 2: Ben wins" in html
    assert re.findall(r'<strong class="total">(\d+)</strong>', html) == ["9", "11"]


def test_a_round_in_the_middle_of_a_long_match_starts_from_its_own_totals(db):
    match = services.import_match(all_fives())
    referee_rounds = replay(all_fives()).rounds
    for number, played in enumerate(referee_rounds, start=1):
        start = replay_context(match, number, "0")
        end = replay_context(match, number, str(len(played.actions)))
        assert [row["total"] for row in end["scoreboard"]] == list(played.state.totals)
        if number > 1:
            before = referee_rounds[number - 2].state.totals
            assert [row["total"] for row in start["scoreboard"]] == list(before)


# ---------------------------------------------------------------------------------------------
# The screen


def test_the_first_and_the_last_step(scorekeeper):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    html = page(scorekeeper, match, 1, "?step=0")
    assert "Step 0 of 7" in html and "No tile on the table yet." in html
    assert (
        'rel="prev"' not in html
        and '<span class="button off" aria-disabled="true">Previous' in html
    )
    assert 'rel="next" href="?step=1"' in html and 'href="?step=7"' in html
    html = page(scorekeeper, match, 1, "?step=7")
    assert "Step 7 of 7" in html and "Ana played 3-2 on 6-3" in html
    assert 'rel="next"' not in html and 'rel="prev" href="?step=6"' in html
    assert "This round is still being played" in html
    assert 'aria-label="The layout: lead ' in html


@pytest.mark.parametrize("k", [1, 3, 6])
def test_previous_and_next_point_at_the_steps_beside(scorekeeper, k):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    html = page(scorekeeper, match, 1, f"?step={k}")
    assert f'rel="prev" href="?step={k - 1}" hx-get="?step={k - 1}"' in html
    assert f'rel="next" href="?step={k + 1}" hx-get="?step={k + 1}"' in html
    assert f"Step {k} of 7" in html
    assert f'<a href="?step={k}" hx-get="?step={k}" aria-current="step">' in html


def test_each_step_says_what_happened_with_its_points(scorekeeper):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    said = [replay_context(match, 1, str(k))["said"] for k in range(8)]
    assert said == [
        "",
        "Ana led 6-6",
        "Ben played 6-3 on 6-6",
        "Caro drew 2 tiles",
        "Caro played 6-1 on 6-6",
        "Ana played 3-3 on 6-3",
        "Taken back: Ana played 3-3 on 6-3",
        "Ana played 3-2 on 6-3",
    ]
    html = page(scorekeeper, match, 1, "?step=3")
    assert "<li>" not in html.split('id="round-log"')[0].split('id="step"')[1]  # no log there
    assert html.count('aria-current="step"') == 1


def test_an_all_fives_step_shows_the_count_and_what_the_play_scored(scorekeeper):
    document = {
        "format": "boneyard-match/1", "game": "all-fives", "players": ["Ana", "Ben"],
        "rounds": [{"actions": [
            {"type": "play", "seat": 0, "tile": "5-5"},
            {"type": "play", "seat": 1, "tile": "5-0", "on": "5-5"},
        ]}],
    }  # fmt: skip
    match = keep(scorekeeper, services.import_match(document))
    html = page(scorekeeper, match, 1, "?step=1")
    assert "Count <strong>10</strong>" in html and "Ana led 5-5 · Ana +10" in html
    assert re.findall(r'<span class="delta">([^<]*)</span>', html) == ["+10", ""]
    html = page(scorekeeper, match, 1, "?step=2")
    assert "Ben played 5-0 on 5-5 · Ben +10" in html
    assert re.findall(r'<strong class="total">(\d+)</strong>', html) == ["10", "10"]


def test_a_muggins_play_still_open_keeps_its_count_quiet(scorekeeper):
    document = {
        "format": "boneyard-match/1", "game": "muggins", "players": ["Ana", "Ben"],
        "rounds": [{"actions": [
            {"type": "play", "seat": 0, "tile": "5-5"},
            {"type": "play", "seat": 1, "tile": "5-0", "on": "5-5"},
        ]}],
    }  # fmt: skip
    match = keep(scorekeeper, services.import_match(document))
    closed, open_ = replay_context(match, 1, "1"), replay_context(match, 1, "2")
    # 5-5's window closed when 5-0 was placed; 5-0's may still be called.
    assert closed["count"] == 10 and "worth 10" in closed["said"]
    assert open_["count"] is None and "worth" not in open_["said"]
    html = page(scorekeeper, match, 1, "?step=2")
    assert "still there to spot" in html and "Count <strong>" not in html


def test_a_dump_truck_step_draws_every_truck_and_the_pool(scorekeeper):
    match = keep(scorekeeper, services.import_match(honest_game(1, 2)))
    html = page(scorekeeper, match, 1, "?step=2")
    assert html.count('<li class="truck-card') == 2 and html.count('<svg class="truck"') >= 2
    assert "face down" in html and "the game, step by step" in html
    steps = replay_context(match, 1, None)["steps"]
    html = page(scorekeeper, match, 1, f"?step={steps}")
    assert 'aria-label="Game over"' in html and "truck.end" in html


def test_a_havoc_step_shows_the_racks_the_ring_and_what_comes_next(scorekeeper):
    match = keep(scorekeeper, services.import_match(havoc_game()))
    html = page(scorekeeper, match, 2, "?step=0")
    assert html.count('<li class="rack-card') == 3 and 'class="ring"' in html
    assert "Round 2: who begins?" in html or "turn: draw" in html
    steps = replay_context(match, 1, None)["steps"]
    html = page(scorekeeper, match, 1, f"?step={steps}")
    assert "filled the train" in html and "Tray pips" in html
    assert f'href="/matches/{match.pk}/rounds/2/"' in html


@pytest.mark.parametrize(
    ("asked", "shown"),
    [
        ("abc", 0), ("-3", 0), ("99999", 7), ("", 0), ("1e3", 0), ("3.5", 0), (" 4 ", 4),
        ("٣", 0), ("9" * 5000, 7), ("00002", 2), ("+2", 0),
    ],
)  # fmt: skip
def test_a_bad_step_shows_a_step_instead_of_failing(scorekeeper, asked, shown):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    response = scorekeeper.get(f"/matches/{match.pk}/rounds/1/", {"step": asked})
    assert response.status_code == 200
    assert f"Step {shown} of 7" in response.content.decode()


def test_no_step_asked_is_the_start_of_the_round(scorekeeper):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    assert "Step 0 of 7" in page(scorekeeper, match, 1)


@pytest.mark.parametrize("number", [0, 2, 99, 32768, 10**30])
def test_a_round_the_match_does_not_have_is_404(scorekeeper, number):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    assert scorekeeper.get(f"/matches/{match.pk}/rounds/{number}/").status_code == 404


def test_a_match_without_rounds_has_nothing_to_replay(scorekeeper, draw_match):
    assert scorekeeper.get(f"/matches/{draw_match.pk}/rounds/1/").status_code == 404


def test_a_stranger_without_the_link_gets_404_and_a_watcher_may_look(
    scorekeeper, stranger, spectator
):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    url = f"/matches/{match.pk}/rounds/1/?step=2"
    assert stranger.get(url).status_code == 404
    assert stranger.get(f"/matches/{match.pk + 1}/rounds/1/").status_code == 404
    watch(spectator, match)
    assert spectator.get(url).status_code == 200


def test_the_rounds_the_table_and_the_score_sheet_are_linked(scorekeeper):
    match = keep(scorekeeper, services.import_match(quick_block_rounds()))
    html = page(scorekeeper, match, 2, "?step=1")
    for n in (1, 2, 3):
        assert f'href="/matches/{match.pk}/rounds/{n}/"' in html
    assert f'href="/matches/{match.pk}/rounds/2/" aria-current="page"' in html
    assert f'href="/matches/{match.pk}/"' in html and f'href="/matches/{match.pk}/summary/"' in html


def test_an_htmx_step_gets_the_panels_it_swaps(scorekeeper):
    match = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    response = scorekeeper.get(f"/matches/{match.pk}/rounds/1/?step=4", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    for region in ('id="step"', 'id="step-nav"', 'id="step-board"', 'id="round-log"'):
        assert region in html
    assert 'aria-live="polite"' in html


def test_the_queries_do_not_grow_with_the_rounds(scorekeeper):
    short = keep(scorekeeper, services.import_match(DRAW_WITH_AN_UNDO))
    long = keep(scorekeeper, services.import_match(matches.long_match()))

    def queries(match: Match, number: int, step: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            page(scorekeeper, match, number, f"?step={step}")
        return len(captured)

    counts = {queries(short, 1, 3), queries(long, 1, 3), queries(long, 15, 3)}
    counts.add(queries(long, 30, 40))
    assert counts == {queries(short, 1, 7)}, counts
    with CaptureQueriesContext(connection) as captured:
        replay_context(long, 30, "60")
    assert len(captured) == 2


def test_the_match_page_links_the_replay_of_its_last_round(scorekeeper, draw_match):
    html = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert "/rounds/" not in html  # no round has an action yet
    services.record(draw_match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "replay-link-0")
    html = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert f'href="/matches/{draw_match.pk}/rounds/1/">Replay round 1</a>' in html
