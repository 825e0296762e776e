"""Fixing the record (RULES.md §6–§7, MATCH_FORMAT.md): corrections, adjustments, abandoned
rounds and stopped matches, in every game.

A correction never edits the log: it is one more entry at the end of the round it fixes,
and the round as played is the log with every correction applied in order
(``correct.replay``). The documents below are small legal matches written as a table would
have recorded them; each correction is checked by replaying the whole document.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee import (
    PRESETS,
    DocumentError,
    IllegalAction,
    InvalidAction,
    RefereeError,
    Tally,
    Undo,
    export,
    line,
    parse_action,
    replay,
)
from referee.actions import (
    REMOVE,
    REPLACE,
    Abandon,
    Action,
    Adjust,
    Correct,
    Stop,
)
from referee.corrections import ABANDONED, STOPPED, as_played, misplay
from referee.document import RoundReplay, play_round, step
from referee.games import havoc
from tests.referee.test_havoc import document as havoc_document
from tests.referee.test_havoc import log as havoc_log
from tests.referee.test_havoc import new as havoc_new
from tests.referee.test_havoc import next_round as havoc_next_round
from tests.referee.test_havoc import race as havoc_race
from tests.referee.test_properties import games
from tests.referee.test_properties import play_round as honest_round

NAMES = ("Ana", "Ben", "Caro", "Dan")

# -- the actions, as a document writes them ---------------------------------------------------


def play(seat: int, tile: str, on: str | None = None) -> dict:
    return {"type": "play", "seat": seat, "tile": tile} | ({"on": on} if on else {})


def draw(seat: int, count: int = 1) -> dict:
    return {"type": "draw", "seat": seat, "count": count}


def knock(seat: int) -> dict:
    return {"type": "pass", "seat": seat}


def pips(**by_seat: int) -> dict:
    """``pips(s0=12, s1=52)``: a tally by pip totals."""
    return {"type": "tally", "pips": {k.removeprefix("s"): v for k, v in by_seat.items()}}


def hands(**by_seat: list[str]) -> dict:
    """``hands(s1=["6-6"])``: a tally by tiles (a seat that played out says nothing)."""
    return {"type": "tally", "hands": {k.removeprefix("s"): v for k, v in by_seat.items()}}


def roll(seat: int, *dice: int) -> dict:
    return {"type": "roll", "seat": seat, "dice": list(dice)}


def take(seat: int, tile: str) -> dict:
    return {"type": "take", "seat": seat, "tile": tile, "from": "pool"}


def load(seat: int, tile: str, *cells: tuple[int, int]) -> dict:
    return {"type": "load", "seat": seat, "tile": tile, "cells": [list(c) for c in cells]}


def adjust(
    seat: int, points: object, reason: object = "overdrew: the table agreed a penalty"
) -> dict:
    return {"type": "adjust", "seat": seat, "points": points, "reason": reason}


def correct(at: int, replace: dict | None = None, remove: bool = False,
            insert: dict | None = None, **extra: Any) -> dict:  # fmt: skip
    out: dict[str, Any] = {"type": "correct", "at": at}
    if replace is not None:
        out["replace"] = replace
    if remove:
        out["remove"] = True
    if insert is not None:
        out["insert"] = insert
    return out | extra


UNDO = {"type": "undo"}
ABANDON = {"type": "abandon"}
STOP = {"type": "stop"}


def document(game: str, rounds: Sequence[Sequence[dict]], players: int = 2, **options) -> dict:
    return {
        "format": "boneyard-match/1",
        "game": game,
        "options": options,
        "players": list(NAMES[:players]),
        "rounds": [{"actions": list(actions)} for actions in rounds],
    }


def appended(doc: dict, number: int, *entries: dict) -> dict:
    """``doc`` with ``entries`` recorded at the end of round ``number`` (from 1)."""
    out = copy.deepcopy(doc)
    out["rounds"][number - 1]["actions"] += copy.deepcopy(list(entries))
    return out


def refused(doc: dict) -> DocumentError:
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    return caught.value


def where(error: DocumentError) -> tuple[int | None, int | None, str | None]:
    return error.round, error.action, error.rule


def outcome(doc: dict) -> tuple[tuple[int, ...], int | None, bool]:
    match = replay(doc)
    return match.totals, match.winner, match.over


# -- 1. Parsing: every new action reads back as written ---------------------------------------

LINE_PLAY = {"type": "play", "seat": 1, "tile": "6-5", "on": "6-6"}
TRUCK_LOAD = {"type": "load", "seat": 0, "tile": "5-3", "cells": [[0, 0], [0, 1]]}
HAVOC_TRAIN = {"type": "train", "seat": 2, "tile": "5-8"}


def table_entries(inner: dict) -> list[dict]:
    """Every shape of the table's entries about its record, correcting ``inner``."""
    return [
        {"type": "correct", "at": 3, "replace": inner},
        {"type": "correct", "at": 0, "remove": True},
        {"type": "correct", "at": 12, "insert": inner, "reason": "the tile was 6-4", "seat": 2},
        {"type": "correct", "at": 1, "remove": True, "reason": "tapped twice"},
        {"type": "correct", "at": 2, "insert": adjust(1, -5), "seat": 0},
        {"type": "correct", "at": 2, "replace": {"type": "undo"}},
        {"type": "adjust", "seat": 0, "points": 15, "reason": "settled by hand"},
        {"type": "adjust", "seat": 3, "points": -10_000, "reason": "procedure.overdraw penalty"},
        {"type": "abandon"},
        {"type": "abandon", "reason": "the tiles were misdealt"},
        {"type": "stop"},
        {"type": "stop", "reason": "time is up"},
        {"type": "stop", "abandoned": True},
        {"type": "stop", "abandoned": True, "reason": "the café closed"},
    ]


PARSED = [
    (family, entry)
    for family, inner in (("line", LINE_PLAY), ("truck", TRUCK_LOAD), ("havoc", HAVOC_TRAIN))
    for entry in table_entries(inner)
]


@pytest.mark.parametrize(("family", "entry"), PARSED)
def test_every_table_entry_reads_back_as_written(family, entry):
    parsed = parse_action(entry, family)
    assert parsed.to_dict() == entry
    assert parse_action(parsed.to_dict(), family) == parsed


def test_table_entries_read_as_typed_values():
    fix = parse_action({"type": "correct", "at": "3", "insert": LINE_PLAY, "seat": "1"})
    assert isinstance(fix, Correct) and (fix.at, fix.change, fix.seat) == (3, "insert", 1)
    assert fix.action == parse_action(LINE_PLAY)
    assert parse_action({"type": "correct", "at": 0, "remove": True}).action is None
    assert parse_action(adjust(0, "-5")) == Adjust(0, -5, "overdrew: the table agreed a penalty")
    assert parse_action(ABANDON) == Abandon() and parse_action(STOP) == Stop()
    assert parse_action({"type": "stop", "abandoned": False}).to_dict() == STOP
    # A reason is one line in the table's words: runs of white space read as one space.
    said = parse_action({"type": "abandon", "reason": "  misdealt:\n\tseven  tiles  "})
    assert said == Abandon("misdealt: seven tiles")
    # Computed points on an adjustment are its own field, not the export's: they stay.
    assert parse_action({**adjust(1, 7), "points": 7}).points == 7


