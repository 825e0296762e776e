"""A table that stays put (issue 28), at a 390×844 phone in a real Chromium: a whole Mexican
Train round and a whole Draw round tapped in as a newcomer would, the view measured after
every tap (one-tap and two-tap plays, draws, passes, an undo, and plays from another phone):
the turn is always in view below the score strip, never at the page's foot; a two-tap play
brings its ends into view and says "now tap"; the tally greys a tile taken by another hand.
Then the Muggins step, a phone whose link is gone, and the Back button."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring import services
from scoring.models import Action, Match
from tests.conftest import PHONE

from .axe import Audit
from .test_corrections import fix
from .test_scoring_games import ready, start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Where the turn is on the screen: the sticky strip, the banner, the ends (or trains) with
# those lit, draw / pass / undo, and the first tile that can go.
VIEW = """() => {
  const at = (e) => {
    if (!e || !e.offsetParent) return null;
    const b = e.getBoundingClientRect();
    return {top: Math.round(b.top), bottom: Math.round(b.bottom)};
  };
  return {
    y: Math.round(scrollY),
    foot: document.documentElement.scrollHeight - innerHeight,
    height: innerHeight,
    strip: at(document.querySelector("#table .strip")),
    banner: at(document.querySelector("#banner, #status")),
    ends: at(document.getElementById("ends")),
    lit: [...document.querySelectorAll("#ends .end-button.fits")].map(at),
    buttons: [...document.querySelectorAll(".turn-actions .button")].map(at).filter(Boolean),
    tile: at(document.querySelector("#picker > label.pick")),
  };
}"""
IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
# At rest: the page has not scrolled for 150 ms. htmx brings the turn into view after its
# settle, so on a busy machine the view is measured once it has stopped moving.
STILL = (
    "() => new Promise(done => { const y = scrollY; setTimeout(() => done(scrollY === y), 150); })"
)


def out_of_view(view: dict, parts=("banner", "ends", "buttons", "tile")) -> list[str]:
    """The parts of the turn not wholly in view between the score strip and the screen's
    foot, and whether the page sits at its own foot."""
    top = view["strip"]["bottom"] if view["strip"] else 0
    wrong = [f"at the page's foot ({view['y']})"] if 0 < view["foot"] <= view["y"] else []
    for name in parts:
        boxes = view[name] if isinstance(view[name], list) else [view[name]]
        for box in filter(None, boxes):
            if not top - 1 <= box["top"] or box["bottom"] > view["height"] + 1:
                wrong.append(f"{name} at {box['top']}..{box['bottom']} (strip ends {top})")
    return wrong


class Newcomer:
    """A phone at the table tapping as a newcomer does, and what it saw after each tap."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.seen: list[tuple[str, dict]] = []
        self.taps: dict[str, int] = {}
        self.problems: list[str] = []

    def view(self) -> dict:
        return self.page.evaluate(VIEW)

    def tap(self, what: str, target: Locator, parts=("banner", "ends", "buttons", "tile")):
        """Tap ``target`` and wait for the table drawn again; then the turn must be in view."""
        page = self.page
        version = page.locator("#table").get_attribute("data-version")
        target.click()
        expect(page.locator(f'#table:not([data-version="{version}"])')).to_have_count(1)
        page.wait_for_function(IDLE)
        page.wait_for_function(STILL)
        self.record(what, parts)

    def record(self, what: str, parts=("banner", "ends", "buttons", "tile")) -> None:
        view = self.view()
        self.seen.append((what, view))
        self.taps[what] = self.taps.get(what, 0) + 1
        self.problems += [f"after {what}: {wrong}" for wrong in out_of_view(view, parts)]

    def turn(self, prefer: str = "play") -> None:
        """A tile that can go, the first one (scrolled low on the screen first, as a thumb
        leaves the page); else, or when ``prefer`` says so and the rules allow, a draw
        ("draw", "draw all": the most in one tap) or a pass."""
        page = self.page
        tiles = page.locator("#picker > label.pick")
        draw = page.locator('.turn-actions form:has(input[value="draw"]) button.button')
        knock = page.locator('.turn-actions form:has(input[value="pass"]) button')
        if prefer == "draw all" and page.locator(".draw-more .pill-button").count():
            while page.locator(".draw-more .pill-button").count():  # 8 at most a tap
                self.tap("a draw", page.locator(".draw-more .pill-button").last)
            return
        if prefer == "draw" and draw.count() and draw.is_enabled():
            self.tap("a draw", draw)
            return
        if prefer == "pass" and knock.is_enabled():
            self.tap("a pass", knock)
            return
        if tiles.count():
            tile = tiles.first
            fits = tile.locator("input").get_attribute("data-fits").split()
            if len(fits) == 1:
                tile.evaluate("label => label.scrollIntoView({block: 'end'})")
                self.tap("a one-tap play", tile)
                return
            # Two places: the ends hidden under the strip, as when the player scrolled down.
            page.evaluate("""() => {
                const ends = document.getElementById("ends");
                const strip = document.querySelector("#table .strip").getBoundingClientRect();
                window.scrollBy(0, ends.getBoundingClientRect().bottom - strip.bottom + 4);
            }""")
            tile.click()
            expect(page.locator("#why")).to_have_class(re.compile(r"\bchoose\b"))
            self.record("a tile that fits two places", parts=("ends", "lit"))
            self.tap("a two-tap play", page.locator("#ends .end-button.fits").first)
            return
        if draw.count() and draw.is_enabled():
            self.tap("a draw", draw)
        else:
            self.tap("a pass", knock)

    def undo(self) -> None:
        self.tap("an undo", self.page.locator(".turn-actions .undo button"))


