"""The line layout of RULES.md §2.1–2.2, one table of cases per rule id.

Moves are written the way a table says them: ``"6-3 on 6-6"``, ``"6-1 on 6-6 end"``;
a move without ``on`` is the lead.
"""

from __future__ import annotations

import pytest

from referee import IllegalAction, Layout, LayoutRules, Tile
from referee.layout import END, SIDE
from referee.rule_texts import RULE_TEXTS

T = Tile.parse


def move(layout: Layout, text: str) -> Layout:
    words = text.split()
    tile = T(words[0])
    on = T(words[2]) if len(words) > 2 else None
    face = words[3] if len(words) > 3 else None
    return layout.play(tile, on, face)


def build(moves: str = "", **rules) -> Layout:
    layout = Layout(LayoutRules(**rules))
    for text in filter(None, (m.strip() for m in moves.split(";"))):
        layout = move(layout, text)
    return layout


def refusal(layout: Layout, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        move(layout, text)
    error = caught.value
    assert error.rule in RULE_TEXTS, f"{error.rule} is not a rule id of RULES.md"
    assert error.message and (error.message[0].isupper() or error.message[0].isdigit())
    assert str(error) == f"{error.rule}: {error.message}"
    return error


def ends(layout: Layout) -> set[tuple[str, str, int]]:
    return {(str(end.on), end.face, end.shows) for end in layout.open_ends()}


# -- plays that stand: rules, moves, the count after them, the open ends -----------------------

LEGAL = [
    # line.lead
    ("line.lead any: a non-double leads", {}, "6-4", 10, {("6-4", SIDE, 6), ("6-4", SIDE, 4)}),
    ("line.lead any: a double leads", {}, "5-5", 10, {("5-5", SIDE, 5)}),
    ("line.lead double", {"opening": "double"}, "3-3", 6, {("3-3", SIDE, 3)}),
    # line.attach
    ("line.attach on the lead's high half", {}, "6-4; 6-3 on 6-4", 7,
     {("6-3", SIDE, 3), ("6-4", SIDE, 4)}),
    ("line.attach on the lead's low half", {}, "6-4; 4-1 on 6-4", 7,
     {("6-4", SIDE, 6), ("4-1", SIDE, 1)}),
    ("line.attach on both halves of the lead", {}, "6-4; 4-1 on 6-4; 6-2 on 6-4", 3,
     {("4-1", SIDE, 1), ("6-2", SIDE, 2)}),
    ("line.attach written low half first", {}, "6-4; 1-4 on 4-6", 7,
     {("6-4", SIDE, 6), ("4-1", SIDE, 1)}),
    ("line.attach along an arm", {}, "6-4; 4-1 on 6-4; 1-0 on 4-1; 6-0 on 6-4", 0,
     {("1-0", SIDE, 0), ("6-0", SIDE, 0)}),
    ("line.attach on a non-spinner double's two sides", {}, "6-6; 6-5 on 6-6; 6-1 on 6-6", 6,
     {("6-5", SIDE, 5), ("6-1", SIDE, 1)}),
    # line.crosswise
    ("line.crosswise a double at an arm's end shows 2n", {}, "6-4; 4-4 on 6-4", 14,
     {("6-4", SIDE, 6), ("4-4", SIDE, 4)}),
    ("line.crosswise its far side is the open end", {}, "6-4; 4-4 on 6-4; 4-2 on 4-4", 8,
     {("6-4", SIDE, 6), ("4-2", SIDE, 2)}),
    ("line.crosswise the lead double with one side covered", {}, "5-5; 5-3 on 5-5", 13,
     {("5-5", SIDE, 5), ("5-3", SIDE, 3)}),
    # line.spinner
    ("line.spinner none: a lead double has two sides", {"spinners": "none"}, "6-6", 12,
     {("6-6", SIDE, 6)}),
    ("line.spinner first: the lead double spins", {"spinners": "first", "sides_first": False},
     "6-6", 12, {("6-6", SIDE, 6), ("6-6", END, 6)}),
    ("line.spinner first: a later first double spins", {"spinners": "first", "sides_first": False},
     "6-4; 4-4 on 6-4", 14, {("6-4", SIDE, 6), ("4-4", SIDE, 4), ("4-4", END, 4)}),
    ("line.spinner first: the second double does not",
     {"spinners": "first", "sides_first": False}, "6-6; 6-3 on 6-6; 3-3 on 6-3", 18,
     {("6-6", SIDE, 6), ("6-6", END, 6), ("3-3", SIDE, 3)}),
    ("line.spinner all: every double spins", {"spinners": "all", "sides_first": False},
     "6-6; 6-3 on 6-6; 3-3 on 6-3", 18,
     {("6-6", SIDE, 6), ("6-6", END, 6), ("3-3", SIDE, 3), ("3-3", END, 3)}),
    ("line.spinner four arms leave a spinner", {"spinners": "first", "sides_first": False},
     "6-6; 6-5 on 6-6; 6-4 on 6-6; 6-3 on 6-6 end; 6-2 on 6-6 end", 14,
     {("6-5", SIDE, 5), ("6-4", SIDE, 4), ("6-3", SIDE, 3), ("6-2", SIDE, 2)}),
    # line.sides-first
    ("line.sides-first on: only the sides are open", {"spinners": "first"}, "6-6", 12,
     {("6-6", SIDE, 6)}),
    ("line.sides-first on: one side covered is not enough", {"spinners": "first"},
     "6-6; 6-5 on 6-6", 17, {("6-6", SIDE, 6), ("6-5", SIDE, 5)}),
    ("line.sides-first on: both sides covered opens the ends", {"spinners": "first"},
     "6-6; 6-5 on 6-6; 6-4 on 6-6", 9, {("6-6", END, 6), ("6-5", SIDE, 5), ("6-4", SIDE, 4)}),
    ("line.sides-first on: a non-lead spinner's far side first", {"spinners": "first"},
     "6-4; 4-4 on 6-4", 14, {("6-4", SIDE, 6), ("4-4", SIDE, 4)}),
    ("line.sides-first on: then its ends", {"spinners": "first"},
     "6-4; 4-4 on 6-4; 4-1 on 4-4; 4-2 on 4-4 end", 9,
     {("6-4", SIDE, 6), ("4-1", SIDE, 1), ("4-4", END, 4), ("4-2", SIDE, 2)}),
    ("line.sides-first off: an end at once", {"spinners": "first", "sides_first": False},
     "6-6; 6-3 on 6-6 end", 15, {("6-6", SIDE, 6), ("6-6", END, 6), ("6-3", SIDE, 3)}),
    # line.cross
    ("line.cross the lead double has four faces", {"opening": "cross"}, "6-6", 12,
     {("6-6", SIDE, 6), ("6-6", END, 6)}),
    ("line.cross an end before the sides", {"opening": "cross"}, "6-6; 6-1 on 6-6 end", 13,
     {("6-6", SIDE, 6), ("6-6", END, 6)}),
    ("line.cross complete: four ordinary arms", {"opening": "cross"},
     "6-6; 6-1 on 6-6 end; 6-5 on 6-6; 6-2 on 6-6 end; 6-4 on 6-6", 12,
     {("6-1", SIDE, 1), ("6-5", SIDE, 5), ("6-2", SIDE, 2), ("6-4", SIDE, 4)}),
    ("line.cross then arms grow", {"opening": "cross"},
     "6-6; 6-1 on 6-6 end; 6-5 on 6-6; 6-2 on 6-6 end; 6-4 on 6-6; 1-0 on 6-1", 11,
     {("1-0", SIDE, 0), ("6-5", SIDE, 5), ("6-2", SIDE, 2), ("6-4", SIDE, 4)}),
    # line.unlock
    ("line.unlock the lead double's number starts unlocked", {"unlock": True},
     "6-6; 6-3 on 6-6", 15, {("6-6", SIDE, 6), ("6-3", SIDE, 3)}),
    ("line.unlock a double may always be played", {"unlock": True},
     "6-6; 6-3 on 6-6; 3-3 on 6-3", 18, {("6-6", SIDE, 6), ("3-3", SIDE, 3)}),
    ("line.unlock once the double is down the number is open", {"unlock": True},
     "6-6; 6-3 on 6-6; 3-3 on 6-3; 3-1 on 3-3", 13, {("6-6", SIDE, 6), ("3-1", SIDE, 1)}),
    ("line.unlock a non-double lead's numbers open with their doubles", {"unlock": True},
     "6-4; 4-4 on 6-4; 4-1 on 4-4", 7, {("6-4", SIDE, 6), ("4-1", SIDE, 1)}),
    # line.count: blanks
    ("line.count a blank shows 0", {}, "6-0", 6, {("6-0", SIDE, 6), ("6-0", SIDE, 0)}),
    ("line.count double blank", {}, "0-0", 0, {("0-0", SIDE, 0)}),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "moves", "count", "open_ends"), [c[1:] for c in LEGAL],
                         ids=[c[0] for c in LEGAL])  # fmt: skip
