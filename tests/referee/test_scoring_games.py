"""The scoring line games (RULES.md §2.5, §2.6): All Fives, Muggins, Fives and Threes, Cross,
Cross with spinners and Doubles. Actions are written as in test_line.py; ``"1 declare 10"``,
``"2 muggins"`` and ``"2 challenge"`` add the muggins calls."""

from __future__ import annotations

import pytest

from referee import PRESETS, Challenge, Declare, Muggins, Tally, line, replay
from referee.games.line import BLOCKED, DOMINO, TARGET
from referee.games.line.scoring import fives

from .test_line import NAMES, T, act, hands, refused


def step(text: str):
    words = text.split()
    if len(words) > 1 and words[1] == "declare":
        return Declare(int(words[0]), int(words[2]))
    if len(words) > 1 and words[1] == "muggins":
        return Muggins(int(words[0]))
    if len(words) > 1 and words[1] == "challenge":
        return Challenge(int(words[0]))
    return act(text)


def play(state: line.RoundState, actions: str) -> line.RoundState:
    for text in filter(None, (a.strip() for a in actions.split(";"))):
        state = line.apply(state, step(text))
    return state


def new(slug: str, players: int = 2, actions: str = "", base=None, leader=None, **options):
    return play(line.start(slug, options, NAMES[:players], leader, base), actions)


def points(state: line.RoundState) -> tuple[int, ...]:
    return state.last_points


# -- fives.score: RULES.md's worked example, and the lead scores too --


def test_the_all_fives_worked_example():
    state = new("all-fives", 3, "0 5-5")
    assert state.layout.count == 10 and points(state) == (10, 0, 0)  # a lead 5-5 scores 10
    state = play(state, "1 5-0 on 5-5")
    assert state.layout.count == 10 and points(state) == (0, 10, 0)
    state = play(state, "2 5-4 on 5-5")
    assert state.layout.count == 4 and points(state) == (0, 0, 0)
    assert state.scores == (10, 10, 0) and state.totals == (10, 10, 0)


@pytest.mark.parametrize(
    ("actions", "count", "scored"),
    [
        ("0 6-4", 10, 10),  # a lead 6-4 counts both halves
        ("0 6-3", 9, 0),
        ("0 6-4; 1 4-1 on 6-4", 7, 0),
        ("0 6-4; 1 4-4 on 6-4", 14, 0),
        ("0 6-6; 1 6-3 on 6-6", 15, 15),  # the spinner shows both halves while one side is free
        ("0 6-6; 1 6-3 on 6-6; 0 6-2 on 6-6", 5, 5),  # both sides covered: 3 + 2
        ("0 6-6; 1 6-3 on 6-6; 0 6-2 on 6-6; 1 6-5 on 6-6", 10, 10),  # now the ends: + 5
    ],
)
def test_a_play_scores_the_count_when_it_is_a_multiple_of_five(actions, count, scored):
    state = new("all-fives", 2, actions)
    assert state.layout.count == count
    assert points(state)[state.last.seat] == scored


# -- fives.end-bonus --


@pytest.mark.parametrize(
    ("pips", "combined", "bonus"),
    [
        ((3, 10, 11), False, 15),  # RULES.md: 10-3 = 7 → 5, 11-3 = 8 → 10
        ((3, 10, 11), True, 15),  # 15 → 15
        ((3, 11, 11), False, 20),  # 8 → 10 twice
        ((3, 11, 11), True, 15),  # 16 → 15: rounding the sum differs
        ((4, 6, 60), False, 55),  # 2 → 0 (1-2 down), 56 → 55
        ((0, 13, 14), False, 30),  # 13 → 15 and 14 → 15 (3-4 up)
    ],
)
def test_the_end_bonus_rounds_to_the_nearest_five(pips, combined, bonus):
    state = line.start("all-fives", {"round_combined": combined}, NAMES[:3])
    assert fives.end_bonus(state, pips, 0) == bonus


