"""Home, new match, summary and admin screens."""

from __future__ import annotations

import pytest

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
