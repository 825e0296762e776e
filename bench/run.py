"""make bench: what the server's share of a tap costs, measured through Django's full stack.

Each timing is the median of many requests made with Django's test client (every middleware,
the view, the template, SQLite in WAL mode) and each ratio divides it by the floor: a bare view
rendering a tiny template, measured in the same run on the same machine. Prints a table and
writes bench/results.json. No timing is asserted anywhere: a budget missed is reported.
"""

from __future__ import annotations

import gzip
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    DATABASE_URL=f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3",
    DEBUG="0", SECRET_KEY="bench-" + "k" * 60, ALLOWED_HOSTS="testserver",
    BONEYARD_SSL_REDIRECT="0", BONEYARD_SECURE_COOKIES="0", BONEYARD_HSTS_SECONDS="0",
    LOG_LEVEL="ERROR",
)  # fmt: skip

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench import events as events_bench  # noqa: E402
from bench import matches  # noqa: E402
from bench import truck as truck_bench  # noqa: E402
from referee import Draw, Play, Undo, line  # noqa: E402
from referee.document import play_round  # noqa: E402
from scoring import services  # noqa: E402
from scoring.models import Match  # noqa: E402

RESULTS = ROOT / "bench" / "results.json"
BUDGETS = {
    "record_play_ratio": 3.0, "poll_unchanged_ratio": 1.3, "flat_ratio": 1.2, "max_queries": 10,
    "table_page_bytes_gz": 45_000, "max_fragment_bytes_gz": 8_000, "truck_score_us": 5_000,
    "event_seat_ms": 1_000, "event_standings_ms": 50,
    "hostile_worst_get_ms": 1_000,
}  # fmt: skip
HX = {"HTTP_HX_REQUEST": "true"}
queries: list[int] = []
fragments: list[int] = []


def median_ms(run: Callable[[], object], times: int) -> float:
    for _ in range(5):
        run()
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        spent.append(time.perf_counter() - started)
    return statistics.median(spent) * 1000


def counted(response_of: Callable[[], object], fragment: bool = False):
    with CaptureQueriesContext(connection) as captured:
        response = response_of()
    queries.append(len(captured))
    if fragment and response.content:
        fragments.append(len(gzip.compress(response.content)))
    return response


def phone(match: Match) -> Client:
    client = Client()
    assert client.get(f"/matches/{match.pk}/join/{match.keep_token}/").status_code == 302
    return client


def long_match() -> Match:
    """29 rounds played, and a 30th whose log holds 60 actions."""
    return services.import_match(matches.long_match())


def post_timed(
    client: Client, match: Match, data: dict, fragment: bool = True, cold: bool = False
) -> float:
    """One timed POST of the table's form, made after the phone drew the table; ``cold``
    forgets the kept replays first, as when another worker drew the table."""
    page = client.get(f"/matches/{match.pk}/").content.decode()
    form = {n: re.search(rf'name="{n}" value="([^"]*)"', page)[1] for n in ("version", "key")}
    if cold:
        services.forget_replays()
    started = time.perf_counter()
    response = client.post(f"/matches/{match.pk}/act/", {**form, **data}, **HX)
    spent = time.perf_counter() - started
    if fragment:  # the content says how big; the queries are counted in a twin request below
        fragments.append(len(gzip.compress(response.content)))
    assert response.status_code == 200, (response.status_code, response.content[:300])
    return spent * 1000


def confirm_timed(client: Client, match: Match, preview) -> float:  # noqa: ANN001
    """Confirm the corrections a preview shows, as its form would; the milliseconds it took."""
    html = preview.content.decode()
    form = {n: re.search(rf'name="{n}" value="([^"]*)"', html)[1] for n in ("version", "key")}
    form["fixes"] = re.search(r'name="fixes" value="([^"]*)"', html)[1].replace("&quot;", '"')
    started = time.perf_counter()
    done = client.post(f"/matches/{match.pk}/fix/", form)
    spent = time.perf_counter() - started
    assert done.status_code == 302, done.content[:300]
    return spent * 1000


