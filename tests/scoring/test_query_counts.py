"""The server's work per request stays flat as a match grows: a count of SQL queries, the same
for a fresh match and for one 30 rounds long whose round holds 60 actions (no timings here:
those are bench/'s)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench import matches
from scoring import services

from .conftest import form_fields, keep

PLAY = {"type": "play", "seat": "1", "tile": "6-5", "target": "6-6/side"}


def long_match():
    return services.import_match(matches.long_match())


def costs(client, match, tap: dict) -> dict[str, int]:
    """Queries of each request a phone makes, after it drew the table once."""
    url = f"/matches/{match.pk}/"
    page = client.get(url).content.decode()
    counts = {}
    for name, request in {
        "table": lambda: client.get(url),
        "poll unchanged": lambda: client.get(f"{url}poll/?version={match.version}"),
        "record": lambda: client.post(
            f"{url}act/", {**form_fields(page), **tap}, HTTP_HX_REQUEST="true"
        ),  # fmt: skip
        "poll changed": lambda: client.get(f"{url}poll/?version=0", HTTP_HX_REQUEST="true"),
    }.items():
        with CaptureQueriesContext(connection) as captured:
            response = request()
        assert response.status_code in (200, 204), (name, response.status_code)
        counts[name] = len(captured)
    return counts


@pytest.fixture
def fresh_and_long(scorekeeper, django_capture_on_commit_callbacks):
    fresh = keep(scorekeeper, services.create_match("draw", ["Ana", "Ben", "Caro", "Dan"], {}))
    with django_capture_on_commit_callbacks(execute=True):
        services.record(fresh.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "fresh-lead")
    fresh.refresh_from_db()
    late = keep(scorekeeper, long_match())
    services.forget_replays()
    return fresh, late


def test_no_request_makes_more_queries_as_the_match_grows(scorekeeper, fresh_and_long):
    fresh, late = fresh_and_long
    # The same request in both: a second play of the round (the first creates the round).
    short, long = costs(scorekeeper, fresh, PLAY), costs(scorekeeper, late, PLAY)
    assert short == long, (short, long)
    assert long["poll unchanged"] == 1
    # Under the test's own transaction a recording adds a SAVEPOINT and its RELEASE; on
    # PostgreSQL the live announcement is one statement in the transaction (pg_notify).
    announced = 1 if connection.vendor == "postgresql" else 0
    assert max(long.values()) <= 10 + 2 + announced
