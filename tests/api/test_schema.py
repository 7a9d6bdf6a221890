"""The OpenAPI document agrees with API v1: it generates cleanly, and schemathesis finds no server
error and no answer that breaks the document, on every read operation."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.test.utils import override_settings
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from documents import services as reports
from documents.models import ReportFile
from documents.tasks import build_report
from tests.api.support import API_SCHEMA, close, key_round
from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tournaments.models import Club, Event, Player, Series
from tournaments.services import tokens

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]
# The read side's operations, by the tags its views carry (results have their own tests).
READ_TAGS = [
    "events",
    "players",
    "rounds",
    "boards",
    "standings",
    "rulesets",
    "movements",
    "reports",
]


def test_the_schema_generates_without_warnings(db: None) -> None:
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out, stderr=io.StringIO())
    document = out.getvalue()
    assert "/api/v1/events/{slug}/boards/" in document
    assert "/api/events/" not in document  # the old API only redirects


def test_every_operation_describes_its_bodies_and_errors(client: Client, db: None) -> None:
    document = client.get("/api/v1/schema/?format=json").json()
    assert "Error" in document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            responses = operation["responses"]
            for code in ("400", "401", "403", "404"):
                assert code in responses, (path, method, code)
            ok = next(c for c in responses if c.startswith("2"))
            if ok == "204":
                continue  # no content, by definition
            content = responses[ok].get("content", {})
            assert content, (path, method)
            for media in content.values():
                assert media.get("schema"), (path, method)
                assert media["schema"] != {"type": "object"}, (path, method)


@pytest.fixture(scope="module")
def _event_data(module_td: User, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What ``event_data`` names, by pk, and the media folder its finished document is in."""
    media = tmp_path_factory.mktemp("schema-media")
    with as_a_test(), override_settings(MEDIA_ROOT=media):
        event = start_event(module_td, "schema-evening", 8)
        club = Club.objects.create(name="De Kroon")
        for entry in event.entries.all()[:3]:
            entry.player.club = club
            entry.player.save()
        key_round(module_td, event, 1)
        close(module_td, event, 1)
        Series.objects.create(slug="winter", name="Winter").events.add(event)
        report = reports.request_report(module_td, event, "standings")
        build_report(report.pk)
        _token, key = tokens.create_token(module_td, "schemathesis", "direct")
        return {
            "media": media,
            "event": event.pk,
            "club": club.pk,
            "player": event.entries.get(number=1).player_id,
            "report": report.pk,
            "key": key,
        }


@pytest.fixture
def event_data(
    _event_data: dict[str, Any], db: None, tmp_path: Path, settings: Any
) -> dict[str, Any]:
    """An event with results, a closed round, a club, a series and a finished document (made
    once for the module; its files are copied into the test's own media folder)."""
    shutil.copytree(_event_data["media"], tmp_path, dirs_exist_ok=True)
    settings.MEDIA_ROOT = tmp_path
    return {
        "event": Event.objects.get(pk=_event_data["event"]),
        "club": Club.objects.get(pk=_event_data["club"]),
        "player": Player.objects.get(pk=_event_data["player"]),
        "report": ReportFile.objects.get(pk=_event_data["report"]),
        "headers": {"Authorization": f"Bearer {_event_data['key']}", "Accept-Language": "en"},
    }


schema = API_SCHEMA.include(method="GET", tag=READ_TAGS)


@pytest.fixture
def api_schema(db: None) -> Any:
    return schema


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_keeps_to_its_schema(case: Any, event_data: dict[str, Any]) -> None:
    case.call_and_validate(headers=event_data["headers"], checks=CHECKS)


def _real(operation: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Path parameters that name the fixture's objects, so the answers are not all 404s."""
    event: Event = data["event"]
    values = {
        "slug": "winter" if operation.path.startswith("/api/v1/series/") else event.slug,
        "n": 1,
        "t": 1,
        "id": _object_id(operation.path, data),
        "pk": _object_id(operation.path, data),
        "name": "whisthub",
    }
    names = [p.name for p in operation.path_parameters]
    return {name: values[name] for name in names}


def _object_id(path: str, data: dict[str, Any]) -> int:
    """The id in the path: a club's, a player's or a report job's (each table numbers its own)."""
    if path.startswith("/api/v1/clubs/"):
        return int(data["club"].pk)
    if path.startswith("/api/v1/players/"):
        return int(data["player"].pk)
    return int(data["report"].pk)


@pytest.mark.parametrize("signed_in", [True, False], ids=["director", "anonymous"])
def test_every_read_answers_as_its_schema_says_for_real_objects(
    api_schema: Any, event_data: dict[str, Any], signed_in: bool
) -> None:
    headers = event_data["headers"] if signed_in else {"Accept-Language": "en"}
    seen = 0
    for result in api_schema.get_all_operations():
        operation = result.ok()
        query = {"players": 8, "rounds": 2} if operation.path.endswith("/preview/") else {}
        case = operation.Case(path_parameters=_real(operation, event_data), query=query)
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        if signed_in:
            assert response.status_code == 200, (operation.path, response.text[:300])
        seen += 1
    assert seen >= 20


@pytest.mark.parametrize("page", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_the_docs_pages_load_nothing_from_elsewhere_and_run_no_inline_script(
    client: Client, db: None, page: str
) -> None:
    html = client.get(page).content.decode()
    addresses = re.findall(r'(?:src|href|spec-url)="([^"]*)"', html)
    assert addresses
    for address in addresses:
        assert address.startswith(("/static/", "/api/v1/")), address
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag
    assert "<style" not in html
    assert "style=" not in html


def test_the_docs_start_up_script_and_redoc_bundle_are_files(client: Client, db: None) -> None:
    script = client.get("/api/v1/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert "/api/v1/schema/" in script.content.decode()
    bundle = client.get("/api/v1/redoc/redoc.js")
    assert bundle["Content-Type"].startswith("application/javascript")
    assert b"cdn.redoc.ly" not in bundle.content
