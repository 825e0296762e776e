"""Properties of club nights' seating and standings (RULES.md §12), with Hypothesis.

Random events are played round after round: :func:`seat` proposes, each table gets a random
result (now and then a draw), and every proposal is compared with an exhaustive search
written here, from the rounds themselves: no seating of the same players repeats fewer
partnerships (rotating) or meetings (Swiss), none has fewer players facing an opponent again
among those, the byes go to the lowest-placed without one, and the organizer's swaps are
refused exactly when the search finds a seating that repeats fewer.

The example counts are half the profile's (tests/conftest.py: dev 50, CI 100), as each example
plays a whole event; ``HYPOTHESIS_PROFILE`` raises them with the profile.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import IllegalAction
from referee.events import (
    PAIRS,
    ROTATING,
    ROUND_ROBIN,
    SWISS,
    Event,
    Result,
    Round,
    Table,
    _maximum_matching,
    check,
    round_robin_rounds,
    seat,
    series,
    standings,
)

EVENTS = settings(
    max_examples=max(10, settings.default.max_examples // 2),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
NAMES = tuple(f"P{n:02}" for n in range(12))
PAIRED = tuple((f"A{n:02}", f"B{n:02}") for n in range(16))


def ended(proposal: Round, chance: random.Random) -> Round:
    """The round played: each table a random result, now and then a draw."""
    tables = []
    for table in proposal.tables:
        if chance.random() < 0.1:
            tables.append(Table(table.seats, Result((150, 150), None)))
            continue
        loser = chance.randrange(0, 200, 5)
        won = chance.randrange(2)
        tables.append(Table(table.seats, Result((200, loser) if won == 0 else (loser, 200), won)))
    return Round(tuple(tables), proposal.byes)


def history(event: Event) -> tuple[set, set, Counter]:
    """Who partnered, who faced whom (players, or pairs), and each entrant's byes."""
    partnered, faced, byes = set(), set(), Counter()
    for played in event.rounds:
        byes.update(tuple(b) if isinstance(b, list) else b for b in played.byes)
        for table in played.tables:
            ours, theirs = table.sides
            partnered |= {frozenset(ours), frozenset(theirs)}
            if event.format == PAIRS:
                faced.add(frozenset((frozenset(ours), frozenset(theirs))))
            else:
                faced |= {frozenset((x, y)) for x in ours for y in theirs}
    return partnered, faced, byes


def due_byes(event: Event, count: int) -> list:
    """§12: the lowest-placed who have not had a bye (then the fewest byes), as ranks: two
    sharing a rank are equally due."""
    _, _, had = history(event)
    rank = {s.entrant: s.rank for s in standings(event)}
    key = {e: (had[e], -rank[e]) for e in event.entrants}
    return sorted(sorted(key.values())[:count])


def bye_keys(event: Event, byes) -> list:
    _, _, had = history(event)
    rank = {s.entrant: s.rank for s in standings(event)}
    return sorted((had[e], -rank[e]) for e in byes)


# -- The exhaustive searches ------------------------------------------------------------------


def fewest_rotating(event: Event, players: list[str]) -> tuple[int, int]:
    """The fewest (repeated partnerships, opponents facing again) over every seating of
    ``players``: every way to split them into tables of four, each table its best split
    (a table's cost does not depend on the others, and adding costs keeps their order)."""
    partnered, faced, _ = history(event)

    @cache
    def table(four: frozenset) -> tuple[int, int]:
        a, b, c, d = sorted(four)
        return min(
            (
                (frozenset((p, q)) in partnered) + (frozenset((r, s)) in partnered),
                sum(frozenset((x, y)) in faced for x in (p, q) for y in (r, s)),
            )
            for (p, q), (r, s) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
        )

    @cache
    def best(left: frozenset) -> tuple[int, int]:
        if not left:
            return (0, 0)
        first, *rest = sorted(left)
        return min(
            tuple(x + y for x, y in zip(table(frozenset((first, *three))),
                                        best(left - {first, *three}), strict=True))
            for three in combinations(rest, 3)
        )  # fmt: skip

    return best(frozenset(players))


def costs_rotating(event: Event, tables) -> tuple[int, int]:
    partnered, faced, _ = history(event)
    again = sum(frozenset(side) in partnered for t in tables for side in t.sides)
    opponents = sum(
        frozenset((x, y)) in faced for t in tables for x in t.sides[0] for y in t.sides[1]
    )
    return again, opponents


def meetings_of(tables) -> list[frozenset]:
    return [frozenset((frozenset(t.sides[0]), frozenset(t.sides[1]))) for t in tables]


def fewest_meetings(faced: set, pairs: list) -> int:
    """The fewest repeated meetings over every way to pair ``pairs`` off."""

    @cache
    def best(left: frozenset) -> int:
        if not left:
            return 0
        first, *rest = sorted(left, key=sorted)
        return min(
            (frozenset((first, other)) in faced) + best(left - {first, other}) for other in rest
        )

    return best(frozenset(frozenset(p) for p in pairs))


