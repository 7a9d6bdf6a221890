# ReportFile, moved here from the tournaments app with its rows: the table keeps its name
# (tournaments_reportfile) and is not touched; tournaments' 0016 forgets the model, this one takes
# it up. The model's content type moves with it, so that permissions and admin history that name
# it still do.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _move_content_type(apps, schema_editor, source, target):
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(
        schema_editor.connection.alias
    )
    # A site migrated in two steps may have made the new one already: then the old one stays.
    if not content_types.filter(app_label=target, model="reportfile").exists():
        content_types.filter(app_label=source, model="reportfile").update(app_label=target)


def content_type_to_documents(apps, schema_editor):
    _move_content_type(apps, schema_editor, "tournaments", "documents")


def content_type_to_tournaments(apps, schema_editor):
    _move_content_type(apps, schema_editor, "documents", "tournaments")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0016_report_file_to_documents"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ReportFile",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("score_sheets", "score sheets"),
                                    ("hand_records", "hand records"),
                                    ("dealing_slips", "dealing slips"),
                                    ("guide_cards", "guide cards"),
                                    ("table_cards", "table cards"),
                                    ("round_pack", "all documents of a round"),
                                    ("standings", "standings"),
                                    ("score_cards", "personal score cards"),
                                    ("summary", "event summary"),
                                    ("dlm", "dealing machine file (.dlm)"),
                                    ("pbn", "hand records as PBN"),
                                ],
                                max_length=20,
                                verbose_name="document",
                            ),
                        ),
                        (
                            "round_number",
                            models.PositiveSmallIntegerField(
                                blank=True, null=True, verbose_name="round"
                            ),
                        ),
                        (
                            "page_size",
                            models.CharField(
                                choices=[("A4", "A4"), ("letter", "Letter")],
                                default="A4",
                                max_length=8,
                                verbose_name="paper",
                            ),
                        ),
                        (
                            "language",
                            models.CharField(
                                choices=[("nl", "Dutch"), ("fr", "French"), ("en", "English")],
                                default="nl",
                                max_length=2,
                                verbose_name="language",
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("queued", "queued"),
                                    ("running", "being made"),
                                    ("done", "ready"),
                                    ("failed", "failed"),
                                ],
                                default="queued",
                                max_length=10,
                            ),
                        ),
                        ("progress", models.PositiveSmallIntegerField(default=0)),
                        ("filename", models.CharField(blank=True, max_length=200)),
                        ("content_type", models.CharField(blank=True, max_length=80)),
                        ("file", models.FileField(blank=True, upload_to="reports/%Y/%m/")),
                        ("error", models.TextField(blank=True)),
                        ("fingerprint", models.JSONField(blank=True, editable=False, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "heartbeat_at",
                            models.DateTimeField(blank=True, editable=False, null=True),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports",
                                to="tournaments.event",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "report file",
                        "verbose_name_plural": "report files",
                        "db_table": "tournaments_reportfile",
                        "ordering": ["-created_at", "-id"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("progress__lte", 100)),
                                name="report_progress_max_100",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to_documents, content_type_to_tournaments),
    ]
