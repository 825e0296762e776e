"""Home, new match, summary and admin screens."""

from __future__ import annotations

import json
import struct
from urllib.parse import urljoin

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.test import Client
from django.utils.functional import empty

from scoring import services
from scoring.models import Match, Player

NEW = {
    "game": "draw",
    "player-0": "Ana",
    "player-1": "Ben",
    "player-2": "Caro",
    "draw.sides_first": "on",
}


def test_home_lists_matches_in_progress_and_finished(scorekeeper, draw_match, quick_block):
    Match.objects.filter(pk=quick_block.pk).update(status=Match.FINISHED, winner=0)
    html = scorekeeper.get("/").content.decode()
    assert "In progress" in html and "Finished" in html
    assert html.index(f"/matches/{draw_match.pk}/") < html.index("Finished")
    assert html.index(f"/matches/{quick_block.pk}/") > html.index("Finished")


def test_new_match_creates_with_the_rulebook_defaults(scorekeeper, db):
    response = scorekeeper.post("/matches/new/", NEW)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.options["target"] == 100 and match.options["draw_until"] == "playable"
    assert [s.player.name for s in match.seats.all()] == ["Ana", "Ben", "Caro"]


def test_new_match_takes_house_rules(scorekeeper, db):
    scorekeeper.post(
        "/matches/new/",
        {**NEW, "draw.target": "150", "draw.set": "9", "draw.one_end_doubles": "on"},
    )
    options = Match.objects.get().options
    assert (options["target"], options["set"], options["one_end_doubles"]) == (150, 9, True)


def test_new_match_suggests_names_from_earlier_matches(scorekeeper, draw_match):
    html = scorekeeper.get("/matches/new/").content.decode()
    assert '<option value="Caro">' in html


def test_players_are_reused_across_matches(scorekeeper, draw_match):
    scorekeeper.post("/matches/new/", {**NEW, "player-0": "ana"})
    assert Player.objects.filter(name__iexact="ana").count() == 1


@pytest.mark.parametrize(
    "change",
    [
        {"game": "chess"},
        {"player-1": "", "player-2": ""},
        {"player-1": "ANA"},
        {"draw.target": "77"},
        {"draw.spinners": "some"},
        {"draw.set": "seven"},
        {"player-3": "Dan", "player-4": "Eve", "player-5": "Fay"},
        {"player-0": "x" * 41},
    ],
)
def test_bad_new_match_forms_explain_and_create_nothing(scorekeeper, db, change):
    response = scorekeeper.post("/matches/new/", {**NEW, **change})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert Match.objects.count() == 0


def test_summary_shows_rounds_totals_and_winner(scorekeeper, quick_block):
    version = 0
    for n in range(5):
        services.record(
            quick_block.pk, {"type": "play", "seat": 1, "tile": "6-6"}, version, f"l{n}-0000000"
        )
        services.record(
            quick_block.pk,
            {"type": "tally", "pips": {"0": 10, "1": 0}},
            version + 1,
            f"t{n}-0000000",
        )
        version += 2
    html = scorekeeper.get(f"/matches/{quick_block.pk}/summary/").content.decode()
    assert "Ben wins the match" in html
    assert html.count("+10") == 5
    assert "<th>50</th>" in html


def test_admin_shows_the_models(admin_client, draw_match):
    for path in (
        "/admin/scoring/match/",
        f"/admin/scoring/match/{draw_match.pk}/change/",
        "/admin/scoring/action/",
        "/admin/scoring/player/",
        "/admin/scoring/round/",
    ):
        assert admin_client.get(path).status_code == 200


def test_the_admin_cannot_rewrite_what_the_log_decides(admin_client, draw_match):
    services.record(draw_match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "admin-lead-1")
    html = admin_client.get(f"/admin/scoring/match/{draw_match.pk}/change/").content.decode()
    assert 'name="version"' not in html and 'name="totals"' not in html
    action = draw_match.rounds.get().actions.get()
    assert admin_client.get(f"/admin/scoring/action/{action.pk}/delete/").status_code == 403


# --- Installable: the web app manifest and the icons -----------------------------------

MANIFEST = "/manifest.webmanifest"


def served(client: Client, url: str) -> tuple[str, bytes]:
    """The content type and body of a static file (WhiteNoise answers with a stream)."""
    response = client.get(url)
    assert response.status_code == 200, url
    return response["Content-Type"], b"".join(response.streaming_content)


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


def test_every_page_links_the_manifest_the_icons_and_both_theme_colours(client, db):
    html = client.get("/").content.decode()
    assert f'<link rel="manifest" href="{MANIFEST}">' in html
    assert 'name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)"' in html
    assert 'name="theme-color" content="#212428" media="(prefers-color-scheme: dark)"' in html
    assert '<link rel="icon" href="/static/icons/icon.svg" type="image/svg+xml">' in html
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in html
    assert 'href="data:,"' not in html


def test_the_manifest_is_served_as_one_and_its_icons_resolve(client, db):
    response = client.get(MANIFEST)
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (manifest["name"], manifest["start_url"], manifest["scope"]) == ("Boneyard", "/", "/")
    assert manifest["display"] == "standalone" and manifest["short_name"]
    purposes = set()
    for icon in manifest["icons"]:
        # Static URLs, hashed under `make serve`.
        assert icon["src"].startswith("/static/icons/")
        content_type, body = served(client, urljoin(MANIFEST, icon["src"]))
        assert content_type == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(body)
            assert icon["sizes"] == f"{width}x{height}"
        purposes.add(icon["purpose"])
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes and purposes == {"any", "maskable"}
    content_type, body = served(client, "/static/icons/apple-touch-icon.png")
    assert content_type == "image/png" and png_size(body) == (180, 180)


def test_the_manifest_names_the_hashed_icons_collectstatic_writes(tmp_path, settings, db):
    """`make serve` serves hashed static files: the manifest's icons must be those."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    staticfiles_storage._wrapped = empty  # the storage reads the manifest just written
    try:
        manifest = json.loads(Client().get(MANIFEST).content)
    finally:
        staticfiles_storage._wrapped = empty
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix(settings.STATIC_URL)
        assert name.split("/")[-1].count(".") == 2, name  # icon-192.<hash>.png
        assert (tmp_path / name).is_file(), name


def test_the_manifest_speaks_the_phones_language(client, db):
    manifest = json.loads(client.get(MANIFEST, HTTP_ACCEPT_LANGUAGE="es").content)
    assert manifest["lang"] == "es" and manifest["name"] == "Boneyard"
    assert "dominó" in manifest["description"]
