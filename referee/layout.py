"""The line layout of RULES.md §2.1–2.2: faces, arms, spinners and the count.

A layout is a tree of placed tiles. Each placed tile keeps the faces nobody has
played on yet; a play names the tile and the tile it goes on ("6-3 on 6-6"),
which is how players at a table say it.

>>> layout = Layout(LayoutRules(spinners="first")).play(Tile.parse("5-5"))
>>> layout.count
10
>>> layout = layout.play(Tile.parse("5-0"), on=Tile.parse("5-5"))
>>> layout.count
10
>>> layout.play(Tile.parse("5-4"), on=Tile.parse("5-5")).count
4
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from referee.errors import IllegalAction
from referee.frozen import replace
from referee.said import Said, counted, listed, phrase
from referee.tiles import Tile

SIDE, END = "side", "end"
FACES = (SIDE, END)
SPINNER_MODES = ("none", "first", "all")
OPENINGS = ("any", "double", "cross")
COUNT_MODES = ("while-end", "halves")


@dataclass(frozen=True, slots=True)
class LayoutRules:
    """The options of RULES.md §2.1–2.2 that shape a layout."""

    top: int = 6
    spinners: str = "none"
    sides_first: bool = True
    opening: str = "any"
    unlock: bool = False
    spinner_count: str = "while-end"


@dataclass(frozen=True, slots=True)
class Face:
    """A face of a placed tile that a tile can be played on.

    ``side`` is a face along the line (a double's long side, a non-double's half);
    ``end`` is a spinner's short end, from which a new arm branches.
    """

    kind: str
    shows: int


@dataclass(frozen=True, slots=True)
class Placed:
    tile: Tile
    on: int | None  # index of the tile it touches; None for the lead
    face: str | None  # which face of that tile it took
    spinner: bool
    free: tuple[Face, ...]
    touching: int | None = None  # the number where it touches that tile

    @property
    def free_sides(self) -> int:
        return sum(1 for face in self.free if face.kind == SIDE)


@dataclass(frozen=True, slots=True)
class OpenEnd:
    """A face that can be played on now, as the table screen shows it."""

    on: Tile
    face: str
    shows: int
    dead: bool


@dataclass(frozen=True)
class Layout:
    """The tiles face up on the table; immutable, every play returns a new layout."""

    rules: LayoutRules = LayoutRules()
    placed: tuple[Placed, ...] = ()

    # -- what is on the table ------------------------------------------------------------

    @cached_property
    def _index(self) -> dict[Tile, int]:
        return {p.tile: i for i, p in enumerate(self.placed)}

    def __contains__(self, tile: object) -> bool:
        return tile in self._index

    def __len__(self) -> int:
        return len(self.placed)

    @property
    def lead(self) -> Tile | None:
        return self.placed[0].tile if self.placed else None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.placed)

    @property
    def in_cross(self) -> bool:
        """True while the cross of ``line.cross`` still misses faces of the lead."""
        return self.rules.opening == "cross" and 0 < len(self.placed) < 5

    def placed_of(self, tile: Tile) -> Placed:
        return self.placed[self._index[tile]]

    def unlocked(self, number: int) -> bool:
        """``line.unlock``: a number is open to non-doubles once its double is down."""
        return not self.rules.unlock or Tile(number, number) in self._index

    # -- faces -----------------------------------------------------------------------------

    def _open_faces(self, index: int) -> tuple[Face, ...]:
        """The free faces of one placed tile that may be played on now."""
        placed = self.placed[index]
        if self.in_cross:
            return placed.free if index == 0 else ()
        if placed.spinner and self.rules.sides_first and placed.free_sides:
            return tuple(face for face in placed.free if face.kind == SIDE)
        return placed.free

    def open_ends(self) -> tuple[OpenEnd, ...]:
        """Every face that can take a tile now, one entry per distinct (tile, face, number)."""
        ends: list[OpenEnd] = []
        for index, placed in enumerate(self.placed):
            seen: set[Face] = set()
            for face in self._open_faces(index):
                if face not in seen:
                    seen.add(face)
                    ends.append(
                        OpenEnd(placed.tile, face.kind, face.shows, self.is_dead(face.shows))
                    )
        return tuple(ends)

    @cached_property
    def _bearing(self) -> Counter[int]:
        """How many tiles on the table bear each number (a double bears its number once)."""
        return Counter(n for p in self.placed for n in {p.tile.high, p.tile.low})

    def is_dead(self, number: int) -> bool:
        """``line.dead-end``: every tile bearing ``number`` is already on the table."""
        # A double-N set holds N+1 tiles bearing each number. Counted rather than looked up
        # tile by tile: legal_actions asks this for every open end of every candidate play,
        # and building those N+1 tiles each time was most of its cost.
        return self._bearing[number] == self.rules.top + 1

    @property
    def is_blocked(self) -> bool:
        """Every open end is dead, so nobody can ever play again (``line.dead-end``)."""
        ends = self.open_ends()
        return bool(self.placed) and all(end.dead for end in ends)

    def missing_cross_faces(self) -> tuple[str, ...]:
        """While the cross is open: the lead's faces still to be covered (``side``/``end``)."""
        return tuple(face.kind for face in self.placed[0].free) if self.in_cross else ()

    # -- plays -----------------------------------------------------------------------------

    def attachments(self, tile: Tile) -> tuple[tuple[Tile, str], ...]:
        """Where ``tile`` may be played now: (tile it goes on, face), each pair once.

        This is the one definition of where a tile fits; :meth:`play` and every
        "where would it fit" message are built on it.
        """
        if tile in self._index:
            return ()
        found: list[tuple[Tile, str]] = []
        for index, placed in enumerate(self.placed):
            for face in self._open_faces(index):
                spot = (placed.tile, face.kind)
                if tile.has(face.shows) and spot not in found and self._unlock_allows(tile, face):
                    found.append(spot)
        return tuple(found)

    def _unlock_allows(self, tile: Tile, face: Face) -> bool:
        return tile.is_double or self.unlocked(face.shows)

    def play(self, tile: Tile, on: Tile | None = None, face: str | None = None) -> Layout:
        """Place ``tile`` on a free face of ``on`` (the lead when the layout is empty)."""
        if not self.placed:
            return self._lead(tile, on, face)
        if tile in self._index:
            raise IllegalAction("set.unique", Said("{tile} is already on the table.", tile=tile))
        if on is None:
            raise IllegalAction(
                "line.attach",
                Said(
                    "Say which tile {tile} is played on. {elsewhere}",
                    tile=tile,
                    elsewhere=self.where_it_fits(tile),
                ),
            )
        if on not in self._index:
            raise IllegalAction(
                "line.attach",
                Said(
                    "{on} is not on the table. {elsewhere}",
                    on=on,
                    elsewhere=self.where_it_fits(tile),
                ),
            )
        index = self._index[on]
        kind = self._choose_face(tile, index, face)
        return self._attach(tile, index, kind)

    def _lead(self, tile: Tile, on: Tile | None, face: str | None = None) -> Layout:
        if on is not None:
            raise IllegalAction(
                "line.lead",
                Said(
                    "The table is empty, so {tile} leads; it is not played on {on}.",
                    tile=tile,
                    on=on,
                ),
            )
        if face is not None:
            # Refused rather than ignored, so a recorded lead never claims a face it lacks.
            raise IllegalAction(
                "line.lead",
                Said(
                    "The table is empty, so {tile} leads: there is no {face} to play on.",
                    tile=tile,
                    face=_FACE_WORDS.get(face, face),
                ),
            )
        if self.rules.opening != "any" and not tile.is_double:
            rule = "line.cross" if self.rules.opening == "cross" else "line.lead"
            raise IllegalAction(
                rule, Said("The lead must be a double; {tile} is not a double.", tile=tile)
            )
        spinner = tile.is_double and (
            self.rules.spinners in ("first", "all") or self.rules.opening == "cross"
        )
        n = tile.high
        if tile.is_double:
            free = (Face(SIDE, n), Face(SIDE, n)) + (
                (Face(END, n), Face(END, n)) if spinner else ()
            )
        else:
            free = (Face(SIDE, tile.high), Face(SIDE, tile.low))
        return Layout(self.rules, (Placed(tile, None, None, spinner, free),))

    def _choose_face(self, tile: Tile, index: int, face: str | None) -> str:
        placed = self.placed[index]
        on = placed.tile
        fits = [kind for (spot, kind) in self.attachments(tile) if spot == on]
        if face is not None and face in fits:
            return face
        if face is None and fits:
            return SIDE if SIDE in fits else fits[0]
        raise self._why_not(tile, index, face)

    def _why_not(self, tile: Tile, index: int, face: str | None) -> IllegalAction:
        """Explain, in the players' words, why ``tile`` cannot go on that tile."""
        placed = self.placed[index]
        on = placed.tile
        elsewhere = self.where_it_fits(tile)
        if self.in_cross and index != 0:
            return IllegalAction(
                "line.cross",
                Said(
                    "Until the cross on {lead} is complete, tiles go only on {lead} "
                    "({missing} still open). {elsewhere}",
                    lead=self.lead,
                    missing=_faces_phrase(self.missing_cross_faces()),
                    elsewhere=elsewhere,
                ),
            )
        if not placed.free:
            return IllegalAction(
                "line.attach",
                Said("{on} has no free face left. {elsewhere}", on=on, elsewhere=elsewhere),
            )
        open_faces = self._open_faces(index)
        if face == END and not any(f.kind == END for f in placed.free):
            template = (
                phrase("{on} is not a spinner, so nothing goes on its end. {elsewhere}")
                if not placed.spinner
                else phrase("{on} has no free end, so nothing goes on its end. {elsewhere}")
            )
            return IllegalAction("line.spinner", Said(template, on=on, elsewhere=elsewhere))
        if face == END and not any(f.kind == END for f in open_faces):
            return IllegalAction(
                "line.sides-first",
                Said(
                    "The ends of {on} open only after both its sides are covered. {elsewhere}",
                    on=on,
                    elsewhere=elsewhere,
                ),
            )
        if face == SIDE and not any(f.kind == SIDE for f in open_faces):
            return IllegalAction(
                "line.attach",
                Said("Both sides of {on} are covered. {elsewhere}", on=on, elsewhere=elsewhere),
            )
        matching = [f for f in open_faces if tile.has(f.shows) and (face is None or f.kind == face)]
        if matching:
            number = matching[0].shows
            return IllegalAction(
                "line.unlock",
                Said(
                    "{numbers} are locked until {double} is on the table; only {double} can go "
                    "on {on} now. {elsewhere}",
                    numbers=_PLURAL_NAMES[number],
                    double=Tile(number, number),
                    on=on,
                    elsewhere=elsewhere,
                ),
            )
        # Sorted as text, as this message always was; one tile's faces show one or two numbers.
        shows = sorted({f.shows for f in open_faces}, key=str)
        return IllegalAction(
            "line.attach",
            Said(
                "{tile} does not fit on {on}, which shows {shows}. {elsewhere}",
                tile=tile,
                on=on,
                shows=listed(shows),
                elsewhere=elsewhere,
            ),
        )

    def where_it_fits(self, tile: Tile) -> Said:
        """A sentence naming every place ``tile`` fits, or the numbers it would need."""
        spots = self.attachments(tile)
        if spots:
            # Each place a saying of its own, so a translation can put an article before it.
            places = [
                # Translators: a tile another may go on, one of a list ("... fits on {places}.")
                Said("{on}", on=on) if kind != END else Said("{on} (its end)", on=on)
                for on, kind in spots
            ]
            return Said("{tile} fits on {places}.", tile=tile, places=_either(places))
        if tile in self._index:
            return Said("")
        numbers = sorted({end.shows for end in self.open_ends()})
        if not numbers:
            return Said("{tile} fits nowhere now.", tile=tile)
        return Said(
            "{tile} fits nowhere now: the open ends show {numbers}.",
            tile=tile,
            numbers=listed(numbers),
        )

    def _attach(self, tile: Tile, index: int, kind: str) -> Layout:
        parent = self.placed[index]
        # The face the tile matches: a non-double lead has two sides showing different
        # numbers, so the first side is not always the one the tile touches.
        used = next(
            i
            for i, f in enumerate(parent.free)
            if f.kind == kind and tile.has(f.shows) and self._unlock_allows(tile, f)
        )
        touching = parent.free[used].shows
        parent = replace(parent, free=parent.free[:used] + parent.free[used + 1 :])
        spinner = tile.is_double and (
            self.rules.spinners == "all"
            or (self.rules.spinners == "first" and not any(p.tile.is_double for p in self.placed))
        )
        n = tile.other(touching)
        free = (Face(SIDE, n),) + ((Face(END, n), Face(END, n)) if spinner else ())
        placed = self.placed[:index] + (parent,) + self.placed[index + 1 :]
        return Layout(self.rules, placed + (Placed(tile, index, kind, spinner, free, touching),))

    # -- the count -------------------------------------------------------------------------

    @property
    def count(self) -> int:
        """``line.count`` with ``line.count-spinner``: the sum the open ends show."""
        return sum(self.shows(placed) for placed in self.placed)

    def count_parts(self) -> tuple[tuple[Tile, int], ...]:
        """The tiles that make up the count and what each shows, lead first. A blank end
        is listed too (it shows 0); a tile whose faces are all covered is not.

        >>> layout = Layout().play(Tile.parse("6-4")).play(Tile.parse("4-0"), Tile.parse("6-4"))
        >>> [(str(tile), shows) for tile, shows in layout.count_parts()]
        [('6-4', 6), ('4-0', 0)]
        """
        parts = []
        for placed in self.placed:
            shows = self.shows(placed)
            if shows or (not placed.tile.is_double and placed.free):
                parts.append((placed.tile, shows))
        return tuple(parts)

    def shows(self, placed: Placed) -> int:
        """What one placed tile adds to the count."""
        tile = placed.tile
        if not tile.is_double:
            return sum(face.shows for face in placed.free)
        if placed.spinner and self.rules.spinner_count == "halves":
            return tile.high * sum(1 for face in placed.free if face.kind == END)
        return 2 * tile.high if placed.free_sides else 0

    # -- drawing ---------------------------------------------------------------------------

    def arms(self) -> tuple[tuple[int | None, str | None, tuple[int, ...]], ...]:
        """The layout as arms for drawing: (index it leaves from, face, tile indexes in order).

        The first arm is the lead alone; every face of the lead and every end of a
        spinner starts an arm of its own, and a tile's side continues its arm.
        """
        children: dict[int, list[tuple[int, str]]] = {}
        for i, placed in enumerate(self.placed):
            if placed.on is not None:
                children.setdefault(placed.on, []).append((i, placed.face or SIDE))
        arms: list[tuple[int | None, str | None, tuple[int, ...]]] = []
        if not self.placed:
            return ()
        arms.append((None, None, (0,)))
        starts = [(0, child, face) for child, face in children.get(0, [])]
        while starts:
            origin, first, face = starts.pop(0)
            chain = [first]
            while True:
                nxt = [(c, f) for c, f in children.get(chain[-1], []) if f == SIDE]
                for child, child_face in children.get(chain[-1], []):
                    if child_face == END:
                        starts.append((chain[-1], child, END))
                if not nxt:
                    break
                chain.append(nxt[0][0])
            arms.append((origin, face, tuple(chain)))
        return tuple(arms)


