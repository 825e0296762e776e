"""Refusals stay in place at a phone (issue 17): a tap the server refuses at the edge leaves
the table as it was and says why, also with DEBUG on as `make run` serves it (django-htmx's
debug helper would otherwise put the answer over the whole page)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Action

from .test_shared_table import drawn_again_under_a_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("debug", [False, True])
def test_a_tap_refused_at_the_edge_leaves_the_table_and_says_why(
    live_server, page: Page, settings, debug, shot
):
    settings.DEBUG = debug
    match = services.create_match("draw", ["Ana", "Ben", "Caro"], {})
    page.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
    expect(page.locator("#status")).to_contain_text("who leads?")
    # A tampered form: a control character in every form's key.
    page.evaluate(
        """() => document.querySelectorAll('input[name="key"]').forEach(
               k => { k.value = 'bad\\u001bkey-12345'; })"""
    )
    page.locator("label.pill", has_text="Ana").click()
    page.locator('#picker label.pick:has(input[value="6-6"])').click()
    page.locator('.end-button[data-end="lead"]').click()
    expect(page.locator("#connection")).to_contain_text("not text")
    expect(page.locator("#connection")).to_be_visible()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("header.top")).to_be_visible()
    shot(f"refused-in-place-debug-{debug}")
    assert not Action.objects.exists()
    # The next tap clears the notice and records (a fresh screen's keys are whole).
    page.reload()
    page.locator("label.pill", has_text="Ana").click()
    page.locator('#picker label.pick:has(input[value="6-6"])').click()
    page.locator('.end-button[data-end="lead"]').click()
    expect(page.locator("#status")).to_contain_text(re.compile("Ben"))
    assert Action.objects.count() == 1


def test_a_refusal_is_said_when_the_button_tapped_has_left_the_page(live_server, page: Page):
    """The table drawn again (another phone's tap, pushed) while a refused tap is on its way:
    the button that sent it has left the page, and the refusal's notice, which htmx fires on
    that button, is still said."""
    match = services.create_match("draw", ["Ana", "Ben", "Caro"], {})
    page.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
    expect(page.locator("#status")).to_contain_text("who leads?")
    page.evaluate(  # a tampered form, as above
        """() => document.querySelectorAll('input[name="key"]').forEach(
               k => { k.value = 'bad\\u001bkey-12345'; })"""
    )
    held: list = []
    page.route("**/act/", lambda route: held.append(route))
    page.locator("label.pill", has_text="Ana").click()
    page.locator('#picker label.pick:has(input[value="6-6"])').click()
    page.locator('.end-button[data-end="lead"]').click()
    drawn_again_under_a_tap(page, held)
    route = held[0]
    route.fulfill(response=route.fetch())
    expect(page.locator("#connection")).to_contain_text("not text")
    expect(page.locator("#connection")).to_be_visible()
    assert not Action.objects.exists()
