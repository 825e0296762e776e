"""Dump Truck (RULES.md §4): every seat draws a domino each turn, loads it into a 3 × 4
truck of half-domino cells, and unloads the truck for its chains.

A match is one game, played as one round: it ends when the pool and the hands are empty
(``truck.end``), when every truck is scored as it stands.

>>> from referee.actions import Load, Take, Unload
>>> state = start("dump-truck", {}, ["Ana", "Ben"])
>>> state = apply(state, Take(0, Tile.parse("1-1"), "pool"))
>>> state = apply(state, Load(0, Tile.parse("1-1"), ((0, 0), (0, 1))))
>>> state.trucks[0].values[:4], state.face_down
((1, 1, None, None), 27)
>>> best(Truck.of(("1-1", (0, 0), (0, 1)), ("2-1", (1, 1), (1, 0)))).points
3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

from referee.actions import (
    Abandon,
    Action,
    Adjust,
    Cell,
    Flip,
    Load,
    Replace,
    Return,
    Shift,
    Stop,
    Take,
    Undo,
    Unload,
)  # fmt: skip
from referee.corrections import STOPPED, on_the_record, stopped_words
from referee.errors import IllegalAction, InvalidAction
from referee.round.refusals import check_seat, nothing_to_take_back
from referee.rulebook import Preset, preset, resolve_options
from referee.said import Said, phrase
from referee.tiles import DominoSet, Tile

ROWS, COLS = 3, 4
MOST_DOMINOES = ROWS * COLS // 2
POOL_EMPTY, STALLED = "pool-empty", "stalled"  # why the game ended (truck.end)
SHORTEST_CHAIN = 3
TOP = 6  # the seed's double-six set: values 0-6, and wild blanks take one of them

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


# ---------------------------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class TruckResult:
    """The end of the game (``truck.end``): why, and every truck's last score."""

    winner: int | None
    reason: str
    points: tuple[int, ...]  # everything each seat scored in the game
    last_loads: tuple[Score, ...] = ()  # each truck as it stood, scored
    pips: tuple[int, ...] = ()  # no tally in Dump Truck
    findings: tuple = ()
    bonus: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "pips": {},
            "points": {str(seat): p for seat, p in enumerate(self.points) if p},
        }


