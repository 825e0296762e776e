"""make bench, club nights through the app (issue 32): a world championship's event on
PostgreSQL, every page through Django's full stack.

An event of 800 players (200 tables, ``rotating``, block with a score pad to 100) is run the
way an organizer runs it: each round is seated and started by POSTs to the event's own views
(Start makes every table's match with ``services.create_match``), every table's match is
finished by one real score-pad hand recorded through ``services.record`` (the side that
dominoes scores its opponents' pips: a result the referee checked, not a row written), and the
round is closed. At round 10 (nine rounds played) the seating is timed, re-seated several
times; round 10 is started and half its tables finished, and the organizer's board, the
players' page, the TV page and their polls are timed while it is played; then the other half
finishes, the round is closed, and the same pages are timed again with 2,000 results behind
them. Each page's queries are counted once more outside the timing.

The database is made for the run and dropped after it: ``<PG_URL's database>_event_bench_`` and
a random tail (PG_URL defaults to postgres://postgres@127.0.0.1:5432/boneyard); no PostgreSQL,
no figures (said). EVENT_PLAYERS shrinks the event for a trial run; EVENT_KEEP=1 keeps the
database afterwards (to profile a page against it). No timing is asserted anywhere; the budgets
(issue 32: seat a round <= 1 s, the standings page <= 50 ms at round 10, the board <= 100 ms,
the standings in <= 10 queries) are compared and printed. Adds "event_pages" to
bench/results.json. Run alone: ``python bench/event_pages.py``.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import secrets
import statistics
import sys
import time
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import events as referee_bench  # noqa: E402 (its median_ms)

RESULTS = ROOT / "bench" / "results.json"
PG_URL = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/boneyard")
PLAYERS = int(os.environ.get("EVENT_PLAYERS", "800"))
ROUNDS = 10
TARGET = 100
HX = {"HTTP_HX_REQUEST": "true"}
BUDGETS = {
    "seat_ms": 1_000, "players_page_ms": 50, "board_ms": 100, "standings_queries": 10,
}  # fmt: skip


def bench_database() -> tuple[str, str]:
    """The admin URL and the URL of a database made for this run."""
    parts = urllib.parse.urlsplit(PG_URL)
    # Its own name each run: two runs on one server never drop each other's database.
    name = f"{parts.path.lstrip('/') or 'boneyard'}_event_bench_{secrets.token_hex(3)}"
    return parts._replace(path="/postgres").geturl(), parts._replace(path=f"/{name}").geturl()


def median_ms(run: Callable[[], object], times: int) -> float:
    run()  # warm: the first render of a version is not what a watcher waits for
    return referee_bench.median_ms(run, times)


def figures() -> dict:  # noqa: PLR0915 -- one event, told in order
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from scoring import services
    from scoring.events import services as events
    from scoring.events import views as event_views
    from scoring.events.models import Event, EventTable
    from scoring.models import Match

    call_command("migrate", verbosity=0)
    call_command("createcachetable")
    limits = {"join": (10**9, 60), "create": (10**9, 60), "desk": (10**9, 60)}
    settings = override_settings(BONEYARD_RATE_LIMITS=limits)
    settings.enable()
    chance = random.Random(32)
    out: dict = {"players": PLAYERS, "tables": PLAYERS // 4, "rounds": ROUNDS}

    started = time.perf_counter()
    names = [f"Player {n:03}" for n in range(PLAYERS)]
    options = {"record": "scores", "target": TARGET}
    event = events.create_event("World", "block", options, "rotating", "swiss", ROUNDS, None, names)
    organizer, player = Client(), Client()
    assert organizer.get(f"/events/{event.pk}/join/{event.keep_token}/").status_code == 302
    assert player.get(f"/events/{event.pk}/join/{event.watch_token}/").status_code == 302
    board, tv = f"/events/{event.pk}/", f"/events/{event.pk}/tv/"
    form = {"version": str(event.version), "key": services.new_key()}

    def post(what: str) -> tuple[float, str]:
        """One of the organizer's buttons, as its htmx form sends it; the milliseconds."""
        started = time.perf_counter()
        response = organizer.post(f"/events/{event.pk}/{what}/", form, **HX)
        spent = (time.perf_counter() - started) * 1000
        page = response.content.decode()
        assert response.status_code == 200, (what, response.status_code, page[:500])
        found = {n: re.search(rf'name="{n}" value="([^"]*)"', page) for n in ("version", "key")}
        if all(found.values()):
            form.update({name: value[1] for name, value in found.items()})
        else:  # no form on the answer (the event is over): what the next form would hold
            form.update(version=str(Event.objects.get(pk=event.pk).version), key=services.new_key())
        return spent, page

    def finish(number: int, share: slice = slice(None)) -> float:
        """One score-pad hand at each table of round ``number`` (of those in ``share``):
        one side dominoes and scores its opponents' pips, reaching the target."""
        rows = EventTable.objects.filter(round__event=event, round__number=number)
        pairs = list(rows.order_by("number").values_list("match_id", "match__version"))
        started = time.perf_counter()
        for match_id, version in pairs[share]:
            # Block deals 7 and never draws: a hand holds 69 pips at most.
            side, points = chance.randrange(2), chance.randrange(TARGET, TARGET + 39)
            first = chance.randrange(max(1, points - 69), 70)
            held = [0, 0, 0, 0]
            held[1 - side], held[3 - side] = first, points - first
            held[2 if side == 0 else 3] = chance.randrange(1, 30)  # the partner's, not scored
            pips = {str(seat): held[seat] for seat in range(4)}
            assert services.record(
                match_id, {"type": "tally", "pips": pips}, version, services.new_key()
            )
        return (time.perf_counter() - started) * 1000

    seats, starts, finishes = [], [], []
    for number in range(1, ROUNDS):
        seats.append(post("seat")[0])
        starts.append(post("start")[0])
        finishes.append(finish(number))
        post("close")
    out["build_s"] = round(time.perf_counter() - started, 1)
    out["seat_rounds_1_to_9_ms"] = [round(ms, 1) for ms in seats]
    out["start_round_median_ms"] = statistics.median(starts)  # 200 matches made
    out["finish_round_median_ms"] = statistics.median(finishes)  # 200 hands recorded

    # Seating round 10: the organizer's Seat (re-seating gives the same proposal anew).
    spent = [post("seat")[0] for _ in range(5)]
    out["seat_ms"] = statistics.median(spent)
    out["seat_slowest_ms"] = max(spent + seats)
    with CaptureQueriesContext(connection) as captured:
        post("seat")
    out["seat_queries"] = len(captured)
    out["start_ms"], _ = post("start")

    def pages(when: str) -> None:
        night = events.read(Event.objects.get(pk=event.pk))
        version = night.version
        # A poll that finds the event changed is what a live stream pushes to every screen;
        # "cold" renders it afresh (the first screen to ask after a change), "kept" is what
        # the other watchers of that version get (scoring.events.views.WATCHED).
        views = {
            "board": (organizer, board, {}, False),
            "board_fragment": (organizer, board, HX, False),
            "players_page": (player, board, {}, False),
            "tv": (player, tv, {}, False),
            "poll_changed": (player, f"{board}poll/?version=0", HX, True),
            "poll_changed_kept": (player, f"{board}poll/?version=0", HX, False),
            "tv_poll_changed": (player, f"{board}poll/?version=0&screen=tv", HX, True),
            "tv_poll_changed_kept": (player, f"{board}poll/?version=0&screen=tv", HX, False),
            "poll_unchanged": (player, f"{board}poll/?version={version}", HX, False),
        }
        for name, (client, url, headers, cold) in views.items():

            def get(client: Client = client, url: str = url, headers: dict = headers, cold=cold):
                if cold:
                    getattr(event_views, "WATCHED", {}).clear()
                response = client.get(url, **headers)
                assert response.status_code in (200, 204), (url, response.status_code)
                return response

            out[f"{name}_{when}_ms"] = median_ms(get, 15)
            with CaptureQueriesContext(connection) as captured:
                response = get()
            out[f"{name}_{when}_queries"] = len(captured)
            out[f"{name}_{when}_bytes_gz"] = len(gzip.compress(response.content))
        event_row = Event.objects.get(pk=event.pk)
        out[f"standings_{when}_ms"] = median_ms(lambda: events.read(event_row).standings(), 15)
        with CaptureQueriesContext(connection) as captured:
            events.read(event_row).standings()
        out[f"standings_{when}_queries"] = len(captured)

    finish(ROUNDS, slice(0, None, 2))
    pages("in_play")  # round 10: half its tables finished, half playing
    finish(ROUNDS, slice(1, None, 2))
    post("close")
    pages("closed")
    out["matches"] = Match.objects.filter(status=Match.FINISHED).count()
    settings.disable()
    return out


