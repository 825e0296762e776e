"""A whole 3-player Draw round at a phone-sized table, by tapping, in a real Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Action, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANA = ["0-0", "1-0", "2-0", "1-1"]  # 5 pips
BEN = ["3-0", "2-1", "3-2", "3-1"]  # 15 pips


def pick(page: Page, tile: str, within: str = "#picker") -> None:
    """Tap ``tile``; one that cannot go now is under the fold of the picker, opened first."""
    label = page.locator(f'{within} label.pick:has(input[value="{tile}"])')
    fold = page.locator(f"{within} details.more-tiles:not([open])")
    if fold.locator(f'input[value="{tile}"]').count():
        fold.locator("summary").click()
    label.click()


def end(page: Page, letter: str) -> None:
    button = page.locator(f'.end-button[data-end="{letter}"]')
    expect(button).to_be_enabled()
    button.click()


def plays_at_once(page: Page, tile: str) -> bool:
    """Whether tapping ``tile`` plays it at once: it fits one end only (not the lead), and
    no Dominards card goes with that end (picker.js, playAtOnce)."""
    return page.evaluate(
        """tile => {
            const input = document.querySelector(`#picker input[value="${tile}"]`);
            if (input.form.hasAttribute("data-desk")) return false;
            const list = name => (input.dataset[name] || "").split(" ").filter(Boolean);
            const fits = list("fits");
            if (fits.length !== 1 || fits[0] === "lead") return false;
            const cards = list("cards").map(pair => pair.slice(0, pair.lastIndexOf(":")));
            return !cards.includes(fits[0]) && !list("virtual").includes(fits[0]);
        }""",
        tile,
    )


def play(page: Page, tile: str, letter: str | None = None) -> None:
    """Play ``tile`` as a player does: one tap where it fits one end only, else the tile and
    then the end (``letter``, or the first lit), and wait for the table to be redrawn."""
    # The table the tile is tapped on is the one after the last tap: wait for any request
    # still on its way, and its swap, before judging what the tile will do.
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    version = page.locator("#table").get_attribute("data-version")
    at_once = plays_at_once(page, tile)
    pick(page, tile)
    if not at_once:
        if letter is None:
            page.locator(".end-button.fits:not(.card-button)").first.click()
        else:
            end(page, letter)
    expect(page.locator(f'#table:not([data-version="{version}"])')).to_have_count(1)


def test_a_whole_draw_round_by_tapping(live_server, page: Page, shot):
    problems: list[str] = []  # console errors include CSP violations
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(live_server.url)
    page.get_by_role("link", name="New match").click()
    page.locator('input[name="game"][value="draw"]').check()
    page.get_by_label("Player 1").fill("Ana")
    page.get_by_label("Player 2").fill("Ben")
    page.get_by_label("Player 3").fill("Caro")
    shot("01-new-match")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#status")).to_contain_text("who leads?")

    # Every tap of the round is counted, as a table would spend them. Ana leads 6-6: her name,
    # the tile, Lead (three taps: the lead's seat is chosen, so it never plays at once).
    taps = 3
    page.locator("label.pill", has_text="Ana").click()
    pick(page, "6-6")
    end(page, "lead")
    expect(page.locator("#status")).to_contain_text("Ben")
    expect(page.locator(".count")).to_have_count(0)  # Draw scores no count: none is shown
    expect(page.locator("#done")).to_have_text("Recorded: Ana led 6-6.")

    # A tile that fits nowhere lights none; 6-5 fits one end only: one tap plays it, as
    # the picker says.
    pick(page, "5-4")
    expect(page.locator('.end-button[data-end="A"]')).to_be_disabled()
    expect(page.locator(".one-tap")).to_be_visible()
    # The hint reads across the picker, not squeezed into one tile's column.
    assert page.locator(".one-tap").bounding_box()["width"] > 300
    assert plays_at_once(page, "6-5")
    play(page, "6-5")
    taps += 2  # the wrong tile, and the right one
    expect(page.locator("#status")).to_contain_text("Caro")
    expect(page.locator(".log")).to_contain_text("Ben played 6-5 on 6-6")
    shot("02-after-two-plays")

    # Caro cannot knock while the boneyard has tiles: the button says why. She draws 13 in
    # two taps (8, then 5), and the phone says back what was recorded.
    expect(page.get_by_role("button", name="Caro knocks")).to_be_disabled()
    expect(page.locator(".reason").first).to_contain_text("draw.must-draw")
    page.get_by_role("button", name="Caro drew 8 tiles").click()
    expect(page.locator("#done")).to_have_text("Recorded: Caro drew 8 tiles: 13 in hand.")
    page.get_by_role("button", name="Caro drew 5 tiles").click()
    expect(page.locator("#done")).to_have_text("Recorded: Caro drew 5 tiles: 18 in hand.")
    taps += 2
    expect(page.get_by_role("button", name="Caro draws a tile")).to_be_disabled()
    play(page, "5-4", "B")  # 6-6 is A, 6-5 is B: two ends, two taps
    taps += 2
    expect(page.locator(".log")).to_contain_text("Caro played 5-4 on 6-5")

    for name in ("Ana", "Ben", "Caro"):
        page.get_by_role("button", name=f"{name} knocks").click()
    taps += 3
    expect(page.locator("#status")).to_contain_text("tally the hands")
    shot("03-blocked")
    # The round's plays, draws and knocks: 12 taps (the same round cost 24 before one-tap
    # plays and multi-draws: two taps a play, one a tile drawn).
    assert taps == 12

    # Tally by tapping every remaining tile.
    for tile in ANA:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(1)")
    for tile in BEN:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(2)")
    on_table = {"6-6", "6-5", "5-4"}
    caro = [
        f"{a}-{b}" for a in range(6, -1, -1) for b in range(a, -1, -1)
        if f"{a}-{b}" not in on_table | set(ANA) | set(BEN)
    ]  # fmt: skip
    assert len(caro) == 17
    for tile in caro:
        pick(page, tile, "fieldset.tally-seat:nth-of-type(3)")
    page.get_by_role("button", name="Score the round").click()

    # Ana has the fewest pips: she scores Ben's 15 and Caro's 116, passing the target of 100.
    expect(page.locator("p.winner")).to_contain_text("Ana wins the match with 131")
    rows = page.locator(".scoreboard li")
    expect(rows.nth(0).locator(".total")).to_have_text("131")
    expect(rows.nth(1).locator(".total")).to_have_text("0")
    # Caro knocked holding 6-4 and 4-4, which fitted: the audit says so, no score changes.
    expect(page.locator(".result")).to_contain_text("tally.audit")
    shot("04-match-over")

    match = Match.objects.get()
    assert match.status == Match.FINISHED and match.winner == 0
    assert sum(a.payload["count"] for a in Action.objects.filter(kind="draw")) == 13
    page.get_by_role("link", name="Rounds and totals").click()
    expect(page.locator("tfoot")).to_contain_text("131")
    shot("05-summary")
    assert problems == []


def test_the_table_works_without_javascript(live_server, browser, shot):
    """Every action is a real form: with JavaScript off the same taps still record."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(live_server.url + "/matches/new/")
        page.get_by_label("Player 1").fill("Ana")
        page.get_by_label("Player 2").fill("Ben")
        page.get_by_role("button", name="Start").click()
        pick(page, "6-4")
        page.locator('.end-button[data-end="lead"]').click()
        expect(page.locator(".log")).to_contain_text("led 6-4")
        pick(page, "5-5")
        page.locator('.end-button[data-end="A"]').click()  # 6-4's 6 end: wrong tile
        expect(page.locator('[role="alert"]')).to_contain_text("line.attach")
        expect(page.locator(".log li")).to_have_count(1)
    finally:
        context.close()