def another_phone_plays(phone: Newcomer, other: Page, anchor: str) -> None:
    """Another phone plays while this one looks at ``anchor`` somewhere down the page:
    when this phone's table is drawn again, ``anchor`` is where it was on the screen."""
    page = phone.page
    page.locator(anchor).evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(50)  # let a scroll event settle: the position is then measured
    before = page.locator(anchor).bounding_box()["y"]
    version = page.locator("#table").get_attribute("data-version")
    other.reload()
    ready(other)
    Newcomer(other).turn()
    expect(page.locator(f'#table:not([data-version="{version}"])')).to_have_count(1, timeout=5000)
    page.wait_for_function(IDLE)
    after = page.locator(anchor).bounding_box()["y"]
    if abs(after - before) > 2:
        phone.problems.append(f"another phone's tap moved {anchor} from {before} to {after}")


def round_over(page: Page) -> bool:
    return page.locator("#tally-form").count() > 0


def test_a_whole_mexican_train_round_never_leaves_the_turn(
    live_server, browser, page: Page, shot, _screens_dir
):
    problems = watch_console(page)
    match = services.create_match("mexican-train", ["Ana", "Ben", "Caro", "Dan"], {"hand_size": 6})
    page.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)
    ana = Newcomer(page)
    ana.tap("the engine placed", page.get_by_role("button", name="Ben places 12-12"))
    other = browser.new_context(**PHONE)
    try:
        ben = other.new_page()
        ben.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
        ready(ben)
        for n in range(60):
            if round_over(page):
                break
            if n == 3:
                page.screenshot(path=str(_screens_dir / "60-train-after-a-tap.png"))
            if n == 4:
                ana.undo()
            if n in (6, 9):
                another_phone_plays(ana, ben, ".log" if n == 6 else "#picker")
                ana.record("another phone's tap", parts=())
                continue
            # Now and then a seat has nothing to play: it draws, then passes (train.draw).
            ana.turn("draw" if n % 5 == 1 else "pass" if n % 5 == 2 else "play")
        assert round_over(page), "the round ended"
    finally:
        other.close()
    # Every kind of tap happened, and after none of them was the turn out of sight.
    for kind in ("a one-tap play", "a two-tap play", "a draw", "a pass", "an undo"):
        assert ana.taps.get(kind), f"no {kind} in the round: {ana.taps}"
    assert ana.taps["another phone's tap"] == 2
    assert ana.problems == []

    # The tally: a tile ticked for one hand is greyed, out of reach, in the others'.
    tally = page.locator("#tally-form fieldset.tally-seat")
    first, second = tally.nth(0), tally.nth(1)
    tile = first.locator("input[type=checkbox]").first.get_attribute("value")
    first.locator(f'label.pick:has(input[value="{tile}"])').click()
    expect(second.locator(f'label.pick:has(input[value="{tile}"])')).to_have_class(
        re.compile(r"\btaken\b")
    )
    expect(second.locator(f'input[value="{tile}"]')).to_be_disabled()
    first.locator(f'label.pick:has(input[value="{tile}"])').click()
    expect(second.locator(f'input[value="{tile}"]')).to_be_enabled()
    shot("61-train-round-tally")
    assert problems == []


