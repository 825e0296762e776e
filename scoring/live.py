"""The live table: every open screen holds one stream, and each new version of what it shows is
pushed to it the moment the transaction that made it commits (docs/live.md says why this shape).

- ``publish(topic, what)`` is called where a write moves a version (``services``), inside its
  transaction. PostgreSQL: ``pg_notify`` in that transaction, so the database delivers it on
  commit and drops it on rollback, to every server. Redis (when REDIS_URL is set): PUBLISH once
  the transaction commits. SQLite, all on one machine: a datagram once it commits, to the socket
  of each server process on this machine that follows the same database file.
- ``Hub``: one per server process. One listener (LISTEN, SUBSCRIBE or that socket), however many
  streams, wakes the streams that follow the announced topic. A stream keeps the newest version
  announced, not a queue: nothing it holds grows with the match.
- ``Router``: the ASGI application ``make run`` and ``make serve`` run under gunicorn's own
  asyncio worker. A stream is served here, outside Django's handler, so an open stream holds no
  thread and no database connection; every other request goes to Django's WSGI handler in a
  pool of threads, as the threaded worker ran it. What a stream pushes is rendered by the
  screen's own poll view, called with the phone's own headers in that pool: the access check,
  the seat, the language and the tile faces are exactly the poll's.

The phone's side is static/js/live.js; while a stream is not held the page polls as before.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import os
import random
import re
import secrets
import socket
import tempfile
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.db import connection, connections, transaction
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port, validate_host
from django.urls import Resolver404, resolve, reverse

log = logging.getLogger(__name__)

CHANNEL = "boneyard_live"  # PostgreSQL's channel; Redis's adds the database number
LINKS = "links"  # what a topic announces when who may see it changed (new share links)
HEARTBEAT_S = 30.0  # a stream says "ping" this often: a dead phone is found by the write
RETRY_MS = (1000, 3000)  # the browser waits this long (drawn per stream) before reconnecting
MOST_FOLLOWED = 500  # more topics a screen may follow (an event's tables)
# An event's screen looks again at most this often (seconds): at a club night every tap at any
# of 100 tables wakes every board and TV page, and a render of the whole event costs a
# hundred milliseconds or more; one a second is live enough for a wall.
EVENT_SETTLE_S = 1.0


def table_topic(pk: int) -> str:
    return f"match:{pk}"


# -- publishing: in the process that writes, inside its transaction -----------------------


def publish(topic: str, what: int | str) -> None:
    """Announce ``what`` (a new version, or LINKS) of ``topic`` to every stream that follows
    it, on every server, once the current transaction commits; nothing if it rolls back."""
    payload = f"{topic} {what}"
    if settings.REDIS_URL:
        transaction.on_commit(lambda: _redis_publish(payload), robust=True)
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])
    else:
        transaction.on_commit(lambda: _datagram(payload), robust=True)


def _redis_channel() -> str:
    # Pub/sub channels are not per Redis database: the number keeps deployments (and test
    # runs) that share a Redis apart, as their counters' keys are.
    from redis.connection import parse_url

    return f"boneyard:live:{parse_url(settings.REDIS_URL).get('db', 0)}"


def _redis_publish(payload: str) -> None:
    from scoring.counters import _redis  # the process's one Redis client

    _redis().publish(_redis_channel(), payload)


def _socket_dir() -> str:
    """Where the server processes that follow this SQLite database listen: one directory per
    database (and checkout, for an in-memory test database), one socket per process."""
    name = str(connections["default"].settings_dict["NAME"])
    key = hashlib.sha256(f"{settings.BASE_DIR}\0{name}".encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"boneyard-live-{key}")


_SENDER: list[socket.socket] = []
_SENDER_LOCK = threading.Lock()


def _datagram(payload: str) -> None:
    with _SENDER_LOCK:
        if not _SENDER:
            sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sender.settimeout(0.2)  # a listener's queue full for longer is not listening
            _SENDER.append(sender)
    try:
        places = [e.path for e in os.scandir(_socket_dir()) if e.name.endswith(".sock")]
    except FileNotFoundError:
        return  # no server process follows this database: no screen is open
    for place in places:
        try:
            _SENDER[0].sendto(payload.encode(), place)
        except (ConnectionRefusedError, FileNotFoundError):
            _unlink(place)  # left by a process that died
        except OSError as error:
            log.warning("live: a server process did not take an announcement (%s)", error)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# -- the hub: in each server process, in its event loop -----------------------------------


@dataclass(eq=False)
class Waiter:
    """One stream's interest in a topic: the newest version announced, and whether who may
    see it changed; set by the hub, taken by the stream."""

    topic: str
    newest: int = -1
    recheck: bool = False
    links: bool = False  # who may see it may have changed: the stream checks its own access
    event: asyncio.Event = field(default_factory=asyncio.Event)
    # More topics the screen shows (an event's board: each table's match). Their
    # announcements carry their own versions, not the screen's: they only make it look.
    also: frozenset[str] = frozenset()

    def wake(self, version: int | None, links: bool = False) -> None:
        self.links = self.links or links
        if version is None:
            self.recheck = True
        else:
            self.newest = max(self.newest, version)
        self.event.set()


class Hub:
    """The streams of one server process, by topic, and the one listener that wakes them."""

    def __init__(self, channel: Callable[[], AsyncIterator[str | None]] | None = None) -> None:
        self.topics: dict[str, set[Waiter]] = {}
        self.count = 0
        self._channel = channel
        self._task: asyncio.Task | None = None
        self._connections = 0

    def subscribe(self, topic: str) -> Waiter:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._listen())
        waiter = Waiter(topic)
        self.topics.setdefault(topic, set()).add(waiter)
        self.count += 1
        return waiter

    def unsubscribe(self, waiter: Waiter) -> None:
        waiters = self.topics.get(waiter.topic)
        if waiters is not None and waiter in waiters:
            waiters.discard(waiter)
            self.count -= 1
            if not waiters:
                del self.topics[waiter.topic]
        self.follow(waiter, frozenset())

    def follow(self, waiter: Waiter, topics: frozenset[str]) -> None:
        """``waiter`` is woken by ``topics`` too, from now on (and no more by the others it
        followed): what its screen's last render said it shows."""
        topics = topics - {waiter.topic}
        for topic in waiter.also - topics:
            waiters = self.topics.get(topic)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self.topics[topic]
        for topic in topics - waiter.also:
            self.topics.setdefault(topic, set()).add(waiter)
        waiter.also = topics

    def announce(self, payload: str) -> None:
        topic, _, what = payload.partition(" ")
        version = int(what) if what.isascii() and what.isdecimal() else None
        for waiter in self.topics.get(topic, ()):
            own = topic == waiter.topic
            waiter.wake(version if own else None, links=own and what == LINKS)

    def resync(self) -> None:
        """Every stream looks again: announcements may have been missed while the listener
        was (re)connecting."""
        for waiters in self.topics.values():
            for waiter in waiters:
                # After an outage a LINKS may be among those missed: each stream checks its
                # own access. At the first connection, streams are just made (only an event's
                # screens share renders, and an event announces no LINKS).
                waiter.wake(None, links=self._connections > 1)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    async def _listen(self) -> None:
        pause = 0.5
        while True:
            try:
                async for payload in (self._channel or channel)():
                    if payload is None:  # (re)connected
                        pause = 0.5
                        self._connections += 1
                        self.resync()
                    else:
                        self.announce(payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database or Redis went away: connect again
                log.warning("live: the listener lost its connection (%r); reconnecting", error)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)


