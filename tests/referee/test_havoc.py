"""Double Domino Havoc (RULES.md §5): scenarios for each rule, properties of random legal
matches (Hypothesis), and the action language.

Trays are private: the referee accepts any tile the table has not seen, so a scenario just
names the tiles a seat plays, in a shorthand :func:`act` reads through ``parse_action``:
``"0 draw"`` (face down), ``"0 draw 5-5"`` (a double), ``"1 take 0 8-2"`` (seat 0's discard),
``"0 train 9-4"`` (matching half first), ``"0 discard 3-3"``, ``"2 respond take"``, ``"2 respond
pass"``, ``"2 respond 3-1"`` (match; the replacement face down), ``"2 respond 3-1 5-5"`` (a double
replacement), ``"2 respond 3-1 from 0 9-7"`` (the replacement from seat 0's slot), ``"0 pass"``,
``"stop"`` and ``"undo"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace as evolve

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalAction, InvalidAction, Pass, Play, Tally, Undo, parse_action
from referee.actions import BONEYARD, FAMILIES, Action, Discard, DrawFrom, Respond, Stop, Train
from referee.document import export, replay
from referee.games import havoc
from referee.games.havoc import Doubles, HavocState, Link, Rack, apply, check, legal_actions, start
from referee.tiles import DominoSet, Tile

T = Tile.parse
NAMES = ("Ana", "Ben", "Caro", "Dan", "Eve", "Fay", "Gus", "Hal")
# A random match costs a legal_actions() per action (milliseconds): a tenth of the profile's
# examples for whole matches, a fifth for positions part-way through one.
_QUIET, _N = [HealthCheck.too_slow, HealthCheck.data_too_large], settings.default.max_examples
MATCHES = settings(max_examples=max(5, _N // 10), suppress_health_check=_QUIET)
POSITIONS = settings(max_examples=max(5, _N // 5), suppress_health_check=_QUIET)


def act(text: str) -> Action:
    words = text.split()
    if len(words) == 1:
        return parse_action({"type": words[0]}, "havoc")
    data: dict = {"seat": words[0], "type": words[1]}
    rest = words[2:]
    if words[1] == "draw":
        data.update({"from": BONEYARD}, **({"tile": rest[0]} if rest else {}))
    elif words[1] == "take":
        data.update({"type": "draw", "from": rest[0], "tile": rest[1]})
    elif words[1] in ("train", "discard"):
        data["tile"] = rest[0]
    elif words[1] == "respond" and rest[0] in ("take", "pass"):
        data[rest[0]] = True
    elif words[1] == "respond":
        data["match"] = rest[0]
        if rest[1:2] == ["from"]:
            data.update({"from": rest[2], "replacement": rest[3]})
        elif rest[1:]:
            data["replacement"] = rest[1]
    return parse_action(data, "havoc")


def play(state: HavocState, actions: str) -> HavocState:
    """Apply each action, checking that ``legal_actions`` lists it."""
    for text in filter(None, (a.strip() for a in actions.split(";"))):
        action = act(text)
        assert action in legal_actions(state), action
        state = apply(state, action)
    return state


def new(players: int = 3, actions: str = "", **options) -> HavocState:
    return play(start("havoc", options, NAMES[:players]), actions)


def refused(state: HavocState, action: str | Action, rule: str, *named: str) -> IllegalAction:
    """``action`` is refused under ``rule``, and the message names every one of ``named``."""
    action = act(action) if isinstance(action, str) else action
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    error = caught.value
    assert error.rule == rule, error
    assert all(word in error.message for word in named), (named, error.message)
    assert check(state, action).rule == rule and action not in legal_actions(state)
    return error


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(T(t) for t in text.split())


def spare(state: HavocState, keep: Sequence[Tile] = ()) -> Tile:
    """A tile a seat may discard that sets nothing off: unseen, not a double, the lowest."""
    return next(t for t in reversed(state.unseen()) if not t.is_double and t not in keep)


def link(state: HavocState, seat: int) -> Train:
    """The highest unseen tile that continues ``seat``'s train."""
    end = state.racks[seat].free_end
    tile = next(t for t in state.unseen() if not t.is_double and (end is None or t.has(end)))
    return Train(seat, tile, tile.high if end is None else end)


def race(state: HavocState, winner: int) -> HavocState:
    """Whole turns until ``winner``'s train is full: every seat draws face down and discards a
    spare tile; ``winner`` also plays to its train (and begins, if nobody has yet)."""
    while state.ended is None:
        seat = winner if state.turn is None else state.turn
        state = apply(state, DrawFrom(seat, BONEYARD))
        if seat == winner:
            state = apply(state, link(state, seat))
        if state.ended is None:
            state = apply(state, Discard(seat, spare(state)))
    return state


def drain(state: HavocState, left: int = 0, keep: Sequence[Tile] = ()) -> HavocState:
    """Whole turns from seat 0's while the boneyard holds more than ``left`` tiles: seat 0
    draws and discards, every other seat takes that discard and puts it back, so only seat
    0's discard slot ever holds a tile."""
    while state.boneyard > left:
        assert state.turn in (0, None) and state.doubles is None
        tile = spare(state, keep)
        state = apply(apply(state, DrawFrom(0, BONEYARD)), Discard(0, tile))
        for seat in range(1, state.seats):
            state = apply(apply(state, DrawFrom(seat, 0, tile)), Discard(seat, tile))
    return state


def next_round(state: HavocState) -> HavocState:
    leader = havoc.next_leader(state)
    return start("havoc", state.options, state.names, leader, state.totals, state.carry)


def completed_turn(state: HavocState) -> bool:
    return state.doubles is None and state.step == "draw" and not state.is_over


def six_in_play(state: HavocState) -> bool:
    """``havoc.invariant``: tray + train = 6 for every seat."""
    return all(rack.tray + len(rack.train) == 6 for rack in state.racks)


