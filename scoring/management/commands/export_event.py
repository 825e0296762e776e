"""python manage.py export_event ID — print the event document (boneyard-event/1)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from scoring.events.documents import export_event
from scoring.events.models import Event


class Command(BaseCommand):
    help = "Print an event as a boneyard-event/1 document: every table's match, the standings."

    def add_arguments(self, parser) -> None:
        parser.add_argument("id", type=int)

    def handle(self, *args, **options) -> None:
        try:
            event = Event.objects.get(pk=options["id"])
        except Event.DoesNotExist:
            raise CommandError(f"There is no event {options['id']}.") from None
        self.stdout.write(json.dumps(export_event(event), indent=2, ensure_ascii=False))
