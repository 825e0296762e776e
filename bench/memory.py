"""A worker's memory after the memory attack of issue 17 (python bench/memory.py; make bench
runs it): one gunicorn worker on loopback, its resident size read from /proc before and after.

The attack: 50 imports of one round of 4,500 play/undo pairs (the referee now refuses a round
longer than a real one can be); then 200 matches whose single round is as long as the
referee allows, each table opened twice as it is imported (every replay is cached); then 40
desk positions of about 490 KB (35 such rounds each), and 40 of 200 one-lead rounds, each
opened twice; then the tables and the desk once more, to show the worker stays where it
was. The caches are bounded by the bytes they hold (estimated, never less than they hold:
scoring.caches), so what the worker keeps stays near the budgets whatever is thrown.
Writes bench/results.json under "memory" and prints the figures.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Client, Server, database  # noqa: E402

RESULTS = ROOT / "bench" / "results.json"
PLAYERS = ["Ana", "Ben", "Caro"]


def document(actions: list[dict], rounds: int = 1) -> dict:
    return {
        "format": "boneyard-match/1",
        "game": "draw",
        "players": PLAYERS,
        "rounds": [{"actions": actions} for _ in range(rounds)],
    }


def churn(pairs: int) -> list[dict]:
    """A lead, then ``pairs`` plays each taken back: legal, and as long as one likes."""
    actions = [{"type": "play", "seat": 0, "tile": "6-6"}]
    for _ in range(pairs):
        actions += [{"type": "play", "seat": 1, "tile": "6-5", "on": "6-6"}, {"type": "undo"}]
    return actions


def long_match(players: list[str], rounds: int) -> dict:
    """A Block match of ``rounds`` rounds as long as the referee allows (plays taken back
    again and again), each won by a domino over a blank double: nobody ever scores, so the
    match goes on. 35 rounds are about 490 KB, near the desk's 512 KB."""
    played = []
    for n in range(rounds):
        lead, other = n % 2, 1 - n % 2  # the winner's neighbour leads the next round
        actions = [{"type": "play", "seat": lead, "tile": "6-6"}]
        actions += [{"type": "play", "seat": other, "tile": "6-5", "on": "6-6"},
                    {"type": "undo"}] * 185  # fmt: skip
        actions += [
            {"type": "play", "seat": other, "tile": "6-5", "on": "6-6"},
            {"type": "play", "seat": lead, "tile": "5-4", "on": "6-5"},
            {"type": "tally", "hands": {str(other): ["0-0"]}},
        ]
        played.append({"actions": actions})
    return {"format": "boneyard-match/1", "game": "block", "options": {"hand_size": 2},
            "players": players, "rounds": played}  # fmt: skip


def short_rounds(players: list[str], rounds: int = 200) -> dict:
    """A Block match of as many rounds as a match may hold, each one lead that dominoes
    (the other seat holds the 0-0: nobody scores). Little to read, much to keep: each
    round's replay holds its deal and its states (issue 28: 402 "actions" held 3.4 MB)."""
    one = [{"type": "play", "seat": 0, "tile": "6-6"}, {"type": "tally", "pips": {"1": 0}}]
    return {"format": "boneyard-match/1", "game": "block", "options": {"hand_size": 1},
            "players": players, "rounds": [{"actions": one}] * rounds}  # fmt: skip


def rss_kb(server: Server) -> int:
    """The resident size of the server's one worker (the master's child)."""
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
    worker = int(children.read_text().split()[0])
    status = Path(f"/proc/{worker}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1])


class Phone(Client):
    """A phone behind the one proxy the server is told of, each request from a new
    address: the rate limits would otherwise stop the attack after ten imports."""

    addresses = iter(range(1, 1 << 24))

    def _send(self, method, path, form, content_type):  # noqa: ANN001
        n = next(self.addresses)
        self.headers["X-Forwarded-For"] = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
        return super()._send(method, path, form, content_type)


def upload(phone: Client, url: str, doc: dict, field: str = "document") -> tuple[int, str]:
    """A multipart upload of ``doc`` as the import form sends it."""
    boundary = "boneyardbench"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="m.json"\r\n'
        f"Content-Type: application/json\r\n\r\n{json.dumps(doc)}\r\n--{boundary}--\r\n"
    ).encode()
    return phone.post(url, body, f"multipart/form-data; boundary={boundary}")


def main() -> dict:
    from referee.document import most_actions

    longest = most_actions(6)
    with database(Path(tempfile.mkdtemp())) as url:
        server = Server(url, env={"BONEYARD_PROXY_HOPS": "1"}).start()
        try:
            phone = Phone(server.port)
            phone.get("/")
            phone.get("/matches/new/")
            time.sleep(0.5)
            before = rss_kb(server)
            refused = 0
            for _ in range(50):
                upload(phone, "/matches/import/", document(churn(4_500)))
                refused += phone.location == "/"  # refused: back home with the reason
            after_refused = rss_kb(server)
            long_round = churn((longest - 1) // 2)
            after: list[tuple[int, int]] = []
            for round_ in range(2):
                pks = []
                for _ in range(200):
                    upload(phone, "/matches/import/", document(long_round))
                    pks += re.findall(r"/matches/(\d+)/$", phone.location)
                    for _ in range(2):  # opened at once: a phone keeps its 30 newest tables
                        assert phone.get(phone.location)[0] == 200
                after_tables = rss_kb(server)
                positions = set()
                for n in range(40):
                    players = [f"Ana{round_}-{n}", "Ben"]
                    upload(phone, "/referee/", long_match(players, rounds=35))
                    positions.update(re.findall(r"/referee/([\w-]{22})/$", phone.location))
                for _ in range(2):
                    for key in positions:
                        assert phone.get(f"/referee/{key}/")[0] == 200
                after_long = rss_kb(server)
                short = set()
                for n in range(40):
                    upload(phone, "/referee/", short_rounds([f"Caro{round_}-{n}", "Dan"]))
                    short.update(re.findall(r"/referee/([\w-]{22})/$", phone.location))
                for _ in range(2):
                    for key in short:
                        assert phone.get(f"/referee/{key}/")[0] == 200
                after.append((after_tables, after_long, rss_kb(server)))
        finally:
            server.stop()
    figures = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "longest_round_actions": longest,
        "hostile_imports_refused": refused,
        "tables_cached": len(pks),
        "positions": len(positions),
        "rss_start_mb": round(before / 1024, 1),
        "rss_after_refused_imports_mb": round(after_refused / 1024, 1),
        "rss_after_tables_mb": round(after[0][0] / 1024, 1),
        "rss_after_desk_mb": round(after[0][1] / 1024, 1),
        "rss_after_short_rounds_mb": round(after[0][2] / 1024, 1),
        "rss_after_tables_again_mb": round(after[1][0] / 1024, 1),
        "rss_after_desk_again_mb": round(after[1][2] / 1024, 1),
    }
    return figures


if __name__ == "__main__":
    figures = main()
    for name, value in figures.items():
        print(f"  {name:32} {value}")
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results["memory"] = figures
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
