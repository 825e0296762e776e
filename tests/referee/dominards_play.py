"""Honest Dominards games: a real shuffled set and deck, every seat playing from the tiles
and cards it really holds, the dice rolled by whoever controls them.

One driver serves Hypothesis (``pick`` draws from ``st.data()``) and the seeded games of
the app's tests (``pick`` is ``random.Random.choice``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from referee import DominoSet, Draw, Pass, Play, Roll, Tile, Undo, line
from referee.actions import RANKS, Action
from referee.games.line import dominards

T = TypeVar("T")
Pick = Callable[[Sequence[T], str], T]
NAMES = ("Ana", "Ben", "Caro", "Dan")


@dataclass(frozen=True)
class Hidden:
    """What the referee never sees: dominoes in hand, the pool in order, cards in hand."""

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    cards: tuple[tuple[str, ...], ...]

    def after(self, action: Action) -> Hidden:
        hands, cards = list(self.hands), list(self.cards)
        if isinstance(action, Play):
            hands[action.seat] = tuple(t for t in hands[action.seat] if t != action.tile)
            held = list(cards[action.seat])
            for card in (action.card, action.drop):
                if card is not None:
                    held.remove(dominards.rank(card))
            cards[action.seat] = tuple(held)
            return Hidden(tuple(hands), self.stock, tuple(cards))
        if isinstance(action, Draw):
            hands[action.seat] += self.stock[: action.count]
            return Hidden(tuple(hands), self.stock[action.count :], self.cards)
        return self


@dataclass(frozen=True)
class Step:
    before: line.RoundState
    hidden: Hidden  # the real tiles and cards in ``before``
    action: Action
    after: line.RoundState


def holds(hidden: Hidden, play: Play) -> bool:
    """Whether the seat really holds the tile and every card the play drops."""
    if play.tile not in hidden.hands[play.seat]:
        return False
    held = list(hidden.cards[play.seat])
    for card in (play.card, play.drop):
        if card is not None:
            if dominards.rank(card) not in held:
                return False
            held.remove(dominards.rank(card))
    return True


def deal(pick: Pick, shuffle: Callable[[list], list], state: line.RoundState, cards) -> Hidden:
    """Dominoes dealt 6 each until some seat holds a double (a table reshuffles otherwise)."""
    while True:
        tiles = shuffle(list(DominoSet(6).tiles))
        size = state.hands[0]
        hands = tuple(tuple(tiles[s * size : (s + 1) * size]) for s in range(state.seats))
        if any(t.is_double for hand in hands for t in hand):
            return Hidden(hands, tuple(tiles[state.seats * size :]), cards)


def leader_of(hidden: Hidden) -> tuple[int, Tile]:
    """``line.lead``: the holder of the highest double leads it."""
    return max(
        ((s, t) for s, hand in enumerate(hidden.hands) for t in hand if t.is_double),
        key=lambda pair: pair[1].high,
    )


def next_action(pick: Pick, state: line.RoundState, hidden: Hidden, greedy: bool) -> Action:
    if state.must_roll is not None:
        seat = leader_of(hidden)[0] if state.must_roll < 0 else state.must_roll
        count = pick((2, 4), "dice")
        return Roll(seat, tuple(pick(range(1, 7), "die") for _ in range(count)))
    if not state.layout.placed:
        seat, double = leader_of(hidden)
        plays = [a for a in line.legal_actions(state) if isinstance(a, Play)]
        plays = [a for a in plays if a.seat == seat and a.tile == double and holds(hidden, a)]
        return pick(plays, "lead")
    seat = state.turn
    plays = [a for a in line.legal_actions(state) if isinstance(a, Play) and holds(hidden, a)]
    if plays:
        if greedy:  # a player who drops whenever they can
            most = max(len([c for c in (a.card, a.drop) if c]) for a in plays)
            plays = [a for a in plays if len([c for c in (a.card, a.drop) if c]) == most]
        return pick(plays, "play")
    if state.drawable:
        fits = [i + 1 for i, t in enumerate(hidden.stock) if state.layout.attachments(t)]
        return Draw(seat, fits[0] if fits else len(hidden.stock))  # dominards.draw
    return Pass(seat)


def play_round(
    pick: Pick, shuffle, state: line.RoundState, cards, check, greedy=False, undos=True
) -> tuple[list[Step], Hidden]:
    hidden = deal(pick, shuffle, state, cards)
    steps: list[Step] = []
    earlier: list[Hidden] = []
    while state.result is None:
        action: Action
        if undos and state.previous is not None and pick(range(10), "undo?") == 9:
            action = Undo()
        else:
            action = next_action(pick, state, hidden, greedy)
        if isinstance(action, Undo) and line.check(state, action) is not None:
            continue
        after = line.apply(state, action)
        step = Step(state, hidden, action, after)
        check(step)
        steps.append(step)
        if isinstance(action, Undo):
            hidden = earlier.pop()
        else:
            earlier.append(hidden)
            hidden = hidden.after(action)
        state = after
        assert len(steps) < 400, "a round that never ends"
    return steps, hidden


def play_game(
    pick: Pick,
    shuffle: Callable[[list], list],
    players: int,
    options: dict[str, Any] | None = None,
    check: Callable[[Step], None] = lambda step: None,
    most_rounds: int = 60,
    greedy: bool = False,
    undos: bool = True,
) -> tuple[dict[str, Any], list[list[Step]]]:
    """Rounds until a seat drops its last card (or ``most_rounds``): the document and the
    steps of each round."""
    names = NAMES[:players]
    deck = shuffle([rank for rank in RANKS for _ in range(dominards.SUITS)])
    cards = tuple(tuple(deck[s * 5 : (s + 1) * 5]) for s in range(players))
    rounds: list[list[Step]] = []
    totals, carry = None, None
    for _ in range(most_rounds):
        state = line.start("dominards", options, names, base=totals, carry=carry)
        steps, hidden = play_round(pick, shuffle, state, cards, check, greedy, undos)
        rounds.append(steps)
        last = steps[-1].after
        totals, carry, cards = last.totals, last.carry, hidden.cards
        if last.match_over:
            break
    document = {
        "format": "boneyard-match/1",
        "game": "dominards",
        "options": dict(options or {}),
        "players": list(names),
        "rounds": [{"actions": [s.action.to_dict() for s in steps]} for steps in rounds],
    }
    return document, rounds
