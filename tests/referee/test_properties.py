"""Properties of random legal Block and Draw matches (Hypothesis).

A real shuffled set is dealt, and each seat plays honestly from the tiles it actually
holds: it chooses among ``line.legal_actions(state)`` filtered by its hand, draws from
the real boneyard only when it holds nothing that fits, and knocks only when
``legal_actions`` allows it. At the end the real hands are tallied. Now and then a seat
takes its last action back (``procedure.misplay``), and a tally is taken back and redone.

The example count comes from the profile in tests/conftest.py (dev 50, CI 100).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import (
    DominoSet,
    Draw,
    IllegalAction,
    Pass,
    Play,
    Tally,
    Tile,
    Undo,
    export,
    line,
    parse_action,
    replay,
)
from referee.actions import Action
from referee.layout import END, SIDE

NAMES = ("Ana", "Ben", "Caro", "Dan")
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw) -> tuple[str, dict, tuple[str, ...]]:
    """A game, its house rules and its players."""
    slug = draw(st.sampled_from(("block", "draw")))
    options = {
        "set": draw(st.sampled_from((6, 6, 6, 9))),
        "spinners": draw(st.sampled_from(("none", "first", "all"))),
        "sides_first": draw(st.booleans()),
        "opening": draw(st.sampled_from(("any", "double"))),
        "spinner_count": draw(st.sampled_from(("while-end", "halves"))),
        "one_end_doubles": draw(st.booleans()),
        "blocked_minus_own": draw(st.booleans()),
        "target": 50,
    }
    if slug == "draw":
        options["draw_until"] = draw(st.sampled_from(("playable", "one")))
        options["reserve"] = draw(st.integers(0, 2))
    return slug, options, NAMES[: draw(st.integers(2, 4))]


@dataclass(frozen=True)
class Table:
    """What the referee never sees: the tiles in each hand, and the boneyard in order
    (in Block, the tiles left out of play)."""

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]

    def after(self, action: Action) -> Table:
        hands = list(self.hands)
        if isinstance(action, Play):
            hands[action.seat] = tuple(t for t in hands[action.seat] if t != action.tile)
            return Table(tuple(hands), self.stock)
        if isinstance(action, Draw):
            hands[action.seat] += self.stock[: action.count]
            return Table(tuple(hands), self.stock[action.count :])
        return self


def deal(data: st.DataObject, state: line.RoundState) -> Table:
    tiles = data.draw(st.permutations(DominoSet(state.top).tiles), label="shuffle")
    size, seats = state.hands[0], state.seats
    hands = [tuple(tiles[seat * size : (seat + 1) * size]) for seat in range(seats)]
    stock = tuple(tiles[seats * size :])
    if state.options["opening"] != "any" and not any(t.is_double for h in hands for t in h):
        # Nobody could lead a double; a table would reshuffle. Swap one in instead.
        double, given_back = next(t for t in stock if t.is_double), hands[0][0]
        hands[0] = (double,) + hands[0][1:]
        stock = tuple(given_back if t == double else t for t in stock)
    return Table(tuple(hands), stock)


def honest(data: st.DataObject, state: line.RoundState, table: Table, legal) -> Action:
    """What a seat that plays by the rules may do, from the tiles it really holds."""
    if state.turn is None:
        leads = [a for a in legal if isinstance(a, Play) and a.tile in table.hands[a.seat]]
        return data.draw(st.sampled_from(leads), label="lead")
    seat = state.turn
    plays = [a for a in legal if isinstance(a, Play) and a.tile in table.hands[seat]]
    assert all(a.seat == seat for a in legal if isinstance(a, Play | Draw | Pass))
    if plays:
        return data.draw(st.sampled_from(plays), label="play")
    if Draw(seat, 1) in legal:
        if state.options["draw_until"] == "one":
            return Draw(seat, 1)
        drawable = table.stock[: state.drawable]
        fits = [i + 1 for i, t in enumerate(drawable) if state.layout.attachments(t)]
        until = fits[0] if fits else len(drawable)
        return Draw(seat, data.draw(st.sampled_from(sorted({1, until})), label="draw"))
    assert Pass(seat) in legal, "a seat that can neither play nor draw may knock"
    return Pass(seat)


def tally(data: st.DataObject, state: line.RoundState, table: Table) -> Tally:
    """The real hands, by tile or by pips; a seat that played out may say nothing."""
    seats = [
        s for s, hand in enumerate(table.hands) if hand or not data.draw(st.booleans(), "omit")
    ]
    if data.draw(st.booleans(), label="by tiles"):
        return Tally(hands=tuple((s, table.hands[s]) for s in seats))
    halve = state.options["one_end_doubles"]
    return Tally(
        pips=tuple(
            (s, sum(t.high if halve and t.is_double else t.pips for t in table.hands[s]))
            for s in seats
        )
    )


@dataclass
class Step:
    before: line.RoundState
    table: Table  # the real tiles in ``before``
    action: Action
    after: line.RoundState


Check = Callable[[Step], None]


def play_round(data: st.DataObject, state: line.RoundState, check: Check) -> list[Step]:
    """One honest round, tallied, with the odd undo; every step passes through ``check``."""
    table = deal(data, state)
    tables: list[Table] = []  # the real tiles before each action the state remembers
    steps: list[Step] = []
    undos = 0
    while True:
        if state.result is not None:
            # (Hypothesis shrinks toward 0, so 0 means "no undo": failures shrink without them.)
            if undos >= 3 or data.draw(st.integers(0, 3), label="undo the tally?") < 3:
                return steps
            action: Action = Undo()
        elif state.is_over:
            action = tally(data, state, table)
        else:
            legal = line.legal_actions(state)
            if undos < 3 and Undo() in legal and data.draw(st.integers(0, 9), "undo?") == 9:
                action = Undo()
            else:
                action = honest(data, state, table, legal)
        after = line.apply(state, action)
        step = Step(state, table, action, after)
        check(step)
        steps.append(step)
        if isinstance(action, Undo):
            undos += 1
            table = tables.pop()
        else:
            tables.append(table)
            table = table.after(action)
        state = after
        assert len(steps) < 500, "a round that never ends"


def play_match(
    data: st.DataObject, check: Check = lambda step: None, most_rounds: int = 3
) -> tuple[dict, list]:
    """Up to ``most_rounds`` rounds, or until a seat reaches the target; the document and
    the rounds."""
    slug, options, names = data.draw(games(), label="game")
    rounds, totals = [], [0] * len(names)
    for _ in range(data.draw(st.integers(1, most_rounds), label="rounds")):
        steps = play_round(data, line.start(slug, options, names), check)
        rounds.append(steps)
        totals = [t + p for t, p in zip(totals, steps[-1].after.result.points, strict=True)]
        if line.match_winner(totals, steps[-1].after.options) is not None:
            break
    document = {
        "format": "boneyard-match/1",
        "game": slug,
        "options": options,
        "players": list(names),
        "rounds": [{"actions": [s.action.to_dict() for s in steps]} for steps in rounds],
    }
    return document, rounds


# -- (a) and (e): random legal matches replay, and export → replay → export is identical --------


@SLOW
@given(st.data())
def test_random_legal_matches_replay_and_export_identically(data):
    document, rounds = play_match(data)
    match = replay(document)
    assert len(match.rounds) == len(rounds)
    for replayed, steps in zip(match.rounds, rounds, strict=True):
        assert replayed.state == steps[-1].after
        assert replayed.actions == tuple(s.action for s in steps)
        # an honest table gives the audit nothing to report
        assert replayed.state.result.findings == ()
    seats = range(len(document["players"]))
    totals = tuple(sum(steps[-1].after.result.points[s] for steps in rounds) for s in seats)
    assert match.totals == totals
    first = export(match)
    again = replay(first)
    assert export(again) == first
    assert again.totals == match.totals and again.winner == match.winner
    for action in (a for r in document["rounds"] for a in r["actions"]):
        assert parse_action(action).to_dict() == action


# -- (c) and (d): tiles are conserved; the count is never negative -----------------------------


def conserved(step: Step) -> None:
    state, table = step.before, step.table
    on_table = list(state.layout.tiles)
    in_hands = [t for hand in table.hands for t in hand]
    everything = on_table + in_hands + list(table.stock)
    dominoes = DominoSet(state.top).tiles
    assert len(everything) == len(dominoes), "layout + hands + stock = the set"
    assert set(everything) == set(dominoes), "no tile twice, none missing"
    assert state.hands == tuple(len(hand) for hand in table.hands)
    assert state.stock == len(table.stock)
    assert len(state.layout) + sum(state.hands) + state.stock == len(dominoes)
    assert state.layout.count >= 0
    assert all(state.layout.shows(p) >= 0 for p in state.layout.placed)
    assert all(end.shows >= 0 for end in state.layout.open_ends())


@SLOW
@given(st.data())
def test_tiles_are_conserved_and_the_count_is_never_negative(data):
    last: list[Step] = []

    def check(step: Step) -> None:
        conserved(step)
        last[:] = [step]

    play_match(data, check, most_rounds=1)
    assert last and last[0].after.result is not None


# -- (f): undo restores the previous state ---------------------------------------------------------


def undo_restores(step: Step) -> None:
    if isinstance(step.action, Undo):
        assert step.after == step.before.previous
        return
    taken_back = line.apply(step.after, Undo())
    assert taken_back == step.before
    # the fields left out of ==, checked by hand: history and the misplay window
    assert taken_back.previous is step.before.previous
    assert taken_back.actions == step.before.actions
    assert taken_back.settled >= step.before.settled


@SLOW
@given(st.data())
def test_undo_restores_the_previous_state(data):
    play_match(data, undo_restores, most_rounds=1)


# -- (b): legal_actions agrees with apply on every candidate ---------------------------------------


def candidates(state: line.RoundState) -> set[Action]:
    """Far more than is legal: every tile on every placed tile (or leading), every face,
    every seat and one that is not at the table, draws past the boneyard, knocks, undo."""
    seats = range(state.seats + 1)
    tiles = DominoSet(state.top).tiles
    ons = (None, *state.layout.tiles)
    found: set[Action] = {Undo()}
    found.update(
        Play(seat, tile, on, face)
        for seat in seats
        for tile in tiles
        for on in ons
        for face in (None, SIDE, END)
    )
    found.update(Draw(seat, n) for seat in seats for n in range(1, max(3, state.stock + 1) + 1))
    found.update(Pass(seat) for seat in seats)
    return found


def accepted(state: line.RoundState, action: Action) -> bool:
    try:
        line.apply(state, action)
    except IllegalAction:
        return False
    return True


@SLOW
@given(st.data())
def test_legal_actions_agrees_with_apply(data):
    slug, options, names = data.draw(games(), label="game")
    steps = play_round(data, line.start(slug, options, names), lambda step: None)
    index = data.draw(st.integers(0, len(steps)), label="which state")
    state = steps[index].before if index < len(steps) else steps[-1].after
    legal = line.legal_actions(state)
    assert len(legal) == len(set(legal)), "each legal action once"
    everything = candidates(state)
    assert set(legal) <= everything
    assert {a for a in everything if accepted(state, a)} == set(legal)
