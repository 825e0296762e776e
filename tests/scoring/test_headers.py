"""The strict content security policy and the other headers every page carries."""

from __future__ import annotations

from django.test import Client

from .conftest import keep


def test_pages_carry_a_strict_csp(scorekeeper, draw_match):
    response = scorekeeper.get(f"/matches/{draw_match.pk}/")
    policy = response["Content-Security-Policy"]
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_styles_or_scripts(scorekeeper, draw_match):
    for path in (
        "/",
        "/matches/new/",
        f"/matches/{draw_match.pk}/",
        f"/matches/{draw_match.pk}/summary/",
    ):
        html = scorekeeper.get(path).content.decode()
        assert " style=" not in html and "<style" not in html
        assert "<script>" not in html  # only <script src=...>


def test_htmx_is_configured_without_injected_styles(scorekeeper, db):
    html = scorekeeper.get("/").content.decode()
    assert '"includeIndicatorStyles": false' in html
    assert "htmx" in html and ".js" in html


def test_every_post_needs_the_csrf_token(draw_match):
    phone = Client(enforce_csrf_checks=True)
    keep(phone, draw_match)
    for path in ("act/", "seat/", "links/"):
        response = phone.post(f"/matches/{draw_match.pk}/{path}", {"type": "undo", "seat": "0"})
        assert response.status_code == 403, path
    for path in ("/matches/new/", "/matches/import/"):
        assert phone.post(path, {"game": "draw"}).status_code == 403, path
