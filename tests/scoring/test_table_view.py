"""The table screen and its action endpoint."""

from __future__ import annotations

import pytest

from scoring.models import Action

from .conftest import form_fields, keep, snapshot, tap


def test_the_table_shows_layout_picker_and_scoreboard(scorekeeper, draw_match):
    page = scorekeeper.get(f"/matches/{draw_match.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="table"' in html and "Who leads?" in html
    assert html.count('name="tile"') == 28
    for name in ("Ana", "Ben", "Caro"):
        assert name in html


def test_an_htmx_play_answers_with_the_table_fragment(scorekeeper, draw_match):
    response = tap(
        scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="table"' in html and "<html" not in html
    assert "Ana led 6-6" in html
    assert 'class="count' not in html  # Draw scores no count, so none is shown
    done = '<p class="notice done turn-top" role="status" id="done">Recorded: Ana led 6-6.</p>'
    assert done in html
    # The page then shows the top of the turn, below the score strip (issue 28).
    assert response["HX-Reswap"] == "outerHTML show:.turn-top:top"


def test_a_poll_answer_leaves_the_view_where_it_is(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    response = scorekeeper.get(f"/matches/{draw_match.pk}/poll/?version=0", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="table"' in response.content.decode()
    assert "HX-Reswap" not in response


def test_without_javascript_a_play_redirects_back_to_the_table(scorekeeper, draw_match):
    data = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
    response = tap(scorekeeper, draw_match, data, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{draw_match.pk}/"
    assert Action.objects.count() == 1


def test_a_two_tap_play_on_an_end(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "2", "tile": "5-5", "target": "lead"})
    response = tap(
        scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "5-3", "target": "5-5/side"}
    )
    assert response.status_code == 200
    assert "Ana played 5-3 on 5-5" in response.content.decode()


def test_a_stale_form_gets_409_the_fresh_table_and_what_happened(scorekeeper, draw_match):
    old = form_fields(scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode())
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    before = snapshot(draw_match)
    response = scorekeeper.post(
        f"/matches/{draw_match.pk}/act/",
        {**old, "type": "play", "seat": "1", "tile": "4-4", "target": "lead"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert "Ana led 6-6 meanwhile; your tap was not recorded" in html
    assert 'id="table"' in html
    assert snapshot(draw_match) == before


def test_a_double_tap_records_once(scorekeeper, draw_match):
    fields = form_fields(scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode())
    data = {**fields, "type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
    first = scorekeeper.post(f"/matches/{draw_match.pk}/act/", data, HTTP_HX_REQUEST="true")
    second = scorekeeper.post(f"/matches/{draw_match.pk}/act/", data, HTTP_HX_REQUEST="true")
    assert (first.status_code, second.status_code) == (200, 200)
    assert Action.objects.count() == 1


def test_an_illegal_play_gets_422_with_the_rule_and_changes_nothing(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    before = snapshot(draw_match)
    response = tap(
        scorekeeper, draw_match, {"type": "play", "seat": "1", "tile": "5-4", "target": "6-6/side"}
    )
    html = response.content.decode()
    assert response.status_code == 422
    assert "line.attach" in html and "5-4 does not fit on 6-6" in html
    assert snapshot(draw_match) == before


def test_a_knock_while_tiles_can_be_drawn_is_refused(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    page = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert (
        "Ben cannot knock while 13 tiles can still be drawn" in page
    )  # shown on the disabled button
    response = tap(scorekeeper, draw_match, {"type": "pass", "seat": "1"})
    assert response.status_code == 422
    assert "draw.must-draw" in response.content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "seat": "0", "tile": "x-y", "target": "lead"},
        {"type": "play", "seat": "0", "target": "lead"},
        {"type": "play", "seat": "zero", "tile": "6-6", "target": "lead"},
        {"type": "play", "seat": "0", "tile": "6-6", "target": "9-9/side"},
        {"type": "play", "seat": "0", "tile": "6-6", "target": "6-6/sideways"},
        {"type": "draw", "seat": "0", "count": "-3"},
        {"type": "tally"},
        {"type": "launch"},
        {},
    ],
)
def test_tampered_posts_get_a_clear_400_and_change_nothing(scorekeeper, draw_match, data):
    before = snapshot(draw_match)
    response = tap(scorekeeper, draw_match, data)
    assert response.status_code in (400, 422)
    assert 'role="alert"' in response.content.decode()
    assert snapshot(draw_match) == before


@pytest.mark.parametrize("version", ["", "abc", "-1", "99", "1" * 30])
def test_a_bad_version_changes_nothing(scorekeeper, draw_match, version):
    before = snapshot(draw_match)
    data = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}
    response = tap(scorekeeper, draw_match, data, version=version)
    assert response.status_code in (400, 409)
    assert snapshot(draw_match) == before


def test_unknown_matches_are_404(scorekeeper, db):
    assert scorekeeper.get("/matches/999/").status_code == 404
    assert scorekeeper.post("/matches/999/act/", {"type": "undo"}).status_code == 404


def test_the_act_endpoint_only_takes_posts(scorekeeper, draw_match):
    assert scorekeeper.get(f"/matches/{draw_match.pk}/act/").status_code == 405


def test_the_tally_scores_the_round_and_shows_the_result(scorekeeper, quick_block):
    tap(scorekeeper, quick_block, {"type": "play", "seat": "1", "tile": "3-3", "target": "lead"})
    page = scorekeeper.get(f"/matches/{quick_block.pk}/").content.decode()
    assert "tally the hands" in page and 'name="hand-0"' in page and 'name="hand-1"' not in page
    response = tap(scorekeeper, quick_block, {"type": "tally", "hand-0": ["6-5"]})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ben wins" in html and '<strong class="total">11</strong>' in html


def test_a_tally_with_the_wrong_number_of_tiles_is_refused(scorekeeper, quick_block):
    tap(scorekeeper, quick_block, {"type": "play", "seat": "1", "tile": "3-3", "target": "lead"})
    before = snapshot(quick_block)
    response = tap(scorekeeper, quick_block, {"type": "tally", "hand-0": ["6-5", "6-4"]})
    assert response.status_code == 422
    assert "Ana should hold 1 tile, not 2" in response.content.decode()
    assert snapshot(quick_block) == before


def test_a_tally_by_pips(scorekeeper, quick_block):
    tap(scorekeeper, quick_block, {"type": "play", "seat": "0", "tile": "3-3", "target": "lead"})
    response = tap(scorekeeper, quick_block, {"type": "tally", "pips-1": "7"})
    assert response.status_code == 200
    quick_block.refresh_from_db()
    assert quick_block.totals == [7, 0]


def test_user_text_is_escaped(scorekeeper, db):
    from scoring import services

    match = keep(
        scorekeeper, services.create_match("block", ["<script>alert(1)</script>", "Ben"], {})
    )
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_refused_tally_keeps_what_was_tapped(scorekeeper, quick_block):
    tap(scorekeeper, quick_block, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    response = tap(scorekeeper, quick_block, {"type": "tally", "hand-1": ["5-4", "3-3"]})
    html = response.content.decode()
    assert response.status_code == 422 and "hand.count" in html
    assert 'name="hand-1" value="5-4" checked' in html and 'value="3-3" checked' in html
    assert 'name="hand-1" value="2-2">' in html


def test_the_log_shows_the_latest_lines_numbered_as_in_the_round(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    for _ in range(7):
        tap(scorekeeper, draw_match, {"type": "draw", "seat": "1", "count": "1"})
        tap(scorekeeper, draw_match, {"type": "undo"})
    html = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    # Each draw was taken back, and its line says so where it stands.
    assert '<ol reversed start="15">' in html
    assert html.count('<span class="said">Ben drew a tile · taken back<') == 6
    assert "and 3 earlier." in html and "Ana led 6-6" not in html


def test_a_play_taken_back_never_reads_as_if_it_stood(scorekeeper, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    tap(scorekeeper, draw_match, {"type": "play", "seat": "1", "tile": "6-0", "target": "6-6"})
    tap(scorekeeper, draw_match, {"type": "undo"})
    html = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert '"said">Taken back: Ben played 6-0 on 6-6</span>' in html
    assert '"said">Ben played 6-0 on 6-6 · taken back</span>' in html
    assert '"said">Ben played 6-0 on 6-6</span>' not in html
