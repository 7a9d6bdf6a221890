"""Freshness of documents built outside the test's transaction, as a worker builds them."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.db import connection, transaction

from documents import services as reports
from documents.freshness import CURRENT, OUT_OF_DATE, Freshness
from documents.models import ReportFile
from tests.documents.conftest import freshness
from tests.documents.test_freshness import DEALS_CHANGED, SAVED_MEANWHILE, made
from tournaments.models import AuditAction, AuditEntry, Event, Round
from tournaments.services import audit, deals, devices

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@pytest.mark.django_db(transaction=True)
def test_a_file_built_by_a_worker_outside_any_transaction_is_current(
    td: User, draft: Event, media: Path
) -> None:
    # As in a worker: the data and the audit mark are read in a snapshot of their own (on
    # PostgreSQL, a repeatable-read transaction) rather than inside a test's transaction.
    assert not connection.in_atomic_block
    files = [made(td, draft, "round_pack", 1), made(td, draft, "standings")]
    assert [freshness(draft, report).state for report in files] == [CURRENT, CURRENT]
    deals.generate_deals(td, draft, key="lente-key-2")
    assert freshness(draft, files[0]).changes == (DEALS_CHANGED,)


@pytest.mark.django_db(transaction=True)
def test_a_change_committed_after_the_snapshot_with_an_older_id_still_shows(
    td: User, draft: Event, media: Path
) -> None:
    # On PostgreSQL an entry's id is taken when it is written, and the entry is seen once it is
    # committed: new PINs written before the file's snapshot and committed after it have an id
    # below the file's mark. The count of entries the build saw tells them.
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time: no entry commits out of order")
    report = ReportFile.objects.create(event=draft, kind="table_cards", round_number=2)
    written, go = threading.Event(), threading.Event()

    def renew() -> None:
        try:
            with transaction.atomic():
                devices.renew_pins(td, Round.objects.get(event=draft, number=2))
                written.set()
                go.wait(10)
        finally:
            connection.close()

    worker = threading.Thread(target=renew)
    worker.start()
    assert written.wait(10)
    audit.record(td, AuditAction.REPORT_REQUEST, "another document", event=draft)
    reports.build_report(report.pk)
    go.set()
    worker.join(10)
    report.refresh_from_db()
    pins = AuditEntry.objects.get(event=draft, action=AuditAction.ROUND_DEVICE_PINS)
    assert report.audit_mark is not None
    assert pins.pk < report.audit_mark
    assert freshness(draft, report) == Freshness(OUT_OF_DATE, (SAVED_MEANWHILE,))
