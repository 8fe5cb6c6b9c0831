# The admin review queue: one review state, newest first, straight off an index.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0007_chunk_lapse_recorded_at'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='chunk',
            index=models.Index(fields=['review_state', 'created_at'], name='chunk_review_created'),
        ),
    ]
