"""What Mexican Train's and Chicken Foot's round states share, over the kernel's
:class:`~referee.round.core.RoundCore`: a match of a fixed number of rounds (one per
double, or ``rounds``), and an abandoned round that does not count (``correct.abandon``:
the same double is replayed). Each game keeps what differs: its layout, its turn, and how
its match ends.
"""

from __future__ import annotations

from typing import Any

from referee.actions import Action, Draw, Engine, Pass, Undo
from referee.corrections import stopped_words
from referee.round.core import RoundCore
from referee.round.tally import lowest_wins
from referee.said import Said


class TrainRounds(RoundCore):
    #: The rule a match ends under once its rounds are played (each game's own id).
    rounds_rule = "train.rounds"

    @property
    def rounds(self) -> int:
        """How many rounds the match has: one per double, or the agreed number."""
        rounds = self.options["rounds"]  # type: ignore[attr-defined]
        return self.top + 1 if rounds == "all" else rounds

    def played_down(self) -> Said | None:
        """How a match that played its doubles down ended, in the game's own words; None
        where it did not (it played an agreed number of rounds)."""
        return None

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the match (the game's rounds rule, or ``correct.abandon``
        for a stop) and how, in the players' words; None while it goes on. Every later
        action is refused citing it."""
        if not self.match_over:  # type: ignore[attr-defined]
            return None
        if self.stop is not None:
            return "correct.abandon", lowest_wins(self, stopped_words(self.stop))
        how = self.played_down()
        if how is None and self.rounds == 1:
            how = Said("the one agreed round is played")
        elif how is None:
            how = Said("all {rounds} agreed rounds are played", rounds=self.rounds)
        return self.rounds_rule, lowest_wins(self, how)


def turn_candidates(state: Any) -> tuple[list[Action], int | None]:
    """What a train round's ``legal_actions`` tries before the plays, and the seat whose
    plays the game adds (None: no play can be tried now). Both games look for the round's
    double the same way (every seat may place it; the seats that may search draw) and,
    once it is placed, the seat to act may draw or pass; only where a tile goes differs.
    """
    found: list[Action] = [Undo()]
    if state.is_over or state.pad or state.stopped:
        return found, None
    if not state.placed:
        found += [Engine(seat, state.engine) for seat in range(state.seats)]
        drawers = range(state.seats) if state.turn is None else (state.turn,)
        return found + [Draw(seat) for seat in drawers], None
    seat = state.turn
    assert seat is not None
    return found + [Draw(seat), Pass(seat)], seat
