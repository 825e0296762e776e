"""Block and Draw (RULES.md §2.3–2.5, §6): turns, drawing, the end of a round, the tally.

Actions are written in a table's shorthand: ``"0 6-6"`` (seat 0 leads 6-6),
``"1 6-3 on 6-6"``, ``"1 6-3 on 6-6 end"``, ``"2 draw"``, ``"2 draw 3"``, ``"1 pass"``,
``"undo"``.
"""

from __future__ import annotations

import pytest

from referee import (
    Declare,
    Draw,
    IllegalAction,
    InvalidAction,
    Pass,
    Play,
    Roll,
    Tally,
    Tile,
    Undo,
    line,
)
from referee.games.line import BLOCKED, DOMINO
from referee.rule_texts import RULE_TEXTS

T = Tile.parse
NAMES = ("Ana", "Ben", "Caro", "Dan", "Eve")


def act(text: str):
    words = text.split()
    if words == ["undo"]:
        return Undo()
    seat = int(words[0])
    if words[1] == "draw":
        return Draw(seat, int(words[2]) if len(words) > 2 else 1)
    if words[1] == "pass":
        return Pass(seat)
    tile = T(words[1])
    on = T(words[3]) if len(words) > 3 else None
    return Play(seat, tile, on, words[4] if len(words) > 4 else None)


def play(state: line.RoundState, actions: str) -> line.RoundState:
    for text in filter(None, (a.strip() for a in actions.split(";"))):
        state = line.apply(state, act(text))
    return state


def new(slug: str = "draw", players: int = 3, actions: str = "", **options) -> line.RoundState:
    return play(line.start(slug, options, NAMES[:players]), actions)


def hands(**declared: list[str]) -> Tally:
    return Tally(
        hands=tuple((int(s[1:]), tuple(T(t) for t in tiles)) for s, tiles in declared.items())
    )


def refused(state: line.RoundState, action) -> IllegalAction:
    action = act(action) if isinstance(action, str) else action
    with pytest.raises(IllegalAction) as caught:
        line.apply(state, action)
    error = caught.value
    assert error.rule in RULE_TEXTS, f"{error.rule} is not a rule id of RULES.md"
    assert error.message.strip()
    assert line.check(state, action) is not None and line.check(state, action).rule == error.rule
    return error


# -- the table of refusals: game, players, options, actions so far, the action, rule, words ----

