"""The demo event, every document rendered from it once per module, and ways to read a PDF back."""

from __future__ import annotations

import datetime as dt
import io
import shutil
import struct
import subprocess
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.db import transaction
from pypdf import PdfReader

from documents.data import played_line
from documents.freshness import Freshness, check, take
from documents.kinds import renderer_for
from documents.loaders import standings_data
from documents.models import ReportFile
from documents.renderers.base import RenderedFile
from engine.results import result_from_json
from tests.conftest import as_a_test
from tournaments.demo import load_demo_event
from tournaments.models import Event, Result, TableBoard
from tournaments.services import deals, events, players, results, rounds, seating
from tournaments.services.events import EventSettings

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@pytest.fixture
def demo(td: User) -> Event:
    """The demo event: 32 players, 6 rounds of 4 boards, rounds 1-2 played, round 3 partly."""
    event = load_demo_event(td)
    assert event is not None
    event.refresh_from_db()  # the services changed the event through instances of their own
    return event


@pytest.fixture(scope="module")
def module_demo(module_td: User) -> Event:
    """The demo event, loaded once for a module that shares it (its ``demo`` re-reads it)."""
    with as_a_test():
        event = load_demo_event(module_td)
    assert event is not None
    return event


@pytest.fixture
def draft(td: User) -> Event:
    """Eight players over three rounds of four boards, seated and dealt; play has not started."""
    event = events.create_event(
        td,
        EventSettings(
            name="Lenteavond",
            date=dt.date(2026, 4, 3),
            venue="Zaal De Kroon",
            game="kleurenwiezen",
            ruleset_name="whisthub",
            rounds=3,
            boards_per_round=4,
            slug="lente",
        ),
    )
    for n in range(1, 9):
        players.register_player(td, event, first_name=f"Speler{n}", last_name=f"Nummer{n}")
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key="lente-key-1")
    event.refresh_from_db()
    return event


def record_pass(td: User, event: Event, round_number: int, *, reason: str = "") -> Result:
    """``pass`` on the first board of the round that has no result yet (or a correction to it)."""
    links = TableBoard.objects.filter(table__round__event=event, table__round__number=round_number)
    done = set(
        Result.objects.filter(event=event, is_current=True).values_list("table_id", "board_id")
    )
    version: int | None = None
    if reason:
        link = next(link for link in links if (link.table_id, link.board_id) in done)
        version = Result.objects.get(table=link.table, board=link.board, is_current=True).version
    else:
        link = next(link for link in links if (link.table_id, link.board_id) not in done)
    # Confirmed: with three aces in one hand a pass asks for a confirmation (a troel not called).
    return results.record_result(
        td, link.table, link.board, "pass", reason=reason, confirmed=True, expected_version=version
    )


def stored(event: Event, kind: str, round_number: int | None) -> ReportFile:
    """A finished file of ``kind`` as the build stores it (without drawing the PDF)."""
    return ReportFile.objects.create(
        event=event,
        kind=kind,
        round_number=round_number,
        status=ReportFile.Status.DONE,
        filename=f"{kind}.pdf",
        **take(event, kind, round_number),
    )


def freshness(event: Event, report: ReportFile) -> Freshness:
    event.refresh_from_db()
    return check(event, [report])[report.pk]


