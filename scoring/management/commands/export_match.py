"""python manage.py export_match ID — print the match document with computed fields."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from scoring.models import Match
from scoring.services import export_match


class Command(BaseCommand):
    help = "Print a match as a boneyard-match/1 document, with the referee's computed fields."

    def add_arguments(self, parser) -> None:
        parser.add_argument("id", type=int)

    def handle(self, *args, **options) -> None:
        try:
            match = Match.objects.get(pk=options["id"])
        except Match.DoesNotExist:
            raise CommandError(f"There is no match {options['id']}.") from None
        self.stdout.write(json.dumps(export_match(match), indent=2))