@dataclass(frozen=True)
class TruckState:
    """Everything the table knows about a game of Dump Truck (``info.public``): every tile
    drawn is named as it is taken, so only the face-down pool is unknown."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    trucks: tuple[Truck, ...]
    holding: tuple[Tile | None, ...]  # each seat's drawn tile, until loaded or returned
    sources: tuple[str | None, ...]  # where each held tile came from: "pool" or "face-up"
    drawn: tuple[bool, ...]  # who has drawn this turn
    face_down: int
    face_up: tuple[Tile, ...] = ()  # the pool's face-up tiles that may be taken now
    fresh: tuple[Tile, ...] = ()  # put back face up this turn: they may be taken next turn
    out: tuple[Tile, ...] = ()  # unloaded: out of the game
    turn_number: int = 1
    dry: bool = False  # the face-down pool was empty when this turn began (truck.end)
    placed_any: bool = False  # a domino was placed in a truck this turn (truck.end)
    tosses: tuple[Flip, ...] = ()  # coins tossed this turn (truck.draw)
    base: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    result: TruckResult | None = None
    champion: int | None = None
    shared: tuple[int, ...] = ()
    stop: Stop | None = None  # the table stopped the match (correct.abandon)
    last: Action | None = None
    last_points: tuple[int, ...] = ()
    last_load: Score | None = None  # what the last unload scored
    actions: int = 0
    logged: int = field(default=0, compare=False)
    previous: TruckState | None = field(default=None, compare=False, repr=False)
    settled: int = field(default=0, compare=False)

    # What the match machinery asks of every game's state.
    leader = None
    pending = None
    turn = None
    last_hits = None
    dominards = False
    muggins = False

    @property
    def carry(self) -> dict[str, Any]:
        return {}  # a game is one round: nothing carries over

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(b + s for b, s in zip(self.base, self.scores, strict=True))

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def match_over(self) -> bool:
        return self.result is not None

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the game (``truck.end``) and how, in the players' words; None
        while it goes on."""
        ended = self._end_why()
        if ended is None:
            return None
        rule, why = ended
        return rule, Said("The game is over: {why}", why=why)

    def _end_why(self) -> tuple[str, str] | None:
        """The rule that ended the game and why, as a clause ("the table stopped it"): the
        banner and a refusal after the end each put it in a sentence of their own."""
        if self.stop is not None:
            return "correct.abandon", stopped_words(self.stop)
        if self.result is None:
            return None
        if self.result.reason == POOL_EMPTY:
            return "truck.end", Said("the pool and the hands are empty")
        return "truck.end", Said(
            "a whole turn passed with the face-down pool empty and nothing placed"
        )

    def abandoned_result(self) -> TruckResult:
        raise IllegalAction(
            "correct.abandon",
            Said(
                "Dump Truck is one game, not rounds: stop the match instead (the totals "
                "decide, or nobody wins)."
            ),
        )

    def stopped_result(self) -> TruckResult:
        return TruckResult(None, STOPPED, self.scores)

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats that still draw this turn."""
        if self.result is not None or not self.takeable:
            return ()
        return tuple(s for s in range(self.seats) if not self.drawn[s])

    @property
    def takeable(self) -> int:
        return self.face_down + len(self.face_up)

    @property
    def pool(self) -> int:
        """Every tile still in the pool, face down or up."""
        return self.face_down + len(self.face_up) + len(self.fresh)

    def unseen(self) -> tuple[Tile, ...]:
        """The tiles that may still lie face down in the pool: every tile nobody has named."""
        named = self.named()
        return tuple(t for t in DominoSet(TOP).tiles if t not in named)

    def named(self) -> dict[Tile, Said]:
        """Where each tile the table has seen is (``set.unique``), in the players' words."""
        where: dict[Tile, Said] = {}
        for t in self.face_up + self.fresh:
            where[t] = Said("face up in the pool")
        for t in self.out:
            where[t] = Said("out of the game (unloaded)")
        for seat, (truck, held) in enumerate(zip(self.trucks, self.holding, strict=True)):
            for t in truck.tiles:
                where[t] = Said("in {who}'s truck", who=self.names[seat])
            if held is not None:
                where[held] = Said("in {who}'s hand", who=self.names[seat])
        return where

    @property
    def swaps_allowed(self) -> bool:
        """Whether a drawn domino may replace one in a truck (``truck.replace``)."""
        return not (self.options["no_shift"] or self.options["no_replace"])

    def disputable(self, seat: int) -> tuple[tuple[int, Tile], ...]:
        """(holder, tile) of the tiles drawn this turn that ``seat`` may say it wanted too
        (``truck.draw``): a face-up tile, or any tile once the pool has nothing else."""
        return tuple(
            (other, held)
            for other, held in enumerate(self.holding)
            if held is not None
            and other != seat
            and (self.sources[other] == "face-up" or self.takeable == 0)
        )

    def ahead(self, a: int, b: int) -> bool | None:
        """Whether seat ``a`` chooses before seat ``b`` (``truck.draw``): the lower score
        first, a tie by this turn's coin; None while a tie has no coin yet."""
        totals = self.totals
        if totals[a] != totals[b]:
            return totals[a] < totals[b]
        for toss in reversed(self.tosses):
            if set(toss.seats) == {a, b}:
                return toss.first == a
        return None


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Check a match's options against the game and the number of players."""
    game = preset(slug)
    options = resolve_options(slug, given)
    low, high = game.players
    if not low <= players <= high:
        raise InvalidAction(
            Said(
                "{game} is for {low} to {high} players, not {players}.",
                game=Said(game.title),
                low=low,
                high=high,
                players=players,
            )
        )
    return options


def start(
    slug: str,
    given: Mapping[str, Any] | None,
    names: Sequence[str],
    leader: int | None = None,
    base: Sequence[int] | None = None,
    carry: Mapping[str, Any] | None = None,
) -> TruckState:
    """A new game: every truck empty, every tile face down in the pool."""
    options = options_for(slug, given, len(names))
    seats = len(names)
    nobody = (0,) * seats
    return TruckState(
        game=preset(slug),
        options=options,
        names=tuple(names),
        trucks=(Truck(),) * seats,
        holding=(None,) * seats,
        sources=(None,) * seats,
        drawn=(False,) * seats,
        face_down=len(DominoSet(TOP).tiles),
        base=tuple(base) if base is not None else nobody,
        scores=nobody,
    )


