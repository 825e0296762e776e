"""python manage.py verify_matches — replay every stored match and report what disagrees."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring.models import Action, Match
from scoring.services import Stale, verify


class Command(BaseCommand):
    help = (
        "Replay every stored match through the referee and compare the log's points, each "
        "round's result and the match's totals, winner, status and version; exit 1 and name "
        "the match and action of every inconsistency."
    )

    def handle(self, *args, **options) -> None:
        found = busy = 0
        matches = Match.objects.order_by("pk")
        for match in matches.iterator():
            try:
                problems = verify(match)
            except Stale:
                # Played on through every read: nothing is known to disagree, so no alarm.
                busy += 1
                self.stdout.write(f"match {match.pk}: changed while being read, not checked")
                continue
            for problem in problems:
                found += 1
                self.stderr.write(f"match {match.pk}: {problem}")
        summary = (
            f"checked {matches.count() - busy} matches, {Action.objects.count()} actions: "
            f"{found} inconsistenc{'y' if found == 1 else 'ies'}"
        )
        if found:
            raise CommandError(summary)
        self.stdout.write(summary)
