"""Club nights in the app (RULES.md §12, issue 32): make an event, enter and withdraw, seat,
swap, start every table's match, close, the standings read from the matches (a correction
included), time, access, the series, export and import."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.test import Client

from referee.events import ROTATING, round_robin_rounds
from scoring import services
from scoring.events import services as events
from scoring.events.documents import EventDocumentError, export_event, import_event
from scoring.events.models import Event, EventRound, EventTable
from scoring.models import Match

EIGHT = ["Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo"]
PAD = {"block.target": "50", "block.record": "scores"}  # one tally can end a match


@pytest.fixture
def organizer(db) -> Client:
    return Client()


@pytest.fixture
def player(db) -> Client:
    """A phone that joined with the event's link for players."""
    return Client()


def make(client: Client, names=EIGHT, format="rotating", **fields) -> Event:
    form = {"name": "Thursday", "game": "block", "format": format, "rounds": "3", **PAD}
    if format == "pairs":
        for i, (a, b) in enumerate(names):
            form |= {f"first-{i}": a, f"second-{i}": b}
    else:
        form |= {f"entrant-{i}": name for i, name in enumerate(names)}
    response = client.post("/events/new/", form | fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Event.objects.get(pk=int(re.search(r"/events/(\d+)/", response["Location"])[1]))


def fields(client: Client, event: Event) -> dict[str, str]:
    """The version and key of the page's forms; on a page with none (the event is over), what
    a form kept from before would send."""
    page = client.get(f"/events/{event.pk}/").content.decode()
    found = {
        name: re.search(rf'name="{name}" value="([^"]*)"', page) for name in ("version", "key")
    }
    if not all(found.values()):
        event.refresh_from_db()
        return {"version": str(event.version), "key": services.new_key()}
    return {name: value.group(1) for name, value in found.items()}


def post(client: Client, event: Event, what: str, htmx: bool = True, **data):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/events/{event.pk}/{what}/", {**fields(client, event), **data}, **headers)


def finish(table: EventTable, ours: int, theirs: int) -> None:
    """The table's match ends on one score-pad hand: side 0 scores ``ours`` (at least the
    target) or side 1 ``theirs``."""
    match = table.match
    match.refresh_from_db()
    if ours:  # seat 0 plays out; seat 2 still holds 3, which its own side does not score
        pips = {"0": 0, "1": ours - 5, "2": 3, "3": 5}
    else:
        pips = {"0": theirs - 5, "1": 0, "2": 5, "3": 3}
    assert services.record(
        match.pk, {"type": "tally", "pips": pips}, match.version, "t" * 20 + str(match.pk)
    )
    match.refresh_from_db()
    assert match.status == Match.FINISHED


def tables(event: Event, number: int) -> list[EventTable]:
    return list(
        EventTable.objects.filter(round__event=event, round__number=number)
        .select_related("match")
        .order_by("number")
    )


def play_round(client: Client, event: Event, number: int) -> None:
    """Seat and start round ``number``, side 0 wins at every table, close it."""
    post(client, event, "seat")
    post(client, event, "start")
    for table in tables(event, number):
        finish(table, 60, 0)
    assert post(client, event, "close").status_code == 200


def test_an_organizer_makes_an_event_and_runs_it_from_the_event_page(organizer):
    event = make(organizer)
    assert event.format == ROTATING and event.options["partnerships"] is True
    assert event.options["record"] == "scores" and event.options["target"] == 50
    assert [e.first for e in event.entrants.all()] == EIGHT
    page = organizer.get(f"/events/{event.pk}/").content.decode()
    assert "Seat round 1" in page and "Thursday" in page
    home = organizer.get("/").content.decode()
    assert f"/events/{event.pk}/" in home


def test_seat_swap_start_close_and_the_standings(organizer):
    event = make(organizer)
    assert post(organizer, event, "seat").status_code == 200
    draft = EventRound.objects.get(event=event)
    assert draft.started_at is None and draft.tables.count() == 2
    page = organizer.get(f"/events/{event.pk}/").content.decode()
    assert "Round 1: the seating" in page and "Start round 1" in page
    before = [t.seats for t in tables(event, 1)]
    assert post(organizer, event, "swap", one="1.0", other="2.0").status_code == 200
    after = [t.seats for t in tables(event, 1)]
    assert after[0][0] == before[1][0] and after[1][0] == before[0][0]
    response = post(organizer, event, "start")
    assert response.status_code == 200
    played = tables(event, 1)
    for table in played:
        match = table.match
        assert (
            list(match.seats.order_by("number").values_list("player__name", flat=True))
            == table.seats
        )
        assert match.options["partnerships"] is True and match.options["record"] == "scores"
    # Not before every table has finished.
    response = post(organizer, event, "close")
    assert response.status_code == 422 and "still playing" in response.content.decode()
    finish(played[0], 60, 0)
    finish(played[1], 0, 55)
    assert post(organizer, event, "close").status_code == 200
    night = events.read(event)
    top = night.standings()
    a, c = played[0].seats[0], played[0].seats[2]
    assert {top[0].entrant, top[1].entrant} == {a, c} or top[0].wins == 1.0
    by_name = {s.entrant: s for s in top}
    assert by_name[a].wins == 1.0 and by_name[a].efectividad == 60
    assert by_name[played[0].seats[1]].efectividad == -60
    # The next round is seated with nobody partnering a former partner.
    assert post(organizer, event, "seat").status_code == 200
    partners = {frozenset((t.seats[0], t.seats[2])) for t in played} | {
        frozenset((t.seats[1], t.seats[3])) for t in played
    }
    for table in tables(event, 2):
        assert frozenset((table.seats[0], table.seats[2])) not in partners
        assert frozenset((table.seats[1], table.seats[3])) not in partners


def test_a_swap_that_repeats_a_partnership_warns_with_the_rule_and_start_asks_to_confirm(organizer):
    event = make(organizer)
    post(organizer, event, "seat")
    post(organizer, event, "start")
    first = tables(event, 1)
    for table in first:
        finish(table, 60, 0)
    post(organizer, event, "close")
    post(organizer, event, "seat")
    second = tables(event, 2)
    # Put round 1's partners of table 1 together again: seat 0's partner moves in at seat 2.
    a, partner = first[0].seats[0], first[0].seats[2]
    place = {name: f"{t.number}.{s}" for t in second for s, name in enumerate(t.seats)}
    table_a, seat_a = place[a].split(".")
    opposite = f"{table_a}.{(int(seat_a) + 2) % 4}"
    response = post(organizer, event, "swap", one=place[partner], other=opposite)
    assert response.status_code == 200
    page = response.content.decode()
    assert "event.seat" in page and "Seat them so anyway" in page
    response = post(organizer, event, "start")
    assert response.status_code == 422 and "event.seat" in response.content.decode()
    assert not EventTable.objects.filter(round__number=2, match__isnull=False).exists()
    assert post(organizer, event, "start", confirm="on").status_code == 200
    assert EventRound.objects.get(event=event, number=2).confirmed


def test_start_is_idempotent_and_version_checked(organizer):
    event = make(organizer)
    post(organizer, event, "seat")
    form = fields(organizer, event)
    url = f"/events/{event.pk}/start/"
    assert organizer.post(url, form, HTTP_HX_REQUEST="true").status_code == 200
    again = organizer.post(url, form, HTTP_HX_REQUEST="true")  # the same form sent twice
    assert again.status_code == 200
    other = organizer.post(url, {**form, "key": "another-key-123"}, HTTP_HX_REQUEST="true")
    assert other.status_code == 409
    assert Match.objects.count() == 2 and EventRound.objects.filter(event=event).count() == 1


def test_entrants_come_and_go_between_rounds(organizer):
    event = make(organizer, names=EIGHT[:5])
    response = post(organizer, event, "entrants", **{"entrant-0": "Inés", "pasted": "Juan\nKim"})
    assert response.status_code == 200
    assert event.entrants.count() == 8
    gone = event.entrants.get(first="Kim")
    assert post(organizer, event, "withdraw", entrant=str(gone.pk)).status_code == 200
    post(organizer, event, "seat")
    draft = EventRound.objects.get(event=event)
    seated = {n for t in draft.tables.all() for n in t.seats} | set(draft.byes)
    assert "Kim" not in seated and len(seated) == 7 and len(draft.byes) == 3
    post(organizer, event, "start")
    refused = post(organizer, event, "entrants", **{"entrant-0": "Luz"})
    assert refused.status_code == 422 and "event.round" in refused.content.decode()
    twice = post(organizer, event, "entrants", **{"entrant-0": "ana"})
    assert twice.status_code in (400, 422)


def test_once_the_event_is_over_nobody_enters_or_withdraws(organizer):
    """Ruling (RULES.md is silent): after the last round nobody is seated again, so a late
    entry or a withdrawal would change nothing; the forms go, and a POST is refused."""
    event = make(organizer, rounds="1")
    play_round(organizer, event, 1)
    page = organizer.get(f"/events/{event.pk}/").content.decode()
    assert "The event is over." in page
    assert "Withdraw" not in page and "Enter more players" not in page
    for what, data in (("withdraw", {"entrant": str(event.entrants.first().pk)}),
                       ("entrants", {"entrant-0": "Luz"})):  # fmt: skip
        refused = post(organizer, event, what, **data)
        said = refused.content.decode()
        assert refused.status_code == 422 and "event.round" in said, said[:500]
        assert "The event is over: its 1 rounds are played." in said
    assert event.entrants.count() == 8 and not event.entrants.filter(withdrawn=True).exists()


def test_fixed_pairs_in_a_round_robin(organizer):
    pairs = [("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede"), ("Gil", "Hugo")]
    event = make(organizer, names=pairs, format="pairs", pairing="round-robin")
    assert event.rounds_planned == round_robin_rounds(4) == 3
    met = set()
    for number in (1, 2, 3):
        assert post(organizer, event, "seat").status_code == 200
        assert post(organizer, event, "start").status_code == 200
        for table in tables(event, number):
            met.add(frozenset((frozenset(table.seats[0::2]), frozenset(table.seats[1::2]))))
            finish(table, 60, 0)
        assert post(organizer, event, "close").status_code == 200
    assert len(met) == 6  # every pair met every other once
    assert post(organizer, event, "seat").status_code == 422  # the event is over
    standings = events.read(event).standings()
    assert standings[0].played == 3


def test_a_correction_of_a_finished_table_moves_the_standings(organizer):
    event = make(organizer)
    play_round(organizer, event, 1)
    post(organizer, event, "seat")
    post(organizer, event, "start")  # round 2 in play: round 1 is no longer the one on screen
    table = tables(event, 1)[0]
    winner = table.seats[0]
    events.CLOSED.clear()
    before = {s.entrant: s for s in events.read(event).standings()}[winner]
    assert before.points_for == 60
    assert len(events.CLOSED) == 1  # round 1's tables, kept: the correction must move them
    match = table.match
    match.refresh_from_db()
    fix = {
        "type": "correct",
        "at": 0,
        "replace": {"type": "tally", "pips": {"0": 0, "1": 40, "2": 3, "3": 40}},
    }
    fixes = services.read_fixes([[1, fix]], "line")
    assert services.correct(match.pk, fixes, match.version, "c" * 32)
    after = {s.entrant: s for s in events.read(event).standings()}[winner]
    assert after.points_for == 80 and after.efectividad == 80


def test_the_same_results_are_ranked_once_and_a_new_result_again(organizer, monkeypatch):
    """A tap at one table moves the event's version, and every board and page reads the event
    again, but no result changed: the referee ranks the same results once a process."""
    event = make(organizer)
    post(organizer, event, "seat")
    post(organizer, event, "start")
    events.RANKED.clear()
    ranked = []
    rank = events.referee.standings
    monkeypatch.setattr(events.referee, "standings", lambda e: ranked.append(e) or rank(e))
    first = events.read(event).standings()
    table = tables(event, 1)[0]
    match = table.match
    hand = {"type": "tally", "pips": {"0": 0, "1": 5, "2": 3, "3": 5}}  # 13: nobody's 50 yet
    assert services.record(match.pk, hand, match.version, "h" * 32)
    match.refresh_from_db()
    assert match.status != Match.FINISHED
    assert events.read(event).version > 0 and events.read(event).standings() is first
    assert len(ranked) == 1
    finish(table, 60, 0)
    after = {s.entrant: s for s in events.read(event).standings()}
    assert len(ranked) == 2 and after[table.seats[0]].wins == 1


def test_new_links_at_a_table_of_the_last_round_reach_the_board(organizer):
    """The round on screen is read afresh: New links at one of its tables changes its Keep
    score link without a new version, and the board must not offer the dead one."""
    event = make(organizer)
    play_round(organizer, event, 1)
    match = tables(event, 1)[0].match
    old = f"/matches/{match.pk}/join/{match.keep_token}/"
    assert old in organizer.get(f"/events/{event.pk}/").content.decode()
    made = services.new_links(match, match.keep_token)
    board = organizer.get(f"/events/{event.pk}/").content.decode()
    assert old not in board and f"/matches/{match.pk}/join/{made.keep_token}/" in board


def test_time_for_all_says_so_when_the_game_has_no_time_rule(organizer):
    event = make(organizer, time_limit="30")
    assert event.time_limit == 30 and "time_limit" not in event.options  # block has no time rule
    post(organizer, event, "seat")
    post(organizer, event, "start")
    early = post(organizer, event, "time")
    assert early.status_code == 422 and "parejas.time" in early.content.decode()
    EventRound.objects.filter(event=event).update(
        started_at=EventRound.objects.get(event=event).started_at.replace(year=2000)
    )
    response = post(organizer, event, "time")
    assert response.status_code == 200 and "no time rule" in response.content.decode()
    assert all(t.match.version == 0 for t in tables(event, 1))  # nothing recorded


def test_strangers_see_nothing_and_players_only_read(organizer, player, db):
    event = make(organizer)
    post(organizer, event, "seat")
    post(organizer, event, "start")
    stranger = Client()
    for path in ("", "poll/", "tv/", "cards/", "export.json"):
        assert stranger.get(f"/events/{event.pk}/{path}").status_code == 404, path
    assert (
        stranger.post(f"/events/{event.pk}/close/", {"version": "3", "key": "k" * 20}).status_code
        == 404
    )
    assert stranger.get(f"/events/{event.pk}/join/not-the-token/").status_code == 404
    assert player.get(f"/events/{event.pk}/join/{event.watch_token}/").status_code == 302
    page = player.get(f"/events/{event.pk}/").content.decode()
    assert "Where everyone sits" in page and "Seat round" not in page
    table = tables(event, 1)[0]
    partner, b, d = table.seats[2], table.seats[1], table.seats[3]
    assert f"Round 1: table 1, with {partner}, against {b} and {d}" in page
    assert table.match.keep_token not in page  # a player watches tables, never keeps them
    assert player.get(f"/events/{event.pk}/cards/").status_code == 404
    refused = player.post(
        f"/events/{event.pk}/close/", {"version": "3", "key": "k" * 20}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 403
    assert player.get(f"/events/{event.pk}/tv/").status_code == 200


def test_the_board_and_poll_follow_every_table(organizer):
    event = make(organizer)
    post(organizer, event, "seat")
    post(organizer, event, "start")
    page = organizer.get(f"/events/{event.pk}/poll/?version=0", HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and "<html" not in page.content.decode()
    version = page["X-Table-Version"]
    follows = page["X-Live-Follows"].split()
    assert sorted(follows) == sorted(f"match:{t.match_id}" for t in tables(event, 1))
    assert organizer.get(f"/events/{event.pk}/poll/?version={version}").status_code == 204
    finish(tables(event, 1)[0], 60, 0)  # a table moved: so does the board
    moved = organizer.get(f"/events/{event.pk}/poll/?version={version}")
    assert moved.status_code == 200 and "finished" in moved.content.decode()
    tv = organizer.get(f"/events/{event.pk}/poll/?screen=tv&version={version}")
    assert 'id="tv"' in tv.content.decode()


def test_table_cards_have_one_card_a_table_with_its_keep_score_code(organizer):
    event = make(organizer)
    post(organizer, event, "seat")
    post(organizer, event, "start")
    page = organizer.get(f"/events/{event.pk}/cards/").content.decode()
    assert page.count('class="card"') == 2
    assert "Table 2 · Round 1" in page and page.count("<svg") == 2
    for table in tables(event, 1):
        assert f"/matches/{table.match_id}/join/{table.match.keep_token}/" in page


def test_the_standings_take_at_most_ten_queries_whatever_the_size(
    organizer, django_assert_max_num_queries
):
    names = [f"P{n:03}" for n in range(160)]
    event = events.create_event(
        "Big", "block", {"record": "scores", "target": 50}, ROTATING, "swiss", 5, None, names
    )
    for number in (1, 2):
        assert events.propose(event.pk, event.version, f"seat-{number}-xxxx")
        event.refresh_from_db()
        assert events.start(event.pk, event.version, f"start-{number}-xxxx")
        event.refresh_from_db()
        for table in tables(event, number):
            finish(table, 60, 0)
        assert events.close(event.pk, event.version, f"close-{number}-xxxx")
        event.refresh_from_db()
    with django_assert_max_num_queries(10):
        standings = events.read(Event.objects.get(pk=event.pk)).standings()
    assert len(standings) == 160 and standings[0].wins == 2.0
    organizer.get(f"/events/{event.pk}/join/{event.keep_token}/")
    with django_assert_max_num_queries(10):
        assert organizer.get(f"/events/{event.pk}/poll/?version=0").status_code == 200


def test_export_import_replays_every_match_and_checks_every_seating(organizer, tmp_path, capsys):
    event = make(organizer, series="Season 2026")
    for number in (1, 2):
        post(organizer, event, "seat")
        post(organizer, event, "start")
        for table in tables(event, number):
            finish(table, 60, 0)
        post(organizer, event, "close")
    document = export_event(event)
    assert document["format"] == "boneyard-event/1" and len(document["rounds"]) == 2
    assert document["standings"][0]["rank"] == 1 and document["series"] == "Season 2026"
    copy = import_event(json.loads(json.dumps(document)))
    again = export_event(copy)
    for key in ("entrants", "standings", "seed", "options"):
        assert again[key] == document[key], key
    assert [[t["seats"] for t in r["tables"]] for r in again["rounds"]] == [
        [t["seats"] for t in r["tables"]] for r in document["rounds"]
    ]
    # A seating that repeats a partnership another seating avoids is refused with its rule.
    bad = json.loads(json.dumps(document))
    bad["rounds"][1]["tables"] = bad["rounds"][0]["tables"]
    with pytest.raises(EventDocumentError, match="event.seat"):
        import_event(bad)
    # A tampered match is refused where it is.
    worse = json.loads(json.dumps(document))
    worse["rounds"][0]["tables"][0]["match"]["rounds"][0]["actions"][0]["pips"] = {"0": 5}
    with pytest.raises(EventDocumentError, match="round 1, table 1"):
        import_event(worse)
    # And by command.
    path = tmp_path / "event.json"
    call_command("export_event", str(event.pk), stdout=path.open("w"))
    call_command("import_event", str(path))
    pk = int(capsys.readouterr().out.strip().splitlines()[-1])
    assert export_event(Event.objects.get(pk=pk))["standings"] == document["standings"]
    # The series ranks every player over its events.
    series = organizer.get(f"/events/{event.pk}/series/")
    assert series.status_code == 200 and "Season 2026" in series.content.decode()


def test_a_spanish_phone_reads_the_night_in_its_own_words(organizer, player):
    event = make(organizer)
    post(organizer, event, "seat")
    post(organizer, event, "start")
    table = tables(event, 1)[0]
    cards = organizer.get(f"/events/{event.pk}/cards/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Mesa 1 · Ronda 1" in cards.content.decode()
    player.get(f"/events/{event.pk}/join/{event.watch_token}/")
    page = player.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    a, b, partner, d = table.seats
    assert f"Ronda 1: mesa 1, con {partner}, contra {b} y {d}" in page
    assert "Clasificación" in page and "Parejas rotativas" in page


def test_one_withdraw_form_chooses_among_the_entrants_still_in(organizer):
    """One Withdraw form and a choice of those still in, not a form an entrant: at 800
    players the forms made the board 630 KB (issue 32)."""
    event = make(organizer, names=EIGHT[:5])
    gone = event.entrants.get(first=EIGHT[1])
    page = post(organizer, event, "withdraw", entrant=str(gone.pk)).content.decode()
    assert page.count('name="entrant"') == 1
    choice = page.split('<select name="entrant">', 1)[1].split("</select>", 1)[0]
    assert choice.count("<option") == 4 and EIGHT[1] not in choice
    assert f'<li class="muted">{EIGHT[1]} <small>withdrawn</small></li>' in page