# -- Rotating -------------------------------------------------------------------------------


@EVENTS
@given(
    players=st.integers(4, 12),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 10**6),
    chance=st.randoms(use_true_random=False),
)
def test_rotating_repeats_no_partner_nor_opponent_a_search_could_avoid(
    players, rounds, seed, chance
):
    event = Event(ROTATING, NAMES[:players], seed=seed)
    for _ in range(rounds):
        proposal = seat(event)
        tables, byes = proposal.round.tables, proposal.round.byes
        seated = [p for t in tables for p in t.seats]
        assert sorted(seated + list(byes)) == sorted(event.entrants)
        assert bye_keys(event, byes) == due_byes(event, players % 4)
        assert costs_rotating(event, tables) == fewest_rotating(event, seated)
        assert len(proposal.warnings) == costs_rotating(event, tables)[0]
        assert check(event, proposal.round) == proposal
        assert seat(Event(ROTATING, tuple(reversed(event.entrants)), event.rounds, seed=seed)) == (
            proposal
        )
        swap_and_judge(event, proposal.round, chance)
        event = event.with_round(ended(proposal.round, chance))


def swap_and_judge(event: Event, proposal: Round, chance: random.Random) -> None:
    """Swap two of the round's players (seated or sitting out): ``check`` refuses exactly
    when the byes are no longer due, or when the seating repeats more partnerships than the
    search's fewest; a refusal of partners is lifted by confirming."""
    places = [p for t in proposal.tables for p in t.seats] + list(proposal.byes)
    i, j = chance.sample(range(len(places)), 2)
    places[i], places[j] = places[j], places[i]
    count = len(proposal.tables) * 4
    swapped = Round(
        tuple(Table(tuple(places[k : k + 4])) for k in range(0, count, 4)), tuple(places[count:])
    )
    byes_due = bye_keys(event, swapped.byes) == due_byes(event, len(swapped.byes))
    again, _ = costs_rotating(event, swapped.tables)
    fewest, _ = fewest_rotating(event, places[:count])
    if byes_due and again <= fewest:
        assert len(check(event, swapped).warnings) == again
        return
    with pytest.raises(IllegalAction) as caught:
        check(event, swapped)
    assert caught.value.rule == "event.seat"
    if byes_due:
        assert "Confirm to seat them so anyway." in caught.value.message
        assert len(check(event, swapped, confirmed=True).warnings) == again
    else:
        assert caught.value.message.startswith("The bye")