def next_leader(state: TruckState) -> int | None:
    return None


# ---------------------------------------------------------------------------------------------
# Checks: each raises IllegalAction naming the rule, or returns what the action does.


def _check_seat(state: TruckState, seat: int) -> None:
    check_seat(state.seats, seat)
    ended = state._end_why()
    if ended is not None:
        rule, why = ended
        raise IllegalAction(rule, Said("The game is over: {why}.", why=why))


def _held(state: TruckState, seat: int, tile: Tile, doing: Said) -> None:
    held = state.holding[seat]
    who = state.names[seat]
    if held is None:
        raise IllegalAction(
            "truck.load",
            Said(
                "{who} holds no domino to {doing}: draw one from the pool first.",
                who=who,
                doing=doing,
            ),
        )
    if held != tile:
        raise IllegalAction(
            "truck.load", Said("{who} holds {held}, not {tile}.", who=who, held=held, tile=tile)
        )


def _names(state: TruckState, seats: Iterable[int]) -> Said:
    return _joined([state.names[s] for s in seats], phrase("{first}, {then}"))


def _check_take(state: TruckState, action: Take) -> int | None:
    """The seat whose tile this take claims (``truck.draw``), or None."""
    seat, tile, who = action.seat, action.tile, state.names[action.seat]
    DominoSet(TOP).check(tile)
    if state.holding[seat] is not None:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{who} already holds {held}: load it or return it to the pool first.",
                who=who,
                held=state.holding[seat],
            ),
        )
    if state.drawn[seat]:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{who} has drawn this turn. The next turn begins when every seat has drawn and "
                "placed its domino; still to draw: {waiting}.",
                who=who,
                waiting=_names(state, state.waiting),
            )
            if state.waiting
            else Said(
                "{who} has drawn this turn. The next turn begins when every seat has placed "
                "its domino.",
                who=who,
            ),
        )
    if tile in state.fresh:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{tile} was put back face up this turn, after the draw: it can be taken next turn.",
                tile=tile,
            ),
        )
    for other, held in enumerate(state.holding):
        if held == tile and other != seat:
            return _check_claim(state, action, other)
    if action.source == "face-up" and tile in state.face_up:
        return None
    where = state.named().get(tile)
    if action.source == "face-up" and where is None:
        up = _joined(state.face_up, phrase("{first}, {then}")) if state.face_up else Said("none")
        raise IllegalAction(
            "truck.draw",
            Said(
                "{tile} is not face up in the pool: it is face down in the pool. Face up: {up}.",
                tile=tile,
                up=up,
            ),
        )
    if where is not None:
        whence = (
            Said("be taken face up")
            if action.source == "face-up"
            else Said("come from the face-down pool")
        )
        if tile in state.face_up:
            raise IllegalAction(
                "set.unique",
                Said(
                    "{tile} cannot {whence}: it is {where} (take it from the face-up tiles).",
                    tile=tile,
                    whence=whence,
                    where=where,
                ),
            )
        raise IllegalAction(
            "set.unique",
            Said("{tile} cannot {whence}: it is {where}.", tile=tile, whence=whence, where=where),
        )
    return None


def _check_claim(state: TruckState, action: Take, other: int) -> int:
    """Two seats want one tile: the lower score chooses first, a tie by a coin
    (``truck.draw``). Only a face-up tile, or the last tile of the pool, is wanted by two."""
    seat, tile = action.seat, action.tile
    who, holder = state.names[seat], state.names[other]
    contested = action.source == state.sources[other] and (other, tile) in state.disputable(seat)
    if not contested:
        raise IllegalAction(
            "set.unique",
            Said(
                "{tile} is in {holder}'s hand; draw another tile from the pool.",
                tile=tile,
                holder=holder,
            ),
        )
    first = state.ahead(seat, other)
    totals = state.totals
    if first is None:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{who} and {holder} both want {tile} and are tied on {score}: flip the coin "
                "to see who chooses first.",
                who=who,
                holder=holder,
                tile=tile,
                score=totals[seat],
            ),
        )
    if not first:
        why = (
            Said(
                "{holder} has the lower score ({low} to {high})",
                holder=holder,
                low=totals[other],
                high=totals[seat],
            )
            if totals[other] < totals[seat]
            else Said("{holder} won the coin", holder=holder)
        )
        raise IllegalAction(
            "truck.draw",
            Said(
                "{tile} stays with {holder}: when two want one tile, {why} and chooses first.",
                tile=tile,
                holder=holder,
                why=why,
            ),
        )
    return other