def counted_post(client: Client, match: Match, data: dict) -> None:
    page = client.get(f"/matches/{match.pk}/").content.decode()
    form = {n: re.search(rf'name="{n}" value="([^"]*)"', page)[1] for n in ("version", "key")}
    counted(lambda: client.post(f"/matches/{match.pk}/act/", {**form, **data}, **HX))


def requests() -> dict:
    out: dict = {}
    client = Client()
    out["floor_ms"] = median_ms(lambda: client.get("/bench/floor/"), 500)

    lead = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
    fresh = []
    for _ in range(60):
        match = services.create_match("draw", ["Ana", "Ben", "Caro", "Dan"], {"target": 200})
        fresh.append(post_timed(phone(match), match, lead))
    out["record_play_ms"] = statistics.median(fresh)
    match = services.create_match("draw", ["Ana", "Ben", "Caro", "Dan"], {"target": 200})
    counted_post(phone(match), match, lead)

    play = {"type": "play", "seat": "1", "tile": "6-5", "target": "6-6/side"}
    late = []
    for _ in range(30):
        match = long_match()
        late.append(post_timed(phone(match), match, play))
    out["record_play_late_ms"] = statistics.median(late)
    cold = []
    for _ in range(30):
        match = long_match()
        cold.append(post_timed(phone(match), match, play, cold=True))
    # Under two gunicorn workers about half the taps reach a worker that has not kept the
    # replay: this is what such a tap costs at the end of a round of 60.
    out["record_play_late_cold_ms"] = statistics.median(cold)
    match = long_match()
    counted_post(phone(match), match, play)

    match = long_match()
    keeper = phone(match)
    table = f"/matches/{match.pk}/"
    # Timed bare; each kind of request is counted once more, outside the timing.
    out["table_get_ms"] = median_ms(lambda: keeper.get(table), 150)
    counted(lambda: keeper.get(table))
    poll = f"/matches/{match.pk}/poll/?version={match.version}"
    out["poll_unchanged_ms"] = median_ms(lambda: keeper.get(poll, **HX), 1000)
    counted(lambda: keeper.get(poll, **HX))
    counted(lambda: keeper.get(f"/matches/{match.pk}/poll/?version=0", **HX), fragment=True)
    # What a live stream pushes to each phone after a tap: the same view, changed (issue 29).
    changed = f"/matches/{match.pk}/poll/?version=0"
    out["poll_changed_ms"] = median_ms(lambda: keeper.get(changed, **HX), 150)

    # The record book and the referee's desk on the same long match (29 rounds and 60
    # actions): what a replay step, a player page and a ruling cost there.
    replay = f"/matches/{match.pk}/rounds/30/?step=60"
    out["replay_step_ms"] = median_ms(lambda: keeper.get(replay, **HX), 100)
    counted(lambda: keeper.get(replay, **HX))
    player = f"/players/{match.seats.get(number=0).player_id}/"
    out["player_page_ms"] = median_ms(lambda: keeper.get(player), 100)
    counted(lambda: keeper.get(player))
    position = keeper.post(f"/matches/{match.pk}/ask/")["Location"]
    ask = {"type": "play", "seat": "1", "tile": "6-5", "target": "6-6/side"}
    out["desk_ruling_ms"] = median_ms(lambda: keeper.post(position, ask, **HX), 50)
    counted(lambda: keeper.post(position, ask, **HX))

    # Double Domino Havoc: a discard taken at the end of a round of 150 actions.
    document, havoc_tap = matches.havoc_long_match()
    for name, cold in (("havoc_late_ms", False), ("havoc_late_cold_ms", True)):
        spent = []
        for _ in range(20):
            match = services.import_match(document)
            spent.append(post_timed(phone(match), match, havoc_tap, cold=cold))
        out[name] = statistics.median(spent)
    match = services.import_match(document)
    counted_post(phone(match), match, havoc_tap)

    # Mexican Train: a play late in a round of six on a double-12 set (91 tiles in the
    # picker, seven trains), and that table's page.
    document, train_tap = matches.train_long_match()
    spent = []
    for _ in range(20):
        match = services.import_match(document)
        spent.append(post_timed(phone(match), match, train_tap))
    out["train_late_ms"] = statistics.median(spent)
    match = services.import_match(document)
    counted_post(phone(match), match, train_tap)
    match = services.import_match(document)
    trains = phone(match)
    out["train_table_ms"] = median_ms(lambda: trains.get(f"/matches/{match.pk}/"), 50)
    counted(lambda: trains.get(f"/matches/{match.pk}/"))

    tallies = []
    for _ in range(60):
        match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 1})
        services.record(match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "bench-lead")
        match.refresh_from_db()
        tallies.append(post_timed(phone(match), match, {"type": "tally", "pips-1": "9"}))
        Match.objects.filter(pk=match.pk).delete()  # keys are unique across matches
    out["tally_ms"] = statistics.median(tallies)
    match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 1})
    services.record(match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "bench-lead")
    match.refresh_from_db()
    counted_post(phone(match), match, {"type": "tally", "pips-1": "9"})

    # Fixing the record (issue 18): a wrong tally corrected in round 1 of the 30-round match,
    # every later round replayed; and the next tap in a round that holds a correction.
    tally = {"type": "tally", "pips-0": "15", "pips-1": "106", "pips-2": "16", "pips-3": "20"}
    previews, confirms, lately, after = [], [], [], []
    for _ in range(15):
        fixed = long_match()
        fixer = phone(fixed)
        url = f"/matches/{fixed.pk}/rounds/1/fix/6/replace/"
        fixer.get(f"/matches/{fixed.pk}/rounds/1/fix/6/")
        started = time.perf_counter()
        preview = fixer.post(url, tally)
        previews.append((time.perf_counter() - started) * 1000)
        assert preview.status_code == 200, preview.content[-600:]
        confirms.append(confirm_timed(fixer, fixed, preview))
        # The round in progress gets a correction too (its last draw never happened), and
        # then Ben plays: the tap replays a round whose log holds a correction.
        fixer.get(f"/matches/{fixed.pk}/rounds/30/fix/59/")
        removed = fixer.post(f"/matches/{fixed.pk}/rounds/30/fix/59/remove/", {"how": "x"})
        lately.append(confirm_timed(fixer, fixed, removed))
        after.append(post_timed(fixer, fixed, play))
    out["correct_preview_ms"] = statistics.median(previews)
    out["correct_round_1_ms"] = statistics.median(confirms)
    out["correct_round_30_ms"] = statistics.median(lately)
    out["tap_after_correction_ms"] = statistics.median(after)
    counted_post(fixer, fixed, {"type": "draw", "seat": "2", "count": "1"})

    # Issue 28: the legal 512 KB matches that cost the most where a match is read whole.
    # Every page a phone may GET of them, each on a worker that has kept nothing.
    from scoring import desk

    worst: dict[str, float] = {}
    for document in matches.hostile_matches().values():
        match = services.import_match(document)
        reader = phone(match)
        pages = {
            "table": f"/matches/{match.pk}/", "score sheet": f"/matches/{match.pk}/summary/",
            "CSV": f"/matches/{match.pk}/scores.csv", "chart": f"/matches/{match.pk}/chart/",
            "export": f"/matches/{match.pk}/export.json",
            "replay": f"/matches/{match.pk}/rounds/{len(document['rounds'])}/",
            "player": f"/players/{match.seats.get(number=0).player_id}/",
            "desk": reader.post(f"/matches/{match.pk}/ask/")["Location"],
        }  # fmt: skip

        def cold(url: str, reader: Client = reader) -> None:
            services.forget_replays()
            desk.forget_replays()
            assert reader.get(url).status_code == 200, url

        for page_name, url in pages.items():
            spent = median_ms(lambda url=url: cold(url), 5)
            worst[page_name] = max(worst.get(page_name, 0.0), spent)
    out["hostile_get_ms"] = worst
    out["hostile_worst_get_ms"] = max(worst.values())

    page = keeper.get(table).content
    assets = re.findall(rb'(?:src|href)="(/static/[^"]+)"', page)
    out["table_page_bytes_gz"] = len(gzip.compress(page)) + sum(
        len(gzip.compress(b"".join(keeper.get(a.decode()).streaming_content))) for a in assets
    )
    out["table_assets"] = [a.decode() for a in assets]
    floor = out["floor_ms"]
    out["record_play_ratio"] = out["record_play_ms"] / floor
    out["table_get_ratio"] = out["table_get_ms"] / floor
    out["poll_unchanged_ratio"] = out["poll_unchanged_ms"] / floor
    out["tally_ratio"] = out["tally_ms"] / floor
    out["flat_ratio"] = out["record_play_late_ms"] / out["record_play_ms"]
    out["max_queries"] = max(queries)
    out["max_fragment_bytes_gz"] = max(fragments)
    return out


