"""Fives scoring (RULES.md §2.5 ``fives.*``): All Fives and Muggins. A count that is a
positive multiple of 5 scores the count; the round's winner scores the end bonus; the match
ends at the target, with ``end_at_target`` the moment a seat reaches it. (Declaring scores,
``fives.muggins``, is the line's procedure: the family says what a play made.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.games.line.scoring.base import DOMINO, Family
from referee.said import Said, phrase

if TYPE_CHECKING:
    from referee.round import Round as RoundState


class Fives(Family):
    target = "fives.target"

    def worth(self, state: RoundState, count: int) -> int:
        """``fives.score``: a positive multiple of 5 scores the count."""
        return count if count > 0 and count % 5 == 0 else 0

    def round_end(self, state: RoundState, pips: tuple[int, ...], winner: int) -> tuple[int, Said]:
        return end_bonus(state, pips, winner), end_bonus_words(state, pips, winner)

    def ends_at_once(self, state: RoundState) -> bool:
        return state.options["end_at_target"]


FIVES = Fives()


def end_bonus(state: RoundState, pips: tuple[int, ...], winner: int) -> int:
    """``fives.end-bonus``: each loser's pips minus the winner's, rounded to the nearest 5
    (1-2 down, 3-4 up) and summed; ``round_combined`` rounds the sum instead."""
    differences = [d for _, d in _differences(state, pips, winner)]
    if state.options.get("round_combined"):
        return _nearest_five(sum(differences))
    return sum(_nearest_five(d) for d in differences)


def end_bonus_words(state: RoundState, pips: tuple[int, ...], winner: int) -> Said:
    """The end bonus as the table would count it aloud: "Ben 24 → 25, Caro 8 → 10: 35"."""
    parts = _differences(state, pips, winner)
    total = end_bonus(state, pips, winner)
    if state.options.get("round_combined"):
        summed = _joined(
            phrase("{first} + {then}"),
            [Said("{team} {pips}", team=state.team_name(seat), pips=d) for seat, d in parts],
        )
        return Said(
            "{summed} = {sum} → {total}", summed=summed, sum=sum(d for _, d in parts), total=total
        )
    each = _joined(
        phrase("{first}, {then}"),
        [
            Said(
                "{team} {pips} → {rounded}",
                team=state.team_name(seat),
                pips=d,
                rounded=_nearest_five(d),
            )
            for seat, d in parts
        ],
    )
    return Said("{each}: {total}", each=each, total=total)


def _joined(template: str, words: list[Said]) -> Said:
    """``words`` one after another, each pair joined by ``template`` (``{first}``, ``{then}``):
    still data, where ``str.join`` would flatten them into text."""
    joined = words[0]
    for word in words[1:]:
        joined = Said(template, first=joined, then=word)
    return joined


def _differences(state: RoundState, pips: tuple[int, ...], winner: int) -> list[tuple[int, int]]:
    """Each losing team's pips minus the winning team's, by the team's first seat: in
    partnerships (``team.fives``) the partners' pips combined, the winners' counted as 0
    when they dominoed (the partner's hand is not counted then)."""
    own = 0 if state.ended == DOMINO else sum(pips[seat] for seat in state.team(winner))
    return [
        (team[0], sum(pips[seat] for seat in team) - own)
        for team in state.teams
        if winner not in team
    ]


def _nearest_five(n: int) -> int:
    return (n + 2) // 5 * 5
