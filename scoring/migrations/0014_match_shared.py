"""Who shares a match's win (a tie at the top) is stored, as its winner is, so that the record
book counts it (issue 28). Matches that ended so before are found by replaying them."""

from django.db import migrations, models

from referee import DocumentError, replay


def shared(apps, schema_editor) -> None:
    Match = apps.get_model("scoring", "Match")
    Round = apps.get_model("scoring", "Round")
    Action = apps.get_model("scoring", "Action")
    Seat = apps.get_model("scoring", "Seat")
    for match in Match.objects.filter(status="finished", winner__isnull=True):
        rounds = Round.objects.filter(match=match).order_by("number")
        document = {
            "format": "boneyard-match/1",
            "game": match.game,
            "options": match.options,
            "players": list(
                Seat.objects.filter(match=match)
                .order_by("number")
                .values_list("player__name", flat=True)
            ),
            "rounds": [
                {
                    "actions": list(
                        Action.objects.filter(round=row)
                        .order_by("seq")
                        .values_list("payload", flat=True)
                    ),
                    **({"record": "plays"} if row.record else {}),
                }
                for row in rounds
            ],
        }
        try:
            seats = sorted(replay(document).rounds[-1].state.shared)
        except (DocumentError, IndexError):  # verify_matches names such a match
            continue
        if seats:
            match.shared = f",{','.join(map(str, seats))},"
            match.save(update_fields=["shared"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0013_player_key")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="shared",
            field=models.CharField(blank=True, default="", max_length=24),
        ),
        migrations.RunPython(shared, migrations.RunPython.noop),
    ]
