"""Dominards' own rules (RULES.md §3): the dice, the targets and the cards.

The layout, turns and drawing are the line family's (``referee.games.line`` runs the
round); this module holds what the dice and the cards add, as values and pure functions.

>>> dice = Dice(0, (3, 4))
>>> dice.target, judge(14, dice, None, None, held=5, dropped=(), stack=False, who="Ana").targets
('multiples of 7', ('dominards.multiple',))
>>> judge(12, dice, "Q", None, held=5, dropped=(), stack=False, who="Ana").points
12
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.actions import RANKS, card_value
from referee.errors import IllegalAction
from referee.said import Said, phrase

CARDS_DEALT = 5  # each seat's cards at the start of the game (S004)
SUITS = 4  # a 52-card deck holds four of each rank


@dataclass(frozen=True, slots=True)
class Dice:
    """``dominards.dice``: who controls the dice, their roll, and how many turns it has
    governed. A roll governs the controller's turn, one turn of every other seat and the
    controller's next turn; then control passes to the next seat."""

    controller: int
    roll: tuple[int, ...] = ()  # () while the controller has yet to roll
    turns: int = 0  # turns played under this roll

    @property
    def total(self) -> int:
        return sum(self.roll)

    @property
    def multiples(self) -> bool:
        return len(self.roll) == 2

    @property
    def virtual(self) -> bool:
        return len(self.roll) == 4

    @property
    def target(self) -> Said:
        """What the roll makes a target, in the table's words."""
        if not self.roll:
            return Said("")
        if self.multiples:
            return Said("multiples of {total}", total=self.total)
        return Said("virtual card {total}", total=self.total)

    def turns_left(self, seats: int) -> int:
        """Turns this roll still governs, the one being played included."""
        return seats + 1 - self.turns if self.roll else 0

    def after_turn(self, seats: int) -> Dice:
        """The dice once a turn (a play or a knock) is over."""
        if self.turns + 1 > seats:
            return Dice((self.controller + 1) % seats)
        return Dice(self.controller, self.roll, self.turns + 1)


@dataclass(frozen=True, slots=True)
class Hits:
    """What one play met and scored: the total, the targets (rule ids), the cards dropped
    and the bonuses it earned."""

    total: int
    targets: tuple[str, ...] = ()
    points: int = 0  # what the targets scored (dominards.once, stack_targets)
    cards: tuple[str, ...] = ()
    domino_bonus: int = 0
    card_bonus: int = 0

    @property
    def scored(self) -> int:
        return self.points + self.domino_bonus + self.card_bonus


#: Each target a play can meet, in the table's words (the app says what a play met).
TARGET_WORDS = {
    "dominards.card": Said("a card"),
    "dominards.multiple": Said("the dice's multiple"),
    "dominards.virtual": Said("the virtual card"),
}


def card_for(total: int) -> str | None:
    """The card worth ``total`` when dropped for its value, or None (aces: A1 and A14)."""
    if total == 1:
        return "A1"
    if total == 14:
        return "A14"
    return RANKS[total - 1] if 2 <= total <= 13 else None


def card_to_drop(total: int, dropped: tuple[str, ...]) -> str | None:
    """The card a play that makes ``total`` may drop for its value, given the ranks dropped
    in the game so far: None when no card is worth it or all four are gone."""
    card = card_for(total)
    if card is None or dropped.count(rank(card)) >= SUITS:
        return None
    return card


def rank(card: str) -> str:
    """The rank on the card: "A" for an ace whichever value it was dropped for."""
    return "A" if card.startswith("A") else card


def card_words(card: str) -> Said:
    """A card as players say it: "a Q", "an ace as 14"."""
    if card.startswith("A"):
        return Said("an ace as {value}", value=card[1:]) if len(card) > 1 else Said("an ace")
    return Said("a {card}", card=card)


def judge(
    total: int,
    dice: Dice | None,
    card: str | None,
    drop: str | None,
    *,
    held: int,
    dropped: tuple[str, ...],
    stack: bool,
    who: str,
) -> Hits:
    """The targets a play that leaves ``total`` meets and what they score, with the cards
    it drops; raises IllegalAction for a card the total does not allow."""
    targets: list[str] = []
    if card is not None:
        if card_value(card) != total:
            fits = card_for(total)
            allowed = (
                Said("the card worth {total} is {card}", total=total, card=card_words(fits))
                if fits
                else Said("no card is worth {total}", total=total)
            )
            raise IllegalAction(
                "dominards.card",
                Said(
                    "The total is {total}, so {who} cannot drop {card} for it: {allowed}.",
                    total=total,
                    who=who,
                    card=card_words(card),
                    allowed=allowed,
                ),
            )
        targets.append("dominards.card")
    if dice is not None and dice.multiples and total > 0 and total % dice.total == 0:
        targets.append("dominards.multiple")
    if dice is not None and dice.virtual and total == dice.total:
        targets.append("dominards.virtual")
    if drop is not None and "dominards.virtual" not in targets:
        virtual = (
            Said("the virtual card is {value}", value=dice.total)
            if dice is not None and dice.virtual
            else Said("the dice are rolled for multiples, so there is no virtual card")
        )
        raise IllegalAction(
            "dominards.virtual",
            Said(
                "A free drop comes only with a total equal to the virtual card; the total is "
                "{total} and {virtual}. {who} keeps {card}.",
                total=total,
                virtual=virtual,
                who=who,
                card=card_words(drop),
            ),
        )
    cards = tuple(c for c in (card, drop) if c is not None)
    if len(cards) > held:  # at most two cards drop, so the seat holds one or none
        template = (
            phrase("{who} holds {held} card, so cannot drop {n}; {who} drops one.")
            if held == 1
            else phrase("{who} holds {held} cards, so cannot drop {n}; {who} drops none.")
        )
        raise IllegalAction("dominards.card", Said(template, who=who, held=held, n=len(cards)))
    for r in {rank(c) for c in cards}:
        gone = sum(1 for d in dropped if d == r)
        if gone + sum(1 for c in cards if rank(c) == r) > SUITS:
            plural = Said("aces") if r == "A" else Said("{rank}s", rank=r)
            left = SUITS - gone
            more = Said("no more") if left == 0 else Said("only {n} more", n=left)
            raise IllegalAction(
                "dominards.card",
                Said(
                    "A deck has four {ranks} and {gone} have been dropped already, so {who} can "
                    "drop {more}.",
                    ranks=plural,
                    gone=gone,
                    who=who,
                    more=more,
                ),
            )
    points = total * (len(targets) if stack else min(1, len(targets)))
    return Hits(total, tuple(targets), points, cards)


def rolls() -> tuple[tuple[int, ...], ...]:
    """Every roll up to the order of the dice: 2 dice for multiples, 4 for a virtual card
    (what ``legal_actions`` offers; any order of the same dice is as legal)."""
    faces = range(1, 7)
    two = [(a, b) for a in faces for b in faces if a <= b]
    four = [
        (a, b, c, d) for a in faces for b in faces for c in faces for d in faces if a <= b <= c <= d
    ]
    return tuple(two + four)
