"""Sharing a table: the Keep score and Watch links, seats, new links, polling, limits."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Action, Match

from .conftest import form_fields, keep, snapshot, tap, watch

LEAD = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}


def test_the_creator_keeps_score_and_sees_the_share_links(scorekeeper, db):
    data = {"game": "draw", "player-0": "Ana", "player-1": "Ben"}
    response = scorekeeper.post("/matches/new/", data)
    match = Match.objects.get()
    html = scorekeeper.get(response["Location"]).content.decode()
    assert "Share this table" in html
    assert f"/matches/{match.pk}/join/{match.keep_token}/" in html
    assert f"/matches/{match.pk}/join/{match.watch_token}/" in html
    assert html.count('<svg role="img" aria-label="') >= 2 and 'class="qr"' in html
    assert tap(scorekeeper, match, LEAD).status_code == 200


def test_the_tokens_are_long_random_and_distinct(db, draw_match):
    assert len(draw_match.keep_token) >= 43 and len(draw_match.watch_token) >= 43
    assert draw_match.keep_token != draw_match.watch_token
    other = Match.objects.create(game="draw", options=draw_match.options, totals=[0, 0, 0])
    assert other.keep_token not in (draw_match.keep_token, draw_match.watch_token)


def test_another_seat_joins_with_the_keep_link_and_records(other_seat, draw_match):
    keep(other_seat, draw_match)
    assert tap(other_seat, draw_match, LEAD).status_code == 200
    assert Action.objects.count() == 1


def test_a_watcher_sees_the_table_but_its_post_is_refused(spectator, draw_match):
    watch(spectator, draw_match)
    html = spectator.get(f"/matches/{draw_match.pk}/").content.decode()
    assert "Watching: this phone follows the table" in html
    assert 'id="play-form"' not in html and "Share this table" not in html
    before = snapshot(draw_match)
    forged = {**LEAD, "version": "0", "key": "watcher-key-0001"}
    response = spectator.post(f"/matches/{draw_match.pk}/act/", forged, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert "cannot record" in response.content.decode()
    assert snapshot(draw_match) == before
    assert spectator.post(f"/matches/{draw_match.pk}/links/").status_code == 403


@pytest.mark.parametrize(
    "path",
    ["/", "/summary/", "/export.json", "/poll/?version=0"],
)
def test_a_stranger_gets_404_for_every_match_page(stranger, draw_match, path):
    url = f"/matches/{draw_match.pk}{path}" if path != "/" else f"/matches/{draw_match.pk}/"
    assert stranger.get(url).status_code == 404


def test_a_stranger_cannot_post_and_the_home_page_lists_only_joined_tables(stranger, draw_match):
    before = snapshot(draw_match)
    response = stranger.post(f"/matches/{draw_match.pk}/act/", {**LEAD, "version": "0"})
    assert response.status_code == 404
    assert snapshot(draw_match) == before
    assert f"/matches/{draw_match.pk}/" not in stranger.get("/").content.decode()


@pytest.mark.parametrize("token", ["nope", "x" * 43, "", "%00", "a" * 500])
def test_a_wrong_token_gets_404(stranger, draw_match, token):
    assert stranger.get(f"/matches/{draw_match.pk}/join/{token}/").status_code == 404
    assert stranger.get(f"/matches/{draw_match.pk}/").status_code == 404


def test_an_unknown_match_gets_404(stranger, db):
    assert stranger.get("/matches/999/join/whatever/").status_code == 404


def test_new_links_revoke_the_old_ones(scorekeeper, other_seat, spectator, draw_match):
    keep(other_seat, draw_match)
    watch(spectator, draw_match)
    old_keep = draw_match.keep_token
    response = scorekeeper.post(f"/matches/{draw_match.pk}/links/")
    assert response.status_code == 302
    draw_match.refresh_from_db()
    assert draw_match.keep_token != old_keep
    # The phone that made them keeps score; everybody else is shut out until they rejoin.
    assert scorekeeper.get(f"/matches/{draw_match.pk}/").status_code == 200
    assert other_seat.get(f"/matches/{draw_match.pk}/").status_code == 404
    assert spectator.get(f"/matches/{draw_match.pk}/").status_code == 404
    assert other_seat.get(f"/matches/{draw_match.pk}/join/{old_keep}/").status_code == 404
    keep(other_seat, draw_match)
    assert other_seat.get(f"/matches/{draw_match.pk}/").status_code == 200


def test_a_phone_takes_a_seat_and_is_told_when_it_is_its_turn(scorekeeper, other_seat, draw_match):
    keep(other_seat, draw_match)
    response = other_seat.post(f"/matches/{draw_match.pk}/seat/", {"seat": "1"})
    assert response.status_code == 302
    tap(scorekeeper, draw_match, LEAD)
    html = other_seat.get(f"/matches/{draw_match.pk}/").content.decode()
    assert "<strong>Ben</strong> · your turn" in html
    assert "your turn" not in scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert other_seat.post(f"/matches/{draw_match.pk}/seat/", {"seat": "7"}).status_code == 400
    other_seat.post(f"/matches/{draw_match.pk}/seat/", {"seat": ""})
    assert "your turn" not in other_seat.get(f"/matches/{draw_match.pk}/").content.decode()


def test_a_seated_phone_sees_its_own_muggins_button_first(scorekeeper, other_seat, db):
    match = keep(scorekeeper, services.create_match("muggins", ["Ana", "Ben", "Caro"], {}))
    keep(other_seat, match)
    other_seat.post(f"/matches/{match.pk}/seat/", {"seat": "2"})
    tap(scorekeeper, match, {"type": "play", "seat": "0", "tile": "5-5", "target": "lead"})
    tap(scorekeeper, match, {"type": "declare", "seat": "0", "points": "5"})
    html = other_seat.get(f"/matches/{match.pk}/").content.decode()
    assert html.index("Caro: Muggins!") < html.index("Ben: Muggins!")


def test_an_unchanged_table_answers_the_poll_with_204_and_one_query(scorekeeper, draw_match):
    url = f"/matches/{draw_match.pk}/poll/?version=0"
    with CaptureQueriesContext(connection) as queries:
        response = scorekeeper.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response.content == b""
    assert len(queries) == 1


def test_a_changed_table_answers_the_poll_with_the_fragment(scorekeeper, other_seat, draw_match):
    keep(other_seat, draw_match)
    tap(other_seat, draw_match, LEAD)
    response = scorekeeper.get(f"/matches/{draw_match.pk}/poll/?version=0", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="table"' in html and "<html" not in html
    assert "Ana led 6-6" in html and "?version=1" in html


def test_a_stale_tap_says_what_happened_instead(scorekeeper, other_seat, draw_match):
    keep(other_seat, draw_match)
    page = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    tap(other_seat, draw_match, LEAD)
    stale = {**form_fields(page), **LEAD, "seat": "1", "tile": "5-5"}
    response = scorekeeper.post(f"/matches/{draw_match.pk}/act/", stale, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "Ana led 6-6 meanwhile; your tap was not recorded." in response.content.decode()


def test_joining_is_rate_limited_per_client(draw_match, settings):
    settings.BONEYARD_RATE_LIMITS = {**settings.BONEYARD_RATE_LIMITS, "join": (3, 60)}
    guesser = Client(REMOTE_ADDR="10.0.0.8")
    for _ in range(3):
        assert guesser.get(f"/matches/{draw_match.pk}/join/wrong/").status_code == 404
    response = guesser.get(f"/matches/{draw_match.pk}/join/{draw_match.keep_token}/")
    assert response.status_code == 429 and b"Too many tries" in response.content
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.get(f"/matches/{draw_match.pk}/join/{draw_match.keep_token}/").status_code == 302


def test_creating_matches_is_rate_limited_per_client(db, settings):
    settings.BONEYARD_RATE_LIMITS = {**settings.BONEYARD_RATE_LIMITS, "create": (2, 60)}
    scorekeeper = Client(REMOTE_ADDR="10.0.0.7")
    data = {"game": "draw", "player-0": "Ana", "player-1": "Ben"}
    assert scorekeeper.post("/matches/new/", data).status_code == 302
    assert scorekeeper.post("/matches/new/", data).status_code == 302
    response = scorekeeper.post("/matches/new/", data)
    assert response.status_code == 429 and "Too many tries" in response.content.decode()
    assert Match.objects.count() == 2


def test_healthz_answers_200_when_the_database_does(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"


def test_healthz_answers_503_when_the_database_does_not(client, db):
    def broken(*args, **kwargs):
        raise RuntimeError("connection refused")

    with mock.patch.object(connection, "cursor", broken):
        response = client.get("/healthz")
    assert response.status_code == 503


def test_links_to_localhost_warn_that_other_phones_cannot_reach_them(scorekeeper, draw_match):
    html = scorekeeper.get(f"/matches/{draw_match.pk}/", HTTP_HOST="localhost:8000").content
    assert b"other phones cannot reach" in html
    html = scorekeeper.get(f"/matches/{draw_match.pk}/", HTTP_HOST="192.168.1.20:8000").content
    assert b"other phones cannot reach" not in html and b"http://192.168.1.20:8000/matches/" in html


def test_every_table_answer_says_its_version(scorekeeper, draw_match):
    assert scorekeeper.get(f"/matches/{draw_match.pk}/")["X-Table-Version"] == "0"
    response = tap(scorekeeper, draw_match, LEAD)
    assert response["X-Table-Version"] == "1" and 'data-version="1"' in response.content.decode()


def test_a_scorekeeper_who_opens_the_watch_link_still_keeps_score(scorekeeper, draw_match):
    watch(scorekeeper, draw_match)
    html = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert 'id="play-form"' in html and "Watching" not in html
    assert tap(scorekeeper, draw_match, LEAD).status_code == 200


def test_an_impossible_match_number_is_404_not_500(scorekeeper, db):
    for pk in ("99999999999999999999999", "0"):
        assert scorekeeper.get(f"/matches/{pk}/poll/?version=0").status_code == 404
        assert scorekeeper.get(f"/matches/{pk}/").status_code == 404


def test_a_replay_read_while_another_tap_commits_is_not_kept(scorekeeper, draw_match):
    stale = Match.objects.get(pk=draw_match.pk)  # read at version 0...
    tap(scorekeeper, draw_match, LEAD)  # ...then a tap commits version 1
    services.forget_replays()
    services.load_table(stale)  # reads version 1's log while it believes it is at 0
    assert (stale.pk, 0, stale.created_at) not in services._REPLAYED
