"""An assistant in a real browser: the director makes the account on the event's Access page, the
assistant signs in with the password shown there once, keys a board of the round, and finds none
of what changes the event: no settings, players, movement or deals, no round to close."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Problems
from tests.browser.support import key_line, table_lines, type_into
from tests.browser.test_club_evening import sign_in
from tests.tournaments.conftest import start_event
from tournaments.models import AuditEntry, Event, Result, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def invite(page: Page, event: Event) -> str:
    """The director makes an account for carol; the password it shows once is returned."""
    page.goto(f"/events/{event.slug}/")
    page.locator("nav.tabs").get_by_role("link", name="Access").click()
    expect(page.get_by_role("heading", name=f"Access: {event.name}")).to_be_visible()
    form = page.locator("#create-assistant")
    type_into(form.get_by_label("User name"), "carol")
    form.get_by_role("button", name="Make the account").click()
    expect(page.locator("#assistants")).to_contain_text("carol")
    password = page.locator("#new-password").inner_text()
    assert len(password) >= 12
    page.reload()  # shown once: not there any more
    expect(page.locator("#new-password")).to_have_count(0)
    return password


def test_an_invited_assistant_keys_results_and_changes_nothing_else(
    td_page: Page,
    td: User,
    chromium: Browser,
    live_server: Any,
    problems: Problems,
    media: Path,
) -> None:
    event = start_event(td, "assisted-evening", 8)
    sign_in(td_page, "alice", "alice-password")
    password = invite(td_page, event)
    assert AuditEntry.objects.filter(event=event, action="access.assistant_add").exists()

    context = chromium.new_context(
        base_url=live_server.url, locale="en-GB", viewport={"width": 1280, "height": 800}
    )
    context.set_default_timeout(10_000)
    context.on("page", problems.watch)
    page = context.new_page()
    try:
        sign_in(page, "carol", password)
        page.locator(f"a[href='/events/{event.slug}/']").first.click()
        expect(page.locator("#assistant-note")).to_be_visible()
        tabs = page.locator("nav.tabs")
        for hidden in ("Players", "Movement", "Deals", "Settings", "Access"):
            expect(tabs.get_by_role("link", name=hidden, exact=True)).to_have_count(0)
        expect(page.get_by_role("button", name="Close")).to_have_count(0)
        expect(page.get_by_role("button", name="Start")).to_have_count(0)

        page.get_by_role("link", name="Results").first.click()  # round 1's
        page.get_by_role("link", name="Enter", exact=True).first.click()  # table 1's
        expect(page.get_by_role("heading", name="Round 1, table 1")).to_be_visible()
        table = Table.objects.get(round__event=event, round__number=1, number=1)
        line = table_lines(table, random.Random(14))[0]
        key_line(page, line)
        result = Result.objects.get(table=table, board__number=line.board, is_current=True)
        assert result.entered_by is not None
        assert result.entered_by.username == "carol"

        for path in ("edit/", "players/", "movement/"):
            response = page.goto(f"/events/{event.slug}/{path}")
            assert response is not None
            assert response.status == 403, path
    finally:
        context.close()
