"""The browser tests' setting: one Chromium for them all, one live server, tasks in-process.

Chromium is the Debian package's (Playwright's own downloads are not used). Without it the tests
skip with the reason, except in CI (``CI=true``), where a missing browser is a failure: CI installs
the package (``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

# The Debian package's real binary: /usr/bin/chromium is a shell script that starts it.
CHROMIUM_CANDIDATES = (
    "/usr/lib/chromium/chromium",
    "/usr/lib/chromium-browser/chromium-browser",
)
TD_VIEWPORT = {"width": 1280, "height": 800}
PHONE_VIEWPORT = {"width": 375, "height": 740}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unavailable(reason: str) -> None:
    """Skip on a laptop without a browser; fail in CI, which must run these tests."""
    if in_ci():
        pytest.fail(f"{reason} (CI installs the Debian chromium package: see .ci/run)")
    pytest.skip(reason)


def chromium_executable() -> str | None:
    configured = os.environ.get("TROEF_CHROMIUM")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    for candidate in CHROMIUM_CANDIDATES:
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium")


# Package scope: one browser for all the browser tests, gone before the other tests run, since
# while Playwright runs, the test thread has an event loop that Django takes for async code.
@pytest.fixture(scope="package")
def playwright_driver() -> Iterator[Playwright]:
    executable = chromium_executable()
    if executable is None:
        unavailable("Chromium not found: install the Debian chromium package or set TROEF_CHROMIUM")
    # The tests make ORM calls between two clicks, which Django would refuse in a thread with an
    # event loop (the server's thread has none).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as driver:
            yield driver
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="package")
def chromium(playwright_driver: Playwright) -> Iterator[Browser]:
    browser = playwright_driver.chromium.launch(executable_path=chromium_executable())
    yield browser
    browser.close()


@pytest.fixture
def eager_tasks(settings: Any) -> Iterator[None]:
    """Standings and documents made in the server's thread, even when CI configures a broker."""
    from config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def media(settings: Any, tmp_path: Path) -> Path:
    """Documents made during the test are stored in a directory of its own."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return Path(settings.MEDIA_ROOT)


class Problems:
    """What went wrong behind the page: script errors and server errors, checked after the test."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def watch(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.seen.append(f"script error: {error}"))
        page.on(
            "response",
            lambda response: (
                self.seen.append(f"{response.status} from {response.url}")
                if response.status >= 500
                else None
            ),
        )


def _context(
    chromium: Browser, base_url: str, problems: Problems, **options: Any
) -> BrowserContext:
    context = chromium.new_context(base_url=base_url, locale="en-GB", **options)
    context.set_default_timeout(10_000)
    context.on("page", problems.watch)
    return context


@pytest.fixture
def problems() -> Iterator[Problems]:
    found = Problems()
    yield found
    assert not found.seen, found.seen


@pytest.fixture
def td_page(
    chromium: Browser, live_server: Any, eager_tasks: None, media: Path, problems: Problems
) -> Iterator[Page]:
    """A desktop browser at the scoring table; it asks for English, the source language."""
    context = _context(
        chromium, live_server.url, problems, viewport=TD_VIEWPORT, accept_downloads=True
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone_page(chromium: Browser, live_server: Any, problems: Problems) -> Iterator[Page]:
    """A player's phone looking at the public standings."""
    context = _context(
        chromium,
        live_server.url,
        problems,
        viewport=PHONE_VIEWPORT,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=1,
    )
    page = context.new_page()
    yield page
    context.close()