REFUSALS = [
    # turn.order
    ("turn.order: a play out of turn", "draw", 3, {}, "0 6-6", "2 6-3 on 6-6", "turn.order",
     ["Ben's turn", "not Caro's"]),
    ("turn.order: a draw out of turn", "draw", 3, {}, "0 6-6", "0 draw", "turn.order",
     ["Ben's turn", "not Ana's", "Ana cannot draw"]),
    ("turn.order: a knock out of turn", "block", 2, {}, "1 6-6", "1 pass", "turn.order",
     ["Ana's turn", "Ben cannot knock"]),
    ("turn.order: drawing keeps the turn, nobody else moves", "draw", 3, {}, "0 6-6; 1 draw",
     "2 6-1 on 6-6", "turn.order", ["Ben's turn", "not Caro's"]),
    # seat.order
    ("seat.order: seat 7 at a 3-seat table", "draw", 3, {}, "", "7 6-6", "seat.order",
     ["no seat 7", "0 to 2"]),
    ("seat.order: seat 3 at a 3-seat table, mid-round", "draw", 3, {}, "0 6-6", "3 pass",
     "seat.order", ["no seat 3"]),
    # round.lead
    ("round.lead: nobody draws before the lead", "draw", 3, {}, "", "1 draw", "round.lead",
     ["Ben cannot draw yet", "draws before the lead"]),
    ("round.lead: nobody knocks before the lead", "draw", 3, {}, "", "2 pass", "round.lead",
     ["Caro cannot knock yet", "knocks before the lead"]),
    ("round.lead: nobody knocks before the lead in Block", "block", 2, {}, "", "0 pass",
     "round.lead", ["Ana cannot knock yet"]),
    # line.lead through the game's options
    ("line.lead: opening double", "draw", 2, {"opening": "double"}, "", "0 6-5", "line.lead",
     ["6-5 is not a double"]),
    # block.no-draw
    ("block.no-draw", "block", 3, {}, "0 6-6", "1 draw", "block.no-draw",
     ["no drawing in Block", "Ben"]),
    ("block.no-draw before the lead", "block", 3, {}, "", "1 draw", "block.no-draw", ["Ben"]),
    # draw.must-draw
    ("draw.must-draw: no knock while tiles can be drawn", "draw", 3, {}, "0 6-6", "1 pass",
     "draw.must-draw", ["Ben cannot knock", "13 tiles", "Ben draws first"]),
    ("draw.must-draw: still not after drawing some", "draw", 3, {}, "0 6-6; 1 draw; 1 draw 3",
     "1 pass", "draw.must-draw", ["Ben cannot knock", "9 tiles"]),
    ("draw.must-draw: one tile left is enough", "draw", 2, {"hand_size": 13, "reserve": 1},
     "0 6-6", "1 pass", "draw.must-draw", ["Ben cannot knock while 1 tile can"]),
    # draw.until
    ("draw.until one: a second draw", "draw", 3, {"draw_until": "one"}, "0 6-6; 1 draw",
     "1 draw", "draw.until", ["Ben has drawn this turn already", "knocks"]),
    ("draw.until one: several at once", "draw", 3, {"draw_until": "one"}, "0 6-6", "1 draw 2",
     "draw.until", ["Ben draws a single tile, not 2"]),
    ("draw.until one: no knock before drawing", "draw", 3, {"draw_until": "one"}, "0 6-6",
     "1 pass", "draw.must-draw", ["Ben cannot knock"]),
    # draw.reserve
    ("draw.reserve: not into the reserve", "draw", 2, {"reserve": 2}, "0 6-6", "1 draw 13",
     "draw.reserve", ["Only 12 tiles can be drawn, not 13", "Ben draws 12 at most"]),
    ("draw.reserve: only the reserve is left", "draw", 2, {"reserve": 2}, "0 6-6; 1 draw 12",
     "1 draw", "draw.reserve", ["only the 2 reserved tiles are left", "Ben knocks"]),
    ("draw.reserve: the boneyard is empty", "draw", 2, {}, "0 6-6; 1 draw 14", "1 draw",
     "draw.reserve", ["the boneyard is empty", "Ben knocks"]),
    ("draw.reserve: more than is left", "draw", 2, {}, "0 6-6; 1 draw 13", "1 draw 2",
     "draw.reserve", ["Only 1 tile can be drawn, not 2", "Ben draws 1 at most"]),
    # end.domino
    ("end.domino: no play after the last tile", "draw", 2, {"hand_size": 1}, "0 6-6",
     "1 6-5 on 6-6", "end.domino",
     ["Ana played their last tile", "Ben cannot play", "tally the hands"]),
    ("end.domino: no draw either", "draw", 2, {"hand_size": 1}, "1 6-6", "0 draw",
     "end.domino", ["Ben played their last tile", "Ana cannot draw"]),
    # end.blocked
    ("end.blocked: every seat knocked in a row", "block", 2, {}, "0 6-6; 1 pass; 0 pass",
     "1 6-5 on 6-6", "end.blocked", ["the game is blocked", "Ben cannot play", "tally"]),
    ("end.blocked: nobody knocks again", "block", 3, {}, "0 6-6; 1 pass; 2 pass; 0 pass",
     "1 pass", "end.blocked", ["the game is blocked", "Ben cannot knock"]),
    # set.unique, set.tiles and line.attach through the game
    ("set.unique: a tile already down", "draw", 2, {}, "0 6-6; 1 6-5 on 6-6", "0 5-6 on 6-6",
     "set.unique", ["6-5 is already on the table"]),
    ("set.tiles: a tile beyond the set", "draw", 2, {}, "0 6-6", "1 9-6 on 6-6", "set.tiles",
     ["9-6", "double-6"]),
    ("set.tiles: played on a tile beyond the set", "draw", 2, {}, "0 6-6", "1 6-5 on 7-7",
     "set.tiles", ["7-7", "double-6"]),
    ("set.tiles: a lead beyond the set", "block", 2, {}, "", "0 9-9", "set.tiles", ["9-9"]),
    ("line.attach: names where it fits", "draw", 2, {}, "0 6-6", "1 5-0 on 6-6", "line.attach",
     ["5-0 does not fit on 6-6", "5-0 fits nowhere now"]),
    # procedure.misplay
    ("procedure.misplay: nothing to take back", "draw", 2, {}, "", "undo", "procedure.misplay",
     ["There is nothing to take back yet."]),
    ("procedure.misplay: a play stands once the next tile is down", "draw", 2, {},
     "0 6-6; 1 6-5 on 6-6", "undo; undo", "procedure.misplay",
     ["Ana's 6-6 stands: a tile was placed after it, which closed its misplay window."]),
    ("procedure.misplay: a draw before the next tile stands with it", "draw", 2, {},
     "0 6-6; 1 draw; 1 6-5 on 6-6", "undo; undo", "procedure.misplay", ["Ben's draw stands"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("slug", "players", "options", "before", "action", "rule", "words"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_refusals(slug, players, options, before, action, rule, words):
    state = new(slug, players, before, **options)
    *first, last = action.split(";")
    state = play(state, ";".join(first))
    error = refused(state, last)
    assert error.rule == rule
    for word in words:
        assert word in error.message


def test_a_refused_action_leaves_the_state_as_it_was():
    state = new("draw", 3, "0 6-6")
    snapshot = (state.hands, state.stock, state.turn, state.layout.placed, state.actions)
    for action in ("2 6-3 on 6-6", "1 pass", "1 draw 30", "1 5-0 on 6-6"):
        refused(state, action)
    assert (state.hands, state.stock, state.turn, state.layout.placed, state.actions) == snapshot


def test_another_game_s_actions_are_refused_under_the_rule_they_belong_to():
    error = refused(new("draw", 2, "0 6-6"), Declare(1, 5))
    assert error.rule == "fives.muggins" and "Nothing scores during play in Draw" in error.message
    error = refused(new("draw", 2, "0 6-6"), Roll(1, (3, 4)))
    assert error.rule == "dominards.dice" and "Draw has no dice" in error.message
    error = refused(new("draw", 2, "0 6-6"), Play(1, T("6-5"), T("6-6"), card="J"))
    assert error.rule == "dominards.card" and "Draw has no cards" in error.message


# -- round.lead, turn.order ------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_any_seat_may_lead_and_the_next_seat_follows(seat):
    state = new("draw", 3)
    assert state.turn is None
    state = line.apply(state, Play(seat, T("6-4")))
    assert state.turn == (seat + 1) % 3
    assert state.layout.count == 10
    assert state.name(state.turn) == NAMES[(seat + 1) % 3]


def test_turns_go_round_the_table():
    state = new("block", 3, "1 6-6; 2 6-5 on 6-6; 0 pass; 1 6-4 on 6-6")
    assert state.turn == 2
    state = play(state, "2 pass; 0 pass")
    assert state.turn == 1 and not state.is_over


# -- hand.count ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "players", "size"),
    [("block", 2, 7), ("block", 3, 5), ("block", 4, 5),
     ("draw", 2, 7), ("draw", 3, 5), ("draw", 4, 4), ("draw", 5, 3)],
)  # fmt: skip
def test_hand_sizes_follow_the_rulebook_table(slug, players, size):
    state = new(slug, players)
    assert state.hands == (size,) * players
    assert state.stock == 28 - size * players


@pytest.mark.parametrize(("players", "size"), [(2, 7), (4, 7), (5, 5), (8, 5)])
def test_hand_sizes_beyond_double_six(players, size):
    # RULES.md gives no table past double-6; ruling in rulebook.py: 7 each up to four, then 5.
    state = line.start("draw", {"set": 9}, [f"P{i}" for i in range(players)])
    assert state.hands == (size,) * players
    assert state.stock == 55 - size * players


def test_hand_size_can_be_chosen():
    assert new("block", 2, hand_size=3).hands == (3, 3)


def test_draws_add_and_plays_subtract():
    state = new("draw", 3, "0 6-6")
    assert state.hands == (4, 5, 5) and state.stock == 13
    state = play(state, "1 draw; 1 draw 2")
    assert state.hands == (4, 8, 5) and state.stock == 10 and state.turn == 1
    state = play(state, "1 6-5 on 6-6")
    assert state.hands == (4, 7, 5) and state.turn == 2 and state.drew == 0


# -- draw.until, draw.reserve, draw.must-draw: what is allowed --------------------------------


def test_draw_until_playable_allows_several_draws():
    state = new("draw", 3, "0 6-6; 1 draw; 1 draw; 1 draw 4")
    assert state.hands[1] == 11 and state.turn == 1 and state.drew == 6


def test_draw_one_then_knock():
    state = new("draw", 3, "0 6-6; 1 draw", draw_until="one")
    state = line.apply(state, Pass(1))
    assert state.turn == 2 and not state.is_over and state.passes == 0
    # the next seat draws afresh
    state = play(state, "2 draw")
    assert state.hands == (4, 6, 6)


def test_draw_one_then_play():
    state = new("draw", 3, "0 6-6; 1 draw; 1 6-0 on 6-6", draw_until="one")
    assert state.turn == 2 and state.hands == (4, 5, 5)


def test_knock_allowed_when_only_the_reserve_remains():
    state = new("draw", 2, "0 6-6; 1 draw 12", reserve=2)
    assert state.drawable == 0 and state.stock == 2
    state = line.apply(state, Pass(1))
    assert state.turn == 0 and state.passes == 1
    assert Pass(0) in line.legal_actions(state)
    assert not any(isinstance(a, Draw) for a in line.legal_actions(state))


def test_knock_allowed_when_the_boneyard_is_empty():
    state = new("draw", 2, "0 6-6; 1 draw 14; 1 pass")
    assert state.stock == 0 and state.turn == 0


# -- end.domino, end.blocked ---------------------------------------------------------------------


def test_the_last_tile_ends_the_round():
    state = new("block", 2, "0 6-6; 1 6-5 on 6-6", hand_size=2)
    assert not state.is_over
    state = play(state, "0 6-4 on 6-6")
    assert state.ended == DOMINO and state.is_over and state.hands == (0, 1)
    assert line.legal_actions(state) == (Undo(),)


def test_a_play_that_kills_every_end_blocks_the_round_at_once():
    # RULES.md line.dead-end: the referee announces it before anybody knocks.
    moves = (
        "0 6-6; 1 6-5 on 6-6; 0 6-4 on 6-6; 1 5-3 on 6-5; 0 6-3 on 5-3; 1 6-1 on 6-3;"
        " 0 1-0 on 6-1; 1 6-0 on 1-0; 0 4-2 on 6-4"
    )
    state = new("block", 2, moves)
    assert not state.is_over
    state = play(state, "1 6-2 on 4-2")
    assert state.ended == BLOCKED and state.hands == (2, 2)
    error = refused(state, "0 pass")
    assert error.rule == "end.blocked"


def test_knocks_must_be_in_a_row_to_block():
    state = new("block", 2, "0 6-6; 1 pass; 0 6-5 on 6-6; 1 pass")
    assert not state.is_over and state.passes == 1
    state = play(state, "0 pass")
    assert state.ended == BLOCKED


def test_in_draw_only_knocks_with_nothing_drawable_block():
    # 2 x 12 dealt, 4 kept back: nothing can ever be drawn.
    state = new("draw", 2, "0 6-6; 1 pass", hand_size=12, reserve=4)
    assert state.passes == 1 and not state.is_over
    assert play(state, "0 pass").ended == BLOCKED
    # a knock after drawing one (draw_until one) does not count toward the block
    state = new("draw", 2, "0 6-6; 1 draw; 1 pass; 0 draw; 0 pass", draw_until="one")
    assert state.passes == 0 and not state.is_over


# -- tally.hands ---------------------------------------------------------------------------------


def ended_block() -> line.RoundState:
    """Block for two, 2 tiles each; Ana leads 6-6 and dominoes with 6-4; Ben knocked once
    and holds 2 tiles."""
    return new("block", 2, "0 6-6; 1 pass; 0 6-4 on 6-6", hand_size=2)


def blocked_draw() -> line.RoundState:
    """Draw for three, blocked: 5 each, stock drawn dry, everybody knocks."""
    return new("draw", 3, "0 6-6; 1 draw 13; 1 pass; 2 pass; 0 pass")


def blocked_block() -> line.RoundState:
    """Block for three, blocked at once: Ana holds 4 tiles, Ben and Caro 5 each."""
    return new("block", 3, "0 6-6; 1 pass; 2 pass; 0 pass")


TALLY_REFUSALS = [
    ("the round is still on", lambda: new("block", 2, "0 6-6"), hands(s0=[], s1=[]),
     "tally.hands", ["still on"]),
    ("a seat is missing", blocked_draw, hands(s0=["6-5", "6-4", "6-3", "6-2"], s1=[]),
     "tally.hands", ["Say what Caro still holds."]),
    ("two seats are missing", blocked_draw, hands(s0=["6-5", "6-4", "6-3", "6-2"]),
     "tally.hands", ["Say what Ben and Caro still hold."]),
    ("a seat that is not at the table", ended_block,
     Tally(hands=((0, ()), (1, (T("5-5"),)), (4, ()))), "seat.order", ["no seat 4"]),
    ("too few tiles for the hand count", blocked_draw,
     hands(s0=["6-5", "6-4", "6-3"], s1=[], s2=[]), "hand.count",
     ["Ana should hold 4 tiles, not 3"]),
    ("too many tiles", ended_block, hands(s0=[], s1=["5-5", "5-4", "5-3"]), "hand.count",
     ["Ben should hold 2 tiles, not 3"]),
    ("too few tiles", ended_block, hands(s0=[], s1=["5-5"]), "hand.count",
     ["Ben should hold 2 tiles, not 1 tile"]),
    ("the winner declares a tile", ended_block, hands(s0=["5-5"], s1=["5-4", "1-0"]), "hand.count",
     ["Ana should hold 0 tiles, not 1"]),
    ("a tile on the table", ended_block, hands(s0=[], s1=["5-4", "6-6"]), "set.unique",
     ["6-6 is on the table", "Ben"]),
    ("a tile in two hands", blocked_draw,
     hands(s0=["5-5", "5-4", "5-3", "5-2"], s1=["5-5",
         "4-4", "4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1", "3-0", "2-2", "2-1", "2-0",
         "1-1", "1-0", "0-0", "6-5", "6-4"], s2=["6-3", "6-2", "6-1", "6-0", "5-1"]),
     "set.unique", ["5-5", "both Ana's and Ben's hands"]),
    ("a tile beyond the set", ended_block, hands(s0=[], s1=["9-9", "5-4"]), "set.tiles",
     ["9-9", "double-6"]),
    # Off the table the dearest two are 6-5 and 5-5 (21), the cheapest 0-0 and 1-0 (1).
    ("more pips than the hand can hold", ended_block, Tally(pips=((0, 0), (1, 22))),
     "tally.hands", ["Ben holds 2 tiles", "at most 21 pips", "not 22"]),
    ("fewer pips than the hand can hold", ended_block, Tally(pips=((0, 0), (1, 0))),
     "tally.hands", ["Ben holds 2 tiles", "at least 1 pip with", "not 0"]),
    ("the domino seat declares pips", ended_block, Tally(pips=((0, 3), (1, 4))), "tally.hands",
     ["Ana holds 0 tiles", "not 3"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("state", "tally", "rule", "words"),
    [case[1:] for case in TALLY_REFUSALS],
    ids=[case[0] for case in TALLY_REFUSALS],
)
def test_tally_refusals(state, tally, rule, words):
    error = refused(state(), tally)
    assert error.rule == rule
    for word in words:
        assert word in error.message


def test_a_tile_declared_twice_in_one_hand():
    state = new("block", 2, "0 6-6; 1 pass; 0 pass", hand_size=3)
    declared = ((0, (T("1-1"), T("2-1"))), (1, (T("5-5"), T("5-5"), T("2-0"))))
    error = refused(state, Tally(hands=declared))
    assert error.rule == "set.unique"
    assert "5-5 is declared twice in Ben's hand" in error.message


def test_a_tally_by_tiles():
    state = ended_block()
    after = line.apply(state, hands(s0=[], s1=["5-4", "1-0"]))
    assert after.result.winner == 0 and after.result.reason == DOMINO
    assert after.result.pips == (0, 10) and after.result.points == (10, 0)
    assert after.last_points == (10, 0)
    error = refused(after, hands(s0=[], s1=["5-4", "1-0"]))
    assert error.rule == "tally.hands" and "already tallied" in error.message
    error = refused(after, "1 pass")
    assert error.rule == "tally.hands"
    assert "This round is tallied, so Ben cannot knock in it" in error.message


def test_a_tally_by_pips():
    # Ben drew the boneyard dry: his 18 tiles hold at least 76 pips.
    after = line.apply(blocked_draw(), Tally(pips=((0, 20), (1, 100), (2, 12))))
    assert after.result.winner == 2 and after.result.reason == BLOCKED
    assert after.result.points == (0, 0, 120)


def test_a_tally_may_declare_some_hands_by_their_tiles_and_others_by_their_pips():
    # tally.hands: by tile or as a pip total, each seat as the table can. Ana knocked last
    # holding 6-5 (it fitted on 6-6); Ben and Caro's hands are only counted.
    state = blocked_block()
    ana = (T("6-5"), T("1-1"), T("1-0"), T("0-0"))
    mixed = Tally(hands=((0, ana),), pips=((1, 40), (2, 35)))
    after = line.apply(state, mixed)
    assert after.result.pips == (14, 40, 35) and after.result.winner == 0
    assert [f.seat for f in after.result.findings] == [0]  # only a hand of tiles is audited
    error = refused(state, Tally(hands=((0, ana[:3]),), pips=((1, 40), (2, 35))))
    assert error.rule == "hand.count" and "Ana should hold 4 tiles, not 3" in error.message
    error = refused(state, Tally(hands=((0, ana),), pips=((1, 40),)))
    assert "Say what Caro still holds." in error.message
    error = refused(state, Tally(hands=((0, ana),), pips=((1, 2), (2, 35))))
    assert error.rule == "tally.hands" and "Ben holds 5 tiles" in error.message


def test_the_seat_that_dominoed_need_not_declare_its_empty_hand():
    state = ended_block()
    assert line.apply(state, hands(s1=["5-4", "1-0"])).result.points == (10, 0)
    assert line.apply(state, Tally(pips=((1, 10),))).result.points == (10, 0)


# -- tally.one-end-doubles -------------------------------------------------------------------------


@pytest.mark.parametrize(("one_end", "ben", "points"), [(False, 11, 11), (True, 6, 6)])
def test_a_double_left_in_hand(one_end, ben, points):
    state = new("block", 2, "0 6-6; 1 pass; 0 6-4 on 6-6", hand_size=2, one_end_doubles=one_end)
    after = line.apply(state, hands(s0=[], s1=["5-5", "1-0"]))
    assert after.result.pips == (0, ben) and after.result.points == (points, 0)


def test_one_end_doubles_decides_the_lowest_hand():
    state = new("block", 2, "0 6-6; 1 pass; 0 pass", hand_size=3, one_end_doubles=True)
    after = line.apply(state, hands(s0=["4-4", "2-0"], s1=["3-2", "2-1", "1-0"]))
    assert (
        after.result.pips == (6, 9) and after.result.winner == 0 and after.result.points == (9, 0)
    )
    state = new("block", 2, "0 6-6; 1 pass; 0 pass", hand_size=3)
    after = line.apply(state, hands(s0=["4-4", "2-0"], s1=["3-2", "2-1", "1-0"]))
    assert after.result.pips == (10, 9) and after.result.winner == 1


# -- tally.audit -----------------------------------------------------------------------------------


def test_a_knock_while_holding_a_tile_that_fitted_is_reported():
    state = ended_block()  # Ben knocked at action 2 while 6-6 was down
    after = line.apply(state, hands(s0=[], s1=["6-1", "2-0"]))
    [finding] = after.result.findings
    assert finding.rule == "tally.audit" and finding.seat == 1 and finding.action == 1
    assert "Ben knocked (action 2) holding 6-1, which fitted on 6-6" in finding.message
    assert after.result.points == (9, 0), "by default no score changes"


def test_an_honest_knock_is_not_reported():
    after = line.apply(ended_block(), hands(s0=[], s1=["5-1", "2-0"]))
    assert after.result.findings == ()


def test_a_tally_by_pips_cannot_be_audited():
    after = line.apply(ended_block(), Tally(pips=((0, 0), (1, 7))))
    assert after.result.findings == ()


def test_the_audit_names_the_knock_as_the_log_numbers_it():
    # Undone actions stay in the round's log, so "action 4" must be the fourth entry there.
    state = new("block", 2, "0 6-6; 1 6-5 on 6-6; undo; 1 pass; 0 6-4 on 6-6", hand_size=2)
    after = line.apply(state, hands(s0=[], s1=["6-1", "2-0"]))
    [finding] = after.result.findings
    assert finding.action == 3
    assert "Ben knocked (action 4)" in finding.message


# Draw for three, 3 tiles each, draw_until one. Ana holds 6-6 6-4 1-1, Ben 1-0 2-0 and 3-0
# or 5-0, Caro 6-5 3-3 2-2. Ben draws 2-1 and knocks while only 6 is open; later, with 5 and
# 4 open, Ben draws 6-1 (which no longer fits) and knocks again; Ana plays out.
KNOCK_AFTER_DRAW_ONE = (
    "0 6-6; 1 draw; 1 pass; 2 6-5 on 6-6; 0 6-4 on 6-6; 1 draw; 1 pass; 2 draw;"
    " 2 4-1 on 6-4; 0 1-1 on 4-1"
)


def test_a_tile_drawn_after_a_knock_is_not_held_against_it():
    # With draw_until one a seat may knock while tiles can still be drawn, and draw again on
    # a later turn: 6-1 fitted when Ben first knocked, but Ben drew it afterwards.
    state = new("draw", 3, KNOCK_AFTER_DRAW_ONE, hand_size=3, draw_until="one")
    assert state.ended == DOMINO and state.hands == (0, 5, 2)
    after = line.apply(
        state, hands(s0=[], s1=["1-0", "2-0", "3-0", "2-1", "6-1"], s2=["3-3", "2-2"])
    )
    assert after.result.findings == ()


def test_a_knock_after_drawing_one_is_still_audited():
    state = new("draw", 3, KNOCK_AFTER_DRAW_ONE, hand_size=3, draw_until="one")
    after = line.apply(
        state, hands(s0=[], s1=["1-0", "2-0", "5-0", "2-1", "6-1"], s2=["3-3", "2-2"])
    )
    [finding] = after.result.findings
    assert finding.action == 6 and finding.seat == 1
    assert "Ben knocked (action 7) holding 5-0, which fitted on 6-5" in finding.message


# -- tally.winner and block.score ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pips", "winner", "points"),
    [
        ((20, 9, 12), 1, (0, 32, 0)),
        ((9, 9, 12), None, (0, 0, 0)),  # a tie for lowest has no winner
        ((15, 15, 15), None, (0, 0, 0)),
        ((30, 12, 9), 2, (0, 0, 42)),
    ],
)
def test_a_blocked_round_is_won_by_the_lowest_hand(pips, winner, points):
    after = line.apply(blocked_block(), Tally(pips=tuple(enumerate(pips))))
    assert after.result.winner == winner and after.result.points == points


@pytest.mark.parametrize(("minus_own", "points"), [(False, (0, 0, 32)), (True, (0, 0, 23))])
def test_blocked_minus_own(minus_own, points):
    state = new("block", 3, "0 6-6; 1 pass; 2 pass; 0 pass", blocked_minus_own=minus_own)
    after = line.apply(state, Tally(pips=((0, 20), (1, 12), (2, 9))))
    assert after.result.points == points


def test_blocked_minus_own_does_not_touch_a_domino():
    state = new("block", 2, "0 6-6; 1 pass; 0 6-4 on 6-6", hand_size=2, blocked_minus_own=True)
    assert line.apply(state, hands(s0=[], s1=["5-4", "1-0"])).result.points == (10, 0)


def test_the_result_as_the_export_writes_it():
    after = line.apply(blocked_draw(), Tally(pips=((0, 20), (1, 100), (2, 12))))
    assert after.result.to_dict() == {
        "winner": 2, "reason": "blocked", "pips": {"0": 20, "1": 100, "2": 12},
        "points": {"2": 120},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ((99, 0, 0), 100, None),
        ((100, 0, 0), 100, 0),
        ((20, 151, 90), 150, 1),
        ((49, 50), 50, 1),
        ((0, 0), 50, None),
        ((101, 101), 100, None),  # a tie at the top is not yet a winner
    ],
)
def test_match_winner(totals, target, winner):
    assert line.match_winner(totals, {"target": target}) == winner


# -- procedure.misplay -------------------------------------------------------------------------


def test_undo_takes_back_the_last_action():
    before = new("draw", 3, "0 6-6")
    after = play(before, "1 6-5 on 6-6; undo")
    assert after == before
    assert after.turn == 1 and after.hands == (4, 5, 5) and T("6-5") not in after.layout
    # and the seat plays legally instead
    assert play(after, "1 6-4 on 6-6").hands == (4, 4, 5)


def test_undo_of_a_draw_and_then_of_the_play_before_it():
    state = new("draw", 3, "0 6-6; 1 6-5 on 6-6; 2 draw 2; undo")
    assert state.hands == (4, 4, 5) and state.stock == 13 and state.turn == 2
    state = play(state, "undo")  # no tile was placed since 6-5: it may still go back
    assert state.turn == 1 and T("6-5") not in state.layout


def test_a_taken_back_tile_does_not_reopen_the_play_before_it():
    state = new("draw", 3, "0 6-6; 1 6-5 on 6-6; 2 6-4 on 6-6; undo")
    assert T("6-4") not in state.layout
    error = refused(state, "undo")
    assert error.rule == "procedure.misplay" and "Ben's 6-5 stands" in error.message


def test_undo_of_a_tally_reopens_the_round():
    state = ended_block()
    tallied = line.apply(state, hands(s0=[], s1=["5-4", "1-0"]))
    reopened = line.apply(tallied, Undo())
    assert reopened == state and reopened.result is None
    assert line.apply(reopened, hands(s0=[], s1=["6-1", "2-0"])).result.points == (9, 0)


# -- legal_actions, fits, check -------------------------------------------------------------------


def test_legal_actions_before_the_lead():
    state = new("block", 2)
    actions = line.legal_actions(state)
    assert len(actions) == 2 * 28  # any seat leads any tile; nothing to undo
    assert Play(1, T("3-2")) in actions and Undo() not in actions
    assert not any(isinstance(a, Pass | Draw) for a in actions)


def test_legal_actions_in_a_draw_game():
    state = new("draw", 2, "0 6-6", reserve=2)
    actions = set(line.legal_actions(state))
    assert {Draw(1, n) for n in range(1, 13)} <= actions and Draw(1, 13) not in actions
    assert Pass(1) not in actions
    assert Undo() in actions
    plays = {a for a in actions if isinstance(a, Play)}
    assert Play(1, T("6-5"), T("6-6"), "side") in plays
    assert Play(1, T("6-5"), T("6-6")) in plays
    assert all(a.seat == 1 and a.tile.has(6) for a in plays)


def test_fits():
    state = new("draw", 2)
    assert line.fits(state, T("3-2")) == ((None, None),)
    state = play(state, "0 6-4")
    assert line.fits(state, T("4-1")) == ((T("6-4"), "side"),)
    assert line.fits(state, T("5-1")) == ()
    assert line.fits(state, T("6-4")) == ()
    assert line.fits(new("draw", 2, opening="double"), T("3-2")) == ()


def test_check_explains_without_raising():
    state = new("draw", 3, "0 6-6")
    assert line.check(state, Draw(1)) is None
    error = line.check(state, Pass(1))
    assert error.rule == "draw.must-draw"
    assert str(error).startswith("draw.must-draw: Ben cannot knock")


# -- options ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "names", "options", "words"),
    [
        ("draw", NAMES[:3], {"spinner": "all"}, "no house rule 'spinner'"),
        ("draw", NAMES[:3], {"target": 99}, "target must be one of 50, 100, 101, 150, 200"),
        ("draw", NAMES[:3], {"target": "100"}, "target must be one of"),
        ("draw", NAMES[:3], {"target": 100.0}, "target must be one of"),
        ("draw", NAMES[:3], {"set": 7}, "set must be one of 6, 9, 12"),
        ("draw", NAMES[:3], {"set": True}, "set must be one of"),
        ("draw", NAMES[:3], {"spinners": "some"}, "spinners must be one of none, first, all"),
        ("draw", NAMES[:3], {"sides_first": "yes"}, "sides_first is on or off"),
        ("draw", NAMES[:3], {"sides_first": 1}, "sides_first is on or off"),
        ("draw", NAMES[:3], {"opening": "cross"}, "opening must be one of any, double"),
        ("block", NAMES[:3], {"draw_until": "one"}, "Block has no house rule 'draw_until'"),
        ("block", NAMES[:3], {"reserve": 2}, "no house rule 'reserve'"),
        ("draw", NAMES[:3], ["set", 6], "Options must be an object"),
        ("block", NAMES[:5], {}, "Block with a double-6 set is for 2 to 4 players, not 5"),
        ("draw", NAMES[:1], {}, "for 2 to 5 players, not 1"),
        ("draw", [f"P{i}" for i in range(6)], {}, "for 2 to 5 players, not 6"),
        ("draw", [f"P{i}" for i in range(9)], {"set": 9}, "for 2 to 8 players, not 9"),
        (
            "draw",
            NAMES[:3],
            {"hand_size": 10},
            "not enough to deal 10 each to 3 players (at most 9 each)",
        ),
        ("draw", NAMES[:2], {"hand_size": 13, "reserve": 4}, "and keep 4 back (at most 12 each)"),
        ("block", NAMES[:4], {"hand_size": 8}, "A double-6 set has 28 tiles"),
        ("chess", NAMES[:2], {}, "There is no game 'chess' here"),
        ("draw", NAMES[:2], {"hand_size": 22}, "hand_size must be one of"),
    ],
)
def test_options_are_checked(slug, names, options, words):
    with pytest.raises(InvalidAction) as caught:
        line.start(slug, options, names)
    assert words in caught.value.message


def test_every_option_has_a_default():
    state = line.start("draw", None, NAMES[:2])
    assert state.options == {
        "set": 6, "hand_size": 0, "opening": "any", "spinners": "none", "sides_first": True,
        "spinner_count": "while-end", "draw_until": "playable", "reserve": 0,
        "one_end_doubles": False, "blocked_minus_own": False, "target": 100,
        "partnerships": False, "count_all_hands": False, "record": "plays",
    }  # fmt: skip


def test_a_deal_that_fits_exactly():
    state = line.start("draw", {"hand_size": 12, "reserve": 4}, NAMES[:2])
    assert state.stock == 4 and state.drawable == 0


def test_the_layout_follows_the_options():
    state = new("draw", 2, "0 6-6; 1 6-3 on 6-6 end", spinners="first", sides_first=False)
    assert state.layout.count == 15
