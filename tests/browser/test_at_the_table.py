"""At the table (issue 19), at a 390×844 phone in light and dark: the score strip in view
while the picker is scrolled, numerals on a double-12 Havoc table, and two answers that once
wrecked the page (three dice typed for Dominards, a Havoc tally both tapped and typed) shown
in place with what was chosen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Match

from .test_scoring_games import ready, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def join(page: Page, url: str, match: Match) -> None:
    page.goto(f"{url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)


def record(match: Match, *actions: dict) -> None:
    for action in actions:
        match.refresh_from_db()
        assert services.record(match.pk, action, match.version, services.new_key())


def strip_in_view(page: Page) -> None:
    """The strip stays at the top of the screen with the page scrolled to its foot."""
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    box = page.locator(".strip").bounding_box()
    assert box is not None and -1 <= box["y"] <= 2, box
    expect(page.locator(".strip")).to_be_in_viewport()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    "game, players, actions",
    [
        ("draw", ["Ana", "Ben", "Caro"], [{"type": "play", "seat": 0, "tile": "6-6"}]),
        ("all-fives", ["Ana", "Ben"], [{"type": "play", "seat": 0, "tile": "5-5"}]),
        ("dominards", ["Ana", "Ben", "Caro"], [{"type": "roll", "seat": 0, "dice": [3, 3]}]),
        ("dump-truck", ["Ana", "Ben"], []),
        ("havoc", ["Ana", "Ben", "Caro"], [{"type": "draw", "seat": 0, "from": "boneyard"}]),
    ],
)
def test_the_score_strip_stays_in_view_while_playing(
    live_server, page: Page, shot, game, players, actions, scheme
):
    problems = watch_console(page)
    page.emulate_media(color_scheme=scheme)
    match = services.create_match(game, players, {})
    record(match, *actions)
    join(page, live_server.url, match)
    strip = page.locator(".strip li")
    expect(strip).to_have_count(len(players))
    strip_in_view(page)
    if game != "dump-truck":  # its seats act at once: nobody's turn
        expect(page.locator(".strip li.turn")).to_have_count(1)
    # What the phone's screen shows, scrolled to the foot: the strip on top.
    page.screenshot(path=str(shot(f"40-strip-{game}-{scheme}").with_suffix(".view.png")))
    assert problems == []


def test_a_double_twelve_havoc_table_shows_numerals(live_server, page: Page, shot):
    match = services.create_match("havoc", ["Ana", "Ben", "Caro", "Dee", "Eve", "Fay", "Gus"], {})
    assert match.options["set"] == 12
    record(match, {"type": "draw", "seat": 0, "from": "boneyard"})
    join(page, live_server.url, match)
    expect(page.locator("text.pipnum").first).to_be_visible()
    expect(page.locator("circle.pip")).to_have_count(0)
    shot("41-havoc-double-12-numerals")
    page.get_by_role("button", name="pips").click()
    expect(page.locator("circle.pip").first).to_be_visible()


def test_three_dice_for_dominards_are_refused_in_place(live_server, page: Page, shot):
    match = services.create_match("dominards", ["Ana", "Ben", "Caro"], {})
    join(page, live_server.url, match)
    page.get_by_text("We rolled our own dice").click()
    page.get_by_label("Die 1").fill("3")
    page.get_by_label("Die 2").fill("4")
    page.get_by_label("Die 3").fill("5")
    page.get_by_role("button", name="Record these dice").click()
    expect(page.locator("#table [role=alert]")).to_contain_text("2 or 4 dice")
    expect(page.locator("header.top")).to_be_visible()  # the page is whole
    expect(page.get_by_label("Die 3")).to_have_value("5")  # what was typed stays
    shot("42-three-dice-in-place")


def test_a_havoc_tally_tapped_and_typed_is_refused_in_place(live_server, page: Page, shot):
    from tests.scoring.test_havoc import BENS_TRAY, WINNER_DISCARDS, WINNER_TRAIN

    match = services.create_match("havoc", ["Ana", "Ben"], {})
    losers = [["2-1", "3-1", "4-1", "5-1", "6-1"]]
    for n, tile in enumerate(WINNER_TRAIN):
        record(match, {"type": "draw", "seat": 0, "from": "boneyard"})
        record(match, {"type": "train", "seat": 0, "tile": tile})
        if n < 5:
            record(match, {"type": "discard", "seat": 0, "tile": WINNER_DISCARDS[n]})
            record(match, {"type": "draw", "seat": 1, "from": "boneyard"})
            record(match, {"type": "discard", "seat": 1, "tile": losers[0][n]})
    join(page, live_server.url, match)
    tally = page.locator("#tally-form")
    for tile in BENS_TRAY[:2]:
        tally.locator(f'label.pick:has(input[value="{tile}"])').click()
    expect(tally.locator(".pip-sum output")).to_have_text("17")
    tally.locator('input[name="pips-1"]').fill("41")
    tally.get_by_role("button", name="Score the round").click()
    refusal = page.locator("#table [role=alert]")
    expect(refusal).to_contain_text("Ben's hand is both tapped and typed")
    expect(page.locator("header.top")).to_be_visible()
    for tile in BENS_TRAY[:2]:
        expect(page.locator(f'#tally-form input[value="{tile}"]')).to_be_checked()
    expect(page.locator('#tally-form input[name="pips-1"]')).to_have_value("41")
    shot("43-havoc-tally-in-place")


def test_a_share_link_can_be_copied(live_server, browser, shot):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    try:
        match = services.create_match("draw", ["Ana", "Ben"], {})
        join(page, live_server.url, match)
        page.get_by_text("Share this table").click()
        copy = page.locator("[data-copy]").first
        expect(copy).to_be_visible()  # localhost is a secure context
        copy.click()
        expect(copy).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()").endswith(
            f"/matches/{match.pk}/join/{match.keep_token}/"
        )
    finally:
        context.close()
