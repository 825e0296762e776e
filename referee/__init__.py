"""Boneyard's referee: the rules of dominoes as pure Python values and functions.

No Django, no database, no I/O. A game is a reducer over immutable states::

    >>> from referee import Tile, Play, line
    >>> state = line.start("block", {}, ["Ana", "Ben", "Caro"])
    >>> state = line.apply(state, Play(2, Tile.parse("6-4")))
    >>> state.layout.count, state.name(state.turn)
    (10, 'Ana')
"""

from __future__ import annotations

from referee.actions import (
    Action,
    Challenge,
    Declare,
    Draw,
    Muggins,
    Pass,
    Play,
    Roll,
    Tally,
    Undo,
    parse_action,
)  # fmt: skip
from referee.document import DocumentError, MatchReplay, export, replay
from referee.errors import IllegalAction, InvalidAction, RefereeError
from referee.games import line
from referee.layout import Layout, LayoutRules
from referee.rulebook import PRESETS, Option, Preset, preset, rule_text
from referee.tiles import DominoSet, Tile

__all__ = [
    "PRESETS", "Action", "Challenge", "Declare", "DocumentError", "DominoSet", "Draw",
    "IllegalAction", "InvalidAction", "Layout", "LayoutRules", "MatchReplay", "Muggins",
    "Option", "Pass", "Play", "Preset", "RefereeError", "Roll", "Tally", "Tile", "Undo",
    "export", "line", "parse_action", "preset", "replay", "rule_text",
]  # fmt: skip