MALFORMED = [
    # (family, entry, words in the refusal)
    ("line", {"type": "adjust", "seat": 0, "points": 5}, "reason"),
    ("line", adjust(0, 5, ""), "reason"),
    ("line", adjust(0, 5, "   \n "), "reason"),
    ("line", adjust(0, 5, 42), "reason"),
    ("line", {"type": "adjust", "seat": 0, "reason": "why"}, "points"),
    ("line", {"type": "adjust", "points": 5, "reason": "why"}, "seat"),
    ("line", adjust(0, 0), "0 points"),
    ("line", adjust(0, "0"), "0 points"),
    ("line", adjust(0, 2.5), "number of points"),
    ("line", adjust(0, "five"), "number of points"),
    ("line", adjust(0, True), "number of points"),
    ("line", adjust(0, None), "number of points"),
    ("line", adjust(0, 10_001), "number of points"),
    ("line", adjust(-1, 5), "seat"),
    ("truck", adjust(0, 0), "0 points"),
    ("havoc", adjust(0, 1.0), "number of points"),
    ("line", {**adjust(0, 5), "note": "x"}, "no field"),
    ("line", {"type": "correct", "at": 1}, "one of replace, remove or insert"),
    ("line", {"type": "correct", "at": 1, "remove": True, "replace": LINE_PLAY}, "one of"),
    ("line", {"type": "correct", "at": 1, "insert": LINE_PLAY, "replace": LINE_PLAY}, "one of"),
    ("truck", {"type": "correct", "at": 1, "remove": True, "insert": TRUCK_LOAD}, "one of"),
    ("line", {"type": "correct", "remove": True}, "needs at"),
    ("line", {"type": "correct", "at": -1, "remove": True}, "entry"),
    ("line", {"type": "correct", "at": "two", "remove": True}, "entry"),
    ("line", {"type": "correct", "at": 1.5, "remove": True}, "entry"),
    ("line", {"type": "correct", "at": 1, "remove": False}, "remove is true"),
    ("line", {"type": "correct", "at": 1, "remove": "yes"}, "remove is true"),
    ("line", {"type": "correct", "at": 1, "remove": 1}, "remove is true"),
    ("line", correct(1, replace=correct(0, remove=True)), "not another correction"),
    ("havoc", correct(1, insert=correct(0, remove=True)), "not another correction"),
    ("line", correct(1, replace=TRUCK_LOAD), "Unknown action type"),  # another game's action
    ("truck", correct(1, replace=LINE_PLAY), "Unknown action type"),
    ("line", correct(1, replace="play 6-5"), "must be an object"),
    ("line", correct(1, replace={"type": "play", "seat": 0, "tile": "6-x"}), "not a tile"),
    ("line", correct(1, remove=True, seat=-1), "seat"),
    ("line", correct(1, remove=True, who=0), "no field"),
    ("line", correct(1, remove=True, reason="x" * 201), "at most 200"),
    ("line", correct(1, remove=True, reason=["tapped twice"]), "A reason is text"),
    ("line", adjust(0, 5, "y" * 201), "at most 200"),
    ("line", adjust(0, 5, "penalty\x00"), "letters, digits and punctuation"),
    ("truck", {"type": "abandon", "reason": "bell\x07"}, "letters, digits and punctuation"),
    ("havoc", {"type": "stop", "reason": "\x1b[31mred"}, "letters, digits and punctuation"),
    ("line", {"type": "stop", "reason": "left\u202eright"}, "letters, digits and punctuation"),
    ("line", {"type": "abandon", "reason": "z" * 201}, "at most 200"),
    ("line", {"type": "abandon", "seat": 0}, "no field"),
    ("line", {"type": "stop", "abandoned": "yes"}, "true or false"),
    ("line", {"type": "stop", "abandoned": 1}, "true or false"),
    ("truck", {"type": "stop", "abandoned": None}, "true or false"),
    ("havoc", {"type": "stop", "abandoned": "false"}, "true or false"),
    ("line", {"type": "stop", "seat": 0}, "no field"),
]


@pytest.mark.parametrize(("family", "entry", "words"), MALFORMED)
def test_malformed_table_entries_are_invalid(family, entry, words):
    with pytest.raises(InvalidAction) as caught:
        parse_action(entry, family)
    assert not isinstance(caught.value, IllegalAction)
    assert words in caught.value.message


def test_a_reason_of_exactly_200_characters_is_read():
    assert len(parse_action(adjust(0, 5, "r" * 200)).reason) == 200  # type: ignore[attr-defined]


def test_a_malformed_correction_in_a_document_names_its_round_and_entry():
    doc = appended(BLOCK_FINISHED, 1, {"type": "correct", "at": 1, "remove": False})
    error = refused(doc)
    assert (error.round, error.action, error.rule) == (1, 6, None)
    assert "remove is true" in str(error)


# -- 2. A correction in every game: the table of cases ----------------------------------------

# Block to 50: Ana leads 6-6, Ben plays 6-5, both knock, and Ana wins the match on pips.
BLOCK_FINISHED = document(
    "block", [[play(0, "6-6"), play(1, "6-5", "6-6"), knock(0), knock(1), pips(s0=12, s1=52)]],
    target=50,
)  # fmt: skip

# Draw, three tiles each, two rounds: Ben dominoes both.
DRAW_ROUND_1 = [
    play(0, "6-6"), play(1, "6-5", "6-6"), draw(0), play(0, "6-4", "6-6"),
    play(1, "5-5", "6-5"), play(0, "4-4", "6-4"), play(1, "5-3", "5-5"), hands(s0=["2-1"]),
]  # fmt: skip
DRAW_ROUND_2 = [
    play(1, "4-4"), play(0, "4-2", "4-4"), play(1, "4-1", "4-4"), play(0, "2-2", "4-2"),
    play(1, "1-1", "4-1"), hands(s0=["3-0"]),
]  # fmt: skip
DRAW_TWO_ROUNDS = document("draw", [DRAW_ROUND_1, DRAW_ROUND_2], hand_size=3)

# All Fives, three tiles each: 5-5 scores 10, 5-0 on it 10; Ana plays out, Ben holds 6-6
# (12, rounded to 10).
ALL_FIVES = document(
    "all-fives",
    [[play(0, "5-5"), play(1, "5-0", "5-5"), play(0, "5-4", "5-5"), play(1, "4-1", "5-4"),
      play(0, "6-0", "5-0"), hands(s1=["6-6"])]],
    hand_size=3,
)  # fmt: skip

# Muggins: Ana declares her 10, Ben forgets his and Ana takes it.
MUGGINS = document(
    "muggins",
    [[play(0, "5-5"), {"type": "declare", "seat": 0, "points": 10}, play(1, "5-0", "5-5"),
      {"type": "muggins", "seat": 0}, play(0, "5-4", "5-5")]],
    hand_size=3,
)  # fmt: skip

# Fives and Threes (pub), two rounds; the second is led by the seat left of the first's leader.
# Pub rounds are not tallied: the tile that chips out scores its point (threes.chip-out).
THREES_ROUND_1 = [
    play(0, "3-3"), play(1, "3-0", "3-3"), play(0, "3-1", "3-3"), play(1, "1-1", "3-1"),
    play(0, "0-0", "3-0"),
]  # fmt: skip
THREES_ROUND_2 = [
    play(1, "6-6"), play(0, "6-3", "6-6"), play(1, "6-0", "6-6"), play(0, "3-3", "6-3"),
    play(1, "0-0", "6-0"),
]  # fmt: skip
THREES_TWO_ROUNDS = document("fives-and-threes", [THREES_ROUND_1, THREES_ROUND_2], hand_size=3)

# Cross: the lead double and four tiles on its faces; Ben's draw was tapped by mistake.
CROSS = document(
    "cross",
    [[play(0, "6-6"), play(1, "6-5", "6-6"), play(0, "6-4", "6-6"), draw(1),
      play(1, "6-3", "6-6"), play(0, "6-2", "6-6"), hands(s1=["3-3", "2-1"])]],
    hand_size=3,
)  # fmt: skip