def _check_load(state: TruckState, action: Load) -> None:
    _held(state, action.seat, action.tile, Said("load"))
    refusal = state.trucks[action.seat].refusal(action.cells, action.tile)
    if refusal is not None:
        raise refusal


def _check_return(state: TruckState, action: Return) -> None:
    _held(state, action.seat, action.tile, Said("return"))


def _check_replace(state: TruckState, action: Replace) -> Truck:
    """The truck after the swap."""
    if not state.swaps_allowed:
        raise IllegalAction(
            "truck.replace",
            Said("House rule: dominoes stay where they were loaded; load or return the one held."),
        )
    _held(state, action.seat, action.tile, Said("swap in"))
    truck = state.trucks[action.seat]
    if truck.holding(action.out) is None:
        raise IllegalAction(
            "truck.replace",
            Said("{tile} is not in {who}'s truck.", tile=action.out, who=state.names[action.seat]),
        )
    emptied = truck.without(action.out)
    refusal = emptied.refusal(action.cells, action.tile)
    if refusal is not None:
        raise refusal
    after = emptied.with_tile(action.tile, action.cells)
    if action.to is not None:
        if set(action.to) == set(truck.holding(action.out).cells):  # type: ignore[union-attr]
            raise IllegalAction(
                "truck.replace",
                Said(
                    "{tile} must go to another place in the truck, or face up to the pool.",
                    tile=action.out,
                ),
            )
        refusal = after.refusal(action.to, action.out)
        if refusal is not None:
            raise refusal
        after = after.with_tile(action.out, action.to)
    return after


def _check_shift(state: TruckState, action: Shift) -> Truck:
    if state.options["truck_template"] or state.options["no_shift"]:
        rule = "truck.shape" if state.options["truck_template"] else "truck.replace"
        raise IllegalAction(
            rule, Said("House rule: the truck's contents stay where they were placed.")
        )
    truck = state.trucks[action.seat]
    if not truck.placed:
        raise IllegalAction("truck.shape", Said("The truck is empty: there is nothing to shift."))
    if (action.rows, action.cols) not in truck.shifts():
        raise IllegalAction(
            "truck.shape",
            Said(
                "That shift moves nothing or pushes dominoes out of the truck; the contents "
                "must stay inside its {rows} rows and {columns} columns.",
                rows=ROWS,
                columns=COLS,
            ),
        )
    return truck.shifted(action.rows, action.cols)


def _check_unload(state: TruckState, action: Unload) -> Score:
    who = state.names[action.seat]
    held = state.holding[action.seat]
    if held is not None:
        raise IllegalAction(
            "truck.unload",
            Said(
                "{who} holds {held}: load it or return it first, then unload.", who=who, held=held
            ),
        )
    truck = state.trucks[action.seat]
    if not truck.placed:
        raise IllegalAction(
            "truck.unload", Said("{who}'s truck is empty: there is nothing to unload.", who=who)
        )
    if action.blank_as is not None and state.options["blanks"] != "wild":
        raise IllegalAction(
            "truck.blanks", Said("Blanks are wild only under the house rule of wild blanks.")
        )
    if not action.score:
        return Score(0, ())
    return best(truck, state.options["blanks"], action.blank_as)


