"""Fixing the record at a phone (issue 18, RULES.md §7), by tapping in a real Chromium:
Ben's 6-5 found one play late, a Dominards card drop missed by one play, and a wrong tally
found after the round ended."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Action, Match

from .test_draw_round import pick, play
from .test_scoring_games import ready, start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fix(page: Page, entry: int) -> None:
    """Tap Fix beside entry ``entry`` (from 1) of the round's log."""
    page.locator(f'.log a.fix[href$="/fix/{entry - 1}/"]').click()
    expect(page.get_by_role("heading", name=f"entry {entry}:")).to_be_visible()


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


def test_a_missed_dominards_card_drop_fixed_one_play_later(live_server, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "dominards", ["Ana", "Ben", "Caro"])
    page.get_by_text("We rolled our own dice").click()
    page.get_by_label("Die 1").fill("3")
    page.get_by_label("Die 2").fill("3")
    page.get_by_role("button", name="Record these dice").click()
    expect(page.locator("#dice")).to_contain_text("multiples of 6")
    # Ana leads 6-6 and drops her queen, but the phone is told the lead without the drop.
    pick(page, "6-6")
    page.locator('.end-button:not(.card-button)[data-end="lead"]').click()
    ana = page.locator(".scoreboard li").nth(0)
    expect(ana.locator(".cards")).to_have_text("5 cards")
    play(page, "6-3")
    expect(page.locator(".log")).to_contain_text("Ben played 6-3")

    fix(page, 2)
    page.get_by_role("link", name="It should be something else…").click()
    ready(page)
    pick(page, "6-6")
    drop = page.locator('.card-button[data-end="lead"]')
    expect(drop).to_contain_text("drop a Q")
    drop.click()
    expect(page.locator(".preview")).to_contain_text("Ana led 6-6, dropping a Q")
    shot("35-dominards-preview")
    page.get_by_role("button", name="Confirm the correction").click()
    ready(page)
    expect(ana.locator(".cards")).to_have_text("4 cards")
    expect(page.locator(".log")).to_contain_text("Ana led 6-6 · corrected below")
    shot("36-dominards-after")
    assert services.verify(Match.objects.get()) == []
    assert problems == []


def test_a_wrong_tally_fixed_after_the_round_ended(live_server, page: Page, shot):
    problems = watch_console(page)
    match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 2, "target": 100})
    page.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "6-6")
    page.locator('.end-button[data-end="lead"]').click()
    play(page, "6-5")
    play(page, "5-5")  # Ana is out: the hands are tallied
    page.locator('input[name="pips-1"]').fill("7")
    page.get_by_role("button", name="Score the round").click()
    expect(page.locator(".result")).to_contain_text("Ana wins")
    expect(page.locator(".scoreboard li").nth(0).locator(".total")).to_have_text("7")
    # Ben had 9 in hand, not 7: fixed from the round's result, the next round not begun.
    page.get_by_role("link", name="Something wrong? Fix round 1").click()
    page.locator('#round-log a.fix[href$="/fix/3/"]').click()
    page.get_by_role("link", name="It should be something else…").click()
    ready(page)
    page.locator('input[name="pips-1"]').fill("9")
    page.get_by_role("button", name="Score the round").click()
    expect(page.locator(".moves")).to_contain_text("Ana 7 → 9")
    shot("37-tally-preview")
    page.get_by_role("button", name="Confirm the correction").click()
    ready(page)
    expect(page.locator(".scoreboard li").nth(0).locator(".total")).to_have_text("9")
    page.locator("#record summary").click()
    shot("38-tally-after")
    match.refresh_from_db()
    assert match.totals == [9, 0]
    assert Action.objects.filter(round__match=match, kind="correct").count() == 1
    assert services.verify(match) == []
    assert problems == []
