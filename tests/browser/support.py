"""What the browser tests share: the players' file, result lines the deals allow, page helpers."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import NamedTuple

from playwright.sync_api import Locator, Page, expect

from engine.cards import Seat
from engine.hands import Deal
from engine.notation import format_result_line
from tournaments.demo import CLUBS, FIRST_NAMES, LAST_NAMES, choose_contract, play_out
from tournaments.models import Board, Event, Table
from tournaments.services import events, results

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def players_csv(count: int) -> str:
    """The club's list as a spreadsheet saves it, accents and all."""
    lines = ["first_name,last_name,club,federation_number"]
    for index in range(count):
        lines.append(
            f"{FIRST_NAMES[index]},{LAST_NAMES[index]},{CLUBS[index % len(CLUBS)]},"
            f"BR{index + 1:03d}"
        )
    return "\n".join(lines) + "\n"


def full_name(index: int) -> str:
    """The name of the CSV file's player on line ``index + 2``, as the pages show it."""
    return f"{FIRST_NAMES[index]} {LAST_NAMES[index]}"


class Line(NamedTuple):
    """A board's result as the TD types it, and whether Troef asks to confirm it (a rare one)."""

    board: int
    text: str
    confirm: bool


def result_line(event: Event, board: Board, rng: random.Random) -> Line:
    """A result the deal allows: what a club table might well have played.

    The engine bids a plausible contract for the cards and plays it out card by card. A result
    Troef accepts without asking is preferred; some deals have none (three aces call for a troel
    that the engine's bidding never makes), and then the TD confirms the one typed.
    """
    ruleset = events.ruleset_of(event)
    deal = Deal.from_pbn(board.deal)
    text = ""
    for _ in range(20):
        contract = choose_contract(deal, ruleset, rng)
        text = format_result_line(play_out(ruleset, contract, deal, Seat[board.dealer], rng))
        if not results.check(event, board, text).warnings:
            return Line(board.number, text, confirm=False)
    return Line(board.number, text, confirm=True)


def table_lines(table: Table, rng: random.Random) -> list[Line]:
    """Each board the table plays in the round, in order, with a result for it."""
    event = table.round.event
    return [
        result_line(event, link.board, rng)
        for link in table.table_boards.select_related("board").order_by("position")
    ]


def type_into(field: Locator, text: str) -> None:
    """Type as a TD does: into the field, key by key, replacing what was there."""
    field.focus()
    field.page.keyboard.press("ControlOrMeta+A")
    field.page.keyboard.type(text)


def board_row(page: Page, board: int) -> Locator:
    """A board's row on a table's entry page."""
    return page.locator(f"table.entry tbody tr[data-board='{board}']")


def status_of(page: Page, board: int) -> Locator:
    return board_row(page, board).locator(".status .message")


def confirm_if_asked(page: Page, line: Line) -> None:
    """A rare result is confirmed in its row: the confirmation has the focus, Enter answers."""
    if line.confirm:
        expect(board_row(page, line.board).locator("button.confirm-inline")).to_be_focused()
        page.keyboard.press("Enter")


def type_line(page: Page, line: Line) -> None:
    # The page's script gives the first line the focus once it has run, and each save
    # hands it on: wait for it rather than look once, before the script may have run.
    expect(board_row(page, line.board).locator("input.line")).to_be_focused()
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type(line.text)


def key_line(page: Page, line: Line) -> None:
    """Type a result into the focused line of the table entry page and save it with Enter."""
    row = board_row(page, line.board)
    saved = int(row.get_attribute("data-version") or 0)
    type_line(page, line)
    page.keyboard.press("Enter")
    confirm_if_asked(page, line)
    # The row takes the new version's number when the save is answered.
    expect(row).to_have_attribute("data-version", str(saved + 1))


def key_last_line(page: Page, line: Line, goes_to: str) -> None:
    """The table's last board: Enter saves it and goes on to the next table (or the round)."""
    type_line(page, line)
    with page.expect_navigation(url=re.compile(re.escape(goes_to) + "$")):
        page.keyboard.press("Enter")
        confirm_if_asked(page, line)


def laid_out(page: Page) -> Page:
    """The page once its stylesheets have loaded: a size measured before is the unstyled one."""
    page.wait_for_load_state("load")
    return page


def no_horizontal_scroll(page: Page) -> bool:
    """Nothing on the styled page is wider than the screen."""
    return bool(
        laid_out(page).evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    )


def screenshot(page: Page, name: str) -> None:
    """Keep a picture of the page: every run under ``var/screenshots`` (CI keeps them with its log),
    and in ``docs/images`` for the user guide when asked (``TROEF_SCREENSHOTS=1``)."""
    from django.conf import settings

    folder = Path(settings.VAR_DIR) / "screenshots"
    if os.environ.get("TROEF_SCREENSHOTS", "") in ("1", "true", "yes"):
        folder = IMAGES
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), animations="disabled")
