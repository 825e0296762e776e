"""Dominards at a phone-sized table, in a real Chromium: the table's own dice entered, a
lead that hits the dice's target and drops the card worth the total, a play that hits a
multiple, and a roll made by the app."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from referee import replay
from tests.scoring.test_dominards import whole_game

from .test_draw_round import pick, play, plays_at_once
from .test_scoring_games import start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def the_lit_end(page: Page, tile: str) -> None:
    """Play ``tile`` on the one end it fits: the tap on the tile plays it."""
    assert plays_at_once(page, tile)
    play(page, tile)


def test_a_roll_a_target_and_a_card_drop(live_server, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "dominards", ["Ana", "Ben", "Caro"])
    expect(page.locator("#dice")).to_contain_text("The seat that leads rolls the dice first")
    shot("31-dominards-roll")
    page.get_by_text("We rolled our own dice").click()
    page.get_by_label("Die 1").fill("3")
    page.get_by_label("Die 2").fill("3")
    page.get_by_role("button", name="Record these dice").click()
    expect(page.locator("#dice")).to_contain_text("multiples of 6")
    expect(page.locator("#status")).to_contain_text("Ana leads a double")

    # The lead: 6-6 makes a total of 12, a multiple of 6, and Ana holds a queen.
    pick(page, "6-6")
    expect(page.locator('.end-button:not(.card-button)[data-end="lead"]')).to_contain_text(
        "total 12"
    )
    drop = page.locator('.card-button[data-end="lead"]')
    expect(drop).to_be_visible()
    expect(drop).to_contain_text("drop a Q")
    drop.click()
    expect(page.locator("#last-scored")).to_contain_text(
        "made 12: a card and the dice's multiple, +12 (Q dropped)"
    )
    ana = page.locator(".scoreboard li").nth(0)
    expect(ana.locator(".cards")).to_have_text("4 cards")
    expect(ana.locator(".total")).to_have_text("12")

    # Ben and Caro play on the spinner's sides; a tile that makes no card total offers none.
    the_lit_end(page, "6-3")
    expect(page.locator(".count strong")).to_have_text("15")
    the_lit_end(page, "6-0")
    # Ana's second turn under her roll: 3-3 on 6-3 makes 18, a multiple of 6.
    the_lit_end(page, "3-3")
    expect(page.locator("#last-scored")).to_contain_text("made 18: the dice's multiple, +18")
    expect(ana.locator(".total")).to_have_text("30")

    # The dice pass to Ben, who rolls with the app's dice.
    expect(page.locator("#status")).to_contain_text("Ben rolls the dice")
    page.get_by_role("button", name="Roll 4 dice").click()
    expect(page.locator("#dice")).to_contain_text("virtual card")
    expect(page.locator("#dice")).to_contain_text("Ben's roll, 4 more turns")
    expect(page.locator(".log")).to_contain_text("Ben rolled")
    shot("32-dominards-after-roll")
    assert problems == []


def test_a_whole_three_player_game_plays_through_at_the_phone(live_server, page: Page, shot):
    """A seeded honest game of several deals, tapped in action by action as a table would:
    the table's own dice, plays with their card drops, draws and knocks. The phone ends on
    the referee's own totals for that game."""
    document = whole_game(seed=1, players=3)
    problems = watch_console(page)
    start(page, live_server.url, "dominards", document["players"])
    version = 0
    for number, round_data in enumerate(document["rounds"], start=1):
        for data in round_data["actions"]:
            version += tap_in(page, data)
            expect(page.locator("#table")).to_have_attribute("data-version", str(version))
        if number < len(document["rounds"]):
            expect(page.locator("#status")).to_contain_text(f"Round {number + 1}")
    expected = replay(document)
    expect(page.locator("#status")).to_contain_text("the match is over")
    totals = page.locator(".scoreboard li .total")
    expect(totals).to_have_text([str(t) for t in expected.totals])
    shot("33-dominards-game-over")
    assert problems == []


def tap_in(page: Page, data: dict) -> int:
    """Tap one action of the document into the table; the number of records it makes."""
    if data["type"] == "roll":
        form = page.locator("#roll-form")
        seat = form.locator(f'input[name="seat"][value="{data["seat"]}"]')
        if seat.get_attribute("type") == "radio":
            seat.check()
        form.get_by_text("We rolled our own dice").click()
        for i, die in enumerate(data["dice"]):
            page.get_by_label(f"Die {i + 1}").fill(str(die))
        page.get_by_role("button", name="Record these dice").click()
        return 1
    if data["type"] == "draw":
        assert data["count"] >= 1
        left, taps = data["count"], 0
        while left:  # the tiles drawn in as few taps as the buttons allow (8 at most a tap)
            count = min(left, 8)
            before = int(page.locator("#table").get_attribute("data-version"))
            form = page.locator('form:has(input[name="type"][value="draw"])')
            if count == 1:
                form.locator("button:not([name])").click()
            else:
                form.locator(f'button[name="count"][value="{count}"]').click()
            left, taps = left - count, taps + 1
            expect(page.locator("#table")).to_have_attribute("data-version", str(before + 1))
        return taps
    if data["type"] == "undo":
        page.get_by_role("button", name="Undo last").click()
        return 1
    if data["type"] == "pass":
        page.locator('form:has(input[name="type"][value="pass"]) button').click()
        return 1
    assert data["type"] == "play", data
    if "on" in data and plays_at_once(page, data["tile"]):  # one end only: one tap
        assert "card" not in data and "drop" not in data, data
        play(page, data["tile"])
        return 1
    pick(page, data["tile"])
    if "on" not in data:
        value = "lead"
    else:
        face = data.get("face", "side")
        values = page.locator(".end-button.fits:not(.card-button)").evaluate_all(
            "buttons => buttons.map(b => b.value)"
        )
        value = next(
            (v for v in values if v == f"{data['on']}/{face}"),
            next(v for v in values if v.startswith(f"{data['on']}/")),
        )
    if "on" in data and page.locator(".card-button:not([hidden])").count():  # and its card
        expect(page.locator("#why")).to_have_class(re.compile(r"\bchoose\b"))
    if page.locator("#free-drop").is_visible():  # asked before the end is tapped: above it
        drop, ends = page.locator("#free-drop").bounding_box(), page.locator("#ends").bounding_box()
        assert drop["y"] + drop["height"] <= ends["y"], (drop, ends)
    if "drop" in data:
        page.locator("#drop-field").select_option(data["drop"])
    elif page.locator("#free-drop").is_visible():  # the choice is explicit: no card
        page.locator("#drop-field").select_option("none")
    if "card" in data:
        button = page.locator(f'.card-button:not([hidden])[value="{value}"]').first
    else:
        button = page.locator(f'.end-button.fits:not(.card-button)[value="{value}"]').first
    if "card" in data:
        expect(button).to_have_attribute("data-card", data["card"])
    button.click()
    return 1
