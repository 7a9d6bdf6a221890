"""A fresh database for the Django benchmarks: PostgreSQL when DATABASE_URL names one, else SQLite.

On PostgreSQL the benchmark gets its own database (``<name>_bench``, dropped and created anew), so it
never touches real data; on SQLite a file in a temporary folder.
"""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING
from urllib.parse import urlparse, urlunparse

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def setup() -> str:
    """Configure and migrate a fresh database; return a description of it."""
    workdir = tempfile.mkdtemp(prefix="troef-bench-")
    os.environ.setdefault("TROEF_VAR_DIR", workdir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        parsed = urlparse(url)
        name = f"{parsed.path.lstrip('/') or 'troef'}_bench"
        admin = urlunparse(parsed._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            connection.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = urlunparse(parsed._replace(path=f"/{name}"))
        where = f"PostgreSQL database {name}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
        where = "SQLite (set DATABASE_URL=postgres://... to measure on PostgreSQL)"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return where


def td() -> User:
    from django.contrib.auth.models import User

    user, _created = User.objects.get_or_create(username="bench-td", defaults={"is_staff": True})
    return user
