"""Dominards at a phone-sized table, in a real Chromium: the table's own dice entered, a
lead that hits the dice's target and drops the card worth the total, a play that hits a
multiple, and a roll made by the app."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_draw_round import pick
from .test_scoring_games import start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def the_lit_end(page: Page) -> None:
    """Tap the one end the tapped tile fits."""
    button = page.locator(".end-button.fits:not(.card-button)")
    expect(button).to_have_count(1)
    button.click()


def test_a_roll_a_target_and_a_card_drop(live_server, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "dominards", ["Ana", "Ben", "Caro"])
    expect(page.locator("#dice")).to_contain_text("The seat that leads rolls the dice first")
    shot("31-dominards-roll")
    page.get_by_text("We rolled our own dice").click()
    page.get_by_label("Die 1").fill("3")
    page.get_by_label("Die 2").fill("3")
    page.get_by_role("button", name="Record these dice").click()
    expect(page.locator("#dice")).to_contain_text("multiples of 6")
    expect(page.locator("#status")).to_contain_text("Ana leads a double")

    # The lead: 6-6 makes a total of 12, a multiple of 6, and Ana holds a queen.
    pick(page, "6-6")
    expect(page.locator('.end-button:not(.card-button)[data-end="lead"]')).to_contain_text(
        "total 12"
    )
    drop = page.locator('.card-button[data-end="lead"]')
    expect(drop).to_be_visible()
    expect(drop).to_contain_text("drop a Q")
    drop.click()
    expect(page.locator("#last-scored")).to_contain_text(
        "made 12: a card and the dice's multiple, +12 (Q dropped)"
    )
    ana = page.locator(".scoreboard li").nth(0)
    expect(ana.locator(".cards")).to_have_text("4 cards")
    expect(ana.locator(".total")).to_have_text("12")

    # Ben and Caro play on the spinner's sides; a tile that makes no card total offers none.
    pick(page, "6-3")
    expect(page.locator('.card-button[data-end="A"]')).to_be_hidden()
    the_lit_end(page)
    expect(page.locator(".count strong")).to_have_text("15")
    pick(page, "6-0")
    the_lit_end(page)
    # Ana's second turn under her roll: 3-3 on 6-3 makes 18, a multiple of 6.
    pick(page, "3-3")
    expect(page.locator(".end-button.fits .gain")).to_have_text(["+18"])
    the_lit_end(page)
    expect(page.locator("#last-scored")).to_contain_text("made 18: the dice's multiple, +18")
    expect(ana.locator(".total")).to_have_text("30")

    # The dice pass to Ben, who rolls with the app's dice.
    expect(page.locator("#status")).to_contain_text("Ben rolls the dice")
    page.get_by_role("button", name="Roll 4 dice").click()
    expect(page.locator("#dice")).to_contain_text("virtual card")
    expect(page.locator("#dice")).to_contain_text("Ben's roll, 4 more turns")
    expect(page.locator(".log")).to_contain_text("Ben rolled")
    shot("32-dominards-after-roll")
    assert problems == []
