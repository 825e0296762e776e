"""The new-match form on a phone (390 x 844): the names at the top, Start within reach, and
under the folded "House rules" only the chosen game's, with JavaScript and without."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from referee import PRESETS
from scoring.models import Match

from .test_scoring_games import watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = 844  # the phone's height in CSS px


def top(page: Page, locator) -> float:
    """A locator's top in the page (not the viewport), in CSS px."""
    box = locator.bounding_box()
    assert box is not None
    return box["y"] + page.evaluate("() => window.scrollY")


def shown_rules(page: Page) -> list[str]:
    """The names of the house-rule fields a player can see, in order."""
    return page.locator(
        "details.match-rules select:visible, details.match-rules input:visible"
    ).evaluate_all("(fields) => fields.map((f) => f.name)")


def chosen(page: Page):
    """The chosen game's house rules (every game's are in the page; only its show)."""
    return page.locator(".game-rules:visible")


def test_names_first_and_start_within_reach(live_server, page: Page, shot):
    problems = watch_console(page)
    page.goto(live_server.url + "/matches/new/")
    first_name = page.get_by_label("Player 1")
    start = page.get_by_role("button", name="Start")
    name_y, game_y, start_y = (
        top(page, first_name),
        top(page, page.locator('input[name="game"]').first),
        top(page, start),
    )
    print(f"first name field at y={name_y:.0f}, game at y={game_y:.0f}, Start at y={start_y:.0f}")
    assert name_y + first_name.bounding_box()["height"] < SCREEN
    assert name_y < game_y < start_y < 2 * SCREEN
    assert top(page, page.get_by_label("Player 8")) < game_y
    # The house rules are folded: none of them is on the page until asked for.
    expect(page.locator("details.match-rules")).not_to_have_attribute("open", "")
    assert shown_rules(page) == []
    shot("new-match-light")
    page.emulate_media(color_scheme="dark")
    shot("new-match-dark")
    page.emulate_media(color_scheme="light")
    assert problems == []


def test_choosing_a_game_shows_only_its_house_rules(live_server, page: Page, shot):
    problems = watch_console(page)
    page.goto(live_server.url + "/matches/new/")
    page.locator("details.match-rules summary").click()
    for slug, game in PRESETS.items():
        page.locator(f'input[name="game"][value="{slug}"]').check()
        expect(page.locator("details.match-rules summary")).to_have_text(
            f"House rules: {game.title}", use_inner_text=True
        )
        shown = shown_rules(page)
        declared = [f"{slug}.{option.name}" for option in game.options]
        # Where spinners are off, how a spinner opens and counts is left out of sight.
        spinners = page.locator(f'select[name="{slug}.spinners"]')
        if spinners.count() and spinners.input_value() == "none":
            declared = [
                f for f in declared if f.split(".")[1] not in ("sides_first", "spinner_count")
            ]
        assert shown == declared, slug
    # Draw with spinners: their two house rules appear.
    page.locator('input[name="game"][value="draw"]').check()
    assert "draw.sides_first" not in shown_rules(page)
    page.locator('select[name="draw.spinners"]').select_option("first")
    assert shown_rules(page) == [f"draw.{option.name}" for option in PRESETS["draw"].options]
    rule = chosen(page).get_by_role("link", name="draw.until")
    expect(rule).to_have_attribute("href", "/rules/draw/#draw.until")
    chosen(page).get_by_label("Play to").select_option("150")
    shot("new-match-draw-house-rules")
    page.emulate_media(color_scheme="dark")
    shot("new-match-draw-house-rules-dark")
    page.emulate_media(color_scheme="light")

    page.get_by_label("Player 1").fill("Ana")
    page.get_by_label("Player 2").fill("Ben")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#table")).to_be_visible()
    match = Match.objects.get()
    assert (match.game, match.options["target"], match.options["spinners"]) == (
        "draw",
        150,
        "first",
    )
    assert problems == []


def test_a_refused_form_comes_back_as_it_was_sent(live_server, page: Page):
    page.goto(live_server.url + "/matches/new/")
    page.get_by_label("Player 1").fill("Ana")
    page.get_by_label("Player 2").fill("ANA")
    page.locator('input[name="game"][value="doubles"]').check()
    page.locator("details.match-rules summary").click()
    chosen(page).get_by_label("Play to").select_option("50")
    page.get_by_role("button", name="Start").click()
    expect(page.locator(".notice.error")).to_be_visible()
    expect(page.get_by_label("Player 2")).to_have_value("ANA")
    expect(page.locator('input[name="game"][value="doubles"]')).to_be_checked()
    page.locator("details.match-rules summary").click()
    expect(chosen(page).get_by_label("Play to")).to_have_value("50")
    page.get_by_label("Player 2").fill("Ben")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#table")).to_be_visible()
    assert Match.objects.get().options["target"] == 50


def test_the_form_works_without_javascript(live_server, browser, _screens_dir):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(live_server.url + "/matches/new/")
        page.get_by_label("Player 1").fill("Ana")
        page.get_by_label("Player 2").fill("Ben")
        page.locator('input[name="game"][value="all-fives"]').check()
        page.locator("details.match-rules summary").click()
        assert all(name.startswith("all-fives.") for name in shown_rules(page))
        chosen(page).get_by_label("Play to").select_option("121")
        page.screenshot(path=str(_screens_dir / "new-match-no-js.png"), full_page=True)
        page.get_by_role("button", name="Start").click()
        expect(page.locator("#table")).to_be_visible()
        match = Match.objects.get()
        assert (match.game, match.options["target"]) == ("all-fives", 121)
    finally:
        context.close()