def test_a_blocked_all_fives_round_pays_the_bonus_to_the_lowest_hand():
    # Ana leads 6-4 and keeps 1 tile; Ben draws the boneyard down to the 2 held back.
    state = new("all-fives", 3, "0 6-4; 1 draw 20; 1 pass; 2 pass; 0 pass", hand_size=2)
    assert state.ended == BLOCKED and state.hands == (1, 22, 2)
    tallied = line.apply(state, Tally(pips=((0, 3), (1, 140), (2, 11))))
    assert tallied.result.winner == 0
    assert points(tallied) == (135 + 10, 0, 0)  # 137 → 135, 8 → 10
    assert tallied.result.bonus == "Ben 137 → 135, Caro 8 → 10: 145"
    assert tallied.result.points == (10 + 145, 0, 0)  # the round's points: the lead's 10 too


def test_a_domino_counts_the_winner_as_zero():
    state = new("all-fives", 2, "0 6-4", hand_size=1)  # Ana leads her only tile
    assert state.ended == DOMINO
    tallied = line.apply(state, Tally(pips=((1, 12),)))
    assert points(tallied) == (10, 0)  # 12 → 10


def test_a_tie_for_lowest_gets_no_bonus():
    state = new("all-fives", 3, "0 6-4; 1 draw 20; 1 pass; 2 pass; 0 pass", hand_size=2)
    tallied = line.apply(state, Tally(pips=((0, 9), (1, 140), (2, 9))))
    assert tallied.result.winner is None and points(tallied) == (0, 0, 0)


# -- fives.target and end_at_target --


def test_the_match_ends_the_moment_a_seat_reaches_61():
    state = new("all-fives", 2, "0 6-4", base=(55, 20))
    assert state.champion == 0 and state.totals == (65, 20)
    assert state.ended == TARGET and state.result.reason == TARGET
    assert state.result.points == (10, 0)
    error = refused(state, "1 4-1 on 6-4")
    assert error.rule == "fives.target" and "The match is over: Ana reached 65" in error.message
    error = refused(state, Tally(pips=((0, 0), (1, 0))))
    assert error.rule == "fives.target" and "so the table cannot tally the hands" in error.message
    # procedure.misplay: the winning play can still be taken back
    assert line.apply(state, act("undo")).champion is None


def test_without_end_at_target_the_round_is_played_out():
    state = new("all-fives", 2, "0 6-4", base=(55, 20), end_at_target=False, hand_size=1)
    assert state.champion is None and state.ended == DOMINO
    tallied = line.apply(state, hands(s0=[], s1=["0-0"]))
    assert tallied.champion == 0 and tallied.totals == (65, 20)


# -- threes.score: the table of counts, in every mode --

PUB = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7, 24: 8, 25: 5, 30: 16}
LEADS = {3: "3-0", 5: "5-0", 6: "6-0", 9: "6-3", 10: "6-4", 12: "6-6", 4: "4-0", 7: "6-1"}


@pytest.mark.parametrize(("count", "scored"), sorted(PUB.items()))
def test_the_fives_and_threes_pub_table(count, scored):
    state = line.start("fives-and-threes", {}, NAMES[:2])
    assert line.worth(state, count) == scored


@pytest.mark.parametrize(
    ("mode", "count", "scored"),
    [("face", 15, 15), ("face-each", 15, 30), ("face", 9, 9), ("face-each", 9, 9),
     ("face", 10, 10), ("face-each", 10, 10), ("face", 7, 0), ("face-each", 7, 0),
     ("pub", 7, 0), ("pub", 4, 0)],
)  # fmt: skip
def test_the_fives_and_threes_modes(mode, count, scored):
    state = line.start("fives-and-threes", {"threes_scoring": mode}, NAMES[:2])
    assert line.worth(state, count) == scored


@pytest.mark.parametrize(("count", "lead"), sorted(LEADS.items()))
def test_a_fives_and_threes_lead_scores_through_the_table(count, lead):
    state = new("fives-and-threes", 2, f"0 {lead}")
    assert state.layout.count == count
    assert points(state) == (PUB.get(count, 0), 0)


def test_chip_out_scores_one_and_a_block_scores_nothing():
    # Pub rules count nothing at a round's end, so the table is not asked for its hands
    # (issue 28): the tile that chips out scores its point, and the round closes with it.
    domino = new("fives-and-threes", 2, "0 6-4", hand_size=1)
    assert points(domino) == (2 + 1, 0)  # the count of 10, and threes.chip-out
    assert domino.result.reason == DOMINO and domino.result.winner == 0
    assert refused(domino, Tally(pips=((1, 12),))).rule == "threes.chip-out"
    blocked = new("fives-and-threes", 2, "0 6-1; 1 pass; 0 pass", hand_size=2)
    assert blocked.result.reason == BLOCKED and points(blocked) == (0, 0)
    assert blocked.result.points == (0, 0)
    assert refused(blocked, Tally(pips=((0, 3), (1, 20)))).rule == "threes.chip-out"


