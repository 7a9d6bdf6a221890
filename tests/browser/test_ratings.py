"""A player's phone, on a 375-px screen: the club's ratings ranking, then a player's rating and
its chart, readable without scrolling sideways."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from ratings.models import Rating
from ratings.tasks import compute_ratings
from tests.browser.support import laid_out, no_horizontal_scroll, screenshot
from tests.ratings.conftest import play_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_opens_the_ratings_and_a_players_chart(phone_page: Page, td: User) -> None:
    page = phone_page
    play_event(td, "first-evening", dt.date(2026, 1, 5))
    event = play_event(td, "second-evening", dt.date(2026, 1, 12))
    assert event.organisation_id is not None
    compute_ratings(event.organisation_id)
    best = Rating.objects.order_by("-rating", "player__last_name").first()
    assert best is not None

    page.goto("/")
    page.get_by_role("link", name="Player ratings of the clubs and federations").click()
    page.get_by_role("link", name="Whistclub De Kroon").click()
    expect(page.locator("#min-boards-note")).to_contain_text("at least 100 boards")
    expect(page.locator("#ratings-table")).to_contain_text("Nobody has played enough boards")

    # Everyone has eight boards: asking for eight lists them all.
    page.get_by_label("Minimum boards to be listed").fill("8")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#ratings-table tbody tr")).to_have_count(8)
    expect(page.locator("#ratings-table tbody tr").first).to_contain_text(best.player.full_name)
    assert no_horizontal_scroll(page)
    screenshot(page, "ratings-ranking-phone")

    page.get_by_role("link", name=best.player.full_name).first.click()
    expect(page.locator("#rating-value")).to_have_text(str(best.rating))
    chart = page.get_by_role("img", name=f"Rating of {best.player.full_name} after each event")
    expect(chart).to_be_visible()
    box = laid_out(page).locator("#rating-chart").bounding_box()
    assert box is not None
    assert 0 < box["width"] <= 375
    expect(page.locator("#rating-history tbody tr")).to_have_count(2)
    assert no_horizontal_scroll(page)
    screenshot(page, "ratings-player-phone")
