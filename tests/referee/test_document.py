"""Match documents (MATCH_FORMAT.md): replay, export, and documents nobody should trust."""

from __future__ import annotations

import copy
import json
import random

import pytest

from referee import DocumentError, Tally, export, replay
from referee.actions import Stop
from referee.document import FORMAT, MOST_ROUNDS, most_actions
from referee.games import havoc
from referee.games.line import BLOCKED, DOMINO
from tests.referee.dominards_play import play_game
from tests.referee.test_dump_truck import document as truck_document
from tests.referee.test_dump_truck import drain as truck_drain
from tests.referee.test_dump_truck import history as truck_history
from tests.referee.test_dump_truck import new as truck_new
from tests.referee.test_havoc import document as havoc_document
from tests.referee.test_havoc import log as havoc_log
from tests.referee.test_havoc import new as havoc_new
from tests.referee.test_havoc import next_round as havoc_next_round
from tests.referee.test_havoc import race as havoc_race


def play(seat, tile, on=None):
    return {"type": "play", "seat": seat, "tile": tile} | ({"on": on} if on else {})


def draw(seat, count=1):
    return {"type": "draw", "seat": seat, "count": count}


def knock(seat):
    return {"type": "pass", "seat": seat}


UNDO = {"type": "undo"}

# A Draw match for three to 200, written by hand as a table would have recorded it.
#
# Round 1: Ana leads 6-6 and plays out; Caro misplaces 4-1 and takes it back.
# Round 2: Ben leads 5-5; Ben draws the boneyard dry; all three knock; pips are declared
#          (the 25 tiles off the table hold 144 pips: Ana 12, Ben 118, Caro 14).
# Round 3: Caro leads 4-4; Ana plays out; the first tally miscounts Caro's hand and is
#          taken back. Ana reaches 202 and wins the match.
MATCH = {
    "format": "boneyard-match/1",
    "game": "draw",
    "options": {"target": 200},
    "players": ["Ana", "Ben", "Caro"],
    "rounds": [
        {"actions": [
            play(0, "6-6"),
            play(1, "6-5", "6-6"),
            draw(2, 2),
            play(2, "6-1", "6-6"),
            play(0, "5-5", "6-5"),
            play(1, "1-0", "6-1"),
            play(2, "5-3", "5-5"),
            play(0, "3-3", "5-3"),
            draw(1),
            play(1, "0-0", "1-0"),
            play(2, "3-2", "3-3"),
            play(0, "4-0", "0-0"),
            play(1, "2-2", "3-2"),
            play(2, "4-1", "4-0"),
            UNDO,
            play(2, "4-2", "4-0"),
            play(0, "2-1", "2-2"),
            {"type": "tally", "hands": {"0": [], "1": ["6-4", "1-1"], "2": ["6-3", "5-4", "4-4"]}},
        ]},
        {"actions": [
            play(1, "5-5"),
            play(2, "5-0", "5-5"),
            play(0, "5-4", "5-5"),
            draw(1, 13),
            knock(1),
            knock(2),
            knock(0),
            {"type": "tally", "pips": {"0": 12, "1": 118, "2": 14}},
        ]},
        {"actions": [
            play(2, "4-4"),
            play(0, "4-3", "4-4"),
            play(1, "4-2", "4-4"),
            draw(2),
            draw(2),
            play(2, "3-1", "4-3"),
            play(0, "2-2", "4-2"),
            play(1, "1-1", "3-1"),
            play(2, "2-0", "2-2"),
            play(0, "1-0", "1-1"),
            play(1, "0-0", "2-0"),
            play(2, "6-0", "1-0"),
            play(0, "6-6", "6-0"),
            play(1, "5-0", "0-0"),
            draw(2),
            play(2, "6-5", "6-6"),
            play(0, "5-3", "6-5"),
            {"type": "tally", "hands": {"0": [], "1": ["6-4"], "2": ["6-3", "5-2", "3-2"]}},
            UNDO,
            {"type": "tally", "hands": {"0": [], "1": ["6-4"], "2": ["6-3", "5-2", "3-3"]}},
        ]},
    ],
}  # fmt: skip

