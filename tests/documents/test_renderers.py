"""Every document of the demo event, read back: names, boards, totals and suit symbols."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext as _

from documents.data import (
    EventInfo,
    HandRecords,
    Person,
    PlayedLine,
    ScoreSheets,
    SheetBoard,
    StandingRow,
    StandingsData,
    TableSheet,
    played_line,
)
from documents.kinds import renderer_for
from documents.renderers.hands import HandRecordRenderer
from documents.renderers.sheets import ScoreSheetRenderer
from documents.renderers.standings import StandingsRenderer
from engine.dealfiles import read_dlm, read_pbn
from engine.deals import deals_from_key
from engine.notation import parse_result_line
from tests.documents.conftest import (
    PDFS,
    DemoDocuments,
    dark_share,
    first_page_png,
    page_sizes,
    pdf_pages,
    pdf_text,
)
from tournaments.errors import UserError
from tournaments.models import Event

ACCENTED = ("Zoë", "Agnès", "Émilie", "Geneviève")
SUITS = "♠♥♦♣"
POINTS = re.compile(r"^[+-]?\d+$")


def label(language: str, text: str, **values: object) -> str:
    """A printed text as the document's language writes it."""
    with translation.override(language):
        return _(text) % values if values else _(text)


def printed_boards(text: str, language: str = "nl") -> list[int]:
    """The board numbers printed as "Board 5" (in the document's language), in order."""
    prefix = label(language, "Board %(n)s", n="")
    return [int(n) for n in re.findall(re.escape(prefix) + r"(\d+)", text)]


def sheet_rows(page: str, board_numbers: list[int]) -> dict[int, list[str]]:
    """The words of each board's line on a score sheet page, by board number."""
    rows = {}
    for line in page.splitlines():
        words = line.split()
        is_board = len(words) >= 2 and words[0].isdigit() and words[1] in "NESW"
        if is_board and int(words[0]) in board_numbers:
            rows[int(words[0])] = words
    return rows


# --- score sheets ---------------------------------------------------------------------------


def test_it_prints_a_score_sheet_and_its_score_table_for_every_table(
    documents: DemoDocuments,
) -> None:
    pages = pdf_pages(documents.files["score_sheets"])
    assert len(pages) == 2 * len(documents.seats)  # a front and a back per table
    for table, page in zip(sorted(documents.seats), pages[::2], strict=True):
        assert label("nl", "Round %(round)s · Table %(table)s", round=1, table=table) in page
        for number in documents.seats[table].values():
            assert f"{number}. " in page
    for back in pages[1::2]:
        assert label("nl", "Score table") in back
        for row in documents.summary:
            assert row["contract"] in back
            assert row["made"] in back


def test_it_prints_the_players_names_with_their_accents(documents: DemoDocuments) -> None:
    for name in ("score_sheets", "guide_cards", "table_cards", "standings", "score_cards"):
        text = pdf_text(documents.files[name])
        for first_name in ACCENTED:
            assert first_name in text, f"{first_name} missing from the {name}"


def test_it_balances_every_line_of_a_score_sheet_under_the_whisthub_ruleset(
    documents: DemoDocuments,
) -> None:
    pages = pdf_pages(documents.files["score_sheets"])
    boards = documents.round_boards[1]
    checked = 0
    for table, page in zip(sorted(documents.seats), pages[::2], strict=True):
        rows = sheet_rows(page, boards)
        assert sorted(rows) == boards
        for board, words in rows.items():
            # ... N E S W | Σ | four running totals
            points = [int(w) for w in words[-9:-5]]
            assert all(POINTS.match(w) for w in words[-9:])
            assert sum(points) == 0
            assert words[-5] == "0"
            assert tuple(points) == documents.scores[table][board]
            checked += 1
    assert checked == len(documents.seats) * len(boards)


def test_it_prints_running_totals_that_end_in_each_players_total(documents: DemoDocuments) -> None:
    pages = pdf_pages(documents.files["score_sheets"])
    total_label = label("nl", "Total")
    for table, page in zip(sorted(documents.seats), pages[::2], strict=True):
        totals = [0, 0, 0, 0]
        rows = sheet_rows(page, documents.round_boards[1])
        for board in sorted(rows):
            totals = [a + b for a, b in zip(totals, documents.scores[table][board], strict=True)]
            running = [int(w) for w in rows[board][-4:]]
            assert running == totals
        line = next(line.split() for line in page.splitlines() if line.split()[:1] == [total_label])
        assert [int(w) for w in line[1:5]] == totals
        assert line[5] == "0"
        assert [int(w) for w in line[-4:]] == totals