def document(options: dict, names: Sequence[str], rounds: Sequence[Sequence[Action]]) -> dict:
    played = [{"actions": [a.to_dict() for a in actions]} for actions in rounds]
    return {"format": "boneyard-match/1", "game": "havoc", "options": options,
            "players": list(names), "rounds": played}  # fmt: skip


def log(state: HavocState) -> list[Action]:
    """The actions that made ``state`` (for states reached without an undo)."""
    actions = []
    while state.previous is not None:
        actions.append(state.last)
        state = state.previous
    return actions[::-1]


# -- havoc.setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_every_tray_starts_with_six_tiles_and_play_clockwise(players):
    state = start("havoc", {}, NAMES[:players])
    top = 9 if players <= 6 else 12
    assert state.top == top and state.options == {"set": top, "rounds": 0}
    assert state.racks == (Rack(tray=6, known=(), train=(), slot=None),) * players
    assert state.direction == 1 and state.step == "draw" and state.turn is None
    assert state.boneyard == len(DominoSet(top).tiles) - 6 * players
    assert state.unseen() == DominoSet(top).tiles and state.public() == {}
    assert six_in_play(state) and state.totals == (0,) * players


def test_the_double_12_set_may_be_chosen_and_seven_or_eight_players_cannot_have_the_double_9():
    assert start("havoc", {"set": 12}, NAMES[:3]).boneyard == 91 - 18
    for players in (7, 8):
        assert start("havoc", {"rounds": 2}, NAMES[:players]).top == 12
        with pytest.raises(InvalidAction, match=f"double-9 .* {players} need the double-12"):
            start("havoc", {"set": 9}, NAMES[:players])
    for players in (1, 9):
        with pytest.raises(InvalidAction, match=f"2 to 8 players, not {players}"):
            start("havoc", {}, NAMES[:players] + ("Ivy",) * (players > 8))
    with pytest.raises(InvalidAction):
        start("havoc", {"set": 6}, NAMES[:3])


def test_any_seat_begins_the_first_round_and_the_next_begins_clockwise_of_it():
    state = new(3)
    assert havoc.next_leader(state) is None and state.acting is None
    refused(state, "1 train 9-4", "havoc.turn", "draw first")
    refused(state, "1 discard 9-4", "havoc.turn", "draw first")
    refused(state, "1 pass", "havoc.turn", "draw first")
    state = play(state, "2 draw")  # Caro's seventh tile
    assert (state.turn, state.first, state.step, state.drew) == (2, 2, "play", True)
    assert state.racks[2].tray == 7 and state.boneyard == 55 - 18 - 1
    refused(state, "0 draw", "seat.order", "It is Caro's turn, not Ana's")
    refused(state, "2 draw", "havoc.turn", "Caro has drawn")
    assert havoc.next_leader(state) == 0  # clockwise of Caro, round the table
    later = start("havoc", {}, NAMES[:3], leader=1)
    assert (later.turn, later.first, later.acting) == (1, 1, 1)
    refused(later, "0 draw", "seat.order", "Ben's turn")
    refused(later, "5 draw", "seat.order", "no seat 5")


# -- havoc.turn, havoc.drawn-double, havoc.discard-back ---------------------------------------


def test_a_turn_is_draw_then_an_optional_train_tile_then_a_discard():
    state = new(3, "0 draw")
    refused(state, "0 pass", "havoc.turn", "Ana drew this turn")
    with pytest.raises(InvalidAction, match="no play action"):
        apply(state, Play(0, T("6-6")))
    with pytest.raises(InvalidAction, match="not in a double-9 set"):
        apply(state, Discard(0, T("12-1")))
    state = play(state, "0 train 4-9")  # the first train tile is free: 4 written first
    assert state.racks[0].train == (Link(T("9-4"), 9),) and state.racks[0].free_end == 9
    assert state.step == "discard" and state.racks[0].tray == 6
    refused(state, "0 train 9-8", "havoc.turn", "Ana has played to the train")
    refused(state, "0 discard 9-4", "set.unique", "9-4 is on Ana's train")
    state = play(state, "0 discard 7-1")
    assert state.racks[0].slot == T("7-1") and state.turn == 1 and six_in_play(state)
    refused(state, "1 train 8-1", "havoc.turn", "Draw first", "Ben")
    refused(state, "1 discard 8-1", "havoc.turn", "Draw first", "Ben")
    state = play(state, "1 draw; 1 discard 7-2; 2 draw; 2 discard 7-3; 0 draw")
    refused(state, "0 train 8-5", "havoc.turn", "8-5 does not match", "Ana", "bear a 9")
    refused(state, "0 train 5-9", "havoc.turn", "matching half first: 9-5")
    state = play(state, "0 train 9-5; 0 discard 6-1")  # 6-1 to Ana's slot, 7-1 out of play
    assert state.racks[0].free_end == 5 and state.out == (T("7-1"),)
    assert state.racks[0].slot == T("6-1") and state.turn == 1


def test_a_double_drawn_from_the_boneyard_goes_to_the_drawers_slot_and_ends_the_turn():
    state = new(3, "0 draw; 0 discard 9-7; 1 draw; 1 discard 8-1; 2 draw; 2 discard 6-2")
    refused(state, "0 draw 9-8", "info.public", "9-8", "private")
    refused(play(state, "0 draw 5-5; 2 respond 5-1"), "1 draw 5-5", "set.unique", "5-5 is out")
    boneyard = state.boneyard
    state = play(state, "0 draw 5-5")  # odd: counter-clockwise, Caro answers
    assert state.racks[0] == Rack(tray=6, slot=T("5-5")) and T("9-7") in state.out
    assert state.boneyard == boneyard - 1 and state.direction == -1
    assert state.doubles == Doubles(T("5-5"), slot=0, placer=0, responder=2)
    assert state.acting == 2 and state.turn is None
    refused(state, "0 train 9-4", "havoc.doubles", "5-5 must be answered first, by Caro")
    refused(state, "2 draw", "havoc.doubles", "Caro must answer 5-5")


