"""The action language of MATCH_FORMAT.md, as typed values: the line games', Dump
Truck's and Double Domino Havoc's (each family has its own table of types).

Every form in the web app and every action of a match document becomes one of
these. Parsing checks the shape only; whether the action is legal is the game's
business.

>>> parse_action({"type": "play", "seat": "1", "tile": "3-6", "on": "6-6", "card": "q"})
Play(seat=1, tile=Tile.parse('6-3'), on=Tile.parse('6-6'), face=None, card='Q', drop=None)
>>> parse_action({"type": "play", "seat": 1, "tile": "3-6", "on": "6-6"}).to_dict()
{'type': 'play', 'seat': 1, 'tile': '6-3', 'on': '6-6'}
>>> parse_action({"type": "draw", "seat": 0}).count
1
>>> parse_action({"type": "load", "seat": 0, "tile": "3-5", "cells": [[0, 0], [0, 1]]}, "truck")
Load(seat=0, tile=Tile.parse('5-3'), cells=((0, 1), (0, 0)))
>>> parse_action({"type": "train", "seat": 2, "tile": "5-8"}, "havoc").to_dict()
{'type': 'train', 'seat': 2, 'tile': '5-8'}
"""

from __future__ import annotations

from referee.actions import values
from referee.actions.parsing import (
    FAMILIES,
    MAX_REASON,
    MOST_POINTS,
    RANKS,
    card_value,
    parse_action,
    parse_card,
    parse_seat,
)

# The action values, every name values.__all__ offers: listed there once, not again here.
from referee.actions.values import *  # noqa: F403

__all__ = [
    *values.__all__, "FAMILIES", "MAX_REASON", "MOST_POINTS", "RANKS", "card_value",
    "parse_action", "parse_card", "parse_seat",
]  # fmt: skip
