"""A phone that said whose it is asks before recording a turn for another seat (issue 18,
"say whose turn it really is"): once per tap, inline, and nothing is recorded until it is
confirmed."""

from __future__ import annotations

import re

from scoring.models import Action

from .conftest import snapshot, tap

LEAD = {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}


def _is(client, match, seat: str) -> None:
    assert client.post(f"/matches/{match.pk}/seat/", {"seat": seat}).status_code == 302


def test_a_tap_for_another_seats_turn_is_asked_about_and_not_recorded(scorekeeper, draw_match):
    _is(scorekeeper, draw_match, "1")  # "This phone is Ben"
    before = snapshot(draw_match)
    response = tap(scorekeeper, draw_match, LEAD)  # Ana's lead
    html = response.content.decode()
    assert response.status_code == 200
    assert "This tap is for Ana, and this phone is Ben's." in html
    assert "Yes, Ana's" in html and 'id="table"' in html
    assert snapshot(draw_match) == before
    # The question carries the tap as it was chosen, and "yes" records it once.
    form = html[
        html.index('class="confirm-seat"') : html.index(
            "</form>", html.index('class="confirm-seat"')
        )
    ]
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    assert fields["tile"] == "6-6" and fields["for_seat"] == "0"
    for _ in range(2):  # a second "yes" is the same tap: recorded once
        assert scorekeeper.post(f"/matches/{draw_match.pk}/act/", fields).status_code in (302, 409)
    assert Action.objects.filter(round__match=draw_match).count() == 1


def test_a_tap_for_this_phones_own_seat_or_from_nobodys_phone_is_not_asked(
    scorekeeper, other_seat, draw_match
):
    _is(scorekeeper, draw_match, "0")
    assert "confirm-seat" not in tap(scorekeeper, draw_match, LEAD).content.decode()
    assert Action.objects.filter(round__match=draw_match).count() == 1
    # The default, nobody: records for every seat, as a scorekeeper does.
    draw = {"type": "draw", "seat": "1", "count": "1"}
    from .conftest import keep

    keep(other_seat, draw_match)
    assert "confirm-seat" not in tap(other_seat, draw_match, draw).content.decode()
    assert Action.objects.filter(round__match=draw_match).count() == 2


def test_a_muggins_call_or_the_tally_is_not_a_turn_and_is_not_asked(scorekeeper, db):
    from scoring import services

    from .conftest import keep

    match = keep(scorekeeper, services.create_match("muggins", ["Ana", "Ben"], {}))
    _is(scorekeeper, match, "1")
    response = tap(scorekeeper, match, LEAD, for_seat="0")
    assert response.status_code == 200 and "confirm-seat" not in response.content.decode()
    call = tap(scorekeeper, match, {"type": "muggins", "seat": "1"})
    assert "confirm-seat" not in call.content.decode()
