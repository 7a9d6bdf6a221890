"""Faster keying: a whole round on one page, Enter on to the next table, counters, a whole table's
artificial score in one action, and adjusted scores in words instead of their notation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Event, Result, Seating, Table
from tournaments.services import adjustments, results, standings

AVERAGE = {"N": "average", "E": "average", "S": "average", "W": "average"}


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    """Eight players, round 1 in play."""
    with as_a_test():
        return start_event(module_td, "keying", 8)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """Eight players, round 1 in play (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


def table(event: Event, number: int = 1) -> Table:
    return Table.objects.get(round__event=event, round__number=1, number=number)


def boards_of(table: Table) -> list[int]:
    return list(table.table_boards.order_by("position").values_list("board__number", flat=True))


def test_a_whole_tables_artificial_score_skips_the_boards_played(td: User, running: Event) -> None:
    one = table(running)
    first = one.table_boards.get(position=1).board
    results.record_result(td, one, first, "pass", confirmed=True)
    written = adjustments.award_table_artificial(td, one, AVERAGE, "the table came too late")
    assert [r.board.number for r in written] == boards_of(one)[1:]
    assert {r.kind for r in written} == {Result.Kind.ARTIFICIAL}
    assert Result.objects.get(table=one, board=first, is_current=True).kind == Result.Kind.PLAYED
    entry = AuditEntry.objects.get(action="result.artificial_table")
    assert entry.reason == "the table came too late"
    assert entry.data["skipped"] == [first.number]
    assert not AuditEntry.objects.filter(action="result.record", reason=entry.reason).exists()
    message = adjustments.table_award_message(one, written)
    assert (
        message
        == f"Artificial scores recorded on 3 boards. Board {first.number} kept its played result."
    )


def test_a_whole_tables_artificial_score_needs_a_reason_and_a_seat_that_scores(
    td: User, running: Event
) -> None:
    one = table(running)
    with pytest.raises(UserError) as caught:
        adjustments.award_table_artificial(td, one, AVERAGE, " ")
    assert caught.value.field == "reason"
    with pytest.raises(UserError) as caught:
        adjustments.award_table_artificial(td, one, dict.fromkeys("NESW"), "nobody came")
    assert caught.value.field == "awards"
    with pytest.raises(UserError) as caught:
        adjustments.award_table_artificial(td, one, {**AVERAGE, "E": "120"}, "typo")
    assert caught.value.field == "awards"
    assert not Result.objects.exists()


def test_a_table_played_in_full_gets_no_artificial_score(td: User, running: Event) -> None:
    one = table(running)
    for link in one.table_boards.select_related("board"):
        results.record_result(td, one, link.board, "pass", confirmed=True)
    with pytest.raises(UserError) as caught:
        adjustments.award_table_artificial(td, one, AVERAGE, "by mistake")
    assert caught.value.code == "all_played"


def test_an_absentee_gets_no_score_on_the_boards_awarded(td: User, running: Event) -> None:
    one = table(running)
    seats = dict(Seating.objects.filter(table=one).values_list("seat", "entry__number"))
    first = one.table_boards.get(position=1).board
    results.record_result(td, one, first, "pass", confirmed=True)
    adjustments.award_table_artificial(
        td, one, {**AVERAGE, "N": None, "E": "average_plus"}, "N went home"
    )
    rows = {row["entry"]: row for row in standings.compute(running)["rows"]}
    assert rows[seats["N"]]["boards"] == 1  # only the board played
    assert rows[seats["E"]]["boards"] == 4
    assert rows[seats["S"]]["boards"] == 4


def test_adjusted_scores_are_shown_in_words(td: User, running: Event) -> None:
    one = table(running)
    written = adjustments.award_table_artificial(
        td, one, {"N": "average_plus", "E": "average", "S": "45", "W": None}, "N/S ruling"
    )
    assert written[0].notation.startswith("art ")
    assert results.describe(written[0]) == ("Artificial: N average-plus, E average, S 45 %, W —")


def test_no_page_shows_an_artificial_score_in_its_notation(
    td_client: Client, td: User, running: Event
) -> None:
    adjustments.award_table_artificial(td, table(running), AVERAGE, "table fouled")
    slug = running.slug
    board = boards_of(table(running))[0]
    for url in (
        f"/events/{slug}/rounds/1/tables/1/",
        f"/events/{slug}/rounds/1/entry/",
        f"/events/{slug}/rounds/1/tables/1/boards/{board}/",
    ):
        page = td_client.get(url).content.decode()
        assert "art N:" not in page, url
        assert "Artificial: N average, E average, S average, W average" in page, url


def test_the_whole_round_page_has_every_table_in_order_and_is_linked(
    td_client: Client, running: Event
) -> None:
    slug = running.slug
    overview = td_client.get(f"/events/{slug}/rounds/1/").content.decode()
    assert f'href="/events/{slug}/rounds/1/entry/"' in overview
    page = td_client.get(f"/events/{slug}/rounds/1/entry/").content.decode()
    assert re.findall(r'<section class="entry-table" id="t(\d+)"', page) == ["1", "2"]
    assert page.count('input class="line"') == 8
    assert page.count(f'data-save-url="/api/v1/events/{slug}/results/"') == 2
    assert 'data-round="1" data-table="2"' in page


def test_enter_on_a_tables_last_board_leads_to_the_next_table(
    td_client: Client, running: Event
) -> None:
    slug = running.slug
    first = td_client.get(f"/events/{slug}/rounds/1/tables/1/").content.decode()
    assert f'data-next-url="/events/{slug}/rounds/1/tables/2/"' in first
    second = td_client.get(f"/events/{slug}/rounds/1/tables/1/?second=1").content.decode()
    assert f'data-next-url="/events/{slug}/rounds/1/tables/2/?second=1"' in second
    last = td_client.get(f"/events/{slug}/rounds/1/tables/2/").content.decode()
    assert f'data-next-url="/events/{slug}/rounds/1/"' in last


def test_the_counters_say_what_is_keyed_and_missing(
    td_client: Client, td: User, running: Event
) -> None:
    two = table(running, 2)
    results.record_result(td, two, two.table_boards.get(position=1).board, "pass", confirmed=True)
    page = td_client.get(f"/events/{running.slug}/rounds/1/tables/1/").content.decode()
    text = re.sub(r"<[^>]+>", "", page)
    assert "Table 1: 0 of 4 boards keyed, 4 missing" in text
    assert "Round 1: 1 of 8 boards keyed, 7 missing" in text
    assert 'data-other-done="1" data-other-total="4"' in page
    second = td_client.get(f"/events/{running.slug}/rounds/1/entry/?second=1").content.decode()
    assert "Round 1: 0 of 8 boards keyed, 8 missing" in re.sub(r"<[^>]+>", "", second)


def test_a_td_scores_a_whole_table_from_its_entry_page(
    td_client: Client, td: User, running: Event
) -> None:
    url = f"/events/{running.slug}/rounds/1/tables/2/"
    assert (
        "Artificial score for every board of this table not played"
        in td_client.get(url).content.decode()
    )
    response = td_client.post(
        url + "artificial/",
        {"award_N": "", "award_E": "average", "award_S": "average", "award_W": "average_minus",
         "reason": "N did not come back", "back": "round"},
    )  # fmt: skip
    assert response["Location"] == f"/events/{running.slug}/rounds/1/entry/#t2"
    written = Result.objects.filter(table=table(running, 2), is_current=True)
    assert written.count() == 4
    assert written.first().data["awards"] == {  # type: ignore[union-attr]
        "N": None, "E": "average", "S": "average", "W": "average_minus"
    }  # fmt: skip
    page = td_client.get(response["Location"]).content.decode()
    assert "Artificial scores recorded on 4 boards." in page


def test_the_keying_script_asks_nothing_through_browser_dialogs() -> None:
    script = (Path(settings.STATIC_DIR) / "troef" / "entry.js").read_text()
    assert "window.prompt" not in script
    assert "window.confirm" not in script
    assert "reason-inline" in script  # the reason is asked in the row instead


def test_the_entry_pages_name_their_keys(td_client: Client, running: Event) -> None:
    page = td_client.get(f"/events/{running.slug}/rounds/1/tables/1/").content.decode()
    assert 'accesskey="n"' in page
    assert 'accesskey="a"' in page
    assert "<kbd>Escape</kbd>" in page


def test_a_table_keying_that_differs_is_shown_on_the_line_and_kept_from_the_history(
    td_client: Client, td: User, running: Event
) -> None:
    from tests.tournaments.test_results import a_line_for

    one = table(running)
    board = one.table_boards.get(position=1).board
    results.record_result(None, one, board, "pass", source="device", seat="N")
    sheet_line = a_line_for(board)
    results.record_result(td, one, board, sheet_line, expected_version=1)
    slug = running.slug
    page = td_client.get(f"/events/{slug}/rounds/1/tables/1/").content.decode()
    # The sheet's line in the box, the table's beside it, with the way to the board's history.
    assert f'value="{sheet_line}"' in page
    assert "Differs from the table's keying: <code>pass</code>" in page
    history_url = f"/events/{slug}/rounds/1/tables/1/boards/{board.number}/"
    history = td_client.get(history_url).content.decode()
    assert "keyed at the table" in history
    assert "Keep this result: pass" in history
    assert f"Take the other keying: {sheet_line}" in history
    keep = f"{history_url}keep/"
    stale = td_client.post(keep, {"version": "2", "reason": "asked", "back": "history"})
    assert stale["Location"] == history_url
    assert Result.objects.get(is_current=True).other_keying == sheet_line
    td_client.post(keep, {"version": "1", "reason": "asked the players", "back": "history"})
    kept = Result.objects.get(is_current=True)
    assert (kept.notation, kept.status, kept.other_keying) == ("pass", "confirmed", "")
    assert AuditEntry.objects.filter(action="result.keep_keying").count() == 1
    page = td_client.get(f"/events/{slug}/rounds/1/tables/1/").content.decode()
    assert "Differs from the table's keying: <code>" not in page


def test_the_td_may_take_the_other_keying_with_a_reason(
    td_client: Client, td: User, running: Event
) -> None:
    from tests.tournaments.test_results import a_line_for

    one = table(running)
    board = one.table_boards.get(position=1).board
    results.record_result(None, one, board, "pass", source="device", seat="N")
    results.record_result(td, one, board, a_line_for(board), expected_version=1)
    keep = f"/events/{running.slug}/rounds/1/tables/1/boards/{board.number}/keep/"
    td_client.post(keep, {"version": "1", "keep": "other", "reason": "", "back": "history"})
    assert Result.objects.get(is_current=True).notation == "pass"  # a correction needs its reason
    td_client.post(keep, {"version": "1", "keep": "other", "reason": "the sheet is right"})
    current = Result.objects.get(is_current=True)
    assert (current.version, current.notation, current.reason) == (
        2,
        a_line_for(board),
        "the sheet is right",
    )


@pytest.mark.parametrize(
    "address",
    [
        "/events/{slug}/rounds/1/tables/1/",
        "/events/{slug}/rounds/1/entry/",
        "/events/{slug}/rounds/1/",
        "/events/{slug}/rounds/1/tables/1/boards/1/",
        "/events/{slug}/penalties/",
    ],
)
def test_an_assistant_keys_and_rules_but_an_outsider_may_not(
    client: Client, assistant: User, outsider: User, running: Event, address: str
) -> None:
    url = address.format(slug=running.slug)
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    running.assistants.add(assistant)
    client.force_login(assistant)
    assert client.get(url).status_code == 200
