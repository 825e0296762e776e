"""The referee's tests are plain pytest: no Django, no database."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _database_matches_environment() -> None:
    """Overrides the project-wide check: the referee never touches a database, and its
    tests must also run with pytest-django disabled (``-p no:django``)."""
