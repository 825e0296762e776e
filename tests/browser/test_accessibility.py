"""Every screen, at the moments a table sees it, checked for accessibility in a real
Chromium at 390 x 844: axe-core's WCAG 2 A/AA and best-practice rules in the light and the
dark colour scheme (a serious or critical violation fails), every tap target at least
44 x 44 CSS px, and every drawn tile named the way a screen reader should say it
("six-four"). Each test walks one part of the app and fails once, at its end, listing every
problem of every screen it saw (``axe.Audit``).

The matches are set up through the service layer (fast, and the same log a table would
write); what a phone does on screen (tapping a tile, opening a panel) is done by tapping.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, Response, expect

from referee import PRESETS
from scoring import services
from scoring.models import Match, Player
from tests.conftest import PHONE

from .axe import Audit
from .test_draw_round import pick
from .test_scoring_games import REFUSALS, ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def phone(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    """One phone for the whole module (a fresh context per test costs more than the
    checks), with its console errors and page errors, CSP violations among them."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if m.type == "error" and not any(r in m.text for r in REFUSALS)
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        yield page, problems
    finally:
        context.close()


@pytest.fixture
def page(phone) -> Iterator[Page]:
    """The module's phone, its console checked after each test (also what ``shot`` uses)."""
    page, problems = phone
    problems.clear()
    yield page
    # Leave the table before its match is flushed: its poll would otherwise ask for a match
    # that no longer exists (404) while the next test sets up, on a slow machine.
    page.goto("about:blank")
    assert problems == [], problems


@pytest.fixture
def audit(_screens_dir) -> Audit:
    """BONEYARD_A11Y_SCREENS=1 keeps every screen checked, in the dark scheme, as a PNG in
    pytest's temp dir (half a minute more)."""
    keep = os.environ.get("BONEYARD_A11Y_SCREENS", "").strip() not in ("", "0")
    return Audit(screens=_screens_dir if keep else None)


def visit(page: Page, url: str) -> Response:
    """Open ``url``; a server error is raised here as the exception the view raised."""
    response = page.goto(url)
    assert response is not None
    raise_server_error(page, response)
    return response