@pytest.fixture
def media(settings: Any, tmp_path: Path) -> Path:
    """Stored files go to a directory of this test's own."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return Path(settings.MEDIA_ROOT)


@dataclass
class DemoDocuments:
    """Every document of the demo event, rendered once, with what the database said."""

    files: dict[str, RenderedFile] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    boards: dict[int, str] = field(default_factory=dict)  # board number -> dealer
    round_boards: dict[int, list[int]] = field(default_factory=dict)
    scores: dict[int, dict[int, tuple[int, int, int, int]]] = field(default_factory=dict)
    contracts: dict[int, dict[int, str]] = field(default_factory=dict)  # round 1, as printed
    standings: list[tuple[str, str, str]] = field(default_factory=list)  # place, name, total
    seats: dict[int, dict[str, int]] = field(default_factory=dict)  # round 1: table -> seat -> no.
    summary: list[dict[str, str]] = field(default_factory=list)
    commitment: str = ""
    key: str = ""
    results: int = 0


VARIANTS: dict[str, dict[str, Any]] = {
    "score_sheets": {"kind": "score_sheets", "round_number": 1},
    "score_sheets_r3": {"kind": "score_sheets", "round_number": 3},
    "score_sheets_letter": {"kind": "score_sheets", "round_number": 1, "paper": "letter"},
    "score_sheets_fr": {"kind": "score_sheets", "round_number": 1, "language": "fr"},
    "score_sheets_en": {"kind": "score_sheets", "round_number": 1, "language": "en"},
    "hand_records": {"kind": "hand_records"},
    "hand_records_r2": {"kind": "hand_records", "round_number": 2},
    "hand_records_fr": {"kind": "hand_records", "language": "fr"},
    "dealing_slips": {"kind": "dealing_slips", "round_number": 1},
    "guide_cards": {"kind": "guide_cards"},
    "table_cards": {"kind": "table_cards"},
    "table_cards_r2": {"kind": "table_cards", "round_number": 2},
    "round_pack": {"kind": "round_pack", "round_number": 1},
    "standings": {"kind": "standings"},
    "standings_letter": {"kind": "standings", "paper": "letter"},
    "score_cards": {"kind": "score_cards"},
    "summary": {"kind": "summary"},
    "summary_en": {"kind": "summary", "language": "en"},
    "pbn": {"kind": "pbn"},
    "dlm": {"kind": "dlm"},
}
"""What is rendered: the name each test uses, and the request."""

PDFS = [name for name in VARIANTS if VARIANTS[name]["kind"] not in ("pbn", "dlm")]


@pytest.fixture(scope="module")
def documents(django_db_setup: None, django_db_blocker: Any) -> DemoDocuments:
    """Loading the demo takes seconds: it is loaded once per module, rendered, rolled back."""
    from django.contrib.auth.models import User

    out = DemoDocuments()
    with django_db_blocker.unblock(), transaction.atomic():
        td = User.objects.create_user("documents-td")
        event = load_demo_event(td)
        assert event is not None
        event.refresh_from_db()
        for name, request in VARIANTS.items():
            options = {k: v for k, v in request.items() if k != "kind"}
            out.files[name] = renderer_for(event, request["kind"], **options).render()
        out.names = [e.player.full_name for e in event.entries.select_related("player")]
        out.boards = {b.number: b.dealer for b in event.boards.all()}
        for round_ in event.round_set.all():
            out.round_boards[round_.number] = sorted(
                {link.board.number for t in round_.tables.all() for link in t.table_boards.all()}
            )
        for result in Result.objects.filter(event=event, is_current=True, table__round__number=1):
            table, board = result.table.number, result.board.number
            out.scores.setdefault(table, {})[board] = result.scores
            line = played_line(result_from_json(result.data), result.scores)
            out.contracts.setdefault(table, {})[board] = line.contract
        out.standings = [(r.place, r.name, r.total) for r in standings_data(event).rows]
        for seating in event.round_set.get(number=1).seatings.select_related("table", "entry"):
            assert seating.table is not None
            out.seats.setdefault(seating.table.number, {})[seating.seat] = seating.planned.number
        out.results = Result.objects.filter(event=event, is_current=True).count()
        out.summary = rulesets_summary(event)
        out.commitment = event.deal_commitment
        # Every round is closed before an event can finish (the key is then revealed).
        for round_ in event.round_set.order_by("number"):
            if round_.status == "planned":
                rounds.open_round(td, round_)
            rounds.close_round(td, round_, "not every sheet is keyed here", anyway=True)
        events.finish_event(td, event)
        event.refresh_from_db()
        out.key = event.deal_key
        out.files["hand_records_revealed"] = renderer_for(event, "hand_records").render()
        transaction.set_rollback(True)
    return out


def rulesets_summary(event: Event) -> list[dict[str, str]]:
    from tournaments import rulesets

    return rulesets.summary(events.ruleset_of(event))


# --- reading documents back -----------------------------------------------------------------


def pdf_pages(rendered: RenderedFile) -> list[str]:
    """The text of each page, laid out as on paper (one printed line per text line)."""
    reader = PdfReader(io.BytesIO(rendered.content))
    return [page.extract_text(extraction_mode="layout") for page in reader.pages]


def pdf_text(rendered: RenderedFile) -> str:
    return "\n".join(pdf_pages(rendered))


def page_sizes(rendered: RenderedFile) -> set[tuple[float, float]]:
    reader = PdfReader(io.BytesIO(rendered.content))
    return {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader.pages}


def first_page_png(rendered: RenderedFile, tmp_path: Path) -> bytes:
    """The first page as a grey-scale PNG, drawn by poppler's pdftoppm."""
    tool = shutil.which("pdftoppm")
    if tool is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed: install it to check the pictures")
    source = tmp_path / "document.pdf"
    source.write_bytes(rendered.content)
    subprocess.run(
        [
            tool,
            "-png",
            "-gray",
            "-r",
            "40",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(source),
            str(tmp_path / "page"),
        ],
        check=True,
        capture_output=True,
    )
    return (tmp_path / "page.png").read_bytes()


def dark_share(png: bytes) -> float:
    """The share of pixels darker than light grey in an 8-bit grey or RGB PNG (zlib, no imaging)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, data, width, height, channels = 8, b"", 0, 0, 1
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        body = png[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8, "an 8-bit PNG"
            assert colour in (0, 2), "a grey or RGB PNG"
            assert not interlace, "a PNG without interlacing"
            channels = 1 if colour == 0 else 3
        elif kind == b"IDAT":
            data += body
        position += 12 + length
    raw = zlib.decompress(data)
    stride = width * channels
    previous = bytearray(stride)
    dark = 0
    for y in range(height):
        start = y * (stride + 1)
        kind_byte, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):  # undo the PNG row filter of each byte
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind_byte == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind_byte == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind_byte == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind_byte == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + predictor) & 0xFF
        dark += sum(1 for x in range(0, stride, channels) if min(line[x : x + channels]) < 200)
        previous = line
    return dark / (width * height)
