"""Double Domino Havoc at a phone-sized table, in a real Chromium: a whole 4-player round
played by tapping, with an odd double turning play, a dead double, a discard taken and
sent back, and the tally."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from referee import Tile, export, replay
from referee.games.havoc import DISCARD, DRAW, HavocState
from scoring import services
from scoring.models import Match

from .test_scoring_games import start, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ANA, BEN, CARO, DEE = range(4)


def now(match: Match) -> HavocState:
    match.refresh_from_db()
    return services.load_table(match).state  # type: ignore[return-value]


def act(page: Page, target: Locator) -> None:
    """Tap ``target`` and wait until the table shows the action recorded."""
    version = int(page.locator("#table").get_attribute("data-version") or 0)
    target.click()
    expect(page.locator("#table")).to_have_attribute("data-version", str(version + 1))


def plain_tile(state: HavocState, seat: int) -> str:
    """A tile the seat may hold that is not a double: the lowest."""
    return str(min(t for t in state.holdable(seat) if not t.is_double))


def discard(page: Page, state: HavocState, seat: int, tile: str | None = None) -> None:
    if state.step != DISCARD:
        page.locator(".skip-play summary").click()
    act(page, page.locator(f'#discard-picker button[value="{tile or plain_tile(state, seat)}"]'))


def test_a_whole_four_player_round_at_the_phone(live_server, page: Page, shot):
    problems = watch_console(page)
    start(page, live_server.url, "havoc", ["Ana", "Ben", "Caro", "Dee"])
    match = Match.objects.get()
    banner = page.locator("#banner")
    expect(banner).to_contain_text("who begins?")
    expect(page.locator("#direction")).to_have_text(re.compile(r"Play goes\s+clockwise"))
    expect(page.locator(".rack-card")).to_have_count(4)
    shot("61-havoc-start")

    # Ana begins: her first draw is her 7th tile; she starts her train with 9-4, 4 free.
    page.get_by_role("link", name="Ana begins").click()
    act(page, page.get_by_role("button", name=re.compile("Draw from the boneyard")))
    expect(page.locator(".steps li.now")).to_have_text("Play to the train")
    page.locator('#train-picker a[href="?tile=9-4"]').click()
    act(page, page.get_by_role("button", name="9-4: 4 free"))

    # An odd double in Ana's slot turns play counter-clockwise: Dee answers it.
    act(page, page.locator('#discard-picker button[value="3-3"]'))
    expect(page.locator("#direction")).to_contain_text("counter-clockwise")
    expect(page.locator("svg.ring .arrow.ccw")).to_have_count(1)
    expect(banner).to_contain_text("3-3 lies in Ana's slot: Dee may take it onto Dee's train")
    shot("62-havoc-odd-double")
    page.locator('#match-picker a[href="?match=3-1"]').click()
    shot("63-havoc-replacement")
    act(page, page.get_by_role("button", name="Drew the replacement (not a double)"))
    expect(page.locator("#seat-panel h2")).to_have_text("Caro's turn")

    # Caro discards an even double: play is set clockwise, and nobody answers it, so it
    # is dead and Caro plays a normal turn (havoc.dead-double).
    act(page, page.get_by_role("button", name=re.compile("Draw from the boneyard")))
    discard(page, now(match), CARO, "6-6")
    expect(page.locator("#direction")).to_have_text(re.compile(r"Play goes\s+clockwise"))
    for who in ("Dee", "Ana", "Ben"):
        expect(page.locator("#seat-panel h2")).to_have_text(f"{who} answers 6-6")
        act(page, page.get_by_role("button", name=f"{who} passes"))
    expect(page.locator("#seat-panel h2")).to_have_text("Caro's turn")
    expect(page.locator(".log")).to_contain_text("Ben passed on the double")

    took_back = False
    for _ in range(120):
        state = now(match)
        if state.ended is not None:
            break
        seat = state.turn
        assert seat is not None and state.doubles is None and state.step == DRAW
        lying = state.racks[ANA].slot
        if seat == BEN and not took_back and lying is not None:
            # Ben takes Ana's discard; his discard then goes back to Ana's slot.
            act(page, page.get_by_role("button", name=f"Take {lying.name} from Ana's slot"))
            state = now(match)
            tile = plain_tile(state, BEN)
            discard(page, state, BEN, tile)
            state = now(match)
            assert state.racks[ANA].slot == Tile.parse(tile)
            assert state.racks[BEN].slot is None
            took_back = True
            continue
        act(page, page.get_by_role("button", name=re.compile("Draw from the boneyard")))
        state = now(match)
        if seat == ANA:
            act(page, page.locator("#train-picker button.pick").first)
            state = now(match)
            if state.ended is not None:
                break
        discard(page, state, seat)
    assert took_back
    state = now(match)
    assert state.filled == ANA and len(state.racks[ANA].train) == 6

    # The round is over: every other tray is tallied against its seat.
    expect(banner).to_contain_text("Ana's train is full: Ana wins round 1")
    shot("64-havoc-tally")
    for seat, pips in ((BEN, "21"), (CARO, "30"), (DEE, "12")):
        page.locator(f'input[name="pips-{seat}"]').fill(pips)
    act(page, page.get_by_role("button", name="Score the round"))
    expect(page.locator("#round-result")).to_contain_text("Round 1: Ana filled the train")
    totals = page.locator(".scoreboard li .total")
    expect(totals).to_have_text(["0", "21", "30", "12"])
    # Round 2 begins with the seat clockwise of round 1's first player.
    expect(banner).to_contain_text("Ben's turn: draw from the boneyard")
    shot("65-havoc-round-two")

    match.refresh_from_db()
    document = services.export_match(match)
    assert export(replay(document)) == document
    assert document["totals"] == {"0": 0, "1": 21, "2": 30, "3": 12}
    assert services.verify(match) == []
    assert problems == []