def raise_server_error(page: Page, response: Response) -> None:
    """The live server answers an exception with a bare 500. Ask the same URL again through
    Django's test client, with this phone's cookies, so the view's own exception (say, a
    screen still raising NotImplementedError) is what the test sees."""
    if response.status < 500:
        return
    request = response.request
    client = Client(raise_request_exception=True)
    for cookie in page.context.cookies():
        client.cookies[cookie["name"]] = cookie["value"]
    parts = urlsplit(request.url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    content_type = request.headers.get("content-type", "application/octet-stream")
    client.generic(request.method, path, request.post_data or "", content_type=content_type)
    raise AssertionError(f"{request.method} {path} answered {response.status}")


def record(match: Match, *actions: dict) -> None:
    """Actions recorded as the table's phones would, one version after another."""
    for action in actions:
        match.refresh_from_db()
        assert services.record(match.pk, action, match.version, services.new_key())
    match.refresh_from_db()


def finish(match: Match) -> None:
    """A Block match to 50 of one tile a hand: Ben wins five rounds of 10."""
    for _ in range(5):
        record(
            match,
            {"type": "play", "seat": 1, "tile": "6-6"},
            {"type": "tally", "pips": {"0": 10, "1": 0}},
        )
    assert match.status == Match.FINISHED


def join(page: Page, url: str, match: Match) -> None:
    """This phone keeps score for ``match``, and shows its table."""
    visit(page, f"{url}/matches/{match.pk}/join/{match.keep_token}/")
    ready(page)


def until_swapped(page: Page, tap) -> None:
    """Tap and wait for the table htmx swaps in (its version changes, or a notice shows)."""
    version = page.locator("#table").get_attribute("data-version")
    tap()
    expect(
        page.locator(f'#table:not([data-version="{version}"]), #table [role="alert"]')
    ).to_have_count(1)


# --- Home and new match ----------------------------------------------------------------


def test_home_and_new_match(live_server, page: Page, audit: Audit, shot):
    visit(page, live_server.url + "/")
    audit.check(page, "home, no match yet")
    shot("a11y-home-light")
    page.emulate_media(color_scheme="dark")
    shot("a11y-home-dark")
    page.emulate_media(color_scheme="light")

    visit(page, live_server.url + "/matches/new/")
    audit.check(page, "new match")
    # Every game's house rules at once (the page shows only the chosen game's, folded).
    page.evaluate(
        """() => { document.querySelector("#new-match details").open = true;
            document.querySelectorAll("#new-match .game-rules, #new-match .with-spinners")
                .forEach((el) => { el.style.display = "block"; }); }"""
    )
    audit.check(page, "new match, every game's house rules open")
    page.get_by_label("Player 1").fill("Ana")
    page.get_by_label("Player 2").fill("ANA")
    page.get_by_role("button", name="Start").click()
    expect(page.locator(".notice.error")).to_be_visible()
    audit.check(page, "new match, refused")
    audit.assert_clean()


def test_the_app_installs_on_a_home_screen(live_server, page: Page):
    """Chromium reads the manifest under the site's CSP (manifest-src falls back to
    default-src 'self'), finds nothing wrong with it, and every icon it names loads."""
    visit(page, live_server.url + "/")
    cdp = page.context.new_cdp_session(page)
    try:
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == live_server.url + "/manifest.webmanifest"
        assert manifest["errors"] == []
        for icon in json.loads(manifest["data"])["icons"]:
            response = page.request.get(urljoin(manifest["url"], icon["src"]))
            assert response.ok and response.headers["content-type"] == icon["type"]
        # A Playwright context is a private window, which Chromium never installs from.
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    finally:
        cdp.detach()


# --- Line games ------------------------------------------------------------------------

DRAW_OPENING = (
    {"type": "play", "seat": 0, "tile": "6-6"},
    {"type": "play", "seat": 1, "tile": "6-5", "on": "6-6"},
    {"type": "draw", "seat": 2, "count": 2},
    {"type": "play", "seat": 2, "tile": "5-4", "on": "6-5"},
)


def test_a_draw_game_mid_round(live_server, browser: Browser, page: Page, audit: Audit, phone):
    match = services.create_match("draw", ["Ana", "Ben", "Caro"], {})
    join(page, live_server.url, match)
    audit.check(page, "draw: who leads")
    record(match, *DRAW_OPENING)
    join(page, live_server.url, match)
    audit.check(page, "draw: mid-round, the tile picker")

    pick(page, "6-4")
    expect(page.locator(".end-button.fits")).not_to_have_count(0)
    audit.check(page, "draw: a tile tapped, its ends lit")
    pick(page, "3-3")
    expect(page.locator(".end-button.fits")).to_have_count(0)
    audit.check(page, "draw: a tile that fits nowhere")

    # A refused tap: 3-3 sent to an end it does not fit, as a phone without the page's
    # script would send it. The referee's notice names the rule; its text opens below.
    until_swapped(
        page,
        lambda: page.evaluate(
            """() => { const b = document.querySelector('.end-button[data-end="A"]');
                       b.disabled = false; b.click(); }"""
        ),
    )
    notice = page.locator('#table [role="alert"]')
    expect(notice).to_contain_text("line.attach")
    notice.locator("summary").click()
    audit.check(page, "draw: a refused tap, the rule opened")

    rules = page.locator("details", has_text="House rules in force")
    if rules.count():
        rules.locator("summary").click()
        audit.check(page, "draw: the house rules in force")

    share = page.locator("#share")
    share.locator("summary").click()
    audit.check(page, "draw: share this table")
    page.get_by_role("button", name=re.compile("New links")).click()
    expect(page.locator(".messages")).to_contain_text("New links made")
    # A poll in flight as the links changed may be answered 404 (the server read this phone's
    # link as it was); the phone asks again and is not shut out of its own table.
    page.wait_for_timeout(4500)
    expect(page.locator("body")).not_to_have_class(re.compile("shut-out"))
    _, problems = phone
    raced = ("status of 404", "404 from /matches/")  # the raced poll, as Chromium and htmx log it
    problems[:] = [p for p in problems if not any(r in p for r in raced)]
    page.locator("#share summary").click()
    audit.check(page, "draw: new links made")

    watcher = browser.new_context(**PHONE)
    try:
        other = watcher.new_page()
        match.refresh_from_db()
        visit(other, f"{live_server.url}/matches/{match.pk}/join/{match.watch_token}/")
        expect(other.locator("#watching")).to_be_visible()
        audit.check(other, "draw: a watching phone")
    finally:
        watcher.close()

    visit(page, live_server.url + "/")
    audit.check(page, "home, a match in progress")
    audit.assert_clean()


def test_a_block_game_tallied_between_rounds_and_over(live_server, page: Page, audit: Audit):
    """Block with one tile each: every lead is a domino, so each round ends at once."""
    match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 1, "target": 50})
    record(match, {"type": "play", "seat": 0, "tile": "6-6"})
    join(page, live_server.url, match)
    expect(page.locator("#tally-form")).to_be_visible()
    pick(page, "5-4", "fieldset.tally-seat:nth-of-type(2)")
    audit.check(page, "block: the tally form, a tile tapped")

    record(match, {"type": "tally", "hands": {"1": ["5-4"]}})
    join(page, live_server.url, match)
    expect(page.locator(".result")).to_be_visible()
    audit.check(page, "block: between rounds")

    finish(match)
    join(page, live_server.url, match)
    expect(page.locator("p.winner")).to_be_visible()
    audit.check(page, "block: the match over")
    page.get_by_role("link", name="Rounds and totals").click()
    expect(page.locator("table.scores tfoot")).to_be_visible()
    audit.check(page, "score sheet (summary)")
    audit.assert_clean()


