"""Mexican Train (RULES.md §9): a scenario for each rule with worked numbers, the score
pad, and properties of random legal matches (Hypothesis).

Hands are private: the referee accepts any tile the table has not seen, so a scenario just
names the tiles a seat plays, in a shorthand :func:`act` reads through ``parse_action``:
``"2 engine 12-12"``, ``"0 draw"``, ``"0 pass"``, ``"1 play 12-5 1"`` (on Ben's train),
``"1 play 12-4 mexican"``, ``"undo"``, ``"abandon"`` and ``"stop"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee import PRESETS, IllegalAction, InvalidAction, Tally, Undo, parse_action
from referee.actions import MEXICAN, Action, Adjust, Draw, Engine, Pass, TrainPlay
from referee.document import export, replay
from referee.games import engine as engine_of
from referee.games.trains import mexican_train as mt
from referee.games.trains.mexican_train import (
    TrainState,
    apply,
    can_no_longer_be_covered,
    check,
    engine_double,
    fits,
    instruction,
    legal_actions,
    open_doubles,
    open_to,
    start,
    trains,
)
from referee.tiles import DominoSet, Tile

T = Tile.parse
GAME = "mexican-train"
RULES = frozenset(PRESETS[GAME].rules)
NAMES = ("Ana", "Ben", "Caro", "Dan", "Eve", "Fay", "Gus", "Hal")
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
_N = max(10, settings.default.max_examples * 2 // 5)  # the profile's depth: quick or deep
MATCHES = settings(max_examples=_N, deadline=None, suppress_health_check=_QUIET)
POSITIONS = settings(max_examples=_N, deadline=None, suppress_health_check=_QUIET)


def act(text: str) -> Action:
    words = text.split()
    if len(words) == 1:
        return parse_action({"type": words[0]}, "train")
    data: dict = {"seat": words[0], "type": words[1]}
    if words[1] in ("engine", "play"):
        data["tile"] = words[2]
    if words[1] == "play":
        data["train"] = words[3]
    return parse_action(data, "train")


def play(state: TrainState, actions: str) -> TrainState:
    """Apply each action, checking that ``legal_actions`` lists it."""
    for text in filter(None, (a.strip() for a in actions.split(";"))):
        action = act(text)
        assert action in legal_actions(state), (action, check(state, action))
        state = apply(state, action)
    return state


def new(players: int = 4, actions: str = "", leader: int | None = None, **options) -> TrainState:
    return play(start(GAME, options, NAMES[:players], leader=leader), actions)


def refused(state: TrainState, action: str | Action, rule: str, *named: str) -> IllegalAction:
    """``action`` is refused under ``rule``, and the message names every one of ``named``."""
    action = act(action) if isinstance(action, str) else action
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    error = caught.value
    assert error.rule == rule, error
    assert all(word in error.message for word in named), (named, error.message)
    assert check(state, action).rule == rule and action not in legal_actions(state)
    assert rule in RULES  # the rules page of Mexican Train has an anchor for it
    return error


def track(state: TrainState, train: int | str) -> tuple[str, int, bool]:
    """A train as the table sees it: its tiles, its open end and its marker."""
    t = state.track(train)
    return " ".join(map(str, t.tiles)), t.end, t.marker


def hands(**held: str) -> Tally:
    return Tally(hands=tuple((int(s[1:]), tuple(map(T, t.split()))) for s, t in held.items()))


def pips(**totals: int) -> Tally:
    return Tally(pips=tuple((int(s[1:]), p) for s, p in totals.items()))


def next_round(state: TrainState, record: str | None = None) -> TrainState:
    return start(
        GAME, state.options, state.names, mt.next_leader(state), state.totals, state.carry,
        record=record,
    )  # fmt: skip


def document(options: dict, names: Sequence[str], rounds: Sequence) -> dict:
    played = []
    for actions in rounds:
        if isinstance(actions, dict):
            played.append(actions)
        else:
            played.append({"actions": [a.to_dict() for a in actions]})
    return {"format": "boneyard-match/1", "game": GAME, "options": options,
            "players": list(names), "rounds": played}  # fmt: skip


def log(state: TrainState) -> list[Action]:
    """The actions that made ``state`` (for states reached without an undo)."""
    actions = []
    while state.previous is not None:
        actions.append(state.last)
        state = state.previous
    return actions[::-1]


# -- train.deal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "players", "size"),
    [(12, 2, 15), (12, 4, 15), (12, 5, 12), (12, 6, 12), (12, 7, 10), (12, 8, 10),
     (9, 2, 10), (9, 4, 10), (9, 5, 8), (9, 6, 8), (9, 7, 6), (9, 8, 6),
     (15, 3, 20), (15, 4, 20), (15, 5, 16), (15, 6, 16), (15, 7, 12), (15, 8, 12)],
)  # fmt: skip
def test_hands_are_dealt_by_the_set_and_the_number_of_players(top, players, size):
    state = start(GAME, {"set": top}, NAMES[:players])
    assert state.hands == (size,) * players
    assert state.boneyard == len(DominoSet(top).tiles) - size * players
    assert state.options["set"] == top and state.placer is None and state.turn is None
    assert [t.owner for t in trains(state)] == [*range(players), MEXICAN]
    assert all(t.tiles == () and t.end == top and not t.marker for t in trains(state))


def test_hand_size_overrides_the_deal_and_a_deal_that_does_not_fit_is_refused():
    state = start(GAME, {"hand_size": 11}, NAMES[:8])  # 88 of the 91 tiles
    assert state.hands == (11,) * 8 and state.boneyard == 3
    with pytest.raises(InvalidAction) as caught:
        start(GAME, {"hand_size": 12}, NAMES[:8])
    assert caught.value.rule == "train.deal"
    assert "91 tiles: not enough to deal 12 each to 8 players (at most 11 each)" in str(
        caught.value
    )
    with pytest.raises(InvalidAction, match="55 tiles: not enough to deal 10 each to 6"):
        mt.options_for(GAME, {"set": 9, "hand_size": 10}, 6)
    assert start(GAME, {"set": 9, "hand_size": 11}, NAMES[:5]).boneyard == 0  # the whole set
    for players in (1, 9):
        with pytest.raises(InvalidAction, match=f"2 to 8 players, not {players}"):
            mt.options_for(GAME, {}, players)
    with pytest.raises(InvalidAction):
        mt.options_for(GAME, {"set": 6}, 4)


# -- train.rounds -----------------------------------------------------------------------------


def pad_round(s0: int, s1: int) -> dict:
    return {"actions": [pips(s0=s0, s1=s1).to_dict()]}


def test_a_match_has_a_round_per_double_from_12_12_down_to_0_0():
    # A score pad keeps it short: Ana goes out in every odd round, Ben in every even one.
    rounds = [pad_round(0, 10 + r) if r % 2 else pad_round(r, 0) for r in range(1, 14)]
    doc = document({"record": "scores"}, NAMES[:2], rounds)
    match = replay(doc)
    engines = [played.state.engine for played in match.rounds]
    assert engines == [Tile(n, n) for n in range(12, -1, -1)] and len(engines) == 13
    assert [r.state.number for r in match.rounds] == list(range(1, 14))
    assert [r.state.result.winner for r in match.rounds] == [0, 1] * 6 + [0]
    ana = sum(r for r in range(1, 14) if r % 2 == 0)  # 42
    ben = sum(10 + r for r in range(1, 14) if r % 2)  # 119
    assert match.totals == (ana, ben) == (42, 119)
    assert match.over and match.winner == 0
    last = match.rounds[-1].state
    assert last.match_end == (
        "train.rounds",
        "The match is over: the last round, 0-0's, is played, and Ana has the lowest total (42)",
    )
    assert last.carry == {"played": 13, "engine": None}
    doc["rounds"].append(pad_round(1, 2))
    with pytest.raises(InvalidAction) as caught:
        replay(doc)
    assert caught.value.rule == "train.rounds" and "round 14, action 1" in str(caught.value)


def test_a_shorter_match_plays_the_highest_doubles_first_and_the_lowest_total_wins():
    state = start(GAME, {"rounds": 3, "record": "scores"}, NAMES[:3])
    seen = []
    for tally in (pips(s0=0, s1=20, s2=5), pips(s0=30, s1=0, s2=5), pips(s0=4, s1=9, s2=0)):
        seen.append(engine_double(state))
        state = apply(state, tally)
        if not state.match_over:
            state = next_round(state)
    assert seen == [T("12-12"), T("11-11"), T("10-10")]
    assert state.totals == (34, 29, 10) and state.champion == 2 and state.shared == ()
    rule, words = state.match_end
    assert rule == "train.rounds" and "all 3 agreed rounds are played" in words
    assert "Caro has the lowest total (10)" in words
    refused(state, Adjust(0, 5, "late"), "train.rounds", "The match is over")
    with pytest.raises(InvalidAction, match="at most 13 rounds, not 14"):
        mt.options_for(GAME, {"rounds": 14}, 4)
    with pytest.raises(InvalidAction, match="at most 10 rounds, not 11"):
        mt.options_for(GAME, {"set": 9, "rounds": 11}, 4)
    assert mt.options_for(GAME, {"set": 15, "rounds": 16}, 4)["rounds"] == 16


def test_a_tie_at_the_lowest_total_shares_the_match():
    state = start(GAME, {"rounds": 2, "record": "scores"}, NAMES[:3])
    state = next_round(apply(state, pips(s0=0, s1=12, s2=20)))
    state = apply(state, pips(s0=12, s1=0, s2=3))
    assert state.totals == (12, 12, 23) and state.match_over
    assert state.champion is None and state.shared == (0, 1)
    assert "Ana and Ben share the lowest total (12)" in state.match_end[1]


def test_an_abandoned_round_replays_the_same_engine():
    first = [act("0 engine 12-12"), act("1 play 12-3 1"), act("abandon")]
    again = [act("3 engine 12-12"), act("0 play 12-5 0")]
    match = replay(document({}, NAMES[:4], [first, again]))
    gone, replayed = (r.state for r in match.rounds)
    assert gone.result.reason == "abandoned" and gone.carry == {"played": 0, "engine": 12}
    assert replayed.engine == T("12-12") and replayed.number == 1
    assert mt.next_leader(gone) == 1 and replayed.leader == 1  # Ana began round 1


# -- train.engine -----------------------------------------------------------------------------


def test_the_holder_places_the_engine_and_play_begins_with_the_next_seat():
    state = new(4)
    assert instruction(state) == (
        "12-12 is this round's engine: whoever holds it places it in the hub. If nobody "
        "does, any seat draws a tile, then each seat in turn until it is found."
    )
    refused(state, "2 engine 11-11", "train.engine", "engine is 12-12, not 11-11")
    refused(state, "2 engine 12-4", "train.engine", "engine is 12-12")
    refused(state, "0 play 12-4 0", "train.engine", "12-12 is not in the hub yet")
    refused(state, "0 pass", "train.engine", "not in the hub yet")
    state = play(state, "2 engine 12-12")
    # Placing it is not a turn: Dan plays first, and Caro's hand is one tile down.
    assert (state.placer, state.turn, state.first) == (2, 3, 2)
    assert state.hands == (15, 15, 14, 15) and state.turns == (0, 0, 0, 0)
    assert state.on_table() == {T("12-12"): "the engine, in the hub"}
    refused(state, "0 engine 12-12", "train.engine", "already in the hub: Caro placed it")
    refused(state, "2 play 12-4 2", "seat.order", "It is Dan's turn, not Caro's")
    assert mt.next_leader(state) == 3


def test_with_nobody_holding_the_engine_seats_draw_for_it_in_turn_from_the_leader():
    # Round 2 of a match (engine 11-11), Ben begins it.
    state = start(GAME, {}, NAMES[:4], leader=1, carry={"played": 1, "engine": 11})
    assert engine_double(state) == T("11-11") and state.number == 2
    refused(state, "0 draw", "train.engine", "in turn: it is Ben's draw, not Ana's")
    state = play(state, "1 draw; 2 draw")
    assert state.drawer == 2 and state.turn == 3 and state.boneyard == 91 - 60 - 2
    assert instruction(state) == (
        "Caro places 11-11 in the hub if that draw found it; else Dan draws a tile."
    )
    refused(state, "1 engine 11-11", "train.engine", "only Caro, who drew last")
    refused(state, "3 engine 12-12", "train.engine", "engine is 11-11, not 12-12")
    state = play(state, "3 draw; 3 engine 11-11")  # Dan drew it
    assert state.hands == (15, 16, 16, 15) and state.turn == 0 and state.first == 1
    assert mt.next_leader(state) == 2


def test_any_seat_may_begin_the_search_when_the_table_chooses():
    state = play(new(3), "2 draw")
    assert state.first == 2 and state.turn == 0 and state.hands == (15, 15, 16)
    refused(state, "1 draw", "train.engine", "Ana's draw, not Ben's")


def test_an_empty_boneyard_means_the_engine_is_in_a_hand():
    state = new(5, set=9, hand_size=11)
    refused(state, "0 draw", "train.engine", "boneyard is empty, so 9-9 is in a hand")
    state = play(state, "4 engine 9-9")
    assert state.turn == 0 and state.hands == (11, 11, 11, 11, 10)


# -- train.trains -----------------------------------------------------------------------------


def test_every_train_starts_from_the_hub_and_each_tile_matches_its_open_end():
    state = new(4, "0 engine 12-12")
    refused(state, "1 play 11-5 1", "train.trains", "first tile bears the engine's number, 12")
    state = play(state, "1 play 5-12 1")  # written either way round
    assert track(state, 1) == ("12-5", 5, False) and state.turn == 2
    refused(state, "2 play 12-5 2", "set.unique", "12-5 is on Ben's train")
    refused(state, "2 play 11-4 mexican", "train.trains", "cannot start the Mexican Train")
    state = play(state, "2 play 12-4 mexican")  # any seat may start it
    assert track(state, MEXICAN) == ("12-4", 4, False)
    refused(state, "3 play 12-3 mexican", "train.trains", "open end is 4", "bears a 4")
    refused(state, "3 play 12-3 7", "train.trains", "There is no seat 7")
    state = play(state, "3 play 4-4 mexican; 3 play 4-0 mexican")
    assert track(state, MEXICAN) == ("12-4 4-4 4-0", 0, False)
    assert state.hands == (14, 14, 14, 13)
    assert [t.owner for t in trains(state)].count(MEXICAN) == 1  # one Mexican Train a round


# -- train.marker -----------------------------------------------------------------------------


def test_a_marker_goes_out_on_a_pass_opens_the_train_and_comes_off_when_its_owner_plays():
    state = new(4, "2 engine 12-12; 3 play 12-5 3")
    assert state.turn == 0 and open_to(state, 0) == (0, MEXICAN)
    refused(state, "0 play 5-1 3", "train.marker", "Dan's train is Dan's own",
            "while it carries Dan's marker", "Ana's own train", "the Mexican Train")  # fmt: skip
    refused(state, "0 pass", "train.draw", "draw first")
    state = play(state, "0 draw")
    assert state.hands[0] == 16 and state.boneyard == 30
    state = play(state, "0 pass")
    assert track(state, 0) == ("", 12, True) and state.turn == 1
    assert open_to(state, 1) == (0, 1, MEXICAN)
    state = play(state, "1 play 12-7 0")  # on Ana's train: her marker is out
    assert track(state, 0) == ("12-7", 7, True)
    state = play(state, "2 play 12-3 mexican; 3 play 7-2 0")
    assert fits(state, T("2-9")) == (0,) and fits(state, T("3-9")) == (MEXICAN,)
    state = play(state, "0 play 2-9 0")  # Ana plays on her own train: the marker comes off
    assert track(state, 0) == ("12-7 7-2 9-2", 9, False)
    refused(state, "1 play 9-4 0", "train.marker", "Ana's train is Ana's own")
    state = play(state, "1 play 12-8 1")
    # Caro to play: 8-1 goes nowhere (Ben's marker is in), 3-0 on the Mexican Train only.
    assert fits(state, T("8-1")) == () and fits(state, T("3-0")) == (MEXICAN,)
    assert fits(state, T("12-0")) == (2,) and fits(state, T("12-7")) == ()


# -- train.turn -------------------------------------------------------------------------------


def test_a_turn_is_one_tile():
    state = new(3, "0 engine 12-12; 1 play 12-6 1")
    assert state.turn == 2 and state.turns == (0, 1, 0)
    refused(state, "1 play 6-2 1", "seat.order", "It is Caro's turn, not Ben's")


def test_first_turn_many_lays_a_run_on_the_own_train_and_ends_with_a_pass_without_a_marker():
    state = new(4, "3 engine 12-12", first_turn="many")
    state = play(state, "0 play 12-5 0; 0 play 5-3 0; 0 play 3-1 0")
    assert track(state, 0) == ("12-5 5-3 3-1", 1, False) and state.turn == 0
    assert instruction(state) == (
        "Ana's first turn: Ana may lay another tile on Ana's own train, or pass to end the "
        "turn (no marker: Ana has played)."
    )
    refused(state, "0 play 12-4 mexican", "train.turn", "own train only")
    refused(state, "0 draw", "train.draw", "Ana has played this turn")
    state = play(state, "0 pass")
    assert track(state, 0) == ("12-5 5-3 3-1", 1, False) and state.turn == 1
    assert state.hands == (12, 15, 15, 14) and state.turns == (1, 0, 0, 0)
    state = play(state, "1 play 12-4 mexican")  # a first tile elsewhere: one tile, as always
    assert state.turn == 2
    state = play(state, "2 draw; 2 play 12-6 2")  # a drawn tile ends the turn too
    assert state.turn == 3
    # Dan placed the engine, which was not a turn: his first turn is now, a run with a double.
    state = play(state, "3 play 12-8 3; 3 play 8-8 3; 3 play 8-2 3; 3 pass")
    assert track(state, 3) == ("12-8 8-8 8-2", 2, False) and state.turn == 0
    state = play(state, "0 play 1-0 0")  # Ana's second turn: one tile
    assert state.turn == 1


def test_with_first_turn_one_a_run_ends_after_one_tile():
    state = new(2, "1 engine 12-12; 0 play 12-5 0")
    assert state.turn == 1 and not state.many


# -- train.draw -------------------------------------------------------------------------------


def test_a_seat_draws_one_tile_plays_it_if_it_fits_else_passes_with_its_marker_out():
    state = new(3, "0 engine 12-12")
    refused(state, "1 pass", "train.draw", "Ben cannot pass yet: draw first", "46 left")
    state = play(state, "1 draw")
    assert state.hands == (14, 16, 15) and state.boneyard == 45 and state.drew
    refused(state, "1 draw", "train.draw", "only one per turn")
    refused(state.previous, Draw(1, 2), "train.draw", "one tile at a time, not 2")
    state = play(state, "1 play 12-2 1")  # the drawn tile fitted
    assert state.turn == 2 and not state.drew and not track(state, 1)[2]
    state = play(state, "2 draw; 2 pass")
    assert track(state, 2) == ("", 12, True) and state.turn == 0


def test_with_the_boneyard_empty_a_seat_passes_at_once_and_puts_out_its_marker():
    state = new(5, "0 engine 9-9", set=9, hand_size=11)
    refused(state, "1 draw", "train.draw", "The boneyard is empty")
    assert instruction(state).endswith("or passes (marker out: the boneyard is empty).")
    state = play(state, "1 pass")
    assert track(state, 1) == ("", 9, True) and state.passes == 1


# -- train.double -----------------------------------------------------------------------------

OPENING = "0 engine 12-12; 1 play 12-5 1; 2 play 12-6 2; 3 play 12-4 3; 0 play 12-9 0"


def test_the_layer_of_a_double_plays_again_and_the_next_seat_must_cover_it():
    state = new(4, OPENING + "; 1 play 5-5 1")
    assert state.turn == 1 and state.owed and open_doubles(state) == ((T("5-5"), 1),)
    assert instruction(state) == (
        "Ben laid 5-5 and plays again, on Ben's own train or the Mexican Train (a tile "
        "bearing 12 starts it), or draws a tile."
    )
    state = play(state, "1 play 12-11 mexican")  # the extra tile, elsewhere
    assert state.turn == 2 and open_doubles(state) == ((T("5-5"), 1),)
    assert instruction(state) == (
        "5-5 is open on Ben's train: it must be covered before anything else. Caro covers "
        "it, or draws a tile."
    )
    refused(state, "2 play 6-1 2", "train.double", "5-5 is open on Ben's train",
            "covered before anything else")  # fmt: skip
    refused(state, "2 play 11-1 mexican", "train.double", "5-5 is open on Ben's train")
    refused(state, "2 play 7-2 1", "train.double", "7-2 does not cover 5-5", "bearing 5")
    assert fits(state, T("5-3")) == (1,) and fits(state, T("6-1")) == ()
    state = play(state, "2 play 5-3 1")  # on Ben's train, though Ben's marker is in
    assert track(state, 1) == ("12-5 5-5 5-3", 3, False) and open_doubles(state) == ()
    assert state.turn == 3 and state.hands == (13, 12, 13, 14)
    state = play(state, "3 play 4-0 3")


def test_a_seat_that_cannot_cover_draws_then_passes_and_the_next_seat_must_cover_in_turn():
    state = new(4, OPENING + "; 1 play 5-5 1; 1 play 12-11 mexican")
    refused(state, "2 pass", "train.draw", "draw first")
    state = play(state, "2 draw")
    assert instruction(state).endswith("Caro covers it with the drawn tile if it fits, or "
                                       "passes (marker out).")  # fmt: skip
    refused(state, "2 play 6-1 2", "train.double", "5-5 is open on Ben's train")
    state = play(state, "2 pass")
    assert track(state, 2)[2] and state.turn == 3
    refused(state, "3 play 4-1 3", "train.double", "5-5 is open on Ben's train")
    state = play(state, "3 play 5-0 1")
    assert open_doubles(state) == () and state.turn == 0


def test_a_double_laid_as_the_extra_tile_gives_another_and_they_are_covered_in_order():
    opening = OPENING.replace("0 play 12-9 0", "0 play 12-10 mexican")
    state = new(4, opening + "; 1 play 5-5 1; 1 play 10-10 mexican")
    assert open_doubles(state) == ((T("5-5"), 1), (T("10-10"), MEXICAN)) and state.turn == 1
    refused(state, "1 pass", "train.draw", "draw first")
    state = play(state, "1 draw; 1 pass")  # no tile for either: Ben's marker goes out
    assert track(state, 1) == ("12-5 5-5", 5, True) and state.hands[1] == 13
    refused(state, "2 play 10-1 mexican", "train.double", "5-5 is open on Ben's train",
            "then 10-10 on the Mexican Train")  # fmt: skip
    state = play(state, "2 play 5-2 1")
    assert open_doubles(state) == ((T("10-10"), MEXICAN),) and state.turn == 3
    refused(state, "3 play 2-1 1", "train.double", "10-10 is open on the Mexican Train")
    state = play(state, "3 play 10-3 mexican")
    assert open_doubles(state) == () and state.turn == 0
    assert track(state, MEXICAN) == ("12-10 10-10 10-3", 3, False)


def test_the_extra_tile_may_cover_the_double_and_a_drawn_double_earns_a_draw_of_its_own():
    covered = new(4, OPENING + "; 1 play 5-5 1; 1 play 5-0 1")
    assert open_doubles(covered) == () and covered.turn == 2 and track(covered, 1)[1] == 0
    state = new(4, OPENING + "; 1 draw; 1 play 5-5 1")  # the drawn tile was a double
    assert state.owed and not state.drew
    state = play(state, "1 draw; 1 pass")  # the extra tile's own draw; Ben still cannot
    assert track(state, 1)[2] and state.hands[1] == 15 and state.turn == 2


def test_a_double_that_can_no_longer_be_covered_blocks_the_round():
    # Double-9, two players, 16 tiles each; Ben holds the engine. Ana's first turn (many)
    # lays every tile bearing 1 on her own train, 1-1 last: nothing can ever cover it.
    run = "9-1 1-0 0-2 2-1 1-3 3-4 4-1 1-5 5-6 6-1 1-7 7-8 8-1 1-1"
    state = new(2, "1 engine 9-9", set=9, hand_size=16, first_turn="many")
    state = play(state, "; ".join(f"0 play {t} 0" for t in run.split()))
    assert can_no_longer_be_covered(state, T("1-1")) and not can_no_longer_be_covered(
        state, T("5-5")
    )
    assert state.ended is None and state.owed and state.hands == (2, 15)
    state = play(state, "0 play 9-3 mexican")  # Ana's extra tile; then the cover is due
    assert state.ended == "blocked" and state.acting is None
    assert instruction(state) == (
        "The round is blocked (1-1 on Ana's train can no longer be covered: every other "
        "tile bearing 1 is on the table). Tally what is left in each hand."
    )
    refused(state, "1 draw", "train.end", "The round is over", "1-1")
    state = apply(state, pips(s0=12, s1=100))
    assert state.result.reason == "blocked" and state.result.winner == 0
    assert state.result.points == (12, 100) == state.last_points


def test_a_last_tile_played_as_the_extra_tile_wins_before_the_double_blocks():
    run = "9-1 1-0 0-2 2-1 1-3 3-4 4-1 1-5 5-6 6-1 1-7 7-8 8-1 1-1 9-3"
    state = new(2, "1 engine 9-9", set=9, hand_size=15, first_turn="many")
    state = play(
        state, "; ".join(f"0 play {t} {'mexican' if t == '9-3' else 0}" for t in run.split())
    )
    assert state.ended == "domino" and state.out == 0


# -- train.end --------------------------------------------------------------------------------


def test_the_round_ends_when_a_seat_plays_its_last_tile_a_double_included():
    state = new(2, "0 engine 12-12; 1 play 12-5 1; 0 play 12-4 0; 1 play 5-2 1", hand_size=3)
    state = play(state, "0 play 4-4 0")  # Ana's last tile: a double, never covered
    assert state.ended == "domino" and state.out == 0 and state.hands == (0, 1)
    assert open_doubles(state) == ((T("4-4"), 0),) and legal_actions(state) == (Undo(),)
    assert instruction(state) == (
        "Ana played their last tile: the round is over. Tally what is left in each hand."
    )
    for action in ("1 play 2-0 1", "1 draw", "1 pass"):
        refused(state, action, "train.end", "Ana played their last tile", "tally")
    assert apply(state, Adjust(1, 5, "agreed")).scores == (0, 5)  # the table's entries stay
    assert apply(state, act("abandon")).result.reason == "abandoned"
    assert apply(state, pips(s1=9)).result.winner == 0


def test_the_round_is_blocked_when_the_boneyard_is_empty_and_every_seat_passed_in_a_row():
    state = new(5, "0 engine 9-9; 1 pass; 2 pass; 3 pass", set=9, hand_size=11)
    assert state.passes == 3
    state = play(state, "4 play 9-6 4")  # a play breaks the row
    assert state.passes == 0
    state = play(state, "0 pass; 1 pass; 2 pass; 3 pass")
    assert state.ended is None and state.passes == 4
    state = play(state, "4 pass")
    assert state.ended == "blocked" and all(t.marker for t in trains(state)[:5])
    refused(state, "0 pass", "train.end", "every seat has passed in a row")
    assert legal_actions(state) == (Undo(),)
    # Nobody holds a 4 for Ben's 4-4: the cover goes round the table and the round is blocked
    # by the passes, though the double could still be covered.
    opening = "0 engine 9-9; 1 play 9-4 1; 2 play 9-5 2; 3 play 9-3 3; 4 play 9-2 4; 0 play 9-1 0"
    state = new(5, opening + "; 1 play 4-4 1; 1 pass; 2 pass; 3 pass; 4 pass", set=9,
                hand_size=11)  # fmt: skip
    assert (
        state.ended is None and state.passes == 4 and not can_no_longer_be_covered(state, T("4-4"))
    )
    state = play(state, "0 pass")
    assert state.ended == "blocked" and open_doubles(state) == ((T("4-4"), 1),)
    assert instruction(state) == (
        "The round is blocked (the boneyard is empty and every seat has passed in a row). "
        "Tally what is left in each hand."
    )


def test_the_round_is_tallied_only_once_it_is_over():
    state = new(3, "0 engine 12-12")
    refused(state, pips(s0=1, s1=2, s2=3), "train.end", "The round is still on")


# -- train.score ------------------------------------------------------------------------------


@pytest.mark.parametrize(("double_blank", "totals", "champion", "shared"),
                         [(50, (0, 50), 0, ()), (0, (0, 0), None, (0, 1))])  # fmt: skip
def test_the_pips_left_in_hand_score_against_their_seat_and_0_0_counts_as_chosen(
    double_blank, totals, champion, shared
):
    state = new(2, "0 engine 9-9; 1 play 9-3 1; 0 play 9-5 0", set=9, hand_size=2, rounds=1,
                double_blank=double_blank)  # fmt: skip
    assert state.ended == "domino" and state.hands == (0, 1)
    refused(state, hands(s1="3-3 0-0"), "tally.hands", "Ben should hold 1 tile, not 2 tiles")
    refused(state, hands(s1="9-3"), "set.unique", "9-3 is on Ben's train")
    refused(state, hands(s1="9-9"), "set.unique", "9-9 is the engine, in the hub")
    refused(state, hands(s0="", s1=""), "tally.hands", "Ben should hold 1 tile, not 0 tiles")
    refused(state, hands(s0="4-4", s1="0-0"), "tally.hands", "Ana should hold 0 tiles, not 1 tile")
    refused(state, Tally(hands=()), "tally.hands", "Say what Ben still holds")
    refused(state, pips(s1=51), "tally.hands", f"at most {50 if double_blank else 17} pips")
    state = apply(state, hands(s1="0-0"))
    assert state.result.winner == 0 and state.result.reason == "domino"
    assert state.result.pips == state.result.points == (0, double_blank)
    assert state.totals == totals and state.champion == champion and state.shared == shared
    assert state.match_end[0] == "train.rounds"
    refused(state, pips(s1=2), "train.rounds", "The match is over")


def test_a_blocked_round_goes_to_the_lowest_pips_and_a_tie_to_nobody():
    blocked = new(5, "0 engine 9-9; 1 pass; 2 pass; 3 pass; 4 pass; 0 pass", set=9,
                  hand_size=11)  # fmt: skip
    assert blocked.hands == (10, 11, 11, 11, 11)
    # The 11 cheapest tiles off the table hold 38 pips (0-0 counts 50), 10 of them 33.
    refused(blocked, pips(s0=40, s1=37, s2=45, s3=60, s4=70), "tally.hands",
            "Ben holds 11 tiles: at least 38 pips")  # fmt: skip
    refused(blocked, pips(s0=32, s1=38, s2=45, s3=60, s4=70), "tally.hands", "at least 33")
    won = apply(blocked, pips(s0=40, s1=45, s2=45, s3=60, s4=70))
    assert won.result.winner == 0 and won.result.reason == "blocked"
    assert won.scores == (40, 45, 45, 60, 70)
    tied = apply(blocked, pips(s0=45, s1=45, s2=50, s3=60, s4=70))
    assert tied.result.winner is None and tied.result.to_dict()["winner"] is None


# -- pad.record -------------------------------------------------------------------------------


def test_a_score_pad_round_is_its_tally_alone():
    state = start(GAME, {"record": "scores"}, NAMES[:3])
    assert state.pad and state.acting is None and legal_actions(state) == ()
    assert instruction(state) == (
        "This round is kept as a score pad: record what is left in each hand."
    )
    for action in ("0 engine 12-12", "1 draw", "2 pass", "0 play 12-3 0"):
        refused(state, action, "pad.record", "kept as a score pad")
    # Each hand at most the deal (15) and the whole boneyard (46): 61 tiles.
    refused(state, pips(s0=0, s1=10), "tally.hands", "Say what Caro still holds")
    refused(state, pips(s0=0, s1=0, s2=5), "train.end", "Ana and Ben hold nothing")
    refused(state, pips(s0=0, s1=10, s2=1000), "pad.record", "Caro cannot hold 1000 pips")
    refused(state, hands(s0="", s1="12-12", s2="3-1"), "set.unique", "12-12 is the engine")
    refused(state, hands(s0="", s1="3-1", s2="3-1"), "set.unique", "in Ben's and Caro's")
    refused(state, hands(s0="", s1="13-1", s2="3-1"), "set.tiles", "not in a double-12")
    big = " ".join(str(t) for t in DominoSet(12).tiles[1:63])
    refused(state, hands(s0="", s1=big, s2="3-1"), "pad.record", "cannot hold 62 tiles")
    # By tiles, 0-0 counting 0 is not playing out; by pips, 0 is.
    zero = start(GAME, {"record": "scores", "double_blank": 0}, NAMES[:3])
    after = apply(zero, hands(s0="0-0", s1="", s2="6-5"))
    assert after.result.winner == 1 and after.result.reason == "domino"
    assert after.result.pips == (0, 0, 11)
    after = apply(zero, pips(s0=7, s1=9, s2=8))
    assert after.result.winner == 0 and after.result.reason == "blocked"
    after = apply(state, hands(s0="0-0 1-1", s1="", s2="6-5"))
    assert after.result.pips == (52, 0, 11) and after.totals == (52, 0, 11)
    # Some hands by their tiles, the others by their pips (tally.hands): the same round.
    mixed = Tally(hands=((0, (T("0-0"), T("1-1"))),), pips=((1, 0), (2, 11)))
    assert apply(state, mixed).result == after.result
    refused(state, Tally(hands=((0, (T("12-12"),)),), pips=((1, 0), (2, 11))), "set.unique",
            "12-12 is the engine")  # fmt: skip
    assert play(after, "undo") == state
    assert apply(after, Undo()).result is None


def test_a_score_pad_match_may_switch_to_plays_at_the_start_of_a_round():
    played = {
        "record": "plays",
        "actions": [
            a.to_dict()
            for a in (
                act("1 engine 10-10"),
                act("0 play 10-4 0"),
                act("1 play 10-2 1"),
                hands(s0="3-1"),
            )
        ],
    }
    rounds = [pad_round(0, 7), pad_round(9, 0), played]
    doc = document({"rounds": 3, "record": "scores", "hand_size": 2}, NAMES[:2], rounds)
    match = replay(doc)
    assert [r.state.pad for r in match.rounds] == [True, True, False]
    assert match.rounds[2].state.result.winner == 1 and match.totals == (13, 7)
    assert match.over and match.winner == 1
    out = export(match)
    assert out["rounds"][2]["record"] == "plays" and "record" not in out["rounds"][0]
    assert export(replay(out)) == out


# -- procedure.misplay, correct.* ------------------------------------------------------------


def test_only_the_last_action_can_be_taken_back():
    state = new(3, "0 engine 12-12; 1 play 12-5 1")
    refused(new(3), "undo", "procedure.misplay", "nothing to take back")
    back = play(state, "undo")
    assert back == state.previous and back.turn == 1 and back.hands == (14, 15, 15)
    refused(back, "undo", "procedure.misplay", "Only the last action")


def test_the_table_may_adjust_abandon_and_stop():
    state = new(3, "0 engine 12-12; 1 play 12-5 1")
    adjusted = apply(state, Adjust(2, -5, "agreed"))
    assert adjusted.totals == (0, 0, -5)
    stopped = apply(adjusted, act("stop"))
    assert stopped.match_over and stopped.champion == 2
    assert stopped.result.reason == "stopped" and stopped.acting is None
    refused(stopped, "2 draw", "correct.abandon", "stopped")
    gone = apply(state, act("abandon"))
    assert gone.result.reason == "abandoned" and gone.engine == T("12-12")
    refused(gone, "2 draw", "correct.abandon", "abandoned")
    assert next_round(gone).engine == T("12-12") and next_round(gone).number == 1


def test_a_recorded_wrong_play_is_corrected_and_the_round_replays():
    log = [act("0 engine 12-12"), act("1 play 12-5 1"), act("2 draw"), act("2 pass")]
    doc = document({}, NAMES[:3], [log])
    fix = {"type": "correct", "at": 1, "replace": {"type": "play", "seat": 1, "tile": "12-6",
                                                   "train": "mexican"}}  # fmt: skip
    doc["rounds"][0]["actions"].append(fix)
    state = replay(doc).rounds[0].state
    assert track(state, 1) == ("", 12, False) and track(state, MEXICAN) == ("12-6", 6, False)
    assert track(state, 2) == ("", 12, True) and state.turn == 0
    # Ben placed the engine, not Ana: then Caro played first, and Ben's play is out of turn.
    doc["rounds"][0]["actions"][-1] = {
        "type": "correct",
        "at": 0,
        "replace": {"type": "engine", "seat": 1, "tile": "12-12"},
    }
    with pytest.raises(InvalidAction) as caught:
        replay(doc)
    assert caught.value.rule == "seat.order" and "round 1, action 2" in str(caught.value)


# -- the helpers the app reads ---------------------------------------------------------------


def test_the_engine_module_is_the_train_familys():
    assert engine_of(GAME) is mt


# -- Properties: random legal matches (Hypothesis) ----------------------------------------------


@dataclass(frozen=True)
class Table:
    """What the referee never sees: each hand's tiles, the boneyard in order, and the tile
    the seat to act has just drawn."""

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    drawn: Tile | None = None

    def after(self, action: Action) -> Table:
        hands = list(self.hands)
        if isinstance(action, Engine | TrainPlay):
            hands[action.seat] = tuple(t for t in hands[action.seat] if t != action.tile)
            return Table(tuple(hands), self.stock)
        if isinstance(action, Draw):
            hands[action.seat] += self.stock[:1]
            return Table(tuple(hands), self.stock[1:], self.stock[0])
        return Table(self.hands, self.stock)


@st.composite
def matches(draw) -> tuple[dict, tuple[str, ...]]:
    """A table of 2 to 8 seats, a set and house rules."""
    players = draw(st.integers(2, 8), label="players")
    options = {
        "set": draw(st.sampled_from((9, 12, 15)), label="set"),
        "first_turn": draw(st.sampled_from(("one", "many")), label="first_turn"),
        "double_blank": draw(st.sampled_from((50, 0)), label="double_blank"),
        "rounds": draw(st.integers(1, 2), label="rounds"),
        "hand_size": draw(st.sampled_from((0, 0, 3, 5)), label="hand_size"),
    }
    return options, NAMES[:players]


def deal(data: st.DataObject, state: TrainState) -> Table:
    tiles = data.draw(st.permutations(DominoSet(state.top).tiles), label="shuffle")
    size, seats = state.hands[0], state.seats
    hands = tuple(tuple(tiles[s * size : (s + 1) * size]) for s in range(seats))
    return Table(hands, tuple(tiles[seats * size :]))


def honest(data: st.DataObject, state: TrainState, table: Table) -> Action:
    """What a seat that plays by the rules may do, from the tiles it really holds."""
    if state.placer is None:
        holders = [s for s, hand in enumerate(table.hands) if state.engine in hand]
        if holders:
            return Engine(holders[0], state.engine)
        seat = state.turn
        if seat is None:
            seat = data.draw(st.integers(0, state.seats - 1), label="first to draw")
        return Draw(seat)
    seat = state.turn
    assert seat is not None
    held = (table.drawn,) if state.drew else table.hands[seat]
    plays = [
        TrainPlay(seat, tile, t.owner) for tile in held for t in trains(state) if tile.has(t.end)
    ]
    plays = [a for a in plays if check(state, a) is None]
    if plays and state.many and state.laid and not state.owed and data.draw(st.booleans()):
        return Pass(seat)  # a run may stop short
    if plays:
        return data.draw(st.sampled_from(plays), label="play")
    if check(state, Draw(seat)) is None:
        return Draw(seat)
    assert check(state, Pass(seat)) is None, "a seat that can neither play nor draw passes"
    return Pass(seat)


def tally(data: st.DataObject, state: TrainState, table: Table) -> Tally:
    """The real hands, by tile or by pips (0-0 counting double_blank); a seat that played
    out may say nothing."""
    seats = [s for s, hand in enumerate(table.hands) if hand or data.draw(st.booleans())]
    how = data.draw(st.sampled_from(["tiles", "pips", "some of each"]), label="tallied by")
    by_tiles = [how == "tiles" or how != "pips" and data.draw(st.booleans()) for _ in seats]
    blank = state.options["double_blank"]
    worth = [sum(blank if t == Tile(0, 0) else t.pips for t in hand) for hand in table.hands]
    hands = tuple((s, table.hands[s]) for s, tiles in zip(seats, by_tiles, strict=True) if tiles)
    pips = tuple((s, worth[s]) for s, tiles in zip(seats, by_tiles, strict=True) if not tiles)
    return Tally(hands=hands if how != "pips" else None, pips=pips if how != "tiles" else None)


def conserved(state: TrainState, table: Table) -> None:
    """Table + hands + boneyard = the set, every tile once; the counts agree."""
    on_table = [t for track in trains(state) for t in track.tiles]
    if state.placer is not None:
        on_table.append(state.engine)
    everything = on_table + [t for hand in table.hands for t in hand] + list(table.stock)
    dominoes = DominoSet(state.top).tiles
    assert len(everything) == len(dominoes) and set(everything) == set(dominoes)
    assert state.hands == tuple(len(hand) for hand in table.hands)
    assert state.boneyard == len(table.stock)
    assert set(state.on_table()) == set(on_table)
    for double, train in open_doubles(state):
        assert state.track(train).open_double == double


def universe(state: TrainState) -> list[Action]:
    """Far more than is legal, for the acting seat (or every seat): every tile of the set on
    every train and on a train that does not exist, every double as the engine, draws and
    passes; and the same for a seat that is not at the table."""
    seats = range(state.seats + 1)
    keys = [*range(state.seats + 1), MEXICAN]
    acting = seats if state.acting is None else (state.acting, state.seats)
    found: list[Action] = [Undo()]
    for seat in seats:
        found += [Draw(seat), Pass(seat)]
        found += [Engine(seat, Tile(n, n)) for n in range(state.top + 1)]
    for seat in acting:
        found += [TrainPlay(seat, t, k) for t in DominoSet(state.top).tiles for k in keys]
    return found


def agrees(state: TrainState, chance: random.Random) -> None:
    legal = legal_actions(state)
    assert len(legal) == len(set(legal)), "each legal action once"
    for action in legal:
        assert check(state, action) is None
    everything = universe(state)
    sample = chance.sample(everything, min(len(everything), 400))
    for action in sample:
        refusal = check(state, action)
        assert (refusal is None) == (action in legal), action
        assert refusal is None or refusal.rule in RULES, (action, refusal)


def play_round(data, state: TrainState, chance: random.Random) -> list[tuple[Action, TrainState]]:
    """One honest round, tallied, with the odd undo; checks every step."""
    table = deal(data, state)
    tables: list[Table] = []
    steps: list[tuple[Action, TrainState]] = []
    undos, undone = 0, False  # only the last action can be taken back, once
    while True:
        conserved(state, table)
        if chance.random() < 0.05:
            agrees(state, chance)
        if state.result is not None:
            if undone or undos >= 2 or data.draw(st.integers(0, 3), "undo the tally?") < 3:
                return steps
            action: Action = Undo()
        elif state.is_over:
            action = tally(data, state, table)
        elif not undone and undos < 2 and state.previous and data.draw(st.integers(0, 19)) == 19:
            action = Undo()
        else:
            action = honest(data, state, table)
        after = apply(state, action)
        undone = isinstance(action, Undo)
        if undone:
            assert after == state.previous
            undos += 1
            table = tables.pop()
        else:
            assert apply(after, Undo()) == state
            tables.append(table)
            table = table.after(action)
        steps.append((action, after))
        state = after
        assert len(steps) < 1500, "a round that never ends"


@MATCHES
@given(matches(), st.data())
def test_random_legal_matches_conserve_tiles_and_replay_and_export_identically(match, data):
    options, names = match
    chance = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    rounds, state = [], start(GAME, options, names)
    while True:
        steps = play_round(data, state, chance)
        rounds.append(steps)
        last = steps[-1][1]
        why = last.result.reason
        if why == "blocked":
            stuck = last.doubles and can_no_longer_be_covered(last, open_doubles(last)[0][0])
            why += " by a double" if stuck else " by passes"
        event(f"round ended: {why}")
        covered = sum(1 for a, s in steps if isinstance(a, TrainPlay) and a.tile.is_double)
        event(f"doubles laid: {min(covered, 3)}{'+' if covered > 3 else ''}")
        if last.match_over:
            break
        state = next_round(last)
    # train.score: the lowest total wins the match; a tie at the lowest is shared.
    lowest = tuple(s for s, t in enumerate(last.totals) if t == min(last.totals))
    assert (last.champion, last.shared) == ((lowest[0], ()) if len(lowest) == 1 else (None, lowest))
    doc = document(options, names, [[a for a, _ in steps] for steps in rounds])
    replayed = replay(doc)
    assert len(replayed.rounds) == len(rounds)
    for again, steps in zip(replayed.rounds, rounds, strict=True):
        assert again.state == steps[-1][1]
        assert again.actions == tuple(a for a, _ in steps)
    assert replayed.totals == last.totals and replayed.over
    first = export(replayed)
    assert export(replay(first)) == first
    for r in first["rounds"]:
        for action in r["actions"]:
            assert parse_action(action, "train").to_dict() == {
                k: v for k, v in action.items() if k != "points"
            }


@POSITIONS
@given(matches(), st.data())
def test_legal_actions_lists_exactly_the_actions_apply_accepts(match, data):
    options, names = match
    options = {**options, "hand_size": 3}
    state = start(GAME, options, names)
    table = deal(data, state)
    for _ in range(data.draw(st.integers(0, 60), label="moves")):
        if state.is_over:
            break
        action = honest(data, state, table)
        state, table = apply(state, action), table.after(action)
    legal = set(legal_actions(state))
    for action in universe(state):
        refusal = check(state, action)
        assert (refusal is None) == (action in legal), action
        # Every refusal cites a rule of Mexican Train: its rules page has an anchor for it.
        assert refusal is None or refusal.rule in RULES, (action, refusal)
