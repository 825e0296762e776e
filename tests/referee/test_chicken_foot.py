"""Chicken Foot (RULES.md §10): a scenario with worked numbers for each rule, the score
pad, properties of random legal matches (Hypothesis), and the action language.

Hands are private: the referee accepts any tile not on the table, so a scenario just names
the tiles a seat plays, in a shorthand :func:`act` reads through ``parse_action``:
``"0 engine 9-9"``, ``"1 9-8 on 9-9"`` (a play), ``"0 draw"``, ``"0 pass"`` and ``"undo"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalAction, InvalidAction, Tally, Undo, parse_action
from referee.actions import FAMILIES, Abandon, Action, Adjust, Draw, Engine, Pass, Play, Stop
from referee.document import DocumentError, export, replay
from referee.games import engine
from referee.games.trains import chicken_foot
from referee.games.trains.chicken_foot import (
    FootState,
    apply,
    check,
    fits,
    instruction,
    legal_actions,
    next_leader,
    options_for,
    start,
)
from referee.rulebook import PRESETS, RULE_TEXTS
from referee.tiles import DominoSet, Tile

T = Tile.parse
NAMES = ("Ana", "Ben", "Caro", "Dan", "Eve", "Fay", "Gus", "Hal")
GAME = "chicken-foot"
RULES = set(PRESETS[GAME].rules)
# A random match costs a legal_actions() per action (milliseconds, more with double-12).
_QUIET, _N = [HealthCheck.too_slow, HealthCheck.data_too_large], settings.default.max_examples
MATCHES = settings(max_examples=max(10, _N // 2), suppress_health_check=_QUIET, deadline=None)


def act(text: str) -> Action:
    words = text.split()
    if len(words) == 1:
        return parse_action({"type": words[0]}, "foot")
    seat, kind, rest = words[0], words[1], words[2:]
    if kind == "engine":
        return parse_action({"type": "engine", "seat": seat, "tile": rest[0]}, "foot")
    if kind in ("draw", "pass"):
        return parse_action({"type": kind, "seat": seat}, "foot")
    assert rest[0] == "on", text
    return parse_action({"type": "play", "seat": seat, "tile": kind, "on": rest[1]}, "foot")


def play(state: FootState, actions: str) -> FootState:
    """Apply each action, checking that ``legal_actions`` lists it."""
    for text in filter(None, (a.strip() for a in actions.split(";"))):
        action = act(text)
        assert action in legal_actions(state), (action, check(state, action))
        state = apply(state, action)
    return state


def new(players: int = 3, actions: str = "", leader: int | None = None, **options) -> FootState:
    return play(start(GAME, options, NAMES[:players], leader=leader), actions)


def refused(state: FootState, action: str | Action, rule: str, *named: str) -> IllegalAction:
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


def hands(**by_seat: str) -> Tally:
    """``hands(s1="0-0 5-4")``: a tally by tiles."""
    return Tally(hands=tuple((int(s[1:]), tiles(t)) for s, t in by_seat.items()))


def pips(**by_seat: int) -> Tally:
    return Tally(pips=tuple((int(s[1:]), p) for s, p in by_seat.items()))


# The root of a double-9 round with three seats: Ana places 9-9, then six arms, two each.
ROOT = (
    "0 engine 9-9; 1 9-8 on 9-9; 2 9-7 on 9-9; 0 9-6 on 9-9; 1 9-5 on 9-9; 2 9-4 on 9-9; "
    "0 9-3 on 9-9"
)


# -- foot.deal ---------------------------------------------------------------------------------


def test_each_seat_takes_seven_tiles_and_the_rest_is_the_boneyard():
    state = new(3)
    assert state.hands == (7, 7, 7) and state.boneyard == 55 - 21 and state.engine == T("9-9")
    eight = new(8, hand_size=5)
    assert eight.hands == (5,) * 8 and eight.boneyard == 55 - 40
    twelve = new(4, set=12, hand_size=21)
    assert twelve.hands == (21,) * 4 and twelve.boneyard == 91 - 84 and twelve.engine == T("12-12")


def test_a_deal_that_does_not_fit_the_set_is_refused():
    with pytest.raises(InvalidAction) as caught:
        options_for(GAME, {"set": 6}, 8)  # 8 × 7 = 56 tiles from 28
    assert caught.value.rule == "foot.deal"
    assert "56 tiles" in caught.value.message and "has 28" in caught.value.message
    assert "choose a larger set" in caught.value.message
    with pytest.raises(InvalidAction, match="deal at most 9 each") as caught:
        options_for(GAME, {"hand_size": 10}, 6)  # 60 from 55: nine each would fit
    assert caught.value.rule == "foot.deal"
    # Every tile dealt is a deal that fits: 5 × 11 = 55.
    assert new(5, hand_size=11).boneyard == 0
    with pytest.raises(InvalidAction, match="2 to 8 players, not 9"):
        options_for(GAME, {}, 9)
    with pytest.raises(DocumentError, match="foot.deal"):
        replay({"format": "boneyard-match/1", "game": GAME, "players": list(NAMES),
                "options": {"set": 6}, "rounds": []})  # fmt: skip


# -- foot.rounds -------------------------------------------------------------------------------


def test_nobody_holds_the_double_so_seats_draw_in_turn_from_the_beginner():
    state = new(3, "1 draw; 2 draw; 0 draw", leader=1)
    assert state.hands == (8, 8, 8) and state.boneyard == 31 and state.turn == 1
    assert "9-9 begins this round (double 1 of 10)" in instruction(state)
    assert "Ben draws next" in instruction(state)
    refused(state, "2 draw", "foot.rounds", "9-9", "Ben draws next")
    refused(state, "1 9-8 on 9-9", "foot.rounds", "9-9 is not placed yet")
    refused(state, "1 pass", "foot.rounds", "Nobody passes", "Ben draws")
    refused(state, "0 engine 8-8", "foot.rounds", "This round's double is 9-9", "not 8-8")
    # Ben drew it: placing it is not a turn, so play begins with the next seat clockwise.
    state = play(state, "1 draw; 1 engine 9-9")
    assert state.hands == (8, 8, 8) and state.turn == 2 and state.layout.root == T("9-9")
    assert state.boneyard == 30 and state.first == 1 and next_leader(state) == 2
    refused(state, "1 engine 9-9", "foot.rounds", "9-9 is placed already")
    refused(state, "1 9-8 on 9-9", "seat.order", "Caro's turn, not Ben's")


def test_with_no_beginner_any_seat_may_begin_the_search_or_place_the_double():
    state = new(4)
    legal = legal_actions(state)
    assert {Draw(s) for s in range(4)} <= set(legal) and Engine(3, T("9-9")) in legal
    assert not any(isinstance(a, Engine) and a.tile != T("9-9") for a in legal)
    state = play(state, "2 draw")
    assert state.turn == 3 and state.first == 2 and next_leader(state) == 3
    held = new(4, "3 engine 9-9")
    assert held.turn == 0 and held.first == 3 and next_leader(held) == 0


def test_with_every_tile_dealt_the_double_is_in_a_hand():
    state = new(5, hand_size=11, leader=0)
    refused(state, "0 draw", "foot.rounds", "boneyard is empty", "9-9 is in a hand")
    assert play(state, "4 engine 9-9").turn == 0


def finish(state: FootState) -> FootState:
    """Play a round out quickly: the double placed by the seat that begins, then each seat
    plays the first tile the referee accepts (hands are private: any tile off the table)
    until a seat has played its last; the hands tallied with the lowest tiles left."""
    state = apply(state, Engine(state.turn or 0, state.engine))
    while not state.is_over:
        legal = legal_actions(state)
        state = apply(state, next(a for a in legal if isinstance(a, Play)))
    assert state.ended == "domino"
    return apply(state, lowest_hands(state))


def lowest_hands(state: FootState) -> Tally:
    left = sorted(state.unseen(), key=state.value)
    out = []
    for seat, count in enumerate(state.hands):
        out.append((seat, tuple(left[:count])))
        del left[:count]
    return Tally(hands=tuple(out))


def run(players: int, most: int, **options) -> list[FootState]:
    finals: list[FootState] = []
    state = start(GAME, options, NAMES[:players])
    while True:
        state = finish(state)
        finals.append(state)
        if state.match_over:
            return finals
        state = start(GAME, options, NAMES[:players], next_leader(state), state.totals,
                      state.carry)  # fmt: skip
        assert len(finals) < most


def test_a_match_has_a_round_per_double_from_9_9_down_to_0_0():
    finals = run(3, 10)
    assert [f.engine for f in finals] == [Tile(n, n) for n in range(9, -1, -1)]
    assert [f.carry["played"] for f in finals] == list(range(1, 11))
    assert [f.first for f in finals] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]  # clockwise
    last = finals[-1]
    assert last.match_over and not any(f.match_over for f in finals[:-1])
    low = min(last.totals)
    assert last.totals[last.champion] == low and last.totals.count(low) == 1
    rule, words = last.match_end
    assert rule == "foot.rounds" and "all 10 rounds are played, 9-9 down to 0-0" in words
    refused(last, "0 draw", "foot.rounds", "The match is over")
    refused(last, Tally(pips=()), "foot.rounds", "The match is over")
    with pytest.raises(IllegalAction, match="The match is over") as caught:
        apply(last, Adjust(0, 5, "late"))
    assert caught.value.rule == "foot.rounds"


def test_a_match_of_two_rounds_plays_9_9_and_8_8():
    finals = run(2, 2, rounds=2, set=9)
    assert [f.engine for f in finals] == [T("9-9"), T("8-8")] and finals[-1].match_over
    assert "all 2 agreed rounds are played" in finals[-1].match_end[1]
    with pytest.raises(InvalidAction) as caught:
        options_for(GAME, {"set": 6, "rounds": 8}, 3)
    assert caught.value.rule == "foot.rounds" and "at most 7 rounds" in caught.value.message
    six = run(2, 7, set=6, hand_size=5)
    assert [f.engine.high for f in six] == [6, 5, 4, 3, 2, 1, 0]


def test_an_abandoned_round_replays_the_same_double_begun_by_the_next_seat():
    state = new(3, "1 draw; 2 engine 9-9; 0 9-8 on 9-9", leader=1)
    state = apply(state, Abandon("spilt the tiles"))
    assert state.result.reason == "abandoned" and not state.counted
    assert state.carry == {"played": 0, "engine": 9} and next_leader(state) == 2
    refused(state, "0 draw", "correct.abandon", "abandoned")
    again = start(GAME, {}, NAMES[:3], next_leader(state), state.totals, state.carry)
    assert again.engine == T("9-9") and again.number == 1 and again.turn == 2
    done = finish(again)
    assert done.carry == {"played": 1, "engine": 8}
    assert start(GAME, {}, NAMES[:3], carry=done.carry).engine == T("8-8")


# -- foot.root ---------------------------------------------------------------------------------


def test_the_round_double_takes_six_arms_before_any_other_play():
    state = new(3, "0 engine 9-9")
    assert instruction(state) == (
        "The root 9-9 needs 6 arms: each must show a 9. Ben's turn: play one, or draw."
    )
    state = play(state, "1 9-8 on 9-9; 2 9-7 on 9-9")
    refused(state, "0 8-3 on 9-8", "foot.root", "still needs 4 arms", "8-3 shows no 9")
    refused(state, "0 9-2 on 9-8", "foot.root", "9-2 goes on 9-9, not on 9-8")
    assert fits(state, T("9-2")) == (T("9-9"),) and fits(state, T("8-3")) == ()
    assert instruction(state).startswith("The root 9-9 needs 4 more arms: each must show a 9.")
    state = play(state, "0 9-6 on 9-9; 1 9-5 on 9-9; 2 9-4 on 9-9")
    assert instruction(state).startswith("The root 9-9 needs 1 more arm: it must show a 9.")
    state = play(state, "0 9-3 on 9-9")
    assert state.layout.owed == () and state.hands == (4, 5, 5) and state.turn == 1
    lines = state.layout.lines()
    assert [(line.kind, line.tiles, line.free) for line in lines] == [
        ("arm", (T(f"9-{n}"),), n) for n in (8, 7, 6, 5, 4, 3)
    ]
    # Now a tile goes on any free end: the far end of an arm.
    assert fits(state, T("8-3")) == (T("9-8"), T("9-3"))
    refused(state, "1 9-2 on 9-9", "foot.toes", "9-9's arms are all placed")
    refused(state, "1 7-2 on 9-8", "foot.toes", "free end shows 8", "7-2 fits on 9-7")
    state = play(state, "1 8-3 on 9-8")
    assert (
        state.layout.lines()[0].tiles == (T("9-8"), T("8-3")) and state.layout.lines()[0].free == 3
    )
    refused(
        state, "2 3-1 on 9-8", "foot.toes", "not at the end of its line", "3-1 fits on 9-3 or 8-3"
    )
    refused(state, "2 8-3 on 9-3", "set.unique", "8-3 is on the table already (on 9-8)")


def test_with_four_arms_the_root_takes_one_on_each_side_and_end():
    state = new(2, "0 engine 9-9; 1 9-1 on 9-9; 0 9-2 on 9-9; 1 9-3 on 9-9", root_arms=4)
    refused(state, "0 2-5 on 9-2", "foot.root", "The root 9-9 still needs 1 arm", "shows no 9")
    state = play(state, "0 9-4 on 9-9")
    assert state.layout.owed == () and len(state.layout.free_ends()) == 4
    refused(state, "1 9-5 on 9-9", "foot.toes", "9-9's arms are all placed", "9-5 fits nowhere")
    state = play(state, "1 2-5 on 9-2")
    assert [e.shows for e in state.layout.free_ends()] == [1, 3, 4, 5]


# -- foot.toes ---------------------------------------------------------------------------------


def test_a_later_double_takes_three_toes_before_any_other_play():
    state = new(3, ROOT + "; 1 8-8 on 9-8")
    owed = state.layout.opening
    assert (owed.double, owed.owes, owed.root) == (T("8-8"), 3, False)
    assert (
        instruction(state)
        == "8-8 needs 3 toes: each must show an 8. Caro's turn: play one, or draw."
    )
    refused(state, "2 7-1 on 9-7", "foot.toes", "8-8 still needs 3 toes", "7-1 shows no 8")
    refused(state, "2 8-1 on 9-7", "foot.toes", "8-1 goes on 8-8, not on 9-7")
    assert fits(state, T("8-1")) == (T("8-8"),) and fits(state, T("7-1")) == ()
    state = play(state, "2 8-1 on 8-8")
    assert instruction(state).startswith("8-8 needs 2 more toes: each must show an 8.")
    state = play(state, "0 8-2 on 8-8")
    assert instruction(state).startswith("8-8 needs 1 more toe: it must show an 8.")
    state = play(state, "1 8-3 on 8-8")
    assert state.layout.owed == () and state.hands == (3, 3, 4)
    lines = state.layout.lines()
    assert (lines[0].tiles, lines[0].free) == ((T("9-8"), T("8-8")), None)
    assert [(line.kind, line.double, line.tiles, line.free) for line in lines[6:]] == [
        ("toe", T("8-8"), (T(f"8-{n}"),), n) for n in (1, 2, 3)
    ]
    refused(state, "2 8-4 on 8-8", "foot.toes", "8-8's toes are all placed")
    state = play(state, "2 1-4 on 8-1")
    assert (
        state.layout.placed_of(T("4-1")).free == 4
        and state.layout.placed_of(T("4-1")).touching == 1
    )


def test_a_foot_that_can_no_longer_be_completed_blocks_the_round():
    # Eight of the ten sevens are on the table when 7-7 is laid: only 7-1 and 7-0 are left
    # for its three toes.
    state = new(4, ROOT.replace("0 9-6", "3 9-6").replace("0 9-3", "2 9-3")
                .replace("1 9-5", "0 9-5").replace("2 9-4", "1 9-4"))  # fmt: skip
    assert state.turn == 3
    state = play(state, "3 8-7 on 9-8; 0 7-4 on 9-4; 1 7-3 on 9-3; 2 7-5 on 9-5; "
                        "3 7-6 on 9-6; 0 7-2 on 8-7")  # fmt: skip
    assert state.layout.off_table(7) == 3 and not state.is_over
    state = play(state, "1 7-7 on 9-7")
    assert state.ended == "blocked" and state.turn is None and legal_actions(state) == (Undo(),)
    words = instruction(state)
    assert "7-7 still needs 3 toes, but only 2 tiles bearing a 7 are left off the table" in words
    assert "can never be completed" in words and "Tally the hands" in words
    refused(state, "2 7-1 on 7-7", "foot.end", "The round is over", "7-7 still needs 3 toes")
    refused(state, "2 draw", "foot.end", "The round is over")
    state = apply(state, pips(s0=10, s1=12, s2=20, s3=12))
    assert state.result.reason == "blocked" and state.result.winner == 0
    assert state.result.points == (10, 12, 20, 12) and state.totals == (10, 12, 20, 12)


# Two seats, every 9 and every 8 on the table, and each of six free ends shows one of them.
DEAD_ENDS = (
    "0 engine 9-9; 1 9-1 on 9-9; 0 9-2 on 9-9; 1 9-3 on 9-9; 0 9-4 on 9-9; "
    "1 7-4 on 9-4; 0 9-7 on 7-4; 1 9-8 on 9-7; 0 8-8 on 9-8; 1 8-1 on 8-8; 0 8-2 on 8-8; "
    "1 8-3 on 8-8; 0 1-0 on 9-1; 1 9-0 on 1-0; 0 5-2 on 9-2; 1 9-5 on 5-2; 0 6-3 on 9-3; "
    "1 9-6 on 6-3; 0 4-1 on 8-1; 1 8-4 on 4-1; 0 2-0 on 8-2; 1 8-0 on 2-0; 0 5-3 on 8-3; "
    "1 8-5 on 5-3; 0 8-6 on 8-5; 1 7-6 on 8-6"
)


def test_our_ruling_a_table_whose_every_free_end_is_dead_blocks_the_round():
    state = new(2, DEAD_ENDS, root_arms=4, hand_size=21)
    assert not state.is_over and state.layout.free_ends()[-1].shows == 7
    state = play(state, "0 8-7 on 7-6")
    assert state.ended == "blocked" and state.layout.owed == ()
    assert {e.shows for e in state.layout.free_ends()} == {8, 9}
    assert all(e.dead for e in state.layout.free_ends())
    assert "every tile bearing 8 and 9 is on the table" in instruction(state)
    assert state.hands == (7, 8)


# -- foot.draw ---------------------------------------------------------------------------------


def test_a_seat_that_cannot_play_draws_one_tile_then_plays_it_or_passes():
    state = new(3, "0 engine 9-9")
    refused(state, "1 pass", "foot.draw", "The boneyard still holds 34 tiles", "Ben draws one")
    state = play(state, "1 draw")
    assert state.hands == (6, 8, 7) and state.boneyard == 33 and state.turn == 1 and state.drew
    assert instruction(state).endswith("Ben drew: play a tile, or pass.")
    refused(state, "1 draw", "foot.draw", "one tile a turn")
    passed = play(state, "1 pass")
    assert passed.turn == 2 and not passed.drew and passed.passes == 0
    played = play(state, "1 9-0 on 9-9")  # the tile drawn fitted
    assert played.hands == (6, 7, 7) and played.turn == 2


def test_with_the_boneyard_empty_a_seat_passes_and_all_passing_in_a_row_blocks():
    state = new(5, "2 engine 9-9", hand_size=11)
    assert state.boneyard == 0 and instruction(state).endswith("or pass (the boneyard is empty).")
    refused(state, "3 draw", "foot.draw", "The boneyard is empty")
    state = play(state, "3 pass; 4 pass; 0 pass; 1 pass")
    assert state.passes == 4 and not state.is_over
    state = play(state, "2 pass")
    assert state.ended == "blocked" and state.turn is None
    assert "every seat passed in a row" in instruction(state)
    # A play breaks the run of passes.
    assert new(5, "2 engine 9-9; 3 pass; 4 9-1 on 9-9", hand_size=11).passes == 0


# -- foot.end and foot.score -------------------------------------------------------------------

# Ana places 9-9 (4 tiles left), the six arms leave her 1 and Ben 2; Ben plays on an arm, and
# Ana plays her last tile.
DOMINO = (
    "0 engine 9-9; 1 9-8 on 9-9; 0 9-7 on 9-9; 1 9-6 on 9-9; 0 9-5 on 9-9; 1 9-4 on 9-9; "
    "0 9-3 on 9-9; 1 8-2 on 9-8; 0 7-1 on 9-7"
)


@pytest.mark.parametrize("blank", [50, 0])
def test_a_round_ends_when_a_seat_plays_its_last_tile_and_0_0_counts_the_house_rule(blank):
    state = new(2, DOMINO, hand_size=5, double_blank=blank)
    assert state.hands == (0, 1) and state.ended == "domino" and state.turn is None
    assert instruction(state) == "The round is over: Ana played their last tile. Tally the hands."
    refused(state, "1 draw", "foot.end", "Ana played their last tile")
    refused(state, hands(s1="5-4 0-0"), "tally.hands", "Ben should hold 1 tile, not 2 tiles")
    refused(state, hands(s1="9-8"), "set.unique", "9-8 is on the table")
    refused(state, Tally(pips=()), "tally.hands", "Say what Ben still holds")
    most = max(blank, 16)  # 0-0, or 8-8: the dearest tile off the table
    assert most == max(state.value(t) for t in state.unseen())
    refused(state, pips(s1=most + 1), "tally.hands", f"Ben holds 1 tile: at most {most} pips")
    done = apply(state, hands(s1="0-0"))
    assert done.result.winner == 0 and done.result.reason == "domino"
    assert done.result.pips == (0, blank) and done.totals == (0, blank)
    assert done.last_points == (0, blank)
    assert done.result.to_dict() == {
        "winner": 0, "reason": "domino", "pips": {"0": 0, "1": blank},
        "points": {"1": blank} if blank else {},
    }  # fmt: skip
    assert apply(state, pips(s0=0, s1=blank)).result == done.result
    refused(done, hands(s1="0-0"), "tally.hands", "already tallied")
    refused(done, "1 pass", "foot.end", "over and tallied")
    assert apply(done, Undo()) == state


def test_the_round_is_not_tallied_while_it_goes_on():
    refused(new(3, ROOT), pips(s0=0), "foot.end", "The round is still on")


def test_a_blocked_round_goes_to_the_lowest_pips_and_a_tie_is_shared():
    blocked = new(5, "2 engine 9-9; 3 pass; 4 pass; 0 pass; 1 pass; 2 pass", hand_size=11,
                  rounds=1)  # fmt: skip
    # Ana and Ben tie with 40, the fewest: nobody wins the round, and they share the match.
    refused(
        blocked,
        pips(s0=32, s1=40, s2=60, s3=70, s4=80),
        "tally.hands",
        "Ana holds 11 tiles: at least 38",
    )
    done = apply(blocked, pips(s0=40, s1=40, s2=60, s3=70, s4=80))
    assert done.result.winner is None and done.result.reason == "blocked"
    assert done.match_over and done.champion is None and done.shared == (0, 1)
    assert "Ana and Ben share the lowest total (40)" in done.match_end[1]
    alone = apply(blocked, pips(s0=39, s1=40, s2=60, s3=70, s4=80))
    assert alone.result.winner == 0 and alone.champion == 0 and alone.shared == ()
    assert "Ana has the lowest total (39)" in alone.match_end[1]


def test_after_the_last_round_the_lowest_total_wins_counting_every_round():
    first = apply(new(2, DOMINO, hand_size=5, rounds=2), hands(s1="6-5"))
    assert first.totals == (0, 11) and not first.match_over
    second = start(GAME, {"hand_size": 5, "rounds": 2}, NAMES[:2], next_leader(first),
                   first.totals, first.carry)  # fmt: skip
    assert second.engine == T("8-8") and second.turn == 1
    second = play(second, "1 engine 8-8; 0 8-1 on 8-8; 1 8-2 on 8-8; 0 8-3 on 8-8; "
                          "1 8-4 on 8-8; 0 8-5 on 8-8; 1 8-6 on 8-8; 0 1-0 on 8-1; "
                          "1 2-0 on 8-2")  # fmt: skip
    assert second.ended == "domino" and second.hands == (1, 0)
    last = apply(second, hands(s0="6-6"))
    assert last.totals == (12, 11) and last.champion == 1 and last.match_over
    tied = apply(second, hands(s0="6-5"))
    assert tied.totals == (11, 11) and tied.champion is None and tied.shared == (0, 1)


# -- pad.record ----------------------------------------------------------------------------------


def test_a_score_pad_round_is_recorded_by_its_tally_alone():
    state = new(3, record="scores")
    assert state.pad and state.turn is None and legal_actions(state) == ()
    assert instruction(state) == chicken_foot.PAD_WORDS
    for action in ("0 engine 9-9", "0 draw", "0 pass", "1 9-8 on 9-9"):
        refused(state, action, "pad.record", "score pad")
    refused(state, hands(s0="", s1="6-5"), "tally.hands", "Caro too")
    refused(state, hands(s0="", s1="6-5", s2="9-9"), "set.unique", "this round's double")
    refused(state, hands(s0="", s1="6-5", s2="6-5"), "set.unique", "in Ben's and Caro's")
    refused(state, hands(s0="", s1="", s2="6-5"), "pad.record", "Only one seat can play out")
    refused(state, pips(s0=0, s1=0, s2=5), "pad.record", "declares its tiles")
    # A hand holds at most its 7 and the 34 of the boneyard: 41 tiles, 477 pips at most (all
    # 54 tiles but 9-9 are 527 pips with 0-0 at 50, and the 13 cheapest are 50).
    refused(state, pips(s0=0, s1=478, s2=5), "pad.record", "at most 41 tiles, worth at most 477")
    refused(state, Tally(hands=((0, ()), (1, DominoSet(9).tiles[1:43]), (2, ()))), "pad.record",
            "at most 41 tiles")  # fmt: skip
    done = apply(state, hands(s0="", s1="6-5 0-0", s2="4-4"))
    assert done.result.winner == 0 and done.result.reason == "domino"
    assert done.totals == (0, 61, 8) and done.carry == {"played": 1, "engine": 8}
    by_pips = apply(state, pips(s0=0, s1=61, s2=8))
    assert by_pips.result == done.result
    # Some hands by their tiles, the others by their pips (tally.hands): the same round.
    mixed = Tally(hands=((1, tiles("6-5 0-0")),), pips=((0, 0), (2, 8)))
    assert apply(state, mixed).result == done.result
    refused(state, Tally(hands=((1, tiles("6-5 9-9")),), pips=((0, 0), (2, 8))), "set.unique",
            "this round's double")  # fmt: skip
    # 0-0 counted as 0 is not playing out when the hand is declared by its tiles.
    blank = apply(new(3, record="scores", double_blank=0), hands(s0="0-0", s1="6-5", s2="4-4"))
    assert blank.result.winner == 0 and blank.result.reason == "blocked"
    assert blank.result.pips == (0, 11, 8)
    assert apply(state, Adjust(1, 5, "table penalty")).totals == (0, 5, 0)


def test_a_score_pad_match_replays_and_may_switch_a_round_to_play_by_play():
    document = {
        "format": "boneyard-match/1", "game": GAME, "players": ["Ana", "Ben", "Caro"],
        "options": {"record": "scores", "rounds": 3},
        "rounds": [
            {"actions": [{"type": "tally", "pips": {"0": 0, "1": 30, "2": 12}}]},
            {"record": "plays", "actions": [{"type": "engine", "seat": 2, "tile": "8-8"},
                                            {"type": "play", "seat": 0, "tile": "8-1", "on": "8-8"},
                                            {"type": "abandon"}]},
            {"record": "plays", "actions": [{"type": "engine", "seat": 1, "tile": "8-8"},
                                            {"type": "abandon"}]},
            {"actions": [{"type": "tally", "hands": {"0": ["5-5"], "1": [], "2": ["6-1"]}}]},
            {"actions": [{"type": "tally", "pips": {"0": 3, "1": 4, "2": 0}}]},
        ],
    }  # fmt: skip
    match = replay(document)
    assert [r.state.engine.high for r in match.rounds] == [9, 8, 8, 8, 7]
    assert match.totals == (13, 34, 19) and match.winner == 0 and match.over
    out = export(match)
    assert [r.get("record") for r in out["rounds"]] == [None, "plays", "plays", None, None]
    assert out["rounds"][0]["result"] == {
        "winner": 0, "reason": "domino", "pips": {"0": 0, "1": 30, "2": 12},
        "points": {"1": 30, "2": 12},
    }  # fmt: skip
    assert export(replay(out)) == out
    late = {**document, "rounds": [*document["rounds"], document["rounds"][0]]}
    with pytest.raises(DocumentError, match="round 6, action 1: foot.rounds: The match is over"):
        replay(late)
    wrong = {**document, "rounds": [{"actions": [{"type": "engine", "seat": 0, "tile": "9-9"}]}]}
    with pytest.raises(DocumentError, match="round 1, action 1: pad.record"):
        replay(wrong)


# -- procedure.misplay, correct.* ----------------------------------------------------------------


def test_only_the_last_action_can_be_taken_back():
    fresh = new(3)
    refused(fresh, "undo", "procedure.misplay", "nothing to take back")
    one = play(fresh, "0 engine 9-9")
    assert apply(one, Undo()) == fresh
    two = play(one, "1 9-8 on 9-9")
    back = apply(two, Undo())
    assert back == one and back.hands == (6, 7, 7)
    refused(back, "undo", "procedure.misplay", "Only the last action")


def test_the_table_may_adjust_abandon_or_stop():
    state = new(3, ROOT)
    adjusted = apply(state, Adjust(2, -5, "agreed"))
    assert adjusted.totals == (0, 0, -5) and apply(adjusted, Undo()) == state
    stopped = apply(adjusted, Stop())
    assert stopped.match_over and stopped.champion == 2 and stopped.result.reason == "stopped"
    rule, words = stopped.match_end
    assert rule == "correct.abandon" and "the table stopped it" in words
    refused(stopped, "1 8-1 on 9-8", "correct.abandon", "The match is over")
    assert "Stop" not in {type(a).__name__ for a in legal_actions(state)}


def test_a_play_recorded_wrong_is_corrected_and_the_round_replays():
    log = [act(a).to_dict() for a in ROOT.split(";")]
    fix = {"type": "correct", "at": 1, "replace": {"type": "play", "seat": 1, "tile": "9-2",
                                                   "on": "9-9"}}  # fmt: skip
    document = {
        "format": "boneyard-match/1", "game": GAME, "players": ["Ana", "Ben", "Caro"],
        "rounds": [{"actions": [*log, fix, {"type": "play", "seat": 1, "tile": "2-1",
                                            "on": "9-2"}]}],
    }  # fmt: skip
    match = replay(document)
    state = match.rounds[0].state
    assert state.layout.lines()[0].tiles == (T("9-2"), T("2-1")) and T("9-8") not in state.layout
    assert match.rounds[0].corrected() == {1} and export(replay(export(match))) == export(match)
    # correct.replay: a correction that makes a later entry illegal is refused with it.
    fix["replace"]["tile"] = "8-2"
    with pytest.raises(DocumentError, match="round 1, action 8: foot.root: The root 9-9 still"):
        replay({**document, "rounds": [{"actions": [*log, fix]}]})


def test_every_refusal_cites_one_of_the_games_rules():
    chance = random.Random(7)
    for seed in range(4):
        state = start(GAME, {"set": chance.choice((6, 9, 12))}, NAMES[:3], leader=seed % 3 or None)
        for _ in range(60):
            for action in probes(state, chance):
                refusal = check(state, action)
                assert refusal is None or refusal.rule in RULES, (action, refusal)
                assert refusal is None or refusal.rule in RULE_TEXTS
            legal = [a for a in legal_actions(state) if not isinstance(a, Undo)]
            if not legal:
                break
            state = apply(state, chance.choice(legal))
        if state.is_over and state.result is None:
            state = apply(state, lowest_hands(state))
        for action in probes(state, chance):
            refusal = check(state, action)
            assert refusal is None or refusal.rule in RULES, (action, refusal)
    pad = start(GAME, {"record": "scores"}, NAMES[:3])
    for action in probes(pad, chance):
        refusal = check(pad, action)
        assert refusal is None or refusal.rule in RULES, (action, refusal)


def probes(state: FootState, chance: random.Random) -> list[Action]:
    """Actions a phone could send now, legal or not: each seat (and one too many) drawing,
    passing, placing a double, and tiles on the table's tiles."""
    every = DominoSet(state.top).tiles
    ons = [*state.layout.tiles, *chance.sample(every, 3)]
    found: list[Action] = [Undo(), Tally(pips=()), lowest_hands(state)]
    for seat in range(state.seats + 1):
        found += [Draw(seat), Pass(seat), Engine(seat, state.engine), Engine(seat, T("1-1"))]
        for tile in chance.sample(every, 6) + [state.engine]:
            found += [Play(seat, tile, on) for on in chance.sample(ons, min(4, len(ons)))]
    return found


