"""Issue 28's defects found by attacking the app, each held by its reproduction through the
Django client (the ones that need real servers are in test_attack.py): every answer is a
clear message or the page, never a 500, and nothing acknowledged is dropped."""

from __future__ import annotations

import json

import pytest

from scoring import services
from scoring.models import Action, Match

from .conftest import form_fields, keep, snapshot, tap

# --- 1. A stopped Dump Truck game ---------------------------------------------------------


@pytest.mark.parametrize(("abandoned", "says"), [("", "Ana wins"), ("1", "Nobody wins")])
def test_a_stopped_dump_truck_game_shows_its_end_on_every_screen(scorekeeper, abandoned, says):
    match = keep(scorekeeper, services.create_match("dump-truck", ["Ana", "Ben"], {}))
    assert tap(scorekeeper, match, {"type": "take", "seat": "1", "tile": "6-4", "from": "pool"})
    tap(scorekeeper, match, {"type": "load", "seat": "1", "tile": "6-4", "cells": "0,0;0,1"})
    tap(scorekeeper, match, {"type": "adjust", "seat": "0", "points": "3", "reason": "agreed"})
    stopped = tap(scorekeeper, match, {"type": "stop", "abandoned": abandoned})
    assert stopped.status_code == 200
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert says in html and "The game is over: the table" in html
    assert "correct.abandon" in html and "last truck" not in html  # no truck was scored
    poll = scorekeeper.get(f"/matches/{match.pk}/poll/?version=0", HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and says in poll.content.decode()
    asked = scorekeeper.post(f"/matches/{match.pk}/ask/")
    assert asked.status_code == 302 and scorekeeper.get(asked.url).status_code == 200
    assert scorekeeper.get(f"/matches/{match.pk}/summary/").status_code == 200
    match.refresh_from_db()
    assert services.verify(match) == []
