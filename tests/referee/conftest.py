"""The referee's tests are plain pytest: no Django, no database."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES" / "django.po"
# Two lowercase words in a row: English a parameter carries instead of a saying of its own
# (names are capitalised; rule ids, slugs and option values are single words).
_WORDS = re.compile(r"\b[a-z]{2,} [a-z]{2,}\b")
# What a player sent, echoed back quoted (referee.errors.shown): theirs, not ours to translate.
_ECHOED = re.compile(r"[\"'\[\]{}]")


def translated_msgids() -> set[str]:
    """The catalogue's msgids (singular and plural) that have a translation; read as text,
    as the referee's tests run without Django."""
    found: set[str] = set()
    for entry in CATALOGUE.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in entry.splitlines():
            if line.startswith("msg"):
                key, _, value = line.partition(" ")
                fields[key] = value[1:-1]
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        strings = [v for k, v in fields.items() if k.startswith("msgstr")]
        if strings and all(strings):
            for key in ("msgid", "msgid_plural"):
                if key in fields:
                    found.add(
                        fields[key].encode().decode("unicode_escape").encode("latin-1").decode()
                    )
    return found


def untranslatable(said, msgids: set[str]) -> list[str]:
    """What in a saying a translation could not render: a template the catalogue lacks,
    or English words handed over as a plain parameter."""
    from referee.said import Said

    problems = []
    templates = said.plural[:2] if said.plural else (said.template,)
    problems += [f"no msgid {t!r}" for t in templates if t and t not in msgids]
    for name, value in said.params.items():
        if isinstance(value, Said):
            problems += untranslatable(value, msgids)
        elif isinstance(value, str) and _WORDS.search(value) and not _ECHOED.search(value):
            problems.append(f"English in parameter {name}={value!r} of {said.template!r}")
    return problems


@pytest.fixture(scope="session", autouse=True)
def _database_matches_environment() -> None:
    """Overrides the project-wide check: the referee never touches a database, and its
    tests must also run with pytest-django disabled (``-p no:django``)."""


@pytest.fixture(scope="package", autouse=True)
def _every_refusal_is_said():
    """Every refusal the referee makes carries its message as data (a ``Said``: its
    template and parameters), and every template in it is a translated msgid of the Spanish
    catalogue with no English handed over as a plain parameter, so the app can say it in
    Spanish. Checked for every refusal the referee raises while its tests run (not the
    app's, nor a doctest's example); package-wide, as Hypothesis asks, and undone after."""
    from referee.errors import RefereeError
    from referee.said import Said

    msgids = translated_msgids()

    original = RefereeError.__init__

    def checked(self, message, rule=None):
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__") == "referee.errors":
            frame = frame.f_back  # IllegalAction's and InvalidAction's own __init__
        raiser = frame.f_globals.get("__name__", "") if frame is not None else ""
        if raiser.startswith("referee."):
            assert isinstance(message, Said), f"a refusal that is not a Said: {message!r}"
            assert untranslatable(message, msgids) == [], message
        original(self, message, rule)

    RefereeError.__init__ = checked
    yield
    RefereeError.__init__ = original
