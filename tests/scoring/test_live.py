"""The live table's stream (scoring.live), driven as the ASGI server drives it, in this process:
every open screen gets each committed version once, nothing from a rolled-back write, catches up
when it reconnects, and is shut out when its link is. Then across two real servers sharing the
database, and through Redis."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connections
from django.test import Client, override_settings

from referee import IllegalAction
from scoring import live, services
from scoring.models import Match
from tests.servers import Client as ServerClient
from tests.servers import Server, Stream, database, new_match, start_all, stop_all

from .conftest import keep, watch

pytestmark = pytest.mark.django_db(transaction=True)
LEAD = {"type": "play", "seat": 0, "tile": "6-6"}
UNDO = {"type": "undo"}
BEN_MISFITS = {"type": "play", "seat": 1, "tile": "2-1"}
END = "end of the stream"


class Heard(live.Hub):
    """The hub, remembering every announcement it heard (what the database or Redis carried)."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[str] = []
        self.listening = asyncio.Event()

    def announce(self, payload: str) -> None:
        self.heard.append(payload)
        super().announce(payload)

    def resync(self) -> None:
        self.listening.set()
        super().resync()


class Phone:
    """One phone's stream, read event by event as the browser's EventSource would."""

    def __init__(self, router: live.Router, client: Client, match: Match, **asked) -> None:
        self.router, self.client, self.match, self.asked = router, client, match, asked
        self.events: asyncio.Queue = asyncio.Queue()
        self.left = asyncio.Event()
        self.status: int | None = None
        self.buffer = b""

    async def open(self, version: int | None = 0, last_event: int | None = None) -> Phone:
        query = "" if version is None else f"version={version}"
        cookies = "; ".join(f"{k}={v.value}" for k, v in self.client.cookies.items())
        headers = [(b"host", b"testserver"), (b"cookie", cookies.encode())]
        headers += [(k.encode(), v.encode()) for k, v in self.asked.items()]
        if last_event is not None:
            headers.append((b"last-event-id", str(last_event).encode()))
        scope = {
            "type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": f"/matches/{self.match.pk}/live/", "raw_path": b"", "root_path": "",
            "query_string": query.encode(), "headers": headers,
            "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
        }  # fmt: skip
        self.task = asyncio.ensure_future(self.router(scope, self._receive, self._send))
        return self

    async def _receive(self) -> dict:
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            return
        self.buffer += message.get("body", b"")
        while b"\n\n" in self.buffer:
            block, self.buffer = self.buffer.split(b"\n\n", 1)
            fields: dict[str, list[str]] = {}
            for line in block.decode().split("\n"):
                name, _, value = line.partition(": ")
                fields.setdefault(name.rstrip(":"), []).append(value)
            if "event" in fields:
                self.events.put_nowait(
                    (fields["event"][0], fields.get("id", [None])[0], "\n".join(fields["data"]))
                )
        if not message.get("more_body", False):
            self.events.put_nowait((END, None, self.buffer.decode()))

    async def next(self) -> tuple[str, str | None, str]:
        """The next event (the wait is a guard against a hang, not a measurement)."""
        return await asyncio.wait_for(self.events.get(), 20)

    async def table(self) -> tuple[int, str]:
        """The next table pushed: its version and the fragment."""
        kind, version, data = await self.next()
        assert kind == "update", (kind, data[:300])
        return int(version), data

    async def leave(self) -> None:
        self.left.set()
        await asyncio.wait_for(self.task, 20)


def run(test, limit: int = 400):
    """Run ``test(router, hub, write)`` on a router over the whole app: ``write`` runs a
    synchronous write (a tap) in the render thread, as a request of another phone would."""
    executor = ThreadPoolExecutor(1)
    hub = Heard()
    router = live.Router(None, WSGIHandler(), executor, hub)
    router.limit = limit

    async def write(work, *args):
        return await asyncio.get_running_loop().run_in_executor(executor, work, *args)

    async def main():
        try:
            await test(router, hub, write)
        finally:
            await hub.close()

    try:
        asyncio.run(main())
    finally:
        # The render thread's connection must not outlive the test (PostgreSQL drops the
        # test database at the end, which no open connection may hold).
        executor.submit(connections.close_all).result()
        executor.shutdown()


