"""What the table knows about a round of a line game (``info.public``): its state, the
plays still open to a declaration, the knocks the tally audits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.corrections import stopped_words
from referee.games.line.dominards import Dice, Hits
from referee.games.line.scoring import (
    Family,
    family,
)
from referee.layout import Layout
from referee.round.core import RoundCore
from referee.rulebook import Preset
from referee.said import Said
from referee.teams import Team, team_name, team_of, teams
from referee.tiles import Tile

#: Declarations the referee considers (multiples of 5 up to this): no count reaches it.
MOST_DECLARED = 120

#: Who acts when no seat does (a tally, a score-pad entry): "so the table cannot ...".
_THE_TABLE = Said("the table")


@dataclass(frozen=True, slots=True)
class Knock:
    """A pass, kept so the tally can audit it (``tally.audit``)."""

    action: int  # index of the pass in the round's log (undos included), as the table numbers it
    seat: int
    layout: Layout


@dataclass(frozen=True, slots=True)
class Pending:
    """``fives.muggins``: the last play's score, open until the next tile is placed."""

    seat: int  # who played it
    tile: Tile
    worth: int  # what the play made; players are not shown it while the window is open
    declared: int | None = None  # None until the player declares (0 is "no score")
    lapsed: bool = False  # another action came first: the play stands declared at 0
    taken_by: int | None = None  # the seat that called Muggins
    challenged_by: int | None = None

    @property
    def said(self) -> int:
        """What the player is taken to have declared."""
        return self.declared or 0

    @property
    def settled(self) -> bool:
        """The player has declared, or the chance to has passed."""
        return self.declared is not None or self.lapsed


@dataclass(frozen=True)
class RoundState(RoundCore):
    """Everything the table knows about a round in progress (``info.public``)."""

    pips_by_seat = False  # a round not played out reports no pips

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    layout: Layout
    hands: tuple[int, ...]  # tiles in each hand (hand.count)
    stock: int  # tiles in the boneyard, including those held in reserve
    turn: int | None = None  # None before the lead: any seat may lead (round.lead)
    drew: int = 0  # tiles the seat to act has drawn this turn
    passes: int = 0  # knocks in a row with nothing left to draw (end.blocked)
    knocks: tuple[Knock, ...] = ()
    ended: str | None = None  # DOMINO or BLOCKED, before the tally
    last_passed: int = 0  # what it made but could not score: past the target (threes.target)
    leader: int | None = None  # the seat that must lead, when the game says (round.lead)
    led_by: int | None = None  # the seat that did lead
    pending: Pending | None = None  # the last play's score, while it can be declared or taken
    pad: bool = False  # pad.record: a score-pad round, recorded by its tally alone
    # Dominards (dominards.*): cards held by each seat, the ranks dropped in the match so far,
    # the dice, and what the last play met.
    cards: tuple[int, ...] = ()
    dropped: tuple[str, ...] = ()
    dice: Dice | None = None
    last_hits: Hits | None = None
    # Dominó (parejas.*): the hand's own state, referee.games.line.scoring.parejas.Hand (hook).
    parejas: Any = None

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn (``draw.reserve`` keeps some back)."""
        if not self.game.draws:
            return 0
        return max(0, self.stock - self.options["reserve"])

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    @property
    def muggins(self) -> bool:
        return bool(self.options.get("muggins"))

    @property
    def scoring(self) -> Family:
        """The game's scoring family, which the line asks what things score."""
        return family(self.game)

    @property
    def dominards(self) -> bool:
        return self.game.scoring == "dominards"

    @property
    def match_over(self) -> bool:
        """The match has ended: a seat won it, or (Dominards) it ended with a tie at the top."""
        return self.champion is not None or bool(self.shared) or self.stop is not None

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the match and how, in the players' words; None while it goes
        on. Every refusal of play after the end cites it, in a round or after the last."""
        if self.stop is not None:
            return "correct.abandon", Said("The match is over: {how}", how=stopped_words(self.stop))
        return self.scoring.match_end(self)

    @property
    def must_roll(self) -> int | None:
        """The seat that must roll before anything else happens (``dominards.dice``); -1
        before a round's lead, when the seat that leads rolls first."""
        if not self.dominards or self.is_over or self.match_over:
            return None
        if self.dice is None:
            return -1
        return None if self.dice.roll else self.dice.controller

    @property
    def carry(self) -> dict[str, Any]:
        """What the next round starts from besides the totals (Dominards' cards)."""
        return self.scoring.carry(self)

    @property
    def declaring(self) -> int | None:
        """The seat that may declare its last play's score now (``fives.muggins``)."""
        pending = self.pending
        if pending is None or pending.settled or self.result is not None:
            return None
        return pending.seat

    @property
    def callers(self) -> tuple[int, ...]:
        """The seats that may call Muggins now: the player's opponents (a partner may not:
        ``team.muggins``), from the play until the next tile (``fives.muggins``)."""
        if not self.muggins_open:
            return ()
        return self.opponents(self.pending.seat)

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats not on ``seat``'s team."""
        return tuple(s for s in range(self.seats) if s not in self.team(seat))

    @property
    def challengers(self) -> tuple[int, ...]:
        """The seats that may challenge the last declaration (``false_claim_penalty``)."""
        pending = self.pending
        if not self.options.get("false_claim_penalty") or pending is None or not pending.declared:
            return ()
        return self.callers if pending.challenged_by is None else ()

    def declarations(self) -> tuple[int, ...]:
        """What the declaring seat may say it scored: 0 and every multiple of 5 up to what the
        layout could show at most (a tile with a free face shows at most a double's worth).
        Public facts only, so the choices never hint at the count."""
        if self.declaring is None:
            return ()
        showing = sum(1 for placed in self.layout.placed if placed.free)
        most = min(MOST_DECLARED, showing * 2 * self.top)
        return tuple(range(0, most // 5 * 5 + 1, 5))

    @property
    def muggins_open(self) -> bool:
        """Whether opponents may call Muggins now: from the play until the next tile, even
        before the player declares (an undeclared score can be taken). Public facts only:
        the worth of the play is not consulted, so an enabled button gives nothing away."""
        pending = self.pending
        return (
            pending is not None
            and pending.taken_by is None
            and self.result is None
            and self.champion is None
        )

    @property
    def teams(self) -> tuple[Team, ...]:
        """The teams (``team.seats``): 0+2 against 1+3 in partnerships, else each seat."""
        return teams(self.seats, self.options)

    def team(self, seat: int) -> Team:
        return team_of(self.teams, seat)

    def team_name(self, seat: int) -> str:
        """The seat's team as the table names it: "Ana & Caro", or "Ana" alone."""
        return team_name(self.names, self.team(seat))

    def team_total(self, seat: int) -> int:
        """The total that counts for ``seat`` against the target: its team's (``team.score``)."""
        return sum(self.totals[s] for s in self.team(seat))
