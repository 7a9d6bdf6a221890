from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_vacant_seats_substitutes_sheet_audit_messages"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="ruling",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "none"),
                    ("artificial", "artificial scores for the players present"),
                    ("sit_out", "the table sits out"),
                ],
                default="",
                max_length=12,
                verbose_name="ruling",
            ),
        ),
    ]
