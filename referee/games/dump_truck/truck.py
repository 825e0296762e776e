"""A Dump Truck truck: its 3 × 4 cells, the dominoes loaded in it, and what it scores
when unloaded (``truck.score``: its chains)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from referee.actions import (
    Cell,
)  # fmt: skip
from referee.errors import IllegalAction
from referee.frozen import replace
from referee.said import Said, phrase
from referee.tiles import Tile

ROWS, COLS = 3, 4
MOST_DOMINOES = ROWS * COLS // 2
POOL_EMPTY, STALLED = "pool-empty", "stalled"  # why the game ended (truck.end)
SHORTEST_CHAIN = 3
TOP = 6  # the seed's double-six set: values 0-6, and wild blanks take one of them

# What the package offers of the truck as it is (referee.games.dump_truck re-exports it whole;
# _score too, for the tests that score a truck's values directly).
__all__ = [
    "BLANK_POINTS", "COLS", "MOST_DOMINOES", "ROWS", "SHORTEST_CHAIN", "TOP", "Chain", "Placed",
    "Score", "Truck", "_score", "best", "cell_words",
]  # fmt: skip

# ---------------------------------------------------------------------------------------------
# The truck


def _index(cell: Cell) -> int:
    return cell[0] * COLS + cell[1]


def _cell(index: int) -> Cell:
    return divmod(index, COLS)


def _neighbours(index: int) -> tuple[int, ...]:
    row, col = _cell(index)
    near = ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
    return tuple(_index(c) for c in near if 0 <= c[0] < ROWS and 0 <= c[1] < COLS)


NEIGHBOURS = tuple(_neighbours(i) for i in range(ROWS * COLS))


def cell_words(cell: Cell) -> Said:
    """A cell as players count it, from 1: "row 2, column 3"."""
    return Said("row {row}, column {column}", row=cell[0] + 1, column=cell[1] + 1)


def _joined(items: Sequence[Any], template: str) -> Said:
    """``items`` one after another, each pair joined by ``template`` (``"{first}, {then}"``),
    kept as data: a plain list as the table reads it, with no "and" (which is
    :func:`referee.said.listed`'s)."""
    if not items:
        return Said("")
    first = items[0]
    said = first if isinstance(first, Said) else Said("{only}", only=first)
    for item in items[1:]:
        said = Said(template, first=said, then=item)
    return said


def _in_truck(cell: Cell) -> bool:
    return 0 <= cell[0] < ROWS and 0 <= cell[1] < COLS


def _touching(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


@dataclass(frozen=True, slots=True)
class Placed:
    """A domino in a truck: ``cells[0]`` holds its high half, ``cells[1]`` its low half."""

    tile: Tile
    cells: tuple[Cell, Cell]


@dataclass(frozen=True)
class Truck:
    """One seat's truck (``truck.shape``): the dominoes in it and the cells they cover."""

    placed: tuple[Placed, ...] = ()

    @classmethod
    def of(cls, *dominoes: tuple[str, Cell, Cell]) -> Truck:
        """A truck from ``(tile as written, first cell, second cell)`` triples, for tests
        and examples: the first cell holds the tile's first number as written."""
        placed = []
        for text, a, b in dominoes:
            tile, low_first = Tile.parse_halves(text)
            placed.append(Placed(tile, (b, a) if low_first else (a, b)))
        return cls(tuple(placed))

    @cached_property
    def values(self) -> tuple[int | None, ...]:
        """The value on each cell, row by row (None for an empty cell)."""
        grid: list[int | None] = [None] * (ROWS * COLS)
        for p in self.placed:
            grid[_index(p.cells[0])], grid[_index(p.cells[1])] = p.tile.high, p.tile.low
        return tuple(grid)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.placed)

    @property
    def is_full(self) -> bool:
        return len(self.placed) == MOST_DOMINOES

    def at(self, cell: Cell) -> Placed | None:
        for p in self.placed:
            if cell in p.cells:
                return p
        return None

    def holding(self, tile: Tile) -> Placed | None:
        for p in self.placed:
            if p.tile == tile:
                return p
        return None

    def refusal(self, cells: tuple[Cell, Cell], tile: Tile) -> IllegalAction | None:
        """Why ``tile`` cannot lie on ``cells`` (``truck.shape``, ``truck.load``), or None."""
        for cell in cells:
            if not _in_truck(cell):
                return IllegalAction(
                    "truck.shape",
                    Said(
                        "{cell} is outside the truck: it has {rows} rows and {columns} columns.",
                        cell=cell_words(cell),
                        rows=ROWS,
                        columns=COLS,
                    ),
                )
        if self.is_full:
            return IllegalAction(
                "truck.load",
                Said("The truck is full with six dominoes; {tile} does not fit.", tile=tile),
            )
        a, b = cells
        if not _touching(a, b):
            return IllegalAction(
                "truck.shape",
                Said(
                    "A domino covers two cells side by side; {a} and {b} do not touch.",
                    a=cell_words(a),
                    b=cell_words(b),
                ),
            )
        for cell in cells:
            there = self.at(cell)
            if there is not None:
                return IllegalAction(
                    "truck.load",
                    Said("{tile} already lies on {cell}.", tile=there.tile, cell=cell_words(cell)),
                )
        if self.placed and not any(
            _touching(c, d) for c in cells for p in self.placed for d in p.cells
        ):
            return IllegalAction(
                "truck.load",
                Said(
                    "{tile} must lie next to a domino already in the truck, edge to edge.",
                    tile=tile,
                ),
            )
        return None

    def placements(self) -> tuple[tuple[Cell, Cell], ...]:
        """Every pair of cells a domino may be loaded on, each way round."""
        values = self.values
        pairs = []
        for i in range(ROWS * COLS):
            for j in NEIGHBOURS[i]:
                if values[i] is None and values[j] is None:
                    cells = (_cell(i), _cell(j))
                    if self.refusal(cells, Tile(0, 0)) is None:
                        pairs.append(cells)
        return tuple(pairs)

    def new_places(self, out: Tile) -> tuple[tuple[Cell, Cell], ...]:
        """Where ``out``, swapped out, may go in the truck (``truck.replace``): any pair of
        cells a load may take without it, each way round, but not back where it lay (the
        drawn tile, placed first, may take some of these or open others)."""
        lay = set(self.holding(out).cells)  # type: ignore[union-attr]
        return tuple(c for c in self.without(out).placements() if set(c) != lay)

    def with_tile(self, tile: Tile, cells: tuple[Cell, Cell]) -> Truck:
        return Truck((*self.placed, Placed(tile, cells)))

    def without(self, tile: Tile) -> Truck:
        return Truck(tuple(p for p in self.placed if p.tile != tile))

    def shifted(self, rows: int, cols: int) -> Truck:
        def move(cell: Cell) -> Cell:
            return (cell[0] + rows, cell[1] + cols)

        return Truck(
            tuple(Placed(p.tile, (move(p.cells[0]), move(p.cells[1]))) for p in self.placed)
        )

    def shifts(self) -> tuple[tuple[int, int], ...]:
        """Every move of the whole contents that keeps it inside the truck."""
        if not self.placed:
            return ()
        cells = [c for p in self.placed for c in p.cells]
        rows = range(-min(r for r, _ in cells), ROWS - max(r for r, _ in cells))
        cols = range(-min(c for _, c in cells), COLS - max(c for _, c in cells))
        return tuple((r, c) for r in rows for c in cols if (r, c) != (0, 0))


# ---------------------------------------------------------------------------------------------
# Scoring a load (truck.segment, truck.like, truck.sequence, truck.best, truck.blanks)


@dataclass(frozen=True, slots=True)
class Chain:
    """A scoring chain: the cells it runs through, in order, and what it scores."""

    kind: str  # "like" or "sequence"
    cells: tuple[Cell, ...]
    values: tuple[int, ...]  # as scored: wild blanks show the value they took
    points: int

    @property
    def words(self) -> Said:
        """ "1-2-3": the values as scored, in order."""
        return _joined(self.values, phrase("{first}-{then}"))


@dataclass(frozen=True, slots=True)
class Score:
    """The best score of a load (``truck.best``) and the chains that make it."""

    points: int
    chains: tuple[Chain, ...]
    blank_as: int | None = None  # wild blanks: the value they took (None: no blanks, or not wild)

    @property
    def words(self) -> Said:
        """ "1-1-1-1 (4) + 1-2-3-4 (4) = 8", or "no chain of 3 or more"."""
        if not self.chains:
            return Said("no chain of {n} or more", n=SHORTEST_CHAIN)
        parts = [Said("{chain} ({points})", chain=c.words, points=c.points) for c in self.chains]
        chains = _joined(parts, phrase("{first} + {then}"))
        if self.blank_as is not None:
            return Said(
                "{chains}, blanks as {value}s = {points}",
                chains=chains,
                value=self.blank_as,
                points=self.points,
            )
        if len(self.chains) == 1:
            return chains
        return Said("{chains} = {points}", chains=chains, points=self.points)


BLANK_POINTS = {"normal": 1, "worthless": 0, "double": 2, "wild": 1}


def best(truck: Truck, blanks: str = "normal", blank_as: int | None = None) -> Score:
    """The best legal choice of chains in ``truck`` (``truck.best``): one sequential chain
    and one like chain per value. With wild blanks, all blanks take ``blank_as``, or the
    value that scores most (the lowest of equals) when it is None.

    >>> truck = Truck.of(("0-0", (0, 0), (0, 1)), ("0-3", (0, 2), (0, 3)))
    >>> best(truck).words, best(truck, "double").points, best(truck, "worthless").points
    ('0-0-0 (3)', 6, 0)
    >>> best(truck, "wild").words
    '3-3-3-3 (4), blanks as 3s = 4'
    """
    values = truck.values
    if blanks != "wild" or 0 not in values:
        return _score(values, blanks)
    if blank_as is not None:
        return _wild(values, blank_as)
    return max((_wild(values, b) for b in range(TOP + 1)), key=lambda s: s.points)


def _wild(values: tuple[int | None, ...], blank_as: int) -> Score:
    as_given = tuple(blank_as if v == 0 else v for v in values)
    scored = _score(as_given, "wild")
    return replace(scored, blank_as=blank_as)


@lru_cache(maxsize=8192)
def _score(values: tuple[int | None, ...], blanks: str) -> Score:
    chains = []
    sequence = _longest_sequence(values)
    if len(sequence) >= SHORTEST_CHAIN:
        chains.append(_chain("sequence", sequence, values, len(sequence)))
    for value in range(TOP + 1):
        cells = [i for i, v in enumerate(values) if v == value]
        if len(cells) < SHORTEST_CHAIN:
            continue
        path = _longest_path(frozenset(cells))
        worth = len(path) * (BLANK_POINTS[blanks] if value == 0 else 1)
        if len(path) >= SHORTEST_CHAIN and worth:
            chains.append(_chain("like", path, values, worth))
    return Score(sum(c.points for c in chains), tuple(chains))


def _chain(kind: str, path: Sequence[int], values, points: int) -> Chain:
    return Chain(kind, tuple(_cell(i) for i in path), tuple(values[i] for i in path), points)


def _longest_sequence(values: tuple[int | None, ...]) -> tuple[int, ...]:
    """The longest path whose values rise by exactly 1 at each step (no blanks): rising
    values never revisit a cell, so this is a longest path in a small DAG."""
    longest: dict[int, tuple[int, ...]] = {}
    for i in sorted(range(ROWS * COLS), key=lambda i: -(values[i] or 0)):
        v = values[i]
        if not v:  # empty, or a blank (never in a sequence)
            continue
        after = [longest[j] for j in NEIGHBOURS[i] if values[j] == v + 1]
        longest[i] = (i, *max(after, key=len, default=()))
    return max((longest[i] for i in range(ROWS * COLS) if i in longest), key=len, default=())


def _longest_path(cells: frozenset[int]) -> tuple[int, ...]:
    """The longest simple path through ``cells`` (edge to edge), searched exhaustively
    within each connected group; a path through every cell of its group ends the search."""
    best_path: tuple[int, ...] = ()
    for group in _groups(cells):
        if len(group) <= len(best_path):
            continue
        found = _longest_in(group)
        if len(found) > len(best_path):
            best_path = found
    return best_path


def _groups(cells: frozenset[int]) -> list[frozenset[int]]:
    groups, seen = [], set()
    for start in sorted(cells):
        if start in seen:
            continue
        group, frontier = {start}, [start]
        while frontier:
            for j in NEIGHBOURS[frontier.pop()]:
                if j in cells and j not in group:
                    group.add(j)
                    frontier.append(j)
        seen |= group
        groups.append(frozenset(group))
    return groups


def _longest_in(group: frozenset[int]) -> tuple[int, ...]:
    whole = len(group)
    best_path: list[int] = []
    path: list[int] = []

    def walk(i: int) -> bool:
        path.append(i)
        if len(path) > len(best_path):
            best_path[:] = path
            if len(path) == whole:
                return True
        for j in NEIGHBOURS[i]:
            if j in group and j not in path and walk(j):
                return True
        path.pop()
        return False

    for start in sorted(group):
        if walk(start):
            break
        path.clear()
    return tuple(best_path)