def report(out: dict) -> None:
    print(f"event of {out['players']} players ({out['tables']} tables, rotating) on PostgreSQL, "
          f"{out['matches']} matches finished; built in {out['build_s']} s")  # fmt: skip
    print(f"  start a round (200 matches made): {out['start_round_median_ms']:.0f} ms; "
          f"200 hands recorded: {out['finish_round_median_ms']:.0f} ms")  # fmt: skip
    print(f"  seat round 10: {out['seat_ms']:.1f} ms ({out['seat_queries']} queries), "
          f"slowest seat {out['seat_slowest_ms']:.1f} ms")  # fmt: skip
    for when in ("in_play", "closed"):
        for name in ("board", "board_fragment", "players_page", "tv", "poll_changed",
                     "poll_changed_kept", "tv_poll_changed", "tv_poll_changed_kept",
                     "poll_unchanged", "standings"):  # fmt: skip
            size = out.get(f"{name}_{when}_bytes_gz")
            print(f"  {when:8} {name:16} {out[f'{name}_{when}_ms']:8.1f} ms "
                  f"{out[f'{name}_{when}_queries']:3} queries"
                  + (f" {size:7} B gz" if size is not None else ""))  # fmt: skip
    for name, check in out["budgets"].items():
        verdict = "met" if check["met"] else "MISSED"
        print(f"budget {name:<18} {check['value']:>10.1f} <= {check['budget']:<6} {verdict}")


