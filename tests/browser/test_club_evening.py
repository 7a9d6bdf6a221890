"""A club evening in a real browser: what a TD types and clicks, from a new event to the standings.

One journey, step by step, as the evening goes: sign in, create the event, import the players,
generate the movement and the deals, start and print round 1, key its results from the score
sheets (a typing mistake shown, a correction with its reason, a sheet difference resolved), the
public standings on a phone following the saves; then a withdrawal whose seat a late arrival
takes, a no-show's seat given to a substitute, round 2 closed with a board missing, and the same
pages in Dutch and French.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect
from pypdf import PdfReader

from tests.browser.support import (
    Line,
    board_row,
    confirm_if_asked,
    full_name,
    key_last_line,
    key_line,
    laid_out,
    players_csv,
    result_line,
    screenshot,
    status_of,
    table_lines,
    type_into,
    type_line,
)
from tournaments.models import Board, Entry, Event, Result, Seating, Table
from tournaments.services import results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 28
TABLES = PLAYERS // 4
BOARDS_PER_ROUND = 4


def sign_in(page: Page, user: str, password: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="Sign in as tournament director").click()
    type_into(page.get_by_label("Username"), user)
    page.keyboard.press("Tab")
    page.keyboard.type(password)
    page.keyboard.press("Enter")
    expect(page.locator(".site-header .who")).to_have_text(user)


def create_event(page: Page) -> Event:
    page.get_by_role("link", name="New event").click()
    expect(page.get_by_role("heading", name="New event")).to_be_visible()
    type_into(page.get_by_label("Name", exact=True), "Clubavond november")
    # The order of a date field's parts follows the browser's own language (headless Chromium's
    # is American whatever the page asks for): set the date as the date picker would.
    page.get_by_label("Date").fill("2026-11-20")
    type_into(page.get_by_label("Venue"), "Zaal De Kroon, Gent")
    type_into(page.get_by_label("Rounds", exact=True), "4")
    type_into(page.get_by_label("Boards per round"), str(BOARDS_PER_ROUND))
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Event created.")
    event = Event.objects.get(name="Clubavond november")
    assert page.url.endswith(f"/events/{event.slug}/")
    assert (event.rounds, event.boards_per_round, str(event.date)) == (
        4,
        BOARDS_PER_ROUND,
        "2026-11-20",
    )
    return event


def import_players(page: Page, tmp_path: Path) -> None:
    page.locator("nav.tabs").get_by_role("link", name="Players").click()
    upload = tmp_path / "spelers.csv"
    upload.write_text(players_csv(PLAYERS), encoding="utf-8")
    page.get_by_label("CSV file").set_input_files(upload)
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".messages")).to_contain_text(f"{PLAYERS} players registered.")
    rows = page.locator("table.data tbody tr")
    expect(rows).to_have_count(PLAYERS)
    expect(rows.last).to_contain_text(full_name(PLAYERS - 1))
    screenshot(page, "td-players-import")


def prepare_and_start(page: Page, event: Event) -> None:
    tabs = page.locator("nav.tabs")
    tabs.get_by_role("link", name="Movement").click()
    page.get_by_role("button", name="Generate the movement").click()
    expect(page.locator(".messages")).to_contain_text("Movement generated.")
    expect(page.get_by_role("heading", name="Round 4")).to_be_visible()
    tabs.get_by_role("link", name="Deals").click()
    page.get_by_role("button", name="Generate the deals").click()
    expect(page.locator("code.big")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    expect(page.locator("table.data tbody tr")).to_have_count(4 * BOARDS_PER_ROUND)
    tabs.get_by_role("link", name="Overview").click()
    page.get_by_role("button", name="Start").first.click()  # round 1's
    expect(page.locator(".messages")).to_contain_text("Round 1 started.")
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def print_round(page: Page, event: Event, tmp_path: Path) -> None:
    """Ask for round 1's score sheets, wait until the file is made, download it and read it."""
    page.locator("nav.tabs").get_by_role("link", name="Reports").click()
    form = page.locator("#request-report")
    form.get_by_label("Document").select_option(label="score sheets")
    form.get_by_label("Round").select_option("1")
    form.get_by_role("button", name="Make").click()
    row = page.locator("#reports tbody tr").first
    link = row.locator("a.download")
    expect(link).to_be_visible(timeout=30_000)
    with page.expect_download() as waiting:
        link.click()
    download = waiting.value
    assert download.suggested_filename.endswith(".pdf")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    pdf = PdfReader(io.BytesIO(path.read_bytes()))
    # A front and a back for each table.
    assert len(pdf.pages) == 2 * TABLES
    north = Seating.objects.get(
        table__round__event=event, table__number=1, round__number=1, seat="N"
    )
    assert north.entry is not None
    assert north.entry.player.last_name in pdf.pages[0].extract_text()


