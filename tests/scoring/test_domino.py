"""Dominó in the app (issue 31): the styles in the new-match form by country, a Dominican
hand played through the table whose log and result name each bonus with its rule, in English
and Spanish, and a refused redeal that changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from scoring import services

from .conftest import keep, snapshot, tap

NAMES = ["Ana", "Ben", "Caro", "Dan"]
HAND = json.loads((Path(__file__).parent.parent / "referee" / "parejas_matches.json").read_text())[
    "dominican_capicua"
]["rounds"][0]["actions"]


def test_the_new_match_form_lists_dominó_s_six_styles_by_country(client, db):
    html = client.get("/matches/new/").content.decode()
    styles = html[html.index('class="domino-styles"') :].split("</details>")[0]
    for slug, name in [("domino-dominican", "Dominican"), ("domino-puerto-rican",
                       "Puerto Rican (500)"), ("domino-cuban", "Cuban")]:  # fmt: skip
        assert f'value="{slug}"' in styles and f"<strong>{name}</strong>" in styles
    assert "in the order you play" in styles
    spanish = client.get("/matches/new/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Puertorriqueño (500)" in spanish and "Dominicano" in spanish


def test_a_dominican_hand_names_each_bonus_in_the_log_with_its_rule(scorekeeper):
    document = {"format": "boneyard-match/1", "game": "domino-dominican", "options": {},
                "players": NAMES, "rounds": [{"actions": HAND[:-1]}]}  # fmt: skip
    match = keep(scorekeeper, services.import_match(document))
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "Capicúa! Ben &amp; Dan +25" in html
    assert 'href="/rules/domino-dominican/#parejas.capicua"' in html
    assert list(match.totals) == [25, 50, 25, 0]  # before the tally: the bonuses alone
    spanish = scorekeeper.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "¡Capicúa! Ben y Dan +25" in spanish.content.decode()


def test_a_refused_redeal_changes_nothing(scorekeeper):
    match = keep(scorekeeper, services.create_match("domino-cuban", NAMES, {}))
    before = snapshot(match)
    response = tap(scorekeeper, match, {"type": "redeal", "seat": "1",
                                        "doubles": "9-9,8-8,7-7,6-6"})  # fmt: skip
    assert response.status_code == 422  # four doubles: the referee refuses (parejas.redeal)
    assert 'href="/rules/domino-cuban/#parejas.redeal"' in response.content.decode()
    assert snapshot(match) == before