def _check_flip(state: TruckState, action: Flip) -> None:
    # A flip that cannot be a toss between two tied seats is refused as unreadable (as a
    # tile outside the set is), but still under the rule that tosses the coin.
    if len(action.seats) != 2:
        raise InvalidAction(
            Said(
                "A coin settles a tie between two seats, not {n}: toss it for two seats at a time.",
                n=len(action.seats),
            ),
            rule="truck.draw",
        )
    for s in action.seats:
        _check_seat(state, s)
    a, b = action.seats
    if a == b:
        raise InvalidAction(
            Said(
                "A coin is tossed between two different seats, not {who} and {who}.",
                who=state.names[a],
            ),
            rule="truck.draw",
        )
    if action.first not in action.seats:
        raise InvalidAction(
            Said(
                "The coin was tossed between {a} and {b}: the seat that chooses first is one "
                "of them, not seat {seat}.",
                a=state.names[a],
                b=state.names[b],
                seat=action.first,
            ),
            rule="truck.draw",
        )
    totals = state.totals
    settled = state.ahead(a, b)
    if totals[a] == totals[b] and settled is not None:
        first = state.names[a if settled else b]
        raise IllegalAction(
            "truck.draw", Said("The coin has settled it this turn: {who} chooses first.", who=first)
        )
    if totals[a] != totals[b]:
        low = a if totals[a] < totals[b] else b
        raise IllegalAction(
            "truck.draw",
            Said(
                "No coin is needed: {who} has the lower score ({a} to {b}) and chooses first.",
                who=state.names[low],
                a=totals[a],
                b=totals[b],
            ),
        )


def _check_undo(state: TruckState) -> None:
    if state.previous is None:
        raise nothing_to_take_back()
    if state.actions - 1 < state.settled:
        raise IllegalAction(
            "procedure.misplay",
            Said(
                "That stands: a domino was placed in a truck after it, which closed its window "
                "(taking that domino back does not reopen it)."
            ),
        )


def check(state: TruckState, action: Action) -> IllegalAction | None:
    """Why ``action`` is illegal now, or None."""
    try:
        apply(state, action)
    except IllegalAction as error:
        return error
    return None


# ---------------------------------------------------------------------------------------------
# Applying


def apply(state: TruckState, action: Action) -> TruckState:
    """The state after ``action``; raises IllegalAction (nothing changes) if it is not legal."""
    if isinstance(action, Undo):
        _check_undo(state)
        assert state.previous is not None
        # As in the line games, taking a placement back does not reopen what it closed.
        return replace(state.previous, settled=state.settled, logged=state.logged + 1)
    if isinstance(action, Adjust | Abandon | Stop):
        return on_the_record(state, action)
    seat = getattr(action, "seat", None)
    if seat is not None:
        _check_seat(state, seat)
    after = _transition(state, action)
    after = replace(
        after,
        actions=state.actions + 1,
        logged=state.logged + 1,
        last=action,
        previous=state,
        settled=state.actions if isinstance(action, Load | Replace) else state.settled,
    )
    return _turn_over(after)


def _set(values: tuple, seat: int, value: object) -> tuple:
    return values[:seat] + (value,) + values[seat + 1 :]


def _transition(state: TruckState, action: Action) -> TruckState:
    nobody = (0,) * state.seats
    plain = replace(state, last_points=nobody, last_load=None)
    if isinstance(action, Take):
        claimed = _check_take(state, action)
        seat = action.seat
        if claimed is not None:
            # The claimed seat draws again (truck.draw); its tile changes hands.
            plain = replace(
                plain,
                holding=_set(plain.holding, claimed, None),
                sources=_set(plain.sources, claimed, None),
                drawn=_set(plain.drawn, claimed, False),
            )
        elif action.source == "face-up":
            plain = replace(plain, face_up=tuple(t for t in plain.face_up if t != action.tile))
        else:
            plain = replace(plain, face_down=plain.face_down - 1)
        return replace(
            plain,
            holding=_set(plain.holding, seat, action.tile),
            sources=_set(plain.sources, seat, action.source),
            drawn=_set(plain.drawn, seat, True),
        )
    if isinstance(action, Load):
        _check_load(state, action)
        truck = state.trucks[action.seat].with_tile(action.tile, action.cells)
        return _placed(plain, action.seat, truck)
    if isinstance(action, Replace):
        truck = _check_replace(state, action)
        placed = _placed(plain, action.seat, truck)
        if action.to is None:
            placed = replace(placed, fresh=_sorted(placed.fresh + (action.out,)))
        return placed
    if isinstance(action, Return):
        _check_return(state, action)
        return replace(
            plain,
            holding=_set(plain.holding, action.seat, None),
            sources=_set(plain.sources, action.seat, None),
            fresh=_sorted(plain.fresh + (action.tile,)),
        )
    if isinstance(action, Shift):
        truck = _check_shift(state, action)
        return replace(plain, trucks=_set(plain.trucks, action.seat, truck))
    if isinstance(action, Unload):
        scored = _check_unload(state, action)
        gained = _set(nobody, action.seat, scored.points)
        return replace(
            plain,
            trucks=_set(plain.trucks, action.seat, Truck()),
            out=plain.out + state.trucks[action.seat].tiles,
            scores=tuple(a + b for a, b in zip(plain.scores, gained, strict=True)),
            last_points=gained,
            last_load=scored,
        )
    if isinstance(action, Flip):
        _check_flip(state, action)
        return replace(plain, tosses=plain.tosses + (action,))
    raise InvalidAction(Said("Dump Truck has no {kind} action.", kind=action.kind))