def test_plays_that_stand(rules, moves, count, open_ends):
    layout = build(moves, **rules)
    assert layout.count == count
    assert ends(layout) == open_ends
    assert len(layout) == moves.count(";") + 1


# -- plays that are refused: rules, setup, the move, rule id, words the message must hold -----

ILLEGAL = [
    ("line.lead double refuses a non-double", {"opening": "double"}, "", "6-4", "line.lead",
     ["6-4", "must be a double"]),
    ("line.lead nothing to play on", {}, "", "6-4 on 6-6", "line.lead", ["6-4", "leads", "6-6"]),
    ("line.lead no face to name", {"spinners": "first"}, "", "6-6 on 6-6 end", "line.lead",
     ["6-6", "leads"]),
    ("line.attach does not fit, fits nowhere", {}, "6-4", "3-2 on 6-4", "line.attach",
     ["3-2", "does not fit on 6-4", "open ends show 4 and 6"]),
    ("line.attach does not fit here, fits there", {}, "6-6; 6-3 on 6-6", "6-2 on 6-3",
     "line.attach", ["6-2 does not fit on 6-3", "shows 3", "6-2 fits on 6-6"]),
    ("line.attach fits on two tiles", {}, "6-4; 4-1 on 6-4", "6-1 on 6-5", "line.attach",
     ["6-5 is not on the table", "6-1 fits on 6-4 or 4-1"]),
    ("line.attach the tile played on is not down", {}, "6-6", "5-0 on 5-5", "line.attach",
     ["5-5 is not on the table", "5-0 fits nowhere now: the open ends show 6"]),
    ("line.attach which tile it goes on", {}, "6-6", "6-3", "line.attach",
     ["Say which tile 6-3 is played on", "6-3 fits on 6-6"]),
    ("line.attach a covered tile has no face", {}, "6-6; 6-5 on 6-6; 6-4 on 6-6", "6-3 on 6-6",
     "line.attach", ["6-6 has no free face left", "6-3 fits nowhere now"]),
    ("line.attach a covered arm tile", {}, "6-4; 4-1 on 6-4", "4-3 on 6-4", "line.attach",
     ["4-3 does not fit on 6-4", "shows 6", "4-3 fits nowhere now: the open ends show 1 and 6"]),
    ("line.attach named side, sides covered", {"spinners": "first"},
     "6-6; 6-5 on 6-6; 6-4 on 6-6", "6-3 on 6-6 side", "line.attach",
     ["Both sides of 6-6 are covered", "6-3 fits on 6-6 (its end)"]),
    ("line.spinner none: no end on a double", {"spinners": "none"}, "6-6", "6-3 on 6-6 end",
     "line.spinner", ["6-6 is not a spinner", "6-3 fits on 6-6"]),
    ("line.spinner first: the second double has no end",
     {"spinners": "first", "sides_first": False}, "6-6; 6-3 on 6-6; 3-3 on 6-3",
     "3-1 on 3-3 end", "line.spinner", ["3-3 is not a spinner", "3-1 fits on 3-3"]),
    ("line.spinner a non-double has no end", {"spinners": "all"}, "6-4", "4-1 on 6-4 end",
     "line.spinner", ["6-4 is not a spinner", "4-1 fits on 6-4"]),
    ("line.spinner both ends used", {"spinners": "first", "sides_first": False},
     "6-6; 6-3 on 6-6 end; 6-2 on 6-6 end", "6-1 on 6-6 end", "line.spinner",
     ["6-6 has no free end", "6-1 fits on 6-6"]),
    ("line.sides-first on: no end before the sides", {"spinners": "first"}, "6-6",
     "6-3 on 6-6 end", "line.sides-first", ["ends of 6-6", "both its sides", "6-3 fits on 6-6"]),
    ("line.sides-first on: one side is not both", {"spinners": "first"}, "6-6; 6-5 on 6-6",
     "6-3 on 6-6 end", "line.sides-first", ["ends of 6-6", "6-3 fits on 6-6"]),
    ("line.sides-first on: a later spinner too", {"spinners": "first"}, "6-4; 4-4 on 6-4",
     "4-1 on 4-4 end", "line.sides-first", ["ends of 4-4", "4-1 fits on 4-4"]),
    ("line.cross the lead must be a double", {"opening": "cross"}, "", "6-4", "line.cross",
     ["6-4 is not a double"]),
    ("line.cross nothing but the lead's faces", {"opening": "cross"}, "6-6; 6-3 on 6-6",
     "3-2 on 6-3", "line.cross", ["cross on 6-6", "1 side and 2 ends still open"]),
    ("line.cross three faces in, still closed", {"opening": "cross"},
     "6-6; 6-3 on 6-6; 6-2 on 6-6 end; 6-1 on 6-6", "3-3 on 6-3", "line.cross",
     ["cross on 6-6", "1 end still open"]),
    ("line.unlock threes are locked", {"unlock": True}, "6-6; 6-3 on 6-6", "3-2 on 6-3",
     "line.unlock", ["Threes are locked until 3-3 is on the table", "only 3-3 can go on 6-3"]),
    ("line.unlock sixes of a non-double lead", {"unlock": True}, "6-4", "6-1 on 6-4",
     "line.unlock", ["Sixes are locked until 6-6 is on the table"]),
    ("line.unlock blanks", {"unlock": True}, "6-6; 6-0 on 6-6", "0-5 on 6-0", "line.unlock",
     ["Blanks are locked until 0-0 is on the table"]),
    ("set.unique the lead again", {}, "6-4", "6-4 on 6-4", "set.unique",
     ["6-4 is already on the table"]),
    ("set.unique written the other way", {}, "6-4; 4-1 on 6-4", "1-4 on 6-4", "set.unique",
     ["4-1 is already on the table"]),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "setup", "play", "rule", "words"), [c[1:] for c in ILLEGAL],
                         ids=[c[0] for c in ILLEGAL])  # fmt: skip
