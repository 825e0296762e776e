"""Fixing the record at a phone (issue 18, RULES.md §7), by tapping in a real Chromium:
Ben's 6-5 found one play late, a Dominards card drop missed by one play, and a wrong tally
found after the round ended."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Action, Match

from .test_draw_round import pick
from .test_scoring_games import ready, start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fix(page: Page, entry: int) -> None:
    """Tap Fix beside entry ``entry`` (from 1) of the round's log."""
    page.locator(f'.log a.fix[href$="/fix/{entry - 1}/"]').click()
    expect(page.get_by_role("heading", name=f"entry {entry}:")).to_be_visible()


def play(page: Page, tile: str) -> None:
    pick(page, tile)
    page.locator(".end-button.fits").first.click()


def test_ben_65_fixed_from_the_log_one_play_late(live_server, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "all-fives", ["Ana", "Ben", "Caro"])
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "6-6")
    page.locator('.end-button[data-end="lead"]').click()
    expect(page.locator(".log")).to_contain_text("Ana led 6-6")
    play(page, "6-5")  # Ben really played 6-4
    expect(page.locator(".log")).to_contain_text("Ben played 6-5")
    play(page, "5-5")  # Caro played on, on the 5 the wrong tile left open
    expect(page.locator(".log")).to_contain_text("Caro played 5-5")
    shot("30-before-the-fix")

    fix(page, 2)
    shot("31-what-went-wrong")
    page.get_by_role("link", name="It should be something else…").click()
    ready(page)
    expect(page.locator("#table .notice[role=alert]")).to_contain_text("Fixing round 1, entry 2")
    play(page, "6-4")
    # Caro's 5-5 no longer fits: the referee names it and offers to fix it in the same go.
    expect(page.locator(".preview")).to_contain_text("Round 1, entry 3")
    expect(page.locator("#table .notice[role=alert]")).to_contain_text("line.")
    shot("32-a-later-entry-is-illegal")
    page.get_by_role("link", name="Fix that entry too").click()
    page.get_by_role("link", name="It should be something else…").click()
    ready(page)
    play(page, "4-4")
    expect(page.locator(".moves")).to_contain_text("Caro 0 → 20")
    shot("33-preview")
    page.get_by_role("button", name="Confirm the correction").click()

    ready(page)
    expect(page.locator(".messages")).to_contain_text("Corrected")
    expect(page.locator(".log")).to_contain_text("Corrected entry 2: it was Ben played 6-4")
    expect(page.locator(".log")).to_contain_text("Ben played 6-5 on 6-6 · corrected below")
    expect(page.locator(".scoreboard li").nth(2).locator(".total")).to_have_text("20")
    # The picker follows the table as it really is: 6-4 is gone, 6-5 is back.
    expect(page.locator('#picker input[value="6-4"]')).to_have_count(0)
    expect(page.locator('#picker input[value="6-5"]')).to_have_count(1)
    shot("34-after-the-fix")
    match = Match.objects.get()
    assert match.totals == [0, 0, 20]
    assert services.verify(match) == []
    assert problems == []