def test_face_modes_use_the_fives_end_bonus():
    state = new("fives-and-threes", 2, "0 6-1; 1 pass; 0 pass", hand_size=2, threes_scoring="face")
    tallied = line.apply(state, Tally(pips=((0, 3), (1, 20))))
    assert points(tallied) == (15, 0)  # 17 → 15


# -- threes.target: exactly 61, and the lead rotates --


def test_a_score_that_would_pass_61_is_not_scored():
    state = new("fives-and-threes", 2, "0 6-4", base=(60, 0))  # 10 scores 2: 62 > 61
    assert points(state) == (0, 0) and state.champion is None and state.last_passed == 2
    assert line.apply(state, step("1 pass")).last_passed == 0
    assert line.gains(new("fives-and-threes", 2, base=(60, 0)), T("6-4"), None) == 0


def test_exactly_61_wins_at_once():
    state = new("fives-and-threes", 2, "0 6-3", base=(58, 0))  # 9 scores 3
    assert state.champion == 0 and state.totals == (61, 0) and state.ended == TARGET


def test_without_exact_target_passing_61_wins():
    state = new("fives-and-threes", 2, "0 6-4", base=(60, 0), exact_target=False)
    assert state.champion == 0 and state.totals == (62, 0)


# Issue 17: threes.target makes exact_target the default in pub mode only.
@pytest.mark.parametrize(
    ("given", "exact"),
    [
        ({}, True),
        ({"threes_scoring": "pub"}, True),
        ({"threes_scoring": "face"}, False),
        ({"threes_scoring": "face-each"}, False),
        ({"threes_scoring": "pub", "exact_target": False}, False),
        ({"threes_scoring": "face", "exact_target": True}, True),
        ({"threes_scoring": "face-each", "exact_target": True}, True),
    ],
    ids=str,
)
def test_exact_target_is_on_by_default_in_pub_mode_only(given, exact):
    assert line.options_for("fives-and-threes", given, 2)["exact_target"] is exact
    doc = {"format": "boneyard-match/1", "game": "fives-and-threes", "options": given,
           "players": ["Ana", "Ben"], "rounds": []}  # fmt: skip
    assert replay(doc).options["exact_target"] is exact
    # ... and it is what is played: a count of 10 from 60 passes 61 in every mode.
    state = new("fives-and-threes", 2, "0 6-4", base=(60, 0), **given)
    assert (state.champion == 0) is not exact


def test_a_default_follows_only_a_house_rule_declared_before_it():
    """resolve_options fills defaults in declaration order, so the house rule a default
    follows must be declared first, and name one of its choices."""
    followed = 0
    for game in PRESETS.values():
        names = [option.name for option in game.options]
        for index, option in enumerate(game.options):
            for name, value, default in option.defaults_when:
                assert name in names[:index], (game.slug, option.name, name)
                assert value in game.option(name).choices, (game.slug, option.name, value)
                assert option.check(default) == default
                followed += 1
    assert followed >= 2  # exact_target in face and face-each


def test_the_chip_out_point_obeys_the_exact_target():
    # 10 scores 2: past 61, not scored; the chip-out point then makes exactly 61.
    state = new("fives-and-threes", 2, "0 6-4", base=(60, 0), hand_size=1)
    assert points(state) == (1, 0) and state.last_passed == 2
    assert state.champion == 0 and state.totals == (61, 0)
    short = new("fives-and-threes", 2, "0 6-3", base=(59, 0), hand_size=1)  # 9 scores 3: past
    assert points(short) == (1, 0) and short.totals == (60, 0) and short.champion is None


def test_later_rounds_are_led_by_the_seat_left_of_the_last_leader():
    state = new("fives-and-threes", 3, leader=2)
    assert state.turn == 2
    error = refused(state, "0 6-4")
    assert error.rule == "round.lead" and "Caro leads this round" in error.message
    led = play(state, "2 6-4")
    assert led.turn == 0 and line.next_leader(led) == 0
    # Other games let the table choose.
    assert line.next_leader(new("all-fives", 3, "1 6-4")) is None


