"""The actions of every game as typed values (MATCH_FORMAT.md): what a log entry is, and
its JSON form (``to_dict``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from referee.tiles import Tile

#: Fields the export adds and the import ignores (an imported document is never trusted).
COMPUTED_FIELDS = frozenset({"points", "bonus"})
MAX_SEATS = 8


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Play(Action):
    """``tile`` placed on a free face of ``on`` (``on`` is None for the lead)."""

    kind: ClassVar[str] = "play"
    seat: int
    tile: Tile
    on: Tile | None = None
    face: str | None = None
    card: str | None = None  # Dominards: the card dropped because the total equals it
    drop: str | None = None  # Dominards: the card dropped freely after the virtual card

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "play", "seat": self.seat, "tile": str(self.tile)}
        if self.on is not None:
            out["on"] = str(self.on)
        if self.face is not None:
            out["face"] = self.face
        if self.card is not None:
            out["card"] = self.card
        if self.drop is not None:
            out["drop"] = self.drop
        return out


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """``count`` tiles drawn from the boneyard, unseen by the table."""

    kind: ClassVar[str] = "draw"
    seat: int
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat, "count": self.count}


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """A knock: the seat cannot play."""

    kind: ClassVar[str] = "pass"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Declare(Action):
    kind: ClassVar[str] = "declare"
    seat: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "declare", "seat": self.seat, "points": self.points}


@dataclass(frozen=True, slots=True)
class Muggins(Action):
    kind: ClassVar[str] = "muggins"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "muggins", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    kind: ClassVar[str] = "challenge"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "challenge", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Take back the last action, inside the ``procedure.misplay`` window."""

    kind: ClassVar[str] = "undo"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "undo"}


@dataclass(frozen=True, slots=True)
class Tally(Action):
    """End of round: each seat's remaining tiles, or its pip total (``tally.hands``); a
    table may declare some seats one way and some the other."""

    kind: ClassVar[str] = "tally"
    hands: tuple[tuple[int, tuple[Tile, ...]], ...] | None = None
    pips: tuple[tuple[int, int], ...] | None = None
    # Dominó score pads (pad.record, parejas.*): what the table says the hand made, as
    # (what, seat): a capicúa, chuchazo, pase de salida (after a double lead: pase-double) or
    # paso corrido and its seat, or who locked a tranque.
    made: tuple[tuple[str, int], ...] = ()

    @property
    def declared(self) -> dict[int, tuple[Tile, ...] | int]:
        """Each seat declared: its tiles (a tuple), or its pip total (an int).

        >>> Tally(hands=((0, (Tile(6, 6),)),), pips=((1, 7),)).declared
        {0: (Tile.parse('6-6'),), 1: 7}
        """
        return {**dict(self.hands or ()), **dict(self.pips or ())}

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "tally"}
        if self.hands is not None:
            data["hands"] = {str(seat): [str(t) for t in tiles] for seat, tiles in self.hands}
        if self.pips is not None or self.hands is None:
            data["pips"] = {str(seat): pips for seat, pips in self.pips or ()}
        if self.made:
            data["made"] = [{"what": what, "seat": seat} for what, seat in self.made]
        return data


#: What a Dominó score pad's tally may say the hand made (``Tally.made``).
MADE = ("capicua", "chuchazo", "pase", "pase-double", "paso-corrido", "locked")


@dataclass(frozen=True, slots=True)
class Redeal(Action):
    """Dominó (``parejas.redeal``): a seat shows five or more doubles before the first play,
    and the hand is dealt again."""

    kind: ClassVar[str] = "redeal"
    seat: int
    doubles: tuple[Tile, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "redeal", "seat": self.seat, "doubles": [str(t) for t in self.doubles]}


@dataclass(frozen=True, slots=True)
class Time(Action):
    """Dominó (``parejas.time``): a keeper says the table's time limit has run out."""

    kind: ClassVar[str] = "time"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "time"}


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Dominards: the dice controller's roll."""

    kind: ClassVar[str] = "roll"
    seat: int
    dice: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "roll", "seat": self.seat, "dice": list(self.dice)}


