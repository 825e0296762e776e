"""Tiles and domino sets.

>>> Tile.parse("4|6")
Tile.parse('6-4')
>>> str(Tile.parse(" 6:4 ")), Tile.parse("5-5").is_double, Tile.parse("6-4").pips
('6-4', True, 10)
>>> len(DominoSet(6).tiles), len(DominoSet(9).tiles), len(DominoSet(12).tiles)
(28, 55, 91)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from referee.errors import InvalidAction, shown
from referee.said import Said

#: The largest double the referee knows (a double-18 set).
LARGEST_SET = 18
SETS = (6, 9, 12, 15, 18)
# ASCII digits only: a bare \d also matches other scripts' digits ("６-６", "٦-٤") and int() reads
# them, so look-alike text would pass for a tile; set.tiles writes tiles with 0 to 9.
_TILE = re.compile(r"^\s*([0-9]{1,2})\s*[-|:]\s*([0-9]{1,2})\s*$")
# Each a Said of its own: the words a screen reader speaks, translated like any sentence.
_NUMBER_NAMES = (
    Said("blank"), Said("one"), Said("two"), Said("three"), Said("four"), Said("five"),
    Said("six"), Said("seven"), Said("eight"), Said("nine"), Said("ten"), Said("eleven"),
    Said("twelve"), Said("thirteen"), Said("fourteen"), Said("fifteen"), Said("sixteen"),
    Said("seventeen"), Said("eighteen"),
)  # fmt: skip


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One domino, always stored high half first (``6-4``, never ``4-6``)."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high <= LARGEST_SET):
            raise InvalidAction(
                Said("{high}-{low} is not a domino tile.", high=self.high, low=self.low)
            )

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order."""
        return cls(max(a, b), min(a, b))

    @classmethod
    def parse(cls, text: object) -> Tile:
        """Read ``6-4``, ``4-6``, ``6|4`` or ``6:4``; anything else is an InvalidAction."""
        if not isinstance(text, str) or len(text) > 16:
            raise InvalidAction(_not_a_tile(text))
        match = _TILE.match(text)
        if not match and any(c.isdigit() and not c.isascii() for c in text):
            raise InvalidAction(
                Said(
                    "{text} is not a tile; write its numbers with the digits 0 to 9, like 6-4.",
                    text=shown(text),
                )
            )
        if not match:
            raise InvalidAction(_not_a_tile(text))
        a, b = int(match[1]), int(match[2])
        if max(a, b) > LARGEST_SET:
            raise InvalidAction(
                Said(
                    "{text} is not a tile: no half has more than {most} pips.",
                    text=text.strip(),
                    most=LARGEST_SET,
                )
            )
        return cls.of(a, b)

    @classmethod
    def parse_halves(cls, text: object) -> tuple[Tile, bool]:
        """The tile, and whether it was written low half first (``4-6``): where a tile lies
        in a truck, the half written first goes on the first cell.

        >>> Tile.parse_halves("4-6")
        (Tile.parse('6-4'), True)
        """
        tile = cls.parse(text)
        match = _TILE.match(text)  # type: ignore[arg-type]  # parse checked it is a str
        assert match is not None
        return tile, int(match[1]) < int(match[2])

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    def has(self, number: int) -> bool:
        return number in (self.high, self.low)

    def other(self, number: int) -> int:
        """The half left free when the half showing ``number`` touches the layout."""
        if number == self.high:
            return self.low
        if number == self.low:
            return self.high
        raise ValueError(f"{self} has no {number}")

    @property
    def name(self) -> Said:
        """What a screen reader says: ``six-four``, ``double five``."""
        if self.is_double:
            return Said("double {number}", number=_NUMBER_NAMES[self.high])
        return Said("{high}-{low}", high=_NUMBER_NAMES[self.high], low=_NUMBER_NAMES[self.low])

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile.parse('{self}')"


@dataclass(frozen=True)
class DominoSet:
    """A double-N set: every tile a-b with 0 <= b <= a <= N (``set.tiles``)."""

    top: int

    def __post_init__(self) -> None:
        if self.top not in SETS:
            raise InvalidAction(
                Said("There is no double-{top} set; choose double-6, 9 or 12.", top=self.top)
            )

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(Tile(a, b) for a in range(self.top, -1, -1) for b in range(a, -1, -1))

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and tile.high <= self.top

    def bearing(self, number: int) -> tuple[Tile, ...]:
        """The N+1 tiles that show ``number`` on a half."""
        return tuple(Tile.of(number, other) for other in range(self.top + 1))

    def check(self, tile: Tile) -> Tile:
        """``tile``, if this set has it; else a refusal under ``set.tiles``, which a game
        raises from inside ``apply`` and a document replay then locates."""
        if tile not in self:
            raise InvalidAction(
                Said(
                    "{tile} is not in a double-{top} set: its numbers go from 0 (blank) to {top}.",
                    tile=tile,
                    top=self.top,
                ),
                rule="set.tiles",
            )
        return tile


def number_name(number: int) -> Said:
    """``6`` → ``six``; used to speak of the numbers on open ends."""
    return _NUMBER_NAMES[number]


def _not_a_tile(text: object) -> Said:
    return Said("{text} is not a tile; write a tile like 6-4.", text=shown(text))
