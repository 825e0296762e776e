"""Every engine keeps the kernel's contract (``referee.round.Engine``), checked the same way
for all: start, apply, legal_actions, undo, the table's corrections, the tally and the
export. A new engine joins the registry and is held to it here."""

from __future__ import annotations

import random

import pytest

from referee.actions import Abandon, Adjust, Stop, Undo
from referee.corrections import as_played
from referee.document import export, replay
from referee.errors import IllegalAction, RefereeError
from referee.games import engines
from referee.round import Engine
from referee.rulebook import PRESETS
from tests.referee.test_snapshot import choose, give_up, tally

#: One game of each engine's, the first in the rulebook.
GAMES = {family: next(s for s, p in PRESETS.items() if p.family == family) for family in engines()}
PLAYERS = ["Ana", "Ben", "Caro"]


@pytest.fixture(params=sorted(GAMES), name="game")
def _game(request: pytest.FixtureRequest) -> tuple[str, Engine]:
    return GAMES[request.param], engines()[request.param]


def test_every_engine_states_the_facts_a_screen_asks(game):
    slug, rules = game
    assert rules.FAMILY == PRESETS[slug].family
    assert isinstance(rules.SCREEN, str) and rules.SCREEN
    assert isinstance(rules.LOWEST_TOTAL_WINS, bool) and isinstance(rules.ROUNDS, bool)
    for name in ("options_for", "start", "apply", "check", "legal_actions", "next_leader"):
        assert callable(getattr(rules, name)), name


def test_a_new_round_starts_with_no_score_and_nothing_to_take_back(game):
    slug, rules = game
    state = rules.start(slug, rules.options_for(slug, {}, 3), PLAYERS)
    assert state.seats == 3 and state.totals == (0, 0, 0) and state.result is None
    assert not state.is_over and not state.match_over and state.match_end is None
    error = rules.check(state, Undo())
    assert isinstance(error, IllegalAction) and error.rule == "procedure.misplay"
    assert Undo() not in rules.legal_actions(state)


def walk(slug: str, rules: Engine, seed: int, steps: int = 15):
    """A seeded walk through one round: each state, and the action taken from it."""
    rng = random.Random(seed)
    state = rules.start(slug, rules.options_for(slug, {}, 3), PLAYERS)
    for _ in range(steps):
        if state.result is not None:
            return
        action = rng.choice(choose(rules.legal_actions(state), rng) or tally(state, rng))
        yield state, action
        try:
            state = rules.apply(state, action)
        except RefereeError:
            return


@pytest.mark.parametrize("seed", range(2))
def test_legal_actions_apply_without_touching_the_state_and_undo_restores_it(game, seed):
    slug, rules = game
    for state, action in walk(slug, rules, seed):
        before = repr(state)
        legal = rules.legal_actions(state)
        for candidate in legal:
            assert rules.check(state, candidate) is None, candidate
        if action in legal and not isinstance(action, Undo):
            after = rules.apply(state, action)
            assert after is not state and repr(state) == before
            assert after.actions == state.actions + 1 and after.previous is state
            if rules.check(after, Undo()) is None:
                assert rules.apply(after, Undo()) == state


def test_an_adjustment_moves_one_total_and_is_taken_back_by_undo(game):
    slug, rules = game
    state = rules.start(slug, rules.options_for(slug, {}, 3), PLAYERS)
    adjusted = rules.apply(state, Adjust(1, 7, "a slip"))
    assert adjusted.totals == (0, 7, 0)
    assert rules.apply(adjusted, Undo()).totals == (0, 0, 0)
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, Adjust(5, 7, "a slip"))
    assert refused.value.rule == "correct.adjust"


def test_an_abandoned_round_scores_nothing_and_a_stopped_match_is_over(game):
    slug, rules = game
    state = rules.start(slug, rules.options_for(slug, {}, 3), PLAYERS)
    first = choose(rules.legal_actions(state), random.Random(0))[0]
    state = rules.apply(state, first)  # a round with nothing in it is not abandoned
    if rules.ROUNDS:
        abandoned = rules.apply(state, Abandon())
        assert abandoned.result.reason == "abandoned" and abandoned.totals == state.base
    else:  # one game, no rounds: only the match can stop
        assert rules.check(state, Abandon()).rule == "correct.abandon"
    stopped = rules.apply(state, Stop())
    assert stopped.match_over and stopped.match_end is not None
    assert rules.check(stopped, Adjust(0, 1, "late")) is not None


@pytest.mark.parametrize("seed", range(2))
def test_a_round_played_out_replays_and_exports_as_recorded(game, seed):
    slug, rules = game
    rng = random.Random(seed)
    state = rules.start(slug, rules.options_for(slug, {}, 3), PLAYERS)
    log = []
    for _ in range(150):
        if state.result is not None:
            break
        moves = choose(rules.legal_actions(state), rng) or tally(state, rng)
        action = rng.choice(moves)
        try:
            state = rules.apply(state, action)
        except IllegalAction:  # a tally the random table got wrong: the table gives up
            action = give_up(rules, state)
            state = rules.apply(state, action)
        log.append(action)
    if state.result is None:  # a random table may never finish a round: it abandons it
        log.append(give_up(rules, state))
        state = rules.apply(state, log[-1])
    document = {"format": "boneyard-match/1", "game": slug, "players": PLAYERS,
                "rounds": [{"actions": [a.to_dict() for a in log]}]}  # fmt: skip
    match = replay(document)
    assert match.rounds[0].state.result == state.result
    assert match.totals == state.totals
    exported = export(match)
    assert [a["type"] for a in exported["rounds"][0]["actions"]] == [a.kind for a in log]
    assert as_played(tuple(log))[0] == tuple(log)
    assert replay(exported).totals == state.totals