def median_us(run: Callable[[], object], times: int) -> float:
    return median_ms(run, times) * 1000


def referee(truck_scoring: dict) -> dict:
    # A busy layout: Cross with spinners, every double spinning, 15 tiles down.
    state = line.start("cross-spinners", {}, ["Ana", "Ben", "Caro", "Dan"])
    while len(state.layout) < 15:
        plays = [a for a in line.legal_actions(state) if isinstance(a, Play)]
        doubles = [a for a in plays if a.tile.is_double]
        state = line.apply(state, (doubles or plays)[0])
    first = next(a for a in line.legal_actions(state) if isinstance(a, Play))
    start = line.start("draw", {}, ["Ana", "Ben", "Caro"])
    hundred = [Play(0, line.Tile.parse("6-6"))] + [Draw(1, 1), Undo()] * 49 + [Draw(1, 1)]
    return {
        "legal_actions_busy_us": median_us(lambda: line.legal_actions(state), 50),
        "apply_one_us": median_us(lambda: line.apply(state, first), 2000),
        "replay_100_us": median_us(lambda: play_round(start, hundred), 50),
        "busy_layout_tiles": len(state.layout),
        # Dump Truck: best() on the slowest full trucks found, cache cleared (bench/truck.py).
        "truck_score_us": truck_scoring["truck_score_us"],
        "truck_score_median_us": truck_scoring["truck_score_median_us"],
    }


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("createcachetable")
    limits = {"join": (10**9, 60), "create": (10**9, 60), "desk": (10**9, 60)}
    with override_settings(ROOT_URLCONF="bench.urls", BONEYARD_RATE_LIMITS=limits):
        figures = requests()
    truck_scoring = truck_bench.figures()
    figures["referee_us"] = referee(truck_scoring)
    # Club nights at a world championship's size, in the referee alone (bench/events.py).
    figures["events"] = events_bench.figures()
    figures["event_seat_ms"] = figures["events"]["event_seat_ms"]
    figures["event_standings_ms"] = figures["events"]["event_standings_ms"]
    figures["truck_score"] = truck_scoring["per_option"]  # the worst truck of each option
    figures["machine"] = {
        "cpus": os.cpu_count(), "python": platform.python_version(),
        "platform": platform.platform(), "taken": datetime.now(UTC).isoformat(timespec="seconds"),
    }  # fmt: skip
    truck = figures["referee_us"]["truck_score_us"]
    checks = {**{k: figures.get(k) for k in BUDGETS}, "truck_score_us": truck}
    figures["budgets"] = {
        name: {"budget": budget, "value": checks[name],
               "met": None if checks[name] is None else checks[name] <= budget}
        for name, budget in BUDGETS.items()
    }  # fmt: skip
    old = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for kept in ("load", "load_live", "load_wsgi", "load_event", "live", "event_pages"):
        if kept in old:
            figures[kept] = old[kept]  # make load's and bench/live.py's stay until they run
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    report(figures)


