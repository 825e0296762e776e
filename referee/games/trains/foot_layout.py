"""Chicken Foot's table (RULES.md §10): a small layout of its own, not the line games'
``referee.layout.Layout``: the round's double takes six or four arms (``foot.root``), a
later double exactly three toes on its far side (``foot.toes``), and what is owed to a
double binds the whole table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from referee.errors import IllegalAction
from referee.frozen import replace
from referee.said import Said, counted, listed, phrase
from referee.tiles import Tile

TOES = 3  # a later double's chicken foot (foot.toes)
ARM, TOE = "arm", "toe"  # a line leaving the root, or a later double


def _a(number: int) -> Said:
    """``a 6``, ``an 8``, ``a blank``: a number as a tile half is named."""
    if number == 0:
        return Said("a blank")
    # The article is English's choice, so it is in the template, not a parameter.
    if number in (8, 11, 18):
        return Said(phrase("an {number}"), number=number)
    return Said(phrase("a {number}"), number=number)


def _bare(number: int) -> Said | int:
    """``blank`` or the number itself, as ``shows no 6`` names it."""
    return Said("blank") if number == 0 else number


def _pieces(root: bool, n: int, more: bool = False) -> Said:
    """``2 arms``, ``1 more toe``: what a double is owed, each plural in its template."""
    if root and more:
        return counted("{n} more arm", "{n} more arms", n, n=n)
    if root:
        return counted("{n} arm", "{n} arms", n, n=n)
    if more:
        return counted("{n} more toe", "{n} more toes", n, n=n)
    return counted("{n} toe", "{n} toes", n, n=n)


# ---------------------------------------------------------------------------------------------
# The layout


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile on the table, the tile it was played on (None for the round's double), and
    the number its far end shows: where the next tile of its line goes. A double's ``free``
    is its number, which its arms or toes must show."""

    tile: Tile
    on: Tile | None
    free: int

    @property
    def touching(self) -> int | None:
        """The number where it touches the tile it was played on."""
        if self.on is None:
            return None
        return self.free if self.tile.is_double else self.tile.other(self.free)


@dataclass(frozen=True, slots=True)
class Owed:
    """A double still owed tiles: the root its arms (``foot.root``), a later double its
    toes (``foot.toes``). Every play goes on it until it has them all."""

    double: Tile
    root: bool
    has: int  # tiles on it now
    wants: int  # root_arms, or three toes

    @property
    def owes(self) -> int:
        return self.wants - self.has

    @property
    def number(self) -> int:
        return self.double.high

    @property
    def rule(self) -> str:
        return "foot.root" if self.root else "foot.toes"

    @property
    def what(self) -> str:
        return ARM if self.root else TOE

    @property
    def name(self) -> Said:
        """``The root 9-9`` or ``6-6``, to begin a sentence."""
        if self.root:
            return Said("The root {double}", double=self.double)
        return Said("{double}", double=self.double)

    @property
    def label(self) -> Said:
        """``the root 9-9`` or ``6-6``, inside one."""
        if self.root:
            return Said("the root {double}", double=self.double)
        return Said("{double}", double=self.double)

    def words(self) -> Said:
        """``6-6 needs 2 more toes: each must show a 6.``

        >>> Owed(Tile(6, 6), False, 1, 3).words()
        '6-6 needs 2 more toes: each must show a 6.'
        >>> Owed(Tile(9, 9), True, 0, 1).words().template
        '{double} needs {count}: it must show {number}.'
        """
        count = _pieces(self.root, self.owes, more=self.has > 0)
        number = _a(self.number)
        return counted(
            "{double} needs {count}: it must show {number}.",
            "{double} needs {count}: each must show {number}.",
            self.owes,
            double=self.name,
            count=count,
            number=number,
        )


@dataclass(frozen=True, slots=True)
class FreeEnd:
    """The far end of the last tile of a line, where the line grows: ``on`` is that tile."""

    on: Tile
    shows: int
    dead: bool  # every tile bearing ``shows`` is on the table


@dataclass(frozen=True, slots=True)
class Line:
    """One arm of the root or one toe of a later double, as the table screen draws it: the
    double it leaves from, its tiles in order from that double, and its free end (None
    when it ends in a double, whose toes carry it on)."""

    kind: str  # ARM or TOE
    double: Tile
    tiles: tuple[Tile, ...]
    free: int | None


