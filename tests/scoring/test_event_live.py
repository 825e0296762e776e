"""An event's board and TV page follow the event and every table of its round live (issue
32): the stream's render says which matches it shows (``X-Live-Follows``), and a tap at any
of those tables pushes the board anew, as the event's own changes do."""

from __future__ import annotations

import asyncio

import pytest
from django.test import Client

from scoring import live, services
from scoring.events import services as events
from scoring.events.models import EventTable

from .test_live import Phone, run

pytestmark = pytest.mark.django_db(transaction=True)
EIGHT = ["Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo"]


class Board(Phone):
    """A phone following an event's page (or, with ``screen=tv``, its TV page)."""

    def __init__(self, router, client, event, query: str = "") -> None:
        super().__init__(router, client, event)
        self.query = query

    async def open(self, version: int | None = 0, last_event: int | None = None) -> Board:
        cookies = "; ".join(f"{k}={v.value}" for k, v in self.client.cookies.items())
        query = f"{self.query}&version={version}" if self.query else f"version={version}"
        scope = {
            "type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": f"/events/{self.match.pk}/live/", "raw_path": b"", "root_path": "",
            "query_string": query.encode(),
            "headers": [(b"host", b"testserver"), (b"cookie", cookies.encode())],
            "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
        }  # fmt: skip
        self.task = asyncio.ensure_future(self.router(scope, self._receive, self._send))
        return self


def finish(match_id: int) -> None:
    match = services.Match.objects.get(pk=match_id)
    pips = {"0": 0, "1": 30, "2": 3, "3": 30}
    assert services.record(match.pk, {"type": "tally", "pips": pips}, match.version, "liveend01")


def finish_with(match_id: int, key: str) -> None:
    match = services.Match.objects.get(pk=match_id)
    pips = {"0": 0, "1": 30, "2": 3, "3": 30}
    assert services.record(match.pk, {"type": "tally", "pips": pips}, match.version, key)


def test_a_tap_at_a_table_pushes_the_board_and_the_tv_page(db):
    event = events.create_event(
        "Club", "block", {"record": "scores", "target": 50}, "rotating", "swiss", 3, None, EIGHT
    )
    assert events.propose(event.pk, 0, "seat-round-1") and events.start(
        event.pk, 1, "start-round-1"
    )
    organizer, stranger = Client(), Client()
    organizer.get(f"/events/{event.pk}/join/{event.keep_token}/")
    table = EventTable.objects.filter(round__event=event).order_by("number").first()

    async def test(router, hub, write):
        board = await Board(router, organizer, event).open()
        tv = await Board(router, organizer, event, "screen=tv").open()
        nobody = await Board(router, stranger, event).open()
        for phone in (board, tv):
            assert (await phone.next())[0] == "ready"
            first, fragment = await phone.table()
        assert (await nobody.next())[0] == END and nobody.status == 404  # a stranger: nothing
        assert f"match:{table.match_id}" in hub.topics  # the stream follows each table
        await hub.listening.wait()
        await write(finish, table.match_id)
        version, fragment = await board.table()
        assert version == first + 1 and "finished" in fragment and 'id="event"' in fragment
        version, fragment = await tv.table()
        assert version == first + 1 and 'id="tv"' in fragment
        await board.leave()
        await tv.leave()
        assert hub.count == 0 and hub.topics == {}  # nothing left behind, tables included

    run(test)


END = "end of the stream"


def test_a_screen_follows_what_its_last_render_named_and_no_more():
    async def quiet():
        yield None
        await asyncio.Event().wait()

    async def main():
        hub = live.Hub(quiet)
        waiter = hub.subscribe("event:1")
        hub.follow(waiter, frozenset({"match:5", "match:6"}))
        hub.announce("match:5 9")  # another topic's version: look again, no more
        assert waiter.event.is_set() and waiter.recheck and waiter.newest == -1
        waiter.event.clear()
        waiter.recheck = False
        hub.follow(waiter, frozenset({"match:7"}))  # the next round's tables
        hub.announce("match:5 10")
        assert not waiter.event.is_set()
        hub.announce("event:1 3")
        assert waiter.newest == 3 and not waiter.recheck
        hub.unsubscribe(waiter)
        assert hub.topics == {} and hub.count == 0
        await hub.close()

    asyncio.run(main())


def test_the_tv_pages_of_a_process_share_one_render_of_each_version(db):
    """Every TV page of an event shows the same screen: a tap at a table is rendered once for
    all of them (and looked at no more than once each settle), not once a stream (issue 32)."""
    event = events.create_event(
        "Club", "block", {"record": "scores", "target": 50}, "rotating", "swiss", 3, None, EIGHT
    )
    assert events.propose(event.pk, 0, "seat-round-1") and events.start(
        event.pk, 1, "start-round-1"
    )
    watchers = [Client() for _ in range(3)]
    for phone in watchers:
        phone.get(f"/events/{event.pk}/join/{event.watch_token}/")
    first_table, second = EventTable.objects.filter(round__event=event).order_by("number")[:2]

    async def test(router, hub, write):
        tvs = [await Board(router, c, event, "screen=tv").open() for c in watchers]
        for tv in tvs:
            assert (await tv.next())[0] == "ready"
            first, _ = await tv.table()
        await hub.listening.wait()
        await write(finish, first_table.match_id)
        await write(finish_with, second.match_id, "liveend02")  # two taps: not six renders
        # A TV may be pushed both versions or only the newest, as the taps and its stream
        # happen to interleave; whichever it is shown, each version is the same bytes on all.
        renders: dict[int, set[str]] = {}
        for tv in tvs:
            version = 0
            while version < first + 2:
                version, fragment = await tv.table()
                renders.setdefault(version, set()).add(fragment)
        assert all(len(fragments) == 1 for fragments in renders.values()), renders.keys()
        assert all('id="tv"' in fragment for (fragment,) in renders.values())
        assert 1 <= router.looks.renders <= 2
        for tv in tvs:
            await tv.leave()
        assert hub.count == 0 and hub.topics == {}

    run(test)


def test_a_screen_opened_on_its_pages_version_still_hears_every_table(db):
    """The TV page's stream opens with the version its page showed: nothing to push yet, but
    it must follow the round's tables all the same (a 204 names none of them)."""
    event = events.create_event(
        "Club", "block", {"record": "scores", "target": 50}, "rotating", "swiss", 3, None, EIGHT
    )
    assert events.propose(event.pk, 0, "seat-round-1") and events.start(
        event.pk, 1, "start-round-1"
    )
    watcher = Client()
    watcher.get(f"/events/{event.pk}/join/{event.watch_token}/")
    table = EventTable.objects.filter(round__event=event).order_by("number").first()
    shown = events.version_of(event.pk)

    async def test(router, hub, write):
        tv = await Board(router, watcher, event, "screen=tv").open(version=shown)
        assert (await tv.next())[0] == "ready"  # and no update: the page has it
        await hub.listening.wait()
        assert f"match:{table.match_id}" in hub.topics
        await write(finish, table.match_id)
        version, fragment = await tv.table()
        assert version == shown + 1 and 'id="tv"' in fragment
        await tv.leave()

    run(test)
