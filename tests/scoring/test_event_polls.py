"""An event's polls at scale (issue 32, docs/performance.md): an unchanged poll answers 204
from one sum of versions, the TV page carries its version, and the watchers of a version share
one render that a change at any table, or the event, leaves behind."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring import services
from scoring.events import services as events
from scoring.events import views
from scoring.events.models import Event, EventTable

EIGHT = ["Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo"]
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def night(db) -> Event:
    views.WATCHED.clear()
    event = events.create_event(
        "Club", "block", {"record": "scores", "target": 50}, "rotating", "swiss", 3, None, EIGHT
    )
    assert events.propose(event.pk, 0, "seat-round-1") and events.start(
        event.pk, 1, "start-round-1"
    )
    event.refresh_from_db()
    return event


def joined(event: Event, token: str) -> Client:
    client = Client()
    assert client.get(f"/events/{event.pk}/join/{token}/").status_code == 302
    return client


def shown(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html)[1])


def test_the_version_in_one_query_is_the_nights(night, django_assert_num_queries):
    expected = events.read(night).version
    with django_assert_num_queries(1):
        assert events.version_of(night.pk) == expected
    assert events.version_of(10**9) == -1


def test_the_tv_page_carries_its_version_and_its_poll_answers_204(night):
    tv = joined(night, night.watch_token)
    version = shown(tv.get(f"/events/{night.pk}/tv/").content.decode())
    assert version == events.read(night).version
    poll = tv.get(f"/events/{night.pk}/poll/?screen=tv&version={version}", **HX)
    assert poll.status_code == 204 and poll["X-Table-Version"] == str(version)
    fragment = tv.get(f"/events/{night.pk}/poll/?screen=tv&version=0", **HX)
    assert shown(fragment.content.decode()) == version


def test_watchers_share_a_render_until_a_table_moves(night):
    one, other = joined(night, night.watch_token), joined(night, night.watch_token)
    organizer = joined(night, night.keep_token)
    first = one.get(f"/events/{night.pk}/poll/?version=0", **HX)
    again = other.get(f"/events/{night.pk}/poll/?version=0", **HX)
    assert again.content == first.content and again["X-Live-Follows"] == first["X-Live-Follows"]
    # The organizer's board holds its own forms: never the watchers' render, never kept.
    board = organizer.get(f"/events/{night.pk}/poll/?version=0", **HX).content.decode()
    assert 'name="key"' in board and 'name="key"' not in first.content.decode()
    assert len(views.WATCHED) == 1
    # A tap at a table moves the version: the next watcher sees the table's new score.
    table = EventTable.objects.filter(round__event=night).order_by("number").first()
    match = services.Match.objects.get(pk=table.match_id)
    pips = {"0": 0, "1": 30, "2": 3, "3": 30}
    assert services.record(match.pk, {"type": "tally", "pips": pips}, match.version, "pollend01")
    after = other.get(f"/events/{night.pk}/poll/?version=0", **HX)
    assert shown(after.content.decode()) == shown(first.content.decode()) + 1
    assert after.content != first.content and "60" in after.content.decode()


def test_the_players_page_is_drawn_around_the_render_its_watchers_share(
    night, django_assert_max_num_queries
):
    """The players' page (the standings page) reads the event once a version: the first
    watcher's page renders the live part, every later watcher's page and poll reuse it, in
    two queries (the phone's link and the event's version)."""
    one, other = joined(night, night.watch_token), joined(night, night.watch_token)
    first = one.get(f"/events/{night.pk}/").content.decode()
    assert '<div id="event"' in first and "<html" in first and "Ana" in first
    assert len(views.WATCHED) == 1
    with django_assert_max_num_queries(3):  # session, the event and its role, the version
        page = other.get(f"/events/{night.pk}/").content.decode()
    live = other.get(f"/events/{night.pk}/poll/?version=0", **HX).content.decode()
    assert live.strip() in page and live.strip() in first  # the same bytes in each page
    assert 'name="key"' not in page  # a watcher's page holds no organizer's form
    # The organizer's page is its own, with its forms and links.
    board = joined(night, night.keep_token).get(f"/events/{night.pk}/").content.decode()
    assert 'name="key"' in board and "The organizer's link" in board
