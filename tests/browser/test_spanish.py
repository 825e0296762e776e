"""A Spanish-speaking table: phones set to Spanish (Accept-Language es) play a Draw round,
with a refusal and the tally, and a Muggins call from a second phone, every word in Spanish."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scoring.models import Match
from tests.conftest import PIXEL_RATIO

from .test_draw_round import ANA, BEN, pick, play
from .test_scoring_games import ready, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Words that would only be on the page if something was left in English.
ENGLISH = re.compile(r"\b(the|and|tile|tiles|round|match|draws?|knocks?|wins|Score|Undo|Fix)\b")


def spanish_phone(browser: Browser) -> BrowserContext:
    return browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=PIXEL_RATIO,
        is_mobile=True,
        has_touch=True,
        locale="es-ES",
        extra_http_headers={"Accept-Language": "es"},
    )


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """The phone of this module's tests speaks Spanish (the shot fixture uses it)."""
    context = spanish_phone(browser)
    try:
        yield context.new_page()
    finally:
        context.close()


def fits(page: Page) -> None:
    """Longer Spanish words never push the page sideways on a 390 px phone."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width


def no_english(page: Page) -> None:
    """What the table region shows has no English word (rule ids and names aside)."""
    fits(page)
    text = page.locator("main").inner_text()
    text = re.sub(r"\b[a-z]+(?:[.-][a-z0-9]+)+\b", " ", text)  # rule ids: draw.must-draw
    assert ENGLISH.findall(text) == [], text


def start(page: Page, url: str, game: str, players: list[str]) -> None:
    page.goto(url + "/matches/new/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.locator(f'input[name="game"][value="{game}"]').check()
    for n, name in enumerate(players, start=1):
        page.get_by_label(f"Jugador {n}", exact=True).fill(name)
    page.get_by_role("button", name="Empezar").click()
    ready(page)


def test_a_draw_round_in_spanish_with_a_refusal_and_the_tally(live_server, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "draw", ["Ana", "Ben", "Caro"])
    expect(page.locator("#status")).to_contain_text("¿quién sale?")
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "6-6")
    page.locator('.end-button[data-end="lead"]').click()
    expect(page.locator("#done")).to_have_text("Anotado: Ana salió con el doble seis.")
    play(page, "6-5")
    expect(page.locator(".log")).to_contain_text("Ben jugó el seis-cinco sobre el doble seis")

    # Caro may not pass while the pozo has tiles: the button is greyed with the referee's
    # reason in Spanish, citing its rule.
    expect(page.get_by_role("button", name="Caro pasa")).to_be_disabled()
    expect(page.locator(".reason").first).to_contain_text("Caro no puede pasar")
    expect(page.locator(".reason").first).to_contain_text("draw.must-draw")
    page.get_by_role("button", name="Caro robó 8 fichas").click()
    expect(page.locator("#done")).to_have_text("Anotado: Caro robó 8 fichas: 13 en la mano.")
    page.get_by_role("button", name="Caro robó 5 fichas").click()
    play(page, "5-4", "B")
    for name in ("Ana", "Ben", "Caro"):
        page.get_by_role("button", name=f"{name} pasa").click()
    expect(page.locator("#status")).to_contain_text("recuento")
    no_english(page)
    shot("es-01-tranque")

    # The tally sent with Caro's hand missing is refused in place, keeping what was ticked.
    for tile in ANA:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(1)")
    for tile in BEN:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(2)")
    page.get_by_role("button", name="Anotar la ronda").click()
    refusal = page.locator(".notice.error")
    expect(refusal).to_contain_text("Caro")
    expect(refusal).to_contain_text("tally.hands")
    assert "Say what" not in refusal.inner_text()
    checked = page.locator("fieldset.tally-seat:nth-of-type(1) input:checked")
    expect(checked).to_have_count(len(ANA))
    no_english(page)
    shot("es-02-recuento-rechazado")

    on_table = {"6-6", "6-5", "5-4"}
    caro = [
        f"{a}-{b}" for a in range(6, -1, -1) for b in range(a, -1, -1)
        if f"{a}-{b}" not in on_table | set(ANA) | set(BEN)
    ]  # fmt: skip
    for tile in caro:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(3)")
    page.get_by_role("button", name="Anotar la ronda").click()
    expect(page.locator("p.winner")).to_contain_text("Ana gana la partida con 131")
    no_english(page)
    shot("es-03-partida-ganada")
    assert Match.objects.get().winner == 0
    assert problems == []


def test_a_muggins_call_in_spanish_from_a_second_phone(live_server, browser, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "muggins", ["Ana", "Ben", "Caro"])
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "5-5")
    page.locator('.end-button[data-end="lead"]').click()
    expect(page.locator(".count")).to_contain_text("la cuenta la tienes que ver tú")
    page.get_by_role("button", name="Anotar 5").click()
    expect(page.get_by_role("button", name="Ben: ¡Muggins!")).to_be_visible()
    shot("es-11-muggins")

    keep_link = page.locator('input[aria-label="Enlace para anotar"]').input_value()
    phone = spanish_phone(browser)
    try:
        ben = phone.new_page()
        ben_problems = watch_console(ben)
        ben.goto(keep_link)
        ben.get_by_role("button", name="Ben: ¡Muggins!").click()
        expect(ben.locator(".log")).to_contain_text("Ben cantó ¡Muggins! · Ben +5")
        no_english(ben)
        assert ben_problems == []
    finally:
        phone.close()
    expect(page.locator(".log")).to_contain_text("Ben cantó ¡Muggins!", timeout=3000)
    pick(page, "5-0")
    expect(page.locator("#declare-now")).to_contain_text("Ben, ¿cuánto anotó?")
    page.locator("#declare-now").get_by_role("button", name="Sin tantos").click()
    expect(page.locator(".log")).to_contain_text("Ana salió con el doble cinco · vale 10")
    no_english(page)
    shot("es-12-muggins-cantado")
    assert Match.objects.get().totals == [5, 5, 0]
    assert problems == []
