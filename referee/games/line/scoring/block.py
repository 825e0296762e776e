"""Block scoring (RULES.md §2.5 ``block.score``): Block, Draw, Cross, Cross with spinners and
Doubles. Plays score nothing; the round's winner scores the pips left in the other hands,
and the match ends at the end of a round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.games.line.scoring.base import BLOCKED, Family
from referee.said import Said

if TYPE_CHECKING:
    from referee.round import Round as RoundState


class Block(Family):
    def round_end(self, state: RoundState, pips: tuple[int, ...], winner: int) -> tuple[int, Said]:
        """``block.score``: the pips in the opponents' hands; with ``blocked_minus_own``, a
        blocked round's winner subtracts their own. In partnerships (``team.block``) the
        partner's pips are the team's own, unless ``count_all_hands`` counts them too."""
        own = state.team(winner)
        if state.options.get("count_all_hands"):
            own = (winner,)
        won = sum(p for seat, p in enumerate(pips) if seat not in own)
        if state.ended == BLOCKED and state.options["blocked_minus_own"]:
            won -= sum(pips[seat] for seat in own)
        return max(0, won), Said("")


BLOCK = Block()