def test_a_taken_discard_is_known_to_be_in_the_tray_and_the_discard_goes_back_to_that_slot():
    state = new(3, "0 draw; 0 discard 8-2")
    refused(state, "1 take 0 8-3", "havoc.turn", "Ana's discard slot holds 8-2, not 8-3")
    refused(state, "1 take 2 8-3", "havoc.turn", "Caro's discard slot is empty")
    with pytest.raises(InvalidAction, match="Name the tile"):
        apply(state, DrawFrom(1, 0))
    state = play(state, "1 take 0 8-2")
    assert state.racks[0].slot is None and state.took_from == 0
    assert state.racks[1] == Rack(tray=7, known=(T("8-2"),))
    state = play(state, "1 discard 7-1")  # havoc.discard-back: into Ana's slot, not Ben's
    assert state.racks[0].slot == T("7-1") and state.racks[1].slot is None
    assert state.racks[1] == Rack(tray=6, known=(T("8-2"),)) and state.turn == 2
    assert state.public()[T("8-2")] == "in Ben's tray (taken from a discard slot)"
    state = play(state, "2 draw")
    refused(state, "2 train 8-2", "set.unique", "8-2 is in Ben's tray")
    state = play(state, "2 discard 6-1; 0 draw; 0 discard 9-5; 1 draw; 1 discard 8-2")
    assert state.racks[1] == Rack(tray=6, slot=T("8-2"))  # known no more
    refused(state, "2 take 2 6-1", "havoc.turn", "not the one in Caro's own slot")


def test_a_seat_whose_whole_tray_was_taken_from_discards_can_only_play_those_tiles():
    state = new(3, "0 draw; 0 discard 8-2; 1 take 0 8-2")
    # As if Ben had kept every tile he took and played or discarded all the others.
    state = evolve(state, racks=(state.racks[0], Rack(2, tiles("8-2 7-7")), state.racks[2]))
    assert state.holdable(1) == tiles("8-2 7-7") and T("9-4") in state.holdable(0)
    refused(state, "1 train 9-4", "set.unique", "Every tile in Ben's tray", "8-2", "9-4")
    assert play(state, "1 train 8-2").racks[1] == Rack(1, tiles("7-7"), (Link(T("8-2"), 2),))


# -- havoc.doubles, havoc.direction, havoc.dead-double ----------------------------------------


def test_an_odd_double_sets_play_counter_clockwise_and_the_next_seat_that_way_matches_it():
    state = new(4, "0 draw; 0 train 9-4; 0 discard 3-3")
    assert state.direction == -1 and state.doubles == Doubles(T("3-3"), 0, 0, 3)
    refused(state, "1 respond pass", "havoc.doubles", "Dan answers 3-3 now, not Ben")
    refused(state, "3 respond take", "havoc.doubles", "Dan's train is empty", "3-3")
    refused(state, "3 respond 4-1", "havoc.doubles", "4-1 does not bear a 3")
    refused(state, "3 respond 3-3", "set.unique", "3-3 is in Ana's discard slot")
    boneyard = state.boneyard
    state = play(state, "3 respond 3-1")  # in 3-3's place; Dan draws a replacement
    assert state.racks[0].slot == T("3-1") and state.out == (T("3-3"),)
    assert state.racks[3].tray == 6 and state.boneyard == boneyard - 1
    assert state.doubles is None and state.turn == 2 and state.direction == -1  # Caro next
    assert six_in_play(state)
    # A double sets the direction, it never toggles it: a second odd double keeps it.
    assert [havoc.direction_of(Tile(n, n)) for n in range(13)] == [1, -1] * 6 + [1]
    state = play(state, "2 draw; 2 discard 5-5")
    assert state.direction == -1 and state.doubles == Doubles(T("5-5"), 2, 2, 1)


def test_an_even_double_sets_play_clockwise_again_and_a_train_ending_in_it_takes_it():
    state = new(4, "0 draw; 0 train 9-4; 0 discard 3-3; 3 respond 3-1; 2 draw; 2 discard 4-4")
    assert state.direction == 1 and state.doubles == Doubles(T("4-4"), 2, 2, 3)
    state = play(state, "3 respond pass")  # Dan holds no 4 he took from a slot: he may pass
    assert state.doubles.responder == 0 and state.direction == 1
    state = play(state, "0 respond take")  # Ana's train ends in 4
    assert state.racks[0].train == (Link(T("9-4"), 4), Link(T("4-4"), 4))
    assert state.racks[2].slot is None and (state.turn, state.step) == (0, "discard")
    refused(state, "0 train 4-1", "havoc.turn", "Ana has played to the train")
    state = play(state, "0 discard 8-1")  # to Ana's own slot: 3-1 leaves play
    assert state.racks[0].slot == T("8-1") and T("3-1") in state.out
    assert state.turn == 1 and completed_turn(state) and six_in_play(state)


def test_a_double_nobody_answers_is_dead_and_its_owner_plays_a_normal_turn():
    state = new(3, "0 draw; 0 discard 6-6; 1 respond pass")
    assert state.doubles == Doubles(T("6-6"), 0, 0, 2)
    state = play(state, "2 respond pass")  # back at Ana: havoc.dead-double
    assert state.doubles is None and state.out == (T("6-6"),) and state.racks[0].slot is None
    assert (state.turn, state.step, state.acting) == (0, "draw", 0) and six_in_play(state)
    state = play(state, "0 draw")
    assert state.racks[0].tray == 7 and state.step == "play"


