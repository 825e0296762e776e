"""The values of a club night (RULES.md §12): the event, its rounds and tables, a table's
result, an entrant's record and place; and the small helpers every part of the referee of
events shares."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.errors import InvalidAction, shown
from referee.frozen import replace
from referee.said import Said, counted

PAIRS = "pairs"
ROTATING = "rotating"
ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (PAIRS, ROTATING)
PAIRINGS = (ROUND_ROBIN, SWISS)

Pair = tuple[str, str]
Entrant = str | Pair
Seats = tuple[str, str, str, str]

# -- Values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """A table's result, read from its match: each side's total (side 0 is seats 0 and 2),
    and the winning side, or None for a drawn match (``parejas.time``)."""

    totals: tuple[int, int]
    winner: int | None

    def __post_init__(self) -> None:
        totals = self.totals
        if not (
            isinstance(totals, (tuple, list)) and len(totals) == 2
            and all(type(t) is int for t in totals) and self.winner in (0, 1, None)
        ):  # fmt: skip
            raise InvalidAction(
                Said("A table's result is each side's total and the winning side, not {value}.",
                     value=shown((totals, self.winner))),
                "event.round",
            )  # fmt: skip
        object.__setattr__(self, "totals", tuple(totals))


@dataclass(frozen=True)
class Table:
    """A table of four, its seats in the order of play; its result once its match ended."""

    seats: Seats
    result: Result | None = None

    def __post_init__(self) -> None:
        seats = self.seats
        if not (
            isinstance(seats, (tuple, list)) and len(seats) == 4
            and all(isinstance(n, str) and n for n in seats) and len(set(seats)) == 4
        ):  # fmt: skip
            raise InvalidAction(
                Said("A table seats four different players, not {value}.", value=shown(seats)),
                "event.seat",
            )
        object.__setattr__(self, "seats", tuple(seats))

    @property
    def sides(self) -> tuple[Pair, Pair]:
        """The partners of each side: seats 0 and 2, seats 1 and 3."""
        return (self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])


@dataclass(frozen=True)
class Round:
    """A round's tables, and who sat out with a bye."""

    tables: tuple[Table, ...]
    byes: tuple[Entrant, ...] = ()

    def __post_init__(self) -> None:
        # A document gives lists; a round is a value, compared and hashed as one.
        byes = tuple(tuple(b) if isinstance(b, list) else b for b in self.byes)
        object.__setattr__(self, "tables", tuple(self.tables))
        object.__setattr__(self, "byes", byes)


@dataclass(frozen=True)
class Event:
    """A club night as the referee sees it (``event.make``): the format of play (``pairs``
    with its ``pairing``, or ``rotating``), the entrants to seat from now on (names, or pairs
    of names; a withdrawn entrant leaves this list and keeps its results), the rounds so far,
    and the seed that draws every lot, kept with the event so that a seating is reproducible.

    >>> Event(PAIRS, (("Ana", "Caro"), ("Ben", "Dan")), pairing=ROUND_ROBIN).entrants
    (('Ana', 'Caro'), ('Ben', 'Dan'))
    >>> Event(ROTATING, ("Ana", "Ben", "Ana"))
    Traceback (most recent call last):
    referee.errors.InvalidAction: event.make: Ana is entered twice.
    """

    format: str
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...] = ()
    pairing: str = SWISS
    seed: int | str = 0

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise InvalidAction(
                Said("The format of play is pairs or rotating, not {value}.",
                     value=shown(self.format)), "event.make")  # fmt: skip
        if self.format == PAIRS and self.pairing not in PAIRINGS:
            raise InvalidAction(
                Said("The pairing is round-robin or swiss, not {value}.",
                     value=shown(self.pairing)), "event.make")  # fmt: skip
        entrants = tuple(_entrant(self.format, e) for e in self.entrants)
        names = Counter(name for e in entrants for name in _names(e))
        for name, times in names.items():
            if times > 1:
                raise InvalidAction(Said("{who} is entered twice.", who=name), "event.make")
        object.__setattr__(self, "entrants", entrants)
        object.__setattr__(self, "rounds", tuple(self.rounds))

    def with_round(self, round: Round) -> Event:
        """The event with one more round."""
        return replace(self, rounds=(*self.rounds, round))


