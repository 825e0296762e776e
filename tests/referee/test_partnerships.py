"""Partnerships (RULES.md §8): four players, 0+2 against 1+3, with worked numbers for every
``team.*`` rule. Actions are written as in test_line.py and test_scoring_games.py."""

from __future__ import annotations

import pytest

from referee import Tally, export, line, replay
from referee.actions import Adjust, Stop
from referee.errors import InvalidAction
from referee.games.line import BLOCKED, DOMINO, TARGET

from .test_line import NAMES, T, hands, refused
from .test_scoring_games import play, points, step

PAIRS = {"partnerships": True}
TABLE = NAMES[:4]  # Ana & Caro against Ben & Dan


def new(slug: str, actions: str = "", base=None, **options) -> line.RoundState:
    return play(line.start(slug, {**PAIRS, **options}, TABLE, None, base), actions)


def pips(*held: int) -> Tally:
    return Tally(pips=tuple(enumerate(held)))


# -- team.seats ----------------------------------------------------------------------------


def test_partners_sit_opposite_and_are_named_together():
    state = new("draw")
    assert state.teams == ((0, 2), (1, 3))
    assert state.team(3) == (1, 3) and state.opponents(0) == (1, 3)
    assert state.team_name(2) == "Ana & Caro" and state.team_name(1) == "Ben & Dan"
    assert state.hands == (4, 4, 4, 4)  # Draw keeps its hand size


@pytest.mark.parametrize(
    ("options", "dealt", "stock"),
    [
        ({}, 7, 0),  # partnership Block deals the whole double-6 set
        ({"set": 9}, 10, 15),
        ({"hand_size": 5}, 5, 8),  # hand_size still overrides
    ],
)
def test_partnership_block_deals_the_whole_set(options, dealt, stock):
    state = new("block", **options)
    assert state.hands == (dealt,) * 4 and state.stock == stock


@pytest.mark.parametrize(
    ("slug", "players", "options", "words"),
    [
        ("draw", 3, PAIRS, "Playing in pairs takes four players, two teams of two"),
        ("all-fives", 2, PAIRS, "this table has 2"),
        ("block", 4, {"count_all_hands": True}, "so it needs partnerships"),
        ("dominards", 4, PAIRS, "Dominards has no house rule 'partnerships'"),
        ("all-fives", 4, {**PAIRS, "count_all_hands": True}, "All Fives has no house rule"),
    ],
)
def test_partnerships_are_for_four_players_in_the_line_games(slug, players, options, words):
    with pytest.raises(InvalidAction) as caught:
        line.start(slug, options, NAMES[:players])
    assert words in caught.value.message


# -- team.block ----------------------------------------------------------------------------

# Hands of two: Ana leads 6-6, Ben, Caro and Dan cover it, Ana plays out with 4-1.
ANA_DOMINOES = "0 6-6; 1 6-5 on 6-6; 2 6-4 on 6-6; 3 5-5 on 6-5; 0 4-1 on 6-4"
# Ana leads 6-6 and everyone knocks: blocked with hands of 1, 2, 2 and 2.
ALL_KNOCK = "0 6-6; 1 pass; 2 pass; 3 pass; 0 pass"


@pytest.mark.parametrize(
    ("count_all_hands", "scored"),
    [(False, 8 + 9), (True, 8 + 9 + 5)],  # Ben's 8 and Dan's 9; with count_all_hands Caro's 5
)
def test_a_partnership_block_round_won_by_domino(count_all_hands, scored):
    state = new("block", ANA_DOMINOES, hand_size=2, count_all_hands=count_all_hands)
    assert state.ended == DOMINO and state.hands == (0, 1, 1, 1)
    tallied = line.apply(state, pips(0, 8, 5, 9))
    assert tallied.result.winner == 0 and points(tallied) == (scored, 0, 0, 0)
    assert tallied.team_total(2) == scored and tallied.team_total(1) == 0


@pytest.mark.parametrize(
    ("options", "scored"),
    [
        ({}, 3 + 10),  # the opponents' pips: Ana's 3 and Caro's 10
        ({"blocked_minus_own": True}, 13 - 12),  # minus Ben's 4 and Dan's 8
        ({"count_all_hands": True}, 3 + 10 + 8),  # all three other hands, Dan's included
        ({"count_all_hands": True, "blocked_minus_own": True}, 21 - 4),  # minus Ben's own
    ],
)
def test_a_blocked_partnership_block_round_goes_to_the_lower_combined_pips(options, scored):
    state = new("block", ALL_KNOCK, hand_size=2, **options)
    assert state.ended == BLOCKED and state.hands == (1, 2, 2, 2)
    # Ana holds the fewest pips (3), but Ben & Dan hold fewer together: 12 against 13.
    tallied = line.apply(state, pips(3, 4, 10, 8))
    assert tallied.result.winner == 1  # credited to Ben, who holds fewer than Dan
    assert points(tallied) == (0, scored, 0, 0)


