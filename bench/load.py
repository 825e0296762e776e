"""make load: a room of tables against gunicorn, on loopback.

The polling case: 50 tables of 4 phones, every phone polls its table every 2 s (as the page does
while its stream is not held), and at each table one phone records a play every 10 s (a lead,
then its undo, and so on). gunicorn runs as `make serve` runs it (2 workers of its asyncio
worker, pages in 4 threads each) on a fresh SQLite file. 60 s, then throughput, p50, p99 and
errors go to bench/results.json under "load".

The live case (issue 29): the same room on two servers sharing one PostgreSQL database (PG_URL,
default postgres://postgres@127.0.0.1:5432/boneyard), each phone holding its table's stream, two
on each server, and nothing else; the keepers tap as above. Every phone must see every version
recorded at its table; the push delay is from the keeper's answer to each phone's event. Under
"load_live". Traffic goes to 127.0.0.1 only, and stops by itself.

The club night (issue 32): an event of 400 players (100 tables, rotating) started on the same
two servers and one PostgreSQL database (``<PG_URL's database>_load_event_<random>``, made and
dropped by the run), each table's 4 phones holding its stream (two on each server) and taking
turns to record (each tap by the next phone), while 50 TV pages (25 on each server) hold the
event's stream. Every phone must see every version of its table; each TV page must end on the
event's last version; the TV's delay is from a tap's answer to the first TV update that shows
it. Under "load_event". LOAD_CASES (default ``room,live,event``) picks the cases to run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import Server, database, manage  # noqa: E402

TABLES, PHONES, POLL_S, PLAY_S = 50, 4, 2.0, 10.0
EVENT_TABLES, TVS = 100, 50
GRACE_S = 20.0  # the event case's streams are held this long after the last tap: late, not lost
SECONDS = float(os.environ.get("LOAD_SECONDS", "60"))
CASES = os.environ.get("LOAD_CASES", "room,live,event").split(",")
RESULTS = ROOT / "bench" / "results.json"
# LOAD_SERVER=wsgi runs the polling case on the threaded worker make serve ran before the
# live table, to compare; the live case needs the asyncio worker.
KIND = os.environ.get("LOAD_SERVER", "asgi")
GUNICORN = {
    "asgi": "2 workers of -k asgi (config.asgi), pages in 4 threads each; SQLite",
    "wsgi": "2 workers of -k gthread (config.wsgi), 4 threads each; SQLite",
}


class Phone:
    def __init__(self, port: int, number: int) -> None:
        self.port, self.cookies = port, {}
        # Behind one trusted proxy hop, each phone is its own client for the rate limits.
        self.address = f"10.{number // 250}.{number % 250}.7"

    async def request(self, method: str, path: str, form: dict | None = None):
        started = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        body = urllib.parse.urlencode(form).encode() if form is not None else b""
        lines = [
            f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: close",
            f"X-Forwarded-For: {self.address}", "HX-Request: true",
            "Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        ]  # fmt: skip
        if form is not None:
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
                f"X-CSRFToken: {self.cookies.get('csrftoken', '')}",
            ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await reader.read()
        writer.close()
        head, _, content = raw.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        for header in head.decode("latin-1").split("\r\n")[1:]:
            name, _, value = header.partition(":")
            if name.lower() == "set-cookie":
                key, _, rest = value.strip().partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return status, content.decode(errors="replace"), time.perf_counter() - started


async def sit_down(port: int, number: int, pk: int, token: str) -> tuple[list[Phone], int]:
    """The table's phones join with the Keep score link; the table's version."""
    phones = [Phone(port, number * PHONES + i) for i in range(PHONES)]
    for phone in phones:
        status, _, _ = await phone.request("GET", f"/matches/{pk}/join/{token}/")
        assert status == 302, status
    status, page, _ = await phones[0].request("GET", f"/matches/{pk}/")
    return phones, int(re.search(r'data-version="(\d+)"', page)[1])


async def table(phones: list[Phone], pk: int, version: int, timings: dict, deadline: float):
    state = {"version": version}

    async def poll(phone: Phone) -> None:
        seen = state["version"]
        await asyncio.sleep(random.uniform(0, POLL_S))
        while time.monotonic() < deadline:
            status, content, spent = await phone.request(
                "GET", f"/matches/{pk}/poll/?version={seen}"
            )
            timings.setdefault(f"poll {status}", []).append(spent)
            if status == 200:
                seen = int(re.search(r'data-version="(\d+)"', content)[1])
            await asyncio.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))

    async def keep_score(phone: Phone) -> None:
        await asyncio.sleep(random.uniform(0, PLAY_S))
        while time.monotonic() < deadline:
            version = state["version"]
            tap = (
                {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
                if version % 2 == 0
                else {"type": "undo"}
            )
            form = {**tap, "version": str(version), "key": f"load-{pk}-{version}"}
            status, _, spent = await phone.request("POST", f"/matches/{pk}/act/", form)
            timings.setdefault(f"play {status}", []).append(spent)
            if status == 200:
                state["version"] = version + 1
            await asyncio.sleep(min(PLAY_S, max(0.0, deadline - time.monotonic())))

    await asyncio.gather(keep_score(phones[0]), *(poll(p) for p in phones))


def matches(url: str) -> list[tuple[int, str]]:
    """Make the tables' matches straight in the database (creating 50 through the form would
    trip its rate limit, which is the point of the limit)."""
    code = (
        "import json; from scoring import services; "
        f"ms = [services.create_match('draw', ['Ana', 'Ben', 'Caro', 'Dan'], {{}}) "
        f"for _ in range({TABLES})]; "
        "print(json.dumps([[m.pk, m.keep_token] for m in ms]))"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code], cwd=ROOT,
        env=env | {"DATABASE_URL": url, "LOG_LEVEL": "ERROR"}, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


async def room(port: int, tables: list[tuple[int, str]]) -> tuple[dict, float]:
    seated = await asyncio.gather(
        *(sit_down(port, n, pk, token) for n, (pk, token) in enumerate(tables))
    )
    timings: dict[str, list[float]] = {}
    started = time.monotonic()
    deadline = started + SECONDS
    await asyncio.gather(
        *(
            table(phones, pk, version, timings, deadline)
            for (phones, version), (pk, _) in zip(seated, tables, strict=True)
        )
    )
    return timings, time.monotonic() - started


async def follow(
    phone: Phone, pk: int, seen: list, errors: list, deadline: float, path: str = ""
) -> None:
    """Hold the table's stream (or ``path``'s) until the deadline; each update as (version,
    when)."""
    # An event's update is its whole screen: the standings' rows are one line of HTML.
    reader, writer = await asyncio.open_connection("127.0.0.1", phone.port, limit=2**24)
    path = path or f"/matches/{pk}/live/?version=0"
    lines = [
        f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{phone.port}",
        f"X-Forwarded-For: {phone.address}",
        "Cookie: " + "; ".join(f"{k}={v}" for k, v in phone.cookies.items()),
    ]  # fmt: skip
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        errors.append(head.split(b"\r\n", 1)[0].decode())
        writer.close()
        return
    kind, version = "", None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                line = await asyncio.wait_for(reader.readline(), left)
            except TimeoutError:
                break
            if not line:
                errors.append("stream ended")
                break
            text = line.decode().rstrip("\r\n")
            if text.startswith("event: "):
                kind = text[7:]
            elif text.startswith("id: "):
                version = int(text[4:])
            elif text == "" and kind:
                if kind == "update":
                    seen.append((version, time.perf_counter()))
                kind, version = "", None
    finally:
        writer.close()


async def live_table(
    phones: list[Phone], pk: int, timings: dict, report: dict, deadline: float,
    turns: bool = False, grace: float = 3.0,
):  # fmt: skip
    """One table: every phone follows; the keeper taps every 10 s (with ``turns``, each tap
    by the next phone); then, what each saw once ``grace`` seconds have passed."""
    acked: dict[int, float] = {}
    seen: list[list] = [[] for _ in phones]
    errors: list[str] = []
    followers = [
        asyncio.create_task(follow(p, pk, seen[i], errors, deadline + grace))
        for i, p in enumerate(phones)
    ]
    await asyncio.sleep(random.uniform(1, PLAY_S))
    version = 0
    while time.monotonic() < deadline:
        tap = (
            {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
            if version % 2 == 0
            else {"type": "undo"}
        )
        form = {**tap, "version": str(version), "key": f"live-{pk}-{version}"}
        tapper = phones[version % len(phones)] if turns else phones[0]
        status, _, spent = await tapper.request("POST", f"/matches/{pk}/act/", form)
        timings.setdefault(f"play {status}", []).append(spent)
        if status == 200:
            version += 1
            acked[version] = time.perf_counter()
            report.setdefault("acks", []).append(acked[version])
        await asyncio.sleep(min(PLAY_S, max(0.0, deadline - time.monotonic())))
    await asyncio.gather(*followers)
    report["errors"] += errors
    for events in seen:
        got = {v for v, _ in events}
        report["missed"] += len(set(acked) - got)
        # A phone may be pushed a version before the keeper hears its own answer: 0 then.
        report["delays"] += [max(0.0, when - acked[v]) for v, when in events if v in acked]


async def live_room(ports: list[int], tables: list[tuple[int, str]]) -> tuple[dict, dict, float]:
    """Two phones of each table on each server."""
    seated = []
    for n, (pk, token) in enumerate(tables):
        phones = [Phone(ports[i % 2], n * PHONES + i) for i in range(PHONES)]
        for phone in phones:
            status, _, _ = await phone.request("GET", f"/matches/{pk}/join/{token}/")
            assert status == 302, status
        await phones[0].request("GET", f"/matches/{pk}/")  # the keeper's form (its CSRF cookie)
        seated.append(phones)
    timings: dict[str, list[float]] = {}
    report: dict = {"errors": [], "missed": 0, "delays": []}
    started = time.monotonic()
    deadline = started + SECONDS
    await asyncio.gather(
        *(
            live_table(phones, pk, timings, report, deadline)
            for phones, (pk, _) in zip(seated, tables, strict=True)
        )
    )
    return timings, report, time.monotonic() - started


def live_case() -> dict | None:
    """The live case on two servers sharing PostgreSQL; None (said) when it is not there."""
    base = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/boneyard")
    os.environ["DATABASE_URL"] = base
    try:
        import psycopg

        admin = urllib.parse.urlsplit(base)._replace(path="/postgres").geturl()
        psycopg.connect(admin, connect_timeout=3).close()
    except Exception as error:
        print(f"live case skipped: PostgreSQL not reachable at {base} ({error})")
        return None
    try:
        with database(Path(tempfile.mkdtemp())) as url:
            tables = matches(url)
            servers = [Server(url, workers=2).start() for _ in range(2)]
            try:
                timings, report, seconds = asyncio.run(live_room([s.port for s in servers], tables))
            finally:
                logs = [server.stop() for server in servers]
    finally:
        os.environ.pop("DATABASE_URL", None)
    delays = sorted(report["delays"])
    plays = [t for k, v in timings.items() if k.startswith("play") for t in v]
    errors = sum(len(v) for k, v in timings.items() if k.split()[1] != "200")
    return {
        "tables": TABLES, "phones": TABLES * PHONES, "servers": 2, "database": "PostgreSQL",
        "seconds": round(seconds, 1), "versions_pushed": len(delays),
        "push_p50_ms": round(statistics.median(delays) * 1000, 2) if delays else None,
        "push_p99_ms": round(statistics.quantiles(delays, n=100)[98] * 1000, 2)
        if len(delays) > 1 else None,
        "play_p50_ms": round(statistics.median(plays) * 1000, 2) if plays else None,
        "errors": errors + len(report["errors"]), "missed_versions": report["missed"],
        "stream_errors": report["errors"][:5],
        "server_tracebacks": sum(log.count("Traceback") for log in logs),
        "gunicorn": "2 servers × 2 workers of -k asgi (config.asgi), pages in 4 threads each",
    }  # fmt: skip


def night(url: str) -> dict:
    """An event of ``EVENT_TABLES`` tables made and its round 1 started by the app's own
    services, as the organizer's Seat and Start make it: each table's match and links."""
    code = (
        "import json; from scoring import services; from scoring.events import services as ev; "
        "from scoring.events.models import Event, EventTable; "
        f"names = ['Player %03d' % n for n in range({EVENT_TABLES * PHONES})]; "
        "e = ev.create_event('Load night', 'draw', {}, 'rotating', 'swiss', 3, None, names); "
        "ev.propose(e.pk, e.version, services.new_key()); e.refresh_from_db(); "
        "ev.start(e.pk, e.version, services.new_key()); "
        "rows = EventTable.objects.filter(round__event=e).order_by('number'); "
        "print(json.dumps({'pk': e.pk, 'watch': e.watch_token, 'version': ev.version_of(e.pk), "
        "'tables': "
        "[[t.match_id, t.match.keep_token] for t in rows.select_related('match')]}))"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code], cwd=ROOT,
        env=env | {"DATABASE_URL": url, "LOG_LEVEL": "ERROR"}, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


async def tv_page(phone: Phone, made: dict, seen: list, report: dict, deadline: float) -> None:
    """A TV page: joins with the players' link, loads the page, holds the event's stream."""
    pk = made["pk"]
    status, _, _ = await phone.request("GET", f"/events/{pk}/join/{made['watch']}/")
    if status != 302:
        report["errors"].append(f"TV join {status}")
        return
    status, page, spent = await phone.request("GET", f"/events/{pk}/tv/")
    report["tv_page"].append(spent)
    if status != 200:
        report["errors"].append(f"TV page {status}")
        return
    shown = re.search(r'data-version="(\d+)"', page)
    if shown is None:
        report["errors"].append("TV page without its version")
        return
    version = int(shown[1])
    report["start_versions"].append(version)
    path = f"/events/{pk}/live/?version={version}&screen=tv"
    await follow(phone, pk, seen, report["errors"], deadline + GRACE_S, path)


async def event_room(ports: list[int], made: dict) -> tuple[dict, dict, float]:
    """Each table's phones (two on each server) hold its stream and take turns to tap; the TV
    pages hold the event's."""
    seated = []
    for n, (pk, token) in enumerate(made["tables"]):
        phones = [Phone(ports[i % 2], n * PHONES + i) for i in range(PHONES)]
        for phone in phones:
            status, _, _ = await phone.request("GET", f"/matches/{pk}/join/{token}/")
            assert status == 302, status
            await phone.request("GET", f"/matches/{pk}/")  # its form (its CSRF cookie)
        seated.append(phones)
    screens = [Phone(ports[i % 2], EVENT_TABLES * PHONES + i) for i in range(TVS)]
    timings: dict[str, list[float]] = {}
    report: dict = {"errors": [], "missed": 0, "delays": [], "tv_page": [], "start_versions": []}
    tv_seen: list[list] = [[] for _ in screens]
    started = time.monotonic()
    deadline = started + SECONDS
    watching = [
        asyncio.create_task(tv_page(tv, made, tv_seen[i], report, deadline))
        for i, tv in enumerate(screens)
    ]
    await asyncio.gather(
        *(
            live_table(phones, pk, timings, report, deadline, turns=True, grace=GRACE_S)
            for phones, (pk, _) in zip(seated, made["tables"], strict=True)
        )
    )
    await asyncio.gather(*watching)
    report["tv_seen"] = tv_seen
    return timings, report, time.monotonic() - started