def test_plays_that_are_refused(rules, setup, play, rule, words):
    layout = build(setup, **rules)
    error = refusal(layout, play)
    assert error.rule == rule
    for word in words:
        assert word in error.message


@pytest.mark.parametrize("face", [SIDE, END])
def test_the_lead_goes_on_no_face(face):
    with pytest.raises(IllegalAction) as caught:
        Layout(LayoutRules(spinners="first")).play(T("6-6"), None, face)
    assert caught.value.rule == "line.lead"
    assert "6-6 leads" in caught.value.message


def test_a_refused_play_changes_nothing():
    layout = build("6-6; 6-3 on 6-6")
    before = (layout.placed, layout.count, ends(layout))
    refusal(layout, "5-0 on 6-3")
    assert (layout.placed, layout.count, ends(layout)) == before


# -- line.attach: faces, and the one definition of where a tile fits ---------------------------


def test_the_default_face_is_a_free_long_side():
    layout = build("6-6; 6-3 on 6-6", spinners="first", sides_first=False)
    assert layout.placed_of(T("6-3")).face == SIDE
    layout = move(layout, "6-2 on 6-6")
    assert layout.placed_of(T("6-2")).face == SIDE
    layout = move(layout, "6-1 on 6-6")  # both sides taken: the end is what is left
    assert layout.placed_of(T("6-1")).face == END


