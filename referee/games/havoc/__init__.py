"""Double Domino Havoc (RULES.md §5): every seat moves six tiles from its tray to its
train, one a turn; a double in a discard slot turns play and must be answered.

The referee sees what the table sees (``info.public``): trains, discard slots, tiles out
of play, how many tiles each tray and the boneyard hold, and the tiles a seat took from a
discard slot. Trays are checked when they are declared at the tally.

>>> from referee.actions import Discard, DrawFrom, Respond, Train
>>> state = start("havoc", {}, ["Ana", "Ben", "Caro"])
>>> state = apply(state, DrawFrom(0, "boneyard"))
>>> state = apply(state, Train(0, Tile.parse("9-4"), 9))
>>> state = apply(state, Discard(0, Tile.parse("3-3")))
>>> state.direction, state.names[state.doubles.responder]
(-1, 'Caro')
>>> state = apply(state, Respond(2, match=Tile.parse("3-1")))
>>> state.racks[0].slot, state.names[state.turn], state.racks[0].free_end
(Tile.parse('3-1'), 'Ben', 4)
"""

from __future__ import annotations

from referee.games.havoc import state
from referee.games.havoc.engine import apply, check, legal_actions, next_leader, options_for, start

# The round's values, every name state.__all__ offers: listed there once, not again here.
from referee.games.havoc.state import *  # noqa: F403
from referee.round.result import RoundResult
from referee.tiles import Tile

#: The facts a screen asks of the game rather than knowing them (referee.round.Engine).
FAMILY, SCREEN, LOWEST_TOTAL_WINS, ROUNDS = "havoc", "havoc", True, True

__all__ = [
    *state.__all__, "FAMILY", "LOWEST_TOTAL_WINS", "ROUNDS", "SCREEN", "RoundResult", "Tile",
    "apply", "check", "legal_actions", "next_leader", "options_for", "start",
]  # fmt: skip
