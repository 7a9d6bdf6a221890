"""Stored documents that no longer match the event: re-dealt, re-planned, results changed since."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from documents import freshness as staleness
from documents import services as reports
from documents.freshness import CURRENT, OUT_OF_DATE, UNKNOWN, Freshness
from documents.models import ReportFile
from documents.tasks import build_report as build_report_task
from tests.documents.conftest import freshness, record_pass, stored
from tournaments.models import AuditAction, AuditEntry, Entry, Event, Round
from tournaments.services import (
    deals,
    devices,
    events,
    players,
    rounds,
    seating,
)
from tournaments.services import standings as standings_service
from tournaments.services.events import EventSettings

DEALS_CHANGED = "The deals changed after this file was made: make it again before printing."
KEY_REVEALED = "The deal key was revealed after this file was made: make it again to print it."
STANDINGS_CHANGED = "The standings changed after this file was made."
COPIES_CHANGED = (
    "The number of tables that play each board changed after this file was made, and with it "
    "the number of copies to deal."
)
EVENT_CHANGED = "The event's name, date or venue changed after this file was made."
PROGRESS_CHANGED = (
    "Rounds were started or closed, or players, tables or results changed, after this file was "
    "made."
)
PINS_CHANGED = (
    "Table device links or PINs were made anew after this file was made: make it again before "
    "printing the table cards."
)
SAVED_MEANWHILE = (
    "Changes were saved while this file was being made: make it again to be sure it shows them."
)
NOT_CHECKED = (
    "This file was made before Troef kept track of what each document is made from, so it "
    "cannot tell whether the file still matches the event. Make it again to be sure."
)


def seating_changed(rounds: str, plural: bool = False) -> str:
    return (
        f"The seating of round{'s' if plural else ''} {rounds} changed after this file was made "
        "(a re-planning, a late arrival, a withdrawal, a no-show or a substitute): make it again "
        "before printing."
    )


def results_changed(rounds: str) -> str:
    return f"Results of round {rounds} were entered or corrected after this file was made."


@pytest.fixture
def demo(module_demo: Event, db: None) -> Event:
    """The demo event (loaded once for the module)."""
    return Event.objects.get(pk=module_demo.pk)


def made(td: User, event: Event, kind: str, round_number: int | None = None) -> ReportFile:
    """A document requested and built, as the worker builds it once the request has committed."""
    report = reports.request_report(td, event, kind, round_number=round_number, language="en")
    build_report_task(report.pk)
    report.refresh_from_db()
    assert report.status == ReportFile.Status.DONE, report.error
    return report


def signed_in(user: User) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


@pytest.fixture
def committing(
    django_capture_on_commit_callbacks: Any,
) -> Callable[[], AbstractContextManager[None]]:
    """Changes committed as in production: the standings are recomputed after each one."""
    from config.celery import app

    @contextmanager
    def run() -> Iterator[None]:
        previous = app.conf.task_always_eager
        app.conf.task_always_eager = True  # in-process even when a broker is configured
        try:
            with django_capture_on_commit_callbacks(execute=True):
                yield
        finally:
            app.conf.task_always_eager = previous

    return run


# --- a file just made is current --------------------------------------------------------------

EVERY_KIND = [
    ("score_sheets", 3),
    ("round_pack", 4),
    ("hand_records", None),
    ("hand_records", 4),
    ("dealing_slips", 4),
    ("dlm", None),
    ("pbn", 2),
    ("guide_cards", None),
    ("table_cards", None),
    ("table_cards", 4),
    ("standings", None),
    ("score_cards", None),
    ("summary", None),
]


def test_every_document_just_made_is_up_to_date(td: User, demo: Event, media: Path) -> None:
    for kind, round_number in EVERY_KIND:
        report = made(td, demo, kind, round_number)
        # Drawn after the event's newest entry: the request's own.
        newest = AuditEntry.objects.filter(event=demo).latest("id")
        assert newest.action == AuditAction.REPORT_REQUEST
        assert report.audit_mark == newest.pk
        assert report.printed_results == (kind not in staleness.FILLED_IN or round_number != 4)
        assert freshness(demo, report) == Freshness(CURRENT), (kind, round_number)


# --- deals ---------------------------------------------------------------------------------------


def test_dealing_again_makes_the_deal_documents_out_of_date_and_nothing_else(
    td: User, draft: Event, media: Path, committing: Callable[[], AbstractContextManager[None]]
) -> None:
    dealt = [
        made(td, draft, "hand_records"),
        made(td, draft, "hand_records", 2),
        made(td, draft, "dealing_slips", 1),
        made(td, draft, "pbn"),
        made(td, draft, "dlm", 3),
        made(td, draft, "round_pack", 1),
        made(td, draft, "summary"),  # prints the deals' commitment
    ]
    others = [
        made(td, draft, "score_sheets", 1),
        made(td, draft, "guide_cards"),
        made(td, draft, "table_cards", 2),
        made(td, draft, "standings"),
    ]
    with committing():
        deals.generate_deals(td, draft, key="lente-key-2")
    for report in dealt:
        assert freshness(draft, report) == Freshness(OUT_OF_DATE, (DEALS_CHANGED,)), report.kind
    for report in others:
        assert freshness(draft, report).state == CURRENT, report.kind


def test_dealing_again_from_the_same_key_changes_nothing_printed(
    td: User, draft: Event, media: Path
) -> None:
    files = [made(td, draft, "hand_records"), made(td, draft, "round_pack", 2)]
    deals.generate_deals(td, draft, key="lente-key-1")  # every board and link made anew
    assert [freshness(draft, report).state for report in files] == [CURRENT, CURRENT]


def test_finishing_the_event_reveals_the_key_on_the_hand_records(
    td: User, demo: Event, media: Path
) -> None:
    hand_records = made(td, demo, "hand_records")
    pbn = made(td, demo, "pbn")
    for round_ in demo.round_set.order_by("number"):
        if round_.status == Round.Status.PLANNED:
            rounds.open_round(td, round_)
        rounds.close_round(
            td, Round.objects.get(pk=round_.pk), "round 3 is not fully keyed", anyway=True
        )
    events.finish_event(td, demo)
    assert freshness(demo, hand_records) == Freshness(OUT_OF_DATE, (KEY_REVEALED,))
    assert freshness(demo, pbn).state == CURRENT  # a deal file prints no key


# --- seating ---------------------------------------------------------------------------------


def test_a_withdrawal_flags_the_seating_of_the_rounds_not_yet_played(
    td: User, demo: Event, media: Path, committing: Callable[[], AbstractContextManager[None]]
) -> None:
    sheets_4 = made(td, demo, "score_sheets", 4)
    cards_4 = made(td, demo, "table_cards", 4)
    pack_4 = made(td, demo, "round_pack", 4)
    guide = made(td, demo, "guide_cards")
    standings = made(td, demo, "standings")
    unchanged = [
        made(td, demo, "score_sheets", 2),
        made(td, demo, "table_cards", 3),
        made(td, demo, "hand_records", 4),  # the same boards, the same deals
        # The player's seats become vacant: as many tables, so as many copies of each board.
        made(td, demo, "dealing_slips", 4),
    ]
    with committing():
        players.withdraw_player(td, Entry.objects.get(event=demo, number=5), reason="ill")
    seating_4 = seating_changed("4")
    assert freshness(demo, sheets_4) == Freshness(OUT_OF_DATE, (seating_4,))
    assert freshness(demo, cards_4) == Freshness(OUT_OF_DATE, (seating_4,))
    assert freshness(demo, pack_4) == Freshness(OUT_OF_DATE, (seating_4,))
    assert freshness(demo, guide) == Freshness(
        OUT_OF_DATE, (seating_changed("4, 5, 6", plural=True),)
    )
    # The withdrawn player is printed in grey from now on.
    assert freshness(demo, standings) == Freshness(OUT_OF_DATE, (STANDINGS_CHANGED,))
    for report in unchanged:
        assert freshness(demo, report).state == CURRENT, (report.kind, report.round_number)


def test_re_planning_leaves_the_standings_and_the_rounds_played_alone(
    td: User, demo: Event, media: Path, committing: Callable[[], AbstractContextManager[None]]
) -> None:
    sheets_5 = made(td, demo, "score_sheets", 5)
    others = [
        made(td, demo, "standings"),
        made(td, demo, "score_cards"),
        made(td, demo, "score_sheets", 3),
        made(td, demo, "hand_records"),
    ]
    with committing():
        seating.replan(td, demo, reason="a better spread of meetings", seed=7)
    assert freshness(demo, sheets_5) == Freshness(OUT_OF_DATE, (seating_changed("5"),))
    for report in others:
        assert freshness(demo, report).state == CURRENT, report.kind


def test_starting_play_keeps_the_documents_made_before(td: User, draft: Event, media: Path) -> None:
    # Starting freezes a copy of the ruleset into the event: the score table printed is the same.
    files = [made(td, draft, "score_sheets", 1), made(td, draft, "guide_cards")]
    rounds.open_round(td, draft.round_set.get(number=1))
    assert [freshness(draft, report).state for report in files] == [CURRENT, CURRENT]


# --- results -------------------------------------------------------------------------------


def test_a_result_flags_its_rounds_sheets_and_the_standings_but_not_the_deals(
    td: User, demo: Event, media: Path, committing: Callable[[], AbstractContextManager[None]]
) -> None:
    sheets_3 = made(td, demo, "score_sheets", 3)
    pack_3 = made(td, demo, "round_pack", 3)
    standings = made(td, demo, "standings")
    cards = made(td, demo, "score_cards")
    summary = made(td, demo, "summary")
    unchanged = [
        made(td, demo, "score_sheets", 2),
        made(td, demo, "hand_records", 3),
        made(td, demo, "dealing_slips"),
        made(td, demo, "guide_cards"),
        made(td, demo, "table_cards", 3),
    ]
    with committing():
        record_pass(td, demo, 3)
    assert freshness(demo, sheets_3) == Freshness(OUT_OF_DATE, (results_changed("3"),))
    assert freshness(demo, pack_3) == Freshness(OUT_OF_DATE, (results_changed("3"),))
    assert freshness(demo, standings) == Freshness(OUT_OF_DATE, (STANDINGS_CHANGED,))
    assert freshness(demo, cards) == Freshness(
        OUT_OF_DATE, (results_changed("3"), STANDINGS_CHANGED)
    )
    assert freshness(demo, summary) == Freshness(OUT_OF_DATE, (PROGRESS_CHANGED, STANDINGS_CHANGED))
    for report in unchanged:
        assert freshness(demo, report).state == CURRENT, (report.kind, report.round_number)


def test_a_correction_in_a_reopened_round_flags_that_rounds_sheets(
    td: User, demo: Event, media: Path, committing: Callable[[], AbstractContextManager[None]]
) -> None:
    sheets_2 = made(td, demo, "score_sheets", 2)
    sheets_1 = made(td, demo, "score_sheets", 1)
    standings = made(td, demo, "standings")
    hand_records = made(td, demo, "hand_records", 2)
    with committing():
        rounds.reopen_round(td, demo.round_set.get(number=2), reason="sheet of table 1 misread")
        record_pass(td, demo, 2, reason="sheet of table 1 misread")
    assert freshness(demo, sheets_2) == Freshness(OUT_OF_DATE, (results_changed("2"),))
    assert freshness(demo, sheets_1).state == CURRENT
    assert freshness(demo, hand_records).state == CURRENT
    # A correction may leave every ranking of its board as it was, and then the standings
    # printed: the log says a result changed, not how, so the standings are out of date anyway.
    assert freshness(demo, standings) == Freshness(OUT_OF_DATE, (STANDINGS_CHANGED,))


# --- the event's own details -------------------------------------------------------------------


def test_renaming_the_event_flags_every_document_that_prints_its_name(
    td: User, draft: Event, media: Path
) -> None:
    files = [made(td, draft, "hand_records"), made(td, draft, "standings")]
    events.update_event(
        td,
        draft,
        EventSettings(
            name="Lenteavond (verplaatst)",
            date=draft.date,
            venue=draft.venue,
            game=draft.game,
            ruleset_name=draft.ruleset_name,
            rounds=draft.rounds,
            boards_per_round=draft.boards_per_round,
        ),
    )
    for report in files:
        assert freshness(draft, report) == Freshness(OUT_OF_DATE, (EVENT_CHANGED,)), report.kind


# --- the reports page ------------------------------------------------------------------------


def test_the_page_shows_an_out_of_date_file_with_what_changed_and_still_serves_it(
    td: User, demo: Event, media: Path, committing: Callable[[], AbstractContextManager[None]]
) -> None:
    stale = made(td, demo, "score_sheets", 4)
    fresh = made(td, demo, "hand_records", 4)
    with committing():
        players.withdraw_player(td, Entry.objects.get(event=demo, number=5), reason="ill")
    client = signed_in(td)
    page = client.get(reverse("reports", args=[demo.slug])).content.decode()
    assert f'id="report-{stale.pk}"' in page
    row = page.split(f'id="report-{stale.pk}"')[1].split("</tr>")[0]
    assert 'data-freshness="out_of_date"' in row
    assert "out of date" in row
    assert seating_changed("4") in row
    other = page.split(f'id="report-{fresh.pk}"')[1].split("</tr>")[0]
    assert 'data-freshness="current"' in other
    assert "up to date" in other
    detail = client.get(reverse("report", args=[demo.slug, stale.pk])).content.decode()
    assert seating_changed("4") in detail
    status = client.get(reverse("report_status", args=[demo.slug, stale.pk])).json()
    assert status["freshness"] == {
        "state": "out_of_date",
        "label": "out of date",
        "changes": [seating_changed("4")],
        "explanation": "",
    }
    download = client.get(reverse("report_download", args=[demo.slug, stale.pk]))
    assert download.status_code == 200  # the TD's record of what was printed
    assert download.content.startswith(b"%PDF")


def test_a_file_still_being_made_has_no_freshness_yet(td: User, demo: Event) -> None:
    report = reports.request_report(td, demo, "standings")
    status = signed_in(td).get(reverse("report_status", args=[demo.slug, report.pk])).json()
    assert status["status"] == "queued"
    assert status["freshness"] is None


def test_a_file_made_before_the_audit_mark_was_kept_is_shown_as_not_checked(
    td: User, demo: Event
) -> None:
    # Files made before have no mark (the migration leaves it empty), whatever happened since.
    report = ReportFile.objects.create(
        event=demo,
        kind="standings",
        status=ReportFile.Status.DONE,
        filename="demo-standings.pdf",
    )
    assert freshness(demo, report) == Freshness(UNKNOWN)
    client = signed_in(td)
    page = client.get(reverse("reports", args=[demo.slug])).content.decode()
    row = page.split(f'id="report-{report.pk}"')[1].split("</tr>")[0]
    assert 'data-freshness="unknown"' in row
    assert "not checked" in row
    assert NOT_CHECKED in row
    assert "out of date" not in row
    status = client.get(reverse("report_status", args=[demo.slug, report.pk])).json()
    assert status["freshness"]["state"] == "unknown"
    assert status["freshness"]["explanation"] == NOT_CHECKED


def test_the_list_costs_a_few_queries_however_many_files_it_shows(
    td: User, demo: Event, django_assert_max_num_queries: Any
) -> None:
    standings_service.refresh(
        demo.pk
    )  # stored, as after every change in play: read, not recomputed
    client = signed_in(td)
    address = reverse("reports", args=[demo.slug])
    for kind, round_number in EVERY_KIND:
        stored(demo, kind, round_number)
    client.get(address)  # the session and the translations are warm from here on
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as few:
        assert client.get(address).status_code == 200
    budget = len(few.captured_queries)  # read now: the slice of a log cleared below is empty
    for _again in range(3):
        for kind, round_number in EVERY_KIND:
            stored(demo, kind, round_number)
        for number in range(1, demo.rounds + 1):
            stored(demo, "score_sheets", number)
            stored(demo, "round_pack", number)
    assert ReportFile.objects.count() > 80
    connection.queries_log.clear()  # a full log would count nothing
    with django_assert_max_num_queries(budget) as many:
        page = client.get(address)
    assert len(many.captured_queries) == budget
    # Each document once, as its newest file: the older files of the same document are kept.
    documents = {reports.scope_of(report) for report in ReportFile.objects.all()}
    assert page.content.decode().count('data-freshness="current"') == len(documents)
    # Signing in, the event and the list: six at most; then the audit log twice (the entries
    # after the oldest mark, and a count below it).
    assert budget <= 8


def test_checking_costs_two_queries_however_many_files_and_changes(
    td: User, demo: Event, committing: Callable[[], AbstractContextManager[None]]
) -> None:
    files = []
    for number in range(1, demo.rounds + 1):  # files made between changes: as many marks
        files += [stored(demo, "score_sheets", number), stored(demo, "round_pack", number)]
        with committing():
            record_pass(td, demo, 3)
    files += [stored(demo, kind, round_number) for kind, round_number in EVERY_KIND]
    demo.refresh_from_db()
    connection.queries_log.clear()  # a full log would count nothing
    with CaptureQueriesContext(connection) as queries:
        found = staleness.check(demo, files)
    assert len(queries.captured_queries) == 2
    sheets_1, sheets_3 = files[0], files[4]
    assert (sheets_1.round_number, sheets_3.round_number) == (1, 3)
    assert found[sheets_1.pk] == Freshness(CURRENT)
    assert found[sheets_3.pk] == Freshness(OUT_OF_DATE, (results_changed("3"),))
    assert found[files[-1].pk] == Freshness(CURRENT)
    with CaptureQueriesContext(connection) as queries:
        assert staleness.check(demo, []) == {}
    assert not queries.captured_queries


def test_the_status_of_a_finished_file_costs_a_few_queries(
    td: User, demo: Event, django_assert_max_num_queries: Any
) -> None:
    report = stored(demo, "round_pack", 4)
    client = signed_in(td)
    address = reverse("report_status", args=[demo.slug, report.pk])
    client.get(address)
    connection.queries_log.clear()  # a full log would count nothing
    with django_assert_max_num_queries(9):
        assert client.get(address).json()["freshness"]["state"] == "current"


def test_a_rounds_deal_documents_follow_only_the_rounds_the_log_names(
    td: User, draft: Event, media: Path
) -> None:
    # New PINs for round 2's tables: its table cards print them; round 1's, the whole event's
    # (which print none) and the hand records stay as they are.
    round_2 = made(td, draft, "table_cards", 2)
    round_1 = made(td, draft, "table_cards", 1)
    whole = made(td, draft, "table_cards")
    hand_records = made(td, draft, "hand_records", 2)
    devices.renew_pins(td, draft.round_set.get(number=2))
    assert freshness(draft, round_2) == Freshness(OUT_OF_DATE, (PINS_CHANGED,))
    for report in (round_1, whole, hand_records):
        assert freshness(draft, report).state == CURRENT, (report.kind, report.round_number)


def test_the_list_shows_each_document_once_as_its_newest_file(td: User, demo: Event) -> None:
    older = stored(demo, "score_sheets", 2)
    newer = stored(demo, "score_sheets", 2)
    other_round = stored(demo, "score_sheets", 3)
    french = stored(demo, "score_sheets", 2)
    ReportFile.objects.filter(pk=french.pk).update(language="fr")
    # The newest file of a document is listed whatever its state: here still being made.
    queued = reports.request_report(td, demo, "standings", language="en")
    done = stored(demo, "standings", None)
    ReportFile.objects.filter(pk=done.pk).update(language="en")
    ReportFile.objects.filter(pk=queued.pk).update(created_at=done.created_at + dt.timedelta(1))
    assert [r.pk for r in reports.listed_files(demo)] == [
        queued.pk, french.pk, other_round.pk, newer.pk,
    ]  # fmt: skip
    client = signed_in(td)
    page = client.get(reverse("reports", args=[demo.slug])).content.decode()
    assert f'id="report-{newer.pk}"' in page
    assert f'id="report-{older.pk}"' not in page
    assert f'id="report-{done.pk}"' not in page
    assert f'id="report-{queued.pk}" data-status="queued"' in page
    # The older file is kept: its own page still shows it.
    detail = client.get(reverse("report", args=[demo.slug, older.pk]))
    assert detail.status_code == 200
    assert ReportFile.objects.filter(pk=older.pk).exists()
