"""A whole partnership All Fives round (RULES.md §8) at 390×844, with Ben playing from his
own phone: the strip shows the two team totals and who is to play, each phone marks its own
team, and the round is won and scored by a team."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Match

from .test_draw_round import pick, play
from .test_scoring_games import ready, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Caro", "Dan"]


def test_a_partnership_all_fives_round_with_a_second_phone(
    live_server, browser, page: Page, shot, _screens_dir
):
    problems = watch_console(page)
    match = services.create_match("all-fives", NAMES, {"partnerships": True, "hand_size": 2})
    keep_link = f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/"
    page.goto(keep_link)
    ready(page)
    teams = page.locator(".strip li")
    expect(teams).to_have_count(2)
    expect(teams.nth(0)).to_contain_text("Ana & Caro")
    expect(teams.nth(1)).to_contain_text("Ben & Dan")

    # Ana leads 5-5: 10 for Ana & Caro.
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "5-5")
    page.locator('.end-button[data-end="lead"]').click()
    expect(teams.nth(0).locator(".total")).to_have_text("10")
    expect(teams.nth(1)).to_have_attribute("aria-current", "true")
    expect(teams.nth(1).locator(".to-act")).to_have_text("Ben")

    # Ben's own phone: another browser, joined with the Keep score link, set to Ben.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        ben = phone.new_page()
        ben_problems = watch_console(ben)
        ben.goto(keep_link)
        ready(ben)
        ben.locator("fieldset.seats button", has_text="Ben").first.click()
        expect(ben.locator(".strip li").nth(1)).to_contain_text("(you)")
        expect(ben.locator(".strip li").nth(0)).not_to_contain_text("(you)")
        play(ben, "5-0")  # the spinner shows 5 + 5 + 0: 10 for Ben & Dan
        expect(ben.locator(".strip li").nth(1).locator(".total")).to_have_text("10")
        ben.screenshot(path=str(_screens_dir / "40-pairs-ben-phone.png"))
        assert ben_problems == []
    finally:
        phone.close()

    # Ana's phone follows the table: Ben's 10 shows in his team's total.
    expect(teams.nth(1).locator(".total")).to_have_text("10", timeout=3000)
    expect(teams.nth(0)).to_have_attribute("aria-current", "true")  # Caro is to play
    play(page, "5-3")  # 3: nothing
    play(page, "0-0")  # Dan: 3 + 0
    shot("41-pairs-all-fives-play")
    play(page, "2-0")  # Ana plays out: 3 + 2 = 5 for Ana & Caro
    expect(teams.nth(0).locator(".total")).to_have_text("15")

    # The tally: Ben 12, Caro 5, Dan 8. Ana & Caro dominoed, so Caro's 5 is not counted:
    # Ben & Dan's 20 is the end bonus.
    expect(page.locator("#status")).to_contain_text("tally the hands")
    pick(page, "6-6", "fieldset.tally-seat:nth-of-type(2)")
    pick(page, "4-1", "fieldset.tally-seat:nth-of-type(3)")
    pick(page, "6-2", "fieldset.tally-seat:nth-of-type(4)")
    page.get_by_role("button", name="Score the round").click()
    expect(page.locator(".result h2")).to_contain_text("Ana & Caro win the round: 35")
    expect(page.locator(".result")).to_contain_text("End bonus: Ben & Dan 20 → 20: 20")
    expect(teams.nth(0).locator(".total")).to_have_text("35")
    expect(teams.nth(1).locator(".total")).to_have_text("10")
    shot("42-pairs-all-fives-result")
    page.emulate_media(color_scheme="dark")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(_screens_dir / "43-pairs-all-fives-result-dark.png"))
    assert Match.objects.get().totals == [35, 10, 0, 0]
    assert problems == []