# Cross with spinners to 50, fourteen tiles each (nothing to draw): a blocked round ends it.
CROSS_SPINNERS_FINISHED = document(
    "cross-spinners",
    [[play(0, "6-6"), play(1, "6-5", "6-6"), play(0, "6-4", "6-6"), play(1, "6-3", "6-6"),
      play(0, "6-2", "6-6"), knock(1), knock(0), pips(s0=50, s1=68)]],
    hand_size=14, target=50,
)  # fmt: skip

# Doubles: 6 is open from the lead, 5 once 5-5 is down.
DOUBLES = document(
    "doubles",
    [[play(0, "6-6"), play(1, "6-5", "6-6"), play(0, "6-4", "6-6"), play(1, "5-5", "6-5"),
      play(0, "6-3", "6-6"), hands(s1=["2-1"])]],
    hand_size=3,
)  # fmt: skip

# Dominards: Ana rolls 1+1 (multiples of 2), leads 6-6 (total 12); 17 and 21 miss; Ben rolls.
DOMINARDS = document(
    "dominards",
    [[roll(0, 1, 1), play(0, "6-6"), play(1, "6-5", "6-6"), play(0, "6-4", "6-6"),
      roll(1, 2, 3), play(1, "5-5", "6-5")]],
)  # fmt: skip

# Dump Truck: Ana loads 1-1 and 1-0 in a row (a like chain 1-1-1), Ben 2-2 and 3-2; Ana
# unloads for 3 and the table stops the game.
TRUCK_STOPPED = document(
    "dump-truck",
    [[take(0, "1-1"), load(0, "1-1", (0, 0), (0, 1)),
      take(1, "2-2"), load(1, "2-2", (0, 0), (0, 1)),
      take(0, "1-0"), load(0, "1-0", (0, 2), (0, 3)),
      take(1, "3-2"), load(1, "3-2", (0, 3), (0, 2)),
      {"type": "unload", "seat": 0}, STOP]],
)  # fmt: skip


# Mexican Train, one round of double-9: Ana places 9-9 and plays out; Ben's last tile was
# the double blank, which counts 50 (train.score), not the 6-6 first tallied.
MEXICAN_TRAIN = document(
    "mexican-train",
    [[{"type": "engine", "seat": 0, "tile": "9-9"},
      {"type": "play", "seat": 1, "tile": "9-5", "train": 1},
      {"type": "play", "seat": 0, "tile": "9-3", "train": 0},
      {"type": "play", "seat": 1, "tile": "5-1", "train": 1},
      {"type": "play", "seat": 0, "tile": "3-2", "train": 0}, hands(s1=["6-6"])]],
    set=9, hand_size=3,
)  # fmt: skip
MEXICAN_TRAIN["options"]["rounds"] = 1  # (document's own parameter is named rounds)


# Chicken Foot, one round of double-9 with a root of four arms: Ana plays out; Ben's last
# tile was the double blank (50, foot.score), not the 6-6 first tallied.
CHICKEN_FOOT = document(
    "chicken-foot",
    [[{"type": "engine", "seat": 0, "tile": "9-9"},
      *({"type": "play", "seat": seat, "tile": tile, "on": on} for seat, tile, on in (
          (1, "9-1", "9-9"), (0, "9-2", "9-9"), (1, "9-3", "9-9"), (0, "9-4", "9-9"),
          (1, "5-1", "9-1"), (0, "6-2", "9-2"), (1, "7-3", "9-3"), (0, "8-4", "9-4"))),
      hands(s1=["6-6"])]],
    hand_size=5, root_arms=4,
)  # fmt: skip
CHICKEN_FOOT["options"]["rounds"] = 1


def _havoc_two_rounds() -> dict:
    first = havoc.apply(havoc_race(havoc_new(2, rounds=2), winner=0), Tally(pips=((1, 10),)))
    second = havoc.apply(havoc_race(havoc_next_round(first), winner=1), Tally(pips=((0, 15),)))
    doc = havoc_document({"rounds": 2}, NAMES[:2], [havoc_log(first), havoc_log(second)])
    assert doc["rounds"][0]["actions"][-1] == pips(s1=10)
    return doc


HAVOC_TWO_ROUNDS = _havoc_two_rounds()
HAVOC_TALLY = len(HAVOC_TWO_ROUNDS["rounds"][0]["actions"]) - 1

CASES = [
    # (document, round corrected, its corrections, (totals, winner, over) before and after)
    pytest.param(
        BLOCK_FINISHED, 1, [correct(3, remove=True), correct(4, remove=True)],
        ((52, 0), 0, True), ((0, 0), None, False),
        id="block-finished-knock-and-tally-removed-reopens-the-match",
    ),
    pytest.param(
        DRAW_TWO_ROUNDS, 1,
        [correct(2, insert=draw(0)), correct(7, replace=hands(s0=["2-1", "1-0"]))],
        ((0, 6), None, False), ((0, 7), None, False),
        id="draw-round-1-of-2-a-forgotten-draw-inserted",
    ),
    pytest.param(
        ALL_FIVES, 1, [correct(4, replace=play(0, "4-0", "5-0"))],
        ((20, 10), None, False), ((25, 10), None, False),
        id="all-fives-the-last-tile-was-4-0-and-scores-5",
    ),
    pytest.param(
        MUGGINS, 1,
        [correct(3, insert={"type": "declare", "seat": 1, "points": 10}), correct(3, remove=True)],
        ((20, 0), None, False), ((10, 10), None, False),
        id="muggins-ben-had-declared-so-the-call-goes",
    ),
    pytest.param(
        THREES_TWO_ROUNDS, 1, [correct(4, replace=play(0, "4-0", "3-0"))],
        ((13, 10), None, False), ((15, 10), None, False),
        id="fives-and-threes-round-1-of-2-a-play-replaced",
    ),
    pytest.param(
        CROSS, 1, [correct(3, remove=True), correct(6, replace=hands(s1=["3-3"]))],
        ((9, 0), None, False), ((6, 0), None, False),
        id="cross-a-draw-tapped-by-mistake-removed",
    ),
    pytest.param(
        CROSS_SPINNERS_FINISHED, 1, [correct(7, replace=pips(s0=68, s1=50))],
        ((68, 0), 0, True), ((0, 68), 1, True),
        id="cross-spinners-finished-the-tally-replaced-changes-the-winner",
    ),
    pytest.param(
        DOUBLES, 1, [correct(3, insert=draw(1)), correct(5, replace=hands(s1=["2-1", "1-0"]))],
        ((3, 0), None, False), ((4, 0), None, False),
        id="doubles-a-forgotten-draw-inserted",
    ),
    pytest.param(
        DOMINARDS, 1, [correct(0, replace=roll(0, 3, 4))],
        ((12, 0), None, False), ((21, 0), None, False),
        id="dominards-the-roll-was-3-4-so-21-scores-not-12",
    ),
    pytest.param(
        TRUCK_STOPPED, 1, [correct(5, replace=load(0, "1-0", (0, 3), (0, 2)))],
        ((3, 0), 0, True), ((0, 0), None, True),
        id="dump-truck-stopped-the-load-was-turned-round-so-no-chain",
    ),
    pytest.param(
        MEXICAN_TRAIN, 1, [correct(5, replace=hands(s1=["0-0"]))],
        ((0, 12), 0, True), ((0, 50), 0, True),
        id="mexican-train-finished-the-last-tile-was-the-double-blank",
    ),
    pytest.param(
        CHICKEN_FOOT, 1, [correct(9, replace=hands(s1=["0-0"]))],
        ((0, 12), 0, True), ((0, 50), 0, True),
        id="chicken-foot-finished-the-last-tile-was-the-double-blank",
    ),
    pytest.param(
        HAVOC_TWO_ROUNDS, 1, [correct(HAVOC_TALLY, replace=pips(s1=20))],
        ((15, 10), 1, True), ((15, 20), 0, True),
        id="havoc-finished-round-1-of-2-the-tally-replaced-changes-the-winner",
    ),
    # Dominó (parejas.*): a score-pad hand whose tally was entered the wrong way round: Ben,
    # not Ana, played out. Puerto Rico counts all three other hands and pays the first hand
    # 100 more.
    *(
        pytest.param(
            document(style, [[pips(s0=0, s1=10, s2=5, s3=3)]], players=4, record="scores"),
            1, [correct(0, replace=pips(s0=4, s1=0, s2=5, s3=3))],
            ((18 + 100, 0, 0, 0), None, False) if style == "domino-puerto-rican"
            else ((13, 0, 0, 0), None, False),
            ((0, 12 + 100, 0, 0), None, False) if style == "domino-puerto-rican"
            else ((0, 9, 0, 0), None, False),
            id=f"{style}-pad-tally-replaced-the-other-pair-won",
        )
        for style in (
            "domino-international", "domino-dominican", "domino-puerto-rican", "domino-cuban",
            "domino-venezuelan", "domino-spanish",
        )
    ),
]  # fmt: skip