def tap(match: Match, data: dict, key: str) -> bool:
    match.refresh_from_db()
    return services.record(match.pk, data, match.version, key)


def test_a_commit_reaches_every_stream_once_with_its_version(scorekeeper, other_seat, draw_match):
    keep(other_seat, draw_match)

    async def test(router, hub, write):
        ana = await Phone(router, scorekeeper, draw_match).open()
        ben = await Phone(router, other_seat, draw_match).open()
        assert (await ana.next())[0] == "ready" and (await ben.next())[0] == "ready"
        assert ana.status == ben.status == 200
        await hub.listening.wait()
        await write(tap, draw_match, LEAD, "live-lead-0001")
        for phone in (ana, ben):
            version, fragment = await phone.table()
            assert version == 1 and 'data-version="1"' in fragment and "Ana led 6-6" in fragment
            assert "<html" not in fragment  # the table's fragment, as htmx swaps it in
        await write(tap, draw_match, UNDO, "live-undo-0001")
        # The next event is the next version: the first commit was pushed once.
        assert [(await p.table())[0] for p in (ana, ben)] == [2, 2]
        assert hub.heard == [f"match:{draw_match.pk} 1", f"match:{draw_match.pk} 2"]
        await ana.leave()
        await ben.leave()
        assert hub.count == 0 and hub.topics == {}  # a phone that left holds nothing

    run(test)


def test_a_rolled_back_write_announces_nothing(scorekeeper, draw_match):
    async def test(router, hub, write):
        phone = await Phone(router, scorekeeper, draw_match).open()
        assert (await phone.next())[0] == "ready"
        await hub.listening.wait()
        await write(tap, draw_match, LEAD, "live-lead-0002")
        assert (await phone.table())[0] == 1
        # 1-2 does not fit 6-6: the version is claimed, then the referee refuses, and the
        # transaction rolls back.
        with pytest.raises(IllegalAction):
            await write(tap, draw_match, BEN_MISFITS, "live-refused-01")
        await write(tap, draw_match, UNDO, "live-undo-0002")
        assert (await phone.table())[0] == 2
        heard = [f"match:{draw_match.pk} 1", f"match:{draw_match.pk} 2"]
        assert hub.heard == heard  # the refused claim's version 2 was never announced
        await phone.leave()

    run(test)


def test_a_reconnecting_phone_gets_the_table_as_it_is_now(scorekeeper, draw_match):
    for n, data in enumerate((LEAD, UNDO, LEAD)):
        tap(draw_match, data, f"live-before-{n:04}")

    async def test(router, hub, write):
        # The page was drawn at version 1; the browser heard version 2 before it dropped.
        phone = await Phone(router, scorekeeper, draw_match).open(version=1, last_event=2)
        assert (await phone.next())[0] == "ready"
        version, fragment = await phone.table()
        assert version == 3 and "Ana led 6-6" in fragment
        await phone.leave()
        # Up to date: nothing to catch up.
        phone = await Phone(router, scorekeeper, draw_match).open(version=3)
        assert (await phone.next())[0] == "ready"
        await write(tap, draw_match, UNDO, "live-undo-0003")
        assert (await phone.table())[0] == 4
        await phone.leave()

    run(test)


def test_new_links_end_the_stream_of_a_phone_they_shut_out(scorekeeper, spectator, draw_match):
    watch(spectator, draw_match)
    stranger = Client()

    async def test(router, hub, write):
        shut_out = await Phone(router, stranger, draw_match).open()
        assert (await shut_out.next())[0] == END and shut_out.status == 404  # no link, no stream
        watcher = await Phone(router, spectator, draw_match).open()
        assert (await watcher.next())[0] == "ready"
        await hub.listening.wait()
        await write(services.new_links, draw_match, draw_match.keep_token)
        assert (await watcher.next())[0] == "gone"
        assert (await watcher.next())[0] == END  # the stream ends at once
        await asyncio.wait_for(watcher.task, 20)
        again = await Phone(router, spectator, draw_match).open()
        assert (await again.next())[0] == END and again.status == 404

    run(test)


