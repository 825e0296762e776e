"""The replay screen at a phone-sized viewport: arrow keys and the Previous and Next buttons
walk a round step by step, in place, and the plain links work without script."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Match
from tests.scoring.test_dump_truck import honest_game
from tests.scoring.test_replay import all_fives, havoc_game

from .test_scoring_games import watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def joined(page: Page, url: str, document: dict) -> Match:
    """The match of ``document``, on this phone's Keep score link."""
    match = services.import_match(document)
    page.goto(f"{url}/matches/{match.pk}/join/{match.keep_token}/")
    return match


def ready(page: Page) -> None:
    expect(page.locator("#step")).to_be_visible()
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


def test_arrow_keys_and_buttons_walk_a_round(live_server, page: Page, shot, _screens_dir):
    problems = watch_console(page)
    match = joined(page, live_server.url, all_fives())
    steps = len(all_fives()["rounds"][1]["actions"])
    page.goto(f"{live_server.url}/matches/{match.pk}/rounds/2/")
    ready(page)
    title = page.locator("#step-title")
    expect(title).to_have_text(f"Step 0 of {steps}")
    # Stepping swaps inside the live region: the element a screen reader listens to stays.
    page.evaluate("document.getElementById('step').dataset.kept = 'yes'")

    page.keyboard.press("ArrowRight")
    expect(title).to_have_text(f"Step 1 of {steps}")
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/rounds/2/?step=1")
    page.keyboard.press("ArrowRight")
    expect(title).to_have_text(f"Step 2 of {steps}")
    page.keyboard.press("ArrowLeft")
    expect(title).to_have_text(f"Step 1 of {steps}")
    page.keyboard.press("Shift+ArrowRight")  # a modifier: not a step
    page.wait_for_timeout(300)
    expect(title).to_have_text(f"Step 1 of {steps}")
    assert page.evaluate("document.getElementById('step').dataset.kept") == "yes"

    page.get_by_role("link", name="Next", exact=True).click()
    expect(title).to_have_text(f"Step 2 of {steps}")
    expect(page.locator('#round-log a[aria-current="step"]')).to_have_attribute("href", "?step=2")
    page.get_by_role("link", name="Previous").click()
    expect(title).to_have_text(f"Step 1 of {steps}")
    # The button tapped keeps the focus, so the next tap or key goes on from there.
    assert page.evaluate("document.activeElement.id") == "step-prev"
    for name in ("Previous", "Next"):
        box = page.locator("#step-nav").get_by_text(name, exact=True).bounding_box()
        assert box is not None and box["height"] >= 44

    page.get_by_role("link", name="Last").click()
    expect(title).to_have_text(f"Step {steps} of {steps}")
    expect(page.locator("#step .result")).to_contain_text("Round 2")
    page.keyboard.press("ArrowRight")  # past the end: nothing to follow
    page.wait_for_timeout(300)
    expect(title).to_have_text(f"Step {steps} of {steps}")
    page.get_by_role("link", name="First").click()
    expect(title).to_have_text(f"Step 0 of {steps}")
    page.keyboard.press("ArrowLeft")  # before the start: nothing either
    page.wait_for_timeout(300)
    expect(title).to_have_text(f"Step 0 of {steps}")

    page.locator('#round-log a[href="?step=5"]').click()
    expect(title).to_have_text(f"Step 5 of {steps}")
    page.evaluate("window.scrollTo(0, 0)")
    shot("61-replay-all-fives")
    page.screenshot(path=str(_screens_dir / "61-replay-all-fives-screen.png"))  # what a phone sees
    page.go_back()
    expect(title).to_have_text(f"Step 0 of {steps}")
    assert problems == []


def test_the_plain_links_work_without_script(live_server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        page = context.new_page()
        match = joined(page, live_server.url, all_fives())
        page.goto(f"{live_server.url}/matches/{match.pk}/rounds/1/?step=3")
        page.get_by_role("link", name="Next", exact=True).click()
        expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/rounds/1/?step=4")
        expect(page.locator("#step-title")).to_contain_text("Step 4 of")
        page.get_by_role("link", name="Round 3").click()
        expect(page.locator("#step-title")).to_contain_text("Step 0 of")
    finally:
        context.close()


def test_the_trucks_and_the_racks_step_by_step(live_server, page: Page, shot, _screens_dir):
    problems = watch_console(page)
    match = joined(page, live_server.url, honest_game(1, 2))
    page.goto(f"{live_server.url}/matches/{match.pk}/rounds/1/?step=20")
    ready(page)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-title")).to_contain_text("Step 21 of")
    expect(page.locator(".truck-card")).to_have_count(2)
    shot("62-replay-dump-truck")
    page.screenshot(path=str(_screens_dir / "62-replay-dump-truck-screen.png"))

    match = joined(page, live_server.url, havoc_game())
    page.goto(f"{live_server.url}/matches/{match.pk}/rounds/2/?step=30")
    ready(page)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-title")).to_contain_text("Step 29 of")
    expect(page.locator(".rack-card")).to_have_count(3)
    shot("63-replay-havoc")
    page.screenshot(path=str(_screens_dir / "63-replay-havoc-screen.png"))
    assert problems == []