Cell = tuple[int, int]  # (row, column) of a truck


def _cells_list(cells: tuple[Cell, ...]) -> list[list[int]]:
    return [list(cell) for cell in cells]


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Dump Truck: the seat's draw this turn, from the face-down pool or a face-up tile."""

    kind: ClassVar[str] = "take"
    seat: int
    tile: Tile
    source: str  # "pool" or "face-up" (the document's "from")

    def to_dict(self) -> dict[str, Any]:
        return {"type": "take", "seat": self.seat, "tile": str(self.tile), "from": self.source}


@dataclass(frozen=True, slots=True)
class Load(Action):
    """Dump Truck: the drawn tile placed on two cells; the first holds the high half."""

    kind: ClassVar[str] = "load"
    seat: int
    tile: Tile
    cells: tuple[Cell, Cell]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "load", "seat": self.seat, "tile": str(self.tile),
                "cells": _cells_list(self.cells)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Return(Action):
    """Dump Truck: the drawn tile put back face up in the pool."""

    kind: ClassVar[str] = "return"
    seat: int
    tile: Tile

    def to_dict(self) -> dict[str, Any]:
        return {"type": "return", "seat": self.seat, "tile": str(self.tile)}


@dataclass(frozen=True, slots=True)
class Replace(Action):
    """Dump Truck: the drawn tile swapped for ``out``, which goes face up to the pool
    (``to`` None) or onto two empty cells of the truck."""

    kind: ClassVar[str] = "replace"
    seat: int
    tile: Tile
    cells: tuple[Cell, Cell]
    out: Tile
    to: tuple[Cell, Cell] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": "replace", "seat": self.seat, "tile": str(self.tile),
                "cells": _cells_list(self.cells), "out": str(self.out),
                "to": "pool" if self.to is None else _cells_list(self.to)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Shift(Action):
    """Dump Truck: the whole contents of the truck moved (no template)."""

    kind: ClassVar[str] = "shift"
    seat: int
    rows: int
    cols: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "shift", "seat": self.seat, "rows": self.rows, "cols": self.cols}


@dataclass(frozen=True, slots=True)
class Unload(Action):
    """Dump Truck: the whole truck scored (or not) and out of the game."""

    kind: ClassVar[str] = "unload"
    seat: int
    score: bool = True
    blank_as: int | None = None  # wild blanks: the value they take; None lets the app choose

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "unload", "seat": self.seat, "score": self.score}
        if self.blank_as is not None:
            out["blank_as"] = self.blank_as
        return out


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """Dump Truck: a coin tossed between seats tied on score; ``first`` chooses first
    this turn (``truck.draw``). The app tosses it; a document records how it fell."""

    kind: ClassVar[str] = "flip"
    seats: tuple[int, ...]
    first: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "flip", "seats": list(self.seats), "first": self.first}


# -- Double Domino Havoc ---------------------------------------------------------------------

BONEYARD = "boneyard"


@dataclass(frozen=True, slots=True)
class DrawFrom(Action):
    """Havoc, step 1: a tile from the boneyard (``source`` "boneyard"), or the face-up tile
    of another seat's discard slot (``source`` that seat). ``tile`` is named for a double
    from the boneyard and for a discard; other boneyard tiles stay private."""

    kind: ClassVar[str] = "draw"
    seat: int
    source: str | int
    tile: Tile | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "draw", "seat": self.seat, "from": self.source}
        if self.tile is not None:
            out["tile"] = str(self.tile)
        return out


