"""Real app servers for the load and crash tests: gunicorn processes on loopback, run as make
serve runs them, sharing nothing but a database made for the test (a SQLite file, or a fresh
PostgreSQL database on the server the PostgreSQL leg uses), and a small HTTP client with its
own cookies."""

from __future__ import annotations

import atexit
import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from email.message import Message
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def database(tmp_path: Path) -> Iterator[str]:
    """A DATABASE_URL for a database made for this test, migrated, dropped afterwards. The
    migrations run once a process, into a template each test's database is copied from (a
    migrate is two seconds of CPU, and the load tests make about fifteen databases a leg)."""
    base = os.environ.get("DATABASE_URL", "")
    if base.startswith(("postgres://", "postgresql://")):
        import psycopg

        name = f"boneyard_load_{secrets.token_hex(4)}"
        admin = urllib.parse.urlsplit(base)._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_template(base)}"')
        url = urllib.parse.urlsplit(base)._replace(path=f"/{name}").geturl()
        try:
            yield url
        finally:
            _drop(admin, name)
    else:
        copy = tmp_path / "load.sqlite3"
        shutil.copyfile(_template(""), copy)
        yield f"sqlite:///{copy}"


@cache
def _template(base: str) -> str:
    """A migrated database this process copies each test's from: a PostgreSQL database's
    name (dropped when the process ends), or a SQLite file's path."""
    if not base:
        path = Path(tempfile.mkdtemp()) / "template.sqlite3"
        manage(f"sqlite:///{path}", "migrate", "--noinput")
        return str(path)
    import psycopg

    name = f"boneyard_load_template_{secrets.token_hex(4)}"
    admin = urllib.parse.urlsplit(base)._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    atexit.register(_drop, admin, name)
    manage(urllib.parse.urlsplit(base)._replace(path=f"/{name}").geturl(), "migrate", "--noinput")
    return name


def _drop(admin: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environment(url: str) -> dict[str, str]:
    skip = {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in skip}
    # Production settings, as make serve runs them, over plain HTTP on loopback.
    return env | {
        "DATABASE_URL": url, "DEBUG": "0", "LOG_LEVEL": "ERROR", "ALLOWED_HOSTS": "127.0.0.1",
        "SECRET_KEY": "load-test-" + "s" * 50, "BONEYARD_SSL_REDIRECT": "0",
        "BONEYARD_SECURE_COOKIES": "0", "BONEYARD_HSTS_SECONDS": "0",
        "PYTHONFAULTHANDLER": "1",  # a hung server's threads, dumped to its log (stop())
    }  # fmt: skip


def manage(url: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment(url),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if check and result.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)}: {result.stderr[-2000:]}")
    return result


