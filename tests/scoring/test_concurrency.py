"""The shared table under load, on loopback: 8 phones tap at once against real gunicorn
servers; every version is recorded exactly once, the losers get 409, nothing is lost or
duplicated, not even when the server is killed mid-load (RULES.md aside: this is the
promise that no action is ever lost or recorded twice)."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter

import pytest

from tests.conftest import DEEP
from tests.servers import (
    Client,
    Server,
    database,
    new_match,
    start_all,
    stop_all,
    stored,
    verify,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.deep]  # own database empty
# 8 phones at once, 24 times over in make test (192 taps a server: every one of them contested
# by seven others), 200 in make test-deep.
CLIENTS, TRIES = 8, 200 if DEEP else 24
TILES = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-5"]
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def phones(ports: list[int], link: str, pk: int) -> list[Client]:
    """Eight phones that joined with the Keep score link, spread over the servers."""
    clients = [Client(ports[i % len(ports)]) for i in range(CLIENTS)]
    for client in clients:
        assert client.get(link)[0] == 302
        assert client.get(f"/matches/{pk}/")[0] == 200  # the CSRF cookie
    return clients


def tap(i: int, version: int) -> dict[str, str]:
    """Every phone taps something different at the same version: a lead of its own tile on
    an empty table, else the undo of that lead."""
    if version % 2 == 0:
        play = {"type": "play", "seat": "0", "tile": TILES[i], "target": "lead"}
    else:
        play = {"type": "undo"}
    return {**play, "version": str(version), "key": f"phone{i}-v{version}"}


def contest(clients: list[Client], pk: int, tries: int, first: int = 0) -> list[list]:
    """``tries`` rounds of all phones tapping at once against the same version."""
    barrier = threading.Barrier(len(clients))
    results: list[list] = [[] for _ in clients]

    def phone(i: int) -> None:
        for version in range(first, first + tries):
            form = tap(i, version)
            barrier.wait(timeout=60)
            status, _ = clients[i].post(f"/matches/{pk}/act/", form)
            results[i].append((version, status, form["key"]))

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def check(results: list[list], url: str, pk: int, tries: int) -> dict:
    by_version: dict[int, Counter] = {}
    for version, status, _ in (r for phone in results for r in phone):
        by_version.setdefault(version, Counter())[status] += 1
    statuses = Counter(s for c in by_version.values() for s in c.elements())
    assert all(c == Counter({200: 1, 409: CLIENTS - 1}) for c in by_version.values()), statuses
    won = {key for phone in results for _, status, key in phone if status == 200}
    db = stored(url, pk)
    keys = [key for _, _, key in db["rows"]]
    assert db["version"] == tries and len(keys) == tries
    assert set(keys) == won and len(set(keys)) == len(keys)  # none lost, none twice
    assert [seq for _, seq, _ in db["rows"]] == list(range(tries))
    return {"tries": tries, "statuses": dict(statuses), "lost": 0, "duplicated": 0}


@pytest.mark.parametrize(
    "servers",
    [1, 2] if ON_POSTGRES else [1],
    ids=lambda n: f"{n}-gunicorn-{'postgres' if ON_POSTGRES else 'sqlite'}",
)
def test_eight_phones_tap_at_once_and_every_version_is_recorded_once(tmp_path, servers):
    with database(tmp_path) as url:
        running = start_all([Server(url, workers=1 if servers > 1 else 2) for _ in range(servers)])
        try:
            pk, link = new_match(running[0].port)
            clients = phones([s.port for s in running], link, pk)
            started = time.monotonic()
            results = contest(clients, pk, TRIES)
            figures = check(results, url, pk, TRIES)
            seconds = time.monotonic() - started
        finally:
            errors = "".join(stop_all(running))
        assert "Traceback" not in errors, errors
        outcome = verify(url)
        assert outcome.returncode == 0 and "0 inconsistencies" in outcome.stdout, outcome.stderr
        print(f"\nload {servers} server(s): {figures}, {seconds:.1f} s")


def test_a_server_killed_mid_load_loses_nothing(tmp_path):
    with database(tmp_path) as url:
        server = Server(url, workers=2).start()
        pk, link = new_match(server.port)
        clients = phones([server.port], link, pk)
        acknowledged: set[str] = set()
        unanswered: list[tuple[int, dict]] = []
        failures: list[int] = []
        stop = threading.Event()

        def phone(i: int) -> None:
            version = 0
            while not stop.is_set():
                form = tap(i, version)
                try:
                    status, _ = clients[i].post(f"/matches/{pk}/act/", form)
                except OSError:
                    unanswered.append((i, form))  # the server died under this tap
                    return
                if status == 200:
                    acknowledged.add(form["key"])
                    version += 1
                elif status == 409:
                    try:
                        version = int(stored_version(clients[i], pk))
                    except OSError:
                        return  # died between the tap and the look: nothing unanswered
                else:
                    failures.append(status)
                    return

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
        server.kill()
        stop.set()
        for thread in threads:
            thread.join(30)

        assert failures == [], failures  # only 200 and 409 before the kill
        restarted = Server(url, workers=2).start()
        try:
            # A phone whose tap got no answer sends it again, as the page does: same key.
            for i, form in unanswered:
                clients[i].port, clients[i].connection = restarted.port, None
                status, _ = clients[i].post(f"/matches/{pk}/act/", form)
                assert status in (200, 409)
                if status == 200:
                    acknowledged.add(form["key"])
        finally:
            errors = restarted.stop()
        assert "Traceback" not in errors, errors
        outcome = verify(url)
        assert outcome.returncode == 0 and "0 inconsistencies" in outcome.stdout, outcome.stderr
        db = stored(url, pk)
        keys = [key for _, _, key in db["rows"]]
        assert acknowledged <= set(keys), "an acknowledged tap was lost"
        assert len(keys) == len(set(keys)) == db["version"], "a tap was recorded twice"
        print(f"\ncrash: {len(keys)} recorded, {len(unanswered)} unanswered at the kill, 0 lost")


def stored_version(client: Client, pk: int) -> str:
    """The version a phone sees after a 409: the poll answers with the fresh table."""
    _, page = client.get(f"/matches/{pk}/poll/?version=-1")
    return page.split('name="version" value="', 1)[1].split('"', 1)[0]
