"""The record service: one transaction, one version, one record per key."""

from __future__ import annotations

import pytest

from referee import IllegalAction, InvalidAction
from scoring import services
from scoring.models import Action, Match, Round

from .conftest import snapshot


def play(seat, tile, on=None):
    data = {"type": "play", "seat": seat, "tile": tile}
    if on:
        data["on"] = on
    return data


def test_it_records_an_action_and_bumps_the_version(draw_match):
    assert services.record(draw_match.pk, play(0, "6-6"), 0, "k" * 16) is True
    draw_match.refresh_from_db()
    assert draw_match.version == 1
    action = Action.objects.get()
    assert (action.round.number, action.seq, action.kind) == (1, 0, "play")
    assert action.payload == {"type": "play", "seat": 0, "tile": "6-6"}


def test_it_rejects_a_stale_version_and_says_what_happened(draw_match):
    services.record(draw_match.pk, play(0, "6-6"), 0, "a" * 16)
    before = snapshot(draw_match)
    with pytest.raises(services.Stale) as stale:
        services.record(draw_match.pk, play(1, "6-5", "6-6"), 0, "b" * 16)
    assert "Ana led 6-6" in stale.value.message
    assert "not recorded" in stale.value.message
    assert snapshot(draw_match) == before


def test_a_repeated_key_records_once(draw_match):
    assert services.record(draw_match.pk, play(0, "6-6"), 0, "same-key-123") is True
    # The retry carries the old version too: it must be recognised, not refused as stale.
    assert services.record(draw_match.pk, play(0, "6-6"), 0, "same-key-123") is False
    assert Action.objects.count() == 1
    draw_match.refresh_from_db()
    assert draw_match.version == 1


def test_an_illegal_action_changes_nothing(draw_match):
    services.record(draw_match.pk, play(0, "6-6"), 0, "a" * 16)
    before = snapshot(draw_match)
    with pytest.raises(IllegalAction) as error:
        services.record(draw_match.pk, play(1, "5-4", "6-6"), 1, "b" * 16)
    assert error.value.rule == "line.attach"
    assert snapshot(draw_match) == before


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "seat": 0, "tile": "7-x"},
        {"type": "play", "seat": -1, "tile": "6-6"},
        {"type": "fly", "seat": 0},
        {"type": "draw"},
        {"seat": 0},
    ],
)
def test_malformed_actions_change_nothing(draw_match, data):
    before = snapshot(draw_match)
    with pytest.raises(InvalidAction):
        services.record(draw_match.pk, data, 0, "c" * 16)
    assert snapshot(draw_match) == before


def test_a_foreign_seat_is_refused(draw_match):
    with pytest.raises(IllegalAction) as error:
        services.record(draw_match.pk, play(5, "6-6"), 0, "d" * 16)
    assert error.value.rule == "seat.order"
    assert Action.objects.count() == 0


@pytest.mark.parametrize("key", ["", "short", "x" * 65, None])
def test_a_missing_or_odd_key_is_refused(draw_match, key):
    with pytest.raises(InvalidAction):
        services.record(draw_match.pk, play(0, "6-6"), 0, key)
    assert Action.objects.count() == 0


def test_an_unknown_match_is_reported(db):
    with pytest.raises(Match.DoesNotExist):
        services.record(999, play(0, "6-6"), 0, "e" * 16)


def test_a_tally_closes_the_round_and_the_next_action_opens_the_next(quick_block):
    services.record(quick_block.pk, play(0, "6-6"), 0, "r1-lead-000")
    services.record(
        quick_block.pk, {"type": "tally", "hands": {"0": [], "1": ["6-5"]}}, 1, "r1-tally-00"
    )
    quick_block.refresh_from_db()
    assert quick_block.totals == [11, 0]
    assert Round.objects.get(number=1).result["winner"] == 0
    services.record(quick_block.pk, play(1, "4-4"), 2, "r2-lead-000")
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]


def test_undo_of_a_tally_reopens_the_round(quick_block):
    services.record(quick_block.pk, play(0, "6-6"), 0, "u-lead-0000")
    services.record(quick_block.pk, {"type": "tally", "pips": {"0": 0, "1": 9}}, 1, "u-tally-000")
    services.record(quick_block.pk, {"type": "undo"}, 2, "u-undo-0000")
    quick_block.refresh_from_db()
    assert quick_block.totals == [0, 0]
    assert Round.objects.get(number=1).result is None
    table = services.load_table(quick_block)
    assert table.state.is_over and table.state.result is None
    assert [a.points for a in Action.objects.order_by("seq")] == [[], [9, 0], [-9, 0]]


def test_the_match_ends_at_the_target_and_refuses_more_plays(quick_block):
    version = 0
    for n in range(5):
        services.record(quick_block.pk, play(0, "6-6"), version, f"lead-{n}-000")
        services.record(
            quick_block.pk,
            {"type": "tally", "pips": {"0": 0, "1": 11}},
            version + 1,
            f"tally-{n}-00",
        )
        version += 2
    quick_block.refresh_from_db()
    assert quick_block.status == Match.FINISHED
    assert quick_block.winner == 0 and quick_block.totals == [55, 0]
    with pytest.raises(IllegalAction):
        services.record(quick_block.pk, play(1, "5-5"), version, "after-the-end")
    assert quick_block.rounds.count() == 5


def test_the_kept_replay_is_the_fresh_replay(db, django_capture_on_commit_callbacks):
    match = services.create_match("muggins", ["Ana", "Ben"], {"hand_size": 2})
    taps = [
        play(0, "5-5"), {"type": "declare", "seat": 0, "points": 5}, {"type": "muggins", "seat": 1},
        play(1, "5-0", "5-5"), {"type": "undo"}, play(1, "5-4", "5-5"),
        play(0, "4-4", "5-4"), {"type": "tally", "pips": {"1": 3}}, play(1, "6-6"),
    ]  # fmt: skip
    for version, data in enumerate(taps):
        with django_capture_on_commit_callbacks(execute=True):
            assert services.record(match.pk, data, version, f"kept-{version:04d}")
        match.refresh_from_db()
        kept = services.load_table(match)
        services.forget_replays()
        fresh = services.load_table(match)
        assert kept.state == fresh.state and kept.number == fresh.number
        assert kept.played.points == fresh.played.points
        assert kept.played.worths == fresh.played.worths
        assert [r.pk for r in kept.rows] == [r.pk for r in fresh.rows]
    assert services.verify(match) == []


def test_a_rolled_back_tap_leaves_no_replay_behind(draw_match, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.record(draw_match.pk, play(0, "6-6"), 0, "rolled-back-1")
    # The replay is kept only once the transaction commits (beside the live announcement).
    assert len([c for c in callbacks if c.__qualname__.startswith("record.")]) == 1