@pytest.mark.parametrize(("doc", "number", "fixes", "before", "after"), CASES)
def test_a_correction_replays_the_match_and_recomputes_totals_and_winner(
    doc, number, fixes, before, after
):
    assert outcome(doc) == before
    recorded = doc["rounds"][number - 1]["actions"]
    fixed = appended(doc, number, *fixes)
    assert outcome(fixed) == after
    match = replay(fixed)
    corrected = match.rounds[number - 1]
    # correct.audit: the log keeps every original entry and each correction after them.
    assert [e.to_dict() for e in corrected.entries] == [
        parse_action(e, PRESETS[doc["game"]].family).to_dict() for e in recorded + fixes
    ]
    assert all(isinstance(e, Correct) for e in corrected.entries[len(recorded) :])
    assert corrected.corrected() == {f["at"] for f in fixes if "insert" not in f}
    assert len(corrected.origins) == len(corrected.actions)
    # What each entry changed adds up to the round's scores, corrections included.
    assert _summed(corrected.entry_points) == corrected.state.scores
    # An export carries the corrections, and an import replays them to the same export.
    out = export(match)
    assert [a["type"] for a in out["rounds"][number - 1]["actions"][-len(fixes) :]] == [
        "correct"
    ] * len(fixes)
    assert export(replay(out)) == out
    assert out["winner"] == after[1]


def _summed(points: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    return tuple(map(sum, zip(*points, strict=True)))


def test_the_cases_cover_every_game_and_every_kind_of_correction():
    games_fixed = {case.values[0]["game"] for case in CASES}
    assert games_fixed == set(PRESETS)
    assert "cross-spinners" in PRESETS  # the preset's slug, as MATCH_FORMAT.md spells it
    kinds = {
        k for case in CASES for fix in case.values[2] for k in fix if k != "at" and k != "type"
    }
    assert kinds == {"replace", "remove", "insert"}
    assert any(case.values[1] < len(case.values[0]["rounds"]) for case in CASES)  # earlier round
    assert any(case.values[3][2] for case in CASES)  # a finished match


def test_a_correction_moves_the_points_to_the_correction_and_keeps_the_entry():
    match = replay(appended(ALL_FIVES, 1, correct(4, replace=play(0, "4-0", "5-0"))))
    played = match.rounds[0]
    assert played.entries[4] == parse_action(play(0, "6-0", "5-0"))  # recorded, kept
    assert played.actions[4] == parse_action(play(0, "4-0", "5-0"))  # really played
    assert played.origins == (0, 1, 2, 3, 6, 5)
    assert played.entry_points[4] == (0, 0) and played.entry_points[6] == (5, 0)
    out = export(match)["rounds"][0]["actions"]
    assert "points" not in out[4] and out[6] == {
        "type": "correct", "at": 4, "replace": play(0, "4-0", "5-0"), "points": {"0": 5}
    }  # fmt: skip


def test_corrections_apply_in_the_order_recorded():
    # The tally is replaced twice: the second correction fixes what the first one put there.
    first, second = pips(s0=52, s1=12), pips(s0=30, s1=12)
    twice = appended(BLOCK_FINISHED, 1, correct(4, replace=first), correct(4, replace=second))
    assert outcome(twice) == ((0, 30), None, False)
    # Two inserts before one entry keep their order.
    log = (knock(1), correct(0, insert=play(0, "6-6")), correct(0, insert=play(1, "6-5", "6-6")))
    actions, origins = as_played([parse_action(e) for e in log])
    assert [a.to_dict() for a in actions] == [play(0, "6-6"), play(1, "6-5", "6-6"), knock(1)]
    assert origins == (1, 2, 0)


def test_a_correction_of_an_earlier_round_replays_the_rounds_after_it():
    # Round 2 is led by the seat left of round 1's leader (threes.target): the replay follows.
    fixed = appended(THREES_TWO_ROUNDS, 1, correct(4, replace=play(0, "4-0", "3-0")))
    match = replay(fixed)
    assert [r.state.result.points for r in match.rounds] == [(5, 2), (10, 8)]
    assert match.rounds[1].state.base == (5, 2) and match.rounds[1].state.led_by == 1


# -- 3. A correction that makes a later action illegal ----------------------------------------


def test_a_correction_that_makes_a_later_play_illegal_is_refused_with_that_play():
    # Ben's 3-0 was really 3-2: Ana's 0-0 on 3-0 (entry 5) no longer has a tile to go on.
    fix = correct(1, replace=play(1, "3-2", "3-3"))
    error = refused(appended(THREES_TWO_ROUNDS, 1, fix))
    assert where(error) == (1, 5, "line.attach")
    assert str(error).startswith("round 1, action 5: line.attach: ")
    # A table corrects in one go: the same correction with the later play fixed is accepted.
    both = appended(THREES_TWO_ROUNDS, 1, fix, correct(4, replace=play(0, "2-2", "3-2")))
    # 3-3 (2), 3-2 (nothing), 3-1 (3: 1), 1-1 (4), 2-2 on 3-2 (6: 2), Ana chips out (1).
    match = replay(both)
    assert match.rounds[0].state.result.points == (6, 0)
    assert match.totals == (16, 8)


def test_a_correction_that_ends_the_round_early_must_also_fix_what_followed():
    # Ana never drew: her 4-4 was her last tile, so Ben's 5-3 came after the round ended.
    fix = correct(2, remove=True)
    error = refused(appended(DRAW_TWO_ROUNDS, 1, fix))
    assert where(error) == (1, 7, "end.domino")
    # Removing Ben's play too leaves the tally, which no longer matches the hands.
    error = refused(appended(DRAW_TWO_ROUNDS, 1, fix, correct(6, remove=True)))
    assert where(error) == (1, 8, "tally.hands")  # it declares Ana's tile, not Ben's
    fixed = appended(
        DRAW_TWO_ROUNDS, 1, fix, correct(6, remove=True), correct(7, replace=hands(s1=["5-3"]))
    )
    assert outcome(fixed) == ((8, 3), None, False)


def test_the_failing_entry_is_numbered_as_recorded_not_as_played():
    # An inserted draw comes before the tally as played, but the tally is still entry 8.
    error = refused(appended(DRAW_TWO_ROUNDS, 1, correct(2, insert=draw(0))))
    assert where(error) == (1, 8, "hand.count")
    # An inserted action that is illegal is named by the correction that brought it.
    error = refused(appended(DRAW_TWO_ROUNDS, 1, correct(2, insert=knock(0))))
    assert where(error) == (1, 9, "draw.must-draw")


def test_a_correction_that_ends_the_match_earlier_refuses_the_rounds_after_it():
    first = [play(0, "6-6"), play(1, "6-5", "6-6"), knock(0), knock(1), pips(s0=12, s1=30)]
    second = [play(0, "6-6"), play(1, "6-5", "6-6"), knock(0), knock(1), pips(s0=12, s1=30)]
    doc = document("block", [first, second], target=50)
    assert outcome(doc) == ((60, 0), 0, True)
    error = refused(appended(doc, 1, correct(4, replace=pips(s0=12, s1=52))))
    assert where(error) == (2, 1, "block.score")
    assert "The match is over: Ana reached 52" in str(error)


# -- 4. Refusals of a correction's target -----------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "action", "words"),
    [
        ([correct(5, remove=True)], 6, "entry 6 is not one of them"),
        ([correct(9, replace=knock(0))], 6, "entry 10 is not one of them"),
        ([correct(6, insert=knock(0)), correct(0, remove=True)], 6, "entry 7"),
        ([correct(4, replace=pips(s0=52, s1=12)), correct(5, remove=True)], 7,
         "Entry 6 is itself a correction; correct the entry it fixed (entry 5)"),
        ([correct(4, replace=pips(s0=52, s1=12)), correct(5, replace=pips(s0=1, s1=2))], 7,
         "itself a correction"),
        ([correct(4, remove=True), correct(4, replace=pips(s0=52, s1=12))], 7,
         "Entry 5 was removed by an earlier correction"),
        ([correct(4, remove=True), correct(4, remove=True)], 7, "nothing left there to correct"),
    ],
)  # fmt: skip
def test_a_correction_must_name_an_entry_recorded_before_it_that_is_still_there(
    entries, action, words
):
    error = refused(appended(BLOCK_FINISHED, 1, *entries))
    assert where(error) == (1, action, "correct.record")
    assert words in error.why