def test_a_whole_draw_round_never_leaves_the_turn(live_server, browser, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "draw", ["Ana", "Ben", "Caro"])
    ana = Newcomer(page)
    page.locator("label.pill", has_text="Ana").click()
    page.locator('#picker label.pick:has(input[value="6-6"])').click()
    ana.tap("the lead", page.locator('.end-button[data-end="lead"]'))
    match = Match.objects.get()
    other = browser.new_context(**PHONE)
    try:
        ben = other.new_page()
        ben.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
        ready(ben)
        audit = Audit()  # the screens this issue adds, checked as every screen is
        for n in range(80):
            if round_over(page):
                break
            if n == 2:
                ana.undo()
            if n == 3:  # the folded tiles open, and one of them says why it cannot go
                page.locator("#more-tiles summary").click()
                page.locator("#more-tiles label.pick").first.click()
                expect(page.locator("#why")).to_be_visible()
                audit.check(page, "the picker's fold open, and why a tile cannot go")
            if n in (5, 8):
                another_phone_plays(ana, ben, ".scoreboard" if n == 5 else "#picker")
                ana.record("another phone's tap", parts=())
                continue
            # A seat draws now and then; once a seat draws the boneyard dry, then knocks.
            ana.turn(
                "draw all" if n == 10 else "pass" if n == 11 else "draw" if n % 4 == 1 else "play"
            )
        assert round_over(page), "the round ended"
    finally:
        other.close()
    for kind in ("a one-tap play", "a two-tap play", "a draw", "a pass", "an undo"):
        assert ana.taps.get(kind), f"no {kind} in the round: {ana.taps}"
    assert ana.problems == []
    shot("62-draw-round-over")
    audit.assert_clean()
    assert problems == []