EXPECTED_RESULTS = [
    {"winner": 0, "reason": "domino", "pips": {"0": 0, "1": 12, "2": 26}, "points": {"0": 38}},
    {"winner": 0, "reason": "blocked", "pips": {"0": 12, "1": 118, "2": 14}, "points": {"0": 132}},
    {"winner": 0, "reason": "domino", "pips": {"0": 0, "1": 10, "2": 22}, "points": {"0": 32}},
]


def test_the_match_replays():
    match = replay(MATCH)
    assert match.game == "draw" and match.players == ("Ana", "Ben", "Caro")
    assert match.options["target"] == 200 and match.options["set"] == 6
    assert [r.state.ended for r in match.rounds] == [DOMINO, BLOCKED, DOMINO]
    assert [r.state.result.points for r in match.rounds] == [(38, 0, 0), (132, 0, 0), (32, 0, 0)]
    assert match.totals == (202, 0, 0)
    assert match.winner == 0
    # the undone misplay is not on the table
    first = match.rounds[0].state
    assert "4-1" not in {str(t) for t in first.layout.tiles}
    assert first.hands == (0, 2, 3)


def test_the_export_adds_what_the_referee_computed():
    exported = export(replay(MATCH))
    # MATCH_FORMAT.md, Export: every action that changed a score gains its points...
    rounds = exported["rounds"]
    assert rounds[0]["actions"][-1]["points"] == {"0": 38}
    assert rounds[1]["actions"][-1]["points"] == {"0": 132}
    assert rounds[2]["actions"][-3]["points"] == {"0": 31}
    assert rounds[2]["actions"][-2] == {"type": "undo", "points": {"0": -31}}
    assert rounds[2]["actions"][-1]["points"] == {"0": 32}
    scored = [(r, a) for r, rnd in enumerate(rounds) for a, x in enumerate(rnd["actions"])
              if "points" in x]  # fmt: skip
    assert scored == [(0, 17), (1, 7), (2, 17), (2, 18), (2, 19)]
    # ...every round its result, the document the totals and the winner.
    assert [r["result"] for r in rounds] == EXPECTED_RESULTS
    assert exported["totals"] == {"0": 202, "1": 0, "2": 0}
    assert exported["winner"] == 0
    # Everything else is the document as written, in canonical form.
    assert exported["format"] == "boneyard-match/1" and exported["game"] == "draw"
    assert exported["players"] == ["Ana", "Ben", "Caro"]
    assert exported["options"] == {
        "set": 6, "hand_size": 0, "opening": "any", "spinners": "none", "sides_first": True,
        "spinner_count": "while-end", "draw_until": "playable", "reserve": 0,
        "one_end_doubles": False, "blocked_minus_own": False, "target": 200,
        "partnerships": False, "count_all_hands": False, "record": "plays",
    }  # fmt: skip
    stripped = [
        [{k: v for k, v in a.items() if k != "points"} for a in r["actions"]] for r in rounds
    ]
    assert stripped == [r["actions"] for r in MATCH["rounds"]]
    assert set(exported) == {"format", "game", "options", "players", "rounds", "totals", "winner"}
    assert all(set(r) == {"actions", "result"} for r in rounds)


def test_export_replay_export_is_identical():
    first = export(replay(MATCH))
    second = export(replay(json.loads(json.dumps(first))))
    assert second == first
    assert json.dumps(second, sort_keys=True) == json.dumps(first, sort_keys=True)


def test_the_export_is_plain_json():
    exported = export(replay(MATCH))
    assert json.loads(json.dumps(exported)) == exported


def test_computed_fields_are_never_trusted():
    forged = export(replay(MATCH))
    forged["totals"] = {"0": 0, "1": 500, "2": 0}
    forged["winner"] = 1
    forged["rounds"][0]["result"] = {"winner": 2, "reason": "domino", "pips": {}, "points": {}}
    forged["rounds"][0]["actions"][-1]["points"] = {"2": 1000}
    assert export(replay(forged)) == export(replay(MATCH))


def test_the_export_writes_tiles_high_half_first():
    doc = copy.deepcopy(MATCH)
    doc["rounds"][0]["actions"][1] = {"type": "play", "seat": "1", "tile": "5|6", "on": "6:6"}
    assert export(replay(doc)) == export(replay(MATCH))


