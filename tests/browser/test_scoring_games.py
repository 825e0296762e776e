"""The scoring games at a phone-sized table: a Muggins call from a second phone, and a
Doubles round with a locked number, by tapping, in a real Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Match

from .test_draw_round import pick, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start(page: Page, url: str, game: str, players: list[str], **options: str) -> None:
    page.goto(url + "/matches/new/")
    page.locator(f'input[name="game"][value="{game}"]').check()
    for n, name in enumerate(players, start=1):
        page.get_by_label(f"Player {n}").fill(name)
    if options:  # the house rules are folded until asked for
        page.locator("details.match-rules summary").click()
    for option, value in options.items():
        page.locator(f'select[name="{game}.{option}"]').select_option(value)
    page.get_by_role("button", name="Start").click()
    ready(page)


def ready(page: Page) -> None:
    """The table is drawn and htmx has taken over its forms (a tap before that is a plain
    form POST, which works too, but not the way the test means to drive it)."""
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


REFUSALS = ("status of 400", "status of 409", "status of 422")


def watch_console(page: Page) -> list[str]:
    """Console errors (CSP violations among them) and page errors. Chromium also logs every
    refused tap as a failed load; those are the referee's answers, not problems."""
    problems: list[str] = []

    def seen(message) -> None:
        if message.type == "error" and not any(r in message.text for r in REFUSALS):
            problems.append(message.text)

    page.on("console", seen)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def test_a_muggins_call_from_a_second_phone(live_server, browser, page: Page, shot, _screens_dir):
    problems = watch_console(page)
    start(page, live_server.url, "muggins", ["Ana", "Ben", "Caro"])
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "5-5")
    page.locator('.end-button[data-end="lead"]').click()
    # The count is not shown: spotting it is the game. Ana under-declares.
    expect(page.locator(".count")).to_contain_text("yours to spot")
    expect(page.get_by_role("button", name="Score 10")).to_be_visible()
    expect(page.get_by_role("button", name="Ana: Muggins!")).to_have_count(0)
    shot("11-muggins-declare")
    page.get_by_role("button", name="Score 5").click()
    expect(page.get_by_role("button", name="Ben: Muggins!")).to_be_visible()

    # Ben's own phone: another browser, joined with the Keep score link.
    keep_link = page.locator('input[aria-label="Keep score link"]').input_value()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        ben = phone.new_page()
        ben_problems = watch_console(ben)
        ben.goto(keep_link)
        ben.get_by_role("button", name="Ben: Muggins!").click()
        expect(ben.locator(".log")).to_contain_text("Ben called Muggins! · Ben +5")
        expect(ben.locator(".scoreboard li").nth(1).locator(".total")).to_have_text("5")
        expect(ben.get_by_role("button", name="Caro: Muggins!")).to_have_count(0)
        ben.screenshot(path=str(_screens_dir / "12-ben-phone.png"), full_page=True)
        assert ben_problems == []
    finally:
        phone.close()

    # Ana's phone follows the table by itself: Ben's call shows there within 2 seconds.
    expect(page.locator(".log")).to_contain_text("Ben called Muggins! · Ben +5", timeout=3000)
    expect(page.locator(".scoreboard li").nth(1).locator(".total")).to_have_text("5")
    # Once the next tile is down the log says what Ana's lead was worth. 5-0 fits one end
    # only: one tap goes there, and the play waits for its score (one step, fives.muggins).
    pick(page, "5-0")
    expect(page.locator("#declare-now")).to_contain_text("Ben, what did it score?")
    page.locator("#declare-now").get_by_role("button", name="No score").click()
    expect(page.locator(".log")).to_contain_text("Ana led 5-5 · worth 10")
    match = Match.objects.get()
    assert match.totals == [5, 5, 0]
    assert problems == []


def test_a_doubles_round_with_a_locked_number(live_server, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "doubles", ["Ana", "Ben"], hand_size="2")
    # The lead must be a double: 6-3 lights nothing.
    pick(page, "6-3")
    expect(page.locator('.end-button[data-end="lead"]')).to_be_disabled()
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "3-3")
    page.locator('.end-button[data-end="lead"]').click()
    expect(page.locator(".unlocked")).to_contain_text("Unlocked: 3")
    play(page, "3-1")
    expect(page.locator("#status")).to_contain_text("Ana")

    # Ones are locked until 1-1 is down: the tapped tile lights nothing and says why.
    pick(page, "1-0")
    expect(page.locator(".end-button.fits")).to_have_count(0)
    expect(page.locator("#why")).to_contain_text("Ones are locked until 1-1 is on the table")
    expect(page.locator("#why")).to_contain_text("line.unlock")
    shot("13-doubles-locked")
    play(page, "1-1")
    expect(page.locator(".unlocked")).to_contain_text("1 · 3")

    # Ana has played out: Ben shows his last tile and Ana scores it.
    expect(page.locator("#status")).to_contain_text("tally the hands")
    pick(page, "6-5", "fieldset.tally-seat:nth-of-type(2)")
    page.get_by_role("button", name="Score the round").click()
    expect(page.locator(".result")).to_contain_text("Ana wins")
    expect(page.locator(".scoreboard li").nth(0).locator(".total")).to_have_text("11")
    shot("14-doubles-scored")
    assert problems == []