def test_a_replayed_fives_and_threes_match_rotates_the_lead():
    rounds = [
        {"actions": [{"type": "play", "seat": 1, "tile": "6-4"}]},
        {"actions": [{"type": "play", "seat": 1, "tile": "6-4"}]},
    ]  # fmt: skip
    document = {
        "format": "boneyard-match/1", "game": "fives-and-threes", "options": {"hand_size": 1},
        "players": ["Ana", "Ben"], "rounds": rounds,
    }  # fmt: skip
    with pytest.raises(Exception) as error:
        replay(document)
    assert "round 2, action 1: round.lead: Ana leads this round" in str(error.value)
    rounds[1]["actions"][0]["seat"] = 0
    match = replay(document)
    assert match.totals == (2 + 1, 2 + 1)  # each leads 6-4 (2) and chips out with it (1)


# -- fives.muggins --


def muggins(actions: str = "", players: int = 3, **options) -> line.RoundState:
    return new("muggins", players, actions, **options)


def test_in_muggins_mode_a_play_scores_only_what_is_declared():
    state = muggins("0 5-5")
    assert points(state) == (0, 0, 0) and state.pending.worth == 10
    assert state.declaring == 0 and state.muggins_open
    state = play(state, "0 declare 10")
    assert points(state) == (10, 0, 0) and state.muggins_open


def test_an_undeclared_score_can_be_taken_before_the_player_declares():
    # RULES.md fives.muggins: "An undeclared ... score can be taken by any opponent who
    # calls Muggins! before the next tile is placed."
    state = muggins("0 5-5; 1 muggins")
    assert points(state) == (0, 10, 0) and state.declaring is None
    assert "Too late" in refused(state, step("0 declare 10")).message


def test_a_call_before_the_declaration_stands_even_on_a_play_worth_nothing():
    # Refused, the call would tell the caller the play made nothing while Ana may still
    # declare (a probe), and "Ana declared all that 6-3 made" would be false: it stands,
    # takes what the play made (nothing) and closes the window, as any call does.
    state = muggins("0 6-3; 1 muggins")
    assert points(state) == (0, 0, 0) and state.declaring is None and not state.muggins_open
    assert "Too late" in refused(state, step("0 declare 0")).message
    # Once declared, the same call finds nothing missing and is refused, truly.
    error = refused(muggins("0 6-3; 0 declare 0"), step("1 muggins"))
    assert "Nothing to take: Ana declared all that 6-3 made" in error.message


def test_an_under_declared_score_is_taken_by_the_first_caller():
    state = muggins("0 5-5; 0 declare 5; 2 muggins")
    assert points(state) == (0, 0, 5) and state.totals == (5, 0, 5)
    error = refused(state, step("1 muggins"))
    assert error.rule == "fives.muggins" and "Caro already called Muggins" in error.message


def test_an_undeclared_score_lapses_when_the_table_moves_on():
    state = muggins("0 5-5; 1 draw")
    assert state.declaring is None and state.muggins_open
    error = refused(state, step("0 declare 10"))
    assert "Too late" in error.message
    assert points(play(state, "2 muggins")) == (0, 0, 10)


@pytest.mark.parametrize(
    ("actions", "action", "words"),
    [
        ("0 5-5; 0 declare 10", "0 muggins", ["Ana cannot call Muggins on Ana's own 5-5"]),
        ("0 5-5; 0 declare 10", "1 muggins", ["Nothing to take"]),
        ("0 5-5", "0 declare 15", ["made the count 10", "cannot claim 15", "Declare 10"]),
        ("0 6-3", "0 declare 5", ["made the count 9", "scores nothing", "Declare no score"]),
        ("0 5-5", "0 declare 7", ["multiples of 5"]),
        ("0 5-5", "1 declare 10", ["Only Ana declares"]),
        ("0 5-5; 0 declare 10", "0 declare 10", ["has declared 10 for 5-5 already"]),
        # Ben's tile closed the window on Ana's 5-5: a call now is about Ben's 5-0 (the count
        # is 10 + 0, and Ben declared all of it)
        ("0 5-5; 0 declare 5; 1 5-0 on 5-5; 1 declare 10", "2 muggins", ["Nothing to take"]),
        ("", "1 muggins", ["There is no open play"]),
        ("0 5-5; 0 declare 10", "1 challenge", ["Challenges are off"]),
        ("0 5-5", "5 muggins", ["no seat 5"]),
    ],
)
def test_muggins_refusals(actions, action, words):
    error = refused(muggins(actions), step(action))
    assert error.rule in ("fives.muggins", "fives.score", "seat.order")
    for word in words:
        assert word in error.message


