"""Dominards (RULES.md §3): the total, the dice, the targets, the cards and the bonuses.

Shorthand as in test_line, plus ``"0 roll 3 4"`` and ``card``/``drop`` after a play:
``"1 6-4 on 6-6 card Q drop K"``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import (
    DominoSet,
    IllegalAction,
    Play,
    Roll,
    Tally,
    Tile,
    export,
    line,
    parse_action,
    replay,
)  # fmt: skip
from referee.actions import RANKS
from referee.games.line import BLOCKED, DOMINO, LAST_CARD, dominards
from tests.referee.dominards_play import play_game

T = Tile.parse
NAMES = ("Ana", "Ben", "Caro", "Dan")


def act(text: str):
    words = text.split()
    if words == ["undo"]:
        return parse_action({"type": "undo"})
    data: dict = {"seat": int(words[0])}
    if words[1] == "roll":
        return parse_action({**data, "type": "roll", "dice": [int(w) for w in words[2:]]})
    if words[1] in ("draw", "pass"):
        count = {"count": words[2]} if words[2:] else {}
        return parse_action({**data, "type": words[1], **count})
    data.update(type="play", tile=words[1])
    rest = words[2:]
    while rest:
        if rest[0] in ("side", "end"):
            data["face"], rest = rest[0], rest[1:]
            continue
        key, value, *rest = rest
        data[key] = value
    return parse_action(data)


def play(state: line.RoundState, actions: str) -> line.RoundState:
    for text in filter(None, (a.strip() for a in actions.split(";"))):
        state = line.apply(state, act(text))
    return state


def new(players: int = 3, actions: str = "", carry=None, **options) -> line.RoundState:
    return play(line.start("dominards", options, NAMES[:players], carry=carry), actions)


def refused(state: line.RoundState, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        line.apply(state, act(text))
    return caught.value


# -- dominards.total: RULES.md's worked example ------------------------------------------------


def test_the_worked_example_totals_14():
    """S004's picture: 0-5 5-4 4-4 4-6 [6-6] 6-3 3-3, with 2-6 on the spinner's end."""
    state = new(
        2,
        "0 roll 1 1; 0 6-6; 1 6-4 on 6-6; 0 6-3 on 6-6; 1 roll 2 2; 1 4-4 on 6-4;"
        "0 3-3 on 6-3; 1 5-4 on 4-4; 0 roll 3 3; 0 5-0 on 5-4; 1 6-2 on 6-6 end",
    )
    assert state.layout.count == 14
    shows = sorted(shows for _, shows in state.layout.count_parts())
    assert shows == [0, 2, 6, 6]  # 0 of 0-5, 2 of 2-6, 3-3 as 6, the free half of 6-6


def test_the_lead_is_a_double_and_the_dice_come_first():
    state = new()
    error = refused(state, "0 6-6")
    assert error.rule == "dominards.dice" and "rolls first" in error.message
    state = play(state, "1 roll 3 4")  # the roll names the leader
    assert state.turn == 1 and state.dice.controller == 1
    assert refused(state, "0 6-6").rule == "turn.order"
    assert refused(state, "1 6-5").rule == "line.lead"
    assert refused(state, "2 roll 1 1").rule == "dominards.dice"


# -- dominards.dice: control rotates after seats + 1 turns -----------------------------------


def test_the_roll_governs_every_seat_once_and_the_controller_twice_then_passes_on():
    state = new(3, "0 roll 3 4; 0 6-6")
    seen = [(state.dice.controller, state.dice.turns_left(3))]
    for text in ("1 6-5 on 6-6", "2 draw 2", "2 6-1 on 6-6", "0 5-5 on 6-5"):
        state = play(state, text)
        seen.append((state.dice.controller, state.dice.turns_left(3)))
    # a draw is no turn; the controller's second turn hands the dice to the next seat
    assert seen == [(0, 3), (0, 2), (0, 2), (0, 1), (1, 0)]
    assert state.turn == 1 and state.must_roll == 1
    error = refused(state, "1 5-3 on 5-5")
    assert error.rule == "dominards.dice" and "Ben controls the dice now" in error.message
    error = refused(state, "0 roll 1 1")
    assert error.rule == "dominards.dice" and "Ben controls the dice now, not Ana" in error.message
    state = play(state, "1 roll 1 2 3 4; 1 5-3 on 5-5; 2 3-2 on 5-3; 0 1-1 on 6-1")
    assert state.dice == dominards.Dice(1, (1, 2, 3, 4), 3)
    state = play(state, "1 1-0 on 1-1")
    assert state.dice == dominards.Dice(2) and state.must_roll == 2
    error = refused(play(state, "2 roll 6 6"), "2 roll 6 6")
    assert error.rule == "dominards.dice" and "still governs 4 more turns" in error.message


def test_a_knock_is_a_turn_under_the_roll():
    state = new(2, "0 roll 2 2; 0 6-6; 1 draw 16; 1 pass")
    assert state.dice.turns == 2


# -- the targets ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "points", "targets"),
    [
        ("0 roll 3 4; 0 6-6", 0, ()),  # 12 is no multiple of 7
        ("0 roll 3 4; 0 6-6; 1 6-2 on 6-6", 14, ("dominards.multiple",)),
        ("0 roll 3 3; 0 6-6", 12, ("dominards.multiple",)),
        ("0 roll 3 3; 0 6-6 card Q", 12, ("dominards.card", "dominards.multiple")),
        ("0 roll 6 6; 0 6-6 card Q", 12, ("dominards.card", "dominards.multiple")),
        ("0 roll 1 2 3 4; 0 5-5", 10, ("dominards.virtual",)),
        ("0 roll 1 2 3 4; 0 5-5 card 10 drop K", 10, ("dominards.card", "dominards.virtual")),
        ("0 roll 1 1; 0 0-0", 0, ()),  # a total of 0 is no positive multiple
        ("0 roll 1 1; 0 0-0; 1 1-0 on 0-0 card A1", 1, ("dominards.card",)),
        ("0 roll 5 6; 0 6-6; 1 6-2 on 6-6 card A14", 14, ("dominards.card",)),
        ("0 roll 2 2 2 2; 0 4-4", 8, ("dominards.virtual",)),
    ],
)
def test_a_play_scores_its_total_once_whatever_it_meets(script, points, targets):
    state = new(2, script)
    last = state.last
    assert state.last_hits.targets == targets
    assert state.last_points[last.seat] == points
    assert state.last_hits.total == state.layout.count


def test_stack_targets_scores_the_total_once_per_target():
    state = new(2, "0 roll 3 3; 0 6-6 card Q", stack_targets=True)
    assert state.scores == (24, 0)
    state = new(2, "0 roll 1 2 3 4; 0 5-5 card 10 drop K", stack_targets=True)
    assert state.scores == (20, 0) and state.cards == (3, 5)


def test_cards_dropped_are_counted_per_seat():
    state = new(3, "0 roll 1 2 3 4; 0 5-5 card 10 drop K; 1 5-0 on 5-5")
    assert state.cards == (3, 5, 5) and state.dropped == ("10", "K")
    assert state.carry == {"cards": [3, 5, 5], "dropped": ["10", "K"]}


@pytest.mark.parametrize(
    ("script", "play", "rule", "words"),
    [
        (
            "0 roll 3 4",
            "0 6-6 card J",
            "dominards.card",
            "The total is 12, so Ana cannot drop a J for it: the card worth 12 is a Q.",
        ),  # fmt: skip
        ("0 roll 3 4; 0 6-6", "1 6-5 on 6-6 card K", "dominards.card", "no card is worth 17"),
        ("0 roll 3 4", "0 6-6 card A14", "dominards.card", "an ace as 14"),
        ("0 roll 3 4", "0 6-6 drop K", "dominards.virtual", "there is no virtual card"),
        ("0 roll 1 1 1 1", "0 6-6 drop K", "dominards.virtual", "the virtual card is 4"),
    ],
)
def test_a_card_the_total_does_not_allow_is_refused(script, play, rule, words):
    error = refused(new(2, script), play)
    assert error.rule == rule and words in error.message


def test_nobody_drops_more_cards_than_they_hold_or_than_the_deck_has():
    state = new(2, "0 roll 1 2 3 4", carry={"cards": [1, 5], "dropped": []})
    error = refused(state, "0 5-5 card 10 drop K")
    assert error.rule == "dominards.card" and "Ana holds 1 card, so cannot drop 2" in error.message
    state = new(2, "0 roll 3 3", carry={"cards": [5, 5], "dropped": ["Q"] * 4})
    error = refused(state, "0 6-6 card Q")
    assert error.rule == "dominards.card" and "4 have been dropped already" in error.message
    assert "Ana can drop no more" in error.message
    state = new(2, "0 roll 3 3 3 3", carry={"cards": [5, 5], "dropped": ["Q"] * 3})
    error = refused(state, "0 6-6 card Q drop Q")
    assert "3 have been dropped already, so Ana can drop only 1 more" in error.message


def test_a_roll_taken_back_is_named_when_it_can_no_longer_be():
    state = new(2, "0 roll 3 3; 0 6-6; undo")
    error = refused(state, "undo")
    assert error.rule == "procedure.misplay" and error.message.startswith("Ana's roll stands")


def test_cards_belong_to_dominards_only():
    state = line.apply(line.start("draw", {}, NAMES[:2]), act("0 6-6"))
    assert refused(state, "1 6-4 on 6-6 card 10").rule == "dominards.card"


# -- dominards.draw ------------------------------------------------------------------------


def test_a_seat_that_cannot_play_draws_and_knocks_only_on_an_empty_pool():
    state = new(2, "0 roll 5 5; 0 6-6")
    assert refused(state, "1 pass").rule == "dominards.draw"
    state = play(state, "1 draw 16")  # the whole pool: 28 - 12
    assert state.stock == 0
    state = play(state, "1 pass; 0 pass")
    assert state.result is not None and state.result.reason == BLOCKED
    assert state.result.winner is None and state.scores == (0, 0)  # no domino bonus


# -- dominards.domino-bonus, dominards.card-bonus --------------------------------------------


def test_the_last_domino_scores_a_point_per_domino_in_opponents_hands():
    state = new(3, "0 roll 5 5; 0 6-6; 1 6-5 on 6-6; 2 draw 3; 2 6-1 on 6-6")
    state = replace(state, hands=(1, 5, 9))
    state = play(state, "0 5-5 on 6-5")  # total 12 + 10 + 1 = 23: no target
    assert state.result.reason == DOMINO and state.result.winner == 0
    assert state.last_hits.domino_bonus == 14 and state.scores == (14, 0, 0)
    with pytest.raises(IllegalAction) as caught:
        line.apply(state, Tally(pips=((1, 5),)))
    assert caught.value.rule == "dominards.domino-bonus"


def test_a_new_deal_keeps_the_cards_and_the_totals():
    doc = {
        "format": "boneyard-match/1", "game": "dominards", "players": ["Ana", "Ben"],
        "rounds": [{"actions": [
            {"type": "roll", "seat": 0, "dice": [3, 3]},
            {"type": "play", "seat": 0, "tile": "6-6", "card": "Q"},
            {"type": "draw", "seat": 1, "count": 16},
            {"type": "pass", "seat": 1}, {"type": "pass", "seat": 0},
        ]}, {"actions": [
            {"type": "roll", "seat": 1, "dice": [6, 6]},
            {"type": "play", "seat": 1, "tile": "6-6", "card": "Q"},
        ]}],
    }  # fmt: skip
    match = replay(doc)
    second = match.rounds[1].state
    assert second.cards == (4, 4) and second.dropped == ("Q", "Q")
    assert match.totals == (12, 12) and second.hands == (6, 5)
    assert export(replay(export(match))) == export(match)


def test_the_last_card_ends_the_game_with_two_points_per_card_left():
    state = new(3, "0 roll 3 3", carry={"cards": [1, 4, 2], "dropped": []})
    state = play(state, "0 6-6 card Q")
    assert state.last_hits.card_bonus == 12 and state.scores == (24, 0, 0)
    assert state.champion == 0 and state.match_over
    assert state.result.reason == LAST_CARD and state.result.winner == 0
    error = refused(state, "1 6-5 on 6-6")
    assert error.rule == "dominards.card-bonus"
    assert refused(state, "1 roll 1 1").rule == "dominards.card-bonus"


def test_domino_and_card_bonus_from_one_play_both_count():
    state = new(2, "0 roll 3 4; 0 6-6; 1 6-5 on 6-6", carry={"cards": [5, 1], "dropped": []})
    state = replace(state, hands=(5, 1))  # Ben holds one domino and one card
    state = play(state, "0 6-1 on 6-6; 1 roll 2 2 2 2")
    state = play(state, "1 6-0 on 6-6 end card Q")  # 6 + 5 + 1 + 0 = 12
    hits = state.last_hits
    assert (hits.points, hits.domino_bonus, hits.card_bonus) == (12, 4, 10)
    assert state.scores == (0, 26) and state.champion == 1
    assert state.result.reason == DOMINO and state.result.winner == 1


def test_a_tie_at_the_top_when_the_game_ends_is_shared():
    state = new(2, "0 roll 3 3", carry={"cards": [1, 5], "dropped": []})
    state = replace(state, base=(0, 22))
    state = play(state, "0 6-6 card Q")  # 12 + a card bonus of 10 = 22
    assert state.totals == (22, 22)
    assert state.match_over and state.champion is None and state.shared == (0, 1)
    assert state.result.winner is None


# -- Hypothesis: random honest games ---------------------------------------------------------


def rules_hold(step) -> None:
    before, action, after = step.before, step.action, step.after
    assert all(c >= 0 for c in after.cards), "card counts never go negative"
    assert after.cards == tuple(len(c) for c in step.hidden.after(action).cards) or (
        action.kind == "undo"
    )
    if action.kind == "undo":
        return
    assert after.scores == tuple(
        b + p for b, p in zip(before.scores, after.last_points, strict=True)
    ), "the round's scores are the sum of what each action scored"
    # the game ends exactly when a seat's card count reaches 0
    assert after.match_over == (0 in after.cards)
    if action.kind == "play":
        total = after.layout.count
        dice = before.dice
        met = [action.card is not None]  # a card is accepted only when it equals the total
        met.append(len(dice.roll) == 2 and total > 0 and total % sum(dice.roll) == 0)
        met.append(len(dice.roll) == 4 and total == sum(dice.roll))
        if action.card is not None:
            value = {"A1": 1, "A14": 14, "J": 11, "Q": 12, "K": 13}.get(action.card)
            assert (value or int(action.card)) == total
        hits = sum(met) if before.options["stack_targets"] else min(1, sum(met))
        points = total * hits
        others = [s for s in range(before.seats) if s != action.seat]
        if after.hands[action.seat] == 0:
            points += sum(after.hands[s] for s in others)
        if after.cards[action.seat] == 0:
            points += 2 * sum(after.cards[s] for s in others)
        assert after.last_points[action.seat] == points
        assert sum(after.last_points) == points
    if action.kind in ("play", "pass"):
        governed = before.dice.turns + 1
        if governed > before.seats:
            assert after.dice == dominards.Dice((before.dice.controller + 1) % before.seats)
        else:
            assert after.dice.turns == governed


@given(st.data())
def test_random_honest_games_keep_every_rule_and_replay_identically(data):
    players = data.draw(st.integers(2, 4), label="players")
    options = {"stack_targets": data.draw(st.booleans(), label="stack")}

    def pick(choices, label):
        return data.draw(st.sampled_from(list(choices)), label=label)

    def shuffle(items):
        return list(data.draw(st.permutations(items), label="shuffle"))

    document, rounds = play_game(pick, shuffle, players, options, rules_hold, most_rounds=3)
    match = replay(document)
    for replayed, steps in zip(match.rounds, rounds, strict=True):
        assert replayed.state == steps[-1].after
    first = export(match)
    logged = [0] * players
    for action in (a for r in first["rounds"] for a in r["actions"]):
        for seat, points in action.get("points", {}).items():
            logged[int(seat)] += points
    assert tuple(logged) == match.totals
    assert export(replay(first)) == first


@pytest.mark.parametrize("seed", range(4))
def test_whole_games_end_when_a_seat_drops_its_last_card(seed):
    rng = random.Random(seed)

    def shuffle(items):
        rng.shuffle(items)
        return items

    document, rounds = play_game(
        lambda choices, label: rng.choice(list(choices)), shuffle, 2 + seed % 3,
        greedy=True,
    )  # fmt: skip
    last = rounds[-1][-1].after
    assert last.match_over and 0 in last.cards
    match = replay(document)
    assert match.over and match.totals == last.totals
    assert match.winner == last.champion


@given(st.data())
def test_legal_actions_agrees_with_apply(data):
    """Every roll, and every play with every card and free drop, is legal exactly when
    ``legal_actions`` lists it."""
    players = data.draw(st.integers(2, 4), label="players")
    _, rounds = play_game(
        lambda choices, label: data.draw(st.sampled_from(list(choices)), label=label),
        lambda items: list(data.draw(st.permutations(items), label="shuffle")),
        players, most_rounds=1, undos=False,
    )  # fmt: skip
    steps = rounds[0]
    state = steps[data.draw(st.integers(0, len(steps) - 1), label="which state")].before
    legal = set(line.legal_actions(state))
    seats = range(state.seats + 1)
    candidates = {Roll(s, dice) for s in seats for dice in dominards.rolls()}
    candidates |= {Roll(s, (6, 5)) for s in seats}  # the same dice in another order
    plays = [a for a in legal if isinstance(a, Play) and a.card is None and a.drop is None]
    cards = (None, "A1", "A14", *RANKS[1:])
    for play in plays + [Play(s, t) for s in seats for t in DominoSet(6).tiles][:12]:
        candidates |= {replace(play, card=c, drop=d) for c in cards for d in (None, *RANKS)}
    for candidate in candidates:
        listed = candidate  # legal_actions lists each roll once, its dice in order
        if isinstance(candidate, Roll):
            listed = Roll(candidate.seat, tuple(sorted(candidate.dice)))
        assert (listed in legal) == (line.check(state, candidate) is None), candidate
