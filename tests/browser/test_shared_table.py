"""Every phone at the table, live, and nothing lost: a second phone follows within 2 seconds,
and a tap the network drops is sent again and recorded once, in a real Chromium."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from playwright.sync_api import Page, Route, expect

from scoring import services
from scoring.models import Action, Match
from tests.conftest import PHONE

from .test_draw_round import pick
from .test_scoring_games import start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NO_STREAM = "event: unavailable\ndata: \n\n"  # what a server without streams says


def lead(page: Page, name: str, tile: str) -> None:
    page.locator("label.pill", has_text=name).click()
    pick(page, tile)
    page.locator('.end-button[data-end="lead"]').click()


def drawn_again_under_a_tap(page: Page, held: list, part: str = "table") -> None:
    """Once a tap is held on its way (``held``, filled by the test's route), ``#part`` drawn
    again as a push or another answer would draw it: the one the tap left from is gone."""
    while not held:  # the route's handler runs while the test waits on the page
        page.wait_for_timeout(20)
    page.evaluate(
        """(part) => { document.getElementById(part).dataset.left = "";
                       return htmx.ajax("GET", location.pathname,
                                        {target: "#" + part, swap: "outerHTML",
                                         select: "#" + part}); }""",
        part,
    )
    expect(page.locator(f"#{part}[data-left]")).to_have_count(0)


def test_a_watching_phone_follows_the_table_live(live_server, browser, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "draw", ["Ana", "Ben", "Caro"])
    page.get_by_text("Share this table").click()
    expect(page.locator("svg.qr")).to_have_count(2)
    shot("21-share-panel")
    watch_url = page.locator('input[aria-label="Watch link"]').input_value()
    assert re.fullmatch(rf"{live_server.url}/matches/\d+/join/[\w-]{{43,}}/", watch_url)

    phone = browser.new_context(**PHONE)
    try:
        ben = phone.new_page()
        ben_problems = watch_console(ben)
        ben.goto(watch_url)
        expect(ben.locator("#watching")).to_be_visible()
        expect(ben.locator("#play-form")).to_have_count(0)
        lead(page, "Ana", "6-6")
        # The watcher's page asks every 2 s; it shows the lead without a reload.
        expect(ben.locator(".log")).to_contain_text("Ana led 6-6", timeout=3000)
        ben.screenshot(path=str(shot("22-scorekeeper").parent / "22-watcher.png"), full_page=True)
        assert ben_problems == []
    finally:
        phone.close()
    assert problems == []


def test_a_tap_lost_on_the_way_is_sent_again_and_recorded_once(live_server, page: Page, shot):
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    attempts: list[str] = []

    def flaky(route: Route) -> None:
        attempts.append(route.request.post_data or "")
        if len(attempts) == 1:
            route.abort("internetdisconnected")  # never reaches the server
        else:
            route.continue_()

    page.route("**/act/", flaky)
    lead(page, "Ana", "6-6")
    # The page says what it is doing while it waits to send again.
    expect(page.locator("#connection")).to_contain_text("No connection: sending your tap again")
    expect(page.locator(".log")).to_contain_text("Ana led 6-6")
    expect(page.locator("#connection")).to_be_hidden()
    assert len(attempts) == 2 and attempts[0] == attempts[1]  # the same tap, the same key
    assert Action.objects.count() == 1


def test_a_tap_whose_answer_is_lost_is_not_recorded_twice(live_server, page: Page, shot):
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    answered: list[int] = []

    def lose_first_answer(route: Route) -> None:
        response = route.fetch()  # the server records the tap...
        answered.append(response.status)
        if len(answered) == 1:
            route.abort("connectionreset")  # ...but the phone never hears back
        else:
            route.fulfill(response=response)

    page.route("**/act/", lose_first_answer)
    banner = page.locator("#connection")
    lead(page, "Ana", "6-6")
    expect(page.locator(".log")).to_contain_text("Ana led 6-6")
    expect(banner).to_be_hidden()
    assert answered == [200, 200], (answered, page.url, list(Action.objects.values_list("kind")))
    assert Action.objects.count() == 1 and Match.objects.get().version == 1
    shot("23-after-retry")


def test_a_tap_whose_answer_is_lost_while_the_table_is_redrawn_is_still_settled(
    live_server, page: Page
):
    """The tap reached the server, its answer was lost, and before it is sent again the table
    is redrawn (the stream's push of that very tap, on a busy phone): the button tapped is
    out of the page, and the tap must still be sent again and its banner cleared, not left
    saying "sending your tap again" for good (htmx sends nothing for a removed element)."""
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    answered: list[int] = []

    def lose_first_answer(route: Route) -> None:
        response = route.fetch()
        answered.append(response.status)
        if len(answered) == 1:
            route.abort("connectionreset")
        else:
            route.fulfill(response=response)

    page.route("**/act/", lose_first_answer)
    # The redraw a push would make, within the half second before the tap is sent again.
    page.evaluate(
        """() => document.addEventListener("htmx:sendError", () => {
            htmx.ajax("GET", location.pathname,
                      {target: "#table", swap: "outerHTML", select: "#table"});
        }, {once: true})"""
    )
    lead(page, "Ana", "6-6")
    expect(page.locator(".log")).to_contain_text("Ana led 6-6")
    expect(page.locator("#connection")).to_be_hidden()
    assert answered == [200, 200]
    assert Action.objects.count() == 1 and Match.objects.get().version == 1


def test_a_table_redrawn_while_a_tap_is_on_its_way_leaves_the_tap_its_answer(
    live_server, page: Page
):
    """On a busy machine a poll can be answered after a tap is recorded and reach the phone
    before the tap's own answer. Swapped in, it left the tap's answer nowhere to go (htmx
    swaps an answer into the table that was on screen when the tap left), so the tapping
    phone never said "Recorded" and kept the poll's view of the turn (a Dump Truck load
    form never appeared). A poll is not swapped over a tap on its way, and a tap's answer
    lands on the table on screen, whichever that is."""
    problems = watch_console(page)
    # No stream here (as a server without one says): the phone polls every 2 s.
    page.route("**/live/**", lambda r: r.fulfill(content_type="text/event-stream", body=NO_STREAM))
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    held: list = []

    def hold(route: Route) -> None:
        held.append((route, route.fetch()))  # recorded, and its answer held back

    page.route("**/act/", hold)
    with page.expect_response(lambda r: "/poll/" in r.url and r.status == 200, timeout=8000):
        lead(page, "Ana", "6-6")  # the next poll answers with the table the tap made
    page.wait_for_timeout(100)  # its swap, if it is made, made
    route, response = held[0]
    route.fulfill(response=response)
    expect(page.locator("#done")).to_have_text("Recorded: Ana led 6-6.")
    expect(page.locator("#table")).to_have_attribute("data-version", "1")
    # The other way round: the tap's answer first, then a second redraw of the same table.
    page.evaluate(
        """() => htmx.ajax("GET", document.getElementById("poll").getAttribute("hx-get")
                               .replace(/version=\\d+/, "version=0"),
                           {source: "#poll", target: "#table", swap: "outerHTML"})"""
    )
    page.wait_for_timeout(300)
    expect(page.locator("#done")).to_have_text("Recorded: Ana led 6-6.")
    assert Action.objects.count() == 1
    assert problems == []


def test_a_taps_answer_lands_on_the_table_on_screen(live_server, page: Page):
    """Two taps on their way (or anything else that draws the table meanwhile): the first
    one's answer lands on the table now on screen, not on the one it left from."""
    problems = watch_console(page)
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    held: list = []
    page.route("**/act/", lambda route: held.append((route, route.fetch())))
    lead(page, "Ana", "6-6")
    drawn_again_under_a_tap(page, held)
    route, response = held[0]
    route.fulfill(response=response)
    expect(page.locator("#done")).to_have_text("Recorded: Ana led 6-6.")
    assert problems == []


def test_a_tap_whose_button_left_the_page_and_never_arrived_is_sent_again(live_server, page: Page):
    """The table drawn again while a tap is on its way, then the tap's connection dropped:
    htmx says so on the button that sent it, which has left the page and is heard by nobody.
    The tap is still sent again, and recorded once."""
    problems = watch_console(page)
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    held: list = []
    page.route("**/act/", lambda route: held.append(route))
    lead(page, "Ana", "6-6")
    drawn_again_under_a_tap(page, held)
    held[0].abort()  # the connection dropped: nothing reached the server
    page.unroute("**/act/")  # the next one goes through (sent again half a second later)
    expect(page.locator("#done")).to_have_text("Recorded: Ana led 6-6.")
    expect(page.locator("#connection")).to_be_hidden()
    assert Action.objects.count() == 1
    dropped = ("ERR_FAILED", "htmx:sendError", "htmx:afterRequest")  # as Chromium and htmx log it
    assert [p for p in problems if not any(d in p for d in dropped)] == []


def test_a_tap_that_hangs_holds_the_table_back_ten_seconds_at_most(live_server, page: Page):
    """A tap whose connection died without a word never ends: the polls it holds back come
    again after 10 s, and the table follows the other phones."""
    page.route("**/live/**", lambda r: r.fulfill(content_type="text/event-stream", body=NO_STREAM))
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    page.route("**/act/", lambda route: None)  # sent, never answered
    lead(page, "Ana", "5-5")
    page.wait_for_function("() => document.querySelector('#play-form button[disabled]')")
    match = Match.objects.get()
    # Another phone's tap is recorded meanwhile.
    assert services.record(match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "b" * 32)
    expect(page.locator(".log")).to_contain_text("Ana led 6-6", timeout=16_000)


def test_two_answers_out_of_order_leave_the_newer_table(live_server, page: Page):
    """The first tap's answer arrives after a newer table is on screen: the newer one stays."""
    page.route("**/live/**", lambda r: r.fulfill(content_type="text/event-stream", body=NO_STREAM))
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    held: list = []
    page.route("**/act/", lambda route: held.append((route, route.fetch())))
    lead(page, "Ana", "6-6")
    while not held:
        page.wait_for_timeout(20)
    match = Match.objects.get()
    assert match.version == 1
    assert services.record(match.pk, {"type": "draw", "seat": 1}, 1, "b" * 32)  # Ben's phone
    page.evaluate(  # a newer table drawn (another answer) while the first is on its way
        """() => htmx.ajax("GET", location.pathname,
                           {target: "#table", swap: "outerHTML", select: "#table"})"""
    )
    expect(page.locator("#table")).to_have_attribute("data-version", "2")
    page.evaluate(  # every table swapped in from now on (a poll would mend a wrong one in 2 s)
        """() => { window.seen = []; document.addEventListener("htmx:afterSwap", () =>
                     window.seen.push(document.getElementById("table").dataset.version)); }"""
    )
    route, response = held[0]
    with page.expect_response("**/act/"):
        route.fulfill(response=response)  # the table at version 1
    page.wait_for_timeout(300)
    assert "1" not in page.evaluate("window.seen")
    expect(page.locator(".log")).to_contain_text("Ben drew")


def test_new_links_tell_the_shut_out_phone_so(live_server, browser, page: Page, shot):
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    page.get_by_text("Share this table").click()
    keep_link = page.locator('input[aria-label="Keep score link"]').input_value()
    phone = browser.new_context(**PHONE)
    try:
        ben = phone.new_page()
        ben.goto(keep_link)
        expect(ben.locator("#play-form")).to_be_visible()
        page.get_by_role("button", name="New links (the old ones stop working)").click()
        expect(page.locator(".messages")).to_contain_text("the old ones no longer work")
        # Ben's polls find the link revoked: the page says so instead of freezing. A poll's
        # first 404 is asked again 2 s later (table.js), so the notice comes 2-4 s after the
        # new links and a round trip: the suite's wait, not a tighter one (it failed half the
        # runs of this file at 4 s).
        expect(ben.locator("#connection")).to_contain_text("no longer works")
        ben.screenshot(path=str(shot("24-new-links").parent / "24-revoked.png"))
    finally:
        phone.close()


def test_a_phone_reads_the_table_while_another_writes_it(live_server, page: Page):
    """A poll that comes while a tap is being written is answered with the table as it was,
    never a 500: the live server's reads must not fail for the write's lock, whatever
    database it uses (issue 28: the in-memory SQLite test database answered "database table
    is locked: scoring_match", the test thread and the server holding two connections)."""
    match = services.create_match("draw", ["Ana", "Ben"], {})
    page.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
    poll = f"{live_server.url}/matches/{match.pk}/poll/?version={match.version}"
    with transaction.atomic():  # another phone's tap, written and not yet committed
        key = services.new_key()
        assert services.record(match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, key)
        answer = page.request.get(poll)
        assert answer.status == 204, (answer.status, answer.text()[-500:])  # unchanged yet
    assert page.request.get(poll).status == 200  # and once written, the new table
