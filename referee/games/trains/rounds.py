"""What Mexican Train's and Chicken Foot's round states share, over the kernel's
:class:`~referee.round.core.RoundCore`: a match of a fixed number of rounds (one per
double, or ``rounds``), and an abandoned round that does not count (``correct.abandon``:
the same double is replayed). Each game keeps what differs: its layout, its turn, and how
its match ends.
"""

from __future__ import annotations

from referee.round.core import RoundCore


class TrainRounds(RoundCore):
    @property
    def rounds(self) -> int:
        """How many rounds the match has: one per double, or the agreed number."""
        rounds = self.options["rounds"]  # type: ignore[attr-defined]
        return self.top + 1 if rounds == "all" else rounds