def test_an_unfinished_round_has_no_result():
    doc = copy.deepcopy(MATCH)
    doc["rounds"][2]["actions"] = doc["rounds"][2]["actions"][:5]
    match = replay(doc)
    assert match.totals == (170, 0, 0) and match.winner is None
    exported = export(match)
    assert "result" not in exported["rounds"][2]
    assert export(replay(exported)) == exported


def test_a_document_with_no_rounds():
    doc = {"format": "boneyard-match/1", "game": "block", "players": ["Ana", "Ben"]}
    exported = export(replay(doc))
    assert exported["rounds"] == [] and exported["totals"] == {"0": 0, "1": 0}
    assert exported["winner"] is None


# -- an illegal action stops the replay where it is -----------------------------------------------


def with_action(round_index: int, action_index: int, action) -> dict:
    doc = copy.deepcopy(MATCH)
    doc["rounds"][round_index]["actions"][action_index] = action
    return doc


@pytest.mark.parametrize(
    ("doc", "where", "rule"),
    [
        (with_action(0, 1, play(2, "6-5", "6-6")), (1, 2), "turn.order"),
        (with_action(0, 4, play(0, "5-5", "6-6")), (1, 5), "line.attach"),
        (with_action(0, 8, knock(1)), (1, 9), "draw.must-draw"),
        (with_action(0, 9, play(1, "6-6", "1-0")), (1, 10), "set.unique"),
        (with_action(1, 2, draw(0, 14)), (2, 3), "draw.reserve"),
        (with_action(1, 0, play(5, "5-5")), (2, 1), "seat.order"),
        (with_action(2, 0, play(2, "9-9")), (3, 1), "set.tiles"),
        (with_action(2, 17, {"type": "tally", "pips": {"0": 0, "1": 10}}), (3, 18), "tally.hands"),
        (with_action(0, 17, {"type": "tally", "hands": {"0": [], "1": ["6-4", "1-1"],
                                                        "2": ["6-3", "5-4", "6-6"]}}),
         (1, 18), "set.unique"),
        (with_action(0, 14, {"type": "roll", "seat": 2, "dice": [3, 4]}), (1, 15),
         "dominards.dice"),
    ],
)  # fmt: skip
def test_an_illegal_action_names_round_action_and_rule(doc, where, rule):
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    error = caught.value
    round_number, action_number = where
    assert (error.round, error.action, error.rule) == (round_number, action_number, rule)
    assert str(error).startswith(f"round {round_number}, action {action_number}: {rule}: ")
    assert len(str(error)) > len(f"round {round_number}, action {action_number}: {rule}: ")


def test_a_malformed_action_names_round_and_action():
    with pytest.raises(DocumentError) as caught:
        replay(with_action(1, 3, {"type": "play", "seat": 0, "tile": "5-x", "on": "5-5"}))
    assert str(caught.value) == "round 2, action 4: '5-x' is not a tile; write a tile like 6-4."
    assert caught.value.rule is None


def test_an_action_after_the_winning_tally():
    doc = copy.deepcopy(MATCH)
    doc["rounds"][2]["actions"].append(play(1, "6-4", "5-3"))
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    assert str(caught.value) == (
        "round 3, action 21: block.score: The match is over: Ana reached 202, so Ben cannot play."
    )


# -- issue 17: a round after the end, and refusals from inside a game, are located and cited --


def _drawn_to_200() -> dict:
    return copy.deepcopy(MATCH)


def _dominards_to_the_last_card() -> dict:
    rng = random.Random(0)

    def shuffle(items):
        rng.shuffle(items)
        return items

    document, rounds = play_game(lambda c, label: rng.choice(list(c)), shuffle, 2, greedy=True)
    assert rounds[-1][-1].after.match_over and rounds[-1][-1].after.champion == 0
    return document


def _havoc_of_one_round() -> dict:
    first = havoc.apply(havoc_race(havoc_new(2, rounds=1), winner=0), Tally(pips=((1, 10),)))
    return havoc_document({"rounds": 1}, ["Ana", "Ben"], [havoc_log(first)])


def _havoc_stopped() -> dict:
    first = havoc.apply(havoc_race(havoc_new(2), winner=1), Tally(pips=((0, 10),)))
    stopped = havoc.apply(havoc_next_round(first), Stop())
    return havoc_document({}, ["Ana", "Ben"], [havoc_log(first), havoc_log(stopped)])