def test_a_seat_that_took_a_tile_bearing_the_number_cannot_pass():
    state = new(3, "0 draw; 0 discard 3-1; 1 take 0 3-1; 1 discard 9-8; 2 draw; 2 discard 3-3")
    assert state.doubles == Doubles(T("3-3"), 2, 2, 1)
    refused(state, "1 respond pass", "havoc.doubles", "Ben took 3-1", "3-3")
    state = play(state, "1 respond 3-1")
    assert state.racks[1] == Rack(tray=6) and state.racks[2].slot == T("3-1")


def test_a_double_replacement_goes_to_the_responders_slot_and_the_rule_begins_again():
    state = new(3, "0 draw; 0 discard 3-3")
    refused(state, "2 respond 3-1 8-1", "info.public", "8-1")
    refused(state, "2 respond 3-1 3-3", "set.unique", "3-3")
    boneyard = state.boneyard
    odd = play(state, "2 respond 3-1 5-5")
    assert odd.racks[0].slot == T("3-1") and odd.out == (T("3-3"),)
    # Caro's slot gets 5-5; she draws once more face down, so her tray still holds six.
    assert odd.racks[2] == Rack(tray=6, slot=T("5-5")) and odd.boneyard == boneyard - 2
    assert odd.direction == -1 and odd.doubles == Doubles(T("5-5"), 2, 2, 1)
    odd = play(odd, "1 respond 5-2")
    assert odd.racks[2].slot == T("5-2") and odd.turn == 0 and six_in_play(odd)
    even = play(state, "2 respond 3-1 4-4")
    assert even.direction == 1 and even.doubles == Doubles(T("4-4"), 2, 2, 0)


# -- havoc.boneyard-empty -------------------------------------------------------------------


def test_an_empty_boneyard_makes_a_seat_take_a_discard_or_with_none_skip_the_draw():
    state = drain(new(3), left=1)
    state = play(state, f"0 draw; 0 discard {spare(state)}")
    assert state.boneyard == 0 and state.turn == 1 and state.step == "draw"
    refused(state, "1 draw", "havoc.boneyard-empty", "another seat's discard slot")
    lying = state.racks[0].slot
    state = play(state, f"1 take 0 {lying}; 1 discard {lying}; 2 take 0 {lying}")
    state = play(state, f"2 discard {lying}")
    # Ana's own slot is the only one filled: nothing to draw, so she skips the draw.
    assert (state.turn, state.step, state.drew) == (0, "play", False)
    refused(state, "0 draw", "havoc.boneyard-empty", "Ana")
    refused(state, f"0 discard {spare(state)}", "havoc.boneyard-empty", "Ana", "discards nothing")
    state = play(state, "0 pass")
    assert state.turn == 1 and state.step == "draw" and state.out[-1] != lying
    state = play(state, f"1 take 0 {lying}; 1 discard {lying}; 2 take 0 {lying}")
    state = play(state, f"2 discard {lying}")
    train = link(state, 0)
    state = apply(state, train)  # a train tile ends a skipped turn too
    assert state.racks[0].train == (Link(train.tile, train.free),) and state.turn == 1
    assert state.racks[0].tray == 5 and six_in_play(state)


def test_with_the_boneyard_empty_the_replacement_comes_from_another_seats_slot():
    state = drain(new(3), left=2, keep=tiles("3-1"))
    x = spare(state, tiles("3-1"))
    state = play(state, f"0 draw; 0 discard {x}; 1 take 0 {x}; 1 discard {x}; 2 draw")
    y = spare(state, tiles("3-1"))
    state = play(state, f"2 discard {y}")
    assert state.boneyard == 0 and state.turn == 0 and state.step == "draw"
    state = play(state, f"0 take 2 {y}; 0 discard 3-3")  # back into Caro's slot
    assert state.doubles == Doubles(T("3-3"), 2, 0, 2) and state.direction == -1
    refused(state, "2 respond 3-1", "havoc.boneyard-empty", "another seat's discard slot")
    refused(state, "2 respond 3-1 from 2 3-3", "havoc.boneyard-empty", "Ana")
    refused(state, f"2 respond 3-1 from 0 {y}", "havoc.boneyard-empty", f"holds {x}")
    state = play(state, f"2 respond 3-1 from 0 {x}")
    assert state.racks[2] == Rack(tray=6, known=(x,), slot=T("3-1"))
    assert state.racks[0].slot is None and T("3-3") in state.out and state.turn == 1


def test_a_double_replacement_drawn_last_leaves_the_responder_a_tile_short():
    state = drain(new(3), left=2, keep=tiles("3-1 5-2"))
    state = play(state, "0 draw; 0 discard 3-3; 2 respond 3-1 5-5")
    assert state.boneyard == 0 and state.racks[2] == Rack(tray=5, slot=T("5-5"))
    assert state.doubles == Doubles(T("5-5"), 2, 2, 1)
    state = play(state, "1 respond 5-2 from 0 3-1")
    assert state.racks[1].known == tiles("3-1") and state.racks[2].slot == T("5-2")
    assert state.turn == 0 and completed_turn(state)
    assert [rack.tray + len(rack.train) for rack in state.racks] == [6, 6, 5]


def test_with_nothing_to_replace_from_a_match_is_refused_and_the_responder_passes():
    state = new(3, "0 draw; 0 discard 3-1; 1 take 0 3-1; 1 discard 9-8; 2 take 0 9-8")
    state = drain(play(state, "2 discard 9-8"), left=1)
    state = play(state, "0 draw; 0 discard 3-3")
    assert state.boneyard == 0 and state.doubles == Doubles(T("3-3"), 0, 0, 2)
    state = play(state, "2 respond pass")
    refused(state, "1 respond 3-1", "havoc.boneyard-empty", "Ben cannot match 3-3")
    state = play(state, "1 respond pass")  # though Ben took 3-1: there is no replacement
    assert state.doubles is None and state.out[-1] == T("3-3") and state.racks[0].slot is None
    assert (state.turn, state.step, state.drew) == (0, "play", False)


