import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    """A position is kept for a while after it was last kept or asked about: the creation
    date becomes the date it was last kept, indexed for the clean-up of expired ones."""

    dependencies = [
        ("scoring", "0007_position"),
    ]

    operations = [
        migrations.RenameField(model_name="position", old_name="created_at", new_name="kept_at"),
        migrations.AlterField(
            model_name="position",
            name="kept_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
    ]
