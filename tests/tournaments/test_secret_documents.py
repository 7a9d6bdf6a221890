"""Documents that print the cards before play, or the table devices' PINs, are the directors'."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.test import Client

from documents.models import ReportFile
from tests.tournaments.conftest import start_event
from tournaments.models import Event


@pytest.fixture
def running(td: User, outsider: User) -> Event:
    event = start_event(td, "secret-docs", 8)
    event.assistants.add(outsider)
    return event


def stored(event: Event, kind: str) -> ReportFile:
    report = ReportFile.objects.create(
        event=event,
        kind=kind,
        round_number=1,
        status=ReportFile.Status.DONE,
        progress=100,
        filename=f"{kind}.pdf",
        content_type="application/pdf",
    )
    report.file.save(f"{kind}.pdf", ContentFile(b"%PDF-1.4\n"))
    return report


@pytest.mark.parametrize("kind", sorted(ReportFile.SECRET_KINDS))
def test_an_assistant_neither_sees_nor_makes_a_secret_document(
    client: Client, outsider: User, running: Event, kind: str
) -> None:
    secret = stored(running, kind)
    sheets = stored(running, ReportFile.Kind.SCORE_SHEETS)
    client.force_login(outsider)
    page = client.get(f"/events/{running.slug}/reports/").content.decode()
    assert f"report-{sheets.pk}" in page
    assert f"report-{secret.pk}" not in page
    assert f'value="{kind}"' not in page
    base = f"/events/{running.slug}/reports/{secret.pk}"
    for url in (f"{base}/", f"{base}/download/", f"{base}/status.json"):
        assert client.get(url).status_code == 403, url
    assert client.post(f"{base}/regenerate/").status_code == 403
    made = client.post(
        f"/events/{running.slug}/reports/", {"kind": kind, "round_number": 1, "page_size": "A4"}
    )
    assert made.status_code == 200  # the form again, with the choice refused
    assert not ReportFile.objects.filter(kind=kind).exclude(pk=secret.pk).exists()
    # The API alike.
    api = f"/api/v1/events/{running.slug}/reports/"
    listed = client.get(api).json()["results"]
    assert [r["id"] for r in listed] == [sheets.pk]
    assert client.get(f"{api}{secret.pk}/download/").status_code == 404
    refused = client.post(api, {"kind": kind, "round": 1}, content_type="application/json")
    assert refused.status_code == 403
    assert client.get(f"{api}{sheets.pk}/download/").status_code == 200


def test_a_director_sees_and_downloads_them(client: Client, td: User, running: Event) -> None:
    secret = stored(running, ReportFile.Kind.HAND_RECORDS)
    client.force_login(td)
    assert client.get(f"/events/{running.slug}/reports/{secret.pk}/download/").status_code == 200
    api = f"/api/v1/events/{running.slug}/reports/{secret.pk}/download/"
    assert client.get(api).status_code == 200
