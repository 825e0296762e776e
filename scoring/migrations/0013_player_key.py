"""Players are told apart by their name as the table hears it (referee.document.name_key),
a unique key computed in Python, instead of PostgreSQL's lower() of the name (issue 28)."""

from django.db import migrations, models

from referee.document import name_key


def keyed(apps, schema_editor) -> None:
    # Two players stored before whose names are one name now (Strauß and STRAUSS) stay two
    # players: the later keeps its matches, under a key of its own no name will match.
    Player = apps.get_model("scoring", "Player")
    taken: set[str] = set()
    for player in Player.objects.order_by("pk"):
        key = name_key(player.name)
        player.key = key if key not in taken else f"{key}#{player.pk}"
        taken.add(player.key)
        player.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0012_round_switches")]

    operations = [
        migrations.AddField(
            model_name="player", name="key", field=models.CharField(max_length=160, default="")
        ),
        migrations.RunPython(keyed, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_ci"),
        migrations.AlterField(
            model_name="player", name="key", field=models.CharField(max_length=160, unique=True)
        ),
    ]
