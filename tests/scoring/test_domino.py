"""Dominó in the app (issue 31): the styles in the new-match form by country, a Dominican
hand played through the table whose log and result name each bonus with its rule, in English
and Spanish, and a refused redeal that changes nothing."""

from __future__ import annotations

import json
import re
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
    assert "· Ben +25" not in html  # the capicúa's 25 is said once, by its name
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


# -- score pads (pad.record) -----------------------------------------------------------------


def _pad_match(scorekeeper, style: str = "domino-dominican", **options):
    return keep(scorekeeper, services.create_match(style, NAMES, {"record": "scores", **options}))


def test_a_dominó_score_pad_asks_for_the_bonuses_the_style_prices(scorekeeper):
    match = _pad_match(scorekeeper)
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    form = html[html.index('id="tally-form"') :].split("</form>")[0]
    for field in ('name="made-capicua"', 'name="made-pase"', 'name="made-pase-double"',
                  'name="made-paso-3"', 'name="made-locked"', 'name="out-0"'):  # fmt: skip
        assert field in form, field
    assert 'name="made-chuchazo"' not in form  # the Dominican style prices no chuchazo
    assert "(+25 after a double lead, +50 after any other)" in form
    assert 'href="/rules/domino-dominican/#parejas.capicua"' in form
    # Puerto Rico prices a chuchazo, no pase, and adds its tranque and hand bonuses itself.
    rico = _pad_match(scorekeeper, "domino-puerto-rican")
    html = scorekeeper.get(f"/matches/{rico.pk}/").content.decode()
    form = html[html.index('id="tally-form"') :].split("</form>")[0]
    assert 'name="made-chuchazo"' in form and 'name="made-pase"' not in form
    assert "a tranque&#x27;s winners +100" in form and "the hand bonus (100, 75, 50, 25)" in form
    spanish = scorekeeper.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Lo que hizo la mano" in spanish and "¿quién salió?" in spanish


def test_a_pad_round_with_a_capicúa_is_scored_as_the_style_says(scorekeeper):
    match = _pad_match(scorekeeper)
    # Ben dominoes with a capicúa after Ana's pase de salida (her lead not a double): Ana &
    # Caro 10 + 5 = 15 left, Caro once played again after three knocks.
    response = tap(scorekeeper, match, {
        "type": "tally", "out-1": "1", "pips-0": "10", "pips-2": "5", "pips-3": "8",
        "made-capicua": "1", "made-pase": "0", "made-paso-2": "1",
    })  # fmt: skip
    assert response.status_code == 200
    match.refresh_from_db()
    # Ben & Dan: 15 pips + capicúa 25; Ana & Caro: pase de salida 50 + paso corrido 25.
    assert list(match.totals) == [50, 40, 25, 0]
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "Capicúa! Ben &amp; Dan +25" in html
    assert "Pase de salida: +50 for Ana &amp; Caro" in html
    assert "Paso corrido: +25 for Ana &amp; Caro" in html
    assert "Ben leads the next hand." in html  # domino-dominican: the winner leads
    spanish = scorekeeper.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "¡Capicúa! Ben y Dan +25" in spanish
    assert "Pase de salida: +50 para Ana y Caro" in spanish
    actions = services.export_match(match)["rounds"][0]["actions"]
    assert actions[0]["made"] == [
        {"what": "capicua", "seat": 1}, {"what": "pase", "seat": 0},
        {"what": "paso-corrido", "seat": 2},
    ]  # fmt: skip


def test_a_refused_pad_round_changes_nothing_and_keeps_what_was_ticked(scorekeeper):
    match = _pad_match(scorekeeper)
    before = snapshot(match)
    # A capicúa in a tranque (nobody played out): parejas.capicua refuses it.
    response = tap(scorekeeper, match, {
        "type": "tally", "pips-0": "10", "pips-1": "9", "pips-2": "5", "pips-3": "8",
        "made-capicua": "1", "made-locked": "3", "made-pase": "2", "made-pase-double": "1",
        "made-paso-1": "2",
    })  # fmt: skip
    assert response.status_code == 422
    assert snapshot(match) == before
    html = response.content.decode()
    assert "parejas.capicua" in html and "Dan did not" in html
    form = html[html.index('id="tally-form"') :].split("</form>")[0]
    assert 'name="made-capicua" value="1" checked' in form
    assert 'name="made-locked" value="3" checked' in form
    assert 'name="made-pase" value="2" checked' in form
    assert 'name="made-pase-double" value="1" checked' in form
    assert (
        'name="made-paso-1" min="0" max="20" inputmode="numeric" placeholder="0" value="2"' in form
    )
    assert 'name="pips-0" min="0" max="999" inputmode="numeric" value="10"' in form