@dataclass
class Server:
    url: str  # the database
    port: int = field(default_factory=free_port)
    workers: int = 1
    process: subprocess.Popen | None = None
    log: Path | None = None
    env: dict[str, str] = field(default_factory=dict)  # more settings (REDIS_URL)
    # "asgi": as make serve runs it; "wsgi": gunicorn's threaded worker on config.wsgi, as it
    # ran before the live table (the benches compare the two).
    kind: str = "asgi"
    told: bool = False  # sent its SIGTERM

    def start(self) -> Server:
        return self.launch().ready()

    def launch(self) -> Server:
        """The process started, not yet answering (:func:`start_all` starts several at once:
        each spends a second of CPU importing Django, and they overlap)."""
        # A file, not a pipe: a pipe nobody reads fills up and blocks every worker.
        self.log = Path(tempfile.mkdtemp()) / "server.log"
        # As make serve runs it: gunicorn's asyncio worker, pages in 4 threads a process,
        # and each open table's live stream (scoring.live).
        shape = (["config.asgi", "-k", "asgi"] if self.kind == "asgi"
                 else ["config.wsgi", "-k", "gthread", "--threads", "4"])  # fmt: skip
        self.process = subprocess.Popen(
            [str(GUNICORN), *shape, "-b", f"127.0.0.1:{self.port}",
             "-w", str(self.workers), "--no-control-socket", "--log-level", "warning"],
            cwd=ROOT, env=environment(self.url) | self.env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=self.log.open("wb"),
        )  # fmt: skip
        return self

    def ready(self) -> Server:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if Client(self.port).get("/healthz")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        self.kill()  # not left running after the test
        raise RuntimeError(f"the server did not come up: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """kill -9, master and workers at once, as a power cut would."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def quit(self) -> None:
        """SIGTERM to the master, once (a second could land in its shutdown), not waited
        for (:meth:`stop` waits)."""
        if self.process and self.process.poll() is None and not self.told:
            self.told = True
            self.process.send_signal(signal.SIGTERM)

    def stop(self) -> str:
        """Graceful shutdown: SIGTERM to the master alone, which passes it on to its workers
        once; each finishes what it is answering and closes its idle keep-alive connections
        (within 2 s). Not SIGQUIT, the quick shutdown: a gthread worker handles it by shutting
        its thread pool down from the signal handler, and when the signal lands while the
        worker is handing a connection to that pool (a phone's connection closing will do),
        the handler waits forever for the lock the interrupted code holds (gunicorn 27; sent
        to the whole process group, which delivered it twice, one stop in two hung). A
        server that still does not quit is killed, its threads' stacks in the error."""
        self.quit()
        if self.process and self.process.poll() is None:
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                # SIGSEGV: Python's fault handler writes every thread's stack to the log.
                os.killpg(self.process.pid, signal.SIGSEGV)
                time.sleep(1)
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
                raise RuntimeError(
                    f"the server on port {self.port} did not quit within 10 s of SIGTERM:\n"
                    + self.log.read_text(errors="replace")[-6000:]
                ) from None
        return self.log.read_text(errors="replace") if self.log else ""


def start_all(servers: list[Server]) -> list[Server]:
    """Start every server at once, and wait until each answers."""
    for server in servers:
        server.launch()
    return [server.ready() for server in servers]


def stop_all(servers: list[Server]) -> list[str]:
    """Stop every server, even after one of them hung (each is killed either way), and
    then say which hung; their logs, in order."""
    logs, hung = [], []
    for server in servers:  # all told at once: each may wait its 2 s for idle connections
        server.quit()
    for server in servers:
        try:
            logs.append(server.stop())
        except RuntimeError as error:
            hung.append(str(error))
    if hung:
        raise RuntimeError("; ".join(hung))
    return logs


class Client:
    """One phone: its own connection and cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None
        self.headers: dict[str, str] = {}  # sent with every request
        self.location = ""  # the last answer's Location (where a redirect goes)
        self.answered: Message | dict = {}  # the last answer's headers (names in any case)

    def request(
        self, method: str, path: str, form: dict | bytes | None = None, content_type: str = ""
    ) -> tuple[int, str]:
        """Send once; if a kept-alive connection had been closed by the server meanwhile,
        connect again and send the same request again (a POST carries its idempotency
        key, so the server records it at most once, as when the page retries)."""
        reused = self.connection is not None
        try:
            return self._send(method, path, form, content_type)
        except ConnectionError:
            if not reused:
                raise
            return self._send(method, path, form, content_type)

    def _send(
        self, method: str, path: str, form: dict | bytes | None, content_type: str
    ) -> tuple[int, str]:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        headers |= self.headers
        body = None
        if form is not None:
            # A dict is a form as a browser sends it; bytes go as they are (a hostile client).
            body = form if isinstance(form, bytes) else urllib.parse.urlencode(form)
            headers |= {
                "Content-Type": content_type or "application/x-www-form-urlencoded",
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
                "HX-Request": "true",
                "Referer": f"http://127.0.0.1:{self.port}/",
            }
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            text = response.read().decode(errors="replace")
        except (OSError, http.client.HTTPException) as error:
            # Whatever broke the exchange (refused, reset, a body cut short by a dying
            # server), the phone sees one thing: no answer.
            self.connection.close()
            self.connection = None
            if isinstance(error, OSError):
                raise
            raise ConnectionError(f"no answer: {error!r}") from error
        self.location = response.getheader("Location") or ""
        self.answered = response.headers
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, text

    def get(self, path: str) -> tuple[int, str]:
        return self.request("GET", path)

    def post(self, path: str, form: dict | bytes, content_type: str = "") -> tuple[int, str]:
        return self.request("POST", path, form, content_type)


def new_match(port: int, game: str = "draw") -> tuple[int, str]:
    """Create a match as its creator's phone would; the match id and its Keep score link."""
    creator = Client(port)
    creator.get("/matches/new/")
    status, _ = creator.post(
        "/matches/new/", {"game": game, "player-0": "Ana", "player-1": "Ben", "player-2": "Caro"}
    )
    assert status == 302, status
    status, page = creator.get("/")
    pk = int(re.search(r'href="/matches/(\d+)/"', page)[1])
    _, table = creator.get(f"/matches/{pk}/")
    link = re.search(rf"/matches/{pk}/join/[\w-]+/", table)[0]
    return pk, link


def verify(url: str) -> subprocess.CompletedProcess:
    return manage(url, "verify_matches", check=False)


def read(url: str, sql: str, *params: object) -> list[tuple]:
    """Rows the server's own database holds, read over a connection of their own (this
    process's Django connection is the test database's, not the server's). Plain SQL,
    not a ``manage.py shell``: starting Django in a process for each look was a second of
    CPU, about fifteen a leg. Name a model's table by ``table(Model)``, ``?`` its parameters."""
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        with psycopg.connect(url) as conn:
            return conn.execute(sql.replace("?", "%s"), params).fetchall()
    import sqlite3

    with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as conn:
        return conn.execute(sql, params).fetchall()


def table(model: type) -> str:
    """The table a model's rows are in, as its migrations made it."""
    return model._meta.db_table


def stored(url: str, pk: int) -> dict:
    """What the database holds for the match: its version and its log's (round, seq, key)."""
    from scoring.models import Action, Match, Round

    [(version,)] = read(url, f"SELECT version FROM {table(Match)} WHERE id = ?", pk)
    rows = read(
        url,
        f"SELECT r.number, a.seq, a.idempotency_key FROM {table(Action)} a "
        f"JOIN {table(Round)} r ON a.round_id = r.id WHERE r.match_id = ? "
        "ORDER BY r.number, a.seq",
        pk,
    )
    return {"version": version, "rows": [list(row) for row in rows]}


def stored_players(url: str) -> list[str]:
    """The names of every player the database holds, in order."""
    from scoring.models import Player

    return [name for (name,) in read(url, f"SELECT name FROM {table(Player)} ORDER BY name")]


class Stream:
    """A phone's live stream (Server-Sent Events) on its own connection, read in a thread:
    ``next()`` gives each event as (kind, id, data); ("end", None, "") when the stream ends."""

    def __init__(self, phone: Client, path: str) -> None:
        import queue
        import threading

        self.events: queue.Queue = queue.Queue()
        self.connection = http.client.HTTPConnection("127.0.0.1", phone.port, timeout=120)
        cookies = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        self.connection.request("GET", path, headers={"Cookie": cookies})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        fields: dict[str, list[str]] = {}
        buffer = b""
        try:
            # read1: what has come, at once (iterating lines would wait for a buffer's worth)
            while chunk := self.response.read1(65536):
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for raw in lines:
                    line = raw.decode().rstrip("\r")
                    if line:
                        name, _, value = line.partition(":")
                        fields.setdefault(name, []).append(value.removeprefix(" "))
                        continue
                    if "event" in fields:
                        kind, id = fields["event"][0], fields.get("id", [None])[0]
                        self.events.put((kind, id, "\n".join(fields.get("data", []))))
                    fields = {}
        except Exception:  # closed under the reader (close()), or cut by the server: the end
            pass
        self.events.put(("end", None, ""))

    def next(self, timeout: float = 30) -> tuple[str, str | None, str]:
        """The next event (the timeout guards against a hang; it measures nothing)."""
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        # Shut the socket first: the reader holds the response while it waits for the next
        # event, and closing the response alone would wait for that event.
        if self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()
