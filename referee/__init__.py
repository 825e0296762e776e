"""Boneyard's referee: the rules of dominoes as pure Python values and functions.

No Django, no database, no I/O. A game is a reducer over immutable states::

    >>> from referee import Tile, Play, line
    >>> state = line.start("block", {}, ["Ana", "Ben", "Caro"])
    >>> state = line.apply(state, Play(2, Tile.parse("6-4")))
    >>> state.layout.count, state.name(state.turn)
    (10, 'Ana')
"""

from __future__ import annotations

from referee import actions

# The whole action language (MATCH_FORMAT.md), every name actions.__all__ offers: listed
# there once, not again here.
from referee.actions import *  # noqa: F403
from referee.document import DocumentError, MatchReplay, export, replay
from referee.errors import IllegalAction, InvalidAction, RefereeError
from referee.games import line
from referee.layout import Layout, LayoutRules
from referee.rulebook import PRESETS, Option, Preset, preset, rule_text
from referee.tiles import DominoSet, Tile

__all__ = [
    *actions.__all__, "PRESETS", "DocumentError", "DominoSet", "IllegalAction", "InvalidAction",
    "Layout", "LayoutRules", "MatchReplay", "Option", "Preset", "RefereeError", "Tile", "export",
    "line", "preset", "replay", "rule_text",
]  # fmt: skip
