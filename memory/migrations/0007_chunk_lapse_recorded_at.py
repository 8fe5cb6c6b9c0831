"""Chunk.lapse_recorded_at: the expiry sweep's once-per-row marker (memory.lifecycle)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0006_chunk_supersession_index_and_store_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="chunk",
            name="lapse_recorded_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddIndex(
            model_name="chunk",
            index=models.Index(
                condition=models.Q(("expires_at__isnull", False), ("lapse_recorded_at__isnull", True)),
                fields=["expires_at"],
                name="chunk_lapse_unrecorded",
            ),
        ),
    ]
