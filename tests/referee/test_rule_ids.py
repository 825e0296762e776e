"""Every refusal cites a rule of the game it is made in: the rules page of that game has an
anchor for it, so the link under a refusal always lands on its rule (issue 8). An action
from another game (a roll in All Fives, a Muggins call in Block) may cite that game's rule:
its link goes to a game that has it."""

from __future__ import annotations

import random

import pytest

from referee import (
    PRESETS,
    Challenge,
    Declare,
    DominoSet,
    Draw,
    Muggins,
    Pass,
    Play,
    Roll,
    Undo,
    line,
)
from referee.document import play_round
from referee.games import engine
from referee.rulebook import RULE_TEXTS

FOREIGN = (Muggins, Challenge, Declare, Roll)
LINE_GAMES = [slug for slug, game in PRESETS.items() if game.family == "line"]


def probes(state: line.RoundState) -> list:
    """Actions a phone could send now, legal or not: each seat knocking, drawing, calling,
    declaring, rolling, undoing, and every tile not on the table at every open face."""
    seats = range(state.seats)
    tried: list = [Undo()]
    for seat in seats:
        tried += [Pass(seat), Draw(seat), Draw(seat, 2), Muggins(seat), Challenge(seat)]
        tried += [Declare(seat, 5), Roll(seat, (3, 4)), Roll(seat, (1, 2, 3, 4))]
    turn = state.turn if state.turn is not None else 0
    faces = [(p.tile, f.kind) for p in state.layout.placed for f in p.free]
    for tile in DominoSet(state.top).tiles:
        if tile in state.layout:
            continue
        tried.append(Play(turn, tile))
        tried += [Play(turn, tile, on, face) for on, face in faces[:6]]
    return tried


@pytest.mark.parametrize("slug", LINE_GAMES)
def test_every_refusal_in_a_line_game_cites_one_of_its_rules(slug):
    rules = engine(slug)
    allowed = set(PRESETS[slug].rules)
    for seed in range(3):
        chance = random.Random(seed)
        state = rules.start(
            slug, {}, ["Ana", "Ben", "Caro", "Dan"][: max(3, PRESETS[slug].players[0])]
        )
        for _ in range(40):
            for action in probes(state):
                refusal = line.check(state, action)
                if refusal is None:
                    continue
                if isinstance(action, FOREIGN) and refusal.rule not in allowed:
                    assert refusal.rule in RULE_TEXTS and any(
                        refusal.rule in game.rules for game in PRESETS.values()
                    )
                    continue
                assert refusal.rule in allowed, (
                    f"{slug}: {action} refused with {refusal.rule}, not a rule of {slug}: "
                    f"{refusal.message}"
                )
            legal = [a for a in rules.legal_actions(state) if not isinstance(a, Undo)]
            if not legal or state.is_over:
                break
            state = play_round(state, [chance.choice(legal)]).state
