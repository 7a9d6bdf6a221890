"""On PostgreSQL, the standings document and the board scores are compressed with LZ4.

Both are rewritten whole after every save that reaches the standings (half a megabyte and several
megabytes for 1,000 players). PostgreSQL's default compression (pglz) spends about 15 ms of each
standings write compressing the document; LZ4 takes a fraction of that for much the same size.
Values already stored keep their compression until they are written again. A server built
without LZ4 keeps pglz, and so does SQLite, which compresses nothing.
"""

from django.db import DatabaseError, migrations, transaction

COLUMNS = (("tournaments_standings", "data"), ("tournaments_boardscores", "data"))


def _compression(schema_editor, method):
    if schema_editor.connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    for table, column in COLUMNS:
        try:
            with transaction.atomic(using=schema_editor.connection.alias):
                schema_editor.execute(
                    f"ALTER TABLE {quote(table)} ALTER COLUMN {quote(column)} "
                    f"SET COMPRESSION {method}"
                )
        except DatabaseError:
            return  # a server without LZ4: its default compression, as before


def lz4(apps, schema_editor):
    _compression(schema_editor, "lz4")


def default(apps, schema_editor):
    _compression(schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0017_penalty_fine")]

    operations = [migrations.RunPython(lz4, default, elidable=False)]
