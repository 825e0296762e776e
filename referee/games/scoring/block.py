"""Block scoring (RULES.md §2.5 ``block.score``): Block, Draw, Cross, Cross with spinners and
Doubles. Plays score nothing; the round's winner scores the pips left in the other hands,
and the match ends at the end of a round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.games.scoring.base import BLOCKED, Family

if TYPE_CHECKING:
    from referee.games.line import RoundState


class Block(Family):
    def round_end(self, state: RoundState, pips: tuple[int, ...], winner: int) -> tuple[int, str]:
        """``block.score``: the pips in the opponents' hands; with ``blocked_minus_own``, a
        blocked round's winner subtracts their own."""
        won = sum(p for seat, p in enumerate(pips) if seat != winner)
        if state.ended == BLOCKED and state.options["blocked_minus_own"]:
            won -= pips[winner]
        return max(0, won), ""


BLOCK = Block()