def test_a_correction_alone_in_a_round_has_nothing_to_correct():
    doc = appended(BLOCK_FINISHED, 1)
    doc["rounds"].append({"actions": [correct(0, remove=True)]})
    doc["options"] = {"target": 100}
    assert where(refused(doc)) == (2, 1, "correct.record")


def test_an_entry_removed_may_still_have_a_missing_one_inserted_before_it():
    # Remove the tally, then insert the true one where it stood: as good as a replace.
    doc = appended(
        BLOCK_FINISHED, 1, correct(4, remove=True), correct(4, insert=pips(s0=52, s1=12))
    )
    assert outcome(doc) == ((0, 52), 1, True)


def test_a_correction_is_refused_before_anything_of_its_round_is_replayed():
    # The round's first action is illegal too, but the bad target is what the table hears.
    doc = document("block", [[play(0, "6-6"), play(0, "6-5", "6-6"), correct(2, remove=True)]])
    assert where(refused(doc)) == (1, 3, "correct.record")


def test_played_wrong_is_a_misplay_not_a_correction():
    inside = misplay(3, undoable=True)
    assert inside.rule == "procedure.misplay" and "Entry 4" in inside.message
    assert "Undo" in inside.message
    after = misplay(3, undoable=False)
    assert after.rule == "procedure.misplay" and "entry 4 stays" in after.message
    assert "recorded wrong" in after.message


# -- 5. adjust, abandon, stop -------------------------------------------------------------------

BLOCK_OPEN = [play(0, "6-6"), play(1, "6-5", "6-6"), knock(0)]


def test_an_adjustment_counts_in_the_totals_and_the_export():
    doc = document("block", [BLOCK_OPEN + [adjust(1, -5), knock(1), pips(s0=12, s1=30)]])
    match = replay(doc)
    assert match.totals == (30, -5) and match.rounds[0].state.result.points == (30, -5)
    entries = export(match)["rounds"][0]["actions"]
    assert entries[3] == adjust(1, -5)  # its own points are what it changed
    assert _summed(match.rounds[0].entry_points) == match.totals


def test_an_adjustment_alone_never_ends_the_match_but_counts_when_the_round_does():
    # Ben is given 60 in a match to 50; Ana wins the round, but the tally finds Ben ahead.
    doc = document("block", [BLOCK_OPEN + [adjust(1, 60, "settled by hand")]], target=50)
    match = replay(doc)
    assert match.totals == (0, 60) and not match.over and match.winner is None
    doc = appended(doc, 1, knock(1), pips(s0=12, s1=30))
    assert outcome(doc) == ((30, 60), 1, True)


def test_an_adjustment_after_the_rounds_result_is_refused():
    error = refused(appended(DRAW_TWO_ROUNDS, 1, adjust(0, 5)))
    assert where(error) == (1, 9, "correct.adjust")
    assert "This round is over" in error.why
    # In the next round, even before its lead, it is taken.
    doc = copy.deepcopy(DRAW_TWO_ROUNDS)
    doc["rounds"][1]["actions"].insert(0, adjust(0, 5))
    assert outcome(doc) == ((5, 6), None, False)


@pytest.mark.parametrize(
    ("doc", "seat"),
    [
        (document("block", [BLOCK_OPEN]), 2),
        (document("block", [BLOCK_OPEN], players=3), 3),
        (TRUCK_STOPPED, 2),
        (HAVOC_TWO_ROUNDS, 7),
    ],
)
def test_an_adjustment_goes_to_a_seat_at_the_table(doc, seat):
    doc = copy.deepcopy(doc)
    actions = doc["rounds"][-1]["actions"]
    del actions[2:]  # early in the last round, nothing ended
    actions.append(adjust(seat, 5))
    error = refused(doc)
    assert where(error) == (len(doc["rounds"]), 3, "correct.adjust")
    assert f"There is no seat {seat}" in error.why


@pytest.mark.parametrize(
    ("doc", "seat"),
    [
        (document("block", [BLOCK_OPEN]), 2),
        (document("block", [BLOCK_OPEN]), 99),
        (TRUCK_STOPPED, 2),
        (HAVOC_TWO_ROUNDS, 7),
    ],
)
def test_a_correction_names_only_a_seat_at_the_table(doc, seat):
    # Issue 28, defect 2: "from seat 99" at a two-seat table was accepted, and the round's
    # replay page, which names the seat, then failed.
    last = doc["rounds"][-1]["actions"]
    fix = correct(len(last) - 1, replace=last[-1], seat=seat)  # the entry, as it was
    error = refused(appended(doc, len(doc["rounds"]), fix))
    assert where(error) == (len(doc["rounds"]), len(last) + 1, "seat.order")
    assert f"There is no seat {seat} at this table" in error.why
    replay(appended(doc, len(doc["rounds"]), fix | {"seat": 1}))  # from seat 1 it stands


@pytest.mark.parametrize("doc", [TRUCK_STOPPED, HAVOC_TWO_ROUNDS], ids=["dump-truck", "havoc"])
def test_an_adjustment_counts_in_every_game(doc):
    doc = copy.deepcopy(doc)
    doc["rounds"][-1]["actions"].insert(1, adjust(0, -7))
    match = replay(doc)
    if doc["game"] == "havoc":  # the lowest total wins: Ana's -7 beats Ben's 10
        assert match.totals == (8, 10) and match.winner == 0
    else:
        assert match.totals == (-4, 0) and match.winner == 1


def test_an_undo_takes_back_an_adjustment():
    doc = document("block", [BLOCK_OPEN + [adjust(1, 10), UNDO, knock(1), pips(s0=12, s1=30)]])
    match = replay(doc)
    assert match.totals == (30, 0)
    points = match.rounds[0].entry_points
    assert points[3] == (0, 10) and points[4] == (0, -10)
    assert export(replay(export(match))) == export(match)


