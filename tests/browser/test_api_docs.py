"""The API's documentation pages work under the site's Content Security Policy, with no CDN."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

ROOT = Path(__file__).resolve().parent.parent.parent


def site_policy() -> str:
    """The policy nginx sends (deploy/nginx.conf), as it reads for an address under /api/."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    policy = re.search(r'add_header Content-Security-Policy "([^"]*)" always;', text)
    assert policy is not None
    value = policy.group(1)
    for name, body in re.findall(r"map \$uri (\$\w+) \{([^}]*)\}", text):
        for_api = re.search(r'~\^/api/ "([^"]*)";', body)
        assert for_api is not None, name
        value = value.replace(name, for_api.group(1))
    assert "$" not in value
    return value


@pytest.fixture
def docs_page(chromium: Browser, live_server: Any) -> Iterator[tuple[Page, list[str]]]:
    context = chromium.new_context(base_url=live_server.url, locale="en-GB")
    context.set_default_timeout(15_000)
    policy = site_policy()
    outside: list[str] = []
    complaints: list[str] = []

    def with_policy(route: Route) -> None:
        if not route.request.url.startswith(live_server.url):
            outside.append(route.request.url)
            route.abort()
            return
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": policy}
        route.fulfill(response=response, headers=headers)

    context.route("**/*", with_policy)
    page = context.new_page()
    page.on("console", lambda message: complaints.append(message.text))
    page.on("pageerror", lambda error: complaints.append(f"script error: {error}"))
    yield page, complaints
    context.close()
    assert not outside, f"requests to other sites: {outside}"


def _policy_complaints(complaints: list[str]) -> list[str]:
    return [
        text for text in complaints if "Content Security Policy" in text or "script error" in text
    ]


@pytest.mark.django_db(transaction=True)
def test_the_swagger_page_shows_the_operations_under_the_policy(
    docs_page: tuple[Page, list[str]],
) -> None:
    page, complaints = docs_page
    page.goto("/api/v1/docs/")
    page.locator(".opblock-summary-path", has_text="/api/v1/events/").first.wait_for()
    assert page.locator(".opblock").count() > 20
    assert _policy_complaints(complaints) == []


@pytest.mark.django_db(transaction=True)
def test_the_redoc_page_shows_the_operations_under_the_policy(
    docs_page: tuple[Page, list[str]],
) -> None:
    page, complaints = docs_page
    page.goto("/api/v1/redoc/")
    page.get_by_text("/api/v1/events/{slug}/boards/").first.wait_for(state="attached")
    assert _policy_complaints(complaints) == []