@contextmanager
def event_database(base: str) -> Iterator[str]:
    """A database of the run's own, named after PG_URL's, migrated, dropped afterwards."""
    import psycopg

    parts = urllib.parse.urlsplit(base)
    # Its own name each run: two runs on one server never drop each other's database.
    name = f"{parts.path.lstrip('/') or 'boneyard'}_load_event_{secrets.token_hex(3)}"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = parts._replace(path=f"/{name}").geturl()
    try:
        manage(url, "migrate", "--noinput")
        yield url
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def event_case() -> dict | None:
    """The club night on two servers sharing PostgreSQL; None (said) when it is not there."""
    base = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/boneyard")
    try:
        import psycopg

        admin = urllib.parse.urlsplit(base)._replace(path="/postgres").geturl()
        psycopg.connect(admin, connect_timeout=3).close()
    except Exception as error:
        print(f"event case skipped: PostgreSQL not reachable at {base} ({error})")
        return None
    with event_database(base) as url:
        made_at = time.perf_counter()
        made = night(url)
        made_s = time.perf_counter() - made_at
        servers = [Server(url, workers=2).start() for _ in range(2)]
        try:
            timings, report, seconds = asyncio.run(event_room([s.port for s in servers], made))
        finally:
            logs = [server.stop() for server in servers]
    delays = sorted(report["delays"])
    plays = [t for k, v in timings.items() if k.startswith("play") for t in v]
    errors = sum(len(v) for k, v in timings.items() if k.split()[1] != "200")
    # The event's version is its own plus every table's: each tap moves it by one. The n-th
    # tap answered (in time) is shown once a TV update carries the version before any tap + n
    # (not a TV page's own first version: the pages load while the first taps land).
    acks = sorted(report.get("acks", []))
    start = made["version"]
    tv_delays, tv_behind, updates, finals = [], 0, 0, []
    for seen in report["tv_seen"]:
        updates += len(seen)
        final = max((v for v, _ in seen), default=start)
        finals.append(final)
        tv_behind += final < start + len(acks)
        for n, acked in enumerate(acks, 1):
            shown = next((when for v, when in seen if v >= start + n), None)
            if shown is not None:
                tv_delays.append(max(0.0, shown - acked))
    tv_delays.sort()
    pages = sorted(report["tv_page"])

    def ms(values: list[float], q: int | None = None) -> float | None:
        if not values:
            return None
        if q is None:
            return round(statistics.median(values) * 1000, 1)
        return (
            round(statistics.quantiles(values, n=100)[q - 1] * 1000, 1) if len(values) > 1 else None
        )

    return {
        "tables": EVENT_TABLES, "players": EVENT_TABLES * PHONES, "phones": EVENT_TABLES * PHONES,
        "tv_pages": TVS, "servers": 2, "database": "PostgreSQL", "made_s": round(made_s, 1),
        "seconds": round(seconds, 1), "taps": len(acks), "play_p50_ms": ms(plays),
        "play_p99_ms": ms(plays, 99), "versions_pushed": len(delays),
        "push_p50_ms": ms(delays), "push_p99_ms": ms(delays, 99),
        "tv_page_p50_ms": ms(pages), "tv_page_p99_ms": ms(pages, 99), "tv_updates": updates,
        "tv_delay_p50_ms": ms(tv_delays), "tv_delay_p99_ms": ms(tv_delays, 99),
        "tv_behind_at_end": tv_behind,
        # How far: the last version the TVs ended on, against the one every tap makes.
        "tv_final_versions": [min(finals, default=start), max(finals, default=start)],
        "tv_target_version": start + len(acks),
        "errors": errors + len(report["errors"]), "missed_versions": report["missed"],
        "stream_errors": report["errors"][:5],
        "server_tracebacks": sum(log.count("Traceback") for log in logs),
        "gunicorn": "2 servers × 2 workers of -k asgi (config.asgi), pages in 4 threads each",
        "load_average": os.getloadavg(),
    }  # fmt: skip