def test_it_prints_each_contract_with_its_suit_symbol(documents: DemoDocuments) -> None:
    pages = pdf_pages(documents.files["score_sheets"])
    symbols = 0
    for table, page in zip(sorted(documents.seats), pages[::2], strict=True):
        for board, words in sheet_rows(page, documents.round_boards[1]).items():
            contract = documents.contracts[table][board]
            assert f" {contract} " in " ".join(words)
            symbols += sum(contract.count(symbol) for symbol in SUITS)
    assert symbols > 0


def test_it_leaves_the_unplayed_lines_of_a_round_in_play_blank_for_the_pen(
    documents: DemoDocuments,
) -> None:
    pages = pdf_pages(documents.files["score_sheets_r3"])
    boards = documents.round_boards[3]
    blank = 0
    for page in pages[::2]:
        for words in sheet_rows(page, boards).values():
            if len(words) == 2:  # board and dealer only: nothing recorded yet
                blank += 1
    assert blank > 0


def test_it_prints_letter_paper_when_asked(documents: DemoDocuments) -> None:
    assert page_sizes(documents.files["score_sheets_letter"]) == {(612, 792)}
    assert page_sizes(documents.files["standings_letter"]) == {(612, 792)}
    assert page_sizes(documents.files["score_sheets"]) == {(595, 842)}


def test_it_prints_in_the_language_asked_for(documents: DemoDocuments) -> None:
    french = pdf_text(documents.files["score_sheets_fr"])
    assert "Feuille de marque" in french
    assert "Tour 1 · Table 1" in french
    assert "Barème" in french
    english = pdf_text(documents.files["score_sheets_en"])
    assert "Score sheet" in english
    assert "Round 1 · Table 1" in english
    dutch = pdf_text(documents.files["score_sheets"])
    assert "Scoreblad" in dutch
    assert "Ronde 1 · Tafel 1" in dutch
    assert printed_boards(pdf_text(documents.files["hand_records_fr"]), "fr")[:2] == [1, 2]
    assert "Donne 1" in pdf_text(documents.files["hand_records_fr"])


def test_it_shows_a_table_of_five_with_who_sits_out_and_five_running_totals() -> None:
    five = {
        seat: Person(n, f"Speler {n}") for seat, n in zip("NESWX", (1, 2, 3, 4, 5), strict=True)
    }
    lines = (
        SheetBoard(
            1,
            1,
            "N",
            holders=(5, 2, 3, 4),
            out=1,
            played=PlayedLine("NE", "9♥", "10", (14, 14, -14, -14)),
        ),
        SheetBoard(
            2,
            2,
            "E",
            holders=(1, 5, 3, 4),
            out=2,
            played=PlayedLine("S", "mis", "0", (-12, -12, 36, -12)),
        ),
    )
    data = ScoreSheets(
        event=EventInfo("five", "Vijf aan tafel", dt.date(2026, 5, 1)),
        round=1,
        tables=(TableSheet(1, 1, five, lines),),
    )
    page = pdf_pages(ScoreSheetRenderer(data, language="en").render())[0]
    rows = sheet_rows(page, [1, 2])
    # N E S W | Σ | out | totals of players 1-5 (the one sitting out is left empty)
    assert rows[1][-10:] == ["+14", "+14", "-14", "-14", "0", "1", "+14", "-14", "-14", "+14"]
    assert rows[2][-10:] == ["-12", "-12", "+36", "-12", "0", "2", "-12", "+22", "-26", "+2"]
    assert "X 5" in page