def _truck_emptied() -> dict:
    state = truck_drain(truck_new(2), left=0, score=True)
    return truck_document(2, [step.last for step in truck_history(state)])


AFTER_THE_END = [
    # (a finished match, the first action of one more round, the rule that ended it, how)
    (_drawn_to_200, play(0, "6-6"), "block.score", "The match is over: Ana reached 202"),
    (_drawn_to_200, UNDO, "block.score", "The match is over: Ana reached 202"),
    (_dominards_to_the_last_card, {"type": "roll", "seat": 1, "dice": [3, 4]},
     "dominards.card-bonus", "The game is over: a seat dropped its last card"),
    (_havoc_of_one_round, {"type": "draw", "seat": 1, "from": "boneyard"}, "havoc.win",
     "The match is over: the one agreed round is played, and Ana has the lowest total (0)"),
    (_havoc_stopped, {"type": "stop"}, "havoc.win",
     "The match is over: the table stopped it, and Ben has the lowest total (0)"),
    (_truck_emptied, {"type": "take", "seat": 0, "tile": "1-1", "from": "pool"}, "truck.end",
     "The game is over: the pool and the hands are empty"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("finished", "first", "rule", "why"),
    AFTER_THE_END,
    ids=[f"{case[0].__name__}-{case[1]['type']}" for case in AFTER_THE_END],
)
def test_a_round_after_the_match_is_over_is_refused_under_the_rule_that_ended_it(
    finished, first, rule, why
):
    doc = finished()
    replay(doc)  # the match as it ended stands
    number = len(doc["rounds"]) + 1
    doc["rounds"].append({"actions": [first]})
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    error = caught.value
    assert (error.round, error.action, error.rule) == (number, 1, rule)
    assert (
        str(error)
        == error.message
        == (f"round {number}, action 1: {rule}: {why}; nothing more is played after that.")
    )
    # An empty round has no action to name: the round is refused, still under the rule.
    doc["rounds"][-1] = {"actions": []}
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    assert (caught.value.round, caught.value.action, caught.value.rule) == (number, None, rule)
    assert str(caught.value) == f"round {number}: {rule}: {why}; nothing more is played after that."


def game(slug: str, *actions: dict, players: int = 2, **options) -> dict:
    return {"format": "boneyard-match/1", "game": slug, "options": options,
            "players": ["Ana", "Ben", "Caro", "Dan", "Eve", "Fay", "Gus"][:players],
            "rounds": [{"actions": list(actions)}]}  # fmt: skip


TAKE = {"type": "take", "seat": 0, "tile": "1-1", "from": "pool"}
DRAW = {"type": "draw", "seat": 0, "from": "boneyard"}


def flip(seats: list, first: int) -> dict:
    return {"type": "flip", "seats": seats, "first": first}


INSIDE_A_GAME = [
    # (document, (round, action), rule, the message)
    (game("dump-truck", {**TAKE, "tile": "7-7"}), (1, 1), "set.tiles",
     "7-7 is not in a double-6 set: its numbers go from 0 (blank) to 6."),
    (game("havoc", DRAW, {"type": "train", "seat": 0, "tile": "10-1"}), (1, 2), "set.tiles",
     "10-1 is not in a double-9 set: its numbers go from 0 (blank) to 9."),
    (game("havoc", DRAW, {"type": "discard", "seat": 0, "tile": "1-10"}), (1, 2), "set.tiles",
     "10-1 is not in a double-9 set: its numbers go from 0 (blank) to 9."),
    (game("havoc", {**DRAW, "tile": "10-10"}), (1, 1), "set.tiles",
     "10-10 is not in a double-9 set: its numbers go from 0 (blank) to 9."),
    (game("havoc", DRAW, {"type": "train", "seat": 0, "tile": "13-1"}, players=7), (1, 2),
     "set.tiles", "13-1 is not in a double-12 set: its numbers go from 0 (blank) to 12."),
    (game("havoc", DRAW, {"type": "discard", "seat": 0, "tile": "5-1"},
          {"type": "draw", "seat": 1, "from": 0}), (1, 3), "havoc.turn",
     "Name the tile Ben takes from Ana's discard slot: 5-1."),
    (game("dump-truck", TAKE, flip([0, 0], 0)), (1, 2), "truck.draw",
     "A coin is tossed between two different seats, not Ana and Ana."),
    (game("dump-truck", TAKE, flip([1, 0], 2)), (1, 2), "truck.draw",
     "The coin was tossed between Ben and Ana: the seat that chooses first is one of them, "
     "not seat 2."),
    (game("dump-truck", TAKE, flip([0, 1, 1], 0)), (1, 2), "truck.draw",
     "A coin settles a tie between two seats, not 3: toss it for two seats at a time."),
    (game("dump-truck", TAKE, flip([0, 5], 0)), (1, 2), "seat.order",
     "There is no seat 5 at this table; the seats are 0 to 1."),
    # Dominards, as it already was: the line games refuse a tile outside the set the same way.
    (game("dominards", {"type": "roll", "seat": 0, "dice": [3, 4]},
          {"type": "play", "seat": 0, "tile": "7-7"}), (1, 2), "set.tiles",
     "7-7 is not in a double-6 set."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("doc", "where", "rule", "message"),
    INSIDE_A_GAME,
    ids=[f"{case[0]['game']}-{case[2]}-{case[1][1]}" for case in INSIDE_A_GAME],
)
def test_a_refusal_from_inside_a_game_names_round_action_and_rule(doc, where, rule, message):
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    error = caught.value
    round_number, action_number = where
    assert (error.round, error.action, error.rule) == (round_number, action_number, rule)
    assert (
        str(error)
        == error.message
        == (f"round {round_number}, action {action_number}: {rule}: {message}")
    )


DIGITS = "is not a tile; write its numbers with the digits 0 to 9, like 6-4."


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (play(0, "６-６"), f"'６-６' {DIGITS}"),
        (play(0, "6-6", "٦-٦"), f"'٦-٦' {DIGITS}"),
        ({"type": "tally", "pips": {"0": 5, "１": 3}}, "'１' is not a seat; seats are numbered 0, "
         "1, 2, ..."),
    ],
    ids=ascii,
)  # fmt: skip
def test_a_document_written_with_other_digits_is_refused(action, message):
    doc = with_action(1, 0, action)
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    assert str(caught.value) == f"round 2, action 1: {message}"


