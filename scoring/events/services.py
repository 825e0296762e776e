"""The only code that writes an event: make it, enter and withdraw entrants, seat a round,
swap seats, start the round (every table's match), call time, close the round; and the one
read of an event that every screen builds on (:func:`read`).

Every write claims the event's version first, in its transaction, as a tap claims a
match's (scoring.services): a form drawn from an older event is refused (Stale), and the
same form sent twice is answered as done. Results and standings are never stored: each
table's result is read from its match, and the referee of events (referee.events) ranks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Max, Sum, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext

from referee import PRESETS, IllegalAction, InvalidAction, parse_action
from referee import events as referee
from referee.document import check_players, name_key
from referee.games import engine
from referee.said import Said
from scoring import live, services
from scoring.caches import WeighedCache
from scoring.events.models import Entrant, Event, EventRound, EventTable, Series
from scoring.models import Match, Round
from scoring.services import Stale
from scoring.speech import say

MOST_ENTRANTS = 1000  # a world championship's 800 players fit
MOST_ROUNDS = 30
TIME_LIMITS = (20, 30, 40, 45, 50, 60, 75, 90)


def event_topic(pk: int) -> str:
    return f"event:{pk}"


def event_games() -> list[Any]:
    """The games an event may play: four in two pairs (§11's styles, or a §8 game that
    offers ``partnerships``)."""
    return [
        game
        for game in PRESETS.values()
        if game.players[0] <= 4 <= game.players[1]
        and (any(o.name == "partnerships" for o in game.options) or game.fixed.get("partnerships"))
    ]


def supports_time(game: str) -> bool:
    """Whether the game knows ``parejas.time``: a ``time_limit`` house rule and the
    ``time`` action (RULES.md §11). A game without it plays each table to its target."""
    if not any(o.name == "time_limit" for o in PRESETS[game].options):
        return False
    try:
        parse_action({"type": "time"}, PRESETS[game].family)
    except InvalidAction:
        return False
    return True


# -- Reading an event ----------------------------------------------------------------------


@dataclass(frozen=True)
class EntrantView:
    """An entrant as every screen reads it: 800 model instances cost more than their rows."""

    pk: int
    first: str
    second: str
    withdrawn: bool

    @property
    def unit(self) -> str | tuple[str, str]:
        """As the referee of events names it (``Entrant.unit``)."""
        return (self.first, self.second) if self.second else self.first


@dataclass
class TableView:
    """A table of a round, and what its match says so far."""

    pk: int
    number: int
    seats: list[str]
    match_id: int | None = None
    status: str = ""
    totals: tuple[int, int] = (0, 0)
    result: referee.Result | None = None
    hand: int = 0  # the hand being played (rounds of the match begun)
    version: int = 0
    keep_token: str = ""
    watch_token: str = ""

    @property
    def finished(self) -> bool:
        return self.status == Match.FINISHED

    @property
    def sides(self) -> tuple[tuple[str, str], tuple[str, str]]:
        return (self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])


@dataclass
class RoundView:
    row: EventRound
    tables: list[TableView] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.row.number

    @property
    def started(self) -> bool:
        return self.row.started_at is not None

    @property
    def closed(self) -> bool:
        return self.row.closed_at is not None

    @property
    def all_finished(self) -> bool:
        return bool(self.tables) and all(t.finished for t in self.tables)

    def ends_at(self, event: Event) -> datetime | None:
        if not self.started or not event.time_limit:
            return None
        return self.row.started_at + timedelta(minutes=event.time_limit)

    def referee_round(self) -> referee.Round:
        tables = tuple(referee.Table(tuple(t.seats), t.result) for t in self.tables)
        return referee.Round(tables, tuple(_unit(b) for b in self.row.byes))


@dataclass
class Night:
    """An event as every screen reads it: five queries whatever its size (read)."""

    event: Event
    entrants: list[EntrantView]
    rounds: list[RoundView]  # started rounds, then the one seated but not started, if any

    @property
    def played(self) -> list[RoundView]:
        return [r for r in self.rounds if r.started]

    @property
    def draft(self) -> RoundView | None:
        return next((r for r in self.rounds if not r.started), None)

    @property
    def current(self) -> RoundView | None:
        """The round in play: started and not closed."""
        return next((r for r in self.played if not r.closed), None)

    @property
    def last(self) -> RoundView | None:
        return self.played[-1] if self.played else None

    @property
    def active(self) -> list[EntrantView]:
        return [e for e in self.entrants if not e.withdrawn]

    @property
    def version(self) -> int:
        """What the board shows moves with the event and with every table's match: both
        only grow, so their sum names what a board shows (the live stream's cursor)."""
        return self.event.version + sum(t.version for r in self.rounds for t in r.tables)

    @property
    def rounds_total(self) -> int:
        return self.event.rounds_planned

    @property
    def match_ids(self) -> list[int]:
        return [t.match_id for r in self.rounds for t in r.tables if t.match_id]

    def referee_event(self, rounds: list[RoundView] | None = None) -> referee.Event:
        """The event as the referee of events sees it: the active entrants, the rounds
        started (each table's result from its match), the seed."""
        event = self.event
        played = self.played if rounds is None else rounds
        return referee.Event(
            event.format,
            tuple(e.unit for e in self.active),
            tuple(r.referee_round() for r in played),
            pairing=event.pairing,
            seed=event.seed,
        )

    def standings(self) -> tuple[referee.Standing, ...]:
        """Ranked by the referee of events from the results as they are now. A tap at one of
        200 tables moves the event's version but changes no result (a table's result is its
        match's once finished): the standings of the same results are not ranked twice in a
        process. The key is everything :meth:`referee_event` reads, so it is a computation
        from the matches remembered, never standings stored apart from them."""
        event = self.event
        key = (
            event.pk, event.format, event.pairing, event.seed,
            tuple(e.unit for e in self.active),
            tuple(
                (tuple(_unit(b) for b in r.row.byes),
                 tuple((tuple(t.seats), t.result) for t in r.tables))
                for r in self.played
            ),
        )  # fmt: skip
        kept = RANKED.get(key)
        if kept is None:
            kept = referee.standings(self.referee_event())
            RANKED.put(key, kept, weight=1)
        return kept

    @property
    def over(self) -> bool:
        """Every round planned has been played and closed."""
        return self.current is None and len(self.played) >= self.rounds_total

    @property
    def can_seat(self) -> bool:
        """A new round may be seated: none in play, and rounds left to play."""
        return self.current is None and len(self.played) < self.rounds_total


# The standings of the last results ranked, by everything the ranking reads (Night.standings).
RANKED: WeighedCache[tuple[referee.Standing, ...]] = WeighedCache(budget=16)  # 16 rankings


@lru_cache(maxsize=1 << 15)
def _parsed(text: str) -> Any:
    """A table's seats or a match's totals, as stored (JSON): the same few thousand texts come
    back on every read of an event, and decoding them was a fifth of a 200-table board's time.
    Callers copy what they keep."""
    return json.loads(text)


def read(event: Event) -> Night:
    """The event, its entrants, its rounds and their tables with what each match says: five
    queries, whatever the event's size (the standings are computed from them).

    A closed round's tables are read once a process and kept (``CLOSED``) until one of their
    matches moves (a correction, §7: its version grows, so their sum does): at round 10 of a
    world championship the board read 2,000 tables a request, 1,800 of them unchanged since
    they closed. The round on screen (the one in play, else the last closed) is read every
    time: its links are shown, and New links at a table changes them without a new version;
    so is a closed round with a match a correction has reopened (its hand is shown)."""
    found = Entrant.objects.filter(event=event).order_by("pk")
    entrants = [EntrantView(*e) for e in found.values_list("pk", "first", "second", "withdrawn")]
    rows = list(EventRound.objects.filter(event=event).order_by("number"))
    rounds = {row.pk: RoundView(row) for row in rows}
    tables = EventTable.objects.filter(round__event=event)
    closed = tuple(row.pk for row in rows if row.closed_at is not None)
    in_play = any(row.started_at is not None and row.closed_at is None for row in rows)
    old = closed if in_play else closed[:-1]
    kept: list[tuple[int, TableView]] | None = []
    fresh: list[tuple[int, TableView]] = []
    if old:
        moved = tables.filter(round_id__in=old).aggregate(
            versions=Sum("match__version"), tables=Count("pk")
        )
        key = (event.pk, event.watch_token, old, moved["versions"], moved["tables"])
        kept = CLOSED.get(key)
        if kept is None:
            kept = _table_views(tables.filter(round_id__in=old))
            if all(view.finished for _, view in kept):
                CLOSED.put(key, kept, weight=1)
            else:
                fresh, kept = kept, []
        tables = tables.exclude(round_id__in=old)
    fresh += _table_views(tables)
    for round_id, view in kept + fresh:
        rounds[round_id].tables.append(view)
    playing = [v.match_id for _, v in fresh if v.match_id is not None and not v.finished]
    if playing:
        hands = dict(
            Round.objects.filter(match_id__in=playing)
            .values("match_id")
            .annotate(n=Max("number"))
            .values_list("match_id", "n")
        )
        for _, view in fresh:
            view.hand = hands.get(view.match_id, 0)
    return Night(event, entrants, list(rounds.values()))


# The tables of closed rounds as last read, by event and what their matches' versions add up
# to (read). Shared by every request of the process: read only.
CLOSED: WeighedCache[list[tuple[int, TableView]]] = WeighedCache(budget=16)  # 16 events


def _table_views(tables) -> list[tuple[int, TableView]]:
    """Each table of ``tables`` (EventTable rows) with what its match says, and its round."""
    fields = (
        "pk", "round_id", "number", "seats_text", "match_id", "match__status", "totals_text",
        "match__winner", "match__shared", "match__version", "match__keep_token",
        "match__watch_token",
    )  # fmt: skip
    rows = (
        tables.order_by("round__number", "number")
        .annotate(  # as text, decoded by _parsed
            seats_text=Cast("seats", TextField()), totals_text=Cast("match__totals", TextField())
        )
        .values_list(*fields)
    )
    views = []
    for pk, round_id, number, seats, match_id, status, totals, winner, shared, *rest in rows:
        view = TableView(pk, number, list(_parsed(seats)), match_id)
        if match_id is not None:
            view.status, (view.version, view.keep_token, view.watch_token) = status, rest
            view.totals = _sides(_parsed(totals))
            if status == Match.FINISHED:
                view.result = _result(view.totals, _winning_side(winner, shared))
        views.append((round_id, view))
    return views


@lru_cache(maxsize=1 << 12)
def _result(totals: tuple[int, int], side: int | None) -> referee.Result:
    """A finished table's result (immutable, checked once for each score it can hold)."""
    return referee.Result(totals, side)


def version_of(event_id: int) -> int:
    """What :attr:`Night.version` says, in one query and without reading the event (-1: no
    such event): an unchanged poll of a 200-table event at round 10 read 2,000 tables to
    answer 204."""
    row = (
        Event.objects.filter(pk=event_id)
        .annotate(tables=Sum("rounds__tables__match__version"))
        .values_list("version", "tables")
        .first()
    )
    return -1 if row is None else row[0] + (row[1] or 0)


def _sides(totals: list[int]) -> tuple[int, int]:
    """Each pair's total: seats 0 and 2, seats 1 and 3 (``team.score``)."""
    if len(totals) != 4:
        return (0, 0)
    return (totals[0] + totals[2], totals[1] + totals[3])


def _winning_side(winner: int | None, shared: str) -> int | None:
    """The pair that won the match, or None for a drawn one (``parejas.time``; a match
    stopped as abandoned, which nobody won, counts as drawn too)."""
    if winner is None or shared:
        return None
    return winner % 2


def _unit(entrant: Any) -> str | tuple[str, str]:
    return tuple(entrant) if isinstance(entrant, list) else entrant  # type: ignore[return-value]


def name_of(unit: Any) -> str:
    if isinstance(unit, (tuple, list)):
        return say(Said("{first} & {then}", first=unit[0], then=unit[1]))
    return str(unit)


# -- Writing -------------------------------------------------------------------------------


def _claim(event_id: int, version: int, key: str) -> bool:
    """Move the event on from ``version`` (every write claims it first) and tell every open
    board; False when this very form did it before (its answer was lost). Raises Stale when
    another change came first."""
    services._check_key(key, 48)
    claimed = Event.objects.filter(pk=event_id, version=version).update(
        version=F("version") + 1, last_key=key, updated_at=timezone.now()
    )
    if claimed:
        live.publish(event_topic(event_id), "changed")
        return True
    now = Event.objects.filter(pk=event_id).values_list("last_key", flat=True).first()
    if now == key:
        return False
    raise Stale(
        gettext("The event changed since this screen was drawn; here it is now. Nothing was done.")
    )


def create_event(
    name: str,
    game: str,
    options: dict[str, Any],
    format: str,
    pairing: str,
    rounds: int | None,
    time_limit: int | None,
    entrants: list[Any],
    series: str = "",
) -> Event:
    """A new event (``event.make``); raises InvalidAction for a bad game, format, house
    rule or list of entrants."""
    name = name.strip()
    if not name or len(name) > 80:
        raise InvalidAction(gettext("Give the event a name (80 characters at most)."))
    if game not in {g.slug for g in event_games()}:
        raise InvalidAction(
            gettext("An event plays a game of four in two pairs; {game} is not one.").format(
                game=repr(game)
            )
        )
    if format == referee.PAIRS and pairing == referee.ROUND_ROBIN:
        rounds = referee.round_robin_rounds(max(len(entrants), 2))
    if rounds is None or not 1 <= rounds <= MOST_ROUNDS:
        raise InvalidAction(gettext("An event plays 1 to {most} rounds.").format(most=MOST_ROUNDS))
    if time_limit is not None and time_limit not in TIME_LIMITS:
        raise InvalidAction(gettext("Choose a round's time limit from the list, or none."))
    options = {**options, "partnerships": True}
    if time_limit and supports_time(game):
        options["time_limit"] = time_limit
    checked = engine(game).options_for(game, options, 4)
    units = _checked_entrants(format, pairing, entrants)
    with transaction.atomic():
        group = None
        if series.strip():
            group, _ = Series.objects.get_or_create(name=series.strip()[:80])
        event = Event.objects.create(
            name=name, game=game, options=checked, format=format, pairing=pairing,
            rounds_planned=rounds, time_limit=time_limit, series=group,
        )  # fmt: skip
        Entrant.objects.bulk_create(_entrant_row(event, unit) for unit in units)
    return event


def _checked_entrants(format: str, pairing: str, entrants: list[Any]) -> tuple[Any, ...]:
    """The entrants as the referee of events takes them (``event.make``: every name once,
    each pair two players), each name as a table writes it; two names a table would hear
    as one (``Ana`` and ``ana``) are one player entered twice."""
    if len(entrants) > MOST_ENTRANTS:
        raise InvalidAction(
            gettext("An event takes {most} entrants at most.").format(most=MOST_ENTRANTS)
        )
    units: list[Any] = []
    heard: dict[str, str] = {}
    for unit in entrants:
        names = check_players(list(unit) if isinstance(unit, (tuple, list)) else [unit], "block")
        for name in names:
            if heard.setdefault(name_key(name), name) != name:
                raise InvalidAction(Said("{who} is entered twice.", who=name), "event.make")
        units.append(names if isinstance(unit, (tuple, list)) else names[0])
    return referee.Event(format, tuple(units), pairing=pairing).entrants


def _entrant_row(event: Event, unit: Any) -> Entrant:
    if isinstance(unit, tuple):
        return Entrant(event=event, first=unit[0], second=unit[1])
    return Entrant(event=event, first=unit)


def add_entrants(event_id: int, entrants: list[Any], version: int, key: str) -> bool:
    """Enter more players or pairs between rounds (a round seated and not started is
    seated again)."""
    with transaction.atomic():
        if not _claim(event_id, version, key):
            return False
        event = Event.objects.get(pk=event_id)
        night = read(event)
        _between_rounds(night)
        if not entrants:
            raise InvalidAction(gettext("Name someone to enter."))
        if event.format == referee.PAIRS and event.pairing == referee.ROUND_ROBIN and night.played:
            raise IllegalAction(
                "event.seat",
                gettext(
                    "A round robin that has begun takes no new pair: they could not meet "
                    "every other pair once."
                ),
            )
        everyone = [e.unit for e in night.entrants] + list(entrants)
        units = _checked_entrants(event.format, event.pairing, everyone)
        Entrant.objects.bulk_create(_entrant_row(event, u) for u in units[len(night.entrants) :])
        _drop_draft(night)
        if event.format == referee.PAIRS and event.pairing == referee.ROUND_ROBIN:
            event.rounds_planned = referee.round_robin_rounds(len(units))
            event.save(update_fields=["rounds_planned"])
    return True


def withdraw(event_id: int, entrant_id: int, version: int, key: str) -> bool:
    """An entrant leaves between rounds and keeps its results; seated no more."""
    with transaction.atomic():
        if not _claim(event_id, version, key):
            return False
        night = read(Event.objects.get(pk=event_id))
        _between_rounds(night)
        if not Entrant.objects.filter(pk=entrant_id, event_id=event_id).update(withdrawn=True):
            raise InvalidAction(gettext("No such entrant in this event."))
        _drop_draft(night)
    return True


def _between_rounds(night: Night) -> None:
    if night.current is not None:
        raise IllegalAction(
            "event.round",
            gettext(
                "Round {n} is being played: entrants come and go between rounds, once it is closed."
            ).format(n=night.current.number),
        )
    if night.over:  # nobody is seated again: a late entry or a withdrawal would change nothing
        raise IllegalAction(
            "event.round",
            gettext("The event is over: its {n} rounds are played.").format(n=night.rounds_total),
        )


def _drop_draft(night: Night) -> None:
    """Who is entered changed: a round seated for the others is seated again."""
    if night.draft is not None:
        night.draft.row.delete()


def propose(event_id: int, version: int, key: str) -> bool:
    """Seat the next round as ``event.seat`` proposes it (a round seated and not started
    is seated anew: the same proposal for the same event, its seed kept)."""
    with transaction.atomic():
        if not _claim(event_id, version, key):
            return False
        night = read(Event.objects.get(pk=event_id))
        if night.current is not None:
            raise IllegalAction(
                "event.round",
                gettext(
                    "Round {n} is still being played: close it once every table has finished."
                ).format(n=night.current.number),
            )
        if len(night.played) >= night.rounds_total:
            raise IllegalAction(
                "event.round",
                gettext("Every round of the event has been played; see the standings."),
            )
        seating = referee.seat(night.referee_event())
        _drop_draft(night)
        _store_draft(night.event, len(night.played) + 1, seating.round)
    return True


def _store_draft(event: Event, number: int, round: referee.Round) -> EventRound:
    row = EventRound.objects.create(
        event=event, number=number, byes=[_plain(b) for b in round.byes]
    )
    EventTable.objects.bulk_create(
        EventTable(round=row, number=n, seats=list(t.seats)) for n, t in enumerate(round.tables, 1)
    )
    return row


def _plain(unit: Any) -> Any:
    return list(unit) if isinstance(unit, tuple) else unit


@dataclass(frozen=True)
class Judged:
    """A seated round as the referee of events judges it: its warnings, and the refusal
    the organizer must confirm past (a repeat some other seating avoids), if any."""

    warnings: tuple[Said, ...]
    refusal: IllegalAction | None


def judge(night: Night) -> Judged | None:
    """The seated round's warnings; raises IllegalAction when no confirmation can make it
    right (a bye to the wrong entrant, someone seated twice)."""
    draft = night.draft
    if draft is None:
        return None
    event, round = night.referee_event(), draft.referee_round()
    try:
        return Judged(referee.check(event, round).warnings, None)
    except IllegalAction as refusal:
        seating = referee.check(event, round, confirmed=True)
        return Judged(seating.warnings, refusal)


def places(night: Night) -> list[tuple[str, str]]:
    """Every place of the seated round that can be swapped, as (value, label): each seat
    (each side, with pairs) and each bye."""
    draft = night.draft
    if draft is None:
        return []
    pairs = night.event.format == referee.PAIRS
    out = []
    for table in draft.tables:
        if pairs:
            for side, (a, b) in enumerate(table.sides):
                label = gettext("Table {table}: {who}").format(
                    table=table.number, who=name_of((a, b))
                )
                out.append((f"{table.number}.{side}", label))
        else:
            for seat, who in enumerate(table.seats):
                label = gettext("Table {table}: {who}").format(table=table.number, who=who)
                out.append((f"{table.number}.{seat}", label))
    for n, bye in enumerate(draft.row.byes):
        out.append((f"bye.{n}", gettext("Bye: {who}").format(who=name_of(bye))))
    return out


def swap(event_id: int, one: str, other: str, version: int, key: str) -> bool:
    """Swap two places of the round seated and not started (two seats; with pairs, two
    pairs). A seating no confirmation could make right is refused; a repeat some other
    seating avoids is kept, and Start then asks the organizer to confirm it."""
    with transaction.atomic():
        if not _claim(event_id, version, key):
            return False
        night = read(Event.objects.get(pk=event_id))
        draft = night.draft
        if draft is None:
            raise IllegalAction("event.seat", gettext("No round is seated: seat one first."))
        if one == other:
            raise InvalidAction(gettext("Choose two different places to swap."))
        tables = {t.number: t for t in draft.tables}
        byes = list(draft.row.byes)
        pairs = night.event.format == referee.PAIRS

        def get(place: str) -> Any:
            table, seat = _place(place, tables, byes, pairs)
            if table is None:
                return byes[seat]
            if pairs:
                return [table.seats[seat], table.seats[seat + 2]]
            return table.seats[seat]

        def put(place: str, unit: Any) -> None:
            table, seat = _place(place, tables, byes, pairs)
            if table is None:
                byes[seat] = unit
            elif pairs:
                table.seats[seat], table.seats[seat + 2] = unit
            else:
                table.seats[seat] = unit

        a, b = get(one), get(other)
        put(one, b)
        put(other, a)
        draft.row.byes = byes
        judge(night)  # refuses what no confirmation could make right; rolls the swap back
        draft.row.save(update_fields=["byes"])
        for table in draft.tables:
            EventTable.objects.filter(pk=table.pk).update(seats=table.seats)
    return True


def _place(place: str, tables: dict, byes: list, pairs: bool) -> tuple[TableView | None, int]:
    head, _, tail = place.partition(".")
    if tail.isascii() and tail.isdecimal() and len(tail) < 4:
        n = int(tail)
        if head == "bye" and n < len(byes):
            return None, n
        if head.isascii() and head.isdecimal() and len(head) < 5 and int(head) in tables:
            if n < (2 if pairs else 4):
                return tables[int(head)], n
    raise InvalidAction(gettext("No such place in this round: {place}.").format(place=repr(place)))


def start(event_id: int, version: int, key: str, confirmed: bool = False) -> bool:
    """``event.round``: the seated round starts, one match per table with its seats, its
    pairs, the house rules and the time limit, each with its own share links."""
    with transaction.atomic():
        if not _claim(event_id, version, key):
            return False
        event = Event.objects.get(pk=event_id)
        night = read(event)
        draft = night.draft
        if draft is None:
            raise IllegalAction("event.round", gettext("No round is seated: seat one first."))
        judged = judge(night)
        if judged is not None and judged.refusal is not None and not confirmed:
            raise judged.refusal
        for table in draft.tables:
            match = services.create_match(event.game, table.seats, dict(event.options))
            EventTable.objects.filter(pk=table.pk).update(match=match)
        draft.row.started_at = timezone.now()
        draft.row.confirmed = bool(judged and judged.refusal)
        draft.row.save(update_fields=["started_at", "confirmed"])
    return True


def close(event_id: int, version: int, key: str) -> bool:
    """A round ends when every table's match has ended (``event.round``)."""
    with transaction.atomic():
        if not _claim(event_id, version, key):
            return False
        night = read(Event.objects.get(pk=event_id))
        current = night.current
        if current is None:
            raise IllegalAction("event.round", gettext("No round is being played."))
        playing = [t.number for t in current.tables if not t.finished]
        if playing:
            raise IllegalAction(
                "event.round",
                gettext(
                    "Table {tables} is still playing: a round ends when every table's match "
                    "has ended."
                ).format(tables=", ".join(map(str, playing))),
            )
        EventRound.objects.filter(pk=current.row.pk).update(closed_at=timezone.now())
    return True


def call_time(event_id: int, key: str, now: datetime | None = None) -> str:
    """Time for every table still playing once the round's clock has run out
    (``parejas.time``): each table's match records ``time`` with its own key, so the same
    call sent twice records nothing more. Says what was done."""
    services._check_key(key, 48)
    event = Event.objects.get(pk=event_id)
    night = read(event)
    current = night.current
    if current is None:
        raise IllegalAction("event.round", gettext("No round is being played."))
    ends = current.ends_at(event)
    if ends is None:
        raise IllegalAction("parejas.time", gettext("This event's rounds have no time limit."))
    if (now or timezone.now()) < ends:
        raise IllegalAction(
            "parejas.time",
            gettext("The round's time runs out at {time}; call time then.").format(
                time=timezone.localtime(ends).strftime("%H:%M")
            ),
        )
    if not supports_time(event.game):
        return gettext(
            "This game has no time rule (parejas.time): each table plays on to its target. "
            "Nothing was recorded."
        )
    called = 0
    for table in current.tables:
        if table.match_id is None or table.finished:
            continue
        match = Match.objects.get(pk=table.match_id)
        try:
            if services.record(match.pk, {"type": "time"}, match.version, f"{key}-{table.number}"):
                called += 1
        except (Stale, IllegalAction):
            continue  # a tap landed first, or the match ended meanwhile: the table calls it
    return gettext("Time called at {n} tables.").format(n=called)
