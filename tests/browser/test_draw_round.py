"""A whole 3-player Draw round at a phone-sized table, by tapping, in a real Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Action, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANA = ["0-0", "1-0", "2-0", "1-1"]  # 5 pips
BEN = ["3-0", "2-1", "3-2", "3-1"]  # 15 pips


def pick(page: Page, tile: str, within: str = "#picker") -> None:
    page.locator(f'{within} label.pick:has(input[value="{tile}"])').click()


def end(page: Page, letter: str) -> None:
    button = page.locator(f'.end-button[data-end="{letter}"]')
    expect(button).to_be_enabled()
    button.click()


def test_a_whole_draw_round_by_tapping(live_server, page: Page, shot):
    problems: list[str] = []  # console errors include CSP violations
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(live_server.url)
    page.get_by_role("link", name="New match").click()
    page.locator('input[name="game"][value="draw"]').check()
    page.get_by_label("Player 1").fill("Ana")
    page.get_by_label("Player 2").fill("Ben")
    page.get_by_label("Player 3").fill("Caro")
    shot("01-new-match")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#status")).to_contain_text("who leads?")

    # Ana leads 6-6: her name, the tile, Lead.
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "6-6")
    end(page, "lead")
    expect(page.locator("#status")).to_contain_text("Ben")
    expect(page.locator(".count strong")).to_have_text("12")

    # Two taps: 6-5, then the end it lights up. A tile that fits nowhere lights none.
    pick(page, "5-4")
    expect(page.locator('.end-button[data-end="A"]')).to_be_disabled()
    pick(page, "6-5")
    expect(page.locator('.end-marker.fits[data-end="A"]')).to_have_count(1)
    end(page, "A")
    expect(page.locator("#status")).to_contain_text("Caro")
    expect(page.locator(".count strong")).to_have_text("17")
    shot("02-after-two-plays")

    # Caro cannot knock while the boneyard has tiles: the button says why.
    expect(page.get_by_role("button", name="Caro knocks")).to_be_disabled()
    expect(page.locator(".reason").first).to_contain_text("draw.must-draw")
    for left in range(13, 0, -1):
        page.get_by_role("button", name="Caro draws a tile").click()
        expect(page.locator(".scoreboard li.turn .hand")).to_contain_text(str(5 + 14 - left))
    expect(page.get_by_role("button", name="Caro draws a tile")).to_be_disabled()
    pick(page, "5-4")
    end(page, "B")  # 6-6 is A, 6-5 is B
    expect(page.locator(".count strong")).to_have_text("16")

    for name in ("Ana", "Ben", "Caro"):
        page.get_by_role("button", name=f"{name} knocks").click()
    expect(page.locator("#status")).to_contain_text("tally the hands")
    shot("03-blocked")

    # Tally by tapping every remaining tile.
    for tile in ANA:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(1)")
    for tile in BEN:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(2)")
    on_table = {"6-6", "6-5", "5-4"}
    caro = [
        f"{a}-{b}" for a in range(6, -1, -1) for b in range(a, -1, -1)
        if f"{a}-{b}" not in on_table | set(ANA) | set(BEN)
    ]  # fmt: skip
    assert len(caro) == 17
    for tile in caro:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(3)")
    page.get_by_role("button", name="Score the round").click()

    # Ana has the fewest pips: she scores Ben's 15 and Caro's 116, passing the target of 100.
    expect(page.locator("p.winner")).to_contain_text("Ana wins the match with 131")
    rows = page.locator(".scoreboard li")
    expect(rows.nth(0).locator(".total")).to_have_text("131")
    expect(rows.nth(1).locator(".total")).to_have_text("0")
    # Caro knocked holding 6-4 and 4-4, which fitted: the audit says so, no score changes.
    expect(page.locator(".result")).to_contain_text("tally.audit")
    shot("04-match-over")

    match = Match.objects.get()
    assert match.status == Match.FINISHED and match.winner == 0
    assert Action.objects.filter(kind="draw").count() == 13
    page.get_by_role("link", name="Rounds and totals").click()
    expect(page.locator("tfoot")).to_contain_text("131")
    shot("05-summary")
    assert problems == []


def test_the_table_works_without_javascript(live_server, browser, shot):
    """Every action is a real form: with JavaScript off the same taps still record."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(live_server.url + "/matches/new/")
        page.get_by_label("Player 1").fill("Ana")
        page.get_by_label("Player 2").fill("Ben")
        page.get_by_role("button", name="Start").click()
        pick(page, "6-4")
        page.locator('.end-button[data-end="lead"]').click()
        expect(page.locator(".count strong")).to_have_text("10")
        pick(page, "5-5")
        page.locator('.end-button[data-end="A"]').click()  # 6-4's 6 end: wrong tile
        expect(page.locator('[role="alert"]')).to_contain_text("line.attach")
        expect(page.locator(".log li")).to_have_count(1)
    finally:
        context.close()
