# A stored document's staleness is told from the audit log: the file keeps the newest audit entry of
# its event it was drawn after, instead of digests of what it printed. Files made before have no mark
# and are shown as not checked; their digests are dropped with the code that compared them.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0001_initial"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="reportfile",
            name="fingerprint",
        ),
        migrations.AddField(
            model_name="reportfile",
            name="audit_count",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="reportfile",
            name="audit_mark",
            field=models.PositiveBigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="reportfile",
            name="printed_results",
            field=models.BooleanField(default=True, editable=False),
        ),
    ]
