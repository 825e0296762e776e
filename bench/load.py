"""make load: a room of tables against gunicorn, on loopback.

50 tables of 4 phones: every phone polls its table every 2 s (as the page does), and at each
table one phone records a play every 10 s (a lead, then its undo, and so on). gunicorn runs with
2 workers (gthread, 4 threads each) on a fresh SQLite file, as `make serve` would. The
generator runs 60 s, then reports throughput, p50, p99 and errors, and adds them to
bench/results.json under "load". Traffic goes to 127.0.0.1 only, and stops by itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import Server, database  # noqa: E402

TABLES, PHONES, POLL_S, PLAY_S = 50, 4, 2.0, 10.0
SECONDS = float(os.environ.get("LOAD_SECONDS", "60"))
RESULTS = ROOT / "bench" / "results.json"


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


def main() -> None:
    os.environ["BONEYARD_PROXY_HOPS"] = "1"
    os.environ.pop("DATABASE_URL", None)  # SQLite, as make serve uses by default
    with database(Path(tempfile.mkdtemp())) as url:
        tables = matches(url)
        server = Server(url, workers=2).start()
        try:
            timings, seconds = asyncio.run(room(server.port, tables))
        finally:
            log = server.stop()
    every = [t for spent in timings.values() for t in spent]
    errors = sum(len(v) for k, v in timings.items() if k.split()[1] not in ("200", "204"))
    load = {
        "tables": TABLES, "phones": TABLES * PHONES, "seconds": round(seconds, 1),
        "requests": len(every), "throughput_rps": round(len(every) / seconds, 1),
        "p50_ms": round(statistics.median(every) * 1000, 2),
        "p99_ms": round(statistics.quantiles(every, n=100)[98] * 1000, 2),
        "errors": errors, "by_kind": {k: len(v) for k, v in sorted(timings.items())},
        "server_tracebacks": log.count("Traceback"),
        "gunicorn": "2 workers, gthread, 4 threads each; SQLite",
    }  # fmt: skip
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results["load"] = load
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    for name, value in load.items():
        print(f"{name:<18} {value}")
    budget = load["errors"] == 0 and load["p99_ms"] <= 50
    print(f"\nbudget: 0 errors and p99 <= 50 ms: {'met' if budget else 'MISSED'}")
    print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