def channel() -> AsyncIterator[str | None]:
    """The announcements this deployment makes, as they arrive: None once listening (and
    after each reconnection), then each payload."""
    if settings.REDIS_URL:
        return _listen_redis()
    if connections["default"].vendor == "postgresql":
        return _listen_postgres()
    return _listen_datagrams()


async def _listen_postgres() -> AsyncIterator[str | None]:
    import psycopg

    db = connections["default"].settings_dict
    django_only = {"pool", "isolation_level", "assume_role", "server_side_binding"}
    params = {k: v for k, v in db.get("OPTIONS", {}).items() if k not in django_only}
    for key, name in (("NAME", "dbname"), ("USER", "user"), ("PASSWORD", "password"),
                      ("HOST", "host"), ("PORT", "port")):  # fmt: skip
        if db.get(key):
            params[name] = db[key]
    async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
        await conn.execute(f"LISTEN {CHANNEL}")
        yield None
        while True:
            async for notify in conn.notifies(timeout=HEARTBEAT_S):
                yield notify.payload
            await conn.execute("SELECT 1")  # quiet for a while: is the connection still up?


async def _listen_redis() -> AsyncIterator[str | None]:
    import redis.asyncio as aioredis

    client = aioredis.from_url(settings.REDIS_URL, health_check_interval=HEARTBEAT_S)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.subscribe(_redis_channel())
        yield None
        async for message in pubsub.listen():
            if message.get("type") == "message":
                yield message["data"].decode()
    finally:
        await pubsub.aclose()
        await client.aclose()


