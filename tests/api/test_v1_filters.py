"""Every list filter of API v1 narrows the list, and a value it cannot read is a 400."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import QueryDict
from django.test import Client

from api.v1.filters import ResultFilter
from api.v1.pagination import MAX_PAGE_SIZE
from documents import services as reports
from documents.models import ReportFile
from tests.api.support import client_for, key_round
from tests.conftest import as_a_test
from tests.tournaments.conftest import make_settings, start_event
from tournaments.models import Club, Entry, Event, Result
from tournaments.services import events


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "api-event", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """16 players in play, round 1 open (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


def listed(client: Client, url: str, key: str) -> list[Any]:
    response = client.get(url)
    assert response.status_code == 200, response.content
    return [row[key] for row in response.json()["results"]]


def refused(client: Client, url: str, field: str) -> None:
    response = client.get(url)
    assert response.status_code == 400, (url, response.content)
    body = response.json()
    assert body["code"] == "invalid"
    assert body["field"] == field
    assert body["message"]


def test_events_filter_by_status_game_and_date(client: Client, td: User, running: Event) -> None:
    later = start_event(td, "later", 8)
    Event.objects.filter(pk=later.pk).update(
        status=Event.Status.FINISHED, date=dt.date(2026, 12, 24), game=Event.Game.WIEZEN
    )
    events.create_event(td, make_settings(slug="draft"))
    director = client_for(td)
    assert listed(client, "/api/v1/events/?status=finished", "slug") == ["later"]
    assert listed(director, "/api/v1/events/?status=draft", "slug") == ["draft"]
    assert listed(client, "/api/v1/events/?game=wiezen", "slug") == ["later"]
    assert listed(client, "/api/v1/events/?date_after=2026-12-01", "slug") == ["later"]
    assert listed(client, "/api/v1/events/?date_before=2026-12-01", "slug") == ["api-event"]
    refused(client, "/api/v1/events/?status=lost", "status")
    refused(client, "/api/v1/events/?game=poker", "game")
    refused(client, "/api/v1/events/?date_after=yesterday", "date")


def test_clubs_and_players_filter_by_name_club_and_number(td: User, running: Event) -> None:
    kroon = Club.objects.create(name="De Kroon")
    Club.objects.create(name="Troefaas")
    first = running.entries.get(number=1).player
    first.club = kroon
    first.federation_number = "B-1234"
    first.save()
    director = client_for(td)
    assert listed(director, "/api/v1/clubs/?name=kroo", "name") == ["De Kroon"]
    assert listed(director, f"/api/v1/players/?club={kroon.pk}", "id") == [first.pk]
    assert listed(director, "/api/v1/players/?federation_number=B-1234", "id") == [first.pk]
    second = running.entries.get(number=2).player
    assert listed(director, "/api/v1/players/?name=number2%20PLAYER2", "id") == [second.pk]
    assert len(listed(director, "/api/v1/players/?name=number1", "id")) == 8  # 1, 10..16
    refused(director, "/api/v1/players/?club=999", "club")
    refused(director, "/api/v1/players/?club=kroon", "club")


def test_entries_and_rounds_filter_by_status_and_role(client: Client, running: Event) -> None:
    Entry.objects.filter(event=running, number=16).update(role=Entry.Role.SUBSTITUTE)
    Entry.objects.filter(event=running, number=15).update(
        status=Entry.Status.WITHDRAWN, withdrawn_after_round=1
    )
    base = "/api/v1/events/api-event/"
    assert listed(client, base + "entries/?role=substitute", "number") == [16]
    assert listed(client, base + "entries/?status=withdrawn", "number") == [15]
    assert len(listed(client, base + "entries/?status=active&role=player", "number")) == 14
    assert listed(client, base + "rounds/?status=open", "number") == [1]
    assert listed(client, base + "rounds/?status=planned", "number") == [2, 3, 4]
    refused(client, base + "entries/?status=gone", "status")
    refused(client, base + "entries/?role=captain", "role")
    refused(client, base + "rounds/?status=done", "status")


def test_boards_filter_by_a_number_range(client: Client, running: Event) -> None:
    base = "/api/v1/events/api-event/boards/"
    assert listed(client, base + "?number_min=3&number_max=5", "number") == [3, 4, 5]
    assert listed(client, base + "?number_min=15", "number") == [15, 16]
    assert listed(client, base + "?number_max=2", "number") == [1, 2]
    refused(client, base + "?number_min=three", "number")


def test_report_jobs_filter_by_kind_status_and_round(td: User, running: Event) -> None:
    sheets = reports.request_report(td, running, "score_sheets", round_number=1)
    reports.request_report(td, running, "standings")
    ReportFile.objects.filter(pk=sheets.pk).update(status=ReportFile.Status.FAILED)
    director = client_for(td)
    base = "/api/v1/events/api-event/reports/"
    assert listed(director, base + "?kind=score_sheets", "id") == [sheets.pk]
    assert listed(director, base + "?status=failed", "id") == [sheets.pk]
    assert listed(director, base + "?round=1", "id") == [sheets.pk]
    assert len(listed(director, base, "id")) == 2
    refused(director, base + "?kind=poster", "kind")
    refused(director, base + "?status=lost", "status")
    refused(director, base + "?round=0", "round")


def test_pages_are_numbered_and_their_size_capped(client: Client, running: Event) -> None:
    base = "/api/v1/events/api-event/boards/"
    first = client.get(base + "?page_size=5").json()
    assert first["count"] == 16
    assert [b["number"] for b in first["results"]] == [1, 2, 3, 4, 5]
    assert first["next"].endswith("page=2&page_size=5")
    last = client.get(base + "?page_size=5&page=4").json()
    assert [b["number"] for b in last["results"]] == [16]
    assert client.get(base + "?page_size=5&page=5").status_code == 404
    assert len(client.get(base + f"?page_size={MAX_PAGE_SIZE + 1}").json()["results"]) == 16
    refused(client, base + "?page_size=0", "page_size")
    refused(client, base + "?page_size=ten", "page_size")
    refused(client, base + "?page=-1", "page")


def _results(event: Event, query: str) -> list[tuple[int, int, int]]:
    rows = Result.objects.filter(event=event, is_current=True)
    found = ResultFilter(QueryDict(query), queryset=rows)
    assert found.is_valid(), found.errors
    return sorted((r.table.round.number, r.table.number, r.board.number) for r in found.qs)


def test_the_results_filter_narrows_by_place_and_state(td: User, running: Event) -> None:
    key_round(td, running, 1)
    assert len(_results(running, "")) == 16
    assert _results(running, "round=1&table=2&board=3") == [(1, 2, 3)]
    assert len(_results(running, "table=2")) == 4
    assert len(_results(running, "board=1")) == 4
    assert _results(running, "round=2") == []
    one = Result.objects.get(event=running, table__number=1, board__number=1, is_current=True)
    Result.objects.filter(pk=one.pk).update(
        other_keying="pass", other_keying_source="device", sheet_status="open", source="device"
    )
    assert _results(running, "has_other_keying=true") == [(1, 1, 1)]
    assert len(_results(running, "has_other_keying=false")) == 15
    assert _results(running, "sheet_status=open") == [(1, 1, 1)]
    assert len(_results(running, "sheet_status=none")) == 15
    assert _results(running, "source=device") == [(1, 1, 1)]
    assert (
        len(_results(running, "status=confirmed")) + len(_results(running, "status=entered")) == 16
    )
    assert len(_results(running, "kind=played")) == 16


@pytest.mark.parametrize(
    "query",
    [
        "round=x",
        "round=0",
        "table=1.5",
        "board=99999",
        "status=lost",
        "source=phone",
        "kind=other",
        "sheet_status=bad",
        "has_other_keying=maybe",
    ],
)
def test_the_results_filter_refuses_what_it_cannot_read(
    td: User, running: Event, query: str
) -> None:
    found = ResultFilter(QueryDict(query), queryset=Result.objects.all())
    assert not found.is_valid()
    assert list(found.errors) == [query.split("=")[0]]
