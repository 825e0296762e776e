"""The action language of MATCH_FORMAT.md for the line games: shape only, never legality."""

from __future__ import annotations

import pytest

from referee import (
    Challenge,
    Declare,
    Draw,
    InvalidAction,
    Muggins,
    Pass,
    Play,
    Roll,
    Tally,
    Tile,
    Undo,
    parse_action,
)
from referee.actions import parse_seat

T = Tile.parse

PARSED = [
    ({"type": "play", "seat": 0, "tile": "6-6"}, Play(0, T("6-6"))),
    ({"type": "play", "seat": 1, "tile": "3-6", "on": "6-6"}, Play(1, T("6-3"), T("6-6"))),
    (
        {"type": "play", "seat": 2, "tile": "6|3", "on": "6:6", "face": "end"},
        Play(2, T("6-3"), T("6-6"), "end"),
    ),
    (
        {"type": "play", "seat": 2, "tile": "6-3", "on": "6-6", "face": "side"},
        Play(2, T("6-3"), T("6-6"), "side"),
    ),
    ({"type": "play", "seat": 0, "tile": "6-6", "on": None}, Play(0, T("6-6"))),
    ({"type": "draw", "seat": 1}, Draw(1, 1)),
    ({"type": "draw", "seat": 1, "count": 3}, Draw(1, 3)),
    ({"type": "draw", "seat": "1", "count": "3"}, Draw(1, 3)),
    ({"type": "pass", "seat": 3}, Pass(3)),
    ({"type": "declare", "seat": 0, "points": 10}, Declare(0, 10)),
    ({"type": "muggins", "seat": 1}, Muggins(1)),
    ({"type": "challenge", "seat": 2}, Challenge(2)),
    ({"type": "undo"}, Undo()),
    (
        {"type": "tally", "hands": {"1": ["6-5"], "0": []}},
        Tally(hands=((0, ()), (1, (T("6-5"),)))),
    ),
    ({"type": "tally", "pips": {"0": 0, "1": 11}}, Tally(pips=((0, 0), (1, 11)))),
    ({"type": "tally", "pips": {"0": "7"}}, Tally(pips=((0, 7),))),
    # tally.hands: some seats by their tiles, the others by their pips
    (
        {"type": "tally", "hands": {"0": ["6-5"]}, "pips": {"1": 7}},
        Tally(hands=((0, (T("6-5"),)),), pips=((1, 7),)),
    ),
    ({"type": "roll", "seat": 0, "dice": [1, 6]}, Roll(0, (1, 6))),
    (
        {"type": "play", "seat": 1, "tile": "4-2", "on": "6-4", "card": " q", "drop": "a14"},
        Play(1, Tile.parse("4-2"), Tile.parse("6-4"), card="Q", drop="A"),
    ),
    ({"type": "play", "seat": 1, "tile": "6-6", "card": "a1"}, Play(1, Tile(6, 6), card="A1")),
    ({"type": "roll", "seat": 0, "dice": [1, 2, 3, 4]}, Roll(0, (1, 2, 3, 4))),
]


@pytest.mark.parametrize(("data", "action"), PARSED, ids=lambda v: str(v)[:40])
def test_every_action_type_parses(data, action):
    assert parse_action(data) == action


@pytest.mark.parametrize(("data", "action"), PARSED, ids=lambda v: str(v)[:40])
def test_to_dict_round_trips(data, action):
    written = action.to_dict()
    assert written["type"] == action.kind
    assert parse_action(written) == action
    assert parse_action(written).to_dict() == written


def test_to_dict_writes_canonical_tiles_and_integer_seats():
    action = parse_action({"type": "play", "seat": "1", "tile": "3|6", "on": "6:6"})
    assert action.to_dict() == {"type": "play", "seat": 1, "tile": "6-3", "on": "6-6"}
    assert parse_action({"type": "draw", "seat": "0"}).to_dict() == {
        "type": "draw", "seat": 0, "count": 1,
    }  # fmt: skip
    tally = parse_action({"type": "tally", "hands": {"01": ["4-6"], "0": []}})
    assert tally.to_dict() == {"type": "tally", "hands": {"0": [], "1": ["6-4"]}}