def table_url(event: Event, number: int) -> str:
    return f"/events/{event.slug}/rounds/1/tables/{number}/"


def lines_of(event: Event, number: int, rng: random.Random) -> list[Line]:
    return table_lines(Table.objects.get(round__event=event, round__number=1, number=number), rng)


def key_rest(page: Page, event: Event, number: int, lines: list[Line]) -> None:
    """Key the table's remaining boards; Enter on the last goes on to the next table's page."""
    for line in lines[:-1]:
        key_line(page, line)
    following = table_url(event, number + 1) if number < TABLES else round_url(event)
    key_last_line(page, lines[-1], following)


def round_url(event: Event) -> str:
    return f"/events/{event.slug}/rounds/1/"


def key_with_a_mistake(page: Page, event: Event, rng: random.Random) -> None:
    """Table 1: a line the rules refuse is shown as such and not saved; the right one then is."""
    lines = lines_of(event, 1, rng)
    page.locator("nav.tabs").get_by_role("link", name="Overview").click()
    page.get_by_role("link", name="Results").first.click()  # round 1's
    page.get_by_role("link", name="Enter", exact=True).first.click()  # table 1's
    expect(page.get_by_role("heading", name="Round 1, table 1")).to_be_visible()
    board = lines[0].board
    expect(board_row(page, board).locator("input.line")).to_be_focused()
    page.keyboard.type("NE 7H 8")  # an accept is for 8 tricks at least
    expect(status_of(page, board)).to_have_class(re.compile(r"\bbad\b"))
    page.keyboard.press("Enter")
    expect(status_of(page, board)).to_contain_text("not saved")
    assert not Result.objects.filter(table__round__event=event).exists()
    key_line(page, lines[0])
    key_line(page, lines[1])
    screenshot(page, "td-table-entry")
    key_rest(page, event, 1, lines[2:])


def key_with_a_correction(page: Page, event: Event, rng: random.Random) -> None:
    """Table 2: a wrong figure saved, then corrected; Troef asks for the reason and keeps both."""
    lines = lines_of(event, 2, rng)
    right = lines[0]
    board = right.board
    wrong = right
    while wrong.text == right.text:
        wrong = result_line(event, Board.objects.get(event=event, number=board), rng)
    key_line(page, wrong)
    board_row(page, board).locator("input.line").click()  # back to the board just saved
    type_line(page, right)
    page.keyboard.press("Enter")
    confirm_if_asked(page, right)  # a rare result is confirmed before the reason is asked
    reason = board_row(page, board).locator("input.reason-inline")
    expect(reason).to_be_focused()
    expect(board_row(page, board).locator(".status")).to_contain_text("Reason for the correction")
    page.keyboard.type("sheet misread")
    page.keyboard.press("Enter")
    expect(board_row(page, board)).to_have_attribute("data-version", "2")
    key_rest(page, event, 2, lines[1:])
    page.goto(table_url(event, 2))
    expect(status_of(page, board)).to_contain_text("(v2)")
    expect(board_row(page, board).locator("input.line")).to_have_value(right.text)
    history = Result.objects.filter(table__number=2, board__number=board).order_by("version")
    assert [(r.notation, r.reason) for r in history] == [
        (wrong.text, ""),
        (right.text, "sheet misread"),
    ]
    page.goto(table_url(event, 3))