def main() -> None:
    import psycopg

    admin, url = bench_database()
    try:
        psycopg.connect(admin, connect_timeout=3).close()
    except Exception as error:
        print(f"event pages skipped: PostgreSQL not reachable at {PG_URL} ({error})")
        return
    name = urllib.parse.urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=url,
        DEBUG="0", SECRET_KEY="bench-" + "k" * 60, ALLOWED_HOSTS="testserver",
        BONEYARD_SSL_REDIRECT="0", BONEYARD_SECURE_COOKIES="0", BONEYARD_HSTS_SECONDS="0",
        LOG_LEVEL="ERROR",
    )  # fmt: skip
    import django

    django.setup()
    try:
        out = figures()
    finally:
        from django.db import connections

        connections.close_all()
        if os.environ.get("EVENT_KEEP") != "1":
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            print(f"kept: {url}")
    checks = {
        "seat_ms": out["seat_ms"],
        "players_page_ms": max(out["players_page_in_play_ms"], out["players_page_closed_ms"]),
        "board_ms": max(out["board_in_play_ms"], out["board_closed_ms"]),
        "standings_queries": max(
            out[f"{page}_{when}_queries"]
            for page in ("standings", "players_page", "board", "tv", "poll_changed")
            for when in ("in_play", "closed")
        ),
    }
    out["budgets"] = {
        name: {"budget": budget, "value": checks[name], "met": checks[name] <= budget}
        for name, budget in BUDGETS.items()
    }
    out["machine"] = {
        "cpus": os.cpu_count(), "load_average": os.getloadavg(),
        "taken": datetime.now(UTC).isoformat(timespec="seconds"),
    }  # fmt: skip
    report(out)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results["event_pages"] = out
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