# -- havoc.win, the tally and the match ------------------------------------------------------

TRAINS = {
    0: "9-8 8-7 7-6 6-5 5-4 4-2",
    1: "- 9-0 0-1 1-2 2-3",  # Ben keeps a tile back on his first turn
    2: "9-1 1-3 3-6 6-8 8-0",
    3: "9-2 2-5 5-0 0-3 3-7",
}
TAKES = {(1, 3): 0, (3, 4): 2}  # (seat, turn): whose discard the seat takes
DISCARDS = {(0, 3): "9-3", (2, 4): "8-4"}


def four_player_round() -> HavocState:
    """Ana fills her train on her sixth turn; Ben took Ana's 9-3 and still holds it, Dan
    took Caro's 8-4 and it is the only tile left in his tray."""
    planned = [t for text in TRAINS.values() for t in text.split() if t != "-"]
    keep = tuple(T(t) for t in planned + list(DISCARDS.values())) + tiles("9-9 8-8 7-7")
    state = new(4)
    for turn in range(6):
        for seat in range(4):
            if (seat, turn) in TAKES:
                other = TAKES[seat, turn]
                state = apply(state, DrawFrom(seat, other, state.racks[other].slot))
            else:
                state = play(state, f"{seat} draw")
            train = (TRAINS[seat].split() + ["-"])[turn]
            if train != "-":
                state = play(state, f"{seat} train {train}")
            if state.ended is not None:
                return state
            state = play(state, f"{seat} discard {DISCARDS.get((seat, turn), spare(state, keep))}")
            assert completed_turn(state) and six_in_play(state)
    raise AssertionError("Ana's train never filled")


def test_a_round_ends_the_moment_a_train_fills_and_the_trays_are_tallied_against_their_seats():
    state = four_player_round()
    assert state.filled == 0 and state.result is None and state.racks[0].is_full
    assert [r.tray for r in state.racks] == [1, 2, 1, 1] and state.racks[0].slot is not None
    assert state.racks[1].known == tiles("9-3") and state.racks[3].known == tiles("8-4")
    refused(state, "1 draw", "havoc.win", "Ana's train is full")
    refused(new(3, "0 draw"), Tally(pips=((1, 0), (2, 0))), "havoc.win", "round is not over")

    def hands(**by_name):
        return Tally(hands=tuple((NAMES.index(n), tiles(t)) for n, t in by_name.items()))

    good = {"Ben": "9-3 9-9", "Caro": "8-8", "Dan": "8-4"}
    refused(state, hands(Ben="9-3 9-9", Dan="8-4"), "havoc.win", "Caro still")
    refused(state, hands(**{**good, "Caro": "8-8 7-7"}), "havoc.invariant", "Caro's tray holds 1")
    refused(state, hands(**{**good, "Caro": "9-8"}), "set.unique", "9-8 is on Ana's train")
    refused(state, hands(**{**good, "Caro": "9-9"}), "set.unique", "9-9 is declared twice")
    refused(state, hands(**{**good, "Ben": "9-9 7-7"}), "havoc.win", "Ben took 9-3")
    refused(state, hands(**{**good, "Dan": "7-7"}), "set.unique", "Dan's tray", "8-4", "7-7")
    refused(state, Tally(pips=((1, 20), (2, 19), (3, 0))), "havoc.win", "at most 18 pips, not 19")
    tallied = apply(state, hands(Ana="7-7", **good))  # the winner's tray counts nothing
    assert tallied.result == havoc.RoundResult(0, "train", (0, 30, 16, 12), (0, 30, 16, 12))
    assert tallied.totals == (0, 30, 16, 12) and tallied.last_points == (0, 30, 16, 12)
    assert not tallied.match_over and tallied.champion is None and tallied.carry == {"played": 1}
    by_pips = apply(state, Tally(pips=((1, 30), (2, 16), (3, 12))))
    assert by_pips.result == tallied.result
    # Some trays by their tiles, the others by their pips (tally.hands): the same round.
    mixed = Tally(hands=((1, tiles("9-3 9-9")),), pips=((2, 16), (3, 12)))
    assert apply(state, mixed).result == tallied.result
    refused(state, Tally(hands=((1, tiles("9-9 7-7")),), pips=((2, 16), (3, 12))), "havoc.win",
            "Ben took 9-3")  # fmt: skip
    refused(tallied, hands(**good), "havoc.win", "tallied")
    assert apply(tallied, Undo()) == state


def test_the_match_ends_after_the_agreed_rounds_with_the_lowest_total():
    first = apply(race(new(3, rounds=2), winner=0), Tally(pips=((1, 10), (2, 20))))
    assert first.totals == (0, 10, 20) and not first.match_over and havoc.next_leader(first) == 1
    second = next_round(first)
    assert (second.turn, second.number, second.totals) == (1, 2, (0, 10, 20))
    refused(second, "0 draw", "seat.order", "Ben's turn")
    second = apply(race(second, winner=1), Tally(pips=((0, 15), (2, 1))))
    assert second.totals == (15, 10, 21) and second.match_over
    assert second.champion == 1 and second.shared == ()
    refused(second, "stop", "havoc.win", "over")
    refused(second, "2 draw", "havoc.win", "The match is over")
    match = replay(document({"rounds": 2}, NAMES[:3], [log(first), log(second)]))
    assert match.over and match.totals == (15, 10, 21) and match.winner == 1
    assert [r.state for r in match.rounds] == [first, second]
    wrong = [log(new(3, "0 draw; 0 discard 3-3")) + [act("1 respond pass")]]
    with pytest.raises(InvalidAction, match=r"round 1, action 3: havoc\.doubles: Caro answers"):
        replay(document({}, NAMES[:3], wrong))


