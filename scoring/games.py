"""What the app asks of a game, answered in one place.

The screens, forms, records and services ask here whether a game's lowest total wins,
whether its seats build trains, whether its match is one long game, rather than knowing
which games do. A family is named elsewhere only as the referee's language for a game's
actions (``Facts.family``): the table's forms read a tap in it (scoring.forms), the log says
an action in it (scoring.words), and the referee's desk explains a score by it
(scoring.desk: a truck's load, a line's open ends).
What a game's engine declares (its family, its screen, whether the lowest total wins,
whether it plays rounds) is asked of the referee's registry of engines
(``referee.games.engine``), so the app and the referee cannot disagree; what only the app
needs (which taps are the turn's, what a state weighs) is written here, by family.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from referee import PRESETS
from referee.games import engine


@dataclass(frozen=True)
class Facts:
    """What a game is, as the app needs to know it."""

    #: The referee's language for the game's actions: what ``parse_action``, ``describe``
    #: and the table's forms read and write, and which screen lays out its table.
    family: str
    #: The screen that lays out its table (the engine's ``SCREEN``).
    screen: str
    #: The tiles left in hand count against their holders: the lowest total wins.
    lowest_wins: bool
    #: The seats build trains, from a hub (Mexican Train) or a foot (Chicken Foot).
    trains: bool
    #: A match is played in rounds; False where the match is one game (Dump Truck), which
    #: has no round to abandon and whose replay steps through "the game".
    rounds: bool
    #: Every seat acts at once (Dump Truck): it is nobody's turn, and a tap that lost the
    #: race to another seat's is judged again on the table as it now is.
    all_at_once: bool
    #: A seat may have to act out of turn (Havoc: the seat that answers a double), so the
    #: seat to act is the state's ``acting`` rather than its ``turn``.
    out_of_turn: bool
    #: The taps that belong to the seat whose turn it is: a phone that said whose it is is
    #: asked before it records one of them for another seat.
    turn_taps: frozenset[str]
    #: What one state of a round's replay holds, in bytes, rounded up (scoring.caches).
    state_bytes: int


# What the app alone needs to know of a family; the engine's own facts are asked of it.
_BY_FAMILY: dict[str, dict[str, Any]] = {
    "line": {"turn_taps": frozenset({"play", "draw", "pass", "roll"})},
    "train": {"trains": True},
    "foot": {"trains": True},
    "havoc": {
        "out_of_turn": True,
        "turn_taps": frozenset({"draw", "train", "discard"}),
        "state_bytes": 1_100,
    },
    "truck": {"all_at_once": True, "state_bytes": 1_100},
}
_DEFAULTS: dict[str, Any] = {
    "trains": False,
    "all_at_once": False,
    "out_of_turn": False,
    "turn_taps": frozenset(),
    "state_bytes": 3_300,
}


@cache
def facts(game: str) -> Facts:
    """What the app needs to know of the game ``game`` (a preset's slug).

    >>> facts("mexican-train").lowest_wins, facts("draw").lowest_wins
    (True, False)
    >>> facts("dump-truck").rounds, facts("havoc").out_of_turn
    (False, True)
    """
    referee = engine(game)
    return Facts(
        family=referee.FAMILY,
        screen=referee.SCREEN,
        lowest_wins=referee.LOWEST_TOTAL_WINS,
        rounds=referee.ROUNDS,
        **(_DEFAULTS | _BY_FAMILY[referee.FAMILY]),
    )


def lowest_wins_games() -> frozenset[str]:
    """The games whose lowest total wins (their points are penalty points)."""
    return frozenset(slug for slug in PRESETS if facts(slug).lowest_wins)


def acting(game: str, state: Any) -> int | None:
    """The seat that must act now, as the score strip marks it: the seat answering a
    double where a game has one, nobody where every seat acts at once, else the seat whose
    turn it is while the round goes on."""
    known = facts(game)
    if known.out_of_turn:
        return state.acting
    if known.all_at_once or state.is_over:
        return None
    return state.turn