def test_all_fives_and_muggins(live_server, page: Page, audit: Audit):
    fives = services.create_match("all-fives", ["Ana", "Ben", "Caro"], {})
    record(
        fives,
        {"type": "play", "seat": 0, "tile": "5-5"},
        {"type": "play", "seat": 1, "tile": "5-0", "on": "5-5"},
        {"type": "play", "seat": 2, "tile": "3-0", "on": "5-0"},
    )
    join(page, live_server.url, fives)
    pick(page, "5-3")  # it fits two ends: both are lit with what they would score
    expect(page.locator(".end-button.fits .gain")).not_to_have_count(0)
    audit.check(page, "all fives: the count, a tile tapped with what it would score")

    muggins = services.create_match("muggins", ["Ana", "Ben", "Caro"], {})
    record(muggins, {"type": "play", "seat": 0, "tile": "5-5"})
    join(page, live_server.url, muggins)
    expect(page.get_by_role("button", name="Score 10")).to_be_visible()
    audit.check(page, "muggins: the score to declare")
    record(muggins, {"type": "declare", "seat": 0, "points": 5})
    join(page, live_server.url, muggins)
    expect(page.get_by_role("button", name="Ben: Muggins!")).to_be_visible()
    audit.check(page, "muggins: the Muggins! buttons")
    audit.assert_clean()


def test_dominards_and_its_dice(live_server, page: Page, audit: Audit):
    match = services.create_match("dominards", ["Ana", "Ben", "Caro"], {})
    join(page, live_server.url, match)
    page.get_by_text("We rolled our own dice").click()
    expect(page.get_by_label("Die 1")).to_be_visible()
    audit.check(page, "dominards: the dice panel, own dice open")

    record(match, {"type": "roll", "seat": 0, "dice": [3, 3]})
    join(page, live_server.url, match)
    pick(page, "6-6")
    expect(page.locator('.card-button[data-end="lead"]')).to_be_visible()
    audit.check(page, "dominards: a lead that hits the target, its card offered")
    audit.assert_clean()


# --- Dump Truck and Double Domino Havoc ----------------------------------------------------


def test_dump_truck(live_server, page: Page, audit: Audit):
    match = services.create_match("dump-truck", ["Ana", "Ben"], {})
    join(page, live_server.url, match)
    audit.check(page, "dump truck: the draw")
    page.locator("#picker button.pick").and_(page.locator('[value="1-1"]')).click()
    expect(page.locator("#load-form")).to_be_visible()
    audit.check(page, "dump truck: a tile to load")
    page.locator('#load-form [data-cell="0,0"]').click()
    expect(page.locator("#load-form .cell-button.partner")).not_to_have_count(0)
    audit.check(page, "dump truck: the first cell chosen")
    page.locator('#load-form [data-cell="0,1"]').click()
    expect(page.locator("#load-form")).to_have_count(0)

    page.locator(".truck-card a", has_text="Ana").click()
    expect(page.locator("#seat-panel h2")).to_contain_text("Ana")
    page.locator("#unload summary").click()
    expect(page.locator(".load-score")).to_be_visible()
    audit.check(page, "dump truck: unloading, the chains traced")
    audit.assert_clean()


def test_dump_truck_game_over(live_server, page: Page, audit: Audit):
    from tests.scoring.test_dump_truck import honest_game

    match = services.import_match(honest_game(4, 2))
    join(page, live_server.url, match)
    expect(page.locator("#final")).to_be_visible()
    audit.check(page, "dump truck: the game over")
    audit.assert_clean()


