"""Roles and matches at a table, for the app's tests."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring import services
from scoring.models import Action, Match


@pytest.fixture
def scorekeeper(db) -> Client:
    """The phone that keeps score for the table."""
    return Client()


@pytest.fixture
def draw_match(db) -> Match:
    return services.create_match("draw", ["Ana", "Ben", "Caro"], {})


@pytest.fixture
def quick_block(db) -> Match:
    """Block with one tile each: every lead is a domino, so rounds end at once."""
    return services.create_match("block", ["Ana", "Ben"], {"hand_size": 1, "target": 50})


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
