"""A timed Dominó match on a Spanish phone (issue 31, ``parejas.time``), 390×844: the clock
on the score strip counted down by clock.js, a keeper's Tiempo refused before the limit with
the rule named, then, once the limit has passed, Tiempo called and the one extra hand
announced (the pairs are level at 0)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Match

from .axe import axe_violations, describe, small_targets
from .test_scoring_games import ready, watch_console
from .test_spanish import fits, page  # noqa: F401  (the Spanish phone)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def begun(match: Match, minutes_ago: int) -> None:
    """The match began ``minutes_ago`` (rather than waiting for the clock)."""
    Match.objects.filter(pk=match.pk).update(
        created_at=timezone.now() - timedelta(minutes=minutes_ago)
    )


def below_the_strip(phone: Page, notice) -> None:
    """After a tap the top of the turn comes to rest below the strip, clock and all."""
    phone.wait_for_timeout(300)  # the swap's scroll settles
    strip = phone.locator(".strip").bounding_box()
    top = notice.bounding_box()["y"]
    assert strip["y"] + strip["height"] <= top, (strip, top)


def test_a_keeper_calls_time_on_a_timed_dominó_match(
    live_server,
    page: Page,  # noqa: F811
    shot,
    _screens_dir,
):
    problems = watch_console(page)

    def seen(name: str) -> None:
        """What the phone's screen shows (the sticky strip where the player sees it)."""
        page.screenshot(path=str(_screens_dir / f"{name}-pantalla.png"))

    match = services.create_match(
        "domino-dominican", ["Ana", "Ben", "Caro", "Dan"], {"time_limit": 30}
    )
    begun(match, 10)
    page.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)
    clock = page.locator(".strip li.clock")
    expect(clock).to_be_visible()
    expect(clock.locator("[data-ends]")).to_have_text("20 min")
    expect(clock).to_contain_text("Tiempo")
    expect(clock).to_contain_text("hasta las")
    # clock.js puts the deadline in the phone's own time (UTC here, no zone name).
    expect(clock.locator("time")).not_to_contain_text("UTC")
    fits(page)
    shot("dominó-01-reloj")
    # The clock and Time pass the accessibility checks every screen passes.
    assert [describe(v) for v in axe_violations(page)] == []
    assert small_targets(page) == []

    # Before the limit the referee refuses Tiempo in place, naming its rule; nothing changes.
    page.get_by_role("button", name="Tiempo", exact=True).click()
    refusal = page.locator(".notice.error")
    expect(refusal).to_contain_text("quedan 20 minutos")
    expect(refusal.locator('a[href$="#parejas.time"]')).to_be_visible()
    match.refresh_from_db()
    assert match.version == 0
    fits(page)
    below_the_strip(page, refusal)
    seen("dominó-02-tiempo-rechazado")
    shot("dominó-02-tiempo-rechazado")

    # The limit has passed: the strip says so, and Tiempo starts the one extra hand.
    begun(match, 31)
    page.reload()
    ready(page)
    expect(clock.locator("[data-ends]")).to_have_text("¡Tiempo!")
    expect(clock).to_have_class("clock up")
    page.get_by_role("button", name="Tiempo", exact=True).click()
    expect(page.locator("#time-called")).to_contain_text("Tiempo: una mano más.")
    below_the_strip(page, page.locator("#done"))
    assert [describe(v) for v in axe_violations(page)] == []
    expect(clock).to_contain_text("cantado")
    expect(page.get_by_role("button", name="Tiempo", exact=True)).to_have_count(0)
    expect(page.locator(".log")).to_contain_text("Se cantó tiempo")
    fits(page)
    seen("dominó-03-una-mano-más")
    shot("dominó-03-una-mano-más")
    assert problems == [], problems