@pytest.mark.parametrize(
    ("line", "game", "columns"),
    [
        ("NE 9H 10", "kleurenwiezen", ("NE", "9♥", "10")),
        ("W sol6S 5", "kleurenwiezen", ("W", "sol 6♠", "5")),
        ("N,S mis 0,1", "kleurenwiezen", ("N,S", "mis", "0,1")),
        ("NW troel8H 9 dbl", "kleurenwiezen", ("NW", "troel 8♥", "9 dbl")),
        ("pass ap", "kleurenwiezen", ("", "pass", "ap")),
        ("N gsolo S 13", "kleurenwiezen", ("N", "gsolo ♠", "13")),
        ("pass", "kleurenwiezen", ("", "pass", "")),
        ("N 7NT 7,2,0,3 6,2,1,4", "israeli", ("N", "7NT 7,2,0,3", "6,2,1,4")),
    ],
)
def test_it_splits_a_result_over_the_sheets_columns_in_keying_order(
    line: str, game: str, columns: tuple[str, str, str]
) -> None:
    played = played_line(parse_result_line(line, game=game), (0, 0, 0, 0))
    assert (played.declarers, played.contract, played.tricks) == columns
    typed = " ".join(part for part in columns if part)
    assert parse_result_line(typed, game=game) == parse_result_line(line, game=game)


# --- hand records and dealing slips ---------------------------------------------------------


def test_it_prints_wiezens_turned_up_card() -> None:
    boards = tuple(deals_from_key("wiezen-key", [1, 2], trump_card=True))
    data = HandRecords(EventInfo("w", "Wiezen", dt.date(2026, 4, 3), game="wiezen"), boards)
    text = pdf_text(HandRecordRenderer(data, language="en").render())
    for board in boards:
        card = board.trump_card
        assert card is not None
        assert f"Turned-up card: {card.pretty}" in text


def test_it_prints_every_board_with_its_dealer_and_the_four_suits(documents: DemoDocuments) -> None:
    text = pdf_text(documents.files["hand_records"])
    assert printed_boards(text) == sorted(documents.boards)
    for dealer in "NESW":
        assert label("nl", "Dealer: %(seat)s", seat=dealer) in text
    for symbol in SUITS:
        assert text.count(symbol) >= 4 * len(documents.boards)


def test_it_prints_a_rounds_boards_only(documents: DemoDocuments) -> None:
    text = pdf_text(documents.files["hand_records_r2"])
    assert printed_boards(text) == documents.round_boards[2]


def test_it_prints_the_commitment_before_and_the_key_after_the_event(
    documents: DemoDocuments,
) -> None:
    before = pdf_text(documents.files["hand_records"])
    assert documents.commitment in before
    assert documents.key not in before
    after = pdf_text(documents.files["hand_records_revealed"])
    assert documents.key in after
    assert f"python3 -m engine deal --key {documents.key}" in after


def test_it_prints_a_dealing_slip_for_every_copy_of_every_board(documents: DemoDocuments) -> None:
    text = pdf_text(documents.files["dealing_slips"])
    tables = len(documents.seats)
    printed = printed_boards(text)
    assert sorted(set(printed)) == documents.round_boards[1]
    assert all(printed.count(number) == tables for number in documents.round_boards[1])
    assert label("nl", "copy %(copy)s of %(copies)s", copy=tables, copies=tables) in text
    for symbol in SUITS:
        assert symbol in text


def test_it_writes_deal_files_that_read_back_as_the_same_boards(documents: DemoDocuments) -> None:
    pbn = read_pbn(documents.files["pbn"].content.decode("utf-8"))
    dlm = read_dlm(documents.files["dlm"].content.decode("ascii"))
    assert [b.board for b in pbn.boards] == sorted(documents.boards)
    assert [b.deal for b in dlm.boards] == [b.deal for b in pbn.boards]
    assert documents.files["dlm"].filename.endswith(".dlm")


# --- guide cards and table cards ------------------------------------------------------------


def test_it_prints_a_guide_card_for_every_player_with_every_round(documents: DemoDocuments) -> None:
    text = pdf_text(documents.files["guide_cards"])
    for name in documents.names:
        assert name in text
    assert text.count(label("nl", "Guide card").upper()) == len(documents.names)


def test_it_prints_a_table_card_per_table_with_its_boards(documents: DemoDocuments) -> None:
    pages = pdf_pages(documents.files["table_cards_r2"])
    assert len(pages) == len(documents.seats)
    boards = documents.round_boards[2]
    for number, page in enumerate(pages, start=1):
        assert label("nl", "Table %(n)s", n=number) in page
        assert label("nl", "Round %(n)s", n=2) in page
        assert f"{boards[0]}–{boards[-1]}" in page
    assert len(pdf_pages(documents.files["table_cards"])) == len(documents.seats)


# --- standings, score cards, summary --------------------------------------------------------


