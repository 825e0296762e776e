"""The new-match form on a phone (390 x 844): the names at the top, Start within reach, and
under the folded "House rules" only the chosen game's, with JavaScript and without; with four
names, "Play in pairs" under them, and the partner chosen sits opposite."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from referee import PRESETS
from scoring.models import Match, Seat

from .test_scoring_games import watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = 844  # the phone's height in CSS px
PAIRS_SHOT = Path("/tmp/pairs-form.png")  # the form with pairs on, to look at
# House rules that show only with Play in pairs on; the switch itself sits with the names.
WITH_PAIRS = ("partnerships", "count_all_hands")


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
        if slug.startswith("domino-") and not page.locator("details.domino-styles[open]").count():
            # Dominó's six styles are folded under one entry, as a player finds them.
            page.locator("details.domino-styles summary").click()
        page.locator(f'input[name="game"][value="{slug}"]').check()
        expect(page.locator("details.match-rules summary")).to_have_text(
            f"House rules: {game.title}", use_inner_text=True
        )
        shown = shown_rules(page)
        declared = [f"{slug}.{o.name}" for o in game.options if o.name not in WITH_PAIRS]
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
    assert shown_rules(page) == [
        f"draw.{o.name}" for o in PRESETS["draw"].options if o.name not in WITH_PAIRS
    ]
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


def seated(match: Match) -> list[str]:
    seats = Seat.objects.filter(match=match).order_by("number")
    return list(seats.values_list("player__name", flat=True))


def test_play_in_pairs_with_four_names(live_server, page: Page, shot):
    problems = watch_console(page)
    page.goto(live_server.url + "/matches/new/")
    switch = page.get_by_role("checkbox", name="Play in pairs")
    expect(switch).to_be_hidden()
    for i, name in enumerate(["Ana", "Ben", "Caro"], 1):
        page.get_by_label(f"Player {i}").fill(name)
    expect(switch).to_be_hidden()  # three names: no pairs
    page.get_by_label("Player 4").fill("Dan")
    expect(switch).to_be_visible()  # Block, the first game, offers them
    # Only in the games that offer pairs, and only with four names.
    page.locator('input[name="game"][value="dominards"]').check()
    expect(switch).to_be_hidden()
    page.locator('input[name="game"][value="all-fives"]').check()
    expect(switch).to_be_visible()
    page.get_by_label("Player 5").fill("Eve")
    expect(switch).to_be_hidden()
    page.get_by_label("Player 5").fill("")
    expect(switch).to_be_visible()
    # With the names, above the game list, not in the House rules fold.
    assert top(page, switch) < top(page, page.locator('input[name="game"]').first)

    pairs = page.locator("#pairs")
    teams = pairs.locator(".pairs-teams:visible")
    expect(pairs.get_by_role("group", name="Ana partners with")).to_be_hidden()
    switch.check()
    choice = pairs.get_by_role("group", name="Ana partners with")
    expect(choice).to_be_visible()
    expect(choice.get_by_role("radio", name="Caro")).to_be_checked()  # opposite, as typed
    expect(teams).to_have_text("Ana & Caro against Ben & Dan")
    choice.locator("label.pill", has_text="Dan").click()
    expect(choice.get_by_role("radio", name="Dan")).to_be_checked()
    expect(teams).to_have_text("Ana & Dan against Ben & Caro")
    seats = pairs.locator(".pairs-seats:visible li")
    expect(seats).to_have_text(["1 Ana", "2 Ben", "3 Dan", "4 Caro"])
    expect(pairs.get_by_role("list", name="Seats, clockwise").filter(visible=True)).to_have_count(1)
    # Partners face each other across the table: Dan below Ana, Caro left of Ben.
    boxes = [seats.nth(i).bounding_box() for i in range(4)]
    assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]  # 1 top, 2 right, 3 bottom
    assert boxes[3]["x"] < boxes[0]["x"] < boxes[1]["x"]  # 4 left
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    # A name typed now is written into the teams at once.
    page.get_by_label("Player 2").fill("Bea")
    expect(teams).to_have_text("Ana & Dan against Bea & Caro")
    page.get_by_label("Player 2").fill("Ben")
    page.get_by_label("Player 2").blur()
    # The first screen holds the names, the switch, the teams and the seats.
    page.evaluate("() => window.scrollTo(0, 0)")
    assert top(page, seats.nth(2)) + boxes[2]["height"] < SCREEN
    page.screenshot(path=str(PAIRS_SHOT))
    shot("new-match-pairs")
    page.emulate_media(color_scheme="dark")
    shot("new-match-pairs-dark")
    page.emulate_media(color_scheme="light")

    # The winners' count: a house rule of the Block-scored games, shown only with pairs on.
    page.locator("details.match-rules summary").click()
    assert not any(name.endswith(".count_all_hands") for name in shown_rules(page))
    page.locator('input[name="game"][value="draw"]').check()
    count_all = chosen(page).get_by_label("The winners count every other hand")
    expect(count_all).to_be_visible()
    expect(count_all).not_to_be_checked()
    switch.uncheck()
    expect(count_all).to_be_hidden()
    switch.check()
    page.locator('input[name="game"][value="all-fives"]').check()
    expect(teams).to_have_text("Ana & Dan against Ben & Caro")
    # A name cleared with the switch on keeps the switch in sight, and Start asks for four
    # names rather than starting a match without pairs.
    page.get_by_label("Player 4").fill("")
    expect(switch).to_be_visible()
    expect(switch).to_be_checked()
    page.get_by_role("button", name="Start").click()
    assert page.evaluate("() => !document.querySelector('#partnerships').validity.valid")
    assert Match.objects.count() == 0
    page.get_by_label("Player 4").fill("Dan")

    page.get_by_role("button", name="Start").click()
    expect(page.locator("#table")).to_be_visible()
    match = Match.objects.get()
    assert (match.game, match.options["partnerships"]) == ("all-fives", True)
    assert seated(match) == ["Ana", "Ben", "Dan", "Caro"]
    # The table seats them so: who leads is asked in seat order.
    for number, name in enumerate(["Ana", "Ben", "Dan", "Caro"]):
        seat = page.locator(f'#table label.pill:has(input[name="seat"][value="{number}"])')
        expect(seat).to_contain_text(name)
    assert problems == []


def test_play_in_pairs_without_javascript(live_server, browser, _screens_dir):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(live_server.url + "/matches/new/")
        switch = page.get_by_role("checkbox", name="Play in pairs")
        page.locator('input[name="game"][value="dominards"]').check()
        expect(switch).to_be_hidden()
        page.locator('input[name="game"][value="muggins"]').check()
        expect(switch).to_be_visible()  # offered before any name is typed
        for i, name in enumerate(["Ana", "Ben", "Caro"], 1):
            page.get_by_label(f"Player {i}").fill(name)
        switch.check()
        choice = page.get_by_role("group", name="1st name partners with")
        choice.locator("label.pill", has_text="2nd name").click()
        expect(page.locator(".pairs-teams:visible")).to_have_text(
            "1st name & 2nd name against 3rd name & 4th name"
        )
        page.get_by_role("button", name="Start").click()
        # Refused beside the switch, everything kept.
        error = page.locator("#pairs .pairs-error")
        expect(error).to_contain_text("Playing in pairs takes four players")
        expect(error).to_contain_text("3 names are filled in")
        expect(page.get_by_label("Player 3")).to_have_value("Caro")
        expect(page.locator('input[name="game"][value="muggins"]')).to_be_checked()
        expect(switch).to_be_checked()
        page.screenshot(path=str(_screens_dir / "new-match-pairs-no-js.png"), full_page=True)
        page.get_by_label("Player 4").fill("Dan")
        page.get_by_role("button", name="Start").click()
        expect(page.locator("#table")).to_be_visible()
        match = Match.objects.get()
        assert match.options["partnerships"] is True
        assert seated(match) == ["Ana", "Caro", "Ben", "Dan"]  # Ben sits opposite Ana
    finally:
        context.close()