def test_an_adjustment_is_corrected_like_any_entry():
    doc = document("block", [BLOCK_OPEN + [adjust(1, 10), knock(1), pips(s0=12, s1=30)]])
    assert replay(doc).totals == (30, 10)
    assert replay(appended(doc, 1, correct(3, replace=adjust(1, 1)))).totals == (30, 1)
    assert replay(appended(doc, 1, correct(3, remove=True))).totals == (30, 0)
    assert replay(appended(doc, 1, correct(5, insert=adjust(0, -2)))).totals == (28, 10)


# abandon


def test_an_abandoned_round_scores_nothing_and_takes_back_what_it_scored():
    # All Fives: 5-5 scores 10 for Ana, 5-0 10 for Ben; then the round is abandoned.
    first = [play(0, "5-5"), play(1, "5-0", "5-5"), play(0, "5-4", "5-5"), play(1, "4-1", "5-4"),
             play(0, "6-0", "5-0"), hands(s1=["6-6"])]  # fmt: skip
    second = [play(1, "5-5"), play(0, "5-0", "5-5"), {"type": "abandon", "reason": "misdealt"}]
    doc = document("all-fives", [first, second], hand_size=3)
    match = replay(doc)
    abandoned = match.rounds[1]
    assert abandoned.state.result.reason == ABANDONED == "abandoned"
    assert abandoned.state.result.winner is None and abandoned.state.result.points == (0, 0)
    assert abandoned.state.scores == (0, 0) and match.totals == (20, 10)
    assert abandoned.entry_points == ((0, 10), (10, 0), (-10, -10))
    assert export(match)["rounds"][1]["result"]["reason"] == "abandoned"
    # The next round starts: its plays count from the totals before the abandoned round.
    doc["rounds"].append({"actions": [play(0, "5-5")]})
    assert outcome(doc) == ((30, 10), None, False)


def test_an_adjustment_the_table_agreed_survives_the_abandon_of_its_round():
    # Issue 28: the abandon took the adjustment back from the totals while the score sheet
    # still listed it (the export's abandon carried "points": {"1": -10}). What the table
    # agreed stands; only what the round scored in play is taken back.
    first = [play(0, "5-5"), play(1, "5-0", "5-5"), adjust(1, -10), adjust(0, 3), UNDO,
             adjust(0, 4), {"type": "abandon", "reason": "misdealt"}]  # fmt: skip
    doc = document("all-fives", [first], hand_size=3)
    match = replay(doc)
    abandoned = match.rounds[0]
    assert match.totals == (4, -10) == abandoned.state.scores
    assert abandoned.state.result.points == (4, -10)  # the round's result carries them too
    assert abandoned.entry_points[-1] == (-10, -10)  # the plays' 10 and 10, taken back
    exported = export(match)
    assert exported["rounds"][0]["actions"][-1]["points"] == {"0": -10, "1": -10}
    assert exported["totals"] == {"0": 4, "1": -10}
    assert export(replay(exported)) == exported
    doc["rounds"].append({"actions": [play(0, "5-5")]})  # the next round counts on from them
    assert outcome(doc) == ((14, -10), None, False)


@pytest.mark.parametrize(
    ("actions", "action", "words"),
    [
        ([ABANDON], 1, "Nothing has been played"),
        ([play(0, "6-6"), UNDO, ABANDON], 3, "Nothing has been played"),
        (DRAW_ROUND_1 + [ABANDON], 9, "already over"),
    ],
    ids=["nothing-played", "all-taken-back", "tallied"],
)
def test_a_round_is_abandoned_only_while_it_is_being_played(actions, action, words):
    error = refused(document("draw", [actions], hand_size=3))
    assert where(error) == (1, action, "correct.abandon")
    assert words in error.why


def test_a_dump_truck_game_is_not_abandoned_but_stopped():
    actions = TRUCK_STOPPED["rounds"][0]["actions"][:4] + [ABANDON]
    error = refused(document("dump-truck", [actions]))
    assert where(error) == (1, 5, "correct.abandon")
    assert "stop the match instead" in error.why
    assert where(refused(document("dump-truck", [[ABANDON]]))) == (1, 1, "correct.abandon")


def test_an_abandoned_havoc_round_is_not_one_of_the_agreed_rounds():
    first = havoc_race(havoc_new(2, rounds=1), winner=0)
    dealt_again = havoc.apply(havoc_race(havoc_new(2, rounds=1), winner=1), Tally(pips=((0, 9),)))
    doc = havoc_document({"rounds": 1}, NAMES[:2], [havoc_log(first)[:5], havoc_log(dealt_again)])
    doc["rounds"][0]["actions"].append(ABANDON)
    match = replay(doc)
    assert match.rounds[0].state.result.reason == "abandoned"
    assert match.rounds[1].state.number == 1  # the agreed round is played again
    assert match.over and match.totals == (9, 0) and match.winner == 1


def test_after_an_abandoned_round_the_game_still_says_who_leads():
    # Three seats: Ana leads round 1, so Ben must lead round 2; round 2 is abandoned. The
    # next round starts as the game says (correct.abandon): Caro (left of Ben) leads it,
    # or Ben again, but never a free choice: Ana's lead is refused.
    first = [play(0, "3-3"), play(1, "3-0", "3-3"), play(2, "3-1", "3-3"), play(0, "1-1", "3-1"),
             play(1, "0-0", "3-0"), play(2, "2-1", "1-1"), play(0, "2-2", "2-1")]  # fmt: skip
    second = [play(1, "6-6"), play(2, "6-3", "6-6"), ABANDON]
    doc = document("fives-and-threes", [first, second, [play(0, "5-5")]], players=3, hand_size=3)
    assert where(refused(doc)) == (3, 1, "round.lead")


# stop


def test_a_stopped_match_is_won_on_the_totals_highest_first():
    # Draw: round 1 tallied (Ben 3); in round 2 the table stops before anybody plays out.
    doc = document("draw", [DRAW_ROUND_1, DRAW_ROUND_2[:3] + [{"type": "stop", "reason": "late"}]],
                   hand_size=3)  # fmt: skip
    match = replay(doc)
    assert (match.totals, match.winner, match.over) == ((0, 3), 1, True)
    stopped = match.rounds[1].state
    assert stopped.result.reason == STOPPED == "stopped" and stopped.stop == Stop(reason="late")
    assert stopped.champion == 1 and stopped.shared == ()
    assert export(match)["winner"] == 1


def test_a_stop_between_rounds_keeps_the_last_result():
    doc = appended(DRAW_TWO_ROUNDS, 2, STOP)
    match = replay(doc)
    assert match.over and match.winner == 1 and match.totals == (0, 6)
    assert match.rounds[1].state.result.reason == "domino"


def test_a_stopped_match_with_a_tie_at_the_top_has_no_champion():
    doc = document("all-fives", [[play(0, "5-5"), play(1, "5-0", "5-5"), STOP]], hand_size=3)
    match = replay(doc)
    assert match.totals == (10, 10) and match.over and match.winner is None
    assert match.rounds[0].state.shared == (0, 1)
    assert export(match)["winner"] is None


def test_a_match_stopped_as_abandoned_has_no_winner():
    doc = document("all-fives", [[play(0, "5-5"), {"type": "stop", "abandoned": True}]],
                   hand_size=3)  # fmt: skip
    match = replay(doc)
    assert match.totals == (10, 0) and match.over and match.winner is None
    assert match.rounds[0].state.shared == () and match.rounds[0].state.champion is None


def test_a_stopped_dump_truck_game_is_won_by_the_highest_total():
    match = replay(TRUCK_STOPPED)
    assert match.winner == 0 and match.totals == (3, 0)
    assert match.rounds[0].state.result.reason == "stopped"
    # Ben unloads too (2-2-2 is a like chain): a tie, shared.
    doc = copy.deepcopy(TRUCK_STOPPED)
    doc["rounds"][0]["actions"].insert(9, {"type": "unload", "seat": 1})
    match = replay(doc)
    assert match.totals == (3, 3) and match.winner is None
    assert match.rounds[0].state.shared == (0, 1)