# -- Properties of random legal matches ----------------------------------------------------------


@st.composite
def tables(draw) -> tuple[int, dict]:
    players = draw(st.integers(2, 8), label="players")
    top = draw(st.sampled_from([t for t in (6, 9, 12) if (t + 1) * (t + 2) // 2 >= 5 * players]))
    tiles = (top + 1) * (top + 2) // 2
    options = {
        "set": top,
        "hand_size": draw(st.integers(5, min(21, tiles // players)), label="hand"),
        "rounds": draw(st.sampled_from((1, 2, "all") if top == 6 else (1, 2)), label="rounds"),
        "root_arms": draw(st.sampled_from((6, 4))),
        "double_blank": draw(st.sampled_from((50, 0))),
        "record": draw(st.sampled_from(("plays", "plays", "scores")), label="record"),
    }
    return players, options


@dataclass(frozen=True)
class Table:
    """What the referee never sees: the tiles in each hand, and the boneyard in order."""

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]

    def after(self, action: Action) -> Table:
        hands = list(self.hands)
        if isinstance(action, Play | Engine):
            hands[action.seat] = tuple(t for t in hands[action.seat] if t != action.tile)
        elif isinstance(action, Draw):
            hands[action.seat] += self.stock[:1]
            return Table(tuple(hands), self.stock[1:])
        return Table(tuple(hands), self.stock)


def deal(data: st.DataObject, state: FootState) -> Table:
    every = data.draw(st.permutations(DominoSet(state.top).tiles), label="shuffle")
    size, seats = state.hands[0], state.seats
    hands = tuple(tuple(every[s * size : (s + 1) * size]) for s in range(seats))
    return Table(hands, tuple(every[seats * size :]))


def honest(data: st.DataObject, state: FootState, table: Table, legal) -> Action:
    """What a seat that plays by the rules may do, from the tiles it really holds."""
    if not state.placed:
        holder = [s for s, hand in enumerate(table.hands) if state.engine in hand]
        if holder:
            return Engine(holder[0], state.engine)
        draws = [a for a in legal if isinstance(a, Draw)]
        return data.draw(st.sampled_from(draws), label="search")
    seat = state.turn
    plays = [a for a in legal if isinstance(a, Play) and a.tile in table.hands[seat]]
    assert all(a.seat == seat for a in legal if isinstance(a, Play | Draw | Pass))
    if plays:
        return data.draw(st.sampled_from(plays), label="play")
    if Draw(seat) in legal:
        return Draw(seat)
    assert Pass(seat) in legal, "a seat that can neither play nor draw passes"
    return Pass(seat)


def value(state: FootState, hand: Sequence[Tile]) -> int:
    """foot.score, written out again: the pips, 0-0 counting double_blank."""
    return sum(state.options["double_blank"] if t == Tile(0, 0) else t.pips for t in hand)


def tally(data: st.DataObject, state: FootState, table: Table) -> Tally:
    """The real hands, by tile or by pips; a seat that played out may say nothing."""
    seats = [s for s, hand in enumerate(table.hands) if hand or data.draw(st.booleans(), "omit")]
    if data.draw(st.booleans(), label="by tiles"):
        return Tally(hands=tuple((s, table.hands[s]) for s in seats))
    return Tally(pips=tuple((s, value(state, table.hands[s])) for s in seats))


def pad_tally(data: st.DataObject, state: FootState) -> Tally:
    """A score pad's tally: what some real round could leave in the hands."""
    left = [
        t for t in data.draw(st.permutations(state.unseen()), label="left") if t != state.engine
    ]
    size = state.options["hand_size"]
    out = data.draw(st.sampled_from([None, *range(state.seats)]), label="played out")
    held = []
    for seat in range(state.seats):
        most = size + min(2, state.dealt)  # what the deal and the boneyard could give
        count = 0 if seat == out else data.draw(st.integers(1, most), label="held")
        held.append(tuple(left[:count]))
        del left[:count]
    zero = [s for s in range(state.seats) if not value(state, held[s])]
    if len(zero) > 1 or data.draw(st.booleans(), label="by tiles"):
        return Tally(hands=tuple(enumerate(held)))
    return Tally(pips=tuple((s, value(state, hand)) for s, hand in enumerate(held)))


def conserved(state: FootState, table: Table) -> None:
    """Table + hands + boneyard = the set, each tile once, and the counts agree."""
    everything = [*state.layout.tiles, *(t for hand in table.hands for t in hand), *table.stock]
    assert sorted(everything) == sorted(DominoSet(state.top).tiles)
    assert state.hands == tuple(len(hand) for hand in table.hands)
    assert state.boneyard == len(table.stock)


def candidates(data: st.DataObject, state: FootState) -> set[Action]:
    """Actions worth asking about: every seat's (and one too many) draw, pass and double,
    and a sample of tiles of the set on the table's tiles and on tiles that are not there."""
    every = DominoSet(state.top).tiles
    found: set[Action] = {Undo()}
    ons = [*state.layout.tiles, *data.draw(st.lists(st.sampled_from(every), max_size=2))]
    for seat in range(state.seats + 1):
        found |= {Draw(seat), Pass(seat), Engine(seat, state.engine)}
        found.add(Engine(seat, data.draw(st.sampled_from([t for t in every if t.is_double]))))
        mine = data.draw(st.lists(st.sampled_from(every), max_size=6), label="tiles")
        if ons:
            found |= {Play(seat, t, data.draw(st.sampled_from(ons), label="on")) for t in mine}
    seat = state.acting if state.acting is not None else 0
    found |= {Play(seat, t, on) for t in state.unseen()[:8] for on in state.layout.attachments(t)}
    return found


def agrees(data: st.DataObject, state: FootState, legal: Sequence[Action]) -> None:
    assert len(set(legal)) == len(legal) and not any(isinstance(a, Tally) for a in legal)
    for action in legal:
        apply(state, action)  # raises if it is not legal after all
    for action in candidates(data, state):
        assert (action in legal) == (check(state, action) is None), action


def random_match(data: st.DataObject, players: int, options: dict):
    """A match played out honestly, each step checked, with the odd undo and the odd
    abandoned round: each round's actions, whether it was a pad round, and final state."""
    names = NAMES[:players]
    rounds: list[tuple[list[Action], bool]] = []
    finals: list[FootState] = []
    leader, base, carry = None, None, None
    abandoned = False  # at most one round a match, so matches stay short
    while not finals or not finals[-1].match_over:
        record = options["record"]
        if record == "scores" and data.draw(st.integers(0, 2), label="switch") == 2:
            record = "plays"
        state = start(GAME, options, names, leader, base, carry, record=record)
        actions: list[Action] = []
        table = deal(data, state)
        while state.result is None:
            if state.pad:
                action: Action = pad_tally(data, state)
            elif state.is_over:
                action = tally(data, state, table)
            elif (
                not abandoned and state.actions and data.draw(st.integers(0, 60), "abandon?") == 60
            ):
                action, abandoned = Abandon(), True
            else:
                legal = legal_actions(state)
                if data.draw(st.integers(0, 7), label="check?") == 7:
                    agrees(data, state, legal)
                action = honest(data, state, table, legal)
            after = apply(state, action)
            assert apply(after, Undo()) == state, "undo gives back the state before"
            actions.append(action)
            # (Hypothesis shrinks toward 0: 0 means "no undo", so failures shrink without.)
            if data.draw(st.integers(0, 9), label="undo?") == 9:
                actions += [Undo(), action]  # taken back, and done again
                after = apply(apply(after, Undo()), action)
            if after.result is None:
                table = table.after(action)
                conserved(after, table)
            state = after
        rounds.append((actions, state.pad))
        finals.append(state)
        leader, base, carry = next_leader(state), state.totals, state.carry
        assert len(finals) <= options["set"] + 2
    return rounds, finals


def the_match_is_scored(options: dict, finals: list[FootState]) -> None:
    last = finals[-1]
    counted = [f for f in finals if f.counted]
    rounds = options["set"] + 1 if options["rounds"] == "all" else options["rounds"]
    assert len(counted) == rounds
    assert [f.engine.high for f in counted] == list(
        range(options["set"], options["set"] - rounds, -1)
    )
    for final in finals:
        if final.result.reason != "abandoned":
            assert final.result.points == final.result.pips
            pips = final.result.pips
            if final.result.reason == "blocked":
                assert final.result.winner == (
                    pips.index(min(pips)) if pips.count(min(pips)) == 1 else None
                )
    totals = tuple(sum(f.result.points[s] for f in finals) for s in range(len(last.names)))
    assert last.totals == totals
    low = min(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == low)
    assert (last.champion, last.shared) == (
        (leaders[0], ()) if len(leaders) == 1 else (None, leaders)
    )


@MATCHES
@given(tables(), st.data())
def test_random_matches_conserve_tiles_agree_with_legal_actions_and_replay_identically(table, data):
    players, options = table
    rounds, finals = random_match(data, players, options)
    the_match_is_scored(options, finals)
    document = {
        "format": "boneyard-match/1", "game": GAME, "options": options,
        "players": list(NAMES[:players]),
        "rounds": [
            {"actions": [a.to_dict() for a in actions]}
            | ({"record": "plays"} if options["record"] == "scores" and not pad else {})
            for actions, pad in rounds
        ],
    }  # fmt: skip
    for actions, _ in rounds:
        for action in actions:
            assert parse_action(action.to_dict(), "foot") == action
    match = replay(document)
    assert [r.state for r in match.rounds] == finals
    assert match.over and match.totals == finals[-1].totals and match.winner == finals[-1].champion
    first = export(match)
    assert first["totals"] == {str(s): t for s, t in enumerate(finals[-1].totals)}
    assert [r["result"] for r in first["rounds"]] == [f.result.to_dict() for f in finals]
    assert export(replay(first)) == first


# -- The action language -------------------------------------------------------------------------

ACTIONS = [
    {"type": "engine", "seat": 0, "tile": "9-9"}, {"type": "draw", "seat": 1, "count": 1},
    {"type": "play", "seat": 2, "tile": "9-4", "on": "9-9"}, {"type": "pass", "seat": 3},
    {"type": "undo"}, {"type": "tally", "hands": {"1": ["0-0", "6-5"], "2": []}},
    {"type": "tally", "pips": {"0": 0, "1": 12}},
]  # fmt: skip
MALFORMED = [
    {"type": "play", "seat": 0, "tile": "9-4"}, {"type": "play", "seat": 0, "tile": "9-4",
    "on": "9-9", "train": 1}, {"type": "draw", "seat": 0, "count": 2}, {"type": "engine",
    "seat": 0}, {"type": "play", "seat": 0, "tile": "9-4", "on": "x"}, {"type": "respond",
    "seat": 0}, {"type": "play", "seat": 0, "tile": "9-4", "on": "9-9", "face": "side"},
]  # fmt: skip


@pytest.mark.parametrize("data", ACTIONS, ids=lambda d: d["type"])
def test_every_chicken_foot_action_reads_back_as_written(data):
    assert parse_action(data, "foot").to_dict() == data


def test_the_actions_cover_every_type_and_the_engine_is_found_by_slug():
    assert {d["type"] for d in ACTIONS} | {"correct", "adjust", "abandon", "stop"} == set(
        FAMILIES["foot"]
    )
    assert engine(GAME) is chicken_foot
    assert act("1 4|9 on 9:9") == Play(1, T("9-4"), T("9-9"))


@pytest.mark.parametrize("data", MALFORMED)
def test_malformed_chicken_foot_actions_are_invalid(data):
    with pytest.raises(InvalidAction):
        parse_action(data, "foot")


def test_a_tile_outside_the_set_is_refused_as_set_tiles():
    state = new(3, "0 engine 9-9")
    with pytest.raises(InvalidAction) as caught:
        apply(state, Play(1, T("10-9"), T("9-9")))
    assert caught.value.rule == "set.tiles"
    with pytest.raises(InvalidAction, match="no more"):
        apply(state, Play(1, T("9-4"), T("9-9"), face="side"))