#: The numbers in the plural, as the first word of a sentence (``line.unlock``).
_PLURAL_NAMES = (
    Said("Blanks"), Said("Ones"), Said("Twos"), Said("Threes"), Said("Fours"), Said("Fives"),
    Said("Sixes"), Said("Sevens"), Said("Eights"), Said("Nines"), Said("Tens"), Said("Elevens"),
    Said("Twelves"), Said("Thirteens"), Said("Fourteens"), Said("Fifteens"), Said("Sixteens"),
    Said("Seventeens"), Said("Eighteens"),
)  # fmt: skip
#: A face named in a sentence ("there is no end to play on").
_FACE_WORDS = {SIDE: Said("side"), END: Said("end")}


def _either(places: list[Tile | Said]) -> Tile | Said:
    """``6-6 or 6-6 (its end) or 5-5``: unlike :func:`referee.said.listed`, "or" between
    every two places and no comma, as this message always read."""
    either = places[0]
    for place in places[1:]:
        either = Said("{first} or {last}", first=either, last=place)
    return either


def _faces_phrase(kinds: tuple[str, ...]) -> Said:
    """``2 sides and 1 end``: the faces of the cross still open, or ``no face``."""
    sides, ends = kinds.count(SIDE), kinds.count(END)
    parts = []
    if sides:
        parts.append(counted("{n} side", "{n} sides", sides, n=sides))
    if ends:
        parts.append(counted("{n} end", "{n} ends", ends, n=ends))
    return listed(parts) if parts else Said("no face")


__all__ = ["END", "SIDE", "Face", "Layout", "LayoutRules", "OpenEnd", "Placed"]
