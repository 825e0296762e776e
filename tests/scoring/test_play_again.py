"""At the table (issue 19): Play again (the same players, seats, game and house rules in a new
match, in one tap from a finished one), and the lead of a later round starting on its seat."""

from __future__ import annotations

import re

from scoring import services
from scoring.models import Match

from .conftest import keep, tap, watch


def finish(match: Match) -> Match:
    """Play ``quick_block`` (one tile each, to 50) to its end: five leads that domino."""
    version = 0
    for n in range(5):
        services.record(
            match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, version, f"l-{n}-0000"
        )
        tally = {"type": "tally", "pips": {"0": 0, "1": 11}}
        services.record(match.pk, tally, version + 1, f"t-{n}-0000")
        version += 2
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    return match


def test_play_again_starts_the_same_match_anew_and_this_phone_keeps_it(scorekeeper, quick_block):
    finish(quick_block)
    page = scorekeeper.get(f"/matches/{quick_block.pk}/").content.decode()
    assert f'action="/matches/{quick_block.pk}/again/"' in page and "Play again" in page
    response = scorekeeper.post(f"/matches/{quick_block.pk}/again/")
    assert response.status_code == 302
    again = Match.objects.exclude(pk=quick_block.pk).get()
    assert response["Location"] == f"/matches/{again.pk}/"
    assert (again.game, again.options) == (quick_block.game, quick_block.options)
    seats = list(again.seats.order_by("number").values_list("player__name", flat=True))
    assert seats == ["Ana", "Ben"] and again.totals == [0, 0] and again.status == Match.PLAYING
    assert (
        "A new match with the same players"
        in scorekeeper.get(response["Location"]).content.decode()
    )


def test_only_a_keeper_of_a_finished_match_plays_again(scorekeeper, spectator, quick_block):
    assert scorekeeper.post(f"/matches/{quick_block.pk}/again/").status_code == 409  # playing
    finish(quick_block)
    watch(spectator, quick_block)
    assert "Play again" not in spectator.get(f"/matches/{quick_block.pk}/").content.decode()
    assert spectator.post(f"/matches/{quick_block.pk}/again/").status_code == 403
    assert Match.objects.count() == 1


def test_play_again_is_rate_limited_like_any_new_match(scorekeeper, quick_block, settings):
    finish(quick_block)
    settings.BONEYARD_RATE_LIMITS = {**settings.BONEYARD_RATE_LIMITS, "create": (1, 60)}
    assert scorekeeper.post(f"/matches/{quick_block.pk}/again/").status_code == 302
    keep(scorekeeper, quick_block)
    assert scorekeeper.post(f"/matches/{quick_block.pk}/again/").status_code == 429
    assert Match.objects.count() == 2


def test_a_later_rounds_lead_starts_on_the_seat_after_the_last_leader(scorekeeper, quick_block):
    # round.lead: the table chooses; the choice starts where tables pass the lead on.
    def checked(html: str) -> str:
        return re.search(r'name="seat" value="(\d)" checked', html)[1]

    assert checked(scorekeeper.get(f"/matches/{quick_block.pk}/").content.decode()) == "0"
    services.record(quick_block.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "lead-00000")
    tally = {"type": "tally", "pips": {"0": 0, "1": 11}}
    services.record(quick_block.pk, tally, 1, "tally-0000")
    assert checked(scorekeeper.get(f"/matches/{quick_block.pk}/").content.decode()) == "1"


def test_a_watching_phone_never_says_your_turn(scorekeeper, spectator, draw_match):
    tap(scorekeeper, draw_match, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    for phone in (scorekeeper, spectator):  # both say they are Ben, whose turn it is
        if phone is spectator:
            watch(spectator, draw_match)
        assert phone.post(f"/matches/{draw_match.pk}/seat/", {"seat": "1"}).status_code == 302
    assert "your turn" in scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert "your turn" not in spectator.get(f"/matches/{draw_match.pk}/").content.decode()


def test_the_home_page_names_the_winner_and_tells_matches_apart(scorekeeper, quick_block):
    finish(quick_block)
    again = keep(scorekeeper, services.create_match("block", ["Ana", "Ben"], {}))
    html = scorekeeper.get("/").content.decode()
    assert "55 – 0 · Ana won" in html
    assert f"#{quick_block.pk}, begun" in html and f"#{again.pk}, begun" in html
