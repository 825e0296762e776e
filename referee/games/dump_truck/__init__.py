"""Dump Truck (RULES.md §4): every seat draws a domino each turn, loads it into a 3 × 4
truck of half-domino cells, and unloads the truck for its chains.

A match is one game, played as one round: it ends when the pool and the hands are empty
(``truck.end``), when every truck is scored as it stands.

>>> from referee.actions import Load, Take, Unload
>>> state = start("dump-truck", {}, ["Ana", "Ben"])
>>> state = apply(state, Take(0, Tile.parse("1-1"), "pool"))
>>> state = apply(state, Load(0, Tile.parse("1-1"), ((0, 0), (0, 1))))
>>> state.trucks[0].values[:4], state.face_down
((1, 1, None, None), 27)
>>> best(Truck.of(("1-1", (0, 0), (0, 1)), ("2-1", (1, 1), (1, 0)))).points
3
"""

from __future__ import annotations

from referee.games.dump_truck import truck
from referee.games.dump_truck.engine import (
    POOL_EMPTY,
    STALLED,
    TruckResult,
    TruckState,
    apply,
    check,
    legal_actions,
    next_leader,
    options_for,
    start,
)

# The truck's values, every name truck.__all__ offers: listed there once, not again here.
from referee.games.dump_truck.truck import *  # noqa: F403
from referee.tiles import Tile

#: The facts a screen asks of the game rather than knowing them (referee.round.Engine).
FAMILY, SCREEN, LOWEST_TOTAL_WINS, ROUNDS = "truck", "truck", False, False

__all__ = [
    *truck.__all__, "FAMILY", "LOWEST_TOTAL_WINS", "POOL_EMPTY", "ROUNDS", "SCREEN", "STALLED",
    "Tile", "TruckResult", "TruckState", "apply", "check", "legal_actions", "next_leader",
    "options_for", "start",
]  # fmt: skip
