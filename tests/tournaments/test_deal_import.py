"""Loading an event's deals from a PBN or Duplimate .dlm file: the service, the page, the command."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from documents import freshness, loaders
from documents.models import ReportFile
from documents.renderers.hands import HandRecordRenderer
from documents.renderers.standings import SummaryRenderer
from engine.dealfiles import DealFile, DlmFile, write_dlm, write_pbn
from engine.deals import BoardDeal, deals_from_key
from tests.documents.conftest import pdf_text
from tests.tournaments.conftest import TEST_KEY, make_settings, start_event
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Event
from tournaments.services import deals, events, rounds, seating

FILE_KEY = "a-dealing-machine-of-the-club"

# Board 7 written by hand: North all spades, East all hearts, South all diamonds, West all clubs,
# with a hole or a card too many where a test needs one.
GOOD_7 = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
TWELVE_7 = "N:AKQJT98765432... .AKQJT9876543.. ..AKQJT98765432. ...AKQJT98765432"
TWICE_7 = "N:AKQJT98765432... A.AKQJT9876543.. ..AKQJT98765432. ...AKQJT98765432"


def dealt(boards: int = 16, *, key: str = FILE_KEY, wiezen: bool = False) -> list[BoardDeal]:
    return deals_from_key(key, range(1, boards + 1), trump_card=wiezen)


def pbn(boards: list[BoardDeal]) -> bytes:
    return write_pbn(DealFile(tuple(boards), event="Club night")).encode()


def dlm(boards: list[BoardDeal]) -> bytes:
    return write_dlm(DlmFile(tuple(boards), headline="Club night")).encode()


def pbn_with_board_7(deal: str) -> bytes:
    """A file of 16 boards whose board 7 is written by hand."""
    boards = dealt()
    record = f'[Board "7"]\n[Dealer "S"]\n[Deal "{deal}"]\n\n'
    text = write_pbn(DealFile(tuple(boards[:6]))) + record + write_pbn(DealFile(tuple(boards[7:])))
    return text.encode()


def refusal(td: User, event: Event, name: str, data: bytes) -> UserError:
    with pytest.raises(UserError) as caught:
        deals.import_deals(td, event, name, data)
    assert not event.boards.exists(), "nothing changes when the file is refused"
    return caught.value


@pytest.fixture
def wiezen(td: User) -> Event:
    return events.create_event(
        td, make_settings(slug="wiezen", game="wiezen", ruleset_name="iwwa-wiezen")
    )


# --- the service --------------------------------------------------------------------------------


def test_it_loads_every_board_of_a_pbn_file(td: User, event: Event) -> None:
    data = pbn(dealt())
    boards = deals.import_deals(td, event, "club-night.pbn", data)
    assert [b.number for b in boards] == list(range(1, 17))
    stored = {b.number: b for b in event.boards.all()}
    for board in dealt():
        row = stored[board.board]
        assert row.deal == board.deal.to_pbn()
        assert row.dealer == board.dealer.name
        assert row.deal_index == str(board.index)
        assert row.trump_card == ""
    event.refresh_from_db()
    assert event.deal_source == Event.DealSource.IMPORTED
    assert event.deal_file_name == "club-night.pbn"
    assert len(event.deal_file_sha256) == 64
    assert event.deal_key == event.deal_commitment == ""


def test_it_replaces_generated_deals_and_forgets_the_key(
    td: User, event: Event, sixteen: list[object]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    deals.import_deals(td, event, "deals.pbn", pbn(dealt()))
    event.refresh_from_db()
    assert event.deal_key == event.deal_commitment == ""
    assert event.deal_key_revealed_at is None
    assert event.boards.get(number=1).deal == dealt()[0].deal.to_pbn()
    # The tables play the new boards.
    table = event.round_set.get(number=1).tables.first()
    assert table is not None
    assert {link.board.deal for link in table.table_boards.select_related("board")} <= {
        b.deal.to_pbn() for b in dealt()
    }


def test_it_loads_a_dlm_file_for_kleurenwiezen(td: User, event: Event) -> None:
    deals.import_deals(td, event, "MACHINE.DLM", dlm(dealt()))
    assert [b.deal for b in event.boards.order_by("number")] == [b.deal.to_pbn() for b in dealt()]
    event.refresh_from_db()
    assert event.deal_file_name == "MACHINE.DLM"


def test_it_tells_the_format_by_the_content_whatever_the_name(td: User, event: Event) -> None:
    deals.import_deals(td, event, "deals.txt", dlm(dealt()))
    assert event.boards.count() == 16


def test_it_keeps_only_the_file_name_of_a_path(td: User, event: Event) -> None:
    deals.import_deals(td, event, "C:\\Deals\\club night.pbn", pbn(dealt()))
    event.refresh_from_db()
    assert event.deal_file_name == "club night.pbn"


def test_it_loads_turned_up_cards_for_wiezen(td: User, wiezen: Event) -> None:
    deals.import_deals(td, wiezen, "wiezen.pbn", pbn(dealt(wiezen=True)))
    cards = dict(wiezen.boards.values_list("number", "trump_card"))
    assert cards == {b.board: str(b.trump_card) for b in dealt(wiezen=True)}


def test_it_refuses_a_dlm_file_for_wiezen(td: User, wiezen: Event) -> None:
    error = refusal(td, wiezen, "machine.dlm", dlm(dealt()))
    assert error.code == "no_trump_card"
    assert "Boards 1-16 have no turned-up card" in error.message
    assert "TrumpCard" in error.message


def test_it_names_the_wiezen_boards_without_a_turned_up_card(td: User, wiezen: Event) -> None:
    boards = dealt(wiezen=True)
    boards[4] = BoardDeal(boards[4].board, boards[4].dealer, boards[4].deal, boards[4].index)
    error = refusal(td, wiezen, "wiezen.pbn", pbn(boards))
    assert error.message.startswith("Board 5 has no turned-up card.")


def test_it_refuses_a_turned_up_card_outside_the_dealers_hand(td: User, wiezen: Event) -> None:
    text = pbn(dealt(wiezen=True)).decode()
    first = dealt(wiezen=True)[0]
    other = next(card for card in first.deal.hand(first.dealer.next(1)) if card != first.trump_card)
    text = text.replace(f'[TrumpCard "{first.trump_card}"]', f'[TrumpCard "{other}"]', 1)
    error = refusal(td, wiezen, "wiezen.pbn", text.encode())
    assert error.message.startswith("Board 1 (line ")
    assert "not the dealer's" in error.message


@pytest.mark.parametrize(
    ("count", "expected"),
    [(12, "missing: 13-16"), (17, "not in this event: 17")],
)
def test_it_refuses_a_file_without_exactly_the_events_boards(
    td: User, event: Event, count: int, expected: str
) -> None:
    error = refusal(td, event, "deals.pbn", pbn(dealt(count)))
    assert error.code == "wrong_boards"
    assert "boards 1 to 16" in error.message
    assert expected in error.message


def test_it_refuses_a_board_with_a_hand_of_twelve_cards(td: User, event: Event) -> None:
    assert deals.import_deals(td, event, "ok.pbn", pbn_with_board_7(GOOD_7))
    event.boards.all().delete()
    error = refusal(td, event, "hand-made.pbn", pbn_with_board_7(TWELVE_7))
    assert error.message.startswith("Board 7 (line ")
    assert error.message.endswith("East has 12 cards; every hand needs 13.")


def test_it_refuses_a_board_with_a_card_dealt_twice(td: User, event: Event) -> None:
    error = refusal(td, event, "hand-made.pbn", pbn_with_board_7(TWICE_7))
    assert error.message.startswith("Board 7 (line ")
    assert "♠A is dealt twice, to North and to East" in error.message


def test_it_keeps_the_line_of_a_damaged_dlm_file(td: User, event: Event) -> None:
    text = dlm(dealt()).decode()
    lines = text.split("\r\n")
    number = next(i for i, line in enumerate(lines) if line.startswith("Board 03="))
    good = lines[number]
    lines[number] = good[:9] + ("b" if good[9] == "a" else "a") + good[10:]
    error = refusal(td, event, "machine.dlm", "\r\n".join(lines).encode())
    assert error.message.startswith(f"Line {number + 1}: Board 03 checksum")


@pytest.mark.parametrize(
    ("name", "data", "code"),
    [
        ("photo.pbn", bytes(range(256)) * 8, "not_text"),
        ("empty.pbn", b"", "empty"),
        ("blank.dlm", b"\n  \n", "empty"),
        ("notes.txt", b"just some notes\nabout the evening\n", "unknown_format"),
        ("huge.pbn", b"%" * (deals.MAX_DEAL_FILE_BYTES + 1), "too_large"),
        ("remarks.pbn", b"% PBN 2.1\n% nothing else\n", "no_boards"),
    ],
)
def test_it_refuses_what_is_no_deal_file(
    td: User, event: Event, name: str, data: bytes, code: str
) -> None:
    error = refusal(td, event, name, data)
    assert error.code == code
    assert error.message.startswith(name)


def test_it_reads_a_pbn_file_in_latin_1(td: User, event: Event) -> None:
    text = write_pbn(DealFile(tuple(dealt()), site="Liège")).encode("latin-1")
    assert deals.import_deals(td, event, "latin.pbn", text)


def test_it_refuses_once_play_has_started(td: User) -> None:
    event = start_event(td, "started", 16)
    before = list(event.boards.values_list("deal", flat=True))
    with pytest.raises(UserError) as caught:
        deals.import_deals(td, event, "late.pbn", pbn(dealt()))
    assert caught.value.code == "event_started"
    assert list(event.boards.values_list("deal", flat=True)) == before


def test_it_writes_an_audit_entry(td: User, event: Event) -> None:
    deals.import_deals(td, event, "club-night.pbn", pbn(dealt()))
    entry = AuditEntry.objects.get(event=event, action="deals.import")
    assert entry.actor == td
    assert entry.message == "deals loaded from %(file)s: %(boards)s boards"
    assert entry.params == {"file": "club-night.pbn", "boards": 16}


def test_generating_after_an_import_makes_the_deals_troefs_again(td: User, event: Event) -> None:
    deals.import_deals(td, event, "club-night.pbn", pbn(dealt()))
    deals.generate_deals(td, event, key=TEST_KEY)
    event.refresh_from_db()
    assert event.deal_source == Event.DealSource.GENERATED
    assert event.deal_file_name == event.deal_file_sha256 == ""
    assert event.deal_commitment
    assert deals.verify(event, TEST_KEY)


def test_an_event_with_imported_deals_finishes_without_a_key(
    td: User, event: Event, sixteen: list[object]
) -> None:
    seating.generate_movement(td, event)
    deals.import_deals(td, event, "club-night.pbn", pbn(dealt()))
    for round_ in event.round_set.order_by("number"):
        rounds.open_round(td, round_)
        rounds.close_round(td, round_, "no sheets in this test", anyway=True)
    finished = events.finish_event(td, event)
    assert finished.status == Event.Status.FINISHED
    assert finished.deal_key == ""
    assert finished.deal_key_revealed_at is None
    logged = AuditEntry.objects.filter(event=event, action="event.finish").get()
    assert logged.message == "event finished"


def test_finishing_on_the_page_claims_no_key_for_imported_deals(
    client: Client, td: User, event: Event, sixteen: list[object]
) -> None:
    seating.generate_movement(td, event)
    deals.import_deals(td, event, "club-night.pbn", pbn(dealt()))
    for round_ in event.round_set.order_by("number"):
        rounds.open_round(td, round_)
        rounds.close_round(td, round_, "no sheets in this test", anyway=True)
    client.force_login(td)
    page = client.get(reverse("event", args=[event.slug])).content.decode()
    assert "Deals imported from club-night.pbn" in page
    assert "reveal the deal key" not in page
    response = client.post(reverse("event_finish", args=[event.slug]), follow=True)
    text = response.content.decode()
    assert "Event finished." in text
    assert "deal key is now public" not in text


def test_a_new_shape_forgets_the_imported_file_with_the_boards(td: User, event: Event) -> None:
    deals.import_deals(td, event, "club-night.pbn", pbn(dealt()))
    events.update_event(td, event, make_settings(slug=event.slug, rounds=3))
    event.refresh_from_db()
    assert event.boards.count() == 0
    assert event.deal_source == Event.DealSource.GENERATED
    assert (event.deal_file_name, event.deal_file_sha256) == ("", "")


def test_reports_go_stale_when_the_deals_are_loaded_again(td: User, event: Event) -> None:
    def hand_records() -> ReportFile:
        return ReportFile.objects.create(
            event=event,
            kind="hand_records",
            status=ReportFile.Status.DONE,
            **freshness.take(event, "hand_records", None),
        )

    deals.generate_deals(td, event, key=TEST_KEY)
    generated = hand_records()
    deals.import_deals(td, event, "first.pbn", pbn(dealt()))
    first = hand_records()
    deals.import_deals(td, event, "first.pbn", pbn(dealt()))  # the same file again
    assert freshness.check(event, [first])[first.pk].state == freshness.CURRENT
    deals.import_deals(td, event, "second.pbn", pbn(dealt(key="another machine")))
    found = freshness.check(Event.objects.get(pk=event.pk), [generated, first])
    assert [found[r.pk].state for r in (generated, first)] == [freshness.OUT_OF_DATE] * 2


# --- what the documents say ---------------------------------------------------------------------


def test_the_hand_records_say_the_deals_were_imported(td: User, event: Event) -> None:
    deals.import_deals(td, event, "club-night.pbn", pbn(dealt()))
    event.refresh_from_db()
    text = pdf_text(HandRecordRenderer(loaders.hand_records(event), language="en").render())
    flat = " ".join(text.split())
    assert "Deals imported from club-night.pbn" in flat
    assert "Deal commitment" not in flat
    assert "Key:" not in flat


def test_the_summary_names_the_deal_file(td: User, event: Event) -> None:
    deals.import_deals(td, event, "club-night.pbn", pbn(dealt()))
    event.refresh_from_db()
    lines = SummaryRenderer(loaders.summary(event), language="en").deal_lines()
    assert lines[0].startswith("Deals imported from club-night.pbn")
    assert event.deal_file_sha256 in lines[1]


# --- the page -----------------------------------------------------------------------------------


def upload(name: str, data: bytes) -> dict[str, object]:
    return {"file": SimpleUploadedFile(name, data, content_type="application/octet-stream")}


def test_only_a_director_opens_the_page(
    client: Client, event: Event, outsider: User, td: User
) -> None:
    url = reverse("deals_import", kwargs={"slug": event.slug})
    assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert client.post(url, upload("deals.pbn", pbn(dealt()))).status_code == 403
    assert not event.boards.exists()
    client.force_login(td)
    page = client.get(url)
    assert page.status_code == 200
    assert "boards, numbered 1 to 16" in page.content.decode()


def test_the_deals_page_links_to_the_upload_and_says_who_dealt(
    client: Client, event: Event, td: User
) -> None:
    client.force_login(td)
    url = reverse("deals", kwargs={"slug": event.slug})
    page = client.get(url).content.decode()
    assert reverse("deals_import", kwargs={"slug": event.slug}) in page
    assert "Dealt by Troef" not in page  # nothing dealt yet
    deals.generate_deals(td, event, key=TEST_KEY)
    commitment = Event.objects.get(pk=event.pk).deal_commitment
    page = client.get(url).content.decode()
    assert f"Dealt by Troef (commitment {commitment[:16]}" in page
    assert "Imported from" not in page


def test_a_director_uploads_a_deal_file(client: Client, event: Event, td: User) -> None:
    client.force_login(td)
    url = reverse("deals_import", kwargs={"slug": event.slug})
    response = client.post(url, upload("club-night.pbn", pbn(dealt())), follow=True)
    assert response.redirect_chain[-1][0] == reverse("deals", kwargs={"slug": event.slug})
    page = response.content.decode()
    assert "16 boards loaded from club-night.pbn." in page
    event.refresh_from_db()
    assert f"Imported from club-night.pbn (SHA-256 {event.deal_file_sha256})." in page
    assert event.boards.count() == 16


def test_a_refused_file_stays_on_the_page_with_the_reason(
    client: Client, event: Event, td: User
) -> None:
    client.force_login(td)
    url = reverse("deals_import", kwargs={"slug": event.slug})
    response = client.post(url, upload("hand-made.pbn", pbn_with_board_7(TWELVE_7)))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Board 7 (line " in page
    assert "hand-made.pbn was not loaded" in page
    assert "East has 12 cards" in page
    assert 'enctype="multipart/form-data"' in page
    assert not event.boards.exists()


def test_garbage_uploaded_is_refused_not_a_server_error(
    client: Client, event: Event, td: User
) -> None:
    client.force_login(td)
    url = reverse("deals_import", kwargs={"slug": event.slug})
    response = client.post(url, upload("photo.jpg", bytes(range(256))))
    assert response.status_code == 200
    assert "photo.jpg is not a text file" in response.content.decode()


def test_the_page_says_when_play_has_started(client: Client, td: User) -> None:
    event = start_event(td, "started", 16)
    client.force_login(td)
    url = reverse("deals_import", kwargs={"slug": event.slug})
    assert "Play has started" in client.get(url).content.decode()
    response = client.post(url, upload("late.pbn", pbn(dealt())))
    assert "Play has started: the deals can no longer change." in response.content.decode()
    assert Event.objects.get(pk=event.pk).deal_source == Event.DealSource.GENERATED


# --- the command --------------------------------------------------------------------------------


def test_the_command_loads_a_file(td: User, event: Event, tmp_path: Path) -> None:
    path = tmp_path / "club-night.dlm"
    path.write_bytes(dlm(dealt()))
    out = io.StringIO()
    call_command("import_deals", event.slug, str(path), stdout=out)
    assert "16 boards" in out.getvalue()
    event.refresh_from_db()
    assert event.deal_file_name == "club-night.dlm"
    assert AuditEntry.objects.get(event=event, action="deals.import").actor is None


def test_the_command_reads_stdin(td: User, event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(pbn(dealt()))))
    call_command("import_deals", event.slug, "-", stdout=io.StringIO())
    assert event.boards.count() == 16


def test_the_command_says_what_is_wrong(td: User, event: Event, tmp_path: Path) -> None:
    path = tmp_path / "hand-made.pbn"
    path.write_bytes(pbn_with_board_7(TWELVE_7))
    with pytest.raises(CommandError, match=r"^Board 7 \(line \d+\): East has 12 cards"):
        call_command("import_deals", event.slug, str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_deals", event.slug, str(tmp_path / "missing.pbn"))
    with pytest.raises(CommandError, match="no event"):
        call_command("import_deals", "nowhere", str(path))