async def _listen_datagrams() -> AsyncIterator[str | None]:
    directory = _socket_dir()
    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = os.path.join(directory, f"{os.getpid()}-{secrets.token_hex(4)}.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        sock.bind(path)
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        yield None
        while True:
            yield (await loop.sock_recv(sock, 4096)).decode()
    finally:
        sock.close()
        _unlink(path)
        try:
            os.rmdir(directory)  # the last process to leave takes the directory along
        except OSError:
            pass


# -- the stream ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """What a stream follows, and the view that renders an update of it (called with
    ``?version=`` of what the phone shows: 200 with the update, 204 if none, 404 shut out)."""

    topic: str
    render: str
    settle: float = 0.0  # the least time between two looks of a stream (or a shared render)


def table_screen(pk: int) -> Screen:
    return Screen(table_topic(pk), reverse("poll", args=[pk]))


def event_screen(pk: int) -> Screen:
    """An event's board, players' page or TV page: the event's own topic, and, as each
    render says (``X-Live-Follows``), the matches of the round it shows."""
    return Screen(f"event:{pk}", reverse("event_poll", args=[pk]), EVENT_SETTLE_S)


# URL name of a stream -> the screen it follows.
SCREENS: dict[str, Callable[..., Screen]] = {"live": table_screen, "event_live": event_screen}


def unavailable(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    """The stream's URL under a server that runs Django's WSGI handler alone (the test
    server, or gunicorn with config.wsgi): a stream that says at once there is none here,
    so the page polls and does not ask again (a refusal would be an error in its console)."""
    return HttpResponse(event("unavailable"), content_type="text/event-stream; charset=utf-8")


ASGI = Callable[[dict, Callable, Callable], Awaitable[None]]


class Router:
    """The ASGI application: a live screen's stream here, everything else to ``pages``."""

    def __init__(self, pages: ASGI, wsgi: Callable, executor: Any, hub: Hub | None = None):
        self.pages, self.wsgi, self.executor = pages, wsgi, executor
        self.hub = hub or Hub()
        self.looks = Looks()
        self.limit = settings.BONEYARD_LIVE_STREAMS
        self.lifetime = float(settings.BONEYARD_LIVE_SECONDS)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        screen = _screen_of(scope) if scope["type"] == "http" else None
        if screen is None:
            return await self.pages(scope, receive, send)
        await Stream(self, scope, receive, send, screen).serve()

    async def _lifespan(self, receive: Callable, send: Callable) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.hub.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def render(self, scope: dict, path: str, query: str) -> tuple[int, dict, bytes]:
        """A GET of ``path`` through the whole app, as this phone's htmx would send it."""
        headers = [
            (name, value)
            for name, value in scope.get("headers", [])
            if name not in (b"last-event-id", b"accept", b"hx-request", b"cache-control")
        ]
        headers += [(b"hx-request", b"true"), (b"accept", b"text/html")]
        sub = {**scope, "method": "GET", "path": path, "raw_path": path.encode(),
               "query_string": query.encode(), "headers": headers}  # fmt: skip
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, _call_wsgi, self.wsgi, sub)


def _screen_of(scope: dict) -> Screen | None:
    path = scope["path"]
    if scope["method"] != "GET" or not path.endswith("/live/"):
        return None
    try:
        found = resolve(path)
    except Resolver404:
        return None
    make = SCREENS.get(found.url_name or "")
    return make(*found.args, **found.kwargs) if make else None


def _call_wsgi(app: Callable, scope: dict) -> tuple[int, dict[str, str], bytes]:
    from a2wsgi.wsgi import build_environ

    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list, exc_info: Any = None) -> Callable:
        answer["status"], answer["headers"] = int(status.split(" ", 1)[0]), dict(headers)
        return lambda chunk: None

    body = build_environ(scope, io.BytesIO())  # type: ignore[arg-type]
    parts = app(body, start_response)
    try:
        content = b"".join(parts)
    finally:
        getattr(parts, "close", lambda: None)()
    return answer["status"], answer["headers"], content