@pytest.mark.parametrize("dice", [["3", "4"], [3, "4"], ["1", "2", "3", "4"]], ids=str)
def test_a_document_with_dice_written_as_text_is_refused(dice):
    doc = game("dominards", {"type": "roll", "seat": 0, "dice": dice})
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    assert (caught.value.round, caught.value.action) == (1, 1)
    assert "is not a valid die: give each die as a number from 1 to 6, not as text." in str(
        caught.value
    )
    doc["rounds"][0]["actions"][0]["dice"] = [int(d) for d in dice]
    assert replay(doc).rounds[0].actions[0].dice == tuple(int(d) for d in dice)


def test_a_round_after_an_untallied_round():
    doc = copy.deepcopy(MATCH)
    del doc["rounds"][0]["actions"][-1]
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    assert str(caught.value) == "round 2: the round before it was never tallied."


# -- hostile documents: always a DocumentError, never anything else --------------------------------


def deep(depth: int, leaf: object = None) -> object:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def deep_dict(depth: int) -> object:
    value: object = {}
    for _ in range(depth):
        value = {"actions": value}
    return value


BASE = {"format": "boneyard-match/1", "game": "draw", "players": ["Ana", "Ben"], "rounds": []}
JSON_DEEP = json.loads("[" * 900 + "]" * 900)
PYTHON_DEEP = deep(100_000)
ROUND = {"actions": [play(0, "6-6")]}