def test_double_domino_havoc(live_server, page: Page, audit: Audit):
    match = services.create_match("havoc", ["Ana", "Ben", "Caro", "Dee"], {})
    join(page, live_server.url, match)
    audit.check(page, "havoc: who begins")
    page.get_by_role("link", name="Ana begins").click()
    expect(page.get_by_role("button", name=re.compile("Draw from the boneyard"))).to_be_visible()
    audit.check(page, "havoc: the first draw")
    until_swapped(
        page, lambda: page.get_by_role("button", name=re.compile("Draw from the boneyard")).click()
    )
    expect(page.locator("#train-picker")).to_be_visible()
    audit.check(page, "havoc: start the train")
    page.locator('#train-picker a[href="?tile=9-4"]').click()
    expect(page.get_by_role("button", name="9-4: 4 free")).to_be_visible()
    audit.check(page, "havoc: which half stays free")
    until_swapped(page, lambda: page.get_by_role("button", name="9-4: 4 free").click())
    until_swapped(page, lambda: page.locator('#discard-picker button[value="3-3"]').click())
    expect(page.locator("#banner")).to_contain_text("3-3 lies in Ana's slot")
    audit.check(page, "havoc: an odd double to answer")
    page.locator('#match-picker a[href="?match=3-1"]').click()
    expect(page.get_by_role("button", name=re.compile("Drew the replacement"))).to_be_visible()
    page.locator(".drew-double summary").click()
    audit.check(page, "havoc: a replacement, the double drawn open")
    page.locator("#record summary").click()
    audit.check(page, "havoc: fix the score, abandon, stop")
    audit.assert_clean()


HAVOC_TRAIN = ["9-4", "4-5", "5-6", "6-7", "7-8", "8-3"]
HAVOC_DISCARDS = ["1-0", "2-0", "3-0", "4-0", "5-0"]
BEN_DISCARDS = ["2-1", "3-1", "4-1", "5-1", "6-1"]


def test_double_domino_havoc_tally(live_server, page: Page, audit: Audit):
    match = services.create_match("havoc", ["Ana", "Ben"], {"rounds": 2})
    for n, tile in enumerate(HAVOC_TRAIN):
        record(
            match,
            {"type": "draw", "seat": 0, "from": "boneyard"},
            {"type": "train", "seat": 0, "tile": tile},
        )
        if n < 5:
            record(
                match,
                {"type": "discard", "seat": 0, "tile": HAVOC_DISCARDS[n]},
                {"type": "draw", "seat": 1, "from": "boneyard"},
                {"type": "discard", "seat": 1, "tile": BEN_DISCARDS[n]},
            )
    join(page, live_server.url, match)
    expect(page.locator("#tally-form")).to_be_visible()
    audit.check(page, "havoc: the tally")
    audit.assert_clean()


# --- The screens of issue 8 --------------------------------------------------------------


def test_the_rules_pages(live_server, page: Page, audit: Audit):
    visit(page, live_server.url + "/rules/")
    audit.check(page, "rules")
    for slug in PRESETS:
        visit(page, f"{live_server.url}/rules/{slug}/")
        audit.check(page, f"rules of {slug}")
    audit.assert_clean()


DOCUMENT = {
    "format": "boneyard-match/1",
    "game": "all-fives",
    "players": ["Ana", "Ben", "Caro"],
    "rounds": [
        {
            "actions": [
                {"type": "play", "seat": 0, "tile": "5-5"},
                {"type": "play", "seat": 1, "tile": "5-0", "on": "5-5"},
                {"type": "draw", "seat": 2, "count": 2},
            ]
        }
    ],
}


def test_the_referees_desk(live_server, page: Page, audit: Audit):
    visit(page, live_server.url + "/referee/")
    audit.check(page, "referee's desk")
    page.locator('textarea[name="pasted"]').fill(json.dumps(DOCUMENT))
    with page.expect_navigation() as arrived:
        page.locator('textarea[name="pasted"]').evaluate("t => t.form.requestSubmit()")
    raise_server_error(page, arrived.value)
    expect(page).to_have_url(re.compile(r"/referee/[^/]+/$"))
    audit.check(page, "referee's desk: a position pasted")
    pick(page, "5-3")
    audit.check(page, "referee's desk: a tile tapped on a position")
    audit.assert_clean()