def test_with_sides_first_the_unnamed_face_after_the_sides_is_an_end():
    layout = build("6-6; 6-5 on 6-6; 6-4 on 6-6; 6-3 on 6-6", spinners="first")
    assert layout.placed_of(T("6-3")).face == END


@pytest.mark.parametrize(
    ("moves", "rules", "tile", "spots"),
    [
        ("6-4", {}, "4-1", [("6-4", SIDE)]),
        ("6-4", {}, "6-1", [("6-4", SIDE)]),
        ("6-4", {}, "5-1", []),
        ("6-4", {}, "6-4", []),
        ("6-4; 4-1 on 6-4", {}, "6-1", [("6-4", SIDE), ("4-1", SIDE)]),
        ("6-6", {"spinners": "first"}, "6-1", [("6-6", SIDE)]),
        ("6-6", {"spinners": "first", "sides_first": False}, "6-1", [("6-6", SIDE), ("6-6", END)]),
        ("6-6; 6-3 on 6-6", {"unlock": True}, "3-2", []),
        ("6-6; 6-3 on 6-6", {"unlock": True}, "3-3", [("6-3", SIDE)]),
        ("6-6; 6-3 on 6-6", {"opening": "cross"}, "3-3", []),
        ("6-6; 6-3 on 6-6", {"opening": "cross"}, "6-2", [("6-6", SIDE), ("6-6", END)]),
    ],
)
def test_attachments(moves, rules, tile, spots):
    layout = build(moves, **rules)
    assert [(str(on), face) for on, face in layout.attachments(T(tile))] == spots
    # every listed spot is a play that stands, with that face
    for on, face in layout.attachments(T(tile)):
        after = layout.play(T(tile), on, face)
        assert after.placed_of(T(tile)).face == face


