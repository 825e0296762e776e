"""A club night from the organizer's phone (issue 32) at 390×844: make an 8-player rotating
event of three rounds, seat round 1, swap two seats, start it; every table's match kept
through its own match page on a phone (a score pad: one hand ends it), table 1 by the
organizer's phone through its link on the board, table 2 by a second phone while the board
follows by itself; close each round and seat the next, to the end of the event; the table
cards printed to PDF by Chromium; the players' page; the TV page at 1920×1080 updating itself
while a table is played."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from scoring import services
from scoring.events.models import Event, EventTable
from scoring.models import Match

from .test_scoring_games import watch_console
from .test_shared_table import drawn_again_under_a_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EIGHT = ["Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo"]
# Where the screenshots worth a look are copied for the report (BONEYARD_SHOTS=dir).
SHOTS = os.environ.get("BONEYARD_SHOTS", "")


def keep_shot(path: Path) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(SHOTS) / path.name)


def finish_by_service(table: EventTable) -> None:
    match = Match.objects.get(pk=table.match_id)
    pips = {"0": 0, "1": 30, "2": 3, "3": 30}
    assert services.record(
        match.pk, {"type": "tally", "pips": pips}, match.version, f"fin{match.pk:08}"
    )


def win_in_one_hand(page: Page) -> None:
    """On a table's match page: a score-pad hand in which seat 0 plays out and its side takes
    the others' 55 pips, past the target of 50 (the match ends)."""
    expect(page.locator("#tally-form")).to_be_visible()
    seats = page.locator("#tally-form fieldset.tally-seat")
    seats.nth(0).get_by_label("played out").check()
    seats.nth(1).get_by_label("or pips").fill("30")
    seats.nth(2).get_by_label("or pips").fill("4")
    seats.nth(3).get_by_label("or pips").fill("25")
    page.get_by_role("button", name="Score round 1").click()
    expect(page.locator("main")).to_contain_text("win the match with 55")


def ready(page: Page) -> None:
    expect(page.locator("#event")).to_be_visible()
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


def test_an_organizer_runs_a_rotating_night_from_a_phone(
    live_server, browser, page: Page, shot, _screens_dir
):
    problems = watch_console(page)
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name of the event").fill("Jueves de dominó")
    page.locator("summary", has_text="House rules: Block").click()
    page.locator('select[name="block.target"]').select_option("50")
    page.locator('select[name="block.record"]').select_option("scores")
    page.get_by_role("spinbutton", name="Rounds").fill("3")
    page.locator('select[name="time_limit"]').select_option("45")
    for i, name in enumerate(EIGHT):
        page.locator(f'input[name="entrant-{i}"]').fill(name)
    expect(page.locator(".entrants-pairs")).to_be_hidden()  # rotating: players alone
    keep_shot(shot("60-event-new"))
    page.get_by_role("button", name="Make the event").click()
    ready(page)
    event = Event.objects.get()
    expect(page.locator("h1")).to_have_text("Jueves de dominó")

    page.get_by_role("button", name="Seat round 1").click()
    expect(page.locator("#draft-head")).to_have_text("Round 1: the seating")
    cards = page.locator(".draft .table-card")
    expect(cards).to_have_count(2)
    first = cards.nth(0).locator(".seat-order").inner_text()
    page.locator('select[name="one"]').select_option("1.0")
    page.locator('select[name="other"]').select_option("2.0")
    page.locator("form.swap button").click()
    expect(cards.nth(0).locator(".seat-order")).not_to_have_text(first)
    keep_shot(shot("61-event-seating"))
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator("#board-head")).to_have_text("Round 1: the tables")
    expect(page.locator(".board .table-card")).to_have_count(2)
    expect(page.locator(".clock")).to_contain_text("left")
    keep_shot(shot("62-event-board"))

    # The table cards, printed by Chromium: one A4 page a table, its name and its code.
    tables = list(EventTable.objects.filter(round__event=event).order_by("number"))
    printer = browser.new_context()
    try:
        sheet = printer.new_page()
        sheet.goto(f"{live_server.url}/events/{event.pk}/join/{event.keep_token}/")
        sheet.goto(f"{live_server.url}/events/{event.pk}/cards/")
        pdf = sheet.pdf(format="A4", print_background=True)
        sheet.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi, for a look
        sheet.screenshot(path=str(_screens_dir / "63-table-cards.png"), full_page=True)
        keep_shot(_screens_dir / "63-table-cards.png")
    finally:
        printer.close()
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == len(tables) == 2
    for table, card in zip(tables, reader.pages, strict=True):
        text = card.extract_text()
        assert f"Table {table.number} · Round 1" in text, text
        assert all(name in text for name in table.seats), text
        assert abs(float(card.mediabox.width) - 595) < 2  # A4: 210 mm wide
    if SHOTS:
        (Path(SHOTS) / "63-table-cards.pdf").write_bytes(pdf)

    board = f"{live_server.url}/events/{event.pk}/"
    for number in (1, 2, 3):
        if number > 1:
            page.get_by_role("button", name=f"Seat round {number}").click()
            expect(page.locator("#draft-head")).to_have_text(f"Round {number}: the seating")
            page.get_by_role("button", name=f"Start round {number}").click()
            expect(page.locator("#board-head")).to_have_text(f"Round {number}: the tables")
        played = list(
            EventTable.objects.filter(round__event=event, round__number=number).order_by("number")
        )
        # Table 1 through its own match page, from the board's link on the organizer's phone.
        page.get_by_role("link", name="Keep score at table 1").click()
        win_in_one_hand(page)
        page.goto(board)
        ready(page)
        expect(page.locator("#table-1")).to_contain_text("finished")
        expect(page.get_by_role("button", name=f"Close round {number}")).to_be_disabled()
        # Table 2 on its own phone, through its Keep score link: the board follows by itself.
        match = Match.objects.get(pk=played[1].match_id)
        other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        try:
            table_phone = other.new_page()
            table_phone.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
            win_in_one_hand(table_phone)
        finally:
            other.close()
        expect(page.locator("#table-2")).to_contain_text("finished", timeout=10000)
        if number == 1:
            keep_shot(shot("64-event-round-finished"))
        page.get_by_role("button", name=f"Close round {number}").click()
        expect(page.locator(".round-head")).to_contain_text("closed" if number < 3 else "over")
    # Three rounds, two tables, one winning pair a table: twelve wins among the eight.
    wins = page.locator(".standings tbody tr td:nth-child(3)").all_inner_texts()
    assert len(wins) == 8 and sum(int(w) for w in wins) == 12, wins
    expect(page.locator(".round-head")).to_contain_text("The event is over.")
    expect(page.get_by_role("button", name="Seat round 4")).to_have_count(0)
    keep_shot(shot("67-event-over"))
    assert Match.objects.filter(status=Match.FINISHED).count() == 6

    # A player's phone: the standings and where everyone sits, nothing to run.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        player = phone.new_page()
        player.goto(f"{live_server.url}/events/{event.pk}/join/{event.watch_token}/")
        expect(player.locator(".standings tbody tr")).to_have_count(8)
        expect(player.locator(".board .table-card")).to_have_count(2)  # the last round's
        expect(player.locator("form")).to_have_count(1)  # the language, nothing to run
        path = _screens_dir / "65-event-player.png"
        player.screenshot(path=str(path), full_page=True)
        keep_shot(path)
    finally:
        phone.close()
    assert problems == []


