"""The interface every scoring family answers, and the one place points are credited.

The line (``referee.games.line``) keeps the mechanics: turns, drawing, knocking, the layout
and the pips of the tally. What a play or a round's end scores, when the match ends and who
leads next are the family's to say; the line asks ``state.scoring``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee.errors import IllegalAction
from referee.frozen import replace
from referee.round.result import BLOCKED, DOMINO, TARGET
from referee.said import Said
from referee.teams import leader, team_totals, teams

if TYPE_CHECKING:
    from referee.actions import Action, Pass, Play, Tally
    from referee.round import Round as RoundState  # what the line's state offers them
    from referee.round.result import RoundResult

# How a round ends (``RoundResult.reason``): the line sets it, the families score by it.
__all__ = ["BLOCKED", "DOMINO", "LAST_CARD", "TARGET", "Family", "credit", "match_winner"]
LAST_CARD = "last-card"  # dominards.card-bonus: the game ended on a seat's last card


class Family:
    """A scoring family (``Preset.scoring``: block, fives, threes, dominards). Each family
    overrides what its rules change; the defaults here are what most of them agree on."""

    #: The rule a match won at the target cites (every refusal after the end names it).
    target = "block.score"

    def tallied(self, state: RoundState) -> bool:
        """Whether a round's end is scored from the hands tallied. Where it is scored in the
        play that ends the round (Dominards, pub Fives and Threes) the round closes at once."""
        return True

    def worth(self, state: RoundState, count: int) -> int:
        """What a play that leaves ``count`` scores."""
        return 0

    def play(self, state: RoundState, action: Play) -> RoundState:
        """``state``, the tile just placed, with what the play scores credited (with
        ``fives.muggins`` on, the line asks :meth:`worth` and waits for the declaration)."""
        made = self.worth(state, state.layout.count)
        return credit(state, {action.seat: made}) if made else state

    def gains(self, state: RoundState, count: int) -> int:
        """The table's hint: what a play leaving ``count`` (-1: it cannot go) would credit
        the seat to play, so nothing past an exact target."""
        made = self.worth(state, count)
        if not made:
            return 0
        seat = state.turn if state.turn is not None else 0
        return credit(state, {seat: made}).last_points[seat]

    def round_end(self, state: RoundState, pips: tuple[int, ...], winner: int) -> tuple[int, Said]:
        """What the round's winner scores at the tally, and how it was counted, aloud (empty
        when there is nothing to show)."""
        raise NotImplementedError(f"{type(self).__name__} rounds are not tallied")

    def ends_at_once(self, state: RoundState) -> bool:
        """Whether the match ends the moment a seat reaches the target, rather than at the end
        of a round (where :func:`match_winner` decides)."""
        return False

    def past_target(self, state: RoundState, total: int) -> bool:
        """Whether a score that would bring a total to ``total`` is refused: not scored."""
        return False

    def match_end(self, state: RoundState) -> tuple[str, Said] | None:
        """The rule that ended the match and how, in the players' words; None while it goes
        on."""
        if state.champion is None:
            return None
        who = state.champion
        return self.target, Said(
            "The match is over: {team} reached {total}",
            team=state.team_name(who),
            total=state.team_total(who),
        )

    def next_leader(self, state: RoundState) -> int | None:
        """Who must lead the next round; None: the table chooses."""
        return None

    def deal(self, seats: int, carry: Mapping[str, Any] | None) -> dict[str, Any]:
        """What a round's state starts with besides the tiles, from what the last round
        handed on (:meth:`carry`; None for the first round)."""
        return {}

    def carry(self, state: RoundState) -> dict[str, Any]:
        """What the next round starts from besides the totals."""
        return {}

    # -- hooks the line calls where a family adds rules of its own (Dominó, parejas.*) --

    def check_play(self, state: RoundState, action: Play) -> None:
        """Refuse a play the family's own rules forbid, before the line judges it."""

    def knock(self, state: RoundState, action: Pass) -> RoundState:
        """``state``, a knock just recorded, with what the knock earns."""
        return state

    def table_action(self, state: RoundState, action: Action) -> RoundState:
        """An action of the family's own (Dominó's ``redeal`` and ``time``); other families
        have none."""
        raise IllegalAction(
            "info.public",
            Said(
                "{game} has no {kind}; that belongs to another game.",
                game=state.game.named,
                kind=action.kind,
            ),
        )

    def settle(
        self, state: RoundState, action: Tally, result: RoundResult
    ) -> tuple[RoundState, RoundResult]:
        """The round's result as the family settles it from the tally (the line's
        ``tally.winner`` and the family's :meth:`round_end` by default)."""
        if action.made:
            raise IllegalAction(
                "pad.record",
                Said("Only a Dominó score pad says what a hand made; {game} has no bonuses.",
                     game=state.game.named),
            )  # fmt: skip
        return state, result

    def decide(self, state: RoundState) -> RoundState:
        """``state``, a round just tallied, with the match's end as the family judges it
        (the line has applied :func:`match_winner`)."""
        return state


def credit(state: RoundState, points: Mapping[int, int]) -> RoundState:
    """``state`` with ``points`` scored (seat → points): whom a point belongs to. Every point,
    in play or at a round's end, is credited here, with the round's scores, the last action's
    points, and the champion where the match ends the moment a seat gets there. A point
    stays the seat's own, and counts for its team (``team.score``): targets are judged on the
    team's total, and the champion is named by its team's first seat."""
    family = state.scoring
    credited, passed = [0] * state.seats, 0
    for seat, p in points.items():
        credited[seat] = p
        if p > 0 and family.past_target(state, state.team_total(seat) + p):
            credited[seat], passed = 0, p
    scores = tuple(s + c for s, c in zip(state.scores, credited, strict=True))
    after = replace(state, scores=scores, last_points=tuple(credited), last_passed=passed)
    if family.ends_at_once(state):
        for seat, p in enumerate(credited):
            if p > 0 and after.team_total(seat) >= state.options["target"]:
                return replace(after, champion=state.team(seat)[0])
    return after


def match_winner(totals: Sequence[int], options: Mapping[str, Any]) -> int | None:
    """``block.score``: the match ends when a team (a seat, alone) reaches the target at a
    round's end (a tie at the top plays on); the winner is named by the team's first seat."""
    sides = teams(len(totals), options)
    best = leader(totals, sides)
    if best is not None and team_totals(totals, (best,))[0] >= options["target"]:
        return best[0]
    return None
