"""Issue 17's defects, each held by a regression test (SQLite and PostgreSQL): a key names
one intended action, bad text is refused at the edge, a shut-out phone sees nothing of the
match, new links are one atomic change, and nothing leaks a stranger's names or a token."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.http import QueryDict
from django.test import Client

from scoring import services
from scoring.forms import action_from_post
from scoring.models import Action, Match, Player, Position

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


def test_the_apps_dice_and_coin_follow_nothing_a_phone_sends(db):
    # Issue 28, defect 5: they followed the tap's key, so the desk, which rolls for any key
    # without recording, told a player in advance what a key would roll at the table.
    roll = _sent(type="roll", seat="0", count="4", key="one-tap-key-1")
    assert len({tuple(action_from_post(roll, 2)["dice"]) for _ in range(8)}) > 1
    flip = _sent(type="flip", seat="0", other="1", key="one-tap-key-1")
    assert len({action_from_post(flip, 2, "truck")["first"] for _ in range(40)}) == 2


# --- 3. Bad text is refused at the edge, with a message, and changes nothing -------------

NOT_TEXT = ["A\x00na", "Ana\x1b[31m"]
DOCUMENT = '{"format": "boneyard-match/1", "game": "draw", "players": ["%s", "Ben"], "rounds": []}'


@pytest.mark.parametrize("name", NOT_TEXT)
def test_a_name_that_is_not_text_is_refused(scorekeeper, name):
    response = scorekeeper.post(
        "/matches/new/", {"game": "draw", "player-0": name, "player-1": "B"}
    )
    assert response.status_code == 400
    assert "not text" in response.content.decode()
    assert not Match.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800", "\\udfff", "\\u001b"])
def test_a_document_holding_no_text_is_refused_when_pasted_uploaded_or_imported(
    scorekeeper, escape, tmp_path
):
    text = DOCUMENT % f"A{escape}na"
    response = scorekeeper.post("/referee/", {"pasted": text})
    assert response.status_code == 400
    assert (
        "the document → players → 0 holds something that is not text" in response.content.decode()
    )
    upload = SimpleUploadedFile("m.json", text.encode(), "application/json")
    response = scorekeeper.post("/referee/", {"document": upload})
    assert response.status_code == 400
    upload = SimpleUploadedFile("m.json", text.encode(), "application/json")
    assert scorekeeper.post("/matches/import/", {"document": upload}).status_code == 302
    assert not Position.objects.exists() and not Match.objects.exists()
    path = tmp_path / "m.json"
    path.write_text(text)
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_match", str(path), stderr=err)
    assert exit_.value.code == 2
    assert "not text" in err.getvalue()
    assert not Match.objects.exists()


def test_a_taps_key_that_is_not_text_is_refused_in_place(scorekeeper, draw_match):
    version, _ = _first_key(scorekeeper, draw_match)
    before = snapshot(draw_match)
    form = {"type": "draw", "seat": "0", "version": version, "key": "abc\x00defghij"}
    response = scorekeeper.post(f"/matches/{draw_match.pk}/act/", form, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert response["HX-Reswap"] == "none"  # the table on screen stays as it was
    said = json.loads(response["HX-Trigger"])["boneyard:refused"]["message"]
    assert "not text" in said  # shown in the page's connection notice
    assert snapshot(draw_match) == before


def test_a_form_in_another_charset_is_refused_with_a_message_not_a_500(db):
    phone = Client(enforce_csrf_checks=True, raise_request_exception=False)
    phone.get("/referee/")
    response = phone.post(
        "/referee/",
        data=b"pasted=caf%E9",
        content_type="application/x-www-form-urlencoded; charset=latin-1",
        HTTP_X_CSRFTOKEN=phone.cookies["csrftoken"].value,
    )
    assert response.status_code == 400
    assert "sent as UTF-8" in response.content.decode()


def test_a_ten_megabyte_paste_gets_the_apps_own_message(scorekeeper):
    response = scorekeeper.post("/referee/", {"pasted": "x" * (10 * 1024 * 1024)})
    assert response.status_code == 413
    html = response.content.decode()
    assert "too much for one form" in html and "<h1>" in html  # the app's page, styled
    assert not Position.objects.exists()


def test_a_paste_over_512_kb_is_too_large_for_a_document(scorekeeper):
    response = scorekeeper.post("/referee/", {"pasted": '{"format": "%s"}' % ("x" * 600 * 1024)})
    assert response.status_code == 400
    assert "too large for a match document" in response.content.decode()


# --- 4. A shut-out phone sees nothing of the match ---------------------------------------


def test_a_phone_shut_out_by_new_links_no_longer_sees_the_match_listed(
    scorekeeper, other_seat, draw_match
):
    keep(other_seat, draw_match)
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    ana = Player.objects.get(name="Ana")
    assert f"/matches/{draw_match.pk}/" in other_seat.get("/").content.decode()
    assert f"/matches/{draw_match.pk}/" in other_seat.get(f"/players/{ana.pk}/").content.decode()
    assert scorekeeper.post(f"/matches/{draw_match.pk}/links/").status_code == 302
    for page in ("/", f"/players/{ana.pk}/"):
        html = other_seat.get(page).content.decode()
        assert f"/matches/{draw_match.pk}/" not in html, page
    assert "Ana" not in _suggested_names(other_seat)
    assert f"/matches/{draw_match.pk}/" in scorekeeper.get("/").content.decode()


# --- 5. New links are one atomic change ---------------------------------------------------


def test_of_two_keepers_making_new_links_at_once_one_wins_and_the_other_is_told(draw_match):
    held = draw_match.keep_token
    first = services.new_links(Match.objects.get(pk=draw_match.pk), held)
    second = services.new_links(Match.objects.get(pk=draw_match.pk), held)
    assert first is not None and second is None
    draw_match.refresh_from_db()
    assert (draw_match.keep_token, draw_match.watch_token) == (
        first.keep_token,
        first.watch_token,
    )


def test_the_keeper_who_lost_the_race_is_told_not_locked_out_unawares(
    scorekeeper, draw_match, monkeypatch
):
    # The other keeper's links land between this phone's check and its change.
    real = services.new_links

    def raced(match, held):
        real(Match.objects.get(pk=match.pk), held)
        return real(match, held)

    monkeypatch.setattr(services, "new_links", raced)
    response = scorekeeper.post(f"/matches/{draw_match.pk}/links/", follow=True)
    assert "Another phone made new links a moment ago" in response.content.decode()
    assert "New links made" not in response.content.decode()


# --- 7. Privacy ---------------------------------------------------------------------------


def _suggested_names(client) -> list[str]:
    html = client.get("/matches/new/").content.decode()
    block = html[html.index('id="known-names"') : html.index("</datalist>")]
    return re.findall(r'<option value="([^"]*)">', block)


def test_the_new_match_form_suggests_only_names_from_this_phones_matches(scorekeeper, stranger):
    keep(scorekeeper, services.create_match("draw", ["Ana", "Ben"], {}))
    services.create_match("draw", ["Secret", "Private"], {})  # another table's match
    assert _suggested_names(scorekeeper) == ["Ana", "Ben"]
    assert _suggested_names(stranger) == []


@pytest.mark.parametrize("logger", ["django.request", "django.server"])
def test_no_token_is_written_to_the_log(logger, db, draw_match):
    token = draw_match.keep_token
    # What Django logs on a 404 of a join link, and runserver on every request.
    line = f"/matches/{draw_match.pk}/join/{token}/"
    record = logging.LogRecord(logger, logging.WARNING, __file__, 1, "Not Found: %s", (line,), None)
    handlers = logging.getLogger(logger).handlers or logging.getLogger("django").handlers
    assert handlers
    for handler in handlers:
        assert handler.filter(record)
        written = handler.format(record)
        assert token not in written and "/join/[token hidden]/" in written


# --- 8. exact_target follows the Fives and Threes mode, also from the new-match form ------


@pytest.mark.parametrize(
    ("mode", "chosen", "exact"),
    [("pub", "", True), ("face", "", False), ("face-each", "", False), ("face", "on", True),
     ("pub", "off", False)],
)  # fmt: skip
def test_the_new_match_form_leaves_exact_target_to_the_mode(scorekeeper, mode, chosen, exact):
    game = "fives-and-threes"
    form = {"game": game, "player-0": "Ana", "player-1": "Ben",
            f"{game}.threes_scoring": mode, f"{game}.exact_target": chosen}  # fmt: skip
    assert scorekeeper.post("/matches/new/", form).status_code == 302
    assert Match.objects.get().options["exact_target"] is exact


# --- 2. A round holds what a real round can hold; the caches weigh what they hold --------


def test_a_tap_past_the_longest_real_round_is_refused_and_changes_nothing(scorekeeper, db):
    lead = [{"type": "play", "seat": 0, "tile": "6-6"}]
    churn = [{"type": "play", "seat": 1, "tile": "6-5", "on": "6-6"}, {"type": "undo"}] * 189
    document = {"format": "boneyard-match/1", "game": "draw", "players": ["Ana", "Ben", "Caro"],
                "rounds": [{"actions": lead + churn + [{"type": "draw", "seat": 1}]}]}  # fmt: skip
    match = keep(scorekeeper, services.import_match(document))  # 380 entries: the most
    before = snapshot(match)
    response = tap(scorekeeper, match, {"type": "draw", "seat": "1"})
    assert response.status_code == 400
    assert "already holds 380 entries" in response.content.decode()
    assert snapshot(match) == before


def test_the_caches_keep_what_their_budget_of_actions_allows(db):
    from scoring.caches import WeighedCache

    kept = WeighedCache(budget=100)
    for n in range(10):
        kept.put(n, f"replay {n}", weight=30)
    assert kept.weight <= 100 and len(kept) == 3
    assert [kept.get(n) for n in (7, 8, 9)] == ["replay 7", "replay 8", "replay 9"]
    kept.put("huge", "a round of thousands", weight=101)
    assert "huge" not in kept and len(kept) == 3
    kept.get(7)  # used: kept longer than 8 and 9
    kept.put("new", "replay", weight=30)
    assert 7 in kept and 8 not in kept


def test_a_desk_position_not_asked_about_for_thirty_days_is_gone(scorekeeper, db):
    from datetime import timedelta

    from django.utils import timezone

    text = '{"format": "boneyard-match/1", "game": "draw", "players": ["Ana", "Ben"], "rounds": []}'
    response = scorekeeper.post("/referee/", {"pasted": text})
    assert response.status_code == 302
    url = response["Location"]
    assert scorekeeper.get(url).status_code == 200
    Position.objects.update(kept_at=timezone.now() - timedelta(days=31))
    assert scorekeeper.get(url).status_code == 404
    # Kept again: the same link works again, and stale positions are cleared on the way.
    assert scorekeeper.post("/referee/", {"pasted": text})["Location"] == url
    assert scorekeeper.get(url).status_code == 200 and Position.objects.count() == 1


def test_opening_positions_at_the_desk_is_rate_limited(scorekeeper, db, settings):
    settings.BONEYARD_RATE_LIMITS = {**settings.BONEYARD_RATE_LIMITS, "desk": (2, 60)}
    text = '{"format": "boneyard-match/1", "game": "draw", "players": ["Ana", "Ben"], "rounds": []}'
    url = scorekeeper.post("/referee/", {"pasted": text})["Location"]
    assert [scorekeeper.get(url).status_code for _ in range(3)] == [200, 200, 429]
