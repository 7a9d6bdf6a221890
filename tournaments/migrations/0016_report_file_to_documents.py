# ReportFile moves to the documents app: its table stays where it is (documents.ReportFile keeps
# db_table "tournaments_reportfile"), so only Django's record of the models changes here.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_result_without_default_order"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ReportFile"),
            ],
            database_operations=[],
        ),
    ]
