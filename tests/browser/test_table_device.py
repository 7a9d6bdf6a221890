"""A phone at the table, in a real browser on a 375-px screen: open the table card's link, give
the PIN, key four boards (an opponent confirming), lose the connection before the fourth save, get
it back, and see every board stored once with its scores."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from tests.browser.support import no_horizontal_scroll, screenshot
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.models import Board, Result, Table
from tournaments.services import devices

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def board_item(page: Page, board: Board) -> Locator:
    return page.locator(f"#device-boards li[data-board='{board.number}']")


def key_board(page: Page, board: Board, line: str, *, before_saving: Any = None) -> bool:
    """Key a board's line and save it; whether the line was warned about (and so confirmed)."""
    board_item(page, board).get_by_role("button", name=f"Board {board.number}").click()
    form = page.locator("#device-entry")
    expect(form).to_be_visible()
    expect(form.get_by_role("heading")).to_have_text(f"Key board {board.number}")
    page.locator("#device-line").fill(line)
    # The scores appear while typing, before anything is saved.
    expect(page.locator("#device-preview .scores [data-seat='N']")).to_have_text(
        re.compile(r"N -?\d+")
    )
    warned = page.locator("#device-preview .message").inner_text().strip() != ""
    if before_saving is not None:
        before_saving()
    form.get_by_role("button", name="Save", exact=True).click()
    if warned and before_saving is None:
        # An unlikely result (a missing troel...): the keyer confirms it was so.
        form.get_by_role("button", name="Save anyway").click()
    return warned


def test_a_phone_keys_its_tables_boards_and_resends_after_losing_the_connection(
    phone_page: Page, td: User
) -> None:
    page = phone_page
    event = start_event(td, "phones-at-the-table", 8)
    table = devices.ensure_device_keys(td, event.round_set.get(number=1))[0]
    boards = [
        link.board for link in table.table_boards.select_related("board").order_by("position")
    ]
    assert len(boards) == 4

    # The link from the table card's QR code asks for the PIN first.
    page.goto(f"/t/{table.device_key}/")
    expect(page.get_by_label("PIN on the table card")).to_be_visible()
    page.get_by_label("PIN on the table card").fill("0" if table.device_pin != "0" else "1")
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("alert")).to_contain_text("This is not the PIN of table 1")
    page.get_by_label("PIN on the table card").fill(table.device_pin)
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("heading", name="Boards of this round")).to_be_visible()
    expect(page.locator(".device-where")).to_have_text("Round 1 · Table 1")
    expect(page.locator("#device-seats li")).to_have_count(4)
    # The page's script has loaded the table: a tap before it would do nothing.
    expect(page.locator("#device[data-ready='1']")).to_be_attached()
    assert no_horizontal_scroll(page)
    screenshot(page, "device-table")

    # The first board: the keyer says who they are once; the phone remembers.
    board_item(page, boards[0]).get_by_role("button", name=f"Board {boards[0].number}").click()
    page.locator(".keyer").get_by_role("button", name="N").click()
    page.get_by_role("button", name="Cancel").click()
    for board in boards[:3]:
        key_board(page, board, a_line_for(board))
        confirm = page.locator("#device-confirm")
        expect(confirm).to_be_visible()
        # The keyer's own seat is not offered; an opponent confirms with theirs.
        expect(confirm.get_by_role("button", name="N", exact=True)).to_be_hidden()
        confirm.get_by_role("button", name="E", exact=True).click()
        expect(board_item(page, board).locator(".state")).to_have_text("confirmed by E")
    assert no_horizontal_scroll(page)

    # The fourth save leaves while the connection is gone: the line is kept and sent again.
    warned = key_board(
        page, boards[3], a_line_for(boards[3]), before_saving=lambda: page.context.set_offline(True)
    )
    expect(page.locator("#device-send")).to_contain_text("Not sent")
    expect(board_item(page, boards[3]).locator(".unsent")).to_be_visible()
    assert not Result.objects.filter(table=table, board=boards[3]).exists()
    screenshot(page, "device-not-sent")
    page.context.set_offline(False)
    if warned:  # the answer, once it comes: the keyer confirms the unlikely result
        page.locator("#device-entry").get_by_role("button", name="Save anyway").click(
            timeout=15_000
        )
    expect(board_item(page, boards[3]).locator(".state")).to_have_text(
        "keyed, waiting for an opponent's confirmation", timeout=15_000
    )
    expect(board_item(page, boards[3]).locator(".unsent")).to_have_count(0)
    assert page.evaluate("Object.keys(localStorage).filter((k) => /:\\d+:/.test(k)).length") == 0, (
        "nothing is left waiting on the phone"
    )

    # Every board stored once, and the page shows the stored scores and the round's totals.
    for board in boards:
        versions = Result.objects.filter(table=table, board=board)
        assert versions.count() == 1, f"board {board.number} stored {versions.count()} times"
    stored = {r.board_id: r for r in Result.objects.filter(table=table)}
    for board in boards:
        result = stored[board.pk]
        assert result.source == "device"
        assert result.keyed_at_seat == "N"
        expect(board_item(page, board).locator(".scores [data-seat='W']")).to_have_text(
            f"W {result.score_w}"
        )
    totals = {seat: sum(r.scores["NESW".index(seat)] for r in stored.values()) for seat in "NESW"}
    for seat, total in totals.items():
        expect(page.locator(f"#device-seats .total[data-seat='{seat}']")).to_have_text(str(total))
    assert [r.table_confirmed_by for r in sorted(stored.values(), key=lambda r: r.board.number)][
        :3
    ] == ["E", "E", "E"]
    assert Table.objects.get(pk=table.pk).device_pin == table.device_pin
    screenshot(page, "device-keyed")


def test_a_few_taps_write_the_same_line_as_typing(phone_page: Page, td: User) -> None:
    page = phone_page
    event = start_event(td, "taps-at-the-table", 8)
    table = devices.ensure_device_keys(td, event.round_set.get(number=1))[0]
    board = table.table_boards.order_by("position")[0].board
    page.goto(f"/t/{table.device_key}/")
    page.get_by_label("PIN on the table card").fill(table.device_pin)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#device[data-ready='1']")).to_be_attached()
    board_item(page, board).get_by_role("button", name=f"Board {board.number}").click()
    page.get_by_text("Or tap the result").click()
    taps = page.locator("#device-taps")
    taps.locator("[data-part=contract]").get_by_role("button", name="accept", exact=True).click()
    declarers = taps.locator("[data-part=declarers]")
    declarers.get_by_role("button", name="E", exact=True).click()
    declarers.get_by_role("button", name="N", exact=True).click()
    taps.locator("[data-part=level]").get_by_role("button", name="9", exact=True).click()
    taps.locator("[data-part=trump]").get_by_role("button", name="♥").click()
    tricks = taps.locator("[data-part=tricks]")
    for _step in range(3):
        tricks.get_by_role("button", name="+").click()
    expect(page.locator("#device-line")).to_have_value("NE 9H 10")
    # The line the taps wrote is checked as a typed one is: its scores show before saving.
    expect(page.locator("#device-preview")).not_to_be_empty()
    assert not Result.objects.filter(table=table).exists()
    assert no_horizontal_scroll(page)
    screenshot(page, "device-taps")
