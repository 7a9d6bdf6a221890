"""Documents as background jobs: requested, built by the Celery task, stored, listed, regenerated."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from documents import kinds
from documents import services as reports
from documents.models import ReportFile
from documents.tasks import build_report as build_report_task
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Event
from tournaments.services.events import EventSettings, create_event

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def demo(module_demo: Event, db: None) -> Event:
    """The demo event (loaded once for the module)."""
    return Event.objects.get(pk=module_demo.pk)


def request_and_build(td: User, event: Event, kind: str, **options: Any) -> ReportFile:
    report = reports.request_report(td, event, kind, **options)
    build_report_task(report.pk)  # what the worker runs once the request has committed
    report.refresh_from_db()
    return report


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_it_queues_the_job_only_once_the_request_is_committed(
    td: User, demo: Event, media: Path, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report = reports.request_report(td, demo, "score_sheets", round_number=1)
    assert report.status == ReportFile.Status.QUEUED
    assert len(callbacks) == 1
    assert AuditEntry.objects.filter(action="report.request", object_id=str(report.pk)).exists()


def test_it_builds_and_stores_the_file_with_full_progress(
    td: User, demo: Event, media: Path
) -> None:
    seen: list[int] = []
    report = reports.request_report(td, demo, "round_pack", round_number=1, page_size="letter")
    reports.build_report(report.pk, progress=seen.append)
    report.refresh_from_db()
    assert report.status == ReportFile.Status.DONE
    assert report.progress == 100
    assert report.filename == "demo-round-1.pdf"
    assert report.finished_at is not None
    with report.file.open("rb") as stored:
        assert stored.read(5) == b"%PDF-"
    assert seen == sorted(seen)
    assert seen[-1] == 100
    assert len(set(seen)) > 3  # the bar moves along the way, not only at the end


def test_it_serves_the_file_to_the_td_for_download(td: User, demo: Event, media: Path) -> None:
    report = request_and_build(td, demo, "standings")
    response = signed_in(td).get(reverse("report_download", args=[demo.slug, report.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "demo-standings.pdf" in response["Content-Disposition"]
    assert response.content.startswith(b"%PDF")


def test_it_reports_progress_and_the_download_address_as_json(
    td: User, demo: Event, media: Path
) -> None:
    report = request_and_build(td, demo, "guide_cards")
    data = signed_in(td).get(reverse("report_status", args=[demo.slug, report.pk])).json()
    assert data["status"] == "done"
    assert data["progress"] == 100
    assert data["download_url"] == reverse("report_download", args=[demo.slug, report.pk])


def test_it_lists_the_events_files_and_requests_one_from_the_form(
    td: User, demo: Event, media: Path, django_capture_on_commit_callbacks: Any
) -> None:
    done = request_and_build(td, demo, "summary")
    client = signed_in(td)
    page = client.get(reverse("reports", args=[demo.slug]))
    assert page.status_code == 200
    assert reverse("report_download", args=[demo.slug, done.pk]) in page.content.decode()
    assert "troef/reports.js" in page.content.decode()
    detail = client.get(reverse("report", args=[demo.slug, done.pk]))
    assert "demo-summary.pdf" in detail.content.decode()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("reports", args=[demo.slug]),
            {"kind": "hand_records", "round_number": "2", "page_size": "A4"},
        )
    assert response.status_code == 302
    requested = ReportFile.objects.get(event=demo, kind="hand_records")
    assert (requested.round_number, requested.status) == (2, ReportFile.Status.QUEUED)
    assert len(callbacks) == 1


def test_it_stores_a_failure_the_td_can_fix_with_its_reason(td: User, media: Path) -> None:
    event = create_event(
        td,
        EventSettings(
            name="Nog niets",
            date=dt.date(2026, 2, 6),
            game="kleurenwiezen",
            ruleset_name="whisthub",
            rounds=3,
            boards_per_round=4,
            slug="niets",
        ),
    )
    report = request_and_build(td, event, "hand_records", language="en")
    assert report.status == ReportFile.Status.FAILED
    assert report.error == "There are no deals for these boards yet: generate the deals first."
    assert not report.file


def test_it_stores_a_failure_of_the_renderer_and_logs_it(
    td: User, demo: Event, media: Path, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    def broken(event: Event, kind: str, **options: Any) -> Any:
        raise RuntimeError("ink ran out")

    monkeypatch.setattr(kinds, "renderer_for", broken)
    report = request_and_build(td, demo, "summary")
    assert report.status == ReportFile.Status.FAILED
    assert "ink ran out" in report.error
    assert any("failed" in record.message for record in caplog.records)


def test_it_regenerates_a_file_in_place(td: User, demo: Event, media: Path) -> None:
    report = request_and_build(td, demo, "standings")
    first = report.file.name
    response = signed_in(td).post(reverse("report_regenerate", args=[demo.slug, report.pk]))
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.status == ReportFile.Status.QUEUED
    assert report.progress == 0
    build_report_task(report.pk)
    report.refresh_from_db()
    assert report.status == ReportFile.Status.DONE
    assert report.file.name
    assert ReportFile.objects.filter(event=demo).count() == 1
    assert AuditEntry.objects.filter(action="report.regenerate").count() == 1
    if first and report.file.name != first:
        assert not report.file.storage.exists(first)  # the old file does not linger


def test_it_does_nothing_for_a_finished_or_deleted_report(
    td: User, demo: Event, media: Path
) -> None:
    report = request_and_build(td, demo, "summary")
    stored = report.file.name
    assert build_report_task(report.pk) == "done"
    report.refresh_from_db()
    assert report.file.name == stored
    report.delete()
    assert build_report_task(report.pk) is None


def test_it_refuses_a_request_it_cannot_make(td: User, demo: Event) -> None:
    with pytest.raises(UserError) as caught:
        reports.request_report(td, demo, "score_sheets")
    assert caught.value.field == "round_number"
    with pytest.raises(UserError):
        reports.request_report(td, demo, "standings", page_size="A3")
    with pytest.raises(UserError):
        reports.request_report(td, demo, "wall_chart")
    assert not ReportFile.objects.exists()


def test_it_shows_documents_only_to_the_events_directors(
    td: User, outsider: User, demo: Event, media: Path
) -> None:
    report = request_and_build(td, demo, "summary")
    for name, args in (
        ("reports", [demo.slug]),
        ("report", [demo.slug, report.pk]),
        ("report_download", [demo.slug, report.pk]),
        ("report_status", [demo.slug, report.pk]),
    ):
        assert signed_in(outsider).get(reverse(name, args=args)).status_code == 403
        assert Client().get(reverse(name, args=args)).status_code == 302  # to the sign-in page
    assert (
        signed_in(outsider)
        .post(reverse("report_regenerate", args=[demo.slug, report.pk]))
        .status_code
        == 403
    )
