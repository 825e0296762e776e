"""The tally's shared checks, and settling a match where the lowest total wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any


def lowest(pips: Sequence[int]) -> int | None:
    """The seat with the fewest pips, None on a tie (``train.score``, ``havoc.win``).

    >>> lowest((12, 3, 7)), lowest((3, 3, 7))
    (1, None)
    """
    low = min(pips)
    seats = [s for s, p in enumerate(pips) if p == low]
    return seats[0] if len(seats) == 1 else None


def settle_lowest(state: Any) -> Any:
    """Once the match is over, the lowest total wins it; a tie at the bottom is shared."""
    if not state.match_over:
        return state
    totals = state.totals
    low = min(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == low)
    winner = leaders[0] if len(leaders) == 1 else None
    return replace(state, champion=winner, shared=leaders if winner is None else ())