def test_a_pad_tranque_says_how_it_was_settled(scorekeeper):
    match = _pad_match(scorekeeper, tranque="locker")
    response = tap(scorekeeper, match, {
        "type": "tally", "pips-0": "6", "pips-1": "9", "pips-2": "8", "pips-3": "4",
        "made-locked": "3",
    })  # fmt: skip
    assert response.status_code == 200
    match.refresh_from_db()
    assert list(match.totals) == [0, 0, 0, 14]  # Dan's 4 beat Ana's 6: Ana's and Caro's pips
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "Tranque: Dan locked it with 4, Ana holds 6: Ben &amp; Dan win" in html
    assert 'href="/rules/domino-dominican/#parejas.tranque"' in html
    assert "Dan leads the next hand." in html


# -- at the table: the next leader and the hand's result --------------------------------------


def _played(scorekeeper, **options):
    document = {"format": "boneyard-match/1", "game": "domino-dominican", "options": options,
                "players": NAMES, "rounds": [{"actions": HAND}]}  # fmt: skip
    return keep(scorekeeper, services.import_match(document))


def _leaders(html: str) -> list[tuple[str, bool]]:
    seats = html[html.index("<legend>Who leads?</legend>") :].split("</fieldset>")[0]
    return re.findall(r'name="seat" value="(\d)" ?(checked)?', seats)


def test_the_winner_of_a_dominican_hand_leads_the_next_and_the_result_names_every_bonus(
    scorekeeper,
):
    match = _played(scorekeeper)
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert _leaders(html) == [("1", "checked")]  # Ben dominoed: Ben alone may lead
    assert "Ben leads: the winner of the last hand leads" in html
    assert 'href="/rules/domino-dominican/#parejas.lead"' in html
    result = html[html.index('class="result') :].split("</section>")[0]
    assert "Ben &amp; Dan win the hand: 64" in result  # 14 pips, a paso corrido, the capicúa
    # Every bonus of the hand, not only the tally's: the pase after Caro's 6-6, two pasos
    # corridos (Ana, then Ben) and Ben's capicúa, each with its rule.
    assert "Pase de salida: +25 for Ana &amp; Caro" in result
    assert "Paso corrido: +25 for Ana &amp; Caro" in result
    assert "Paso corrido: +25 for Ben &amp; Dan" in result
    assert "Capicúa! Ben &amp; Dan +25" in result
    assert 'href="/rules/domino-dominican/#parejas.capicua"' in result
    assert "Ben leads the next hand." in result
    spanish = scorekeeper.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Pase de salida: +25 para Ana y Caro" in spanish and "¡Capicúa! Ben y Dan +25" in spanish
    assert "En la mano siguiente sale Ben." in spanish


def test_winning_team_offers_the_pair_that_won_proposing_the_winner(scorekeeper):
    match = _played(scorekeeper, next_lead="winning-team")
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert _leaders(html) == [("1", "checked"), ("3", "")]
    assert "Ben or Dan leads: the pair that won the last hand leads." in html
    assert "Ben or Dan leads the next hand, as they choose." in html
    # Dan may lead, as the pair chooses; Ana may not (parejas.lead).
    assert tap(scorekeeper, match, {"type": "play", "seat": "0", "tile": "3-3"}).status_code == 422
    assert tap(scorekeeper, match, {"type": "play", "seat": "3", "tile": "4-4"}).status_code == 200


def test_the_next_seat_leads_in_the_international_style(scorekeeper):
    document = {"format": "boneyard-match/1", "game": "domino-international", "options": {},
                "players": NAMES, "rounds": [{"actions": HAND}]}  # fmt: skip
    match = keep(scorekeeper, services.import_match(document))
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert _leaders(html) == [("3", "checked")]  # Caro led the 6-6: Dan leads next
    assert "Dan leads: the seat after the last hand&#x27;s leader." in html


def test_a_pad_hand_fixed_opens_with_its_bonuses_ticked(scorekeeper):
    match = _pad_match(scorekeeper)
    tally = {"type": "tally", "out-1": "1", "pips-0": "10", "pips-2": "5", "pips-3": "8",
             "made-capicua": "1", "made-pase": "0", "made-pase-double": "1",
             "made-paso-2": "2"}  # fmt: skip
    assert tap(scorekeeper, match, tally).status_code == 200
    scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/0/")
    html = scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/0/replace/").content.decode()
    form = html[html.index('class="pad-made') :].split("</form>")[0]
    assert 'name="made-capicua" value="1" checked' in form
    assert 'name="made-pase" value="0" checked' in form
    assert 'name="made-pase-double" value="1" checked' in form
    assert re.search(r'name="made-paso-2"[^>]* value="2"', form)
    assert 'name="made-locked" value="" checked' in form


def test_a_tranque_by_the_pairs_counts_says_whose_count_is_whose(scorekeeper):
    match = _pad_match(scorekeeper)
    tally = {"type": "tally", "pips-0": "6", "pips-1": "9", "pips-2": "6", "pips-3": "10"}
    assert tap(scorekeeper, match, tally).status_code == 200
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "Tranque: Ana &amp; Caro 12, Ben &amp; Dan 19: Ana &amp; Caro win" in html
    spanish = scorekeeper.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Tranque: Ana y Caro 12, Ben y Dan 19: ganan Ana y Caro" in spanish
    assert "Ana y Caro ganan la mano: 19" in spanish
