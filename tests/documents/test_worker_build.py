"""A document built by a real Celery worker, from a request committed as the site commits it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.conf import settings as django_settings
from django.db import connection

from documents.models import ReportFile

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_it_builds_a_report_through_a_real_worker(td: User, tmp_path: Path) -> None:
    broker = django_settings.CELERY_BROKER_URL
    if django_settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip(
            "no CELERY_BROKER_URL configured: set it to run this test against a real broker"
        )
    if connection.vendor != "postgresql":
        pytest.skip("the worker needs a database it can share with the test: PostgreSQL")
    from config.celery import app
    from config.worker import running_worker
    from tournaments.demo import load_demo_event

    event = load_demo_event(td)
    assert event is not None
    report = ReportFile.objects.create(event=event, kind="summary", created_by=td)
    database = connection.settings_dict
    env = {
        "CELERY_BROKER_URL": broker,
        "DATABASE_URL": f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST']}:{database['PORT'] or 5432}/{database['NAME']}",
        "MEDIA_ROOT": str(tmp_path / "media"),
    }
    log = tmp_path / "worker.log"
    with running_worker(log, env) as queue:
        previous = app.conf.task_always_eager
        app.conf.task_always_eager = False
        try:
            status = app.send_task("troef.build_report", args=[report.pk], queue=queue).get(
                timeout=90
            )
        finally:
            app.conf.task_always_eager = previous
    report.refresh_from_db()
    assert status == "done", log.read_text()[-2000:]
    assert report.progress == 100
    assert (tmp_path / "media" / str(report.file.name)).read_bytes().startswith(b"%PDF")