def test_a_stopped_havoc_match_is_won_by_the_lowest_total():
    doc = copy.deepcopy(HAVOC_TWO_ROUNDS)
    doc["options"] = {}  # no agreed count of rounds: play until the table stops
    doc["rounds"][1]["actions"][-1:] = [STOP]  # round 2 stopped before its tally
    match = replay(doc)
    assert match.totals == (0, 10) and match.winner == 0 and match.over
    doc["rounds"][1]["actions"][-1] = {"type": "stop", "abandoned": True}
    match = replay(doc)
    assert match.over and match.winner is None and match.rounds[1].state.shared == ()


@pytest.mark.parametrize(
    ("doc", "after", "rule"),
    [
        (document("block", [BLOCK_OPEN + [STOP]]), knock(1), "correct.abandon"),
        (document("block", [BLOCK_OPEN + [STOP]]), adjust(0, 5), "correct.abandon"),
        (document("block", [BLOCK_OPEN + [STOP]]), ABANDON, "correct.abandon"),
        (document("block", [BLOCK_OPEN + [STOP]]), STOP, "correct.abandon"),
        (document("block", [BLOCK_OPEN + [{"type": "stop", "abandoned": True}]]), pips(s0=1, s1=2),
         "correct.abandon"),
        (TRUCK_STOPPED, take(1, "4-4"), "correct.abandon"),
        (TRUCK_STOPPED, adjust(1, 3), "correct.abandon"),
        (TRUCK_STOPPED, STOP, "correct.abandon"),
        # Havoc's stop is its agreed time running out: the refusal cites havoc.win.
        (havoc_document({}, NAMES[:2], [havoc_log(havoc_new(2, "0 draw")) + [Stop()]]),
         {"type": "draw", "seat": 1, "from": "boneyard"}, "havoc.win"),
    ],
)  # fmt: skip
def test_nothing_is_recorded_after_a_stop(doc, after, rule):
    stopped = len(doc["rounds"][-1]["actions"])
    error = refused(appended(doc, len(doc["rounds"]), after))
    assert where(error) == (len(doc["rounds"]), stopped + 1, rule)
    assert "nothing more is recorded" in error.why or "is over" in error.why
    later = copy.deepcopy(doc)
    later["rounds"].append({"actions": [after]})
    assert where(refused(later)) == (len(doc["rounds"]) + 1, 1, rule)


def test_a_stopped_match_can_still_be_corrected():
    doc = document("block", [BLOCK_OPEN + [knock(1), pips(s0=12, s1=30), STOP]])
    assert outcome(doc) == ((30, 0), 0, True)
    fixed = appended(doc, 1, correct(4, replace=pips(s0=30, s1=12)))
    assert outcome(fixed) == ((0, 30), 1, True)


def test_a_stopped_round_result_carries_what_the_round_scored():
    doc = document("all-fives", [[play(0, "5-5"), play(1, "5-0", "5-5"), STOP]], hand_size=3)
    played = replay(doc).rounds[0]
    assert played.state.result.points == played.state.scores == (10, 10)


def test_a_round_whose_every_entry_is_removed_keeps_its_log():
    log = [play(0, "6-6"), correct(0, remove=True)]
    doc = document("block", [log])
    played = replay(doc).rounds[0]
    assert played.actions == () and played.state.layout.count == 0
    assert [e.to_dict() for e in played.entries] == log
    assert played.entry_points == ((0, 0), (0, 0))
    assert export(replay(doc))["rounds"][0]["actions"] == log
    # The app steps the correction onto the replay it keeps, and reads the new entry's points.
    kept = replay(document("block", [log[:1]])).rounds[0]
    assert len(step(kept, parse_action(log[1])).entry_points) == 2


def test_an_action_after_an_abandon_in_the_same_round_is_refused():
    error = refused(document("block", [[play(0, "6-6"), ABANDON, play(1, "6-5", "6-6")]]))
    assert (error.round, error.action) == (1, 3)
    assert error.rule is not None


@pytest.mark.parametrize(
    ("game", "played"),
    [
        ("block", [play(0, "6-6"), play(1, "6-5", "6-6")]),
        ("havoc", [{"type": "draw", "seat": 0, "from": "boneyard"},
                   {"type": "train", "seat": 0, "tile": "9-8"},
                   {"type": "discard", "seat": 0, "tile": "1-0"}]),
    ],
)  # fmt: skip
@pytest.mark.parametrize("entry", [STOP, adjust(0, 3), ABANDON], ids=["stop", "adjust", "abandon"])
def test_taking_back_a_table_entry_reopens_no_misplay_window(game, played, entry):
    """procedure.misplay: only the last tile can be taken back; a stop, an adjustment or an
    abandon recorded and taken back must not let an earlier tile be taken back too."""
    # The entry taken back, then the last tile (within its window), then the tile before it:
    # that one stands. (Havoc's stop is an action like any other and closes the discard's
    # window itself, so there the refusal may come one undo sooner.)
    log = [*played, entry, UNDO, UNDO, UNDO]
    error = refused(document(game, [log]))
    assert (error.round, error.rule) == (1, "procedure.misplay")
    assert len(log) - 1 <= error.action <= len(log)


# -- the audit of knocks in a corrected round ---------------------------------------------------


def test_the_tally_audit_names_a_knock_by_its_entry_as_recorded():
    held = hands(s0=["5-4", "0-0", "1-0", "1-1", "2-0", "2-1"],
                 s1=["3-3", "3-2", "3-1", "3-0", "4-0", "4-1"])  # fmt: skip
    log = [play(0, "6-6"), play(1, "6-5", "6-6"), play(0, "5-5", "6-5"), UNDO, knock(0),
           knock(1), held]  # fmt: skip
    (finding,) = replay(document("block", [log])).rounds[0].state.result.findings
    assert finding.action == 4 and "(action 5)" in finding.message  # the knock, entry 5
    # The misplaced 5-5 and its undo were never played: removed, the knock is still entry 5.
    fixed = document("block", [log + [correct(2, remove=True), correct(3, remove=True)]])
    (finding,) = replay(fixed).rounds[0].state.result.findings
    assert finding.action == 4 and "(action 5)" in finding.message


# -- 6. Properties: random legal rounds, corrected (Hypothesis) --------------------------------

