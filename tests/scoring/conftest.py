"""Roles and matches at a table, for the app's tests."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring import services
from scoring.models import Action, Match


@pytest.fixture
def scorekeeper(db) -> Client:
    """The phone that keeps score for the table (it joins each match fixture below)."""
    return Client()


@pytest.fixture
def other_seat(db) -> Client:
    """Another player's phone, which joined with the same Keep score link."""
    return Client()


@pytest.fixture
def spectator(db) -> Client:
    """A phone that joined with the Watch link."""
    return Client()


@pytest.fixture
def stranger(db) -> Client:
    """A phone with no link at all."""
    return Client()


def keep(client: Client, match: Match) -> Match:
    """``client`` joins ``match`` with its Keep score link."""
    response = client.get(f"/matches/{match.pk}/join/{match.keep_token}/")
    assert response.status_code == 302, response.status_code
    return match


def watch(client: Client, match: Match) -> Match:
    response = client.get(f"/matches/{match.pk}/join/{match.watch_token}/")
    assert response.status_code == 302, response.status_code
    return match


@pytest.fixture
def draw_match(scorekeeper) -> Match:
    return keep(scorekeeper, services.create_match("draw", ["Ana", "Ben", "Caro"], {}))


@pytest.fixture
def quick_block(scorekeeper) -> Match:
    """Block with one tile each: every lead is a domino, so rounds end at once."""
    match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 1, "target": 50})
    return keep(scorekeeper, match)


def form_fields(html: str) -> dict[str, str]:
    """version and key of the first form on a page, as a player's phone would send them."""
    return {
        name: re.search(rf'name="{name}" value="([^"]*)"', html).group(1)
        for name in ("version", "key")
    }


def tap(client: Client, match: Match, data: dict, htmx: bool = True, **overrides):
    """Send one table action with the version and key the current screen carries."""
    page = client.get(f"/matches/{match.pk}/").content.decode()
    payload = {**form_fields(page), **data, **overrides}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/matches/{match.pk}/act/", payload, **headers)


def snapshot(match: Match) -> tuple:
    """Everything a rejected request must leave untouched."""
    match.refresh_from_db()
    log = list(Action.objects.filter(round__match=match).values_list("kind", "payload", "seq"))
    return match.version, match.status, tuple(match.totals), log