HOSTILE = [
    ("a list", []),
    ("a string", "boneyard-match/1"),
    ("null", None),
    ("a number", 5),
    ("bytes", b"{}"),
    ("an empty object", {}),
    ("no format", {k: v for k, v in BASE.items() if k != "format"}),
    ("another format", BASE | {"format": "boneyard-match/2"}),
    ("a format that is a list", BASE | {"format": ["boneyard-match/1"]}),
    ("an unknown top-level field", BASE | {"comment": "hello"}),
    ("a non-string key", BASE | {1: 2}),
    ("an unknown game", BASE | {"game": "chess"}),
    ("a game that is not a string", BASE | {"game": ["draw"]}),
    ("a game that is an object", BASE | {"game": {"draw": 1}}),
    ("no game", {k: v for k, v in BASE.items() if k != "game"}),
    ("a game not played here", BASE | {"game": "sequence"}),
    ("no players", {k: v for k, v in BASE.items() if k != "players"}),
    ("players not a list", BASE | {"players": "Ana, Ben"}),
    ("a player that is not a name", BASE | {"players": ["Ana", 7]}),
    ("a blank name", BASE | {"players": ["Ana", "   "]}),
    ("a name too long", BASE | {"players": ["Ana", "B" * 41]}),
    ("the same name twice", BASE | {"players": ["Ana", "ana"]}),
    ("the same name in another case", BASE | {"players": ["Strauß", "STRAUSS"]}),
    ("the same name with a Kelvin sign", BASE | {"players": ["Kai", "\u212aai"]}),
    ("a right-to-left override in a name", BASE | {"players": ["Ana", "B\u202eneB"]}),
    ("a zero-width space in a name", BASE | {"players": ["Ana", "An\u200ba"]}),
    ("a zero-width joiner in a name", BASE | {"players": ["Ana", "Ben\u200d"]}),
    ("a left-to-right mark in a name", BASE | {"players": ["\u200eAna", "Ben"]}),
    ("a control character in a name", BASE | {"players": ["Ana", "Be\x7fn"]}),
    ("one player", BASE | {"players": ["Ana"]}),
    ("too many players", BASE | {"players": [f"P{i}" for i in range(6)]}),
    ("options not an object", BASE | {"options": ["target", 50]}),
    ("an unknown option", BASE | {"options": {"muggins": True}}),
    ("a bad option value", BASE | {"options": {"target": 75}}),
    ("a deal that does not fit", BASE | {"options": {"hand_size": 15}}),
    ("rounds not a list", BASE | {"rounds": {"0": ROUND}}),
    ("rounds a string", BASE | {"rounds": "[]"}),
    ("a round that is not an object", BASE | {"rounds": [[play(0, "6-6")]]}),
    ("a round without actions", BASE | {"rounds": [{}]}),
    ("actions not a list", BASE | {"rounds": [{"actions": play(0, "6-6")}]}),
    ("an unknown round field", BASE | {"rounds": [ROUND | {"note": "x"}]}),
    ("a non-string round key", BASE | {"rounds": [ROUND | {2: "x"}]}),
    ("an action that is not an object", BASE | {"rounds": [{"actions": ["play 6-6"]}]}),
    ("an unknown action", BASE | {"rounds": [{"actions": [{"type": "shuffle"}]}]}),
    ("deep JSON as the document", JSON_DEEP),
    ("deep JSON as rounds", BASE | {"rounds": JSON_DEEP}),
    ("deep JSON as a round", BASE | {"rounds": [JSON_DEEP]}),
    ("deep JSON as actions", BASE | {"rounds": [{"actions": JSON_DEEP}]}),
    ("deep JSON as the game", BASE | {"game": JSON_DEEP}),
    ("deep JSON as an option", BASE | {"options": {"set": JSON_DEEP}}),
    ("deep JSON as a player", BASE | {"players": JSON_DEEP}),
    ("deep JSON as a tile", BASE | {"rounds": [{"actions": [play(0, JSON_DEEP)]}]}),
    ("deep objects as a round", BASE | {"rounds": [deep_dict(900)]}),
    ("deep Python as the game", BASE | {"game": PYTHON_DEEP}),
    ("deep Python as an option", BASE | {"options": {"target": PYTHON_DEEP}}),
    ("a huge option name", BASE | {"options": {"x" * 1_000_000: 1}}),
    ("deep Python as a seat", BASE | {"rounds": [{"actions": [knock(PYTHON_DEEP)]}]}),
    ("deep Python as a tile", BASE | {"rounds": [{"actions": [play(0, PYTHON_DEEP)]}]}),
    ("deep Python as a type", BASE | {"rounds": [{"actions": [{"type": PYTHON_DEEP}]}]}),
    ("deep Python as a hand", BASE | {"rounds": [{"actions": [
        play(0, "6-6"), {"type": "tally", "hands": {"0": PYTHON_DEEP}}]}]}),
    ("deep Python as pips", BASE | {"rounds": [{"actions": [
        play(0, "6-6"), {"type": "tally", "pips": {"0": PYTHON_DEEP}}]}]}),
    ("a huge string as the game", BASE | {"game": "x" * 5_000_000}),
    ("a huge string as a tile", BASE | {"rounds": [{"actions": [play(0, "6" * 5_000_000)]}]}),
    ("a huge number of seats in a tally", BASE | {"rounds": [{"actions": [
        play(0, "6-6"), {"type": "tally", "pips": {str(s): 0 for s in range(10_000)}}]}]}),
    ("the same seat twice in a tally", BASE | {"rounds": [{"actions": [
        play(0, "6-6"), {"type": "tally", "pips": {"1": 5, "01": [1]}}]}]}),
    ("a seat as a float", BASE | {"rounds": [{"actions": [knock(1.0)]}]}),
    ("a seat as a bool", BASE | {"rounds": [{"actions": [play(True, "6-6")]}]}),
    ("a seat past the table", BASE | {"rounds": [{"actions": [play(2, "6-6")]}]}),
    ("a tile past the set", BASE | {"rounds": [{"actions": [play(0, "12-12")]}]}),
    ("a tally before the round ends", BASE | {"rounds": [{"actions": [
        play(0, "6-6"), {"type": "tally", "pips": {"0": 1, "1": 1}}]}]}),
    ("an undo with nothing to undo", BASE | {"rounds": [{"actions": [UNDO]}]}),
    ("NaN as a count", BASE | {"rounds": [{"actions": [
        play(0, "6-6"), {"type": "draw", "seat": 1, "count": float("nan")}]}]}),
    ("infinity as pips", BASE | {"rounds": [{"actions": [
        play(0, "6-6"), {"type": "tally", "pips": {"0": float("inf")}}]}]}),
]  # fmt: skip