def test_stop_ends_the_match_at_any_time_and_an_unfinished_round_scores_nothing():
    first = apply(race(new(3), winner=2), Tally(pips=((0, 9), (1, 4))))
    assert not first.match_over  # rounds 0: until the table stops it
    second = play(next_round(first), "0 draw; 0 train 9-8")
    stopped = apply(second, Stop())
    assert stopped.result == havoc.RoundResult(None, "stopped", (0, 0, 0), (0, 0, 0))
    assert stopped.match_over and stopped.totals == (9, 4, 0) and stopped.champion == 2
    refused(stopped, "0 discard 7-1", "havoc.win", "The match is over")
    refused(stopped, "stop", "havoc.win", "over")
    between = apply(first, Stop())  # between rounds: the last tally stands
    assert between.result == first.result and between.match_over and between.champion == 2
    match = replay(document({}, NAMES[:3], [log(first), log(stopped)]))
    assert match.over and match.winner == 2 and export(match)["rounds"][1]["result"] == {
        "winner": None, "reason": "stopped", "pips": {"0": 0, "1": 0, "2": 0}, "points": {}
    }  # fmt: skip


def test_a_tie_at_the_bottom_shares_the_match():
    first = apply(race(new(2, rounds=2), winner=0), Tally(pips=((1, 7),)))
    second = apply(race(next_round(first), winner=1), Tally(pips=((0, 7),)))
    assert second.totals == (7, 7) and second.match_over
    assert second.champion is None and second.shared == (0, 1)
    stopped = apply(start("havoc", {}, NAMES[:3], base=(5, 3, 3)), Stop())
    assert stopped.champion is None and stopped.shared == (1, 2)
    assert replay(document({"rounds": 2}, NAMES[:2], [log(first), log(second)])).winner is None


# -- procedure.misplay ------------------------------------------------------------------------


def test_only_the_last_action_can_be_taken_back():
    fresh = new(3)
    refused(fresh, "undo", "procedure.misplay", "nothing to take back")
    one = play(fresh, "0 draw")
    assert apply(one, Undo()) == fresh and apply(one, Undo()).turn is None
    two = play(one, "0 discard 3-3")
    back = apply(two, Undo())
    assert back == one and back.doubles is None and back.direction == 1
    refused(back, "undo", "procedure.misplay", "Only the last action")


# -- Properties of random legal matches ------------------------------------------------------


@st.composite
def tables(draw) -> tuple[int, dict]:
    players = draw(st.integers(2, 8), label="players")
    top = draw(st.sampled_from((9, 12) if players <= 6 else (12,)), label="set")
    return players, {"set": top, "rounds": draw(st.sampled_from((0, 1, 2)), label="rounds")}


def kind(action: Action) -> str:
    """What sort of move an action is: each sort is picked as often, so rare ones come up."""
    if isinstance(action, DrawFrom):
        return "take" if action.source != BONEYARD else f"draw {action.tile is not None}"
    if isinstance(action, Discard):
        return f"discard {action.tile.is_double}"
    if isinstance(action, Respond):
        way = "take" if action.take else "pass" if action.match is None else "match"
        return f"respond {way} {action.replacement is not None} {action.source}"
    return type(action).__name__


def choose(data: st.DataObject, legal: Sequence[Action], bias: int) -> Action:
    """One of ``legal`` (never an undo or a stop), train tiles favoured ``bias`` times over."""
    legal = [a for a in legal if not isinstance(a, Undo | Stop)]
    assert legal, "a seat must always be able to do something"
    kinds = sorted({kind(a) for a in legal}, key=lambda k: k != "Train")
    kinds += ["Train"] * bias if "Train" in kinds else []
    chosen = data.draw(st.sampled_from(kinds), label="kind")
    return data.draw(st.sampled_from([a for a in legal if kind(a) == chosen]), label=chosen)


def tally(data: st.DataObject, state: HavocState) -> tuple[Tally, tuple[int, ...]]:
    """Trays consistent with what the table saw: each seat's known tiles, then unseen tiles
    dealt out; the tally by tiles or by pips, with or without the winner's tray."""
    pool = list(data.draw(st.permutations(state.unseen()), label="trays"))
    trays = []
    for rack in state.racks:
        unknown = rack.tray - len(rack.known)
        trays.append(rack.known + tuple(pool[:unknown]))
        del pool[:unknown]
    points = tuple(0 if s == state.filled else sum(t.pips for t in tray)
                   for s, tray in enumerate(trays))  # fmt: skip
    seats = [s for s in range(state.seats) if s != state.filled or data.draw(st.booleans(), "w")]
    if data.draw(st.booleans(), label="by tiles"):
        return Tally(hands=tuple((s, trays[s]) for s in seats)), points
    return Tally(pips=tuple((s, sum(t.pips for t in trays[s])) for s in seats)), points


def the_tiles_are_all_there(state: HavocState) -> None:
    """Every tile is in exactly one place: out of play, on a train, in a discard slot, known
    in a tray, or hidden (in a tray or the boneyard)."""
    trains = [t for rack in state.racks for t in rack.tiles]
    slots = [rack.slot for rack in state.racks if rack.slot is not None]
    known = [t for rack in state.racks for t in rack.known]
    seen = [*state.out, *trains, *slots, *known]
    assert len(seen) == len(set(seen)), "a tile in two places"
    assert set(seen) | set(state.unseen()) == set(DominoSet(state.top).tiles)
    hidden = sum(rack.tray for rack in state.racks) + state.boneyard
    assert hidden == len(state.unseen()) + len(known) and state.boneyard >= 0
    assert len(state.out) + len(trains) + len(slots) + hidden == len(DominoSet(state.top).tiles)
    for rack in state.racks:
        assert len(rack.known) <= rack.tray and len(rack.train) <= 6
        for before, after in zip((None, *rack.train), rack.train, strict=False):
            lead = after.tile.other(after.free)  # the free half is a half of the tile
            assert before is None or lead == before.free, "a train tile matches the one before"