def test_a_blocked_round_tied_between_the_teams_scores_nothing():
    state = new("block", ALL_KNOCK, hand_size=2)
    tallied = line.apply(state, pips(5, 4, 5, 6))  # 10 against 10
    assert tallied.result.winner is None and points(tallied) == (0, 0, 0, 0)


# -- team.score ----------------------------------------------------------------------------


def test_the_target_is_reached_by_the_team_total():
    state = new("block", ANA_DOMINOES, base=(60, 40, 30, 50), hand_size=2)
    tallied = line.apply(state, pips(0, 8, 5, 9))  # Ana 60 + 17 = 77 alone, 107 with Caro
    assert tallied.totals == (77, 40, 30, 50) and tallied.champion == 0
    error = refused(tallied, "1 6-3 on 6-6")
    assert error.rule == "block.score"
    assert "The match is over: Ana & Caro reached 107" in error.message


def test_the_match_winner_is_named_by_the_teams_first_seat():
    # Dan's team (Ben & Dan) reaches the target on Dan's domino: the winner is seat 1.
    state = new("draw", "3 6-6", base=(0, 50, 0, 45), hand_size=1)
    tallied = line.apply(state, pips(4, 9, 3, 0))  # Ana's 4 and Caro's 3, not Ben's 9
    assert tallied.result.winner == 3 and tallied.champion == 1
    assert tallied.totals == (0, 50, 0, 52) and tallied.team_total(1) == 102


def test_a_partner_scores_for_the_team_in_all_fives_to_61():
    state = new("all-fives", "0 6-4", base=(20, 0, 31, 0))  # 10 for Ana: 30 + 31 = 61
    assert state.champion == 0 and state.ended == TARGET
    assert state.totals == (30, 0, 31, 0)


def test_an_adjustment_counts_for_the_team():
    state = line.apply(new("draw", "0 6-6"), Adjust(2, 15, "a penalty the table agreed"))
    assert state.totals == (0, 0, 15, 0) and state.team_total(0) == 15


def test_a_stopped_match_goes_to_the_team_with_the_higher_total():
    state = new("draw", "0 6-6", base=(30, 50, 30, 0))  # Ben leads alone, Ana & Caro together
    stopped = line.apply(state, Stop())
    assert stopped.champion == 0 and stopped.shared == ()
    tied = line.apply(new("draw", "0 6-6", base=(30, 50, 20, 0)), Stop())
    assert tied.champion is None and tied.shared == (0, 1, 2, 3)


# -- team.fives ----------------------------------------------------------------------------


def test_an_all_fives_partnership_domino_ignores_the_partners_hand():
    state = new("all-fives", "0 6-4", hand_size=1)  # Ana leads her only tile: 10
    tallied = line.apply(state, pips(0, 12, 9, 6))
    # Ben & Dan hold 18 together; Caro's 9 is not counted: 18 → 20. (Alone, each loser's
    # pips rounded: 10 + 10 + 5 = 25.)
    assert points(tallied) == (20, 0, 0, 0) and tallied.result.points == (30, 0, 0, 0)
    assert tallied.result.bonus == "Ben & Dan 18 → 20: 20"


def test_a_blocked_all_fives_partnership_round_subtracts_the_winners_combined_pips():
    # Ben draws the boneyard down to the 2 held back; then everyone knocks.
    state = new("all-fives", "0 6-4; 1 draw 18; 1 pass; 2 pass; 3 pass; 0 pass", hand_size=2)
    assert state.ended == BLOCKED and state.hands == (1, 20, 2, 2)
    tallied = line.apply(state, pips(3, 100, 7, 6))  # 10 against 106
    assert tallied.result.winner == 0 and points(tallied) == (95, 0, 0, 0)  # 96 → 95


def test_the_fives_and_threes_chip_out_point_goes_to_the_team():
    state = new("fives-and-threes", "0 6-5", base=(30, 0, 30, 0), hand_size=1)  # 11: nothing
    assert points(state) == (1, 0, 0, 0) and state.team_total(2) == 61  # pub: not tallied
    assert state.champion == 0