def _placed(state: TruckState, seat: int, truck: Truck) -> TruckState:
    return replace(
        state,
        trucks=_set(state.trucks, seat, truck),
        holding=_set(state.holding, seat, None),
        sources=_set(state.sources, seat, None),
        placed_any=True,
    )


def _sorted(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, reverse=True))


def _turn_over(state: TruckState) -> TruckState:
    """Begin the next turn once every seat has drawn (or nothing is left to draw) and
    placed; end the game when the pool and hands are empty, or when a turn that began with
    the face-down pool empty placed nothing (``truck.end``)."""
    if any(t is not None for t in state.holding) or state.waiting:
        return state
    if state.pool == 0:
        return _finish(state, POOL_EMPTY)
    if state.dry and not state.placed_any:
        return _finish(state, STALLED)
    if not any(state.drawn):
        return state  # the turn has not begun: nobody has drawn yet
    return replace(
        state,
        face_up=_sorted(state.face_up + state.fresh),
        fresh=(),
        drawn=(False,) * state.seats,
        turn_number=state.turn_number + 1,
        dry=state.face_down == 0,
        placed_any=False,
        tosses=(),
    )


def _finish(state: TruckState, reason: str) -> TruckState:
    """Every truck scored as it stands (the app picks the wild blanks' value)."""
    loads = tuple(best(truck, state.options["blanks"]) for truck in state.trucks)
    scores = tuple(s + load.points for s, load in zip(state.scores, loads, strict=True))
    points = tuple(p + load.points for p, load in zip(state.last_points, loads, strict=True))
    totals = tuple(b + s for b, s in zip(state.base, scores, strict=True))
    top = max(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == top)
    winner = leaders[0] if len(leaders) == 1 else None
    return replace(
        state,
        scores=scores,
        last_points=points,
        result=TruckResult(winner, reason, scores, loads),
        champion=winner,
        shared=leaders if winner is None else (),
    )


# ---------------------------------------------------------------------------------------------
# What may be done now


def legal_actions(state: TruckState) -> tuple[Action, ...]:
    """Every legal action now, built from the same checks :func:`apply` runs (a coin's
    outcome is the app's to toss, so both outcomes are listed)."""
    return tuple(a for a in _candidates(state) if check(state, a) is None)


def _candidates(state: TruckState) -> list[Action]:
    found: list[Action] = [Undo()]
    for seat in range(state.seats):
        held, truck = state.holding[seat], state.trucks[seat]
        for tile in state.unseen():
            found.append(Take(seat, tile, "pool"))
        for tile in (*state.face_up, *state.fresh):
            found.append(Take(seat, tile, "face-up"))
        for other in state.holding:
            if other is not None:
                found += [Take(seat, other, "pool"), Take(seat, other, "face-up")]
        if held is not None:
            found.append(Return(seat, held))
            found += [Load(seat, held, cells) for cells in truck.placements()]
            for p in truck.placed:
                emptied = truck.without(p.tile)
                for cells in emptied.placements():
                    found.append(Replace(seat, held, cells, p.tile))
                    after = emptied.with_tile(held, cells)
                    found += [Replace(seat, held, cells, p.tile, to) for to in after.placements()]
        found += [Shift(seat, r, c) for r, c in truck.shifts()]
        found += [Unload(seat, score) for score in (True, False)]
        if state.options["blanks"] == "wild":
            found += [Unload(seat, score, b) for b in range(TOP + 1) for score in (True, False)]
        for other in range(state.seats):
            if other != seat:
                found += [Flip((seat, other), seat), Flip((seat, other), other)]
    return found