def the_rules_hold(before: HavocState, action: Action, after: HavocState) -> None:
    the_tiles_are_all_there(after)
    assert apply(after, Undo()) == before, "undo gives back the state before"
    assert after.actions == before.actions + 1 and after.direction in (1, -1)
    if completed_turn(after):
        if after.boneyard:
            assert six_in_play(after), "havoc.invariant"
        else:  # a double replacement with nothing left to draw leaves a seat one short
            assert all(r.tray + len(r.train) in (5, 6) for r in after.racks)
    if after.doubles is not None:
        double, slot = after.doubles.double, after.doubles.slot
        assert after.racks[slot].slot == double and after.direction == havoc.direction_of(double)
        assert after.doubles.responder != after.doubles.placer and after.turn is None
    if after.ended is not None:
        assert after.racks[after.filled].is_full and sum(r.is_full for r in after.racks) == 1
    if isinstance(action, Tally):
        points = after.result.points
        assert after.result.winner == before.filled and points[before.filled] == 0
        assert after.totals == tuple(t + p for t, p in zip(before.totals, points, strict=True))
    if after.match_over:
        low = min(after.totals)
        leaders = tuple(s for s, t in enumerate(after.totals) if t == low)
        expected = (leaders[0], ()) if len(leaders) == 1 else (None, leaders)
        assert (after.champion, after.shared) == expected


def bare_moves(state: HavocState, seats: Sequence[int] | None = None) -> list[Action]:
    """Moves that name no tray tile, of ``seats`` (the acting seat, or any before the first
    draw): draws, takes, named doubles, passes and bare answers."""
    if seats is None:
        seats = range(state.seats) if state.acting is None else (state.acting,)
    slots = [(s, r.slot) for s, r in enumerate(state.racks) if r.slot is not None]
    doubles = [t for t in DominoSet(state.top).tiles if t.is_double]
    return [move for seat in seats
            for move in (DrawFrom(seat, BONEYARD), Pass(seat), Respond(seat), Respond(seat, True),
                         *(DrawFrom(seat, s, t) for s, t in slots),
                         *(DrawFrom(seat, BONEYARD, d) for d in doubles))]  # fmt: skip


def random_match(data: st.DataObject, players: int, options: dict, most: int | None = None):
    """A match played out (or its first ``most`` actions), every step checked by
    :func:`the_rules_hold`, with the odd undo: each round's actions and final state."""
    state = start("havoc", options, NAMES[:players])
    rounds: list[list[Action]] = []
    finals: list[HavocState] = []
    # Mostly play to the trains, so rounds end; now and then dawdle, so boneyards run dry.
    bias = data.draw(st.sampled_from((4, 0)), label="train bias")
    taken = 0
    while not finals or not (state.match_over or taken == most):
        if finals:
            state = next_round(state)
        actions: list[Action] = []
        rounds.append(actions)
        # Rounds 0 plays until the table stops it: the table stops every round after the
        # first early (and, at 200 actions, any round where no train can grow any more).
        early = len(rounds) > 1 and not options["rounds"]
        cap = data.draw(st.integers(0, 60), label="stop at") if early else 200
        while state.result is None and taken != most:
            points = None
            if state.ended is not None:
                action, points = tally(data, state)
            elif len(actions) >= cap:
                action = Stop()
            else:
                legal = legal_actions(state)
                for bare in bare_moves(state):  # rare ones too: takes, passes, answers
                    assert (bare in legal) == (check(state, bare) is None), bare
                action = choose(data, legal, bias)
            after = apply(state, action)
            the_rules_hold(state, action, after)
            assert points is None or after.result.points == points
            actions.append(action)
            taken += 1
            # (Hypothesis shrinks toward 0: 0 means "no undo", so failures shrink without.)
            if data.draw(st.integers(0, 9), label="undo?") == 9:
                after = apply(after, Undo())
                assert after == state and check(after, Undo()).rule == "procedure.misplay"
                actions.append(Undo())
            state = after
        finals.append(state)
    return rounds, finals


@MATCHES
@given(tables(), st.data())
def test_random_matches_keep_every_tile_and_the_invariant_and_replay_identically(table, data):
    players, options = table
    rounds, finals = random_match(data, players, options)
    last = finals[-1]
    assert last.match_over
    match = replay(document(options, NAMES[:players], rounds))
    assert [r.state for r in match.rounds] == finals
    assert match.over and match.totals == last.totals and match.winner == last.champion
    first = export(match)
    assert first["totals"] == {str(s): t for s, t in enumerate(last.totals)}
    assert [r["result"] for r in first["rounds"]] == [s.result.to_dict() for s in finals]
    assert export(replay(first)) == first


def candidates(data: st.DataObject, state: HavocState) -> set[Action]:
    """Actions worth asking about: every seat's bare moves, and for some tiles (any of the set,
    and tiles the acting seat may hold) every way of playing them."""
    every = DominoSet(state.top).tiles
    slots = [(s, r.slot) for s, r in enumerate(state.racks) if r.slot is not None]
    found = {Undo(), Stop(), Pass(state.seats), *bare_moves(state, range(state.seats + 1))}
    for seat in range(state.seats):
        found.add(DrawFrom(seat, seat, data.draw(st.sampled_from(every), label="own slot's")))
        mine = data.draw(st.lists(st.sampled_from(every), max_size=4), label="tiles")
        if seat == state.acting and state.holdable(seat):
            mine += data.draw(st.lists(st.sampled_from(state.holdable(seat)), max_size=12))
        for tile in mine:
            double = Tile(*[data.draw(st.integers(0, state.top), label="a double")] * 2)
            found |= {Train(seat, tile, tile.high), Train(seat, tile, tile.low)}
            found |= {Discard(seat, tile), DrawFrom(seat, BONEYARD, tile)}
            found |= {Respond(seat, match=tile, replacement=r) for r in (None, double, tile)}
            for s, t in slots:
                found |= {Respond(seat, match=tile, replacement=r, source=s) for r in (t, double)}
    return found


