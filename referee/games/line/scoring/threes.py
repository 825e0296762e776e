"""Fives and Threes scoring (RULES.md §2.5 ``threes.*``). A count divisible by 5 or 3 scores
as ``threes_scoring`` says; a pub round's domino chips out for 1, the face modes pay the
fives end bonus; the match ends the moment a seat reaches the target, exactly with
``exact_target``; and the lead passes to the left from round to round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.frozen import replace
from referee.games.line.scoring.base import DOMINO, Family, credit
from referee.games.line.scoring.fives import FIVES
from referee.said import Said

if TYPE_CHECKING:
    from referee.actions import Play
    from referee.round import Round as RoundState


class Threes(Family):
    target = "threes.target"

    def worth(self, state: RoundState, count: int) -> int:
        """``threes.score``: pub scores count ÷ 5 and count ÷ 3 for each that divides it;
        face scores the count once if either does, face-each once for each."""
        if count <= 0:
            return 0
        by = [d for d in (5, 3) if count % d == 0]
        mode = state.options["threes_scoring"]
        if mode == "pub":
            return sum(count // d for d in by)
        return count * (len(by) if mode == "face-each" else min(1, len(by)))

    def tallied(self, state: RoundState) -> bool:
        """Pub rules count nothing at a round's end (``threes.chip-out``): the chip-out point
        is scored with the last tile and a blocked round scores nothing, so the table is not
        asked for its hands. The face modes pay the fives end bonus from them."""
        return state.options["threes_scoring"] != "pub"

    def play(self, state: RoundState, action: Play) -> RoundState:
        """The count the play leaves scores; in pub mode the tile that chips out scores 1
        more (``threes.chip-out``), obeying the exact target as any point does."""
        after = super().play(state, action)
        if self.tallied(state) or after.ended != DOMINO or after.champion is not None:
            return after
        chipped = credit(after, {action.seat: 1})
        return replace(
            chipped,
            last_points=tuple(
                a + b for a, b in zip(after.last_points, chipped.last_points, strict=True)
            ),
            last_passed=after.last_passed or chipped.last_passed,
        )

    def round_end(self, state: RoundState, pips: tuple[int, ...], winner: int) -> tuple[int, Said]:
        """The face modes use ``fives.end-bonus`` (pub rounds are not tallied)."""
        return FIVES.round_end(state, pips, winner)

    def ends_at_once(self, state: RoundState) -> bool:
        return True

    def past_target(self, state: RoundState, total: int) -> bool:
        """``threes.target`` with ``exact_target``: a score that would pass the target is
        not scored (the player stays where they were)."""
        return state.options["exact_target"] and total > state.options["target"]

    def next_leader(self, state: RoundState) -> int | None:
        """``threes.target``: the seat left of this round's leader leads the next."""
        return None if state.led_by is None else state.next_seat(state.led_by)


THREES = Threes()
