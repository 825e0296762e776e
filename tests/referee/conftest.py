"""The referee's tests are plain pytest: no Django, no database."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _database_matches_environment() -> None:
    """Overrides the project-wide check: the referee never touches a database, and its
    tests must also run with pytest-django disabled (``-p no:django``)."""


@pytest.fixture(scope="session", autouse=True)
def _every_refusal_is_said():
    """Issue 22's foundation: every refusal the referee makes carries its message as data
    (a ``Said``: its template and parameters), so the app can translate it. Checked for
    every refusal any referee test provokes; session-wide, as Hypothesis asks."""
    from referee.errors import RefereeError
    from referee.said import Said

    original = RefereeError.__init__

    def checked(self, message, rule=None):
        assert isinstance(message, Said), f"a refusal that is not a Said: {message!r}"
        original(self, message, rule)

    RefereeError.__init__ = checked
    yield
    RefereeError.__init__ = original
