"""Club nights (RULES.md §12): an event, its entrants, its rounds and their tables.

What is stored is what the organizer decided: who entered, how each round was seated, and
which match each table plays. Results and standings are never stored: they are read from
the tables' matches on every request (scoring.events.services), so a correction of a
finished match (§7) moves the standings by itself (``event.correct``).
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import pgettext_lazy

from referee.events import PAIRS, ROTATING, ROUND_ROBIN, SWISS
from scoring.models import Match, new_token


def new_seed() -> str:
    """The event's lot: drawn once, kept with it."""
    return secrets.token_hex(8)


class Series(models.Model):
    """A club's season (``event.series``): events ranked together."""

    name = models.CharField(max_length=80, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """``event.make``: a name, a game with its house rules, a format, the rounds planned, a
    round's time limit, and a seed that draws every lot (a re-seat is reproducible)."""

    name = models.CharField(max_length=80)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)  # the house rules every table's match gets
    format = models.CharField(
        max_length=12,
        choices=[
            (PAIRS, pgettext_lazy("event format", "Fixed pairs")),
            (ROTATING, pgettext_lazy("event format", "Rotating partners")),
        ],
    )
    pairing = models.CharField(
        max_length=12,
        default=SWISS,
        choices=[
            (SWISS, pgettext_lazy("event pairing", "Swiss")),
            (ROUND_ROBIN, pgettext_lazy("event pairing", "Round robin")),
        ],
    )
    rounds_planned = models.PositiveSmallIntegerField()
    time_limit = models.PositiveSmallIntegerField(null=True, blank=True)  # minutes a round
    seed = models.CharField(max_length=32, default=new_seed)
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    # The organizer's link runs the event; the players' link only reads it.
    keep_token = models.CharField(max_length=64, default=new_token)
    watch_token = models.CharField(max_length=64, default=new_token)
    # Every change the organizer makes bumps it; a form carries the version it was drawn
    # from, so two organizers pressing Start at once make one round. The key of the last
    # change: the same form sent twice is answered as done, not refused as stale.
    version = models.PositiveIntegerField(default=0)
    last_key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A player (rotating) or a pair (pairs: ``first`` & ``second``), in the order entered.
    A withdrawn entrant is seated no more and keeps its results."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    first = models.CharField(max_length=40)
    second = models.CharField(max_length=40, blank=True, default="")
    withdrawn = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "pk"]

    def __str__(self) -> str:
        return f"{self.first} & {self.second}" if self.second else self.first

    @property
    def unit(self) -> str | tuple[str, str]:
        """As the referee of events names it: a name, or a pair of names."""
        return (self.first, self.second) if self.second else self.first


class EventRound(models.Model):
    """A round: seated (a proposal the organizer may change), then started (every table's
    match made), then closed once every table has finished."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    byes = models.JSONField(default=list)  # names, or pairs of names
    confirmed = models.BooleanField(default=False)  # a repeat the organizer confirmed
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_round_unique")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.event}"


class EventTable(models.Model):
    """A table of a round: four names in the order of play (seats 0 and 2 partners), and
    the match it plays once the round has started."""

    round = models.ForeignKey(EventRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seats = models.JSONField()
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="event_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="event_table_unique")
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"
