"""The referee's desk at a phone: from a table to a position, a refused proposal with its
rule linked to the rules page, a legal one with its score, played on, and shared."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_draw_round import end, pick
from .test_scoring_games import ready, start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_ask_the_referee_from_a_table(live_server, browser, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "all-fives", ["Ana", "Ben"])
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "5-5")
    end(page, "lead")
    expect(page.locator(".log")).to_contain_text("Ana led 5-5")
    page.get_by_role("button", name="Ask the referee about this position").click()
    expect(page.locator("#desk-hint")).to_be_visible()
    shot("31-desk")

    pick(page, "5-0")
    end(page, "A")
    ruling = page.locator("#ruling")
    expect(ruling).to_contain_text("Legal: Ben played 5-0 on 5-5")
    expect(ruling).to_contain_text("It would score: Ben +10")
    shot("32-desk-ruling")

    # Played on: a new position, with its own link that anyone can open.
    page.get_by_role("button", name="Play it on: the position after it").click()
    expect(page.locator(".log")).to_contain_text("Ben played 5-0 on 5-5")
    link = page.locator('input[aria-label="Link to this position"]').input_value()
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        friend = other.new_page()
        friend.goto(link)
        expect(friend.locator(".log")).to_contain_text("Ben played 5-0 on 5-5")
        # Asking about an end the tile does not fit: refused, with the rule linked to the
        # rules page, which opens at that rule.
        friend.locator('label.pick:has(input[value="4-4"])').click()
        friend.locator(".end-button").first.click()
        expect(friend.locator("#ruling")).to_contain_text("Not legal: Ana played 4-4")
        expect(friend.locator("#ruling")).to_contain_text("line.attach")
        friend.locator("#ruling a.rule").first.click()
        expect(friend).to_have_url(f"{live_server.url}/rules/all-fives/#line.attach")
        expect(friend.locator("#line\\.attach")).to_be_in_viewport()
    finally:
        other.close()
    assert problems == []


def test_a_tile_that_fits_nowhere_links_its_rule(live_server, page: Page):
    problems = watch_console(page)
    start(page, live_server.url, "doubles", ["Ana", "Ben"])
    pick(page, "6-3")
    why = page.locator("#why")
    expect(why).to_contain_text("The lead must be a double")
    expect(why.locator("a.rule")).to_have_attribute("href", "/rules/doubles/#line.lead")
    pick(page, "6-6")
    expect(why).to_be_hidden()
    assert problems == []


def test_a_pasted_document_at_the_desk(live_server, page: Page, shot):
    problems = watch_console(page)
    page.goto(live_server.url + "/referee/")
    page.get_by_label("Paste a match document").fill("{not json")
    page.get_by_role("button", name="Set up the position").click()
    expect(page.get_by_role("alert")).to_contain_text("That is not a JSON match document.")
    page.get_by_label("Paste a match document").fill(
        '{"format": "boneyard-match/1", "game": "block", "players": ["Ana", "Ben"],'
        ' "rounds": [{"actions": [{"type": "play", "seat": 0, "tile": "6-4"}]}]}'
    )
    page.get_by_role("button", name="Set up the position").click()
    ready(page)
    expect(page.locator(".log")).to_contain_text("Ana led 6-4")
    shot("33-desk-pasted")
    assert problems == []


def test_the_match_page_draws_the_chart_when_scrolled_to(live_server, page: Page):
    from scoring import services

    match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 1})
    services.record(match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "chart-b-lead")
    services.record(match.pk, {"type": "tally", "hands": {"1": ["5-4"]}}, 1, "chart-b-tally")
    problems = watch_console(page)
    page.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)
    expect(page.locator("svg.score-chart")).to_have_count(0)
    page.locator(".chart-slot").scroll_into_view_if_needed()
    expect(page.locator("svg.score-chart")).to_be_visible()
    expect(page.locator("svg.score-chart")).to_have_attribute(
        "aria-label", "Scores by round: Ana 9, Ben 0 after 1 round"
    )
    assert problems == []