@settings(max_examples=max(3, settings.default.max_examples // 10), deadline=None)
@given(players=st.sampled_from([16, 20, 24]), seed=st.integers(0, 10**6))
def test_rotating_spreads_opponents_over_a_longer_night(players, seed):
    """With four or five tables and as many rounds as a club plays, nobody partners anyone
    twice and nobody faces anyone twice for as long as (players - 1) / 3 rounds allow: each
    round brings a player one partner and two opponents, all new."""
    chance = random.Random(seed)
    event = Event(ROTATING, tuple(f"P{n:02}" for n in range(players)), seed=seed)
    for _ in range(4):
        proposal = seat(event)
        assert costs_rotating(event, proposal.round.tables) == (0, 0)
        event = event.with_round(ended(proposal.round, chance))


# -- Swiss ----------------------------------------------------------------------------------


@EVENTS
@given(
    pairs=st.integers(2, 12),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 10**6),
    chance=st.randoms(use_true_random=False),
)
def test_swiss_meets_the_highest_placed_pair_not_met_and_repeats_no_avoidable_meeting(
    pairs, rounds, seed, chance
):
    event = Event(PAIRS, PAIRED[:pairs], pairing=SWISS, seed=seed)
    for _ in range(rounds):
        proposal = seat(event)
        _, faced, _ = history(event)
        tables, byes = proposal.round.tables, proposal.round.byes
        assert bye_keys(event, byes) == due_byes(event, pairs % 2)
        met = meetings_of(tables)
        order = [frozenset(s.entrant) for s in standings(event) if s.entrant not in byes]
        allowed = fewest_meetings(faced, order)
        assert sum(m in faced for m in met) == allowed == len(proposal.warnings)
        # Taken in order of the standings: each table's first pair meets the highest-placed
        # below it that it has not met, unless the pairs below could then not be seated
        # with as few repeats.
        left = list(order)
        for table, meeting in zip(tables, met, strict=True):
            top, other = frozenset(table.sides[0]), frozenset(table.sides[1])
            assert top == left[0] and meeting == {top, other}
            again = meeting in faced
            for above in left[1 : left.index(other)]:
                repeat = frozenset((top, above)) in faced
                rest = [u for u in left if u not in (top, above)]
                assert (repeat and not again) or (
                    repeat + fewest_meetings(faced, rest) > allowed
                ), (above, other)
            allowed -= again
            left = [u for u in left if u not in (top, other)]
        assert check(event, proposal.round) == proposal
        event = event.with_round(ended(proposal.round, chance))


# -- Round robin ------------------------------------------------------------------------------


@EVENTS
@given(
    pairs=st.integers(2, 12), seed=st.integers(0, 10**6), chance=st.randoms(use_true_random=False)
)
def test_a_round_robin_meets_every_pair_exactly_once_whatever_the_organizer_swaps(
    pairs, seed, chance
):
    """Each round the organizer may swap two pairs between tables, as often as the referee
    accepts: every pair still meets every other exactly once, in the fixed number of rounds,
    and with an odd number each sits out once, the lowest-placed first."""
    event = Event(PAIRS, PAIRED[:pairs], pairing=ROUND_ROBIN, seed=seed)
    for _ in range(round_robin_rounds(pairs)):
        proposal = seat(event).round
        assert bye_keys(event, proposal.byes) == due_byes(event, pairs % 2)
        for _ in range(chance.randrange(4)):
            if len(proposal.tables) < 2:
                break
            tables = [list(t.seats) for t in proposal.tables]
            x, y = chance.sample(range(len(tables)), 2)
            sx, sy = chance.randrange(2), chance.randrange(2)
            for k in (0, 2):
                tables[x][sx + k], tables[y][sy + k] = tables[y][sy + k], tables[x][sx + k]
            swapped = Round(tuple(Table(tuple(t)) for t in tables), proposal.byes)
            _, faced, _ = history(event)
            try:
                check(event, swapped)
            except IllegalAction as refused:
                assert refused.rule == "event.seat"
                if any(m in faced for m in meetings_of(swapped.tables)):
                    assert "every pair meets every other exactly once" in refused.message
                else:
                    assert "cannot be finished" in refused.message
            else:
                assert not any(m in faced for m in meetings_of(swapped.tables))
                proposal = swapped
        event = event.with_round(ended(proposal, chance))
    met = [m for r in event.rounds for m in meetings_of(r.tables)]
    assert len(met) == len(set(met)) == pairs * (pairs - 1) // 2
    _, _, byes = history(event)
    assert sorted(byes.values()) == ([1] * pairs if pairs % 2 else [])
    with pytest.raises(IllegalAction, match="The round robin is complete"):
        seat(event)


# -- Standings ------------------------------------------------------------------------------


@EVENTS
@given(
    players=st.integers(4, 40),
    rounds=st.integers(0, 6),
    seed=st.integers(0, 10**6),
    chance=st.randoms(use_true_random=False),
)
def test_standings_add_up_and_rank_as_competitions_do(players, rounds, seed, chance):
    event = Event(ROTATING, tuple(f"P{n:02}" for n in range(players)), seed=seed)
    for _ in range(rounds):
        event = event.with_round(ended(seat(event).round, chance))
    rows = standings(event)
    tables = sum(len(r.tables) for r in event.rounds)
    byes = sum(len(r.byes) for r in event.rounds)
    assert sum(s.wins for s in rows) == 2 * tables + byes  # a draw: four halves
    assert sum(s.efectividad for s in rows) == 0
    assert sum(s.played for s in rows) == 4 * tables
    assert [s.rank for s in rows][:1] in ([], [1])
    for n, (above, below) in enumerate(zip(rows, rows[1:], strict=False), 1):
        assert above.key >= below.key
        assert below.rank == above.rank or below.rank == n + 1
        if below.rank == above.rank:
            assert below.key == above.key
    # Recomputed from the same rounds, listed in another order, they are the same.
    again = Event(ROTATING, tuple(reversed(event.entrants)), event.rounds, seed=seed)
    assert standings(again) == rows
    # A series of the one event holds the same figures, by player.
    summed = {s.player: s for s in series([event, event])}
    for s in rows:
        if s.played or s.byes:
            assert summed[s.entrant].wins == 2 * s.wins and summed[s.entrant].events == 2


# -- The matching the seatings rest on -------------------------------------------------------


@settings(max_examples=max(50, settings.default.max_examples * 2), deadline=None)
@given(st.integers(1, 11).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))),
)))  # fmt: skip
def test_the_largest_matching_is_as_large_as_trying_every_pairing(graph):
    n, pairs = graph
    edges = {frozenset(e) for e in pairs if e[0] != e[1]}
    near = [[v for v in range(n) if frozenset((u, v)) in edges] for u in range(n)]

    @cache
    def largest(left: frozenset) -> int:
        if not left:
            return 0
        first = min(left)
        rest = left - {first}
        return max([largest(rest)] + [1 + largest(rest - {v}) for v in near[first] if v in rest])

    assert _maximum_matching(near) == largest(frozenset(range(n)))
