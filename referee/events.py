"""Club nights (RULES.md §12): seating, byes and standings, as pure functions of the entrants
and the tables' results.

An :class:`Event` is what the app knows of a club night: its format, its entrants, the rounds
seated so far with each table's result once its match has ended, and a seed kept with it that
draws every lot. Nothing here is stored apart from that: :func:`standings` ranks it,
:func:`seat` proposes the next round, :func:`check` judges a round the organizer changed, and
:func:`series` ranks players over several events.

A table's seats are in the order of play; seats 0 and 2 are partners (``team.seats``), side 0,
against seats 1 and 3, side 1. With format ``pairs`` an entrant is a pair of names; with
``rotating`` it is one name.

For the app: build the :class:`Event` from its rows on every request (each table's
:class:`Result` read from its match, None while it plays) and ask; the answers are values,
cheap enough to recompute on every change (``bench/events.py``). A refusal is an
:class:`~referee.errors.IllegalAction` citing ``event.seat``; malformed input an
:class:`~referee.errors.InvalidAction` citing ``event.make``, ``event.seat`` or
``event.round``; every message and warning a :class:`~referee.said.Said`.

>>> night = Event(ROTATING, ("Ana", "Ben", "Caro", "Dan", "Eva"), seed=7)
>>> first = seat(night).round
>>> first.tables[0].seats, first.byes
(('Caro', 'Ben', 'Dan', 'Eva'), ('Ana',))
>>> ended = Table(first.tables[0].seats, Result((200, 145), winner=0))
>>> night = night.with_round(Round((ended,), first.byes))
>>> for s in standings(night):
...     print(s.rank, s.entrant, s.wins, s.efectividad)
1 Caro 1.0 55
1 Dan 1.0 55
3 Ana 1.0 0
4 Ben 0.0 -55
4 Eva 0.0 -55
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import combinations

from referee.errors import IllegalAction, InvalidAction, shown
from referee.said import Said, counted, listed, phrase

PAIRS = "pairs"
ROTATING = "rotating"
ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (PAIRS, ROTATING)
PAIRINGS = (ROUND_ROBIN, SWISS)

Pair = tuple[str, str]
Entrant = str | Pair
Seats = tuple[str, str, str, str]

#: How a rotating table's four (in order of the standings: a, b, c, d) may pair off, in the
#: order tried: the first with the fourth against the second with the third, which balances
#: the sides, then a & c against b & d, then a & b against c & d. Each gives the seats in the
#: order of play, the best-placed first and the best-placed opponent next.
_SPLITS = ((0, 1, 3, 2), (0, 1, 2, 3), (0, 2, 1, 3))

#: How many more choices the rotating search may weigh, once it holds a seating, to find one
#: where fewer players face an opponent again (bench/events.py times the largest events).
SEARCH_STEPS = 40_000


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


# -- Standings -------------------------------------------------------------------------------


def standings(event: Event) -> tuple[Standing, ...]:
    """Every entrant ranked by ``event.standings``: wins (a drawn match half a win each, a
    bye a win with 0 points for and against), then efectividad, then points for, then the
    results among the tied (only matches in which they met as opponents); a tie that remains
    is shared, ranked as competitions do. Entrants who withdrew keep their place. Tables
    whose match has not ended count for nothing yet. Shared places are listed by the event's
    lot, the order :func:`seat` takes them in.

    >>> ana_caro, ben_dan, eva_fede = ("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede")
    >>> event = Event(PAIRS, (ana_caro, ben_dan, eva_fede), (
    ...     Round((Table(("Ana", "Ben", "Caro", "Dan"), Result((200, 145), 0)),), (eva_fede,)),
    ...     Round((Table(("Eva", "Ana", "Fede", "Caro"), Result((200, 120), 0)),), (ben_dan,)),
    ... ))
    >>> for s in standings(event):
    ...     print(s.rank, s.entrant, s.wins, s.efectividad, s.points_for, s.played, s.byes)
    1 ('Eva', 'Fede') 2.0 80 200 1 1
    2 ('Ana', 'Caro') 1.0 -25 320 2 0
    3 ('Ben', 'Dan') 1.0 -55 145 1 1
    """
    return _History(event).standings


def series(events: Iterable[Event]) -> tuple[SeriesStanding, ...]:
    """Every player of a series of events ranked by the keys of ``event.standings`` summed
    over the events (wins, efectividad, points for), with the number of events each played
    in. A pair's results count for both its players. Results among the tied are not summed
    over a series: a tie after points for is shared, its players listed by name.

    >>> ana = Event(ROTATING, ("Ana", "Ben", "Caro", "Dan"), (
    ...     Round((Table(("Ana", "Ben", "Caro", "Dan"), Result((200, 150), 0)),)),))
    >>> pairs = Event(PAIRS, (("Ana", "Ben"), ("Eva", "Fede")), (
    ...     Round((Table(("Eva", "Ana", "Fede", "Ben"), Result((90, 200), 1)),)),))
    >>> [(s.rank, s.player, s.wins, s.efectividad, s.events) for s in series([ana, pairs])][:3]
    [(1, 'Ana', 2.0, 160, 2), (2, 'Ben', 1.0, 60, 2), (3, 'Caro', 1.0, 50, 1)]
    """
    totals: dict[str, Record] = {}
    played: Counter[str] = Counter()
    for event in events:
        for standing in standings(event):
            if not (standing.played or standing.byes):
                continue  # entered, but never seated: not an event this player played
            for name in _names(standing.entrant):
                totals[name] = totals.get(name, Record()) + standing
                played[name] += 1
    order = sorted(totals)
    order.sort(key=lambda name: totals[name].key, reverse=True)  # stable: names part a tie
    ranks = _competition_ranks([totals[name].key for name in order])
    return tuple(
        SeriesStanding(player=name, rank=rank, events=played[name], **_fields(totals[name]))
        for name, rank in zip(order, ranks, strict=True)
    )


# -- Seating ---------------------------------------------------------------------------------


def seat(event: Event) -> Seating:
    """The next round as ``event.seat`` seats it, the same for the same event and seed.

    ``pairs`` with ``round-robin``: the circle method over the pairs in the order of the lot,
    every pair meeting every other once; with ``swiss``: pairs in order of the standings, each
    meeting the highest-placed pair below it that it has not met. ``rotating``: players in
    order of the standings fill the tables from the top, four at a time, nobody partnering a
    former partner while any seating avoids it, and as few as possible facing a former
    opponent. The first round of each is by lot. Who is left over sits out with a bye: the
    lowest-placed who has not had one. Tables come in order of the standings, and at each
    the best-placed player (or pair) takes seat 0. Warnings name every repeat no seating
    could avoid, and why.

    >>> pairs = [("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede"), ("Gil", "Hugo")]
    >>> event = Event(PAIRS, tuple(pairs), pairing=SWISS, seed="thursday")
    >>> [table.seats for table in seat(event).round.tables]
    [('Gil', 'Ana', 'Hugo', 'Caro'), ('Ben', 'Eva', 'Dan', 'Fede')]
    """
    history = _History(event)
    order = history.active_order
    byes = history.due_byes(order)
    seated = [e for e in order if e not in byes]
    if event.format == ROTATING:
        tables, warnings = _seat_rotating(history, seated)
    elif event.pairing == SWISS:
        tables, warnings = _seat_swiss(history, seated)
    else:
        return _seat_round_robin(history, order)
    return Seating(Round(tables, tuple(byes)), warnings)


def check(event: Event, round: Round, confirmed: bool = False) -> Seating:
    """Judge a round the organizer changed (``event.seat``) before it starts: every entrant
    seated once or sitting out, pairs kept together, the byes with the lowest-placed who have
    not had one; no partnership (with pairs, no meeting) repeated when a seating of the same
    players repeats fewer, unless ``confirmed``; with ``round-robin``, no meeting twice and the
    meetings left still fitting into the rounds left. Returns the seating with its warnings;
    refuses with an :class:`IllegalAction` that names who repeats with whom.

    >>> event = Event(ROTATING, ("Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo"))
    >>> event = event.with_round(Round((Table(("Ana", "Ben", "Caro", "Dan")),
    ...                                 Table(("Eva", "Fede", "Gil", "Hugo")))))
    >>> again = Round((Table(("Ana", "Eva", "Caro", "Fede")), Table(("Ben", "Gil", "Hugo", "Dan"))))
    >>> check(event, again)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    referee.errors.IllegalAction: event.seat: Ana partnered Caro in round 1, though these ...
    >>> check(event, again, confirmed=True).warnings
    ('Ana and Caro partner again, as in round 1: the organizer confirmed it.',)
    """
    history = _History(event)
    order = history.active_order
    seated = history.seated_in(round)
    if event.format == PAIRS and event.pairing == ROUND_ROBIN:
        _only_the_field(history, order)
    history.check_byes(order, round)
    if event.format == PAIRS and event.pairing == ROUND_ROBIN:
        return _check_round_robin(history, round)
    units = [unit for unit in order if unit in seated]
    if event.format == ROTATING:
        pairs = [side for table in round.tables for side in table.sides]
        repeated = [pair for pair in pairs if pair[1] in history.partnered[pair[0]]]
        forbidden = history.partnered
    else:
        meetings = [tuple(side[0] for side in history.sides(t)) for t in round.tables]
        repeated = [pair for pair in meetings if pair[1] in history.met[pair[0]]]
        forbidden = history.met
    fewest = _Graph(forbidden).fewest_repeats(units) if repeated else 0
    if len(repeated) > fewest and not confirmed:
        raise IllegalAction("event.seat", _refusal(history, repeated, fewest))
    why = Said("the organizer confirmed it") if len(repeated) > fewest else None
    return Seating(round, history.warnings(repeated, units, why))


def round_robin_rounds(pairs: int) -> int:
    """How many rounds a round robin of ``pairs`` takes: each pair meets every other once,
    and with an odd number each sits out once.

    >>> round_robin_rounds(6), round_robin_rounds(7)
    (5, 7)
    """
    return pairs - 1 + pairs % 2


# -- What the rounds so far say --------------------------------------------------------------


class _History:
    """The rounds of an event read once: every match's sides and result, who partnered and
    who met whom (and in which round last), the byes, and the standings."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.pairs = event.format == PAIRS
        self._pair_of: dict[frozenset[str], Pair] = {}
        self.known: set[Entrant] = set()  # every entrant ever (ordered by the lot)
        for entrant in event.entrants:
            self._unit(entrant)
        self.bye_count: Counter[Entrant] = Counter()
        self.tallies: defaultdict[Entrant, list[int]] = defaultdict(_tally)
        # Every ended match: its sides' units and its result. Written out for speed: the app
        # ranks a whole event on every change (bench/events.py).
        self.matches: list[tuple[tuple[tuple[Entrant, ...], ...], Result]] = []
        tallies, known = self.tallies, self.known
        for played in event.rounds:
            for bye in played.byes:
                unit = self._unit(_entrant(event.format, bye))
                self.bye_count[unit] += 1
                tallies[unit][_BYES] += 1
            for table in played.tables:
                sides = self.sides(table)
                known.update(sides[0], sides[1])
                result = table.result
                if result is None:
                    continue
                self.matches.append((sides, result))
                ours, theirs = result.totals
                won = result.winner
                for side, points_for, against in ((0, ours, theirs), (1, theirs, ours)):
                    outcome = _DRAWN if won is None else _WON if won == side else _LOST
                    for unit in sides[side]:
                        tally = tallies[unit]
                        tally[outcome] += 1
                        tally[_FOR] += points_for
                        tally[_AGAINST] += against
        self.lot = {unit: _lot(event.seed, unit) for unit in self.known}
        self.standings = self._rank()
        self.rank = {s.entrant: s.rank for s in self.standings}
        active = set(event.entrants)
        self.active_order = [s.entrant for s in self.standings if s.entrant in active]

    def _unit(self, entrant: Entrant) -> Entrant:
        if self.pairs:
            entrant = self._pair_of.setdefault(frozenset(entrant), entrant)  # type: ignore[arg-type]
        self.known.add(entrant)
        return entrant

    def sides(self, table: Table) -> tuple[tuple[Entrant, ...], tuple[Entrant, ...]]:
        """Each side's units: its pair, or its two players."""
        if self.pairs:
            return tuple((self._unit(side),) for side in table.sides)  # type: ignore[return-value]
        seats = table.seats
        return (seats[0], seats[2]), (seats[1], seats[3])

    @cached_property
    def partnered(self) -> defaultdict[str, dict[str, int]]:
        """Each player's former partners, with the last round they partnered in."""
        partnered: defaultdict[str, dict[str, int]] = defaultdict(dict)
        for number, played in enumerate(self.event.rounds, 1):
            for table in played.tables:
                for x, y in table.sides:
                    partnered[x][y] = partnered[y][x] = number
        return partnered

    @cached_property
    def met(self) -> defaultdict[Entrant, dict[Entrant, int]]:
        """Each unit's former opponents (players faced, or pairs met), with the last round
        they met in."""
        met: defaultdict[Entrant, dict[Entrant, int]] = defaultdict(dict)
        for number, played in enumerate(self.event.rounds, 1):
            for table in played.tables:
                ours, theirs = self.sides(table)
                for x in ours:
                    for y in theirs:
                        met[x][y] = met[y][x] = number
        return met

    # -- standings

    def _rank(self) -> tuple[Standing, ...]:
        keys = {unit: _key(self.tallies.get(unit)) for unit in self.known}
        units = sorted(self.known, key=self.lot.__getitem__)
        units.sort(key=keys.__getitem__, reverse=True)  # stable: the lot parts equal keys
        ordered: list[tuple[Entrant, tuple]] = []
        for group in _runs(units, keys.__getitem__):
            ordered += [(u, (keys[u], k)) for u, k in self._among(group)]
        ranks = _competition_ranks([key for _, key in ordered])
        return tuple(
            _record(self.tallies.get(unit), Standing, entrant=unit, rank=rank)
            for (unit, _), rank in zip(ordered, ranks, strict=True)
        )

    @cached_property
    def of(self) -> dict[Entrant, list[int]]:
        """The matches each unit played, by index: asked only for a tie."""
        of: defaultdict[Entrant, list[int]] = defaultdict(list)
        for index, (sides, _) in enumerate(self.matches):
            for units in sides:
                for unit in units:
                    of[unit].append(index)
        return of

    def _among(self, tied: list[Entrant]) -> list[tuple[Entrant, tuple]]:
        """The tied in order of their results among themselves, each with the key that
        places it: a small table of the matches in which some of them met as opponents,
        ranked by the same keys, and again among any still tied (as long as that separates
        someone); a tie that remains keeps the lot's order and one key."""
        if len(tied) == 1:
            return [(tied[0], ())]
        group = set(tied)
        among = {u: _tally() for u in tied}
        for index in sorted({i for u in tied for i in self.of[u]}):
            sides, result = self.matches[index]
            if not (group & set(sides[0]) and group & set(sides[1])):
                continue  # no two of them were opponents: partners only, or one alone
            for side, units in enumerate(sides):
                for unit in units:
                    if unit in group:
                        _score(among[unit], side, result)
        keys = {u: _key(among[u]) for u in tied}
        tied = sorted(tied, key=keys.__getitem__, reverse=True)  # stable: the lot's order
        runs = _runs(tied, keys.__getitem__)
        if len(runs) == 1:
            return [(u, ()) for u in tied]
        return [(u, (keys[u], k)) for run in runs for u, k in self._among(run)]

    # -- byes

    def due_byes(self, order: Sequence[Entrant]) -> list[Entrant]:
        """Who sits out this round (``event.seat``): as many as the tables leave over, the
        lowest-placed of those with the fewest byes; in order of the standings."""
        size = 2 if self.pairs else 4
        if len(order) < size:
            raise IllegalAction("event.seat", _too_few(self.pairs, len(order)))
        count = len(order) % size
        position = {unit: i for i, unit in enumerate(order)}
        due = sorted(order, key=lambda u: (self.bye_count[u], -position[u]))[:count]
        return sorted(due, key=position.__getitem__)

    def bye_key(self, byes: Iterable[Entrant], order: Sequence | None = None) -> list:
        """Byes compared as §12 chooses them: fewest byes so far, then lowest rank (a shared
        rank makes two entrants equally due), or lowest in ``order`` (the standings' order,
        where the lot parts a shared rank)."""
        place = {u: i for i, u in enumerate(order)} if order is not None else self.rank
        return sorted((self.bye_count[u], -place[u]) for u in byes)

    def check_byes(self, order: Sequence[Entrant], round: Round) -> None:
        due = self.due_byes(order)
        if self.event.pairing == ROUND_ROBIN and self.pairs and self._withdrawn():
            return  # a withdrawn pair's place in the schedule leaves its opponent out
        if self.bye_key(self._byes(round)) != self.bye_key(due):
            if not due:
                raise IllegalAction(
                    "event.seat", Said("Nobody sits out this round: the tables seat everyone.")
                )
            named = listed([self.name(u) for u in due])
            raise IllegalAction(
                "event.seat",
                counted(
                    "The bye goes to the lowest-placed who has not had one: {due} sits out "
                    "this round.",
                    "The byes go to the lowest-placed who have not had one: {due} sit out "
                    "this round.",
                    len(due),
                    due=named,
                ),
            )

    def _byes(self, round: Round) -> list[Entrant]:
        return [self._unit(_entrant(self.event.format, bye)) for bye in round.byes]

    def _withdrawn(self) -> bool:
        return bool(set(self.field()) - set(self.event.entrants))

    def field(self) -> list[Entrant]:
        """A round robin's pairs: those of its first round (all entrants until then)."""
        if not self.event.rounds:
            return list(self.event.entrants)
        first = self.event.rounds[0]
        sides = [side[0] for table in first.tables for side in self.sides(table)]
        return sides + self._byes(first)

    def seated_in(self, round: Round) -> set[Entrant]:
        """Who a proposed round seats at its tables, having found every entrant in it once,
        seated or sitting out, and, with pairs, opposite the partner they entered with."""
        active = set(self.event.entrants)
        seen: set[Entrant] = set()
        units: list[Entrant] = []
        for number, table in enumerate(round.tables, 1):
            if self.pairs:
                for first, second in table.sides:
                    pair = self._pair_of.get(frozenset((first, second)))
                    if pair is None or pair not in active:
                        for name in (first, second):
                            if not any(name in _names(e) for e in active):
                                raise IllegalAction("event.seat", _not_entered(name))
                        raise IllegalAction(
                            "event.seat",
                            Said("At table {table}, {first} and {second} sit opposite each "
                                 "other but are not a pair.",
                                 table=number, first=first, second=second),
                        )  # fmt: skip
                    units.append(pair)
            else:
                units += table.seats
        units += self._byes(round)
        for unit in units:
            if unit not in active:
                raise IllegalAction("event.seat", _not_entered(self.name(unit)))
            if unit in seen:
                raise IllegalAction(
                    "event.seat",
                    Said("{who} appears twice in this round.", who=self.name(unit)),
                )
            seen.add(unit)
        for unit in self.event.entrants:
            if unit not in seen:
                raise IllegalAction(
                    "event.seat", Said("{who} has no seat and no bye.", who=self.name(unit))
                )
        return seen - set(self._byes(round))

    # -- words

    def name(self, unit: Entrant) -> str:
        return _pair_name(unit) if isinstance(unit, tuple) else unit

    def warnings(
        self, repeated: Sequence[tuple[Entrant, Entrant]], units: list, why: Said | None
    ) -> tuple[Said, ...]:
        """Each repeat of a seating, and why it stands: the organizer confirmed it, or no
        seating of these players avoids it."""
        out = []
        table = self.met if self.pairs else self.partnered
        present = set(units)
        for x, y in repeated:
            reason = why
            if reason is None:
                full = [u for u in (x, y) if present - {u} <= set(table[u])]
                if full and self.pairs:
                    reason = Said("{who} have already met every other pair in this round",
                                  who=self.name(full[0]))  # fmt: skip
                elif full:
                    reason = Said("{who} has already partnered every other player in this round",
                                  who=full[0])  # fmt: skip
                elif self.pairs:
                    reason = counted(
                        "every seating of these {units} pairs repeats at least {n} meeting",
                        "every seating of these {units} pairs repeats at least {n} meetings",
                        len(repeated), units=len(units), n=len(repeated),
                    )  # fmt: skip
                else:
                    reason = counted(
                        "every seating of these {players} players repeats at least {n} "
                        "partnership",
                        "every seating of these {players} players repeats at least {n} "
                        "partnerships",
                        len(repeated), players=len(units), n=len(repeated),
                    )  # fmt: skip
            template = (
                phrase("{first} meet {second} again, as in round {round}: {why}.")
                if self.pairs
                else phrase("{first} and {second} partner again, as in round {round}: {why}.")
            )
            out.append(
                Said(
                    template, first=self.name(x), second=self.name(y), round=table[x][y], why=reason
                )  # fmt: skip
            )
        return tuple(out)