def test_a_false_claim_stands_until_challenged():
    state = muggins("0 5-5; 0 declare 20", false_claim_penalty=True)
    assert points(state) == (20, 0, 0)
    challenged = play(state, "1 challenge")
    assert points(challenged) == (-10, 10, 0) and challenged.totals == (10, 10, 0)
    assert "already challenged" in refused(challenged, step("2 challenge")).message
    # unchallenged, it stands once the next tile is down
    assert play(state, "1 5-0 on 5-5").totals == (20, 0, 0)


def test_a_true_claim_cannot_be_challenged():
    state = muggins("0 5-5; 0 declare 10", false_claim_penalty=True)
    assert "was true" in refused(state, step("1 challenge")).message


def test_a_false_claim_never_wins_the_match():
    state = muggins("0 5-5", false_claim_penalty=True, players=2, base=(51, 0))
    error = refused(state, step("0 declare 15"))
    assert "cannot claim 15" in error.message
    assert play(state, "0 declare 10").champion == 0


def test_muggins_is_off_in_casual_all_fives():
    state = new("all-fives", 2, "0 5-5")
    assert points(state) == (10, 0) and state.pending is None
    assert "Muggins is off" in refused(state, step("1 muggins")).message


def test_the_last_play_can_still_be_declared_before_the_tally():
    state = muggins("0 5-0; 0 declare 5; 1 0-0 on 5-0; 1 declare 0; 0 5-5 on 5-0", 2,
                    hand_size=2)  # fmt: skip
    assert state.ended == DOMINO and state.declaring == 0
    state = play(state, "0 declare 10")
    assert line.apply(state, Tally(pips=((1, 7),))).scores == (5 + 10 + 5, 0)


@pytest.mark.parametrize(
    ("before", "late"),
    [
        ("0 5-5", "1 muggins"),  # the opponent's call on the earlier play
        ("0 5-5", "0 declare 10"),  # the player's late declaration
        ("0 5-5; 0 declare 20", "1 challenge"),  # a challenge of the earlier claim
    ],
)
def test_a_tile_taken_back_reopens_nothing_it_had_closed(before, late):
    # RULES.md procedure.misplay: "Taking back a placed tile reopens nothing it had closed:
    # the declaration, Muggins and challenge windows of the play before it stay shut."
    state = muggins(f"{before}; 1 5-0 on 5-5; undo", false_claim_penalty=True)
    assert state.layout.count == 10 and state.hands[1] == 5  # Ben's tile is back in hand
    assert state.declaring is None and not state.muggins_open and state.challengers == ()
    assert refused(state, step(late)).rule == "fives.muggins"
    # Ben plays again, legally, and the round goes on.
    assert play(state, "1 5-0 on 5-5").layout.count == 10


def test_undo_of_a_declaration_still_reopens_the_declaration():
    state = muggins("0 5-5; 0 declare 10; undo")
    assert state.declaring == 0 and state.totals == (0, 0, 0)


def test_undo_takes_back_a_muggins_call():
    state = muggins("0 5-5; 0 declare 5; 2 muggins; undo")
    assert state.totals == (5, 0, 0) and state.muggins_open


# -- line.cross: Cross and Cross with spinners --


def test_the_cross_lead_must_be_a_double():
    assert refused(new("cross", 2), "0 6-4").rule == "line.cross"


def test_the_cross_is_completed_before_any_arm_grows():
    state = new("cross", 2, "0 6-6; 1 6-5 on 6-6")
    assert state.layout.missing_cross_faces() == ("side", "end", "end")
    error = refused(state, "0 5-4 on 6-5")
    assert error.rule == "line.cross" and "1 side and 2 ends still open" in error.message
    state = play(state, "0 6-4 on 6-6; 1 6-3 on 6-6 end; 0 6-2 on 6-6 end")
    assert state.layout.missing_cross_faces() == ()
    state = play(state, "1 5-4 on 6-5; 0 4-4 on 6-4")
    # After the cross, doubles do not spin in Cross.
    assert refused(state, "1 4-1 on 4-4 end").rule == "line.spinner"


def test_cross_with_spinners_opens_two_arms_at_every_later_double():
    state = new("cross-spinners", 2, "0 6-6; 1 6-5 on 6-6; 0 6-4 on 6-6; 1 6-3 on 6-6; "
                "0 6-2 on 6-6; 1 4-4 on 6-4")  # fmt: skip
    # sides_first is off: the new double's ends are open at once
    state = play(state, "0 4-1 on 4-4 end; 1 4-0 on 4-4 end; 0 4-3 on 4-4")
    assert state.layout.placed_of(T("4-4")).free == ()


# -- line.unlock: Doubles --


def test_doubles_leads_a_double_and_locks_numbers():
    assert refused(new("doubles", 2), "0 6-3").rule == "line.lead"
    state = new("doubles", 2, "0 3-3; 1 3-1 on 3-3")
    error = refused(state, "0 1-0 on 3-1")
    assert error.rule == "line.unlock"
    assert "Ones are locked until 1-1 is on the table" in error.message
    state = play(state, "0 1-1 on 3-1; 1 1-0 on 1-1")
    assert state.layout.unlocked(1) and not state.layout.unlocked(0)


def test_the_rulebook_message_for_threes():
    state = new("doubles", 2, "0 6-6; 1 6-3 on 6-6")
    error = refused(state, "0 3-2 on 6-3")
    assert "Threes are locked until 3-3 is on the table" in error.message
    assert "only 3-3 can go on 6-3 now" in error.message


def test_doubles_draws_one_tile_and_keeps_two_back():
    state = new("doubles", 2, "0 6-6; 1 draw")
    assert refused(state, "1 draw").rule == "draw.until"
    assert play(state, "1 pass").turn == 0
    # 28 - 16 dealt = 12 in the boneyard; 2 are never drawn
    state = new("doubles", 2, "0 6-6")
    assert state.drawable == 10


def test_doubles_hand_sizes():
    assert [line.start("doubles", {}, NAMES[:n]).hands[0] for n in (2, 3, 4)] == [8, 6, 6]
    assert line.start("cross-spinners", {}, NAMES[:3]).hands[0] == 7
    assert line.start("fives-and-threes", {}, NAMES[:2]).hands[0] == 7
    assert line.start("all-fives", {}, NAMES[:4]).hands[0] == 5


def test_a_fixed_setting_cannot_be_changed():
    with pytest.raises(Exception) as error:
        line.start("cross", {"opening": "any"}, NAMES[:2])
    assert "Cross always plays with opening 'cross'" in str(error.value)
    assert line.start("cross", {"opening": "cross"}, NAMES[:2]).options["opening"] == "cross"


# -- the table's hint --


def test_gains_says_what_a_play_would_score():
    state = new("all-fives", 2, "0 5-5")
    assert line.gains(state, T("5-0"), T("5-5")) == 10
    assert line.gains(state, T("5-1"), T("5-5")) == 0  # 10 + 1
    assert line.gains(state, T("4-1"), T("5-5")) == 0  # does not fit
    assert line.gains(new("draw", 2, "0 5-5"), T("5-0"), T("5-5")) == 0


def test_who_may_declare_call_and_challenge_comes_from_public_facts():
    state = muggins("0 5-5", false_claim_penalty=True)
    # A lone lead shows at most a double's worth (12): 0, 5 and 10 are offered, whatever it made.
    assert state.declarations() == (0, 5, 10) and state.callers == (1, 2)
    assert state.challengers == ()  # nothing declared yet
    declared = play(state, "0 declare 15")  # a false claim, which stands until challenged
    assert declared.declarations() == () and declared.challengers == (1, 2)
    assert play(declared, "1 challenge").challengers == ()
    assert play(state, "1 muggins").callers == ()
    assert new("all-fives", 2, "0 5-5").callers == ()  # muggins off


def test_the_combined_end_bonus_is_explained_as_counted():
    state = new("all-fives", 3, "0 6-4; 1 draw 20; 1 pass; 2 pass; 0 pass", hand_size=2,
                round_combined=True)  # fmt: skip
    tallied = line.apply(state, Tally(pips=((0, 3), (1, 140), (2, 11))))
    assert tallied.result.bonus == "Ben 137 + Caro 8 = 145 → 145"
    assert "bonus" not in tallied.result.to_dict()  # the export's result is as MATCH_FORMAT says
