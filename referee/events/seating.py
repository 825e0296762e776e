"""Seating a round (RULES.md §12, ``event.seat``): the round robin, the Swiss system, rotating
partners and the byes; and the check of a round the organizer changed."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from referee.errors import IllegalAction
from referee.events.history import _History, _refusal
from referee.events.matching import _Graph
from referee.events.values import (
    PAIRS,
    ROTATING,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Event,
    Round,
    Seating,
    Seats,
    Table,
)
from referee.said import Said, counted

#: How a rotating table's four (in order of the standings: a, b, c, d) may pair off, in the
#: order tried: the first with the fourth against the second with the third, which balances
#: the sides, then a & c against b & d, then a & b against c & d. Each gives the seats in the
#: order of play, the best-placed first and the best-placed opponent next.
_SPLITS = ((0, 1, 3, 2), (0, 1, 2, 3), (0, 2, 1, 3))

#: How many more choices the rotating search may weigh, once it holds a seating, to find one
#: where fewer players face an opponent again (bench/events.py times the largest events).
SEARCH_STEPS = 40_000

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
