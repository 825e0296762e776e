"""What Mexican Train's and Chicken Foot's round states share: a match of a fixed number of
rounds (one per double, or ``rounds``), totals kept as the rounds before plus this one, and
an abandoned round that does not count (``correct.abandon``: the same double is replayed).

A mixin over the fields both states declare (names, options, base, scores, ended, result,
stop); each game keeps what differs: its layout, its turn, and how its match ends.
"""

from __future__ import annotations

from typing import Any

from referee.corrections import ABANDONED, STOPPED
from referee.round.result import RoundResult


class TrainRounds:
    names: tuple[str, ...]
    options: Any
    base: tuple[int, ...]
    scores: tuple[int, ...]
    ended: str | None
    result: RoundResult | None
    stop: Any

    # What the match machinery asks of every game's state.
    pending = None
    last_hits = None
    dominards = False
    muggins = False

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def top(self) -> int:
        return self.options["set"]

    @property
    def rounds(self) -> int:
        """How many rounds the match has: one per double, or the agreed number."""
        rounds = self.options["rounds"]
        return self.top + 1 if rounds == "all" else rounds

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(b + s for b, s in zip(self.base, self.scores, strict=True))

    @property
    def is_over(self) -> bool:
        return self.ended is not None or self.result is not None

    @property
    def stopped(self) -> bool:
        return self.stop is not None

    @property
    def counted(self) -> bool:
        """This round is over and counts as one of the match's rounds: an abandoned one
        does not (correct.abandon: the next round replays the same double)."""
        return self.result is not None and self.result.reason not in (ABANDONED, STOPPED)

    def abandoned_result(self) -> RoundResult:
        nobody = (0,) * self.seats
        return RoundResult(None, ABANDONED, nobody, nobody)

    def stopped_result(self) -> RoundResult:
        return RoundResult(None, STOPPED, (0,) * self.seats, self.scores)
