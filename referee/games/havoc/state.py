"""What the table knows about a round of Double Domino Havoc: the racks (train, slot,
tray), the doubles to answer, where each tile the table has seen lies."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.corrections import stopped_words
from referee.frozen import replace
from referee.round.core import RoundCore
from referee.round.tally import agreed_rounds, lowest_wins
from referee.rulebook import Preset
from referee.said import Said, phrase
from referee.tiles import DominoSet, Tile

SLOTS = 6  # a train's slots, and the tiles each seat keeps in play (havoc.invariant)
CLOCKWISE, COUNTER = 1, -1
DRAW, PLAY, DISCARD = "draw", "play", "discard"  # the steps of a turn (havoc.turn)
TRAIN_FULL, STOPPED = "train", "stopped"  # why a round ended
SMALL_SET_PLAYERS = 6  # havoc.setup: double-9 for up to six, double-12 beyond

# What the package offers of the state as it is (referee.games.havoc re-exports it whole).
__all__ = [
    "CLOCKWISE", "COUNTER", "DISCARD", "DRAW", "PLAY", "SLOTS", "SMALL_SET_PLAYERS", "STOPPED",
    "TRAIN_FULL", "Doubles", "HavocState", "Link", "Rack", "direction_of",
]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Racks


@dataclass(frozen=True, slots=True)
class Link:
    """A tile on a train and the half it leaves free for the next."""

    tile: Tile
    free: int


@dataclass(frozen=True)
class Rack:
    """One seat's rack: the tray (private, only its count is public), the train of six
    slots and the discard slot."""

    tray: int = SLOTS
    known: tuple[Tile, ...] = ()  # tray tiles the table saw go in: taken from a discard
    train: tuple[Link, ...] = ()
    slot: Tile | None = None

    @property
    def free_end(self) -> int | None:
        """The number the next train tile must match (None while the train is empty)."""
        return self.train[-1].free if self.train else None

    @property
    def is_full(self) -> bool:
        return len(self.train) == SLOTS

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(link.tile for link in self.train)

    def taking(self, tile: Tile) -> Rack:
        """The rack after ``tile`` left the tray."""
        known = tuple(t for t in self.known if t != tile)
        return replace(self, tray=self.tray - 1, known=known)


@dataclass(frozen=True, slots=True)
class Doubles:
    """The rule of doubles in progress (``havoc.doubles``): ``double`` lies in the discard
    slot of seat ``slot``, put there by ``placer``; ``responder`` answers it now."""

    double: Tile
    slot: int
    placer: int
    responder: int

    @property
    def number(self) -> int:
        return self.double.high


def direction_of(double: Tile) -> int:
    """``havoc.direction``: an odd double sets play counter-clockwise, an even one
    clockwise; it sets the direction, it never toggles it."""
    return COUNTER if double.high % 2 else CLOCKWISE


# ---------------------------------------------------------------------------------------------
# The round


@dataclass(frozen=True)
class HavocState(RoundCore):
    """Everything the table knows about a round of Double Domino Havoc."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    racks: tuple[Rack, ...]
    boneyard: int
    out: tuple[Tile, ...] = ()  # removed from play face up
    direction: int = CLOCKWISE
    turn: int | None = None  # the seat whose turn it is; None before the round's first draw
    step: str = DRAW
    drew: bool = False  # this turn drew a tile (with nothing to draw, nothing is discarded)
    took_from: int | None = None  # the seat whose discard this turn took (havoc.discard-back)
    doubles: Doubles | None = None
    leader: int | None = None  # the seat that must begin the round; None: the table chooses
    first: int | None = None  # the seat that began it
    ended: str | None = None  # why the round ended (TRAIN_FULL), until the tally
    filled: int | None = None  # the seat whose train filled, until the tally

    @property
    def match_over(self) -> bool:
        if self.stopped:
            return True
        rounds = self.options["rounds"]
        return self.counted and bool(rounds) and self.number >= rounds

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the match (``havoc.win``) and how, in the players' words;
        None while it goes on."""
        if not self.match_over:
            return None
        if self.stop is not None:
            how = stopped_words(self.stop)
        else:
            how = agreed_rounds(self.options["rounds"])
        return "havoc.win", lowest_wins(self, how)

    @property
    def carry(self) -> dict[str, Any]:
        """The next round needs to know how many rounds the match has played."""
        return {"played": self.played + self.counted}

    @property
    def acting(self) -> int | None:
        """The seat that must act now: the responder to a double, else the turn's seat."""
        if self.doubles is not None:
            return self.doubles.responder
        return self.turn

    def next_seat(self, seat: int) -> int:
        """The next seat in the current direction of play (``seat.order``)."""
        return (seat + self.direction) % self.seats

    def _sightings(self) -> dict[Tile, tuple[str, dict[str, str]]]:
        """Where each tile the table can see is: the template of its words and their
        parameters. Every action looks tiles up here, and only a refusal words one, so the
        words (a Said each) are made only when asked for."""
        where: dict[Tile, tuple[str, dict[str, str]]] = {
            t: (phrase("out of play"), {}) for t in self.out
        }
        for seat, rack in enumerate(self.racks):
            rack_of = {"owner": self.names[seat]}
            for t in rack.tiles:
                where[t] = (phrase("on {owner}'s train"), rack_of)
            if rack.slot is not None:
                where[rack.slot] = (phrase("in {owner}'s discard slot"), rack_of)
            for t in rack.known:
                where[t] = (phrase("in {owner}'s tray (taken from a discard slot)"), rack_of)
        return where

    def public(self) -> dict[Tile, Said]:
        """Where each tile the table can see is (``set.unique``), in the players' words."""
        return {t: Said(words, **of) for t, (words, of) in self._sightings().items()}

    def seen_at(self, tile: Tile) -> Said | None:
        """Where the table can see ``tile``, in the players' words; None if it cannot."""
        sighting = self._sightings().get(tile)
        return None if sighting is None else Said(sighting[0], **sighting[1])

    def unseen(self) -> tuple[Tile, ...]:
        """Tiles the table has not seen: in the boneyard or in some tray."""
        seen = self._sightings()
        return tuple(t for t in DominoSet(self.top).tiles if t not in seen)

    def holdable(self, seat: int) -> tuple[Tile, ...]:
        """Tiles that may be in ``seat``'s tray: those it took, and the unseen ones while
        its tray has room for any."""
        rack = self.racks[seat]
        return rack.known if len(rack.known) >= rack.tray else rack.known + self.unseen()

    def takeable(self, seat: int) -> tuple[int, ...]:
        """The seats whose discard ``seat`` may take now."""
        return tuple(s for s, rack in enumerate(self.racks) if s != seat and rack.slot is not None)

    def can_draw(self, seat: int) -> bool:
        return self.boneyard > 0 or bool(self.takeable(seat))

    def replacements(self, seat: int) -> tuple[int, ...] | None:
        """Where a matching responder may draw its replacement from: () for the boneyard,
        the seats whose discard it may take once the boneyard is empty, None for nowhere."""
        if self.boneyard:
            return ()
        assert self.doubles is not None
        taking = tuple(s for s in self.takeable(seat) if s != self.doubles.slot)
        return taking or None
