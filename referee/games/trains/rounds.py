"""What Mexican Train's and Chicken Foot's round states share, over the kernel's
:class:`~referee.round.core.RoundCore`: a match of a fixed number of rounds (one per
double, or ``rounds``), and an abandoned round that does not count (``correct.abandon``:
the same double is replayed). Each game keeps what differs: its layout, its turn, and how
its match ends.
"""

from __future__ import annotations

from typing import Any

from referee.actions import Action, Draw, Engine, Pass, Undo
from referee.round.core import RoundCore


class TrainRounds(RoundCore):
    @property
    def rounds(self) -> int:
        """How many rounds the match has: one per double, or the agreed number."""
        rounds = self.options["rounds"]  # type: ignore[attr-defined]
        return self.top + 1 if rounds == "all" else rounds


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
