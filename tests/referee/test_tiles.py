"""Tiles and sets (RULES.md `set.tiles`): how a tile is written, read and named."""

from __future__ import annotations

import pytest

from referee import DominoSet, InvalidAction, Tile


@pytest.mark.parametrize(
    "text",
    ["6-4", "4-6", "6|4", "4|6", "6:4", "4:6", " 6-4 ", "6 - 4", "\t4 |6\n", "06-04"],
)
def test_every_accepted_spelling_reads_as_the_same_tile(text):
    tile = Tile.parse(text)
    assert tile == Tile(6, 4)
    assert (tile.high, tile.low) == (6, 4)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("4-6", "6-4"), ("0-0", "0-0"), ("0|5", "5-0"), ("12:11", "12-11"), ("18-18", "18-18")],
)
def test_a_tile_is_written_high_half_first(text, canonical):
    tile = Tile.parse(text)
    assert str(tile) == canonical
    assert Tile.parse(str(tile)) == tile
    assert repr(tile) == f"Tile.parse('{canonical}')"


def test_the_two_orders_make_one_tile():
    assert Tile.of(4, 6) == Tile.of(6, 4) == Tile(6, 4)
    assert len({Tile.parse("6-4"), Tile.parse("4-6"), Tile.parse("6|4")}) == 1


@pytest.mark.parametrize(
    "value",
    [
        "7-x",
        "19-1",
        "1-19",
        "-1-2",
        "",
        "   ",
        None,
        5,
        6.4,
        ["6", "4"],
        {"high": 6},
        "6-4-3",
        "6/4",
        "6 4",
        "64",
        "6-",
        "-4",
        "a-b",
        "6--4",
        "100-1",
        "6-4" * 10_000,
        "9" * 1_000_000,
        "6-4\x00",
    ],
    ids=repr,
)
def test_malformed_tiles_are_refused_with_a_readable_message(value):
    with pytest.raises(InvalidAction) as caught:
        Tile.parse(value)
    message = caught.value.message
    assert message and len(message) < 200, "the message is shown to players and must stay short"
    assert "tile" in message


# Issue 17: `\d` read other scripts' digits, and int() turned them into pips.
@pytest.mark.parametrize(
    "text",
    ["６-６", "6-４", "６|４", "٦-٤", "۶:۴", "६-४", "৬-৪", "๖-๔", "1０-1", "𝟔-𝟒", "²-1"],
    ids=ascii,
)
def test_only_the_ascii_digits_write_a_tile(text):
    with pytest.raises(InvalidAction) as caught:
        Tile.parse(text)
    assert caught.value.message == (
        f"{text!r} is not a tile; write its numbers with the digits 0 to 9, like 6-4."
    )
    with pytest.raises(InvalidAction, match="digits 0 to 9"):
        Tile.parse_halves(text)


def test_the_message_for_a_half_beyond_the_largest_set_says_why():
    with pytest.raises(InvalidAction, match="19-1 is not a tile: no half has more than 18 pips"):
        Tile.parse("19-1")


def test_the_message_for_gibberish_shows_the_input_and_an_example():
    with pytest.raises(InvalidAction) as caught:
        Tile.parse("7-x")
    assert "'7-x'" in caught.value.message and "6-4" in caught.value.message


@pytest.mark.parametrize(("high", "low"), [(-1, 0), (3, 4), (19, 0), (19, 19)])
def test_an_impossible_tile_cannot_be_built_directly(high, low):
    with pytest.raises(InvalidAction, match="is not a domino tile"):
        Tile(high, low)


@pytest.mark.parametrize(
    ("text", "pips", "double"), [("6-4", 10, False), ("5-5", 10, True), ("0-0", 0, True)]
)
def test_pips_and_doubles(text, pips, double):
    tile = Tile.parse(text)
    assert tile.pips == pips
    assert tile.is_double is double


def test_the_other_half():
    tile = Tile.parse("6-4")
    assert tile.has(6) and tile.has(4) and not tile.has(5)
    assert tile.other(6) == 4 and tile.other(4) == 6
    assert Tile.parse("3-3").other(3) == 3
    with pytest.raises(ValueError, match="6-4 has no 5"):
        tile.other(5)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("6-4", "six-four"),
        ("4-6", "six-four"),
        ("5-5", "double five"),
        ("0-0", "double blank"),
        ("3-0", "three-blank"),
        ("12-10", "twelve-ten"),
        ("18-18", "double eighteen"),
    ],
)
def test_names_a_screen_reader_can_say(text, name):
    assert Tile.parse(text).name == name


@pytest.mark.parametrize(("top", "size"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_set_sizes(top, size):
    tiles = DominoSet(top).tiles
    assert len(tiles) == size
    assert len(set(tiles)) == size
    assert all(tile.high <= top for tile in tiles)
    assert sum(tile.is_double for tile in tiles) == top + 1


@pytest.mark.parametrize("top", [6, 9, 12])
def test_every_number_is_borne_by_n_plus_one_tiles(top):
    dominoes = DominoSet(top)
    for number in range(top + 1):
        bearing = dominoes.bearing(number)
        assert len(bearing) == top + 1
        assert len(set(bearing)) == top + 1
        assert all(tile.has(number) and tile in dominoes for tile in bearing)
        assert set(bearing) == {t for t in dominoes.tiles if t.has(number)}


def test_membership_and_check():
    six = DominoSet(6)
    assert Tile.parse("6-6") in six
    assert Tile.parse("7-0") not in six
    assert "6-6" not in six
    assert six.check(Tile.parse("6-1")) == Tile.parse("6-1")
    with pytest.raises(InvalidAction, match="9-9 is not in a double-6 set"):
        six.check(Tile.parse("9-9"))


@pytest.mark.parametrize("top", [0, 5, 7, 13, 19, -6])
def test_there_is_no_such_set(top):
    with pytest.raises(InvalidAction, match=f"There is no double-{top} set"):
        DominoSet(top)