def test_the_muggins_step_leaves_no_moment_to_call(live_server, browser, page: Page, shot):
    """fives.muggins: the tile, the end, then the score, on one phone, sent together; the
    other phone never sees the play without its declaration."""
    problems = watch_console(page)
    start(page, live_server.url, "muggins", ["Ana", "Ben", "Caro"])
    match = Match.objects.get()
    other = browser.new_context(**PHONE)
    try:
        ben = other.new_page()
        ben.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
        ready(ben)
        # Every table Ben's phone is shown, as it is swapped in.
        ben.evaluate("""() => { window.seen = [];
            document.addEventListener("htmx:afterSwap", () => window.seen.push(
              [document.getElementById("table").dataset.version,
               document.querySelectorAll(".muggins-call").length])); }""")
        page.locator("label.pill", has_text="Ana").click()
        page.locator('#picker label.pick:has(input[value="5-5"])').click()
        page.locator('.end-button[data-end="lead"]').click()
        panel = page.locator("#declare-now")
        expect(panel).to_be_visible()
        expect(panel.get_by_role("heading")).to_have_text(
            "What did the lead score? Say it as the tile is laid."
        )
        box, height = panel.bounding_box(), page.viewport_size["height"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        audit = Audit()
        audit.check(page, "the Muggins step")
        audit.assert_clean()
        # Nothing is sent yet: Ben's phone (asking every 2 s) has nothing to call on.
        ben.wait_for_timeout(2300)
        assert Action.objects.count() == 0
        expect(ben.locator(".muggins-call")).to_have_count(0)
        shot("63-muggins-step")
        page.get_by_role("button", name="Score 10").click()
        expect(page.locator("#done")).to_have_text("Recorded: Ana led 5-5; Ana declared 10.")
        expect(ben.locator(".log")).to_contain_text("Ana declared 10", timeout=5000)
        assert ben.evaluate("window.seen") == [["2", 2]]  # both at once, never one alone
        assert list(Action.objects.values_list("kind", flat=True)) == ["play", "declare"]
    finally:
        other.close()
    assert problems == []


def test_a_phone_whose_link_is_gone_stays_shut_out(live_server, browser, page: Page, shot):
    start(page, live_server.url, "draw", ["Ana", "Ben"])
    match = Match.objects.get()
    other = browser.new_context(**PHONE)
    try:
        ben = other.new_page()
        ben.goto(f"{live_server.url}/matches/{match.pk}/join/{match.keep_token}/")
        ready(ben)
        page.get_by_text("Share this table").click()
        page.get_by_role("button", name="New links (the old ones stop working)").click()
        expect(page.locator(".messages")).to_contain_text("New links made")
        gone = ben.locator("#connection")
        expect(gone).to_contain_text("no longer works")  # the second 404 poll, 2-4 s on
        assert ben.locator("main").evaluate("main => main.inert")
        # A tap where a button was reaches nothing: no request, and the notice stays.
        posts: list[str] = []
        ben.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        button = ben.locator("#picker label.pick").first.bounding_box()
        ben.mouse.click(button["x"] + 10, button["y"] + 10)
        lead = ben.locator('.end-button[data-end="lead"]').bounding_box()
        ben.mouse.click(lead["x"] + 10, lead["y"] + 10)
        ben.wait_for_timeout(300)
        assert posts == []
        expect(gone).to_be_visible()
        expect(gone).to_contain_text("no longer works")
        ben.screenshot(path=str(shot("64-link-gone").parent / "64-link-gone-phone.png"))
    finally:
        other.close()


def test_the_back_button_finds_no_emptied_form_and_no_fix_to_repeat(live_server, page: Page):
    page.goto(live_server.url + "/matches/new/")
    page.get_by_label("Player 1").fill("Ana")
    page.get_by_label("Player 2").fill("Ben")
    page.locator('input[name="game"][value="all-fives"]').check()
    page.get_by_role("button", name="Start").click()
    ready(page)
    page.go_back()
    # The form as it was sent, beside the way back to its table.
    expect(page.get_by_label("Player 1")).to_have_value("Ana")
    expect(page.get_by_label("Player 2")).to_have_value("Ben")
    expect(page.locator('input[name="game"][value="all-fives"]')).to_be_checked()
    audit = Audit()
    audit.check(page, "the new-match form found again")
    page.get_by_role("link", name="Back to its table").click()
    ready(page)

    # A correction confirmed, then Back: the fix page says it is out of date.
    page.locator("label.pill", has_text="Ana").click()
    page.locator('#picker label.pick:has(input[value="6-6"])').click()
    page.locator('.end-button[data-end="lead"]').click()
    expect(page.locator(".log")).to_contain_text("Ana led 6-6")
    page.get_by_role("button", name="Ben draws a tile").click()
    expect(page.locator(".log")).to_contain_text("Ben drew a tile")
    fix(page, 2)  # Ben really drew two
    page.get_by_role("link", name="It should be something else…").click()
    ready(page)
    page.get_by_role("button", name="Ben drew 2 tiles").click()
    page.get_by_role("button", name="Confirm the correction").click()
    ready(page)
    expect(page.locator(".messages")).to_contain_text("Corrected")
    # Back: the fixing page (the preview was drawn into it), asked for again.
    page.go_back()
    expect(page.locator("[role=alert]")).to_contain_text("This page is out of date")
    expect(page.get_by_role("button", name="Confirm the correction")).to_have_count(0)
    expect(page.locator("#play-form")).to_have_count(0)
    audit.check(page, "a stale fix page")
    audit.assert_clean()
    assert Match.objects.get().version == 3
