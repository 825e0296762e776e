"""The action language of MATCH_FORMAT.md, as typed values: the line games', Dump
Truck's and Double Domino Havoc's (each family has its own table of types).

Every form in the web app and every action of a match document becomes one of
these. Parsing checks the shape only; whether the action is legal is the game's
business.

>>> parse_action({"type": "play", "seat": "1", "tile": "3-6", "on": "6-6", "card": "q"})
Play(seat=1, tile=Tile.parse('6-3'), on=Tile.parse('6-6'), face=None, card='Q', drop=None)
>>> parse_action({"type": "play", "seat": 1, "tile": "3-6", "on": "6-6"}).to_dict()
{'type': 'play', 'seat': 1, 'tile': '6-3', 'on': '6-6'}
>>> parse_action({"type": "draw", "seat": 0}).count
1
>>> parse_action({"type": "load", "seat": 0, "tile": "3-5", "cells": [[0, 0], [0, 1]]}, "truck")
Load(seat=0, tile=Tile.parse('5-3'), cells=((0, 1), (0, 0)))
>>> parse_action({"type": "train", "seat": 2, "tile": "5-8"}, "havoc").to_dict()
{'type': 'train', 'seat': 2, 'tile': '5-8'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.errors import InvalidAction, shown
from referee.said import Said, phrase
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


_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required fields, optional fields)
    "play": (frozenset({"seat", "tile"}), frozenset({"on", "face", "card", "drop"})),
    "draw": (frozenset({"seat"}), frozenset({"count"})),
    "pass": (frozenset({"seat"}), frozenset()),
    "declare": (frozenset({"seat", "points"}), frozenset()),
    "muggins": (frozenset({"seat"}), frozenset()),
    "challenge": (frozenset({"seat"}), frozenset()),
    "undo": (frozenset(), frozenset()),
    "tally": (frozenset(), frozenset({"hands", "pips", "made"})),
    "roll": (frozenset({"seat", "dice"}), frozenset()),
    "redeal": (frozenset({"seat", "doubles"}), frozenset()),
    "time": (frozenset(), frozenset()),
}
# What every game's table may record about its own record (RULES.md §7).
_TABLE_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "correct": (frozenset({"at"}), frozenset({"replace", "remove", "insert", "reason", "seat"})),
    "adjust": (frozenset({"seat", "points", "reason"}), frozenset()),
    "abandon": (frozenset(), frozenset({"reason"})),
    "stop": (frozenset(), frozenset({"abandoned", "reason"})),
}
_FIELDS |= _TABLE_FIELDS
_TRUCK_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "take": (frozenset({"seat", "tile", "from"}), frozenset()),
    "load": (frozenset({"seat", "tile", "cells"}), frozenset()),
    "return": (frozenset({"seat", "tile"}), frozenset()),
    "replace": (frozenset({"seat", "tile", "cells", "out", "to"}), frozenset()),
    "shift": (frozenset({"seat", "rows", "cols"}), frozenset()),
    "unload": (frozenset({"seat"}), frozenset({"score", "blank_as"})),
    "flip": (frozenset({"seats", "first"}), frozenset()),
    "undo": (frozenset(), frozenset()),
} | _TABLE_FIELDS
_HAVOC_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "draw": (frozenset({"seat", "from"}), frozenset({"tile"})),
    "train": (frozenset({"seat", "tile"}), frozenset()),
    "discard": (frozenset({"seat", "tile"}), frozenset()),
    "respond": (frozenset({"seat"}), frozenset({"take", "match", "pass", "replacement", "from"})),
    "pass": (frozenset({"seat"}), frozenset()),
    "tally": (frozenset(), frozenset({"hands", "pips"})),
    "undo": (frozenset(), frozenset()),
} | _TABLE_FIELDS
# Mexican Train and Chicken Foot: the engine, one tile a play, one tile a draw.
_TRAIN_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "engine": (frozenset({"seat", "tile"}), frozenset()),
    "play": (frozenset({"seat", "tile", "train"}), frozenset()),
    "draw": (frozenset({"seat"}), frozenset({"count"})),
    "pass": (frozenset({"seat"}), frozenset()),
    "tally": (frozenset(), frozenset({"hands", "pips"})),
    "undo": (frozenset(), frozenset()),
} | _TABLE_FIELDS
_FOOT_FIELDS = _TRAIN_FIELDS | {"play": (frozenset({"seat", "tile", "on"}), frozenset())}
FAMILIES = {
    "line": _FIELDS, "truck": _TRUCK_FIELDS, "havoc": _HAVOC_FIELDS, "train": _TRAIN_FIELDS,
    "foot": _FOOT_FIELDS,
}  # fmt: skip


def parse_action(data: object, family: str = "line") -> Action:
    """Read one action of a game family (``line``, ``truck``, ``havoc``, ``train`` or
    ``foot``); an
    InvalidAction says what is malformed."""
    fields = FAMILIES[family]
    if not isinstance(data, Mapping):
        raise InvalidAction(
            Said(
                "An action must be an object with a type, such as {example}.",
                example='{"type": "undo"}',
            )
        )
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise InvalidAction(
            Said(
                "Unknown action type {kind}; the types are {known}.",
                kind=shown(kind),
                known=", ".join(fields),  # the format's own words, as typed
            )
        )
    required, optional = fields[kind]
    # A computed field is ignored only where it is not the action's own: a declare's
    # points are what the player said, not what the export added.
    present = set(data) - {"type"} - (COMPUTED_FIELDS - required - optional)
    missing = required - present
    # The article is English grammar, so it is in the template: one template for each.
    an = kind[0] in "aeiou"
    if missing:
        raise InvalidAction(
            Said(
                phrase("An {kind} needs {fields}.") if an else phrase("A {kind} needs {fields}."),
                kind=kind,
                fields=", ".join(sorted(missing)),
            )
        )
    unknown = present - required - optional
    if unknown:
        raise InvalidAction(
            Said(
                phrase("An {kind} has no field {fields}.")
                if an
                else phrase("A {kind} has no field {fields}."),
                kind=kind,
                fields=", ".join(sorted(map(shown, unknown))),
            )
        )
    if kind in _TABLE_FIELDS:
        return _parse_table(kind, data, family)
    if family == "havoc":
        return _parse_havoc(kind, data)
    if family in ("train", "foot"):
        return _parse_train(kind, data, family)
    if kind == "play":
        face = data.get("face")
        if face is not None and face not in ("side", "end"):
            raise InvalidAction(Said("A face is side or end, not {value}.", value=shown(face)))
        on = data.get("on")
        return Play(
            parse_seat(data["seat"]),
            Tile.parse(data["tile"]),
            None if on is None else Tile.parse(on),
            face,
            None if data.get("card") is None else parse_card(data["card"], ace_as_value=True),
            None if data.get("drop") is None else parse_card(data["drop"]),
        )
    if kind == "draw":
        return Draw(parse_seat(data["seat"]), _integer(data.get("count", 1), Said("count"), 1, 200))
    if kind == "pass":
        return Pass(parse_seat(data["seat"]))
    if kind == "declare":
        return Declare(
            parse_seat(data["seat"]), _integer(data["points"], Said("points"), 0, 10_000)
        )
    if kind == "muggins":
        return Muggins(parse_seat(data["seat"]))
    if kind == "challenge":
        return Challenge(parse_seat(data["seat"]))
    if kind == "undo":
        return Undo()
    if family == "truck":
        return _parse_truck(kind, data)
    if kind == "redeal":
        doubles = data["doubles"]
        if not isinstance(doubles, list) or len(doubles) > 19:
            raise InvalidAction(Said("A redeal's doubles are a list of tiles."))
        return Redeal(parse_seat(data["seat"]), tuple(Tile.parse(t) for t in doubles))
    if kind == "time":
        return Time()
    if kind == "roll":
        dice = data["dice"]
        if not isinstance(dice, list) or len(dice) not in (2, 4):
            raise InvalidAction(Said("A roll is 2 or 4 dice, each 1 to 6."))
        return Roll(parse_seat(data["seat"]), tuple(_die(d) for d in dice))
    return _parse_tally(data)


def _parse_truck(kind: str, data: Mapping[str, Any]) -> Action:
    if kind == "flip":
        seats = data["seats"]
        if not isinstance(seats, list) or not 2 <= len(seats) <= MAX_SEATS:
            raise InvalidAction(Said("A coin flip is between two or more seats, as a list."))
        return Flip(tuple(parse_seat(s) for s in seats), parse_seat(data["first"]))
    seat = parse_seat(data["seat"])
    if kind == "shift":
        return Shift(
            seat,
            _integer(data["rows"], Said("shift"), -3, 3),
            _integer(data["cols"], Said("shift"), -4, 4),
        )
    if kind == "unload":
        score = data.get("score", True)
        if not isinstance(score, bool):
            raise InvalidAction(
                Said("An unload's score is true or false, not {value}.", value=shown(score))
            )
        blank_as = data.get("blank_as")
        return Unload(
            seat, score, None if blank_as is None else _integer(blank_as, Said("blank value"), 0, 6)
        )
    tile, low_first = Tile.parse_halves(data["tile"])
    if kind == "take":
        source = data["from"]
        if source not in ("pool", "face-up"):
            raise InvalidAction(
                Said("A tile is taken from the pool or face-up, not {value}.", value=shown(source))
            )
        return Take(seat, tile, source)
    if kind == "return":
        return Return(seat, tile)
    cells = _cells(data["cells"], low_first)
    if kind == "load":
        return Load(seat, tile, cells)
    out, out_low_first = Tile.parse_halves(data["out"])
    to = data["to"]
    return Replace(seat, tile, cells, out, None if to == "pool" else _cells(to, out_low_first))


def _parse_havoc(kind: str, data: Mapping[str, Any]) -> Action:
    if kind == "undo":
        return Undo()
    if kind == "tally":
        return _parse_tally(data)
    seat = parse_seat(data["seat"])
    if kind == "pass":
        return Pass(seat)
    if kind == "draw":
        tile = data.get("tile")
        return DrawFrom(seat, _source(data["from"]), None if tile is None else Tile.parse(tile))
    if kind == "train":
        tile, low_first = Tile.parse_halves(data["tile"])
        return Train(seat, tile, tile.low if low_first else tile.high)
    if kind == "discard":
        return Discard(seat, Tile.parse(data["tile"]))
    chosen = [name for name in ("take", "match", "pass") if name in data]
    if len(chosen) != 1:
        raise InvalidAction(Said("A response is one of take, match or pass."))
    if chosen[0] != "match":
        if data[chosen[0]] is not True:
            raise InvalidAction(
                Said(
                    "A response's {field} is true, not {value}.",
                    field=chosen[0],  # the format's own word: take or pass
                    value=shown(data[chosen[0]]),
                )
            )
        if "replacement" in data or "from" in data:
            raise InvalidAction(Said("Only a match draws a replacement."))
        return Respond(seat, take=chosen[0] == "take")
    replacement = data.get("replacement")
    return Respond(
        seat,
        match=Tile.parse(data["match"]),
        replacement=None if replacement is None else Tile.parse(replacement),
        source=_source(data.get("from", BONEYARD)),
    )


def _parse_train(kind: str, data: Mapping[str, Any], family: str) -> Action:
    """Mexican Train's and Chicken Foot's actions (MATCH_FORMAT.md): a draw is one tile."""
    if kind == "undo":
        return Undo()
    if kind == "tally":
        return _parse_tally(data)
    seat = parse_seat(data["seat"])
    if kind == "pass":
        return Pass(seat)
    if kind == "draw":
        count = data.get("count", 1)
        if isinstance(count, bool) or count not in (1, "1"):
            raise InvalidAction(
                Said("A draw is one tile at a time here, not {value}.", value=shown(count))
            )
        return Draw(seat)
    tile = Tile.parse(data["tile"])
    if kind == "engine":
        return Engine(seat, tile)
    if family == "foot":
        return Play(seat, tile, Tile.parse(data["on"]))
    train = data["train"]
    if train == MEXICAN:
        return TrainPlay(seat, tile, MEXICAN)
    try:
        return TrainPlay(seat, tile, parse_seat(train))
    except InvalidAction:
        raise InvalidAction(
            Said(
                'A train is its owner\'s seat number or "mexican", not {value}.',
                value=shown(train),
            )
        ) from None


MAX_REASON = 200
MOST_POINTS = 10_000


def _parse_table(kind: str, data: Mapping[str, Any], family: str) -> Action:
    if kind == "adjust":
        reason = _reason(data["reason"])
        if not reason:
            raise InvalidAction(Said("An adjustment needs a reason in words (correct.adjust)."))
        points = _integer(data["points"], Said("number of points"), -MOST_POINTS, MOST_POINTS)
        if points == 0:
            raise InvalidAction(Said("An adjustment of 0 points changes nothing; give the points."))
        return Adjust(parse_seat(data["seat"]), points, reason)
    if kind == "abandon":
        return Abandon(_reason(data.get("reason", "")))
    if kind == "stop":
        abandoned = data.get("abandoned", False)
        if not isinstance(abandoned, bool):
            raise InvalidAction(
                Said("A stop's abandoned is true or false, not {value}.", value=shown(abandoned))
            )
        return Stop(abandoned, _reason(data.get("reason", "")))
    changes = [c for c in (REPLACE, REMOVE, INSERT) if c in data]
    if len(changes) != 1:
        raise InvalidAction(Said("A correction is one of replace, remove or insert."))
    change, seat = changes[0], data.get("seat")
    at = _integer(data["at"], Said("entry"), 0, 100_000)
    corrected = None
    if change == REMOVE:
        if data[REMOVE] is not True:
            raise InvalidAction(
                Said("A correction's remove is true, not {value}.", value=shown(data[REMOVE]))
            )
    else:
        if isinstance(data[change], Mapping) and data[change].get("type") == "correct":
            raise InvalidAction(Said("A correction corrects an action, not another correction."))
        corrected = parse_action(data[change], family)
    return Correct(
        at,
        change,
        corrected,
        _reason(data.get("reason", "")),
        None if seat is None else parse_seat(seat),
    )


def _reason(value: object) -> str:
    """A reason in the table's words: text, one line, short."""
    if not isinstance(value, str):
        raise InvalidAction(Said("A reason is text, not {value}.", value=shown(value)))
    said = " ".join(value.split())
    if len(said) > MAX_REASON:
        raise InvalidAction(Said("A reason is at most {most} characters.", most=MAX_REASON))
    if any(not c.isprintable() for c in said):
        raise InvalidAction(Said("A reason holds letters, digits and punctuation, nothing else."))
    return said