# -- line.dead-end -------------------------------------------------------------------------------

ALL_SIXES_LINE = (
    "6-6; 6-5 on 6-6; 6-4 on 6-6; 5-3 on 6-5; 6-3 on 5-3; 6-1 on 6-3; 1-0 on 6-1; 6-0 on 1-0;"
    " 4-2 on 6-4"
)


def test_an_end_is_dead_when_every_tile_bearing_its_number_is_down():
    layout = build(ALL_SIXES_LINE)
    assert ends(layout) == {("6-0", SIDE, 6), ("4-2", SIDE, 2)}
    assert not layout.is_dead(6)  # 6-2 is still out
    assert not layout.is_blocked
    layout = move(layout, "6-2 on 4-2")
    assert ends(layout) == {("6-0", SIDE, 6), ("6-2", SIDE, 6)}
    assert layout.is_dead(6)
    assert all(end.dead for end in layout.open_ends())
    assert layout.is_blocked
    assert layout.where_it_fits(T("5-5")) == "5-5 fits nowhere now: the open ends show 6."


def test_one_dead_end_does_not_block():
    layout = build(
        "6-6; 6-5 on 6-6; 6-4 on 6-6; 6-3 on 6-6 end; 6-2 on 6-6 end; 5-1 on 6-5; 6-1 on 5-1;"
        " 4-0 on 6-4; 6-0 on 4-0",
        spinners="first",
    )
    dead = {(str(e.on), e.shows) for e in layout.open_ends() if e.dead}
    live = {(str(e.on), e.shows) for e in layout.open_ends() if not e.dead}
    assert dead == {("6-1", 6), ("6-0", 6)}
    assert live == {("6-3", 3), ("6-2", 2)}
    assert not layout.is_blocked


def test_a_dead_end_counts_the_set_in_play():
    # In a double-9 set the six-bearing tiles of a double-6 set are not all of them.
    six = build(ALL_SIXES_LINE + "; 6-2 on 4-2")
    nine = build(ALL_SIXES_LINE + "; 6-2 on 4-2", top=9)
    assert six.is_blocked and six.is_dead(6)
    assert not nine.is_blocked and not nine.is_dead(6)


def test_an_empty_table_is_not_blocked():
    assert not Layout().is_blocked
    assert Layout().count == 0
    assert Layout().open_ends() == ()


# -- line.count and line.count-spinner: RULES.md's worked examples ----------------------------


