"""python manage.py import_match FILE — validate a match document, store it, print its id."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from referee import DocumentError, InvalidAction
from scoring.services import import_match

MAX_BYTES = 512 * 1024


class Command(BaseCommand):
    help = "Import a boneyard-match/1 document; every action is replayed through the referee."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="path to the JSON document, or - for standard input")

    def handle(self, *args, **options) -> None:
        path = options["file"]
        try:
            if path == "-":
                raw = sys.stdin.buffer.read(MAX_BYTES + 1)
            else:
                with open(path, "rb") as source:
                    raw = source.read(MAX_BYTES + 1)
            if len(raw) > MAX_BYTES:
                raise InvalidAction("The document is larger than 512 KB.")
            try:
                document = json.loads(raw)
            except (ValueError, RecursionError):
                raise InvalidAction("The file is not JSON.") from None
            match = import_match(document)
        except OSError as error:
            self._fail(f"cannot read {path}: {error.strerror}")
        except DocumentError as error:
            self._fail(error.message)
        except InvalidAction as error:
            self._fail(error.message)
        self.stdout.write(str(match.pk))

    def _fail(self, message: str) -> None:
        # Exit status 2 and the reason on standard error, as MATCH_FORMAT.md specifies.
        self.stderr.write(message)
        sys.exit(2)