def test_each_phone_gets_the_table_in_its_own_words_and_role(scorekeeper, spectator, draw_match):
    watch(spectator, draw_match)

    async def test(router, hub, write):
        ana = await Phone(router, scorekeeper, draw_match).open()
        ben = await Phone(router, spectator, draw_match, **{"accept-language": "es"}).open()
        assert (await ana.next())[0] == (await ben.next())[0] == "ready"
        await hub.listening.wait()
        await write(tap, draw_match, LEAD, "live-lead-0004")
        _, english = await ana.table()
        _, spanish = await ben.table()
        assert "Ana led 6-6" in english and "Ana led 6-6" not in spanish
        assert 'id="watching"' in spanish and 'id="watching"' not in english
        assert 'id="play-form"' in english and 'id="play-form"' not in spanish
        await ana.leave()
        await ben.leave()

    run(test)


def test_a_full_server_refuses_a_stream_plainly(scorekeeper, other_seat, draw_match):
    keep(other_seat, draw_match)

    async def test(router, hub, write):
        first = await Phone(router, scorekeeper, draw_match).open()
        assert (await first.next())[0] == "ready"
        second = await Phone(router, other_seat, draw_match).open()
        kind, _, text = await second.next()
        assert (kind, second.status) == (END, 503) and "live screens" in text
        await first.leave()

    run(test, limit=1)


def test_without_the_asgi_server_the_stream_says_there_is_none(scorekeeper, draw_match):
    response = scorekeeper.get(f"/matches/{draw_match.pk}/live/")
    assert response["Content-Type"].startswith("text/event-stream")
    assert response.content == b"event: unavailable\ndata: \n\n"  # the page polls


@pytest.mark.skipif(not os.environ.get("BONEYARD_TEST_REDIS_URL"), reason="no test Redis")
def test_redis_carries_the_announcements_when_configured(scorekeeper, draw_match):
    with override_settings(REDIS_URL=os.environ["BONEYARD_TEST_REDIS_URL"]):

        async def test(router, hub, write):
            phone = await Phone(router, scorekeeper, draw_match).open()
            assert (await phone.next())[0] == "ready"
            await hub.listening.wait()
            await write(tap, draw_match, LEAD, "live-lead-0005")
            assert (await phone.table())[0] == 1
            with pytest.raises(IllegalAction):
                await write(tap, draw_match, BEN_MISFITS, "live-refused-02")
            await write(tap, draw_match, UNDO, "live-undo-0005")
            assert (await phone.table())[0] == 2
            assert hub.heard == [f"match:{draw_match.pk} 1", f"match:{draw_match.pk} 2"]
            await phone.leave()

        run(test)


def test_two_servers_on_one_database_deliver_across_servers(tmp_path):
    """A tap recorded on one server reaches the phones following the table on the other:
    PostgreSQL's NOTIFY on the PostgreSQL leg, a datagram between the processes on SQLite."""
    with database(tmp_path) as url:
        servers = start_all([Server(url), Server(url)])
        try:
            pk, link = new_match(servers[0].port)
            phones = [ServerClient(server.port) for server in servers]
            streams = []
            for phone in phones:
                phone.get(link)
                phone.get(f"/matches/{pk}/")
                streams.append(Stream(phone, f"/matches/{pk}/live/?version=0"))
            assert [s.status for s in streams] == [200, 200]
            assert [s.next()[0] for s in streams] == ["ready", "ready"]
            lead = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
            form = {**lead, "version": "0", "key": "across-servers-01"}
            assert phones[0].post(f"/matches/{pk}/act/", form)[0] == 200
            for stream in streams:
                kind, version, fragment = stream.next()
                assert (kind, version) == ("update", "1") and "Ana led 6-6" in fragment
                stream.close()
        finally:
            logs = stop_all(servers)
    for log in logs:
        assert "Traceback" not in log and "live:" not in log, log[-3000:]
