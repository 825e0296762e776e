"""manage.py verify_matches: every stored match replays to what is stored, or it says where not."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from scoring import services
from scoring.models import Action, Match, Round

from .test_export_import import MUGGINS, THREES


@pytest.fixture
def matches(db) -> list[Match]:
    return [services.import_match(MUGGINS), services.import_match(THREES)]


def test_a_consistent_database_has_no_inconsistency(matches, capsys):
    call_command("verify_matches")
    assert "checked 2 matches, 10 actions: 0 inconsistencies" in capsys.readouterr().out


def corrupt_points(match: Match) -> None:
    row = Action.objects.get(round__match=match, round__number=1, seq=2)
    row.points = [0, 0, 50]
    row.save()


def corrupt_payload(match: Match) -> None:
    row = Action.objects.get(round__match=match, round__number=1, seq=3)
    row.payload = {**row.payload, "tile": "4-1"}  # 4-1 does not fit on 5-5
    row.save()


def corrupt_totals(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(totals=[99, 0, 0])


def corrupt_result(match: Match) -> None:
    Round.objects.filter(match=match, number=1).update(result=None)


def lose_an_action(match: Match) -> None:
    Action.objects.filter(round__match=match, round__number=1, seq=1).delete()


@pytest.mark.parametrize(
    ("which", "corrupt", "words"),
    [
        (0, corrupt_points, "round 1, action 3: stored points [0, 0, 50], replayed [0, 0, 5]"),
        (0, corrupt_payload, "round 1, action 4: line.attach: 4-1 does not fit on 5-5"),
        (0, corrupt_totals, "stored totals [99, 0, 0], replayed [10, 10, 5]"),
        (1, corrupt_result, "round 1: stored result None, replayed"),
        (0, lose_an_action, "round 1: action numbers [0, 2, 3, 4, 5, 6, 7] are not 0, 1, ..."),
    ],
)
def test_a_corrupted_row_is_named_and_fails_the_command(matches, capsys, which, corrupt, words):
    corrupt(matches[which])
    with pytest.raises(CommandError) as failed:
        call_command("verify_matches")
    assert "inconsistenc" in str(failed.value) and not str(failed.value).endswith(
        ": 0 inconsistencies"
    )
    errors = capsys.readouterr().err
    assert f"match {matches[which].pk}: " in errors and words in errors
    assert f"match {matches[1 - which].pk}:" not in errors


def test_a_match_played_on_through_every_read_is_not_checked_rather_than_flagged(
    matches, capsys, monkeypatch
):
    played_on = matches[0].pk

    def tapped_meanwhile(match: Match) -> list[str]:
        if match.pk == played_on:  # a tap lands during every read of it
            Match.objects.filter(pk=match.pk).update(version=F("version") + 1)
            return ["a torn read"]
        return []

    monkeypatch.setattr(services, "_verify", tapped_meanwhile)
    call_command("verify_matches")
    out = capsys.readouterr().out
    assert f"match {played_on}: changed while being read, not checked" in out
    assert "checked 1 matches" in out and "0 inconsistencies" in out