@pytest.mark.parametrize("doc", [case[1] for case in HOSTILE], ids=[case[0] for case in HOSTILE])
def test_hostile_documents_are_refused_with_a_document_error(doc):
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    message = str(caught.value)
    assert message and len(message) < 400, "the message is printed for a person to read"


# -- a round holds what a real round can hold (issue 17: memory bounded) -------------------


def _churn(pairs: int) -> list[dict]:
    lead = [{"type": "play", "seat": 0, "tile": "6-6"}]
    return (
        lead + [{"type": "play", "seat": 1, "tile": "6-5", "on": "6-6"}, {"type": "undo"}] * pairs
    )


@pytest.mark.parametrize(("top", "most"), [(6, 380), (9, 650), (12, 1010)])
def test_a_round_holds_ten_entries_a_tile_and_a_hundred_more(top, most):
    assert most_actions(top) == most


def test_a_round_longer_than_a_real_one_is_refused_where_it_passes_the_limit():
    players = ["Ana", "Ben", "Caro"]
    fits = {"format": FORMAT, "game": "draw", "players": players,
            "rounds": [{"actions": _churn(189)}]}  # fmt: skip
    assert len(replay(fits).rounds[0].actions) == 379
    churned = {**fits, "rounds": [{"actions": _churn(4_500)}]}
    with pytest.raises(DocumentError) as refused:
        replay(churned)
    assert (refused.value.round, refused.value.action) == (1, 381)
    assert "holds 380 entries" in refused.value.message


def test_a_match_holds_two_hundred_rounds_and_no_more():
    # Issue 28: a hostile match of thousands of rounds cost seconds on every page listing them.
    one = [{"type": "play", "seat": 0, "tile": "6-6"}, {"type": "tally", "pips": {"1": 0}}]
    doc = {"format": FORMAT, "game": "block", "options": {"hand_size": 1},
           "players": ["Ana", "Ben"], "rounds": [{"actions": one}] * MOST_ROUNDS}  # fmt: skip
    assert MOST_ROUNDS == 200 and len(replay(doc).rounds) == 200
    with pytest.raises(DocumentError) as refused:
        replay({**doc, "rounds": doc["rounds"] + [{"actions": []}]})
    assert refused.value.round == 201 and "at most 200 rounds" in refused.value.message
