"""Services send jobs by task name: every name is registered as soon as Django is set up."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.services import jobs

ROOT = Path(__file__).resolve().parents[2]


def test_a_web_process_has_every_task_registered_before_its_first_request() -> None:
    # A fresh interpreter that loads the site as gunicorn does, and nothing else: no request has
    # been served, so no job sent, and no thread can race another to import the task modules.
    script = (
        "import config.wsgi\n"
        "from config.celery import app\n"
        "from tournaments.services import jobs\n"
        "from ratings import services\n"
        "names = [jobs.COMPUTE_STANDINGS, jobs.BUILD_REPORT, jobs.ANALYSE_BOARD,\n"
        "         services.COMPUTE_RATINGS]\n"
        "print(' '.join(n for n in names if n not in app.tasks) or 'ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_a_job_nobody_can_run_is_logged_and_not_sent(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="tournaments.services.jobs"):
        assert jobs.publish("troef.no_such_job", 1) is False
    assert "no task troef.no_such_job is registered" in caplog.text