def test_asking_about_a_position_at_the_table(live_server, page: Page, audit: Audit):
    match = services.create_match("draw", ["Ana", "Ben", "Caro"], {})
    record(match, *DRAW_OPENING)
    join(page, live_server.url, match)
    with page.expect_navigation() as arrived:
        page.get_by_role("button", name=re.compile(r"Ask .*position")).click()
    raise_server_error(page, arrived.value)
    expect(page).to_have_url(re.compile(r"/referee/[^/]+/$"))
    audit.check(page, "referee's desk: the table's position")
    audit.assert_clean()


def test_the_replay_of_a_round(live_server, page: Page, audit: Audit):
    match = services.create_match("draw", ["Ana", "Ben", "Caro"], {})
    record(match, *DRAW_OPENING)
    join(page, live_server.url, match)
    visit(page, f"{live_server.url}/matches/{match.pk}/rounds/1/?step=2")
    audit.check(page, "replay, round 1 step 2")
    audit.assert_clean()


def test_fixing_the_record(live_server, page: Page, audit: Audit):
    match = services.create_match("all-fives", ["Ana", "Ben", "Caro"], {})
    record(
        match,
        {"type": "play", "seat": 0, "tile": "6-6"},
        {"type": "play", "seat": 1, "tile": "6-5", "on": "6-6"},
    )
    join(page, live_server.url, match)
    page.locator("#record summary").click()
    audit.check(page, "table: fix the score, abandon, stop")
    visit(page, f"{live_server.url}/matches/{match.pk}/rounds/1/fix/1/")
    audit.check(page, "fix: what went wrong")
    page.get_by_role("button", name="It was played wrong").click()
    expect(page.locator("#table [role=alert]")).to_contain_text("procedure.misplay")
    audit.check(page, "fix: played wrong, refused")
    visit(page, f"{live_server.url}/matches/{match.pk}/rounds/1/fix/1/replace/")
    ready(page)
    audit.check(page, "fix: the pickers at that moment")
    pick(page, "6-4")
    page.locator(".end-button.fits").first.click()
    expect(page.get_by_role("button", name="Confirm the correction")).to_be_visible()
    audit.check(page, "fix: the preview")
    audit.assert_clean()


def test_the_players_and_a_player(live_server, page: Page, audit: Audit):
    match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 1, "target": 50})
    finish(match)
    join(page, live_server.url, match)
    visit(page, live_server.url + "/players/")
    audit.check(page, "players (the leaderboard)")
    visit(page, f"{live_server.url}/players/{Player.objects.get(name='Ana').pk}/")
    audit.check(page, "a player's page")
    audit.assert_clean()


# --- The train games and the score pad ---------------------------------------------------


def test_mexican_train_and_chicken_foot(live_server, page: Page, audit: Audit):
    match = services.create_match("mexican-train", ["Ana", "Ben", "Caro"], {"hand_size": 3})
    join(page, live_server.url, match)
    audit.check(page, "mexican train: who holds the engine")
    record(
        match,
        {"type": "engine", "seat": 0, "tile": "12-12"},
        {"type": "play", "seat": 1, "tile": "12-6", "train": 1},
        {"type": "draw", "seat": 2},
        {"type": "pass", "seat": 2},
        {"type": "play", "seat": 0, "tile": "12-5", "train": 2},
        {"type": "play", "seat": 1, "tile": "6-6", "train": 1},
    )
    page.reload()
    expect(page.locator(".train-row.open-double")).to_have_count(1)
    audit.check(page, "mexican train: an open double and a marker out")
    record(match, {"type": "play", "seat": 1, "tile": "6-1", "train": 1})  # Ben plays out
    page.reload()
    expect(page.locator("#tally-form")).to_be_visible()
    audit.check(page, "mexican train: the tally")
    foot = services.create_match("chicken-foot", ["Ana", "Ben"], {"root_arms": 4})
    join(page, live_server.url, foot)
    record(
        foot,
        {"type": "engine", "seat": 0, "tile": "9-9"},
        {"type": "play", "seat": 1, "tile": "9-1", "on": "9-9"},
    )
    page.reload()
    expect(page.locator(".owed")).to_be_visible()
    audit.check(page, "chicken foot: the root owes arms")
    pad = services.create_match("block", ["Ana", "Ben"], {"record": "scores"})
    join(page, live_server.url, pad)
    page.locator("#tally-form details summary").first.click()
    audit.check(page, "score pad: a round's tally")
    audit.assert_clean()