def _source(value: object) -> str | int:
    """Where a Havoc draw comes from: the boneyard, or a seat's discard slot."""
    if value == BONEYARD:
        return BONEYARD
    try:
        return parse_seat(value)
    except InvalidAction:
        raise InvalidAction(
            Said(
                "A tile is drawn from the boneyard or a seat's discard slot, not {value}.",
                value=shown(value),
            )
        ) from None


def _cells(value: object, low_first: bool) -> tuple[Cell, Cell]:
    """Two cells ``[[row, col], [row, col]]``, ordered so the first holds the high half
    (the canonical tile is written high first)."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(cell, list) and len(cell) == 2 for cell in value)
    ):
        raise InvalidAction(
            Said(
                "{value} is not two cells; write cells as [[row, column], [row, column]].",
                value=shown(value),
            )
        )
    a, b = (tuple(_integer(n, Said("row or column"), 0, 9) for n in cell) for cell in value)
    return (b, a) if low_first else (a, b)  # type: ignore[return-value]


def _parse_tally(data: Mapping[str, Any]) -> Tally:
    if "hands" not in data and "pips" not in data:
        raise InvalidAction(
            Said("A tally gives each seat's tiles (hands) or its pip total (pips), or both.")
        )
    hands = pips = None
    if "hands" in data:
        parsed = []
        for seat, tiles in _seat_map(data["hands"], "hands"):
            if not isinstance(tiles, list) or len(tiles) > 91:
                raise InvalidAction(Said("Seat {seat}'s hand must be a list of tiles.", seat=seat))
            parsed.append((seat, tuple(Tile.parse(tile) for tile in tiles)))
        hands = tuple(parsed)
    if "pips" in data:
        pips = tuple(
            (seat, _integer(value, Said("pip total"), 0, 10_000))
            for seat, value in _seat_map(data["pips"], "pips")
        )
    both = {seat for seat, _ in hands or ()} & {seat for seat, _ in pips or ()}
    if both:
        raise InvalidAction(
            Said("Seat {seat} is declared twice: by its tiles and by its pips.", seat=min(both))
        )
    return Tally(hands=hands, pips=pips, made=_made(data.get("made", [])))


def _made(value: object) -> tuple[tuple[str, int], ...]:
    """A Dominó score pad's ``made``: a list of {"what": ..., "seat": ...}."""
    if not isinstance(value, list) or len(value) > 40:
        raise InvalidAction(Said("A tally's made is a list of what the hand made, by seat."))
    made = []
    for item in value:
        if not isinstance(item, Mapping) or set(item) != {"what", "seat"}:
            raise InvalidAction(Said("Each entry of made is a what and a seat."))
        if item["what"] not in MADE:
            raise InvalidAction(
                Said(
                    "A hand makes {known}, not {value}.",
                    known=", ".join(MADE),  # the format's own words
                    value=shown(item["what"]),
                )
            )
        made.append((item["what"], parse_seat(item["seat"])))
    return tuple(made)