def key_a_sheet_difference(page: Page, event: Event, rng: random.Random) -> None:
    """Table 3: the sheet's points for N differ from Troef's score; the TD checks and accepts it."""
    lines = lines_of(event, 3, rng)
    line = lines[0]
    board = line.board
    north = results.check(event, Board.objects.get(event=event, number=board), line.text).scores[0]
    type_line(page, line)
    page.keyboard.press("Tab")  # to the sheet's points for N
    page.keyboard.type(str(north + 10))
    page.keyboard.press("Enter")
    confirm_if_asked(page, line)
    row = board_row(page, board)
    expect(row.locator("input.sheet.mismatch")).to_have_attribute("data-seat", "N")
    expect(row.locator("form.accept")).to_be_visible()
    page.reload()  # the difference stays open until it is resolved
    row = board_row(page, board)
    expect(status_of(page, board)).to_contain_text("The sheet says otherwise for N")
    expect(row.locator("input.sheet[data-seat='N']")).to_have_value(str(north + 10))
    screenshot(page, "td-sheet-difference")
    type_into(row.get_by_label("Reason"), "the table added up wrongly")
    row.get_by_role("button", name="Accept Troef's score").click()
    expect(page.locator(".messages")).to_contain_text("Troef's score accepted over the sheet")
    expect(board_row(page, board).locator("form.accept")).to_have_count(0)
    result = Result.objects.get(table__number=3, board__number=board, is_current=True)
    assert result.sheet_status == Result.SheetStatus.ACCEPTED
    key_rest(page, event, 3, lines[1:])


def standings_row(page: Page, name: str) -> Locator:
    return page.locator("#standings tbody tr").filter(
        has=page.locator("td.name a").get_by_text(name, exact=True)
    )


