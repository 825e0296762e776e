"""An event as one document (MATCH_FORMAT.md, ``boneyard-event/1``): export, and an import
that trusts nothing: every table's match replayed by the referee, every round's seating
checked against ``event.seat`` as it stood before that round, the standings recomputed."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from referee import DocumentError, IllegalAction, InvalidAction
from referee import events as referee
from referee.said import Said
from scoring import services
from scoring.events.models import Entrant, Event, EventRound, EventTable
from scoring.events.services import _sides, _winning_side, create_event, read
from scoring.models import Match

FORMAT = "boneyard-event/1"


def export_event(event: Event) -> dict[str, Any]:
    """The event document with every started round's tables and their match documents,
    and the standings the referee of events computes."""
    night = read(event)
    options = dict(event.options)
    options.pop("time_limit", None)
    if event.time_limit:
        options["time_limit"] = event.time_limit
    matches = {m.pk: m for m in Match.objects.filter(pk__in=night.match_ids)}
    rounds = []
    for played in night.played:
        rounds.append(
            {
                "tables": [
                    {"seats": t.seats, "match": services.export_match(matches[t.match_id])}
                    for t in played.tables
                ],
                "byes": played.row.byes,
                **({"confirmed": True} if played.row.confirmed else {}),
                **({"closed": True} if played.closed else {}),
            }
        )
    document: dict[str, Any] = {
        "format": FORMAT,
        "name": event.name,
        "game": event.game,
        "options": options,
        "format_of_play": event.format,
        "pairing": event.pairing,
        "rounds_planned": event.rounds_planned,
        "seed": event.seed,
        "entrants": [_plain(e.unit) for e in night.active],
    }
    withdrawn = [_plain(e.unit) for e in night.entrants if e.withdrawn]
    if withdrawn:
        document["withdrawn"] = withdrawn
    if event.series_id:
        document["series"] = event.series.name
    document["rounds"] = rounds
    document["standings"] = [
        {
            "entrant": _plain(s.entrant), "rank": s.rank, "wins": s.wins,
            "efectividad": s.efectividad, "points_for": s.points_for,
            "points_against": s.points_against, "played": s.played, "byes": s.byes,
        }
        for s in night.standings()
    ]  # fmt: skip
    return document


def _plain(unit: Any) -> Any:
    return list(unit) if isinstance(unit, tuple) else unit


def _unit(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


class EventDocumentError(InvalidAction):
    """A document that cannot be imported; says where (round, table) and why."""


def _fail(where: str, problem: Any, rule: str | None = None) -> EventDocumentError:
    return EventDocumentError(Said("{where}: {why}", where=where, why=problem), rule)


def import_event(document: Any) -> Event:
    """Store an event document; raises EventDocumentError and stores nothing."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise EventDocumentError(Said("This is not a boneyard-event/1 document."))
    fields = ("name", "game", "format_of_play", "pairing", "rounds_planned", "entrants", "rounds")
    for name in fields:
        if name not in document:
            raise EventDocumentError(Said("The document has no {field}.", field=name))
    rounds = document["rounds"]
    options = document.get("options") or {}
    if not isinstance(rounds, list) or not isinstance(options, dict):
        raise EventDocumentError(Said("rounds is a list and options an object."))
    options = dict(options)
    time_limit = options.pop("time_limit", None)
    entrants = [_unit(e) for e in document["entrants"]]
    withdrawn = [_unit(e) for e in document.get("withdrawn", [])]
    try:
        with transaction.atomic():
            event = create_event(
                str(document["name"]), str(document["game"]), options,
                document["format_of_play"], document["pairing"], document["rounds_planned"],
                time_limit, entrants + withdrawn, str(document.get("series", "")),
            )  # fmt: skip
            seed = document.get("seed")
            if seed is not None:
                if not isinstance(seed, (str, int)) or not 0 < len(str(seed)) <= 32:
                    raise EventDocumentError(Said("seed is a word of 1 to 32 characters."))
                event.seed = str(seed)
            event.rounds_planned = document["rounds_planned"]
            event.save(update_fields=["seed", "rounds_planned"])
            if withdrawn:
                Entrant.objects.filter(
                    event=event, pk__in=[e.pk for e in event.entrants.all()[len(entrants) :]]
                ).update(withdrawn=True)
            _import_rounds(event, rounds)
            event.version = len(rounds)
            event.save(update_fields=["version"])
    except EventDocumentError:
        raise
    except (IllegalAction, InvalidAction) as problem:
        raise _fail("event", problem.message, problem.rule) from None
    return event


def _import_rounds(event: Event, rounds: list[Any]) -> None:
    before: list[referee.Round] = []
    every = [e.unit for e in Entrant.objects.filter(event=event).order_by("pk")]
    for number, played in enumerate(rounds, 1):
        where = f"round {number}"
        if not isinstance(played, dict) or not isinstance(played.get("tables"), list):
            raise _fail(where, Said("a round is an object with a list of tables."))
        byes = tuple(_unit(b) for b in played.get("byes", []))
        seatings = []
        for n, table in enumerate(played["tables"], 1):
            if not isinstance(table, dict) or "match" not in table:
                raise _fail(f"{where}, table {n}", Said("a table has its seats and its match."))
            try:
                seatings.append(referee.Table(tuple(table.get("seats") or ())))
            except InvalidAction as problem:
                raise _fail(f"{where}, table {n}", problem.message, problem.rule) from None
        present = {_key(u) for t in seatings for side in _units(event, t) for u in side}
        present |= {_key(b) for b in byes}
        here = referee.Event(
            event.format, tuple(u for u in every if _key(u) in present), tuple(before),
            pairing=event.pairing, seed=event.seed,
        )  # fmt: skip
        try:
            referee.check(here, referee.Round(tuple(seatings), byes), bool(played.get("confirmed")))
        except (IllegalAction, InvalidAction) as problem:
            raise _fail(where, problem.message, problem.rule) from None
        row = EventRound.objects.create(
            event=event, number=number, byes=[_plain(b) for b in byes],
            confirmed=bool(played.get("confirmed")), started_at=timezone.now(),
            closed_at=timezone.now() if played.get("closed") else None,
        )  # fmt: skip
        tables = []
        for n, (table, seating) in enumerate(zip(played["tables"], seatings, strict=True), 1):
            try:
                match = services.import_match(table["match"])
            except DocumentError as problem:
                raise _fail(f"{where}, table {n}", problem.message, problem.rule) from None
            names = list(match.seats.order_by("number").values_list("player__name", flat=True))
            if names != list(seating.seats) or not match.options.get("partnerships"):
                raise _fail(
                    f"{where}, table {n}",
                    Said("its match is not played by these seats in pairs."),
                    "event.round",
                )
            if match.game != event.game:
                raise _fail(f"{where}, table {n}", Said("its match plays another game."))
            EventTable.objects.create(round=row, number=n, seats=list(seating.seats), match=match)
            result = None
            if match.status == Match.FINISHED:
                result = referee.Result(
                    _sides(match.totals), _winning_side(match.winner, match.shared)
                )
            tables.append(referee.Table(seating.seats, result))
        before.append(referee.Round(tuple(tables), byes))


def _key(unit: Any) -> Any:
    """A pair is the same pair whichever of its two sits first."""
    return frozenset(unit) if isinstance(unit, tuple) else unit


def _units(event: Event, table: referee.Table) -> tuple:
    if event.format == referee.PAIRS:
        return tuple((side,) for side in table.sides)
    return ((table.seats[0], table.seats[2]), (table.seats[1], table.seats[3]))