def _seat_map(value: object, name: str) -> list[tuple[int, Any]]:
    """A tally's ``hands`` or ``pips``; the field is also an English word of its messages,
    so each has its own templates."""
    hands = name == "hands"
    if not isinstance(value, Mapping) or len(value) > MAX_SEATS:
        raise InvalidAction(
            Said(
                phrase("A tally's hands maps each seat to its hands.")
                if hands
                else phrase("A tally's pips maps each seat to its pips.")
            )
        )
    # Sorted by seat alone: two spellings of one seat ("1", "01") must reach the
    # duplicate check below, not a comparison of their values.
    pairs = sorted(((parse_seat(seat), item) for seat, item in value.items()), key=lambda p: p[0])
    if len({seat for seat, _ in pairs}) != len(pairs):
        raise InvalidAction(
            Said(
                phrase("A seat appears twice in the tally's hands.")
                if hands
                else phrase("A seat appears twice in the tally's pips.")
            )
        )
    return pairs


#: Card ranks (a 52-card deck has four of each); an ace counts 1 or 14 (dominards.card).
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def parse_card(value: object, ace_as_value: bool = False) -> str:
    """A card rank, canonical: "Q", "10", "A". A card dropped for its value names what an
    ace counts ("A1" or "A14"); a card dropped freely is just "A"."""
    text = value.strip().upper() if isinstance(value, str) and len(value) <= 4 else None
    if ace_as_value:
        if text in ("A1", "A14"):
            return text
        if text == "A":
            raise InvalidAction(Said('Say what the ace counts: "A1" or "A14".'))
    elif text in ("A1", "A14"):
        return "A"
    if text in RANKS:
        return text
    raise InvalidAction(
        Said(
            phrase("{value} is not a card; the cards are A1, A14, 2 to 10, J, Q, K.")
            if ace_as_value
            else phrase("{value} is not a card; the cards are A, 2 to 10, J, Q, K."),
            value=shown(value),
        )
    )