def _refusal(history: _History, repeated: list, fewest: int) -> Said:
    if history.pairs:
        items = [
            Said("{first} met {second} in round {round}", first=history.name(x),
                 second=history.name(y), round=history.met[x][y])
            for x, y in repeated
        ]  # fmt: skip
        if fewest:
            return counted(
                "{repeats}, though these pairs can be seated with only {n} meeting repeated. "
                "Confirm to seat them so anyway.",
                "{repeats}, though these pairs can be seated with only {n} meetings repeated. "
                "Confirm to seat them so anyway.",
                fewest, repeats=listed(items), n=fewest,
            )  # fmt: skip
        return Said(
            "{repeats}, though these pairs can be seated with no pair meeting another again. "
            "Confirm to seat them so anyway.",
            repeats=listed(items),
        )
    items = [
        Said("{first} partnered {second} in round {round}", first=x, second=y,
             round=history.partnered[x][y])
        for x, y in repeated
    ]  # fmt: skip
    if fewest:
        return counted(
            "{repeats}, though these players can be seated with only {n} partnership repeated. "
            "Confirm to seat them so anyway.",
            "{repeats}, though these players can be seated with only {n} partnerships "
            "repeated. Confirm to seat them so anyway.",
            fewest, repeats=listed(items), n=fewest,
        )  # fmt: skip
    return Said(
        "{repeats}, though these players can be seated with no partnership repeated. "
        "Confirm to seat them so anyway.",
        repeats=listed(items),
    )


# -- Swiss -----------------------------------------------------------------------------------


def _seat_swiss(history: _History, seated: list) -> tuple[tuple[Table, ...], tuple[Said, ...]]:
    """Pairs in order of the standings, each meeting the highest-placed pair below it that it
    has not met, the choice kept only if the pairs below can still meet with no more repeats
    than the fewest any seating has: so the search never has to go back."""
    graph = _Graph(history.met)
    allowed = graph.fewest_repeats(seated)
    meetings: list[tuple[Entrant, Entrant]] = []
    rest = list(seated)
    while rest:
        top, below = rest[0], rest[1:]
        for again in (False, True):
            found = next(
                (i for i, other in enumerate(below)
                 if (other in history.met[top]) == again
                 and graph.fewest_repeats(below[:i] + below[i + 1 :]) <= allowed - again),
                None,
            )  # fmt: skip
            if found is not None:
                break
        assert found is not None  # the fewest repeats were counted over these very pairs
        allowed -= again
        meetings.append((top, below[found]))
        rest = below[:found] + below[found + 1 :]
    tables = tuple(Table((a[0], b[0], a[1], b[1])) for a, b in meetings)  # type: ignore[index]
    repeated = [(a, b) for a, b in meetings if b in history.met[a]]
    return tables, history.warnings(repeated, seated, None)


# -- Rotating --------------------------------------------------------------------------------


def _seat_rotating(history: _History, seated: list) -> tuple[tuple[Table, ...], tuple[Said, ...]]:
    """Tables filled from the top of the standings: the best-placed player still standing
    and the three placed highest below who can sit with them. A table is kept only if the
    players below can still be seated with no more repeated partners than the fewest any
    seating has; among those, tables where nobody faces a former opponent come first. Once
    a seating is found the search looks on, for a while, for one with fewer opponents met
    again."""
    partnered, faced = history.partnered, history.met
    graph = _Graph(partnered)
    allowed = graph.fewest_repeats(seated)
    best: list[Seats] = []
    best_cost = [5 * len(seated)]
    chosen: list[Seats] = []
    steps = [0]

    def place(rest: list[str], allowed: int, cost: int) -> bool:
        """Seat ``rest``; True once no better seating is worth looking for."""
        if not rest:
            if cost < best_cost[0]:
                best[:], best_cost[0] = chosen, cost
            return cost == 0 or steps[0] > SEARCH_STEPS
        top, below = rest[0], rest[1:]
        for bound in range(5):  # tables where `bound` opponents meet again, fewest first
            if cost + bound >= best_cost[0]:
                return False
            for i, j, k in _colex(len(below)):
                four = (top, below[i], below[j], below[k])
                for split in _SPLITS:
                    steps[0] += 1
                    p, r, q, s = (four[n] for n in split)
                    if (r in faced[p]) + (s in faced[p]) + (r in faced[q]) + (
                        s in faced[q]
                    ) != bound:
                        continue
                    again = (q in partnered[p]) + (s in partnered[r])
                    if again > allowed:
                        continue
                    left = [x for n, x in enumerate(below) if n not in (i, j, k)]
                    if graph.fewest_repeats(left) > allowed - again:
                        continue
                    chosen.append((p, r, q, s))
                    done = place(left, allowed - again, cost + bound)
                    chosen.pop()
                    if done:
                        return True
                if steps[0] > SEARCH_STEPS and best:
                    return True
        return False

    place(list(seated), allowed, 0)
    tables = tuple(Table(seats) for seats in best)
    repeated = [side for table in tables for side in table.sides if side[1] in partnered[side[0]]]
    return tables, history.warnings(repeated, seated, None)


def _colex(n: int) -> Iterator[tuple[int, int, int]]:
    """Every three of ``n`` places, the lowest third place first: the nearest first."""
    for k in range(2, n):
        for j in range(1, k):
            for i in range(j):
                yield i, j, k


# -- Round robin -----------------------------------------------------------------------------


def _seat_round_robin(history: _History, order: list) -> Seating:
    """The next round of the circle method over the pairs in the lot's order; of the rounds
    left, the one that gives the bye to the lowest-placed without one. Once the organizer
    has seated a round of their own, the rounds left are found anew by a search."""
    _only_the_field(history, order)
    left = _rounds_left(history)
    if not left:
        raise IllegalAction(
            "event.seat", Said("The round robin is complete: every pair has met every other.")
        )
    position = {pair: i for i, pair in enumerate(order)}

    def fairness(meetings: list) -> tuple:
        seated = {pair for meeting in meetings for pair in meeting}
        return (
            len(order) - len(seated),
            history.bye_key([p for p in order if p not in seated], order),
        )

    meetings = min(left, key=fairness)  # the first of the best
    byes = tuple(pair for pair in order if pair not in {p for m in meetings for p in m})
    ordered = sorted(
        (sorted(m, key=position.__getitem__) for m in meetings), key=lambda m: position[m[0]]
    )
    tables = tuple(Table((a[0], b[0], a[1], b[1])) for a, b in ordered)
    return Seating(Round(tables, byes))


def _only_the_field(history: _History, order: list) -> None:
    field = history.field()
    for pair in order:
        if pair not in field:
            raise IllegalAction(
                "event.seat",
                Said("{pair} cannot join a round robin that began without them: they could "
                     "not meet every other pair once.", pair=history.name(pair)),
            )  # fmt: skip


def _owed(history: _History) -> set[frozenset]:
    active = list(history.event.entrants)
    return {frozenset((a, b)) for a, b in combinations(active, 2) if b not in history.met[a]}


def _rounds_left(history: _History) -> list[list[tuple[Entrant, Entrant]]]:
    """The meetings of each round left, in the order they come: the circle method's rounds
    not yet played, or, where the organizer seated a round the circle method would not
    have, a schedule found for what is left."""
    owed = _owed(history)
    if not owed:
        return []
    field = sorted(history.field(), key=history.lot.__getitem__)
    total = round_robin_rounds(len(field))
    schedule = _circle(field)
    which = {meeting: n for n, meetings in enumerate(schedule) for meeting in meetings}
    used: set[int] = set()
    for played in history.event.rounds:
        met = {frozenset(s[0] for s in history.sides(t)) for t in played.tables}
        rounds = {which.get(m, -1) for m in met}
        if len(rounds) > 1 or -1 in rounds or rounds & used:
            found = _schedule(owed, total - len(history.event.rounds))
            return [[tuple(m) for m in r] for r in found or []]
        used |= rounds
    active = set(history.event.entrants)
    return [
        [m for m in meetings if m <= active and m in owed]  # type: ignore[misc]
        for n, meetings in enumerate(schedule)
        if n not in used
    ]


def _circle(field: list) -> list[list[frozenset]]:
    """The circle method: one pair stays, the others turn one place a round; with an odd
    number, whoever faces the empty place sits out."""
    places: list = field + ([None] if len(field) % 2 else [])
    fixed, turning = places[0], places[1:]
    rounds = []
    for r in range(len(turning)):
        row = [fixed, *turning[r:], *turning[:r]]
        pairs = zip(row[: len(row) // 2], reversed(row[len(row) // 2 :]), strict=True)
        rounds.append([frozenset(pair) for pair in pairs if None not in pair])
    return rounds


def _schedule(owed: set[frozenset], rounds: int) -> list[list[frozenset]] | None:
    """The meetings owed split into ``rounds`` rounds, each pair at one table at most, or
    None when they cannot be: a search, the pair with the fewest choices seated first, that
    never leaves out more pairs than the rounds left can spare (a round robin is a club's
    few pairs)."""
    pairs = sorted({p for meeting in owed for p in meeting}, key=repr)
    index = {p: i for i, p in enumerate(pairs)}
    edges = frozenset(tuple(sorted(index[p] for p in meeting)) for meeting in owed)
    failed: set[tuple[frozenset, int]] = set()

    def split(edges: frozenset, rounds: int) -> list[list[tuple[int, int]]] | None:
        if not edges:
            return []
        if rounds == 0 or (edges, rounds) in failed:
            return None
        near: list[set[int]] = [set() for _ in pairs]
        for a, b in edges:
            near[a].add(b)
            near[b].add(a)
        if max(len(n) for n in near) > rounds:
            return None
        # Every round leaves out at least one of an odd number; what is left to spare over
        # the rounds after this one bounds how many this round may leave out.
        slack = sum(rounds - len(n) for n in near)
        spare = slack - (len(pairs) % 2) * (rounds - 1)
        for meetings in _matchings(near, spare, rounds):
            later = split(edges - set(meetings), rounds - 1)
            if later is not None:
                return [meetings, *later]
        failed.add((edges, rounds))
        return None

    found = split(edges, rounds)
    if found is None:
        return None
    return [[frozenset((pairs[a], pairs[b])) for a, b in meetings] for meetings in found]


def _matchings(near: list[set[int]], spare: int, rounds: int) -> Iterator[list[tuple[int, int]]]:
    """Every round that seats meetings of ``near`` (who still meets whom), each pair once,
    leaving out at most ``spare`` pairs and none that must play every round left."""
    free = set(range(len(near)))
    chosen: list[tuple[int, int]] = []

    def extend(spare: int) -> Iterator[list[tuple[int, int]]]:
        if not free:
            yield list(chosen)
            return
        pair = min(free, key=lambda p: (len(near[p] & free), p))
        free.discard(pair)
        for other in sorted(near[pair] & free, key=lambda q: (len(near[q] & free), q)):
            free.discard(other)
            chosen.append((min(pair, other), max(pair, other)))
            yield from extend(spare)
            chosen.pop()
            free.add(other)
        if spare and len(near[pair]) < rounds:
            yield from extend(spare - 1)
        free.add(pair)

    yield from extend(spare)


def _check_round_robin(history: _History, round: Round) -> Seating:
    for table in round.tables:
        a, b = (side[0] for side in history.sides(table))
        if b in history.met[a]:
            item = Said("{first} met {second} in round {round}", first=history.name(a),
                        second=history.name(b), round=history.met[a][b])  # fmt: skip
            raise IllegalAction(
                "event.seat",
                Said("{repeat}: in a round robin every pair meets every other exactly once.",
                     repeat=item),
            )  # fmt: skip
    owed = _owed(history) - {
        frozenset(side[0] for side in history.sides(table)) for table in round.tables
    }
    left = round_robin_rounds(len(history.field())) - len(history.event.rounds) - 1
    if owed and (left < 0 or _schedule(owed, left) is None):
        raise IllegalAction(
            "event.seat",
            counted(
                "With this seating the round robin cannot be finished: the meetings left "
                "would not fit into the {n} round left.",
                "With this seating the round robin cannot be finished: the meetings left "
                "would not fit into the {n} rounds left.",
                max(left, 0), n=max(left, 0),
            ),
        )  # fmt: skip
    return Seating(round)


# -- Matching --------------------------------------------------------------------------------


class _Graph:
    """Who may not sit together again (partners, or pairs that met): how few repeats any
    seating of some of them must make."""

    def __init__(self, forbidden: Mapping) -> None:
        self.forbidden = forbidden
        self.most = max((len(v) for v in forbidden.values()), default=0)

    def fewest_repeats(self, units: Sequence) -> int:
        """The fewest repeated pairings over every way to pair ``units`` off: as many pairs
        as a largest matching of the pairings allowed leaves short."""
        n = len(units)
        # Dirac: where everyone may still pair with at least half the others, the pairings
        # allowed hold a Hamiltonian cycle, so everyone can be paired without a repeat.
        if n == 0 or (n > 2 and self.most <= n // 2 - 1):
            return 0
        present = set(units)
        if n > 2 and all(
            len(present & self.forbidden.get(u, {}).keys()) <= n // 2 - 1 for u in units
        ):
            return 0
        index = {u: i for i, u in enumerate(units)}
        allowed = [
            [index[v] for v in units if v != u and v not in self.forbidden.get(u, ())]
            for u in units
        ]
        return n // 2 - _maximum_matching(allowed)


def _maximum_matching(adjacent: list[list[int]]) -> int:
    """The size of a largest matching of a graph (Edmonds' blossoms, as e-maxx writes it)."""
    n = len(adjacent)
    match = [-1] * n
    for v in range(n):  # a greedy start leaves few paths to find
        if match[v] == -1:
            for u in adjacent[v]:
                if match[u] == -1:
                    match[u], match[v] = v, u
                    break

    def lca(a: int, b: int, base: list[int], parent: list[int]) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def find_path(root: int) -> tuple[int, list[int]]:
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))
        used[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in adjacent[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    current = lca(v, to, base, parent)
                    blossom = [False] * n
                    for start, child in ((v, to), (to, v)):
                        while base[start] != current:
                            blossom[base[start]] = blossom[base[match[start]]] = True
                            parent[start] = child
                            child = match[start]
                            start = parent[match[start]]
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = current
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to, parent
                    used[match[to]] = True
                    queue.append(match[to])
        return -1, parent

    for root in range(n):
        if match[root] == -1:
            v, parent = find_path(root)
            while v != -1:
                pv = parent[v]
                ppv = match[pv]
                match[v], match[pv] = pv, v
                v = ppv
    return sum(1 for v in match if v != -1) // 2


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