def event(kind: str, data: str = "", id: int | None = None) -> bytes:
    """One Server-Sent Event; its data may span lines (a fragment of HTML)."""
    lines = [] if id is None else [f"id: {id}"]
    lines.append(f"event: {kind}")
    lines += [f"data: {line}" for line in re.split(r"\r\n|\r|\n", data)]
    return ("\n".join(lines) + "\n\n").encode()


@dataclass(eq=False)
class _Look:
    at: float  # the loop's time the render begins (or began)
    result: asyncio.Task


class Looks:
    """The renders the streams of one process share: a screen whose render says it is the
    same for every phone that sees it (``X-Live-Shared``: the event's TV page, the players'
    page) is rendered once for all its streams, at most once each ``settle`` seconds, and each
    stream is handed the same bytes. A stream takes a look begun after it was woken, never an
    older one: what it hands on saw every commit announced before."""

    KEPT_S = 60.0  # a key no stream asked for this long is forgotten

    def __init__(self) -> None:
        self.latest: dict[tuple, _Look] = {}
        self.renders = 0  # how many renders the streams shared (the tests count them)

    async def take(
        self,
        key: tuple,
        since: float,
        settle: float,
        render: Callable[[], Awaitable[tuple[int, dict, bytes]]],
    ) -> tuple[int, dict, bytes]:
        loop = asyncio.get_running_loop()
        look = self.latest.get(key)
        if look is None or look.at < since:
            now = loop.time()
            at = now if look is None else max(now, look.at + settle)
            look = _Look(at, loop.create_task(self._render_at(at, render)))
            self._forget(now)
            self.latest[key] = look
        # shielded: a phone that leaves does not take the render from the others
        return await asyncio.shield(look.result)

    async def _render_at(self, at: float, render: Callable) -> tuple[int, dict, bytes]:
        await asyncio.sleep(max(0.0, at - asyncio.get_running_loop().time()))
        self.renders += 1
        return await render()

    def _forget(self, now: float) -> None:
        for key in [k for k, v in self.latest.items() if v.at < now - self.KEPT_S]:
            del self.latest[key]


