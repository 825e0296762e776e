"""Issue 17's defects, each held by a regression test (SQLite and PostgreSQL): a key names
one intended action, bad text is refused at the edge, a shut-out phone sees nothing of the
match, new links are one atomic change, and nothing leaks a stranger's names or a token."""

from __future__ import annotations

import re

import pytest
from django.http import QueryDict

from scoring import services
from scoring.forms import action_from_post
from scoring.models import Action

from .conftest import keep, snapshot, tap


def forms_keys(html: str) -> list[str]:
    return re.findall(r'name="key" value="([^"]*)"', html)


# --- 1. A key names one intended action ------------------------------------------------


def test_every_form_on_a_screen_has_a_key_of_its_own(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    keys = forms_keys(scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode())
    assert len(keys) >= 3  # the picker, Draw, Knock, Undo...
    assert len(set(keys)) == len(keys)


def _first_key(client, match) -> tuple[str, str]:
    html = client.get(f"/matches/{match.pk}/").content.decode()
    version = re.search(r'name="version" value="(\d+)"', html)[1]
    return version, forms_keys(html)[0]


def test_a_different_tap_with_a_used_key_is_refused_not_reported_recorded(scorekeeper, draw_match):
    version, key = _first_key(scorekeeper, draw_match)
    lead = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead", "version": version}
    url = f"/matches/{draw_match.pk}/act/"
    assert scorekeeper.post(url, {**lead, "key": key}, HTTP_HX_REQUEST="true").status_code == 200
    before = snapshot(draw_match)
    # The same screen's key sent with another action (a second button, the Back button).
    draw = {"type": "draw", "seat": "1", "version": version, "key": key}
    response = scorekeeper.post(url, draw, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    html = response.content.decode()
    assert "not recorded" in html and 'id="table"' in html
    assert snapshot(draw_match) == before
    # Without JavaScript too: a 409 with the table, never a redirect that says "done".
    assert scorekeeper.post(url, draw).status_code == 409
    assert snapshot(draw_match) == before


def test_the_same_tap_sent_twice_is_recorded_once_and_answered_as_recorded(scorekeeper, draw_match):
    version, key = _first_key(scorekeeper, draw_match)
    form = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead", "version": version}
    url = f"/matches/{draw_match.pk}/act/"
    for _ in range(2):
        assert (
            scorekeeper.post(url, {**form, "key": key}, HTTP_HX_REQUEST="true").status_code == 200
        )
    assert Action.objects.filter(round__match=draw_match).count() == 1


def test_a_key_used_in_another_match_is_refused(scorekeeper, draw_match):
    other = keep(scorekeeper, services.create_match("draw", ["Dee", "Eve"], {}))
    version, key = _first_key(scorekeeper, draw_match)
    lead = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead", "version": version}
    scorekeeper.post(f"/matches/{draw_match.pk}/act/", {**lead, "key": key})
    before = snapshot(other)
    response = scorekeeper.post(f"/matches/{other.pk}/act/", {**lead, "key": key})
    assert response.status_code == 409
    assert snapshot(other) == before


def test_dice_rolled_by_the_app_are_the_same_when_the_tap_is_sent_again(scorekeeper, db):
    match = keep(scorekeeper, services.create_match("dominards", ["Ana", "Ben"], {}))
    version, key = _first_key(scorekeeper, match)
    form = {"type": "roll", "seat": "0", "count": "4", "version": version, "key": key}
    url = f"/matches/{match.pk}/act/"
    assert scorekeeper.post(url, form, HTTP_HX_REQUEST="true").status_code == 200
    assert scorekeeper.post(url, form, HTTP_HX_REQUEST="true").status_code == 200
    assert Action.objects.filter(round__match=match).count() == 1


def _sent(**fields) -> QueryDict:
    post = QueryDict(mutable=True)
    post.update(fields)
    return post


def test_the_apps_dice_and_coin_follow_the_key_and_differ_between_keys(db):
    roll = _sent(type="roll", seat="0", count="4", key="one-tap-key-1")
    assert len({tuple(action_from_post(roll, 2)["dice"]) for _ in range(5)}) == 1
    rolls = {
        tuple(action_from_post(_sent(type="roll", seat="0", count="4", key=f"key-{n}"), 2)["dice"])
        for n in range(8)
    }
    assert len(rolls) > 1  # 6**4 outcomes: eight keys do not all roll the same
    flip = _sent(type="flip", seat="0", other="1", key="one-tap-key-1")
    assert len({action_from_post(flip, 2, "truck")["first"] for _ in range(5)}) == 1
