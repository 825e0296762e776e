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

from referee.events.history import series, standings
from referee.events.matching import _maximum_matching
from referee.events.seating import SEARCH_STEPS, check, round_robin_rounds, seat
from referee.events.values import (
    FORMATS,
    PAIRINGS,
    PAIRS,
    ROTATING,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Event,
    Pair,
    Record,
    Result,
    Round,
    Seating,
    Seats,
    SeriesStanding,
    Standing,
    Table,
)

__all__ = [
    "FORMATS",
    "PAIRINGS",
    "PAIRS",
    "ROTATING",
    "ROUND_ROBIN",
    "SEARCH_STEPS",
    "SWISS",
    "Entrant",
    "Event",
    "Pair",
    "Record",
    "Result",
    "Round",
    "Seating",
    "Seats",
    "SeriesStanding",
    "Standing",
    "Table",
    "_maximum_matching",
    "check",
    "round_robin_rounds",
    "seat",
    "series",
    "standings",
]