class Stream:
    """One phone's stream: the access check and a catch-up first, then each new version."""

    def __init__(self, router: Router, scope: dict, receive, send, screen: Screen) -> None:
        self.router, self.scope, self.receive, self.send = router, scope, receive, send
        self.screen = screen
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
        # The screen's own query (Dump Truck keeps the seat it enters for there), less the
        # version, which is the cursor: the newer of the page's and the browser's last event.
        self.query = [(k, v) for k, v in query if k != "version"]
        heard = [_number(v) for k, v in query if k == "version"]
        for name, value in scope.get("headers", []):
            if name == b"last-event-id":
                heard.append(_number(value.decode("latin-1")))
        self.cursor = max(heard, default=-1)
        self.waiter: Waiter | None = None
        self.shared: str | None = None  # what its last own render said it shares (Looks)
        self.looked = 0.0  # the loop's time of its last own look

    async def serve(self) -> None:
        router = self.router
        if not _host_allowed(self.scope):
            return await self._refuse(400, "Bad host.\n")
        if router.hub.count >= router.limit:
            # The page polls instead, and tries again later (live.js).
            return await self._refuse(503, "This server holds all the live screens it can.\n")
        waiter = router.hub.subscribe(self.screen.topic)  # before looking: nothing missed
        self.waiter = waiter
        try:
            # An event's screen asks for its whole render first: a 204 ("the page has it") names
            # none of the tables it follows, and a stream opened on the page's own version
            # heard no tap at any table (make load: TV pages that never moved).
            whole = self.screen.settle > 0
            status, version, body = await self._look(whole=whole)
            if status not in (200, 204):
                return await self._refuse(404 if status == 404 else 503, "No stream.\n")
            await self.send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
                (b"x-content-type-options", b"nosniff"),
            ]})  # fmt: skip
            first = f"retry: {random.randint(*RETRY_MS)}\n\n".encode() + event("ready")
            if status == 200 and (version > self.cursor or not whole):
                first += self._update(version, body)
            await self._write(first)
            await self._until_gone_or(self._follow(waiter))
        finally:
            router.hub.unsubscribe(waiter)

    async def _look(
        self, since: float | None = None, whole: bool = False
    ) -> tuple[int, int, bytes]:
        """What the screen shows now: this phone's own render (its access checked), or, from
        ``since`` on a screen whose renders are shared, the process's one render of it."""
        if since is not None and self.shared is not None:
            key = (self.screen.topic, self.screen.render, tuple(self.query), self.shared)
            status, headers, body = await self.router.looks.take(
                key, since, self.screen.settle, self._shared_render
            )
            if status == 200 and headers.get("X-Live-Shared") == self.shared:
                return self._took(headers, body, status)
            # Shut out, or no longer the same screen: this phone's own look says what now.
        loop = asyncio.get_running_loop()
        wait = self.looked + self.screen.settle - loop.time()
        if self.looked and wait > 0:
            await asyncio.sleep(wait)
            if self.waiter is not None:
                self.waiter.event.clear()  # what woke it meanwhile, this look sees
        self.looked = loop.time()
        asked = [] if whole else [("version", max(self.cursor, 0))]
        query = urlencode([*asked, *self.query])
        status, headers, body = await self.router.render(self.scope, self.screen.render, query)
        self.shared = headers.get("X-Live-Shared")
        return self._took(headers, body, status)

    async def _shared_render(self) -> tuple[int, dict, bytes]:
        # No version asked: the render is whole (200), whatever each stream already shows.
        return await self.router.render(self.scope, self.screen.render, urlencode(self.query))

    def _took(self, headers: dict, body: bytes, status: int) -> tuple[int, int, bytes]:
        if self.waiter is not None and "X-Live-Follows" in headers:
            follows = frozenset(headers["X-Live-Follows"].split()[:MOST_FOLLOWED])
            self.router.hub.follow(self.waiter, follows)
        return status, _number(headers.get("X-Table-Version", "")), body

    def _update(self, version: int, body: bytes) -> bytes:
        self.cursor = max(self.cursor, version)
        return event("update", body.decode(), id=version)

    async def _follow(self, waiter: Waiter) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.router.lifetime * random.uniform(1.0, 1.1)
        while (left := deadline - loop.time()) > 0:
            try:
                async with asyncio.timeout(min(HEARTBEAT_S, left)):
                    await waiter.event.wait()
            except TimeoutError:
                await self._write(event("ping"))
                continue
            waiter.event.clear()
            if waiter.newest <= self.cursor and not waiter.recheck:
                continue  # this phone has it (its own tap, or a catch-up that saw it)
            waiter.recheck = False
            since = None if waiter.links else loop.time()
            waiter.links = False
            status, version, body = await self._look(since)
            if status == 404:  # shut out (new links): said, and the stream ends
                await self._write(event("gone"))
                return
            if status == 200 and version > self.cursor:
                await self._write(self._update(version, body))
        # Lifetime over: the response ends and the browser reconnects with its last event.

    async def _until_gone_or(self, work: Awaitable[None]) -> None:
        """Run ``work`` until it ends or the phone goes away, whichever is first."""
        following = asyncio.ensure_future(work)
        listening = asyncio.ensure_future(self._disconnected())
        try:
            await asyncio.wait({following, listening}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (following, listening):
                task.cancel()
            await asyncio.gather(following, listening, return_exceptions=True)
        if following.done() and not following.cancelled() and following.exception() is None:
            await self.send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _disconnected(self) -> None:
        while (await self.receive())["type"] != "http.disconnect":
            pass

    async def _write(self, data: bytes) -> None:
        await self.send({"type": "http.response.body", "body": data, "more_body": True})

    async def _refuse(self, status: int, text: str) -> None:
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]
        if status == 503:
            headers.append((b"retry-after", b"60"))
        await self.send({"type": "http.response.start", "status": status, "headers": headers})
        await self.send({"type": "http.response.body", "body": text.encode()})


def _number(text: str) -> int:
    return int(text) if text.isascii() and text.isdecimal() and len(text) < 12 else -1


def _host_allowed(scope: dict) -> bool:
    """ALLOWED_HOSTS, as Django's handler checks it for every page."""
    host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "")
    domain, _ = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return bool(domain) and validate_host(domain, allowed)
