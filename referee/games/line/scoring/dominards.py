"""Dominards scoring (RULES.md §3): a play scores the targets its total meets and drops the
cards they earn (the dice and cards themselves are ``referee.games.line.dominards``); the play
that ends a round scores the domino bonus, so nothing is tallied; dropping the last card
scores the card bonus and ends the game, highest score winning."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.frozen import replace
from referee.games.line.dominards import CARDS_DEALT, judge, rank
from referee.games.line.scoring.base import DOMINO, LAST_CARD, Family, credit
from referee.said import Said

if TYPE_CHECKING:
    from referee.actions import Play
    from referee.round import Round as RoundState


class Dominards(Family):
    def tallied(self, state: RoundState) -> bool:
        return False

    def play(self, state: RoundState, action: Play) -> RoundState:
        """The targets the play meets (``dominards.card``, ``.multiple``, ``.virtual``,
        ``.once``), the cards it drops, then the domino bonus and the card bonus, in that
        order; raises IllegalAction for a drop the total does not allow."""
        seat = action.seat
        hits = judge(
            state.layout.count, state.dice, action.card, action.drop, held=state.cards[seat],
            dropped=state.dropped, stack=state.options["stack_targets"], who=state.name(seat),
        )  # fmt: skip
        cards = tuple(c - len(hits.cards) if s == seat else c for s, c in enumerate(state.cards))
        others = [s for s in range(state.seats) if s != seat]
        if state.ended == DOMINO:  # dominards.domino-bonus: a point per domino in opponents' hands
            hits = replace(hits, domino_bonus=sum(state.hands[s] for s in others))
        if cards[seat] == 0:  # dominards.card-bonus: 2 points per card in opponents' hands
            hits = replace(hits, card_bonus=2 * sum(cards[s] for s in others))
        after = replace(
            state,
            cards=cards,
            dropped=tuple(sorted(state.dropped + tuple(rank(c) for c in hits.cards))),
            dice=state.dice.after_turn(state.seats) if state.dice else None,
            last_hits=hits,
        )
        after = credit(after, {seat: hits.scored} if hits.scored else {})
        if cards[seat] == 0:  # the game is over: the highest score wins, a tie shares it
            best = max(after.totals)
            top = tuple(s for s, t in enumerate(after.totals) if t == best)
            champion = top[0] if len(top) == 1 else None
            shared = top if champion is None else ()
            return replace(after, champion=champion, shared=shared, ended=after.ended or LAST_CARD)
        return after

    def gains(self, state: RoundState, count: int) -> int:
        """What the dice's targets alone would score: cards are private (dominards.card)."""
        if count <= 0 or state.dice is None:
            return 0
        hits = judge(
            count, state.dice, None, None, held=0, dropped=(), stack=state.options[
                "stack_targets"], who="",
        )  # fmt: skip
        return hits.points

    def match_end(self, state: RoundState) -> tuple[str, Said] | None:
        if not state.match_over:
            return None
        return "dominards.card-bonus", Said("The game is over: a seat dropped its last card")

    def deal(self, seats: int, carry: Mapping[str, Any] | None) -> dict[str, Any]:
        """The cards: 5 each in the first round, else as the last round left them."""
        if not carry:
            return {"cards": (CARDS_DEALT,) * seats, "dropped": ()}
        return {"cards": tuple(carry["cards"]), "dropped": tuple(carry["dropped"])}

    def carry(self, state: RoundState) -> dict[str, Any]:
        """Cards stay in hand from deal to deal (``dominards.domino-bonus``)."""
        return {"cards": list(state.cards), "dropped": sorted(state.dropped)}


DOMINARDS = Dominards()