def card_value(card: str) -> int:
    """What a card dropped for its value counts: A1 1, 2–10 their face, J 11, Q 12, K 13,
    A14 14."""
    return {"A1": 1, "A14": 14, "J": 11, "Q": 12, "K": 13}.get(card) or int(card)


def parse_seat(value: object) -> int:
    """A seat number: an integer or a decimal string, 0 or more."""
    if (
        isinstance(value, str)
        and value.strip().isascii()
        and value.strip().isdecimal()
        and len(value) <= 3
    ):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 100:
        raise InvalidAction(
            Said("{value} is not a seat; seats are numbered 0, 1, 2, ...", value=shown(value))
        )
    return value


def _die(value: object) -> int:
    """One die of a roll: a number from 1 to 6. Never text, unlike a seat: MATCH_FORMAT.md
    gives dice as values, and the table's form turns typed dice into numbers itself."""
    if isinstance(value, str):
        raise InvalidAction(
            Said(
                "{value} is not a valid die: give each die as a number from 1 to 6, not as text.",
                value=shown(value),
            )
        )
    return _integer(value, Said("die"), 1, 6)


def _integer(value: object, what: Said, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``; ``what`` names it in the refusal."""
    digits = value.strip().removeprefix("-") if isinstance(value, str) else ""
    if digits.isascii() and digits.isdecimal() and len(digits) <= 6:
        value = int(value.strip())  # type: ignore[union-attr]  # "-1": a shift up or left
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidAction(
            Said(
                "{value} is not a valid {what} (from {low} to {high}).",
                value=shown(value),
                what=what,
                low=low,
                high=high,
            )
        )
    return value
