"""make bench, club nights: what seating a round and ranking an event cost at a world
championship's size (issue 32), in the referee alone.

An event of 800 players (200 tables, ``rotating``) is played round after round: ``seat``
proposes, every table gets a seeded random result (the winners at 200, the losers anywhere
from 0 to 195, now and then a draw), and the next round is seated from the standings. The
figures are the median of several timings of ``seat`` at round 10 (nine rounds played), of
``check`` on that seating, and of ``standings`` once round 10 has ended (2,000 matches); the
slowest seating of the ten rounds; and, for the seating's quality, how many partners and
opponents met again. A Swiss of 136 pairs (an FID event's size) is timed the same way.

The app adds its queries to these (``make bench``'s page timings); no timing is asserted
anywhere: ``bench/run.py`` compares the figures with their budgets (``event_seat_ms`` 1 s,
``event_standings_ms`` 50 ms). Run alone: ``python bench/events.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.events import (  # noqa: E402
    PAIRS,
    ROTATING,
    SWISS,
    Event,
    Result,
    Round,
    Table,
    check,
    seat,
    standings,
)

PLAYERS = 800
SWISS_PAIRS = 136
ROUNDS = 10


def median_ms(run: Callable[[], object], times: int) -> float:
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        spent.append(time.perf_counter() - started)
    return statistics.median(spent) * 1000


def played(proposal: Round, chance: random.Random) -> Round:
    tables = []
    for table in proposal.tables:
        if chance.random() < 0.02:
            tables.append(Table(table.seats, Result((150, 150), None)))
            continue
        loser, won = chance.randrange(0, 200, 5), chance.randrange(2)
        tables.append(Table(table.seats, Result((200, loser) if won == 0 else (loser, 200), won)))
    return Round(tuple(tables), proposal.byes)


def met_again(event: Event, proposal: Round) -> tuple[int, int]:
    """How many partnerships and how many opponents the seating repeats (with pairs:
    none, and how many meetings)."""
    partners, faced = set(), set()
    for past in event.rounds:
        for table in past.tables:
            ours, theirs = table.sides
            partners |= {frozenset(ours), frozenset(theirs)}
            if event.format == PAIRS:
                faced.add(frozenset((frozenset(ours), frozenset(theirs))))
            else:
                faced |= {frozenset((x, y)) for x in ours for y in theirs}
    if event.format == PAIRS:
        met = [frozenset((frozenset(t.sides[0]), frozenset(t.sides[1]))) for t in proposal.tables]
        return 0, sum(m in faced for m in met)
    again = sum(frozenset(side) in partners for t in proposal.tables for side in t.sides)
    opponents = sum(
        frozenset((x, y)) in faced for t in proposal.tables for x in t.sides[0] for y in t.sides[1]
    )
    return again, opponents


def night(event: Event, seed: int) -> dict:
    """Play ``ROUNDS`` rounds of ``event``, timing the last seating, its check and the
    standings at the end."""
    chance = random.Random(seed)
    slowest = 0.0
    for _ in range(ROUNDS - 1):
        started = time.perf_counter()
        proposal = seat(event).round
        slowest = max(slowest, time.perf_counter() - started)
        event = event.with_round(played(proposal, chance))
    seat_ms = median_ms(lambda: seat(event), 5)
    proposal = seat(event).round
    again, opponents = met_again(event, proposal)
    out = {
        "seat_ms": seat_ms,
        "slowest_seat_ms": max(slowest * 1000, seat_ms),
        "check_ms": median_ms(lambda: check(event, proposal), 5),
        "tables": len(proposal.tables),
        "repeated_partners": again,
        "repeated_opponents": opponents,  # with pairs: meetings
    }
    event = event.with_round(played(proposal, chance))
    out["standings_ms"] = median_ms(lambda: standings(event), 30)
    out["matches"] = sum(len(r.tables) for r in event.rounds)
    return out


def figures(seed: int = 10) -> dict:
    rotating = Event(ROTATING, tuple(f"Player {n:03}" for n in range(PLAYERS)), seed=seed)
    pairs = tuple((f"Pair {n:03} A", f"Pair {n:03} B") for n in range(SWISS_PAIRS))
    swiss = Event(PAIRS, pairs, pairing=SWISS, seed=seed)
    out = {"rotating_800": night(rotating, seed), "swiss_136": night(swiss, seed)}
    out["event_seat_ms"] = out["rotating_800"]["seat_ms"]
    out["event_standings_ms"] = out["rotating_800"]["standings_ms"]
    return out


def main() -> None:
    found = figures()
    for name in ("rotating_800", "swiss_136"):
        f = found[name]
        print(
            f"{name:<13} {f['tables']} tables: seat round {ROUNDS} {f['seat_ms']:7.1f} ms "
            f"(slowest {f['slowest_seat_ms']:.1f}), check {f['check_ms']:6.1f} ms, standings "
            f"of {f['matches']} matches {f['standings_ms']:5.1f} ms; met again: "
            f"{f['repeated_partners']} partners, {f['repeated_opponents']} opponents"
        )
    print("\nbudgets: seat <= 1000 ms, standings <= 50 ms")


if __name__ == "__main__":
    main()
