"""Matches, seats, rounds and the append-only action log.

Game state is never stored: it is recomputed by replaying the current round's
actions through the referee. What is stored besides the log is what a list of
matches needs without replaying (status, totals, winner) and each finished
round's result; all of it is written in the same transaction as the action
that changed it.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

from referee import PRESETS
from referee.document import name_key


class Player(models.Model):
    """A name at the table, reused across matches."""

    name = models.CharField(max_length=40)
    # What the name is as the table hears it (referee.document.name_key: compatibility form,
    # case-folded), unique: "Strauß" and "STRAUSS" are one player. Python says it, not the
    # database: PostgreSQL's lower() and Python's disagreed on some letters (issue 28).
    key = models.CharField(max_length=160, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.key = name_key(self.name)
        super().save(*args, **kwargs)


def new_token() -> str:
    """An unguessable link token: 256 random bits."""
    return secrets.token_urlsafe(32)


class Match(models.Model):
    PLAYING, FINISHED = "playing", "finished"
    KEEP, WATCH = "keep", "watch"

    # A game's title is a declared word (scoring.declared): get_game_display() shows it in
    # the phone's language.
    game = models.CharField(
        max_length=32, choices=[(s, gettext_lazy(p.title)) for s, p in PRESETS.items()]
    )
    options = models.JSONField(default=dict)
    status = models.CharField(
        max_length=16,
        default=PLAYING,
        choices=[
            (PLAYING, pgettext_lazy("match status", "In progress")),
            (FINISHED, pgettext_lazy("match status", "Finished")),
        ],
    )
    # Every recorded action bumps the version; a form carries the version it was
    # drawn from, so a stale tap is refused instead of applied to a table it never saw.
    version = models.PositiveIntegerField(default=0)
    totals = models.JSONField(default=list)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    # The seats that share the win when the match ended with a tie at the top (a stop on
    # level totals, Dominards' last card): ",0,2," (each seat between commas, so that the
    # record book counts a seat's shared win in SQL), "" otherwise.
    shared = models.CharField(max_length=24, blank=True, default="")
    # The share links: "Keep score" may record actions, "Watch" may only look. New links
    # replace both, which revokes every phone that joined with the old ones.
    keep_token = models.CharField(max_length=64, default=new_token)
    watch_token = models.CharField(max_length=64, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["status", "-updated_at"])]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    @property
    def preset(self):
        return PRESETS[self.game]


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} (seat {self.number})"


class Round(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()  # 1, 2, ...
    # The seat the game says must lead this round (Fives and Threes rotates it), fixed
    # when the round begins; null where the table chooses (round.lead).
    leader = models.PositiveSmallIntegerField(null=True, blank=True)
    # What the round started from besides the totals (the referee's RoundState.carry):
    # Dominards' cards stay in hand from deal to deal. Empty for the other games.
    carry = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)  # set by the tally, cleared by its undo
    # Dominó (parejas.records): what the hand counted for each seat so far, as the referee
    # counts it (capicúas, pases...; RECORDS' order), so the record book never replays.
    records = models.JSONField(default=list, blank=True)
    # pad.record: "plays" for a round of a score-pad match played tile by tile (the table
    # switched); empty where the round is kept as the match's option says.
    record = models.CharField(max_length=6, blank=True, default="")
    # How often the table switched how this round is kept before its first entry: each
    # switch bumps the match's version without an entry of the log (verify_matches counts
    # them), and the key of the last one, so a switch sent twice is made once.
    switches = models.PositiveSmallIntegerField(default=0)
    switch_key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.match}"


class Action(models.Model):
    """One entry of the log, exactly as MATCH_FORMAT.md writes it; never edited."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    payload = models.JSONField()
    # What it changed, by seat: computed by the referee, and brought back into line when a
    # correction changes what an entry counts for (the entry itself never changes).
    points = models.JSONField(default=list, blank=True)
    # A correction's audit (correct.audit): the match totals before and after it, as the
    # table saw them when it was confirmed.
    moved = models.JSONField(default=list, blank=True)
    idempotency_key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "seq"]
        constraints = [models.UniqueConstraint(fields=["round", "seq"], name="action_seq_unique")]

    def __str__(self) -> str:
        return f"{self.round}: {self.seq} {self.kind}"


class Position(models.Model):
    """A match document kept for the referee's desk, named by its content: the same
    position always has the same link, and a link always shows the same position."""

    key = models.CharField(max_length=32, unique=True)
    document = models.JSONField()
    # A position is kept for a while after it was last kept (scoring.desk.KEEP_POSITIONS).
    kept_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"position {self.key}"


class RateCount(models.Model):
    """A rate limit's count for one client and one kind of request (scoring.counters),
    when no Redis is configured."""

    key = models.CharField(max_length=200, primary_key=True)
    count = models.PositiveIntegerField()
    until = models.FloatField(db_index=True)  # the window's end, in seconds since the epoch

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


def shared_seats(seats: object) -> str:
    """``Match.shared`` for the seats that share a win: ",0,2,", or "" for none."""
    listed = sorted(seats)  # type: ignore[call-overload]
    return f",{','.join(map(str, listed))}," if listed else ""


# Club nights (issue 32) keep their models beside their views; imported here so that Django
# finds them with the app's own.
from scoring.events.models import Entrant, Event, EventRound, EventTable, Series  # noqa: E402

__all__ = [
    "Action", "Entrant", "Event", "EventRound", "EventTable", "Match", "Player", "Position",
    "RateCount", "Round", "Seat", "Series", "new_token", "shared_seats",
]  # fmt: skip