LINE_GAMES = tuple(
    slug for slug, game in PRESETS.items() if game.family == "line" and slug != "dominards"
)
QUICK = settings(
    max_examples=max(5, settings.default.max_examples // 4),  # the profile's depth
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _stepped(start: line.RoundState, entries: Sequence[Action]) -> RoundReplay:
    """The round as the app keeps it: each entry stepped onto the replay it keeps."""
    played = RoundReplay((), (), start, ())
    for entry in entries:
        played = step(played, entry)
    return played


def _a_correction(data: st.DataObject, start: line.RoundState, entries: list[Action]) -> Correct:
    """A correction that keeps the round legal: an entry replaced by another action legal
    where it stood (one of its kind if there is one), the rest of the round replaying
    unchanged; failing that, the last entry removed."""
    for _ in range(3):
        at = data.draw(st.integers(0, len(entries) - 1), label="entry corrected")
        before = play_round(start, entries[:at]).state
        options = [a for a in line.legal_actions(before) if a != entries[at]]
        options = [a for a in options if type(a) is type(entries[at])] or options
        if not options:
            continue
        picks = st.lists(st.sampled_from(options), min_size=1, max_size=8, unique=True)
        for candidate in data.draw(picks, label="candidates"):
            fix = Correct(at, REPLACE, candidate)
            try:
                play_round(start, (*entries, fix))
            except RefereeError:
                continue
            return fix
    return Correct(len(entries) - 1, REMOVE)


@QUICK
@given(st.data())
def test_a_corrected_round_replays_from_scratch_as_the_app_steps_it(data):
    slug, options, names = data.draw(games(LINE_GAMES), label="game")
    start = line.start(slug, options, names)
    entries = [s.action for s in honest_round(data, start, lambda s: None)]
    doc = document(slug, [[e.to_dict() for e in entries]], players=len(names), **options)
    kept = replay(doc).rounds[0]
    assert _stepped(start, entries).state == kept.state  # step agrees with replay
    fix = _a_correction(data, start, entries)
    event(f"{slug}: {fix.change} of {type(fix.action or entries[fix.at]).__name__}")
    fixed = appended(doc, 1, fix.to_dict())
    fresh = replay(fixed).rounds[0]
    # (a) replaying the corrected document equals stepping the correction onto the kept
    # replay (what the app does), and onto the replay the app built entry by entry.
    for onto in (kept, _stepped(start, entries)):
        after = step(onto, fix)
        assert after.state == fresh.state
        assert after.state.totals == fresh.state.totals
        assert after.state.result == fresh.state.result
        assert after.actions == fresh.actions and after.points == fresh.points
        assert after.entries == fresh.entries == (*entries, fix)
        assert after.origins == fresh.origins and after.entry_points == fresh.entry_points
    # (b) export → replay → export is identical.
    out = export(replay(fixed))
    assert export(replay(out)) == out
    # (c) what the entries changed adds up to the round's scores.
    assert len(fresh.entry_points) == len(entries) + 1
    assert _summed(fresh.entry_points) == fresh.state.scores
    assert _summed(fresh.points) == fresh.state.scores
    if fix.change == REMOVE:
        # The last entry removed, then recorded again: the table is as it was.
        again = step(step(kept, fix), entries[-1])
        assert again.state == kept.state and again.actions == kept.actions
        assert again.entries == (*entries, fix, entries[-1])
    else:
        assert fresh.actions[fix.at] == fix.action and fresh.origins[fix.at] == len(entries)


@QUICK
@given(st.data())
def test_an_adjustment_an_abandon_and_a_stop_anywhere_in_a_random_round(data):
    slug, options, names = data.draw(games(LINE_GAMES), label="game")
    start = line.start(slug, options, names)
    entries = [s.action for s in honest_round(data, start, lambda s: None)]
    head = entries[: data.draw(st.integers(1, len(entries)), label="cut")]
    played = play_round(start, head)
    nobody = (0,) * len(names)

    def recorded(entry: Action) -> RoundReplay:
        """The round as a document records it, ``entry`` after ``head``."""
        actions = [e.to_dict() for e in (*head, entry)]
        return replay(document(slug, [actions], players=len(names), **options)).rounds[0]

    seat = data.draw(st.integers(0, len(names) - 1), label="seat")
    points = data.draw(st.integers(1, 50), label="points") * data.draw(st.sampled_from((1, -1)))
    if played.state.result is None:
        adjusted = step(played, Adjust(seat, points, "agreed"))
        assert adjusted.state.totals[seat] == played.state.totals[seat] + points
        assert adjusted.state == recorded(Adjust(seat, points, "agreed")).state
        assert step(adjusted, Undo()).state == played.state
        if played.state.actions:
            gone = step(played, Abandon())
            assert gone.state.result.reason == ABANDONED and gone.state.scores == nobody
            assert gone.state.totals == start.totals and _summed(gone.points) == nobody
            assert gone.state == recorded(Abandon()).state
    if played.state.match_end is None:
        stopped = step(played, Stop())
        totals = stopped.state.totals
        assert totals == played.state.totals and stopped.state.match_over
        assert stopped.state == recorded(Stop()).state
        # The totals decide, by team in partnerships (team.score): 0+2 against 1+3.
        pairs = played.state.options.get("partnerships")
        sides = [(0, 2), (1, 3)] if pairs else [(s,) for s in range(len(totals))]
        by_side = [sum(totals[s] for s in side) for side in sides]
        top = [side for side, t in zip(sides, by_side, strict=True) if t == max(by_side)]
        if len(top) == 1:
            assert stopped.state.champion == top[0][0] and stopped.state.shared == ()
        else:
            leaders = tuple(sorted(s for side in top for s in side))
            assert stopped.state.champion is None and stopped.state.shared == leaders
        with pytest.raises(IllegalAction) as caught:
            step(stopped, Adjust(seat, points, "too late"))
        assert caught.value.rule == "correct.abandon"


def test_dump_truck_and_havoc_step_a_correction_as_they_replay_it():
    for doc, at, fix in (
        (TRUCK_STOPPED, 5, load(0, "1-0", (0, 3), (0, 2))),
        (HAVOC_TWO_ROUNDS, HAVOC_TALLY, pips(s1=20)),
    ):
        family = PRESETS[doc["game"]].family
        kept = replay(doc).rounds[0]
        fixed = appended(doc, 1, correct(at, replace=fix))
        fresh = replay(fixed).rounds[0]
        after = step(kept, parse_action(correct(at, replace=fix), family))
        assert after.state == fresh.state and after.entries == fresh.entries
        assert _summed(fresh.entry_points) == fresh.state.scores
        assert export(replay(export(replay(fixed)))) == export(replay(fixed))


# -- an inserted action is corrected through the correction that inserted it ---------------


def _log_of(*entries: dict) -> tuple:
    return tuple(parse_action(e) for e in entries)


def test_an_inserted_action_can_be_replaced_removed_or_preceded():
    lead = {"type": "play", "seat": 0, "tile": "6-6"}
    knock = {"type": "pass", "seat": 1}
    insert = {"type": "correct", "at": 1, "insert": {"type": "draw", "seat": 1}}
    log = _log_of(lead, knock, insert)
    assert [a.kind for a in as_played(log)[0]] == ["play", "draw", "pass"]
    # The inserted draw was really two tiles: the insert's own entry is corrected.
    twice = {"type": "correct", "at": 2, "replace": {"type": "draw", "seat": 1, "count": 2}}
    played, origins = as_played(_log_of(lead, knock, insert, twice))
    assert [a.to_dict() for a in played][1] == {"type": "draw", "seat": 1, "count": 2}
    assert origins == (0, 3, 1)
    # It never happened after all.
    gone = {"type": "correct", "at": 2, "remove": True}
    assert [a.kind for a in as_played(_log_of(lead, knock, insert, gone))[0]] == ["play", "pass"]
    # And something else was missing before it.
    first = {"type": "correct", "at": 2, "insert": {"type": "draw", "seat": 1}}
    played, origins = as_played(_log_of(lead, knock, insert, first))
    assert origins == (0, 3, 2, 1)
    # The moment before the inserted action, and before the one inserted before it.
    assert as_played(_log_of(lead, knock, insert, first), until=2) == (played[:2], origins[:2])
    assert as_played(_log_of(lead, knock, insert, first), until=3) == (played[:1], origins[:1])


def test_a_correction_of_a_replacement_still_names_the_entry_it_fixed():
    lead = {"type": "play", "seat": 0, "tile": "6-6"}
    fix = {"type": "correct", "at": 0, "replace": {"type": "play", "seat": 0, "tile": "5-5"}}
    again = {"type": "correct", "at": 1, "replace": {"type": "play", "seat": 0, "tile": "4-4"}}
    with pytest.raises(IllegalAction) as refused:
        as_played(_log_of(lead, fix, again))
    assert refused.value.rule == "correct.record" and "entry 1" in refused.value.message
