"""The screens: each module turns a replayed table into what its template lays out, one
module per game's screen (line, train, foot, havoc, truck) beside what they share (common),
the score sheet (summary) and the replay of a round (replay). Templates only lay it out.

A game's screen is found here, by :func:`screen`: its template, its context (one signature
for every game: ``context(table, asked)``), its board in a round's replay and what a seat
holds on the replay's scoreboard. Nothing else in the app chooses a screen by the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.games import facts
from scoring.screens import foot, havoc, line, train, truck
from scoring.screens.common import Asked, Step
from scoring.services import Table


@dataclass(frozen=True)
class Screen:
    """A game's table screen, and its part of a round's replay."""

    template: str
    context: Callable[[Table, Asked], dict[str, Any]]
    board: Callable[[Any, Step], dict[str, Any]]
    holds: Callable[[Any, int], str]


#: Each game's screen, by the name its engine gives it (``SCREEN``, in scoring.games.facts).
SCREENS = {
    "line": Screen("scoring/table.html", line.table_context, line.board, line.holds),
    "train": Screen("scoring/train.html", train.train_context, train.board, train.holds),
    "foot": Screen("scoring/train.html", foot.foot_context, foot.board, train.holds),
    "havoc": Screen("scoring/havoc.html", havoc.havoc_context, havoc.board, havoc.holds),
    "truck": Screen("scoring/truck.html", truck.truck_context, truck.board, truck.holds),
}


def screen(game: str) -> Screen:
    """The screen of the game ``game`` (a preset's slug)."""
    return SCREENS[facts(game).screen]