@dataclass(frozen=True)
class FootLayout:
    """The tiles face up on the table; immutable, every play returns a new layout."""

    top: int
    root_arms: int = 6
    placed: tuple[Placed, ...] = ()

    # -- what is on the table ------------------------------------------------------------

    @cached_property
    def _index(self) -> dict[Tile, int]:
        return {p.tile: i for i, p in enumerate(self.placed)}

    @cached_property
    def _on(self) -> dict[Tile, tuple[Tile, ...]]:
        children: dict[Tile, list[Tile]] = {}
        for p in self.placed:
            if p.on is not None:
                children.setdefault(p.on, []).append(p.tile)
        return {tile: tuple(tiles) for tile, tiles in children.items()}

    @cached_property
    def _bearing(self) -> Counter[int]:
        """How many tiles on the table bear each number (a double bears its number once)."""
        return Counter(n for p in self.placed for n in {p.tile.high, p.tile.low})

    def __contains__(self, tile: object) -> bool:
        return tile in self._index

    def __len__(self) -> int:
        return len(self.placed)

    @property
    def root(self) -> Tile | None:
        """The round's double, once placed."""
        return self.placed[0].tile if self.placed else None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.placed)

    def placed_of(self, tile: Tile) -> Placed:
        return self.placed[self._index[tile]]

    def on(self, tile: Tile) -> tuple[Tile, ...]:
        """The tiles played on ``tile``, in the order they were played."""
        return self._on.get(tile, ())

    def off_table(self, number: int) -> int:
        """How many tiles bearing ``number`` are not on the table (in hands or the
        boneyard: the table cannot tell which)."""
        return self.top + 1 - self._bearing[number]

    def wants(self, tile: Tile) -> int:
        """How many tiles go on ``tile``: the root its arms, a later double its toes, any
        other tile one (the next tile of its line)."""
        if tile == self.root:
            return self.root_arms
        return TOES if tile.is_double else 1

    # -- what is owed, and where a tile goes -----------------------------------------------

    @cached_property
    def owed(self) -> tuple[Owed, ...]:
        """The doubles still owed tiles: the root first, then later doubles in the order
        they were played. (Only one can be open at a time in practice: a tile owed to N-N
        shows an N, and the only double that does is N-N itself.)"""
        found = []
        for p in self.placed:
            if p.tile.is_double:
                has, wants = len(self.on(p.tile)), self.wants(p.tile)
                if has < wants:
                    found.append(Owed(p.tile, p.on is None, has, wants))
        return tuple(found)

    @property
    def opening(self) -> Owed | None:
        """The double every play must go on now, if any: the oldest one still owed
        (as several open doubles are covered in the order played, ``train.double``)."""
        return self.owed[0] if self.owed else None

    def free_ends(self) -> tuple[FreeEnd, ...]:
        """The far end of every line: each tile, not a double, with nothing played on it."""
        return self._free_ends

    @cached_property
    def _free_ends(self) -> tuple[FreeEnd, ...]:
        return tuple(
            FreeEnd(p.tile, p.free, self.off_table(p.free) == 0)
            for p in self.placed
            if not p.tile.is_double and not self.on(p.tile)
        )

    def attachments(self, tile: Tile) -> tuple[Tile, ...]:
        """The tiles on the table ``tile`` may go on now (the app lights them up). This is
        the one definition of where a tile fits; :meth:`play` and every "where would it
        fit" message are built on it."""
        if tile in self._index or not self.placed:
            return ()
        opening = self.opening
        if opening is not None:
            return (opening.double,) if tile.has(opening.number) else ()
        return tuple(end.on for end in self.free_ends() if tile.has(end.shows))

    def where_it_fits(self, tile: Tile) -> Said:
        """A sentence naming every tile ``tile`` may go on, or what it would need."""
        spots = self.attachments(tile)
        if spots:
            return Said("{tile} fits on {spots}.", tile=tile, spots=listed(spots, "or"))
        if tile in self._index or not self.placed:
            return Said("")
        opening = self.opening
        if opening is not None:
            return opening.words()
        numbers = sorted({end.shows for end in self.free_ends()})
        if not numbers:
            return Said("{tile} fits nowhere now.", tile=tile)
        return Said(
            "{tile} fits nowhere now: the free ends show {numbers}.",
            tile=tile,
            numbers=listed(numbers),
        )

    def lines(self) -> tuple[Line, ...]:
        """Every arm and toe, in the order they were begun."""
        found = []
        for p in self.placed:
            if p.on is None or not p.on.is_double:
                continue
            tiles = [p.tile]
            while not tiles[-1].is_double and self.on(tiles[-1]):
                tiles.append(self.on(tiles[-1])[0])
            last = tiles[-1]
            free = None if last.is_double else self.placed_of(last).free
            kind = ARM if p.on == self.root else TOE
            found.append(Line(kind, p.on, tuple(tiles), free))
        return tuple(found)

    def stuck(self) -> Said | None:
        """Why nothing more can ever be played, in the players' words, or None.

        ``foot.toes``: a root or foot owed more tiles bearing its number than are left off
        the table can never be completed. Our ruling, the same reasoning where nothing is
        owed: when every free end shows a number whose tiles are all on the table, no tile
        anywhere can be played, and drawing cannot change that (``foot.end``)."""
        if not self.placed:
            return None
        for owed in self.owed:
            left = self.off_table(owed.number)
            if left < owed.owes:
                if owed.root:
                    which = Said("the root")
                else:
                    which = Said("the foot of {double}", double=owed.double)
                params = {
                    "double": owed.label,
                    "count": _pieces(owed.root, owed.owes),
                    "left": left,
                    "number": _a(owed.number),
                    "which": which,
                }
                if not left:
                    return Said(
                        "{double} still needs {count}, but no tile bearing {number} is left off "
                        "the table: {which} can never be completed",
                        **params,
                    )
                return counted(
                    "{double} still needs {count}, but only {left} tile bearing {number} is "
                    "left off the table: {which} can never be completed",
                    "{double} still needs {count}, but only {left} tiles bearing {number} are "
                    "left off the table: {which} can never be completed",
                    left,
                    **params,
                )
        if self.owed:
            return None
        ends = self.free_ends()
        if not ends:
            return Said("no line has a free end")
        if all(end.dead for end in ends):
            return Said(
                "every tile bearing {shows} is on the table, so no tile can go on any free end",
                shows=listed(sorted({end.shows for end in ends})),
            )
        return None

    # -- plays -----------------------------------------------------------------------------

    def lay(self, double: Tile) -> FootLayout:
        """The round's double, alone in the middle of the table."""
        return replace(self, placed=(Placed(double, None, double.high),))

    def play(self, tile: Tile, on: Tile | None) -> FootLayout:
        """Place ``tile`` on ``on``; raises IllegalAction saying why not and where it fits."""
        assert self.placed, "the round's double is placed first"
        if tile in self._index:
            where = self.placed_of(tile).on
            if where is None:
                said = Said("{tile} is on the table already (the round's double).", tile=tile)
            else:
                said = Said("{tile} is on the table already (on {on}).", tile=tile, on=where)
            raise IllegalAction("set.unique", said)
        if on not in self.attachments(tile):
            raise self._why_not(tile, on)
        opening = self.opening
        if opening is not None:
            free = tile.other(opening.number)
        elif tile.is_double:
            free = tile.high  # laid crosswise: its number is what its toes must show
        else:
            assert on is not None
            free = tile.other(self.placed_of(on).free)
        return replace(self, placed=self.placed + (Placed(tile, on, free),))

    def _why_not(self, tile: Tile, on: Tile | None) -> IllegalAction:
        """Why ``tile`` cannot go on ``on``, in the players' words."""
        elsewhere = self.where_it_fits(tile)
        opening = self.opening
        if on is None:
            rule = "foot.toes" if opening is None else opening.rule
            return IllegalAction(
                rule,
                Said(
                    "Say which tile {tile} is played on. {elsewhere}",
                    tile=tile,
                    elsewhere=elsewhere,
                ),
            )
        if opening is not None:
            # Both refusals begin with what the open double still needs.
            needs = {
                "double": opening.name,
                "count": _pieces(opening.root, opening.owes),
                "number": _a(opening.number),
                "tile": tile,
            }
            if not tile.has(opening.number):
                return IllegalAction(
                    opening.rule,
                    Said(
                        "{double} still needs {count}, each showing {number}, before any other "
                        "play: {tile} shows no {bare}.",
                        bare=_bare(opening.number),
                        **needs,
                    ),
                )
            return IllegalAction(
                opening.rule,
                Said(
                    "{double} still needs {count}, each showing {number}, before any other play: "
                    "{tile} goes on {owed}, not on {on}.",
                    owed=opening.double,
                    on=on,
                    **needs,
                ),
            )
        if on not in self._index:
            return IllegalAction(
                "foot.toes",
                Said("{on} is not on the table. {elsewhere}", on=on, elsewhere=elsewhere),
            )
        if on.is_double:
            if on == self.root:
                template = phrase(
                    "{on}'s arms are all placed: the lines go on from their free ends. {elsewhere}"
                )
            else:
                template = phrase(
                    "{on}'s toes are all placed: the lines go on from their free ends. {elsewhere}"
                )
            return IllegalAction("foot.toes", Said(template, on=on, elsewhere=elsewhere))
        if self.on(on):
            return IllegalAction(
                "foot.toes",
                Said(
                    "{on} is not at the end of its line: {next} is played on it. {elsewhere}",
                    on=on,
                    next=self.on(on)[0],
                    elsewhere=elsewhere,
                ),
            )
        return IllegalAction(
            "foot.toes",
            Said(
                "{tile} does not fit on {on}, whose free end shows {shows}. {elsewhere}",
                tile=tile,
                on=on,
                shows=self.placed_of(on).free,
                elsewhere=elsewhere,
            ),
        )
