"""python manage.py import_event FILE — check an event document whole, store it, print its id."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand
from django.db import IntegrityError

from referee import InvalidAction
from scoring.events.documents import import_event
from scoring.speech import say

MOST_BYTES = 64 * 1024 * 1024  # an event of 200 tables and 10 rounds is a few megabytes


class Command(BaseCommand):
    help = (
        "Import a boneyard-event/1 document: every match replayed by the referee, every "
        "round's seating checked, the standings recomputed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="path to the JSON document, or - for standard input")

    def handle(self, *args, **options) -> None:
        path = options["file"]
        try:
            if path == "-":
                raw = sys.stdin.buffer.read(MOST_BYTES + 1)
            else:
                with open(path, "rb") as source:
                    raw = source.read(MOST_BYTES + 1)
            if len(raw) > MOST_BYTES:
                self._fail(f"{path}: larger than {MOST_BYTES} bytes.")
            event = import_event(json.loads(raw))
        except OSError as error:
            self._fail(f"cannot read {path}: {error.strerror}")
        except ValueError as error:
            self._fail(f"{path}: not JSON ({error}).")
        except InvalidAction as error:
            self._fail(say(error.message))
        except IntegrityError:
            self._fail(f"{path}: the database refused to store it; nothing was imported.")
        self.stdout.write(str(event.pk))

    def _fail(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(2)
