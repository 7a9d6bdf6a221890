"""Fines get a typed amount of their own (``Penalty.fine``); ``points`` keeps board penalties only.

Each fine's amount moves from ``points["total"]`` (a fraction as text) to ``fine``. A total that
cannot be read (which the standings left out, naming it) becomes a fine of nothing, so that the
standings stay as they were.
"""

from decimal import Decimal
from fractions import Fraction

from django.db import migrations, models


def _amount(points):
    try:
        value = Fraction(str(points.get("total", "0")))
    except (TypeError, ValueError, AttributeError, ZeroDivisionError):
        return Decimal(0)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))


def fines_typed(apps, schema_editor):
    Penalty = apps.get_model("tournaments", "Penalty")
    for item in Penalty.objects.filter(board__isnull=True).only("pk", "points"):
        Penalty.objects.filter(pk=item.pk).update(fine=_amount(item.points), points={})


def fines_as_points(apps, schema_editor):
    Penalty = apps.get_model("tournaments", "Penalty")
    for item in Penalty.objects.filter(board__isnull=True).only("pk", "fine"):
        total = str(Fraction(item.fine or 0))
        Penalty.objects.filter(pk=item.pk).update(points={"total": total}, fine=None)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_report_file_to_documents")]

    operations = [
        migrations.AddField(
            model_name="penalty",
            name="fine",
            field=models.DecimalField(
                blank=True, decimal_places=2, max_digits=9, null=True, verbose_name="fine"
            ),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="points",
            field=models.JSONField(blank=True, default=dict, verbose_name="points"),
        ),
        migrations.RunPython(fines_typed, fines_as_points),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("board", None), models.Q(("fine", None), _negated=True)),
                    models.Q(models.Q(("board", None), _negated=True), ("fine", None)),
                    _connector="OR",
                ),
                name="penalty_fine_or_board",
            ),
        ),
    ]
