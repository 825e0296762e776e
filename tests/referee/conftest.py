"""The referee's tests are plain pytest: no Django, no database."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(scope="session", autouse=True)
def _database_matches_environment() -> None:
    """Overrides the project-wide check: the referee never touches a database, and its
    tests must also run with pytest-django disabled (``-p no:django``)."""


@pytest.fixture(scope="package", autouse=True)
def _every_refusal_is_said():
    """Issue 22's foundation: every refusal the referee makes carries its message as data
    (a ``Said``: its template and parameters), so the app can translate it. Checked for
    every refusal the referee raises while its tests run (not the app's, nor a doctest's
    example); package-wide, as Hypothesis asks, and undone after."""
    from referee.errors import RefereeError
    from referee.said import Said

    original = RefereeError.__init__

    def checked(self, message, rule=None):
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__") == "referee.errors":
            frame = frame.f_back  # IllegalAction's and InvalidAction's own __init__
        raiser = frame.f_globals.get("__name__", "") if frame is not None else ""
        if raiser.startswith("referee."):
            assert isinstance(message, Said), f"a refusal that is not a Said: {message!r}"
        original(self, message, rule)

    RefereeError.__init__ = checked
    yield
    RefereeError.__init__ = original