@dataclass(frozen=True, kw_only=True)
class Record:
    """What an entrant's matches add up to (``event.standings``): a bye is a win with 0
    points for and against, a drawn match half a win."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def wins(self) -> float:
        return self.won + self.byes + self.drawn / 2

    @property
    def efectividad(self) -> int:
        """Points scored less points scored against, over every match."""
        return self.points_for - self.points_against

    @property
    def played(self) -> int:
        """Matches played; byes are not matches."""
        return self.won + self.drawn + self.lost

    @property
    def key(self) -> tuple[int, int, int]:
        """The keys of ``event.standings`` before the results among the tied, best highest;
        wins counted in halves so that a draw's half is exact."""
        return (2 * (self.won + self.byes) + self.drawn, self.efectividad, self.points_for)

    def __add__(self, other: Record) -> Record:
        return Record(
            won=self.won + other.won, drawn=self.drawn + other.drawn, lost=self.lost + other.lost,
            byes=self.byes + other.byes, points_for=self.points_for + other.points_for,
            points_against=self.points_against + other.points_against,
        )  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class Standing(Record):
    """An entrant's place in an event's standings; ``rank`` is shared by a tie (1, 1, 3)."""

    entrant: Entrant
    rank: int


@dataclass(frozen=True, kw_only=True)
class SeriesStanding(Record):
    """A player's place over a series of events (``event.series``), and how many of its
    events the player played in."""

    player: str
    rank: int
    events: int


@dataclass(frozen=True)
class Seating:
    """A round as :func:`seat` proposes it or :func:`check` accepts it, with what the
    players should be told: each partnership (or, with pairs, meeting) it repeats, and why."""

    round: Round
    warnings: tuple[Said, ...] = ()


# -- Small helpers ---------------------------------------------------------------------------


def _entrant(format: str, entrant: object) -> Entrant:
    """An entrant as the format has it: a name, or a pair of two different names."""
    if format == PAIRS:
        if (
            isinstance(entrant, (tuple, list))
            and len(entrant) == 2
            and all(isinstance(n, str) and n for n in entrant)
            and entrant[0] != entrant[1]
        ):
            return (entrant[0], entrant[1])
        raise InvalidAction(
            Said("A pair is two different players, not {value}.", value=shown(entrant)),
            "event.make",
        )
    if isinstance(entrant, str) and entrant:
        return entrant
    raise InvalidAction(
        Said("An entrant is a player's name, not {value}.", value=shown(entrant)), "event.make"
    )


def _names(entrant: Entrant) -> tuple[str, ...]:
    return entrant if isinstance(entrant, tuple) else (entrant,)


def _pair_name(pair: Pair) -> Said:
    return Said("{first} & {then}", first=pair[0], then=pair[1])


def _not_entered(name: str) -> Said:
    return Said("{who} is not entered.", who=name)


def _too_few(pairs: bool, n: int) -> Said:
    if pairs:
        return counted("A table needs two pairs; only {n} is entered.",
                       "A table needs two pairs; only {n} are entered.", n, n=n)  # fmt: skip
    return counted("A table needs four players; only {n} is entered.",
                   "A table needs four players; only {n} are entered.", n, n=n)  # fmt: skip


def _lot(seed: int | str, unit: Entrant) -> bytes:
    """An entrant's draw in the event's lot: the same for the same seed and name, whoever
    else enters."""
    return hashlib.sha256("\x1f".join((str(seed), *_names(unit))).encode()).digest()


_WON, _DRAWN, _LOST, _BYES, _FOR, _AGAINST = range(6)


def _tally() -> list[int]:
    """A record as it is counted up: won, drawn, lost, byes, points for, points against."""
    return [0, 0, 0, 0, 0, 0]


def _record[R: Record](tally: Sequence[int] | None, kind: type[R] = Record, **more: object) -> R:
    won, drawn, lost, byes, points_for, against = tally or _tally()
    return kind(won=won, drawn=drawn, lost=lost, byes=byes, points_for=points_for,
                points_against=against, **more)  # fmt: skip


def _key(tally: Sequence[int] | None) -> tuple[int, int, int]:
    """:attr:`Record.key` straight from a tally."""
    won, drawn, _, byes, points_for, against = tally or _tally()
    return (2 * (won + byes) + drawn, points_for - against, points_for)


def _score(tally: list[int], side: int, result: Result) -> None:
    tally[_FOR] += result.totals[side]
    tally[_AGAINST] += result.totals[1 - side]
    tally[_DRAWN if result.winner is None else _WON if result.winner == side else _LOST] += 1


def _fields(record: Record) -> dict[str, int]:
    return {name: getattr(record, name) for name in Record.__dataclass_fields__}


def _runs[U](items: list[U], key: Callable[[U], object]) -> list[list[U]]:
    """``items`` cut where ``key`` changes."""
    runs: list[list[U]] = []
    for item in items:
        if runs and key(runs[-1][-1]) == key(item):
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _competition_ranks(keys: Sequence) -> list[int]:
    """1, 1, 3: a tie shares the place and the next place counts those before it."""
    ranks = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks
