"""What the rounds of an event so far say (RULES.md §12): every match's sides and result,
who partnered and who met whom, the byes; the standings of an event and of a series."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import cached_property

from referee.errors import IllegalAction
from referee.events.values import (
    _AGAINST,
    _BYES,
    _DRAWN,
    _FOR,
    _LOST,
    _WON,
    PAIRS,
    ROTATING,  # noqa: F401 (series' example names it)
    ROUND_ROBIN,
    Entrant,
    Event,
    Pair,
    Record,
    Result,
    Round,
    SeriesStanding,
    Standing,
    Table,
    _competition_ranks,
    _entrant,
    _fields,
    _key,
    _lot,
    _names,
    _not_entered,
    _pair_name,
    _record,
    _runs,
    _score,
    _tally,
    _too_few,
)
from referee.said import Said, counted, listed, phrase

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