def check_fits_the_phone(page: Page) -> None:
    """Place, name and total are on screen without scrolling sideways."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert laid_out(page).evaluate("document.scrollingElement.scrollWidth") <= width
    first = page.locator("#standings tbody tr").first
    for cell in (first.locator("td.place"), first.locator("td.name"), first.locator("td.total")):
        expect(cell).to_be_visible()
        box = cell.bounding_box()
        assert box is not None, cell
        assert box["x"] >= 0, cell
        assert box["x"] + box["width"] <= width, cell


def key_while_a_phone_watches(page: Page, phone: Page, event: Event, lines: list[Line]) -> None:
    """The last table's last board is keyed while a player watches: the phone's standings follow."""
    table = Table.objects.get(round__event=event, round__number=1, number=TABLES)
    north = table.seatings.get(seat="N").entry
    assert north is not None
    phone.goto(f"/events/{event.slug}/standings/")
    rows = phone.locator("#standings tbody tr")
    expect(rows).to_have_count(PLAYERS)
    watched = standings_row(phone, north.player.full_name)
    expect(watched.locator("td.boards")).to_have_text(str(BOARDS_PER_ROUND - 1))
    check_fits_the_phone(phone)
    before = phone.locator("#standings tbody").text_content()
    key_rest(page, event, TABLES, lines[-1:])
    # The page asks for the standings every few seconds and redraws them when they changed.
    expect(phone.locator("#standings tbody")).not_to_have_text(before or "", timeout=15_000)
    expect(watched.locator("td.boards")).to_have_text(str(BOARDS_PER_ROUND))
    expect(watched.locator("td.total")).to_have_text(re.compile(r"\d"))
    check_fits_the_phone(phone)
    screenshot(phone, "phone-standings")


def switch_language(page: Page, code: str) -> None:
    page.get_by_label(re.compile("Language|Taal|Langue")).select_option(code)
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", code)


def check_languages(page: Page, phone: Page, event: Event) -> None:
    page.goto(f"/events/{event.slug}/")
    switch_language(page, "nl")
    tabs = page.locator("nav.tabs")
    for word in ("Spelers", "Klassement", "Documenten"):
        expect(tabs).to_contain_text(word)
    expect(page.get_by_role("heading", name="Rondes")).to_be_visible()
    switch_language(page, "fr")
    for word in ("Joueurs", "Classement", "Aperçu"):
        expect(tabs).to_contain_text(word)
    expect(page.get_by_role("heading", name="Tours")).to_be_visible()
    switch_language(page, "nl")
    switch_language(phone, "fr")
    expect(phone.locator("#standings thead")).to_contain_text("Rang")
    switch_language(phone, "nl")
    expect(phone.locator("#standings thead")).to_contain_text("Plaats")
    expect(phone.locator("#standings thead")).to_contain_text("Totaal")
    check_fits_the_phone(phone)


def close_round_one(page: Page, event: Event) -> None:
    page.goto(round_url(event))
    expect(page.get_by_text("Every board has its result; nothing is missing.")).to_be_visible()
    page.get_by_role("button", name="Close the round").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 closed.")


def seat_of(event: Event, round_number: int, entry: Entry) -> tuple[int, Seating]:
    """The seat planned for a player in a round, and the number of its table."""
    seat = Seating.objects.select_related("table").get(
        round__event=event, round__number=round_number, replaces=entry
    )
    assert seat.table is not None
    return seat.table.number, seat


def withdraw_and_seat_a_late_arrival(page: Page, event: Event) -> None:
    """Player 5 goes home after round 1, with a reason; a late arrival takes the empty seat."""
    leaving = Entry.objects.get(event=event, number=5)
    page.locator("nav.tabs").get_by_role("link", name="Players").click()
    page.locator("#player-5").get_by_role("link", name="Withdraw").click()
    expect(page.get_by_role("heading", name=re.compile("Withdraw player 5"))).to_be_visible()
    expect(page.get_by_text("These seats become vacant")).to_be_visible()
    type_into(page.get_by_label("Reason (required)"), "feeling unwell")
    page.get_by_role("button", name="Withdraw").click()
    expect(page.locator(".messages")).to_contain_text("withdrawn")
    expect(page.locator("#player-5")).to_contain_text("withdrawn after round 1: feeling unwell")
    _table, vacant = seat_of(event, 2, leaving)
    assert vacant.entry is None
    page.locator("nav.tabs").get_by_role("link", name="Absentees and substitutes").click()
    expect(page.get_by_role("heading", name=re.compile("Round 2"))).to_be_visible()
    late = page.locator("section").filter(has=page.get_by_role("heading", name="A late arrival"))
    type_into(late.get_by_label("First name"), "Hugo")
    page.keyboard.press("Tab")
    page.keyboard.type("Vandenberghe")
    type_into(late.get_by_label("Reason"), "came after round 1")
    late.get_by_role("button", name="Add the late arrival").click()
    expect(page.locator(".messages")).to_contain_text("Hugo Vandenberghe")
    table, taken = seat_of(event, 2, leaving)
    assert taken.entry is not None
    assert taken.entry.player.full_name == "Hugo Vandenberghe"
    expect(page.locator(f"#table-{table}")).to_contain_text("Hugo Vandenberghe")


def start_round_two(page: Page) -> None:
    page.locator("nav.tabs").get_by_role("link", name="Overview").click()
    page.get_by_role("button", name="Start").first.click()  # round 2's
    expect(page.locator(".messages")).to_contain_text("Round 2 started.")


def seat_a_substitute_for_a_no_show(page: Page, event: Event) -> None:
    """Player 12 does not turn up for round 2: the seat goes to a substitute for this round."""
    missing = Entry.objects.select_related("player").get(event=event, number=12)
    page.locator("nav.tabs").get_by_role("link", name="Absentees and substitutes").click()
    absent = page.locator("section").filter(
        has=page.get_by_role("heading", name="A player did not turn up")
    )
    absent.get_by_label("Player").select_option(label=f"12. {missing.player.full_name}")
    type_into(absent.get_by_label("Reason"), "no show")
    absent.get_by_role("button", name="Mark absent").click()
    expect(page.locator(".messages")).to_contain_text(f"The seat of {missing.player.full_name}")
    table, seat = seat_of(event, 2, missing)
    assert seat.entry is None
    page.get_by_text(f"Seat a substitute at table {table}, seat {seat.seat}", exact=True).click()
    form = page.locator("form").filter(has=page.get_by_role("button", name="Seat the substitute"))
    type_into(form.get_by_label("First name"), "Roger")
    page.keyboard.press("Tab")
    page.keyboard.type("Stoffels")
    type_into(form.get_by_label("Reason"), "from the bar")
    page.locator(f"#table-{table}").evaluate("row => row.scrollIntoView()")
    screenshot(page, "td-seats-substitute")
    form.get_by_role("button", name="Seat the substitute").click()
    expect(page.locator(".messages")).to_contain_text("Roger Stoffels plays as substitute")
    expect(page.locator(f"#table-{table}")).to_contain_text("Roger Stoffels (sub)")
    _table, seat = seat_of(event, 2, missing)
    assert seat.entry is not None
    assert seat.entry.role == Entry.Role.SUBSTITUTE


def close_round_two_with_a_board_missing(page: Page, event: Event, td: User) -> None:
    """Round 2's sheets are keyed (here through the services: round 1 covered the keying), but
    for one board; closing is refused with the list, then done anyway with a reason."""
    rng = random.Random(22)
    missing = 0
    tables = list(Table.objects.filter(round__event=event, round__number=2).order_by("number"))
    for table in tables:
        lines = table_lines(table, rng)
        if table == tables[-1]:
            missing = lines.pop().board
        for line in lines:
            board = Board.objects.get(event=event, number=line.board)
            results.record_result(td, table, board, line.text, confirmed=True)
    page.locator("nav.tabs").get_by_role("link", name="Overview").click()
    page.get_by_role("button", name="Close", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("Round 2")
    gaps = page.locator("ul.gaps")
    expect(gaps).to_contain_text(f"Table {TABLES}: no result for board {missing}")
    screenshot(page, "td-round-close")
    close = page.locator("form").filter(has=page.get_by_role("button", name="Close anyway"))
    type_into(close.get_by_label("Reason"), "the sheet of table 7 went missing")
    close.get_by_role("button", name="Close anyway").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 closed.")
    round_two = event.round_set.get(number=2)
    assert round_two.status == "closed"


def test_it_runs_a_club_evening_from_the_new_event_form_to_the_standings(
    td_page: Page, phone_page: Page, td: User, tmp_path: Path
) -> None:
    page = td_page
    rng = random.Random(2026)
    sign_in(page, "alice", "alice-password")
    event = create_event(page)
    import_players(page, tmp_path)
    prepare_and_start(page, event)
    print_round(page, event, tmp_path)
    key_with_a_mistake(page, event, rng)
    key_with_a_correction(page, event, rng)
    key_a_sheet_difference(page, event, rng)
    for number in range(4, TABLES):
        key_rest(page, event, number, lines_of(event, number, rng))
    last = lines_of(event, TABLES, rng)
    for line in last[:-1]:
        key_line(page, line)
    key_while_a_phone_watches(page, phone_page, event, last)
    assert Result.objects.filter(table__round__event=event, is_current=True).count() == (
        TABLES * BOARDS_PER_ROUND
    )
    close_round_one(page, event)
    withdraw_and_seat_a_late_arrival(page, event)
    start_round_two(page)
    seat_a_substitute_for_a_no_show(page, event)
    close_round_two_with_a_board_missing(page, event, td)
    check_languages(page, phone_page, event)


def test_a_lost_answer_is_sent_again_with_its_key_and_a_differing_table_keying_shows(
    td_page: Page, td: User
) -> None:
    from playwright.sync_api import Route

    from tests.tournaments.conftest import start_event
    from tests.tournaments.test_results import a_line_for

    page = td_page
    event = start_event(td, "lost-answer", 8)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    first, second = [link.board for link in table.table_boards.order_by("position")[:2]]
    sign_in(page, "alice", "alice-password")
    page.goto(table_url(event, 1))
    sent: list[Any] = []

    def lose_the_first_answer(route: Route) -> None:
        sent.append(route.request.post_data_json)
        if len(sent) == 1:
            route.fetch()  # the server stores it; its answer never reaches the page
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/v1/events/*/results/", lose_the_first_answer)
    expect(board_row(page, first.number).locator("input.line")).to_be_focused()
    page.keyboard.type(a_line_for(first))
    page.keyboard.press("Enter")
    expect(status_of(page, first.number)).to_have_text("saved")
    expect(board_row(page, first.number)).to_have_attribute("data-version", "1")
    assert len(sent) == 2
    assert sent[0]["submission"] == sent[1]["submission"]
    assert Result.objects.filter(table=table, board=first).count() == 1
    # Meanwhile the table's phone keyed the next board otherwise: the TD's line stands beside it.
    results.record_result(None, table, second, "pass", source="device", seat="N")
    expect(board_row(page, second.number).locator("input.line")).to_be_focused()
    page.keyboard.type(a_line_for(second))
    page.keyboard.press("Enter")
    keying = board_row(page, second.number).locator(".status .keying")
    expect(keying).to_contain_text("Differs from the table's keying: pass")
    expect(keying.get_by_role("link")).to_have_attribute(
        "href", f"/events/{event.slug}/rounds/1/tables/1/boards/{second.number}/"
    )
    expect(board_row(page, second.number).locator("input.line")).to_have_value(a_line_for(second))
    current = Result.objects.get(table=table, board=second, is_current=True)
    assert (current.notation, current.other_keying) == ("pass", a_line_for(second))
