"""Partnerships (RULES.md §8): who plays with whom, and whom a total belongs to.

Every seat keeps its own score (``team.score``: records keep each seat's own scoring plays);
what decides a target, a round's winner and the match is the total of the seat's team. A
table without partnerships is a table of teams of one, so every game asks the same
questions of the same functions, and nothing else in the referee knows about partners.

>>> pairs = teams(4, {"partnerships": True})
>>> pairs, team_of(pairs, 2), team_totals((10, 5, 20, 0), pairs)
(((0, 2), (1, 3)), (0, 2), (30, 5))
>>> teams(3, {})
((0,), (1,), (2,))
>>> team_name(("Ana", "Ben", "Caro", "Dan"), (0, 2))
'Ana & Caro'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.said import Said

Team = tuple[int, ...]

#: team.seats: partners sit opposite, so play alternates between the teams.
PAIRS: tuple[Team, ...] = ((0, 2), (1, 3))


def teams(seats: int, options: Mapping[str, Any]) -> tuple[Team, ...]:
    """The teams at a table of ``seats``: 0+2 against 1+3 with ``partnerships``, else every
    seat alone."""
    if options.get("partnerships"):
        return PAIRS
    return tuple((seat,) for seat in range(seats))


def team_of(teams: Sequence[Team], seat: int) -> Team:
    """The team ``seat`` plays for."""
    for team in teams:
        if seat in team:
            return team
    raise ValueError(f"seat {seat} is in no team")


def team_totals(totals: Sequence[int], teams: Sequence[Team]) -> tuple[int, ...]:
    """Each team's total: the sum of its seats' (``team.score``)."""
    return tuple(sum(totals[seat] for seat in team) for team in teams)


def leader(totals: Sequence[int], teams: Sequence[Team], lowest: bool = False) -> Team | None:
    """The one team with the best total (the highest, or the lowest); None on a tie."""
    by_team = team_totals(totals, teams)
    best = min(by_team) if lowest else max(by_team)
    top = [team for team, total in zip(teams, by_team, strict=True) if total == best]
    return top[0] if len(top) == 1 else None


def team_name(names: Sequence[str], team: Team) -> str:
    """A team as the table names it: its players ("Ana & Caro"), or the one player."""
    # A Said even with no English word in it: a translation may join partners otherwise.
    if not team:
        return ""
    name: str = names[team[0]]
    for seat in team[1:]:
        name = Said("{first} & {then}", first=name, then=names[seat])
    return name