@dataclass(frozen=True, slots=True)
class Train(Action):
    """Havoc, step 3: a tray tile to the next train slot, ``lead`` being the half written
    first: the one that matches the train's free end (the other half is left free)."""

    kind: ClassVar[str] = "train"
    seat: int
    tile: Tile
    lead: int

    @property
    def free(self) -> int:
        """The half this tile leaves free at the end of the train."""
        return self.tile.other(self.lead)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "train", "seat": self.seat, "tile": f"{self.lead}-{self.free}"}


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Havoc, step 4: a tray tile face up to the seat's discard slot (or, after taking
    another seat's discard, to that seat's slot)."""

    kind: ClassVar[str] = "discard"
    seat: int
    tile: Tile

    def to_dict(self) -> dict[str, Any]:
        return {"type": "discard", "seat": self.seat, "tile": str(self.tile)}


@dataclass(frozen=True, slots=True)
class Respond(Action):
    """Havoc's rule of doubles: the responder takes the double onto its train, matches it
    with a tray tile and draws a replacement, or passes. ``replacement`` names the
    replacement when it is a double, or when it is taken from ``source``, a seat's discard
    slot (with the boneyard empty)."""

    kind: ClassVar[str] = "respond"
    seat: int
    take: bool = False
    match: Tile | None = None
    replacement: Tile | None = None
    source: str | int = BONEYARD

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "respond", "seat": self.seat}
        if self.take:
            out["take"] = True
        elif self.match is not None:
            out["match"] = str(self.match)
            if self.replacement is not None:
                out["replacement"] = str(self.replacement)
            if self.source != BONEYARD:
                out["from"] = self.source
        else:
            out["pass"] = True
        return out


MEXICAN = "mexican"  # the Mexican Train, open to all (train.trains)


@dataclass(frozen=True, slots=True)
class Engine(Action):
    """Mexican Train and Chicken Foot: the round's double placed in the hub
    (``train.engine``, ``foot.rounds``)."""

    kind: ClassVar[str] = "engine"
    seat: int
    tile: Tile

    def to_dict(self) -> dict[str, Any]:
        return {"type": "engine", "seat": self.seat, "tile": str(self.tile)}


@dataclass(frozen=True, slots=True)
class TrainPlay(Action):
    """Mexican Train: one tile on a train, a seat's own (by its number) or the Mexican
    Train (``MEXICAN``)."""

    kind: ClassVar[str] = "play"
    seat: int
    tile: Tile
    train: int | str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "tile": str(self.tile), "train": self.train}


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """The table stops the match (``correct.abandon``; Havoc's agreed time is up): the totals
    at that moment decide the winner, or nobody wins when it is ``abandoned``."""

    kind: ClassVar[str] = "stop"
    abandoned: bool = False
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "stop"}
        if self.abandoned:
            out["abandoned"] = True
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class Adjust(Action):
    """Points the table adds to (or takes from) a seat, with its reason (``correct.adjust``)."""

    kind: ClassVar[str] = "adjust"
    seat: int
    points: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "adjust", "seat": self.seat, "points": self.points, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Abandon(Action):
    """The round ends with no score (``correct.abandon``)."""

    kind: ClassVar[str] = "abandon"
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "abandon", "reason": self.reason} if self.reason else {"type": "abandon"}


REPLACE, REMOVE, INSERT = "replace", "remove", "insert"


@dataclass(frozen=True, slots=True)
class Correct(Action):
    """The entry ``at`` of this round's log was recorded wrong (``correct.record``): it is
    replaced by ``action``, removed, or ``action`` is inserted before it."""

    kind: ClassVar[str] = "correct"
    at: int
    change: str  # REPLACE, REMOVE or INSERT
    action: Action | None = None
    reason: str = ""
    seat: int | None = None  # the seat of the phone that corrected, if it said

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "correct", "at": self.at}
        if self.change == REMOVE:
            out["remove"] = True
        else:
            assert self.action is not None
            out[self.change] = self.action.to_dict()
        if self.reason:
            out["reason"] = self.reason
        if self.seat is not None:
            out["seat"] = self.seat
        return out


# What referee.actions offers of the values as they are (it re-exports them whole).
__all__ = [
    "BONEYARD", "COMPUTED_FIELDS", "INSERT", "MADE", "MAX_SEATS", "MEXICAN", "REMOVE",
    "REPLACE", "Abandon", "Action", "Adjust", "Cell", "Challenge", "Correct", "Declare",
    "Discard", "Draw", "DrawFrom", "Engine", "Flip", "Load", "Muggins", "Pass", "Play",
    "Redeal", "Replace", "Respond", "Return", "Roll", "Shift", "Stop", "Take", "Tally", "Time",
    "Train", "TrainPlay", "Undo", "Unload",
]  # fmt: skip