@pytest.mark.parametrize(
    ("seat", "expected"), [(0, 0), (7, 7), ("0", 0), ("3", 3), (" 2 ", 2), ("07", 7), (99, 99)]
)
def test_seats_are_integers_or_decimal_strings(seat, expected):
    assert parse_seat(seat) == expected
    assert parse_action({"type": "pass", "seat": seat}) == Pass(expected)


@pytest.mark.parametrize(
    "seat",
    [True, False, -1, "-1", 1.0, 1.5, "1.0", "one", "", None, [1], {"0": 1}, "٣", "１", 100, "1e2",
     "0x1", 10**30],
    ids=repr,
)  # fmt: skip
def test_what_is_not_a_seat(seat):
    with pytest.raises(InvalidAction, match="is not a seat"):
        parse_action({"type": "pass", "seat": seat})


# `points` is what the export adds (MATCH_FORMAT.md, Export); the import recomputes it.
@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"type": "pass", "seat": 0, "points": {"0": 5}}, Pass(0)),
        ({"type": "play", "seat": 0, "tile": "5-5", "points": {"0": 10}}, Play(0, T("5-5"))),
        ({"type": "tally", "pips": {"0": 0, "1": 4}, "points": {"0": 4}},
         Tally(pips=((0, 0), (1, 4)))),
        ({"type": "undo", "points": {"0": -4}}, Undo()),
        ({"type": "draw", "seat": 1, "points": "anything at all"}, Draw(1)),
    ],
)  # fmt: skip
def test_the_computed_points_field_is_ignored(data, action):
    assert parse_action(data) == action


def test_a_declare_keeps_its_own_points():
    # `points` is computed on every other action, but it is what a declare says.
    assert parse_action({"type": "declare", "seat": 1, "points": "15"}) == Declare(1, 15)
    with pytest.raises(InvalidAction, match="A declare needs points"):
        parse_action({"type": "declare", "seat": 1})


