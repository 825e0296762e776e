"""``makemessages`` that also finds the referee's sayings and the app's declared words.

The referee (pure Python, no Django) writes its sentences as ``Said("...")``, counted ones
as ``counted("...", "...", n)``, and templates chosen at run time as ``phrase("...")``;
these keywords let xgettext collect them into the same catalogue as the app's own words.
The rules pages' texts and the games' titles and house rules are data, some composed at
import (scoring.declared): they are written out for xgettext as a Python file that lives
only while the command runs.
"""

from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages

from scoring import declared

DECLARED = Path(settings.BASE_DIR) / "scoring" / "declared_words.py"


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=Said",
        "--keyword=counted:1,2",
        "--keyword=phrase",
    ]
    # A new msgid comes in untranslated, never with a neighbour's translation guessed in.
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]

    def handle(self, *args, **options):
        DECLARED.write_text(declared.source(), encoding="utf-8")
        try:
            return super().handle(*args, **options)
        finally:
            DECLARED.unlink(missing_ok=True)