def test_it_prints_the_standings_with_a_column_per_round(documents: DemoDocuments) -> None:
    lines = [" ".join(line.split()) for line in pdf_text(documents.files["standings"]).splitlines()]
    assert len(documents.standings) == len(documents.names)
    for place, name, total in documents.standings:
        printed = total.replace(".", ",")  # a Dutch document writes a decimal comma
        assert any(
            line.startswith(f"{place} ") and name in line and printed in line for line in lines
        )
    header = next(line for line in lines if line.startswith(label("nl", "Place")))
    assert all(label("nl", "R%(n)s", n=n) in header.split() for n in (1, 2, 3))


def test_it_writes_a_shared_place_with_an_equals_sign() -> None:
    event = EventInfo("tie", "Gelijke stand", dt.date(2026, 6, 5))
    rows = tuple(
        StandingRow(place, number, name, "", total, {"1": total}, 4)
        for place, number, name, total in (
            ("1", 7, "Zoë Cools", "61.50"),
            ("2=", 3, "Agnès Simon", "55.00"),
            ("2=", 9, "Geneviève Stevens", "55.00"),
            ("4", 1, "Émilie De Backer", "40.25"),
        )
    )
    text = pdf_text(StandingsRenderer(StandingsData(event, "matchpoints", (1,), rows)).render())
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert any(line.startswith("2= 3 Agnès Simon") for line in lines)
    assert any(line.startswith("2= 9 Geneviève Stevens") for line in lines)
    assert any(line.startswith("4 1 Émilie De Backer") for line in lines)


def test_it_prints_each_players_boards_on_the_personal_score_cards(
    documents: DemoDocuments,
) -> None:
    pages = pdf_pages(documents.files["score_cards"])
    assert len(pages) == len(documents.names)
    first = pages[0]
    assert re.search(r"[♠♥♦♣]", first)
    for number in documents.round_boards[1]:
        assert re.search(rf"\b1\s+\d+\s+[NESW]\s+{number}\b", first)
    assert "%" in first


def test_it_sums_the_event_up(documents: DemoDocuments) -> None:
    text = pdf_text(documents.files["summary_en"])
    assert "Event summary" in text
    assert f"Results recorded {documents.results}" in " ".join(text.split())
    assert documents.commitment in text
    assert "Leading players" in text


def test_it_puts_a_rounds_documents_in_one_pdf(documents: DemoDocuments) -> None:
    pack = pdf_pages(documents.files["round_pack"])
    parts = [documents.files[name] for name in ("score_sheets", "dealing_slips")]
    assert len(pack) > sum(len(pdf_pages(part)) for part in parts)
    text = "\n".join(pack)
    assert label("nl", "Score sheet") in text
    assert label("nl", "Hand records") in text
    assert label("nl", "Dealing slips") in text
    assert label("nl", "Table %(n)s", n=1) in text


@pytest.mark.parametrize("name", PDFS)
def test_it_draws_the_first_page_of_every_document(
    documents: DemoDocuments, name: str, tmp_path: Path
) -> None:
    rendered = documents.files[name]
    assert rendered.content.startswith(b"%PDF")
    assert rendered.content_type == "application/pdf"
    share = first_page_png(rendered, tmp_path)
    assert 0.002 < dark_share(share) < 0.5, f"the first page of the {name} looks blank"


def test_it_embeds_its_fonts(documents: DemoDocuments) -> None:
    content = documents.files["hand_records"].content
    assert b"/FontFile2" in content  # TrueType glyphs inside the file, not a system font name
    assert b"DejaVuSans" in content


# --- what cannot be printed yet -------------------------------------------------------------


def test_it_refuses_a_round_the_event_does_not_have(demo: Event) -> None:
    with pytest.raises(UserError) as caught:
        renderer_for(demo, "score_sheets", round_number=7)
    assert caught.value.field == "round_number"


def test_it_says_what_to_do_first_when_there_is_no_seating(td: User) -> None:
    from tournaments.services.events import EventSettings, create_event

    event = create_event(
        td,
        EventSettings(
            name="Leeg",
            date=dt.date(2026, 1, 9),
            game="kleurenwiezen",
            ruleset_name="whisthub",
            rounds=3,
            boards_per_round=4,
            slug="leeg",
        ),
    )
    with pytest.raises(UserError) as caught:
        renderer_for(event, "score_sheets", round_number=1)
    assert caught.value.code == "not_ready"
    with pytest.raises(UserError):
        renderer_for(event, "hand_records")