def report(figures: dict) -> None:
    rows = [
        ("floor", f"{figures['floor_ms']:.2f} ms", ""),
        ("record a play", f"{figures['record_play_ms']:.2f} ms",
         f"{figures['record_play_ratio']:.2f} x floor"),
        ("record a play, round of 60 in a 30-round match",
         f"{figures['record_play_late_ms']:.2f} ms", f"flat {figures['flat_ratio']:.2f}"),
        ("  the same, replay not kept (another worker)",
         f"{figures['record_play_late_cold_ms']:.2f} ms", ""),
        ("table page", f"{figures['table_get_ms']:.2f} ms",
         f"{figures['table_get_ratio']:.2f} x floor"),
        ("poll, unchanged", f"{figures['poll_unchanged_ms']:.2f} ms",
         f"{figures['poll_unchanged_ratio']:.2f} x floor"),
        ("poll, changed (what a stream pushes each phone)",
         f"{figures['poll_changed_ms']:.2f} ms", ""),
        ("tally", f"{figures['tally_ms']:.2f} ms", f"{figures['tally_ratio']:.2f} x floor"),
        ("Havoc: a tap at the end of a round of 150", f"{figures['havoc_late_ms']:.2f} ms",
         f"{figures['havoc_late_ms'] / figures['floor_ms']:.2f} x floor"),
        ("  the same, replay not kept (another worker)",
         f"{figures['havoc_late_cold_ms']:.2f} ms", ""),
        ("Mexican Train: a play late in a round of six", f"{figures['train_late_ms']:.2f} ms",
         f"{figures['train_late_ms'] / figures['floor_ms']:.2f} x floor"),
        ("Mexican Train: the table page", f"{figures['train_table_ms']:.2f} ms", ""),
        ("replay: step 60 of round 30", f"{figures['replay_step_ms']:.2f} ms", ""),
        ("fix: preview a correction of round 1 of 30", f"{figures['correct_preview_ms']:.2f} ms",
         ""),
        ("fix: confirm a correction of round 1 of 30", f"{figures['correct_round_1_ms']:.2f} ms",
         ""),
        ("fix: confirm a correction of round 30 of 30", f"{figures['correct_round_30_ms']:.2f} ms",
         ""),
        ("a tap in a round that holds a correction",
         f"{figures['tap_after_correction_ms']:.2f} ms",
         f"{figures['tap_after_correction_ms'] / figures['record_play_late_ms']:.2f} x a tap"),
        ("player page", f"{figures['player_page_ms']:.2f} ms", ""),
        ("referee's desk: a ruling on a 30-round match", f"{figures['desk_ruling_ms']:.2f} ms",
         ""),
        *[(f"512 KB hostile match: {name}", f"{ms:.1f} ms", "worst shape, cold")
          for name, ms in figures["hostile_get_ms"].items()],
        ("most queries in a request", str(figures["max_queries"]), ""),
        ("table page + css + js, gzip", f"{figures['table_page_bytes_gz']} B", ""),
        ("largest fragment, gzip", f"{figures['max_fragment_bytes_gz']} B", ""),
    ]  # fmt: skip
    for name, value in figures["referee_us"].items():
        rows.append((f"referee: {name}", "-" if value is None else f"{value:.0f}", ""))
    for name in ("rotating_800", "swiss_136"):
        night = figures["events"][name]
        rows += [
            (f"event {name}: seat round 10", f"{night['seat_ms']:.1f} ms",
             f"slowest {night['slowest_seat_ms']:.1f} ms"),
            (f"event {name}: check the seating", f"{night['check_ms']:.1f} ms", ""),
            (f"event {name}: standings, {night['matches']} matches",
             f"{night['standings_ms']:.1f} ms", ""),
        ]  # fmt: skip
    width = max(len(r[0]) for r in rows)
    for name, value, ratio in rows:
        print(f"{name:<{width}}  {value:>12}  {ratio}")
    print()
    for name, check in figures["budgets"].items():
        verdict = {True: "met", False: "MISSED", None: "not measured"}[check["met"]]
        print(f"budget {name:<24} {check['value']!s:>22} <= {check['budget']:<8} {verdict}")
    print(f"\nwritten to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
