"""Scoring families (RULES.md §2.5, §3, §11): block, fives, threes, dominards and parejas
(Dominó), one module
each behind :class:`Family`. The line game asks its family what plays and round ends
score, when the match ends and who leads next; :func:`credit` is whom a point belongs to.

>>> from referee.rulebook import preset
>>> family(preset("muggins")).target, family(preset("doubles")).target
('fives.target', 'block.score')
"""

from __future__ import annotations

from referee.games.line.scoring.base import (
    BLOCKED,
    DOMINO,
    LAST_CARD,
    TARGET,
    Family,
    credit,
    match_winner,
)
from referee.games.line.scoring.block import BLOCK
from referee.games.line.scoring.dominards import DOMINARDS
from referee.games.line.scoring.fives import FIVES
from referee.games.line.scoring.parejas import PAREJAS
from referee.games.line.scoring.threes import THREES
from referee.rulebook import Preset

_FAMILIES: dict[str, Family] = {
    "block": BLOCK, "fives": FIVES, "threes": THREES, "dominards": DOMINARDS,
    "parejas": PAREJAS,
}  # fmt: skip


def family(game: Preset) -> Family:
    """The family that scores ``game`` (its ``scoring``)."""
    return _FAMILIES[game.scoring]


__all__ = [
    "BLOCKED", "DOMINO", "LAST_CARD", "TARGET", "Family", "credit", "family",
    "match_winner",
]  # fmt: skip
