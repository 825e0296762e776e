"""Dominó's time limit in the app (``parejas.time``, issue 31): the clock on the score strip,
a keeper's Time refused before the limit by the server's clock (nothing changes, the rule
named), and after it the hand announced as the last, or the one extra hand when the pairs are
level, and a level match after that hand drawn as the referee says."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from referee.rulebook import resolve_options
from scoring import services
from scoring.models import Match
from tests.referee import parejas_oracle

from .conftest import form_fields, keep, snapshot, tap

NAMES = ["Ana", "Ben", "Caro", "Dan"]


def timed(client, minutes_ago: int, limit: int = 30, game: str = "domino-dominican") -> Match:
    """A match with a time limit, begun ``minutes_ago`` (its start moved back, as the clock
    would have it)."""
    match = services.create_match(game, NAMES, {"time_limit": limit})
    Match.objects.filter(pk=match.pk).update(
        created_at=timezone.now() - timedelta(minutes=minutes_ago)
    )
    match.refresh_from_db()
    return keep(client, match)


def test_the_strip_shows_the_clock_and_a_keeper_gets_time(scorekeeper):
    match = timed(scorekeeper, minutes_ago=10)
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    strip = html[html.index('class="strip"') :].split("</ol>")[0]
    ends = (match.created_at + timedelta(minutes=30)).strftime("%H:%M")
    assert 'class="clock' in strip and "20 min" in strip
    assert f"{ends} UTC</time>" in strip and 'datetime="' in strip
    assert 'name="type" value="time"' in html
    assert "js/clock.js" in html


def test_a_match_without_a_time_limit_has_no_clock(scorekeeper):
    match = keep(scorekeeper, services.create_match("domino-dominican", NAMES, {}))
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="clock' not in html and 'value="time"' not in html and "clock.js" not in html


def test_time_before_the_limit_is_refused_and_changes_nothing(scorekeeper):
    match = timed(scorekeeper, minutes_ago=10)
    before = snapshot(match)
    response = tap(scorekeeper, match, {"type": "time"})
    assert response.status_code == 422
    html = response.content.decode()
    assert "20 minutes are left" in html
    assert 'href="/rules/domino-dominican/#parejas.time"' in html
    assert snapshot(match) == before
    page = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    spanish = scorekeeper.post(
        f"/matches/{match.pk}/act/", {**form_fields(page), "type": "time"},
        HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es",
    )  # fmt: skip
    assert "quedan 20 minutos" in spanish.content.decode()
    assert snapshot(match) == before


def test_time_after_the_limit_between_hands_with_level_pairs_is_one_more_hand(scorekeeper):
    match = timed(scorekeeper, minutes_ago=31)
    response = tap(scorekeeper, match, {"type": "time"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Time: one more hand." in html and 'value="time"' not in html
    spanish = scorekeeper.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Tiempo: una mano más." in spanish.content.decode()
    match.refresh_from_db()
    assert match.status == Match.PLAYING


def level_after_time() -> dict:
    """A Dominican match of two tied tranques (nobody scores): Time is recorded before the
    second hand at 0–0, so it is the one extra hand, and level after it the match is a draw
    (a match the independent checker generates, seed found once)."""
    options = resolve_options("domino-dominican", {"time_limit": 30})
    document, _ = parejas_oracle.generate("domino-dominican", options, 197, most_hands=4)
    assert [r["actions"][0]["type"] for r in document["rounds"]] == ["play", "time"]
    return document


def test_the_extra_hand_is_announced_and_a_level_match_after_it_is_drawn(scorekeeper):
    document = level_after_time()
    tally = document["rounds"][-1]["actions"].pop()
    match = keep(scorekeeper, services.import_match(document))
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "Time: one more hand." in html and 'value="time"' not in html
    services.record(match.pk, tally, match.version, services.new_key())
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.winner is None
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "The match is a draw: the pairs were level after the one extra hand" in html
    assert "one more hand" not in html
    spanish = scorekeeper.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "empate" in spanish.content.decode()


def test_time_during_a_hand_makes_it_the_last(scorekeeper):
    match = timed(scorekeeper, minutes_ago=45)
    lead = {"type": "play", "seat": "0", "tile": "6-6"}
    for seat in range(4):  # whoever holds the 6-6 leads it (parejas.lead)
        if tap(scorekeeper, match, {**lead, "seat": str(seat)}).status_code == 200:
            break
    assert tap(scorekeeper, match, {"type": "time"}).status_code == 200
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "Time: this hand is the last." in html
    assert "Time was called" in html  # the log says it


def test_time_in_a_game_without_the_rule_is_refused(scorekeeper, quick_block):
    before = snapshot(quick_block)
    response = tap(scorekeeper, quick_block, {"type": "time"})
    assert response.status_code in (400, 422)
    assert snapshot(quick_block) == before