def test_fives_and_threes_pairs_reach_exactly_61():
    state = new("fives-and-threes", "0 6-3", base=(10, 0, 48, 0))  # 9 scores 3: 58 + 3
    assert state.champion == 0 and state.ended == TARGET and state.team_total(2) == 61
    # Caro alone holds 48, but her team holds 60: Ana's 10 (scoring 2) would pass 61.
    passed = new("fives-and-threes", "0 6-4", base=(12, 0, 48, 0))
    assert points(passed) == (0, 0, 0, 0) and passed.last_passed == 2
    assert line.gains(new("fives-and-threes", base=(12, 0, 48, 0)), T("6-4"), None) == 0
    alone = line.start("fives-and-threes", {}, TABLE, None, (12, 0, 48, 0))
    assert points(play(alone, "0 6-4")) == (2, 0, 0, 0)  # without partners it scores


# -- team.muggins --------------------------------------------------------------------------


def test_only_an_opponent_calls_muggins():
    state = new("muggins", "0 6-4")  # 10, undeclared
    assert state.callers == (1, 3)
    error = refused(state, step("2 muggins"))
    assert error.rule == "team.muggins"
    assert error.message == (
        "Caro is Ana's partner: only an opponent (Ben or Dan) may call Muggins on Ana's 6-4."
    )
    taken = play(state, "3 muggins")
    assert points(taken) == (0, 0, 0, 10) and taken.team_total(1) == 10


def test_a_partner_cannot_declare_for_the_player_either():
    error = refused(new("muggins", "0 6-4"), step("2 declare 10"))
    assert error.rule == "fives.muggins"
    assert "as Ana's partner, Caro may not call Muggins on it either" in error.message


def test_only_an_opponent_challenges_a_false_claim():
    state = new("muggins", "0 6-3; 0 declare 10", false_claim_penalty=True)  # 9 makes nothing
    assert state.challengers == (1, 3)
    error = refused(state, step("2 challenge"))
    assert error.rule == "team.muggins" and "only an opponent (Ben or Dan)" in error.message
    challenged = play(state, "1 challenge")
    assert points(challenged) == (-10, 10, 0, 0)


# -- team.tally ----------------------------------------------------------------------------


def test_each_seat_declares_its_own_hand():
    state = new("block", ANA_DOMINOES, hand_size=2)
    error = refused(state, hands(s1=["3-3"], s2=["2-1", "1-1"], s3=["4-4"]))
    assert error.rule == "hand.count" and "Caro should hold 1 tile, not 2" in error.message
    error = refused(state, pips(0, 8, 5))
    assert error.rule == "tally.hands" and "Say what Dan still holds" in error.message


def test_the_audit_reports_the_seat_that_knocked():
    state = new("block", ALL_KNOCK, hand_size=2)
    tallied = line.apply(
        state, hands(s0=["0-0"], s1=["1-1", "2-0"], s2=["6-5", "1-0"], s3=["3-3", "2-2"])
    )
    assert [(f.rule, f.seat) for f in tallied.result.findings] == [("tally.audit", 2)]


# -- the export (MATCH_FORMAT.md: partnerships) --------------------------------------------


def test_the_export_names_the_teams_their_totals_and_both_winners():
    # Each round: Ana leads 6-6 and everyone knocks; Ben & Dan hold 12 to Ana & Caro's 30.
    blocked = [
        {"type": "play", "seat": 0, "tile": "6-6"},
        {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2},
        {"type": "pass", "seat": 3}, {"type": "pass", "seat": 0},
        {"type": "tally", "pips": {"0": 9, "1": 4, "2": 21, "3": 8}},
    ]  # fmt: skip
    document = {
        "format": "boneyard-match/1",
        "game": "block",
        "options": {**PAIRS, "hand_size": 2, "target": 50},
        "players": list(TABLE),
        "rounds": [{"actions": blocked}],
        # Computed fields in an imported document are ignored and recomputed.
        "teams": [[0, 1], [2, 3]], "team_totals": {"0": 999}, "winners": [2, 3],
    }  # fmt: skip
    exported = export(replay(document))
    assert exported["totals"] == {"0": 0, "1": 30, "2": 0, "3": 0}
    assert exported["teams"] == [[0, 2], [1, 3]]
    assert exported["team_totals"] == {"0": 0, "1": 30}
    assert exported["winner"] is None and exported["winners"] is None  # 30 < 50: plays on
    won = export(replay({**document, "rounds": [{"actions": blocked}] * 2}))
    assert won["totals"] == {"0": 0, "1": 60, "2": 0, "3": 0}
    assert won["team_totals"] == {"0": 0, "1": 60}
    assert won["winner"] == 1 and won["winners"] == [1, 3]
    assert export(replay(won)) == won
    alone = export(replay({**document, "options": {"hand_size": 2, "target": 50}}))
    assert not {"teams", "team_totals", "winners"} & set(alone)
