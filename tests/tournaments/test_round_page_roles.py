"""The round's page for an assistant: keying, yes; closing the round and the device PINs, no."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.conftest import start_event


def test_an_assistant_sees_the_round_without_the_directors_forms(
    client: Client, td: User, outsider: User
) -> None:
    event = start_event(td, "round-roles", 16)
    event.assistants.add(outsider)
    client.force_login(outsider)
    page = client.get(f"/events/{event.slug}/rounds/1/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/events/{event.slug}/rounds/1/entry/" in html
    assert "The tournament director closes the round." in html
    assert f"/events/{event.slug}/rounds/1/close/" not in html
    table = event.round_set.get(number=1).tables.get(number=1)
    assert "Make new PINs" not in html
    assert table.device_key == "" or table.device_key not in html
    assert client.post(f"/events/{event.slug}/rounds/1/close/").status_code == 403

    client.force_login(td)
    html = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert f"/events/{event.slug}/rounds/1/close/" in html
    table.refresh_from_db()
    assert table.device_key in html
    assert table.device_pin in html