def room_case() -> dict:
    """The polling case on one server and SQLite."""
    os.environ.pop("DATABASE_URL", None)  # SQLite, as make serve uses by default
    with database(Path(tempfile.mkdtemp())) as url:
        tables = matches(url)
        server = Server(url, workers=2, kind=KIND).start()
        try:
            timings, seconds = asyncio.run(room(server.port, tables))
        finally:
            log = server.stop()
    every = [t for spent in timings.values() for t in spent]
    errors = sum(len(v) for k, v in timings.items() if k.split()[1] not in ("200", "204"))
    return {
        "tables": TABLES, "phones": TABLES * PHONES, "seconds": round(seconds, 1),
        "requests": len(every), "throughput_rps": round(len(every) / seconds, 1),
        "p50_ms": round(statistics.median(every) * 1000, 2),
        "p99_ms": round(statistics.quantiles(every, n=100)[98] * 1000, 2),
        "errors": errors, "by_kind": {k: len(v) for k, v in sorted(timings.items())},
        "server_tracebacks": log.count("Traceback"),
        "gunicorn": GUNICORN[KIND],
    }  # fmt: skip


def main() -> None:
    os.environ["BONEYARD_PROXY_HOPS"] = "1"
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if "room" in CASES:
        load = room_case()
        results["load" if KIND == "asgi" else "load_wsgi"] = load
        for name, value in load.items():
            print(f"{name:<18} {value}")
        budget = load["errors"] == 0 and load["p99_ms"] <= 50
        print(f"\nbudget: 0 errors and p99 <= 50 ms: {'met' if budget else 'MISSED'}\n")
    live = live_case() if KIND == "asgi" and "live" in CASES else None
    if live is not None:
        results["load_live"] = live
        for name, value in live.items():
            print(f"{name:<18} {value}")
        met = live["errors"] == 0 and live["missed_versions"] == 0
        print(f"\nbudget: 0 errors, every phone sees every version: {'met' if met else 'MISSED'}")
    night_out = event_case() if KIND == "asgi" and "event" in CASES else None
    if night_out is not None:
        results["load_event"] = night_out
        for name, value in night_out.items():
            print(f"{name:<18} {value}")
        met = (
            night_out["errors"] == 0
            and night_out["missed_versions"] == 0
            and night_out["tv_behind_at_end"] == 0
        )
        verdict = "met" if met else "MISSED"
        print(f"\nbudget: 0 errors, every phone and TV sees every version: {verdict}")
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
