"""The line family's reducer (RULES.md §2–§3, §6): Block, Draw, All Fives, Muggins,
Fives and Threes, Cross, Cross with spinners, Doubles and Dominards are presets of this one
engine. It keeps the line's mechanics; what plays and round ends score, when the match ends
and who leads next, it asks the game's scoring family (``referee.games.line.scoring``).
Dominards adds the dice and cards of ``referee.games.line.dominards``.

A round is replayed from its actions: ``start`` gives the state before the lead,
``apply`` returns the state after one more action and never mutates. Legality is
written once, in the ``_check_*`` functions; ``apply`` runs them and
``legal_actions`` is the list of candidates they accept.

A score-pad round (``pad.record``, Block and Draw with ``record`` = ``scores``) has no
plays: its tally alone ends it, and says how (a seat with no tiles left dominoed), and the
game's scoring applies to it as to a played round.

>>> from referee.actions import Play, Draw, Pass
>>> state = start("draw", {}, ["Ana", "Ben"])
>>> state = apply(state, Play(0, Tile.parse("6-6")))
>>> state.turn, state.hands, state.layout.count
(1, (6, 7), 12)
>>> print(check(state, Pass(1)))
draw.must-draw: Ben cannot knock while 14 tiles can still be drawn; Ben draws first.
"""

from __future__ import annotations

from referee.games.line.dominards import Dice, Hits
from referee.games.line.engine import (
    apply,
    check,
    fits,
    gains,
    legal_actions,
    next_leader,
    options_for,
    start,
    total_after,
    worth,
)
from referee.games.line.scoring import BLOCKED, DOMINO, LAST_CARD, TARGET, match_winner
from referee.games.line.state import MOST_DECLARED, Knock, Pending, RoundState
from referee.layout import END, SIDE
from referee.round.result import Finding, RoundResult
from referee.tiles import Tile

#: The facts a screen asks of the game rather than knowing them (referee.round.Engine).
FAMILY = "line"
SCREEN = "line"
LOWEST_TOTAL_WINS = False
ROUNDS = True

__all__ = [
    "BLOCKED", "DOMINO", "END", "FAMILY", "LAST_CARD", "LOWEST_TOTAL_WINS", "MOST_DECLARED",
    "ROUNDS", "SCREEN", "SIDE", "TARGET", "Dice", "Finding", "Hits", "Knock", "Pending",
    "RoundResult", "RoundState", "Tile", "apply", "check", "fits", "gains", "legal_actions",
    "match_winner", "next_leader", "options_for", "start", "total_after", "worth",
]  # fmt: skip
