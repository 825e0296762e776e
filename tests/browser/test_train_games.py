"""The train games at a phone-sized table (RULES.md §9, §10, pad.record): a whole 4-player
Mexican Train round by tapping (a marker out and taken back, an open double covered by the
next seat, the tally with 0-0 at 50), a Chicken Foot round with a completed foot, and a
score-pad match of three rounds, in a real Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Match

from .test_draw_round import pick, play
from .test_scoring_games import ready, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Caro", "Dan"]


def open_table(page: Page, url: str, match: Match) -> None:
    page.goto(f"{url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)


def tap(page: Page, name: str) -> None:
    """Tap a button and wait for the table to be drawn again."""
    version = page.locator("#table").get_attribute("data-version")
    page.get_by_role("button", name=name).click()
    expect(page.locator(f'#table:not([data-version="{version}"])')).to_have_count(1)


def train(page: Page, owner: str):
    return page.locator(f'.train-row[data-train="{owner}"]')


def test_a_whole_mexican_train_round(live_server, page: Page, shot, _screens_dir):
    problems = watch_console(page)
    match = services.create_match("mexican-train", NAMES, {"hand_size": 3})
    open_table(page, live_server.url, match)
    expect(page.locator("#finding h2")).to_have_text("Round 1: 12-12. Who holds it?")
    tap(page, "Ben places 12-12")
    expect(page.locator("#banner")).to_contain_text("Caro plays a tile on Caro's own train")
    play(page, "12-5", "2")  # Caro starts her own train
    play(page, "12-3", "mexican")  # Dan starts the Mexican Train
    # Ana cannot play: she must draw before she may pass.
    expect(page.get_by_role("button", name="Ana passes, marker out")).to_be_disabled()
    expect(page.locator(".turn-actions .reason").first).to_contain_text("draw first")
    tap(page, "No play: Ana draws")
    tap(page, "Ana passes, marker out")
    expect(train(page, "0").locator(".marker")).to_have_text("● marker out")
    play(page, "12-6", "0")  # Ben plays on Ana's train, open while her marker is out
    # Caro lays a double and plays again; she draws, cannot play, passes: Dan must cover it.
    play(page, "5-5", "2")
    expect(page.locator("#banner")).to_contain_text("Caro laid 5-5 and plays again")
    tap(page, "No play: Caro draws")
    tap(page, "Caro passes, marker out")
    expect(page.locator("#banner")).to_contain_text(
        "5-5 is open on Caro's train: it must be covered before anything else"
    )
    expect(train(page, "2")).to_have_class("train-row open-double")
    shot("50-mexican-train-open-double")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(_screens_dir / "50-mexican-train-first-screen.png"))
    pick(page, "6-2")  # not on the double: it lights nothing
    expect(page.locator(".end-button.fits")).to_have_count(0)
    play(page, "5-2", "2")  # Dan covers it
    play(page, "6-1", "0")  # Ana plays on her own train: her marker comes off
    expect(train(page, "0").locator(".marker")).to_have_count(0)
    play(page, "3-0", "mexican")  # Ben's last tile
    expect(page.locator("#banner")).to_contain_text("Ben played their last tile")

    # The tally: Ana 9-8, 11-4 and 0-0 (50), Caro 10-10 and 7-2, Dan 8-1.
    for tile in ("9-8", "11-4", "0-0"):
        pick(page, tile, "fieldset.tally-seat:nth-of-type(1)")
    expect(page.locator("fieldset.tally-seat:nth-of-type(1) .pip-sum output")).to_have_text("82")
    for tile in ("10-10", "7-2"):
        pick(page, tile, "fieldset.tally-seat:nth-of-type(2)")
    pick(page, "8-1", "fieldset.tally-seat:nth-of-type(3)")
    tap(page, "Score the round")
    expect(page.locator("#round-result h2")).to_contain_text("Round 1 (12-12): Ben played out")
    expect(page.locator(".scoreboard .total")).to_have_text(["82", "0", "29", "9"])
    expect(page.locator("#finding h2")).to_have_text("Round 2: 11-11. Who holds it?")
    shot("51-mexican-train-round-2")
    assert Match.objects.get().totals == [82, 0, 29, 9]
    assert problems == []


def on(page: Page, tile: str, where: str) -> None:
    """Play ``tile`` on the tile ``where`` (Chicken Foot), one tap where it fits one place."""
    play(page, tile, where)


def test_a_chicken_foot_round_with_a_completed_foot(live_server, page: Page, shot, _screens_dir):
    problems = watch_console(page)
    match = services.create_match(
        "chicken-foot", NAMES[:3], {"hand_size": 5, "root_arms": 4, "rounds": 2}
    )
    open_table(page, live_server.url, match)
    expect(page.locator("#finding h2")).to_have_text("Round 1: 9-9. Who holds it?")
    tap(page, "Ana places 9-9")
    expect(page.locator(".owed")).to_contain_text("The root 9-9 needs 4 arms: each must show a 9.")
    expect(page.locator(".owed .owed-place")).to_have_count(4)
    on(page, "9-1", "9-9")
    on(page, "9-2", "9-9")
    on(page, "9-3", "9-9")
    on(page, "9-4", "9-9")
    expect(page.locator(".owed")).to_have_count(0)
    on(page, "1-1", "9-1")  # Caro lays a double: three toes are owed before anything else
    expect(page.locator("#banner")).to_contain_text("1-1 needs 3 toes: each must show a 1.")
    expect(page.locator(".owed .owed-place")).to_have_count(3)
    pick(page, "8-3")  # not a toe: it lights nothing
    expect(page.locator(".end-button.fits")).to_have_count(0)
    on(page, "5-1", "1-1")
    on(page, "6-1", "1-1")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(_screens_dir / "52-chicken-foot-one-toe-owed.png"))
    on(page, "7-1", "1-1")  # the foot is complete
    expect(page.locator(".owed")).to_have_count(0)
    expect(page.locator("#banner")).to_have_text("Ana's turn: play a tile, or draw.")
    on(page, "8-3", "9-3")
    on(page, "4-0", "9-4")
    on(page, "2-2", "9-2")  # Caro's double: three toes owed again
    tap(page, "No play: Ana draws")
    tap(page, "Ana passes")
    on(page, "2-0", "2-2")  # Ben's last tile
    expect(page.locator("#banner")).to_contain_text("Ben")
    pick(page, "0-0", "fieldset.tally-seat:nth-of-type(1)")  # Ana: 0-0 counts 50
    pick(page, "6-5", "fieldset.tally-seat:nth-of-type(1)")
    pick(page, "7-7", "fieldset.tally-seat:nth-of-type(2)")
    expect(page.locator("fieldset.tally-seat:nth-of-type(1) .pip-sum output")).to_have_text("61")
    tap(page, "Score the round")
    expect(page.locator("#round-result h2")).to_contain_text("Round 1 (9-9): Ben played out")
    expect(page.locator(".scoreboard .total")).to_have_text(["61", "0", "14"])
    expect(page.locator("#finding h2")).to_have_text("Round 2: 8-8. Who holds it?")
    shot("53-chicken-foot-round-2")
    assert problems == []


def test_a_score_pad_match_of_three_rounds(live_server, page: Page, shot):
    problems = watch_console(page)
    match = services.create_match("mexican-train", NAMES[:3], {"record": "scores", "rounds": 3})
    open_table(page, live_server.url, match)
    expect(page.locator("#tally-form h2")).to_have_text(
        "Round 1 (12-12): what is left in each hand"
    )
    seats = page.locator("#tally-form fieldset.tally-seat")
    # Round 1: Ana played out; Ben and Caro's pips typed.
    seats.nth(0).get_by_label("Ana played out").check()
    seats.nth(1).get_by_label("or pips").fill("23")
    seats.nth(2).get_by_label("or pips").fill("7")
    tap(page, "Score round 1")
    expect(page.locator(".scoreboard .total")).to_have_text(["0", "23", "7"])
    # Round 2: a pip total no hand could hold is refused, and what was typed is kept.
    seats.nth(0).get_by_label("or pips").fill("12")
    seats.nth(1).get_by_label("Ben played out").check()
    seats.nth(2).get_by_label("or pips").fill("999")
    page.get_by_role("button", name="Score round 2").click()
    expect(page.locator(".notice.error")).to_contain_text("Caro cannot hold 999 pips")
    expect(seats.nth(0).get_by_label("or pips")).to_have_value("12")
    expect(seats.nth(1).get_by_label("Ben played out")).to_be_checked()
    seats.nth(2).get_by_label("or pips").fill("9")
    tap(page, "Score round 2")
    # Round 3 by tapping tiles: Caro played out; Ana holds 12-11 and 0-0 (73), Ben 5-5.
    seats.nth(2).get_by_label("Caro played out").check()
    seats.nth(0).locator("summary").click()
    pick(page, "12-11", "#tally-form fieldset.tally-seat:nth-of-type(1)")
    pick(page, "0-0", "#tally-form fieldset.tally-seat:nth-of-type(1)")
    expect(seats.nth(0).locator(".pip-sum output")).to_have_text("73")
    seats.nth(1).locator("summary").click()
    pick(page, "5-5", "#tally-form fieldset.tally-seat:nth-of-type(2)")
    shot("54-score-pad-round-3")
    tap(page, "Score round 3")
    expect(page.locator(".scoreboard .total")).to_have_text(["85", "33", "16"])
    expect(page.locator("#round-result")).to_contain_text("Caro wins the match with 16.")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.winner == 2
    assert problems == []
