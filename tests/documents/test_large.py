"""Documents at a federation's size: score cards that run over pages, a slip for every copy of a
board, text drawn through the text layer, and ReportLab's C accelerator."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from pypdf import PdfReader
from reportlab.lib import rl_accel
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import textobject
from reportlab.pdfgen.canvas import Canvas

from documents.data import (
    CardLine,
    EventInfo,
    HandRecords,
    Person,
    ScoreCard,
    ScoreCards,
)
from documents.renderers.base import BOLD, RED, REGULAR, TextLayer, register_fonts
from documents.renderers.hands import DealingSlipRenderer, suit_line
from documents.renderers.standings import ScoreCardRenderer
from engine.cards import SUITS
from engine.deals import deals_from_key
from tests.documents.conftest import pdf_pages

EVENT = EventInfo("federatie", "Federatiekampioenschap", dt.date(2026, 12, 12), "Zaal De Kroon")


def test_it_measures_and_encodes_text_with_reportlabs_c_accelerator() -> None:
    """Without rl-accel every document is several times slower: a missing wheel fails here."""
    for name in ("fp_str", "instanceStringWidthTTF", "escapePDF", "unicode2T1", "sameFrag"):
        function = getattr(rl_accel, name)
        assert type(function).__name__ == "builtin_function_or_method", f"{name} is Python's"
        assert function.__module__ == "_rl_accel"
    # The modules that draw took the accelerated functions when they were imported.
    assert ttfonts.instanceStringWidthTTF is rl_accel.instanceStringWidthTTF
    assert textobject.fp_str is rl_accel.fp_str
    assert pdfdoc.escapePDF is rl_accel.escapePDF


def card(number: int, rounds: int, boards_per_round: int) -> ScoreCard:
    lines = tuple(
        CardLine(
            round=r,
            table=number,
            seat="NESW"[r % 4],
            board=(r - 1) * boards_per_round + b,
            declarers="NE",
            contract="9♥" if b % 2 else "sol 6♦",
            tricks="10",
            score="+14",
            percentage="52.31",
        )
        for r in range(1, rounds + 1)
        for b in range(1, boards_per_round + 1)
    )
    rounds_figures = {str(r): "50.00" for r in range(1, rounds + 1)}
    return ScoreCard(
        Person(number, f"Zoë Speler{number}"), str(number), "51.25", rounds_figures, lines
    )


def test_it_runs_a_long_score_card_on_over_pages_with_the_headings_again() -> None:
    cards = ScoreCards(EVENT, "matchpoints", (card(1, 10, 8), card(2, 10, 8)))
    pages = pdf_pages(ScoreCardRenderer(cards, language="en").render())
    assert len(pages) == 4  # eighty boards and ten rounds' lines: two pages a card
    for first, second in (pages[0:2], pages[2:4]):
        assert "Personal score card" in first
        assert "Personal score card" not in second
        text = first + second
        for page in (first, second):
            assert re.search(r"Round\s+Table\s+Seat\s+Board", page)  # the headings again
        boards = [int(m) for m in re.findall(r"^\s*\d+\s+\d+\s+[NESW]\s+(\d+)\s", text, re.M)]
        assert boards == list(range(1, 81))
        rounds = [int(n) for n in re.findall(r"Round (\d+)\s+50\.00$", text, re.M)]
        assert rounds == list(range(1, 11))  # each round's line, with its result
        assert "52.31" in text
    assert "Zoë Speler2" in pages[2]
    assert "page 4" in pages[3]


def test_it_prints_every_copy_of_a_boards_slip_with_all_four_hands() -> None:
    boards = tuple(deals_from_key("slips-key", [1, 2, 3]))
    data = HandRecords(EVENT, boards, copies={1: 3, 2: 3, 3: 3})
    text = "\n".join(pdf_pages(DealingSlipRenderer(data, language="en").render()))
    for board in boards:
        for copy in (1, 2, 3):
            assert f"Board {board.board}" in text
            assert f"copy {copy} of 3" in text
        for hand in board.deal.hands:
            for suit in SUITS:
                holding = suit_line(hand, suit, spaced=False)
                assert text.count(suit.symbol + holding) >= 3, (board.board, holding)


def read_back(content: bytes) -> str:
    return PdfReader(io.BytesIO(content)).pages[0].extract_text(extraction_mode="layout")


def test_it_writes_text_through_its_layer_that_a_reader_takes_back() -> None:
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    layer = TextLayer(canvas)
    layer.draw(72, 700, "Agnès", REGULAR, 10)
    layer.draw(300, 700, "+14", BOLD, 10, "right")
    layer.draw(400, 700, "♥", BOLD, 10, colour=RED)
    layer.stamp(72, 600, "hand", lambda: layer.draw(0, 0, "♠AK7", REGULAR, 10))
    layer.stamp(72, 500, "hand", lambda: pytest.fail("a stamp is drawn once"))
    # More glyphs than one font subset holds: a text with glyphs of two subsets.
    cyrillic = "".join(chr(code) for code in range(0x410, 0x450))
    greek = "".join(chr(code) for code in range(0x391, 0x3C9) if code != 0x3A2)
    latin = "".join(chr(code) for code in range(0x100, 0x17F))
    layer.draw(72, 400, cyrillic + greek + latin, REGULAR, 4)
    layer.draw(72, 380, "Zoë ω Ж", REGULAR, 10)
    layer.flush()
    canvas.showPage()
    canvas.save()
    lines = [" ".join(line.split()) for line in read_back(buffer.getvalue()).splitlines()]
    assert "Agnès +14 ♥" in lines
    assert lines.count("♠AK7") == 2
    assert "Zoë ω Ж" in lines
    assert any(latin[-20:] in line for line in lines)


def test_it_measures_text_in_its_layer_as_reportlab_does() -> None:
    register_fonts()
    layer = TextLayer(Canvas(io.BytesIO()))
    for text in ("Geneviève Van den Broeck", "♠ K Q 10 9", "+14", ""):
        assert layer.width(text, BOLD, 8.5) == pytest.approx(stringWidth(text, BOLD, 8.5))
