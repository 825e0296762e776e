"""Reading an action of MATCH_FORMAT.md into its typed value: the shape only (whether it
is legal is the game's business), each game family with its own table of types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.actions.values import (
    BONEYARD,
    COMPUTED_FIELDS,
    INSERT,
    MADE,
    MAX_SEATS,
    MEXICAN,
    REMOVE,
    REPLACE,
    Abandon,
    Action,
    Adjust,
    Cell,
    Challenge,
    Correct,
    Declare,
    Discard,
    Draw,
    DrawFrom,
    Engine,
    Flip,
    Load,
    Muggins,
    Pass,
    Play,
    Redeal,
    Replace,
    Respond,
    Return,
    Roll,
    Shift,
    Stop,
    Take,
    Tally,
    Time,
    Train,
    TrainPlay,
    Undo,
    Unload,
)
from referee.errors import InvalidAction, shown
from referee.said import Said, phrase
from referee.tiles import Tile

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