def test_the_tv_page_shows_the_night_in_large_type_and_follows_it(
    live_server, browser, _screens_dir
):
    event_pk, keep_token = _a_night_in_round_one()
    tv = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = tv.new_page()
        problems = watch_console(page)
        page.goto(f"{live_server.url}/events/{event_pk}/join/{keep_token}/")
        page.goto(f"{live_server.url}/events/{event_pk}/tv/")
        expect(page.locator(".tv .table-card")).to_have_count(3)
        size = page.locator(".tv .standings td").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert size >= 24  # readable from 3 m on a 1080p screen
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080  # all on screen
        assert page.locator(".tv a, .tv button, .tv input").count() == 0  # nothing to tap
        table = EventTable.objects.filter(round__event_id=event_pk).order_by("number").first()
        finish_by_service(table)
        expect(page.locator("#table-1")).to_contain_text("finished", timeout=15000)
        path = _screens_dir / "66-event-tv.png"
        page.screenshot(path=str(path))
        keep_shot(path)
        assert problems == []
    finally:
        tv.close()


def _a_night_in_round_one() -> tuple[int, str]:
    from scoring.events import services as events

    event = events.create_event(
        "Club night", "block", {"record": "scores", "target": 50}, "rotating", "swiss", 3, 45,
        EIGHT + ["Inés", "Juan", "Kim", "Luz"],
    )  # fmt: skip
    assert events.propose(event.pk, 0, "seat-round-1")
    assert events.start(event.pk, 1, "start-round-1")
    return event.pk, event.keep_token


def test_an_organizers_answer_lands_on_the_board_on_screen(live_server, page: Page):
    """The board drawn again (its poll, a push) while the organizer's tap is on its way: the
    tap's answer lands on the board now on screen, not on the one it left from, where it was
    lost (the board stayed at "Seat round 1" after the seating was made)."""
    problems = watch_console(page)
    page.goto(f"{live_server.url}/events/new/")
    page.get_by_label("Name of the event").fill("Martes")
    for i, name in enumerate(EIGHT):
        page.locator(f'input[name="entrant-{i}"]').fill(name)
    page.get_by_role("button", name="Make the event").click()
    ready(page)
    # The board's own polls say nothing changed: only the tap's answer can show the seating.
    page.route("**/poll/**", lambda route: route.fulfill(status=204))
    held: list = []
    page.route("**/seat/", lambda route: held.append(route))
    page.get_by_role("button", name="Seat round 1").click()
    drawn_again_under_a_tap(page, held, "event")  # before the tap is recorded
    expect(page.get_by_role("button", name="Seat round 1")).to_be_visible()
    route = held[0]
    route.fulfill(response=route.fetch())
    expect(page.locator("#draft-head")).to_have_text("Round 1: the seating")
    assert problems == []
