"""python manage.py import_match FILE — validate a match document, store it, print its id."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand
from django.db import IntegrityError

from referee import DocumentError, InvalidAction
from scoring.edge import MAX_DOCUMENT, read_document
from scoring.services import import_match

MAX_BYTES = MAX_DOCUMENT


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
            match = import_match(read_document(raw))
        except OSError as error:
            self._fail(f"cannot read {path}: {error.strerror}")
        except DocumentError as error:
            self._fail(error.message)
        except InvalidAction as error:
            self._fail(error.message)
        except IntegrityError:  # the database refused a row: nothing was stored
            self._fail(f"{path}: the database refused to store it; nothing was imported.")
        self.stdout.write(str(match.pk))

    def _fail(self, message: str) -> None:
        # Exit status 2 and the reason on standard error, as MATCH_FORMAT.md specifies.
        self.stderr.write(message)
        sys.exit(2)