@POSITIONS
@given(tables(), st.data())
def test_legal_actions_lists_exactly_the_actions_apply_accepts(table, data):
    players, options = table
    most = data.draw(st.integers(0, 120), label="actions")
    _, finals = random_match(data, players, options, most)
    state = finals[-1]
    legal = legal_actions(state)
    assert len(set(legal)) == len(legal)
    assert not any(isinstance(a, Tally) for a in legal)
    for action in legal:
        apply(state, action)  # raises if it is not legal after all
    for action in candidates(data, state):
        assert (action in legal) == (check(state, action) is None), action


# -- The action language -------------------------------------------------------------------

ACTIONS = [
    {"type": "draw", "seat": 0, "from": "boneyard"}, {"type": "stop"}, {"type": "undo"},
    {"type": "draw", "seat": 3, "from": "boneyard", "tile": "5-5"},
    {"type": "draw", "seat": 1, "from": 2, "tile": "7-3"}, {"type": "pass", "seat": 4},
    {"type": "train", "seat": 2, "tile": "5-8"}, {"type": "train", "seat": 2, "tile": "8-5"},
    {"type": "train", "seat": 0, "tile": "4-4"}, {"type": "discard", "seat": 1, "tile": "9-0"},
    {"type": "respond", "seat": 1, "take": True}, {"type": "respond", "seat": 1, "pass": True},
    {"type": "respond", "seat": 7, "match": "3-1"},
    {"type": "respond", "seat": 1, "match": "3-1", "replacement": "5-5"},
    {"type": "respond", "seat": 1, "match": "3-1", "replacement": "6-2", "from": 0},
    {"type": "tally", "hands": {"1": ["9-9", "3-0"], "2": []}},
    {"type": "tally", "pips": {"0": 0, "1": 12}},
]  # fmt: skip
MALFORMED = [
    "draw", {"type": "play", "seat": 0, "tile": "6-6"}, {"type": "draw", "seat": 0},
    {"type": "draw", "seat": 0, "from": "attic"}, {"type": "train", "seat": 0},
    {"type": "draw", "seat": 0, "from": "boneyard", "count": 2},
    {"type": "draw", "seat": 0, "from": 1, "tile": "x-1"}, {"type": "pass"},
    {"type": "train", "seat": 0, "tile": "19-4"}, {"type": "discard", "seat": -1, "tile": "9-4"},
    {"type": "discard", "seat": True, "tile": "9-4"}, {"type": "respond", "seat": 0},
    {"type": "respond", "seat": 0, "take": True, "pass": True},
    {"type": "respond", "seat": 0, "take": False}, {"type": "respond", "seat": 0, "pass": "yes"},
    {"type": "respond", "seat": 0, "pass": True, "replacement": "5-5"},
    {"type": "respond", "seat": 0, "take": True, "from": 1},
    {"type": "respond", "seat": 0, "match": "3-1", "from": "attic"},
    {"type": "respond", "seat": 0, "match": "3-1", "replacement": "5-x"},
    {"type": "tally"}, {"type": "tally", "hands": {"1": []}, "pips": {"1": 0}},
    {"type": "tally", "pips": {"1": -3}}, {"type": "stop", "seat": 0}, {"type": "undo", "seat": 0},
]  # fmt: skip


@pytest.mark.parametrize("data", ACTIONS, ids=lambda d: f"{d['type']}-{len(d)}")
def test_every_havoc_action_reads_back_as_written(data):
    assert parse_action(data, "havoc").to_dict() == data


def test_the_actions_cover_every_havoc_type_and_other_spellings_read_canonically():
    # The table's entries about its record (correct, adjust, abandon, stop) are every game's:
    # tests/referee/test_corrections.py reads them.
    assert {d["type"] for d in ACTIONS} | {"correct", "adjust", "abandon", "stop"} == set(
        FAMILIES["havoc"]
    )
    spelled = {"type": "draw", "seat": "1", "from": "2", "tile": "3-7"}
    assert parse_action(spelled, "havoc") == DrawFrom(1, 2, T("7-3"))
    assert act("0 train 4|9") == Train(0, T("9-4"), 4) and act("0 discard 0:9").tile == T("9-0")


@pytest.mark.parametrize("data", MALFORMED)
def test_malformed_havoc_actions_are_invalid(data):
    with pytest.raises(InvalidAction):
        parse_action(data, "havoc")


def test_a_train_tile_written_with_a_number_it_lacks_is_malformed():
    state = new(3, "0 draw")
    with pytest.raises(InvalidAction, match="9-4 has no 7"):
        apply(state, Train(0, T("9-4"), 7))


def test_pips_below_the_tiles_a_seat_is_known_to_hold_are_refused():
    # Ben takes Ana's 9-8 and keeps it; Ana's race then fills her train.
    state = new(3, "0 draw; 0 discard 9-8; 1 take 0 9-8; 1 discard 2-1")
    state = race(state, 2)
    assert T("9-8") in state.racks[1].known
    refused(state, Tally(pips=((0, 3), (1, 16))), "havoc.win", "Ben", "9-8", "at least 17")
    apply(state, Tally(pips=((0, 3), (1, 17))))
