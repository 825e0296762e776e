"""Two organizers press Start at once (issue 32): against real gunicorn servers, on one or
two of them, exactly one round starts, with one match per table; the other organizer is
told the event changed (409), and nothing is made twice."""

from __future__ import annotations

import os
import re
import threading

import pytest

from scoring.events.models import EventRound, EventTable
from scoring.models import Match
from tests.servers import Client, Server, database, read, start_all, stop_all, table

pytestmark = pytest.mark.django_db(transaction=True)  # the test's own database stays empty
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
NAMES = ["Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo", "Inés", "Juan", "Kim", "Luz"]


def form_of(page: str) -> dict[str, str]:
    return {
        name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1)
        for name in ("version", "key")
    }


def stored(url: str, pk: int) -> dict:
    """What the server's database holds of the event: its rounds (number, started or not),
    its tables and how many are linked to a match, and how many matches there are."""
    rounds = read(
        url,
        f"SELECT number, started_at FROM {table(EventRound)} WHERE event_id = ? ORDER BY number",
        pk,
    )
    [(tables, linked)] = read(
        url,
        f"SELECT COUNT(*), COUNT(t.match_id) FROM {table(EventTable)} t "
        f"JOIN {table(EventRound)} r ON t.round_id = r.id WHERE r.event_id = ?",
        pk,
    )
    [(matches,)] = read(url, f"SELECT COUNT(*) FROM {table(Match)}")
    return {
        "rounds": [[number, started is not None] for number, started in rounds],
        "tables": tables,
        "linked": linked,
        "matches": matches,
    }


@pytest.mark.parametrize(
    "servers",
    [1, 2] if ON_POSTGRES else [1],
    ids=lambda n: f"{n}-gunicorn-{'postgres' if ON_POSTGRES else 'sqlite'}",
)
def test_two_organizers_pressing_start_at_once_make_one_round(tmp_path, servers):
    with database(tmp_path) as url:
        running = start_all([Server(url, workers=1 if servers > 1 else 2) for _ in range(servers)])
        try:
            first = Client(running[0].port)
            first.get("/events/new/")
            form = {"name": "Club", "game": "block", "format": "rotating", "rounds": "3"}
            form |= {f"entrant-{i}": name for i, name in enumerate(NAMES)}
            status, _ = first.post("/events/new/", form)
            assert status == 302, status
            pk = int(re.search(r"/events/(\d+)/", first.location)[1])
            status, page = first.get(f"/events/{pk}/")
            keep = re.search(rf"/events/{pk}/join/[\w-]+/", page.split("organizer's link")[1])[0]
            assert first.post(f"/events/{pk}/seat/", form_of(page))[0] == 200
            second = Client(running[-1].port)
            assert second.get(keep)[0] == 302
            pages = [c.get(f"/events/{pk}/")[1] for c in (first, second)]
            forms = [form_of(p) for p in pages]
            assert forms[0]["version"] == forms[1]["version"] and forms[0]["key"] != forms[1]["key"]
            barrier = threading.Barrier(2)
            statuses: list[int] = [0, 0]

            def press(i: int, client: Client) -> None:
                barrier.wait(timeout=30)
                statuses[i] = client.post(f"/events/{pk}/start/", forms[i])[0]

            threads = [
                threading.Thread(target=press, args=(i, c)) for i, c in enumerate((first, second))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            db = stored(url, pk)
        finally:
            errors = "".join(stop_all(running))
        assert "Traceback" not in errors, errors
        assert sorted(statuses) == [200, 409], statuses
        assert db == {"rounds": [[1, True]], "tables": 3, "linked": 3, "matches": 3}, db