@pytest.mark.parametrize(
    ("rules", "moves", "count"),
    [
        ({}, "6-4", 10),  # the lead alone shows both halves
        ({}, "5-5", 10),
        ({"spinners": "first"}, "5-5", 10),  # All Fives: 5-5 alone
        ({"spinners": "first"}, "5-5; 5-0 on 5-5", 10),  # + 5-0 → 10 + 0
        ({"spinners": "first"}, "5-5; 5-0 on 5-5; 5-4 on 5-5", 4),  # + 5-4 → 0 + 4 (while-end)
        ({"spinners": "first"}, "5-5; 5-0 on 5-5; 5-4 on 5-5; 5-3 on 5-5", 7),  # an arm's end
        ({"spinners": "first", "spinner_count": "halves"}, "5-5", 10),
        ({"spinners": "first", "spinner_count": "halves"}, "5-5; 5-0 on 5-5; 5-4 on 5-5", 14),
        ({"spinners": "first", "spinner_count": "halves"},
         "5-5; 5-0 on 5-5; 5-4 on 5-5; 5-3 on 5-5", 12),
        ({"spinners": "first", "spinner_count": "halves"},
         "5-5; 5-0 on 5-5; 5-4 on 5-5; 5-3 on 5-5; 5-2 on 5-5", 9),  # all four faces used
        ({}, "6-6; 6-5 on 6-6; 6-4 on 6-6", 9),  # a covered non-spinner shows nothing
        ({"spinners": "first", "sides_first": False}, "6-6; 6-3 on 6-6 end", 15),
        ({"spinners": "first", "sides_first": False, "spinner_count": "halves"},
         "6-6; 6-3 on 6-6 end", 9),  # one half covered by its end
        ({"spinners": "first", "sides_first": False, "spinner_count": "halves"},
         "6-6; 6-3 on 6-6 end; 6-2 on 6-6 end", 5),  # halves: both ends covered, sides free
    ],
)  # fmt: skip
def test_the_count(rules, moves, count):
    assert build(moves, **rules).count == count


def test_the_dominards_example_counts_fourteen():
    # RULES.md line.count-spinner (S004): 6-6 leads and spins; 6-5 then 5-0 on one side;
    # 6-2 on the other; 6-3 on one end then 3-3 on it; the other end is free.
    layout = build(
        "6-6; 6-5 on 6-6; 5-0 on 6-5; 6-2 on 6-6; 6-3 on 6-6 end; 3-3 on 6-3",
        spinners="first", sides_first=True, spinner_count="halves", opening="double",
    )  # fmt: skip
    assert layout.count == 14  # 0 (end of 0-5) + 2 (end of 2-6) + 6 (3-3) + 6 (6-6's free half)
    shows = {str(p.tile): layout.shows(p) for p in layout.placed}
    assert shows == {"6-6": 6, "6-5": 0, "5-0": 0, "6-2": 2, "6-3": 0, "3-3": 6}
    # the same layout under while-end: the spinner's sides are covered, so it shows nothing
    layout = build(
        "6-6; 6-5 on 6-6; 5-0 on 6-5; 6-2 on 6-6; 6-3 on 6-6 end; 3-3 on 6-3", spinners="first"
    )
    assert layout.count == 8


# -- the layout as arms (what the table screen draws) -----------------------------------------


def test_arms_follow_each_face_of_the_lead_and_each_spinner_end():
    layout = build(
        "6-6; 6-5 on 6-6; 5-0 on 6-5; 6-2 on 6-6; 6-3 on 6-6 end; 3-3 on 6-3", spinners="first"
    )
    names = [
        (None if origin is None else str(layout.placed[origin].tile), face,
         [str(layout.placed[i].tile) for i in chain])
        for origin, face, chain in layout.arms()
    ]  # fmt: skip
    assert names == [
        (None, None, ["6-6"]),
        ("6-6", SIDE, ["6-5", "5-0"]),
        ("6-6", SIDE, ["6-2"]),
        ("6-6", END, ["6-3", "3-3"]),
    ]
    assert Layout().arms() == ()


def test_a_layout_is_immutable():
    first = build("6-4")
    second = move(first, "4-1 on 6-4")
    assert len(first) == 1 and len(second) == 2
    assert T("4-1") not in first and T("4-1") in second
    assert first.count == 10
