"""Dominó at a Spanish-speaking table (issue 31, RULES.md §11) at 390×844: a Dominican hand
tapped through, play by play, with a pase de salida on the lead, two pasos corridos and a
capicúa to end it, the strip and the log checked as each bonus happens; and a Puerto Rican
(500) match kept as a score pad, whose first hand earns the hand bonus and a chuchazo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from referee import replay
from scoring import services
from scoring.drawing import end_marks
from scoring.models import Match

from . import test_spanish
from .axe import Audit
from .test_draw_round import pick, play
from .test_scoring_games import ready, watch_console
from .test_spanish import fits, no_english

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
page = test_spanish.page  # this module's phone speaks Spanish too (the shot fixture uses it)

NAMES = ["Ana", "Ben", "Caro", "Dan"]
# A hand dealt and played honestly (every knock true), as the referee's tests know it.
HAND = json.loads((Path(__file__).parent.parent / "referee" / "parejas_matches.json").read_text())[
    "dominican_capicua"
]


def _letter(actions: list[dict], play_: dict) -> str:
    """The lettered end a play of ``actions``' hand goes on: the open end of the tile it is
    laid against (the players choose the end; the document names the tile)."""
    document = {**HAND, "rounds": [{"actions": actions}]}
    state = replay(document).rounds[0].state
    return next(m.letter for m in end_marks(state.layout) if str(m.end.on) == play_["on"])


def _strip(page: Page) -> list[str]:
    return page.locator(".strip li .total").all_inner_texts()


def _keep(page: Page, url: str, style: str, options: dict) -> None:
    """A new match of ``style`` with ``options``, kept from this phone, its table shown."""
    match = services.create_match(style, NAMES, options)
    page.goto(f"{url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)


def test_a_dominican_hand_with_a_pase_de_salida_pasos_corridos_and_a_capicua(
    live_server, page: Page, shot
):
    problems = watch_console(page)
    _keep(page, live_server.url, "domino-dominican", {})
    expect(page.locator(".seats small")).to_contain_text("Sale con el doble seis quien lo tenga")
    shot("dom-01-salida")

    actions = HAND["rounds"][0]["actions"]
    *plays, tally = actions
    for n, action in enumerate(plays):
        name = NAMES[action["seat"]]
        if n == 0:  # Caro leads the 6-6
            page.locator("label.pill", has_text=name).click()
            pick(page, action["tile"])
            page.locator('.end-button[data-end="lead"]').click()
            expect(page.locator("#done")).to_contain_text("Caro salió con el doble seis")
        elif action["type"] == "pass":
            page.get_by_role("button", name=f"{name} pasa").click()
            expect(page.locator("#done")).to_contain_text(f"{name} pasó")
        else:
            play(page, action["tile"], _letter(actions[:n], action))
        if n == 1:  # Dan cannot answer the double lead: 25 for Ana & Caro
            expect(page.locator(".log li").first).to_contain_text(
                "Pase de salida: +25 para Ana y Caro"
            )
            expect(page.locator(".log li").first).to_contain_text("parejas.pase")
            assert _strip(page) == ["25", "0"]
            shot("dom-02-pase-de-salida")
        if n == 22:  # Ana plays again after the three others knocked
            expect(page.locator(".log li").first).to_contain_text(
                "Paso corrido: +25 para Ana y Caro"
            )
            assert _strip(page) == ["50", "0"]

    # Ben's 1-0 fits both ends (1 and 0): ¡Capicúa!
    log = page.locator(".log")
    expect(page.locator("#done")).to_contain_text("¡Capicúa! Ben y Dan +25")  # said back
    expect(log.locator("li").first).to_contain_text("¡Capicúa! Ben y Dan +25")
    expect(log.locator("li").first.locator('a[href$="#parejas.capicua"]')).to_have_count(1)
    expect(log).to_contain_text("Paso corrido: +25 para Ben y Dan")
    assert _strip(page) == ["50", "50"]
    expect(page.locator("#status")).to_contain_text("recuento")
    no_english(page)
    shot("dom-03-capicua")

    # The tally: Ana 3-3, Caro 4-4, Dan four tiles; Ben played out.
    for seat, held in tally["hands"].items():
        for tile in held:
            pick(page, tile, f"fieldset.tally-seat:nth-of-type({int(seat) + 1})")
    page.get_by_role("button", name="Anotar la ronda").click()
    result = page.locator(".result")
    expect(result).to_contain_text("Ben y Dan ganan la mano: 64")
    for said in ("Pase de salida: +25 para Ana y Caro", "Paso corrido: +25 para Ana y Caro",
                 "Paso corrido: +25 para Ben y Dan", "¡Capicúa! Ben y Dan +25",
                 "En la mano siguiente sale Ben."):  # fmt: skip
        expect(result).to_contain_text(said)
    expect(page.locator(".strip li .total")).to_have_text(["50", "64"])  # 14 pips for Ben & Dan
    expect(page.locator("fieldset.seats input:checked")).to_have_value("1")  # Ben leads
    no_english(page)
    shot("dom-04-resultado")
    assert Match.objects.get().totals == [25, 64, 25, 0]  # by seat: Ben scored it all
    assert problems == []


def test_a_puerto_rican_score_pad_hand_earns_the_hand_bonus_and_a_chuchazo(
    live_server, page: Page, shot
):
    problems = watch_console(page)
    _keep(page, live_server.url, "domino-puerto-rican", {"record": "scores"})
    form = page.locator("#tally-form")
    expect(page.locator("#status")).to_contain_text("se lleva como hoja de tantos")
    expect(page.locator(".board")).to_have_count(0)  # a score pad has no layout to show
    expect(form.locator(".pad-made")).to_contain_text("Lo que hizo la mano")
    expect(form.locator(".pad-made")).to_contain_text("premio de mano (100, 75, 50, 25)")
    fits(page)
    shot("dom-11-libreta")

    # A chuchazo said of a tranque (nobody out) is refused, and the form keeps its ticks.
    for seat, pips in ((0, "12"), (1, "7"), (2, "9"), (3, "5")):
        form.locator(f'input[name="pips-{seat}"]').fill(pips)
    form.get_by_text("Chuchazo: se dominó con el doble blanco").click()
    form.get_by_role("button", name="Anotar la ronda 1").click()
    refusal = page.locator(".notice.error")
    expect(refusal).to_contain_text("parejas.chuchazo")
    expect(page.locator('#tally-form input[name="made-chuchazo"]')).to_be_checked()
    expect(page.locator('#tally-form input[name="pips-0"]')).to_have_value("12")
    assert Match.objects.get().totals == [0, 0, 0, 0]
    no_english(page)
    shot("dom-12-libreta-rechazada")

    # Ben played out with the 0-0: Ana 12 + Caro 9 + Dan 5 (count_all_hands) = 26, the
    # chuchazo 100 and the first hand's bonus 100.
    form = page.locator("#tally-form")
    form.locator('input[name="pips-1"]').fill("")
    form.get_by_text("Ben dominó").click()
    form.get_by_role("button", name="Anotar la ronda 1").click()
    result = page.locator(".result")
    expect(result).to_contain_text("¡Chuchazo! Ben y Dan +100")
    expect(result).to_contain_text("Premio de mano: +100 para Ben y Dan")
    expect(result.locator('a[href$="#parejas.hand-bonus"]')).to_have_count(1)
    expect(page.locator(".strip li .total")).to_have_text(["0", "226"])
    no_english(page)
    shot("dom-13-premio-de-mano")
    assert problems == []


def test_a_dominican_score_pad_asks_for_the_pase_and_the_pasos_corridos_at_phone_size(
    live_server, page: Page, shot
):
    problems = watch_console(page)
    _keep(page, live_server.url, "domino-dominican", {"record": "scores"})
    made = page.locator("#tally-form .pad-made")
    expect(made).to_contain_text("Pase de salida: ¿quién salió? (+25 si salió con un doble")
    # Every choice is one tap on a thumb-sized target (44 px).
    for target in (made.locator(".pill span"), made.locator("input[type=number]"),
                   made.locator(".choice")):  # fmt: skip
        for box in (target.nth(i).bounding_box() for i in range(target.count())):
            assert box is not None and box["height"] >= 44, box
    # Caro dominoes with a capicúa; Ana's lead (a double) got a pase; Ben played again twice.
    form = page.locator("#tally-form")
    form.get_by_text("Caro dominó").click()
    for seat, pips in ((0, "10"), (1, "9"), (3, "8")):
        form.locator(f'input[name="pips-{seat}"]').fill(pips)
    form.get_by_text("Capicúa: la última ficha cabía por las dos puntas").click()
    made.locator("label.pill", has_text="Ana").first.click()
    form.get_by_text("Salió con un doble", exact=True).click()
    form.locator('input[name="made-paso-1"]').fill("2")
    fits(page)
    audit = Audit()
    audit.check(page, "Dominó score pad: the hand's bonuses ticked")
    audit.assert_clean()
    shot("dom-21-libreta-dominicana")
    form.get_by_role("button", name="Anotar la ronda 1").click()
    result = page.locator(".result")
    for said in ("¡Capicúa! Ana y Caro +25", "Pase de salida: +25 para Ana y Caro",
                 "Paso corrido: +25 para Ben y Dan"):  # fmt: skip
        expect(result).to_contain_text(said)
    # Ana & Caro: Ben's 9 and Dan's 8, the capicúa and the pase; Ben & Dan: two pasos.
    expect(page.locator(".strip li .total")).to_have_text(["67", "50"])
    no_english(page)
    shot("dom-22-libreta-dominicana-resultado")
    assert problems == []