BAD = [
    # (data, words the message must contain)
    (None, "must be an object"),
    ("pass", "must be an object"),
    ([{"type": "pass"}], "must be an object"),
    ({}, "Unknown action type None"),
    ({"seat": 0}, "Unknown action type"),
    ({"type": "knock", "seat": 0}, "Unknown action type 'knock'"),
    ({"type": "PLAY", "seat": 0, "tile": "6-6"}, "Unknown action type 'PLAY'"),
    ({"type": ["play"], "seat": 0}, "Unknown action type"),
    ({"type": "take", "seat": 0, "tile": "6-6", "from": "pool"}, "Unknown action type 'take'"),
    ({"type": "play", "seat": 0}, "A play needs tile"),
    ({"type": "play", "tile": "6-6"}, "A play needs seat"),
    ({"type": "play"}, "A play needs seat, tile"),
    ({"type": "draw"}, "A draw needs seat"),
    ({"type": "pass"}, "A pass needs seat"),
    ({"type": "muggins"}, "A muggins needs seat"),
    ({"type": "roll", "seat": 0}, "A roll needs dice"),
    ({"type": "pass", "seat": 0, "tile": "6-6"}, "A pass has no field 'tile'"),
    ({"type": "undo", "seat": 0}, "An undo has no field 'seat'"),
    ({"type": "play", "seat": 0, "tile": "6-6", "onto": "6-5"}, "no field 'onto'"),
    ({"type": "draw", "seat": 0, "count": 0}, "count"),
    ({"type": "draw", "seat": 0, "count": -1}, "count"),
    ({"type": "draw", "seat": 0, "count": 1.0}, "count"),
    ({"type": "draw", "seat": 0, "count": True}, "count"),
    ({"type": "draw", "seat": 0, "count": 201}, "count"),
    ({"type": "draw", "seat": 0, "count": None}, "count"),
    ({"type": "play", "seat": 0, "tile": "7-x"}, "not a tile"),
    ({"type": "play", "seat": 0, "tile": "6-6", "on": "x"}, "not a tile"),
    ({"type": "play", "seat": 0, "tile": "6-6", "on": 66}, "not a tile"),
    ({"type": "play", "seat": 0, "tile": "6-3", "on": "6-6", "face": "top"}, "side or end"),
    ({"type": "play", "seat": 0, "tile": "6-3", "on": "6-6", "face": 1}, "side or end"),
    ({"type": "play", "seat": 0, "tile": "6-3", "card": "A"}, "A1"),
    ({"type": "play", "seat": 0, "tile": "6-3", "card": "Z"}, "not a card"),
    ({"type": "play", "seat": 0, "tile": "6-3", "card": 12}, "not a card"),
    ({"type": "play", "seat": 0, "tile": "6-3", "drop": "11"}, "not a card"),
    ({"type": "play", "seat": 0, "tile": "6-3", "drop": ["Q"]}, "not a card"),
    ({"type": "declare", "seat": 0, "points": -5}, "points"),
    ({"type": "declare", "seat": 0, "points": 2.5}, "points"),
    ({"type": "declare", "seat": 0, "points": {"0": 5}}, "points"),
    ({"type": "tally"}, "its pip total (pips), or both"),
    ({"type": "tally", "hands": {"0": []}, "pips": {"00": 0}}, "Seat 0 is declared twice"),
    ({"type": "tally", "hands": ["6-6"]}, "maps each seat"),
    ({"type": "tally", "hands": {"0": "6-6"}}, "must be a list of tiles"),
    ({"type": "tally", "hands": {"0": ["6-6", "x"]}}, "not a tile"),
    ({"type": "tally", "hands": {"zero": []}}, "is not a seat"),
    ({"type": "tally", "hands": {"1": [], "01": []}}, "appears twice"),
    ({"type": "tally", "pips": {"1": 5, "01": "x"}}, "appears twice"),
    ({"type": "tally", "hands": {"1": ["6-6"], "01": {"a": 1}}}, "appears twice"),
    ({"type": "tally", "pips": {"0": -1}}, "pip total"),
    ({"type": "tally", "pips": {"0": 1.5}}, "pip total"),
    ({"type": "tally", "pips": {str(s): 0 for s in range(9)}}, "maps each seat"),
    ({"type": "roll", "seat": 0, "dice": [1, 2, 3]}, "2 or 4 dice"),
    ({"type": "roll", "seat": 0, "dice": [0, 7]}, "die"),
    ({"type": "roll", "seat": 0, "dice": "12"}, "2 or 4 dice"),
    # Issue 17: dice are numbers (MATCH_FORMAT.md), never text, even text of digits.
    (
        {"type": "roll", "seat": 0, "dice": ["3", "4"]},
        "'3' is not a valid die: give each die as a number from 1 to 6, not as text.",
    ),
    ({"type": "roll", "seat": 0, "dice": [3, " 4 "]}, "' 4 ' is not a valid die"),
    ({"type": "roll", "seat": 0, "dice": [1, 2, 3, "６"]}, "not as text"),
    ({"type": "roll", "seat": 0, "dice": [3, 4.0]}, "not a valid die"),
    ({"type": "roll", "seat": 0, "dice": [True, 4]}, "not a valid die"),
    ({"type": "play", "seat": 0, "tile": "６-６"}, "with the digits 0 to 9"),
    ({"type": "play", "seat": 0, "tile": "6-6", "on": "٦-٦"}, "with the digits 0 to 9"),
    ({"type": "tally", "hands": {"0": ["6-6", "६-६"]}}, "with the digits 0 to 9"),
]


@pytest.mark.parametrize(("data", "words"), BAD, ids=lambda v: str(v)[:50])
def test_malformed_actions_are_refused_saying_what_is_wrong(data, words):
    with pytest.raises(InvalidAction) as caught:
        parse_action(data)
    assert caught.value.rule is None, "malformed input is not a rules question"
    assert words in caught.value.message
    assert len(caught.value.message) < 300


def test_an_unknown_type_lists_the_known_types():
    with pytest.raises(InvalidAction) as caught:
        parse_action({"type": "knock", "seat": 0})
    for kind in ("play", "draw", "pass", "undo", "tally"):
        assert kind in caught.value.message


def test_hostile_values_give_short_messages():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for data in (
        {"type": deep},
        {"type": "pass", "seat": deep},
        {"type": "play", "seat": 0, "tile": deep},
        {"type": "play", "seat": 0, "tile": "6-6", "face": deep},
        {"type": "draw", "seat": 0, "count": deep},
        {"type": "tally", "pips": {"0": deep}},
        {"type": "tally", "hands": {"0": deep}},
        {"type": "pass", "seat": "x" * 10_000_000},
        {"type": "x" * 10_000_000},
    ):
        with pytest.raises(InvalidAction) as caught:
            parse_action(data)
        assert len(caught.value.message) < 300
