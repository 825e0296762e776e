"""How a round ends: the reasons, and :class:`RoundResult` (one definition for every game
that plays rounds; Dump Truck, one game and no rounds, has its own result)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.said import Said

# Why a round ended (a result's ``reason``, MATCH_FORMAT.md).
DOMINO = "domino"  # a seat played its last tile
BLOCKED = "blocked"  # nobody could play
TARGET = "target"  # a seat reached the match's target mid-round
ABANDONED = "abandoned"  # the table abandoned it: no score (correct.abandon)
STOPPED = "stopped"  # the table stopped the match during it (correct.abandon)


@dataclass(frozen=True, slots=True)
class Finding:
    """Something the tally audit found; the table decides what follows."""

    rule: str
    action: int
    seat: int
    message: Said


@dataclass(frozen=True)
class RoundResult:
    """The end of a round: who won, why, the pips declared and the points scored."""

    winner: int | None
    reason: str
    pips: tuple[int, ...]
    points: tuple[int, ...]
    findings: tuple[Finding, ...] = ()
    bonus: Said = Said("")  # how fives.end-bonus was counted, for the table (not exported)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "pips": {str(seat): pips for seat, pips in enumerate(self.pips)},
            "points": {str(seat): p for seat, p in enumerate(self.points) if p},
        }
