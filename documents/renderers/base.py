"""What every printed document shares: paper, margins, the embedded fonts, and the render loop.

A renderer takes plain data (``documents.data``), draws it in the event's language and
returns a ``RenderedFile``. Renderers never touch the database, so a benchmark or a test can feed
them data built in memory; ``documents.loaders`` reads an event into that data.
"""

from __future__ import annotations

import io
import threading
import zlib
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from documents.data import Person
from documents.game import Suit

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
FONT_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}

PAGE_SIZES: dict[str, tuple[float, float]] = {"A4": A4, "letter": LETTER}
"""Paper by the names ``ReportFile.PageSize`` and the command line use."""

RED = colors.Color(0.78, 0.05, 0.10)
BLACK = colors.black
GREY = colors.Color(0.45, 0.45, 0.45)
LIGHT = colors.Color(0.92, 0.92, 0.92)
RULE = colors.Color(0.55, 0.55, 0.55)

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` as a renderer works through its pages."""

Align = Literal["left", "right", "centre"]

SMALLEST = 5.5
"""The smallest type a text is set in to fit its room."""

_fonts_lock = threading.Lock()
_fonts_registered = False


def register_fonts() -> None:
    """Register DejaVu Sans with ReportLab once per process; every PDF embeds the glyphs it uses.

    The fonts live in the repository (``fonts/``), so documents look the same on any machine and
    show ♠ ♥ ♦ ♣ and accented names whatever fonts the system has.
    """
    global _fonts_registered
    if _fonts_registered:
        return
    with _fonts_lock:  # two worker threads rendering their first document at the same moment
        if _fonts_registered:
            return
        for name, filename in FONT_FILES.items():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
        pdfmetrics.registerFontFamily(
            REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD
        )
        _fonts_registered = True


def page_size_for(paper: str) -> tuple[float, float]:
    try:
        return PAGE_SIZES[paper]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r}; choose {', '.join(PAGE_SIZES)}") from None


@dataclass(frozen=True)
class RenderedFile:
    """A finished document: what to call it, what it is, and its bytes."""

    filename: str
    content_type: str
    content: bytes


class Renderer:
    """Base class of every document. Subclasses set ``kind`` and implement ``draw`` and ``name``.

    Page size, margins and fonts are class attributes; ``paper`` picks Letter instead of A4 for
    one document. Everything ``draw`` prints goes through ``gettext`` while the document's
    language is active.
    """

    kind: ClassVar[str] = ""
    content_type: ClassVar[str] = "application/pdf"
    page_size: tuple[float, float] = A4
    margin_left: ClassVar[float] = 15 * mm
    margin_right: ClassVar[float] = 15 * mm
    margin_top: ClassVar[float] = 14 * mm
    margin_bottom: ClassVar[float] = 14 * mm
    font: ClassVar[str] = REGULAR
    bold_font: ClassVar[str] = BOLD
    layer: TextLayer  # set by ``render`` (or by the round pack, which shares its own)

    def __init__(
        self,
        data: Any,
        *,
        paper: str = "A4",
        language: str = "nl",
        progress: Progress | None = None,
    ) -> None:
        self.data = data
        self.paper = paper
        self.page_size = page_size_for(paper)
        self.language = language
        self.progress = progress

    # --- what subclasses provide ----------------------------------------------------------------

    def name(self) -> str:
        """The file name, without extension; ASCII so that every browser and shell copes."""
        raise NotImplementedError

    def draw(self, canvas: Canvas) -> None:
        """Draw every page on ``canvas``, ending each with ``self.show_page(canvas)``.

        Text drawn through ``self.layer`` goes into the page when the page ends.
        """
        raise NotImplementedError

    def steps(self) -> int:
        """How many progress steps ``draw`` reports (pages, tables or boards)."""
        return 1

    # --- the render loop -----------------------------------------------------------------------

    def filename(self) -> str:
        return f"{self.name()}.pdf"

    def render(self) -> RenderedFile:
        register_fonts()
        buffer = io.BytesIO()
        with translation.override(self.language):
            canvas = Canvas(buffer, pagesize=self.page_size, pageCompression=1)
            canvas.setTitle(self.title())
            canvas.setAuthor("Troef")
            canvas.setCreator("Troef")
            self.layer = TextLayer(canvas)
            self.draw(canvas)
            canvas.save()
        return RenderedFile(self.filename(), self.content_type, buffer.getvalue())

    def title(self) -> str:
        return self.name()

    def show_page(self, canvas: Canvas) -> None:
        """End the page: its text, then the next page."""
        self.layer.flush()
        canvas.showPage()
        compress_last_page(canvas)

    def report(self, done: int, total: int | None = None) -> None:
        if self.progress is not None:
            self.progress(done, total if total is not None else self.steps())

    # --- drawing helpers shared by the canvas-drawn documents ---------------------------------

    @property
    def width(self) -> float:
        return self.page_size[0]

    @property
    def height(self) -> float:
        return self.page_size[1]

    @property
    def left(self) -> float:
        return self.margin_left

    @property
    def right(self) -> float:
        return self.width - self.margin_right

    @property
    def top(self) -> float:
        return self.height - self.margin_top

    @property
    def bottom(self) -> float:
        return self.margin_bottom

    @property
    def usable_width(self) -> float:
        return self.right - self.left

    def text_width(self, text: str, size: float, bold: bool = False) -> float:
        return float(pdfmetrics.stringWidth(text, self.bold_font if bold else self.font, size))

    def fit(self, text: str, size: float, width: float, bold: bool = False) -> str:
        """``text`` shortened with an ellipsis so that it fits ``width``."""
        if self.text_width(text, size, bold) <= width:
            return text
        while text and self.text_width(text + "…", size, bold) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def fit_size(
        self, text: str, size: float, width: float, bold: bool = False, smallest: float = SMALLEST
    ) -> float:
        """The largest size up to ``size`` at which ``text`` fits ``width`` (not below ``smallest``)."""
        needed = self.text_width(text, size, bold)
        if needed <= width:
            return size
        return max(smallest, size * width / needed)

    def wrap(self, text: str, size: float, width: float, bold: bool = False) -> list[str]:
        """``text`` broken into lines no wider than ``width``, between words."""
        lines: list[str] = []
        current = ""
        for word in text.split():
            candidate = f"{current} {word}" if current else word
            if current and self.text_width(candidate, size, bold) > width:
                lines.append(current)
                current = word
            else:
                current = candidate
        if current:
            lines.append(current)
        return lines

    def seat_name(self, person: Person) -> str:
        """Who sits in a seat as printed: "12. Name", a substitute marked so, "" for nobody."""
        if person.vacant:
            return ""
        if person.substitute:
            return _("%(player)s (substitute)") % {"player": person.label}
        return person.label

    def blank_line(self, canvas: Canvas, x0: float, x1: float, y: float) -> None:
        """A line to write a name on, for a vacant seat."""
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.6)
        canvas.line(x0, y - 2, x1, y - 2)
        canvas.restoreState()

    def footer(self, canvas: Canvas, text: str, page: int | None = None) -> None:
        canvas.setFont(self.font, 7)
        canvas.setFillColor(GREY)
        canvas.drawString(self.left, self.bottom - 8, self.fit(text, 7, self.usable_width * 0.8))
        if page is not None:
            canvas.drawRightString(self.right, self.bottom - 8, _("page %(n)s") % {"n": page})
        canvas.setFillColor(BLACK)

    def draw_suit_text(
        self,
        canvas: Canvas,
        x: float,
        y: float,
        parts: Iterable[tuple[Suit | None, str]],
        size: float,
    ) -> float:
        """Draw runs of text, a suit's symbol in red (♥ ♦) or black (♠ ♣); return the end x."""
        for suit, text in parts:
            if suit is None:
                x += self.layer.draw(x, y, text, self.font, size)
            else:
                colour = RED if suit in (Suit.H, Suit.D) else BLACK
                x += self.layer.draw(x, y, text, self.bold_font, size, colour=colour)
        return x


class TextLayer:
    """The text of a page as PDF operators, each distinct text encoded once per document.

    ``canvas.drawString`` builds a text object, measures and encodes the text anew on every call
    (some 20 µs); a page of score cards or dealing slips has hundreds of cells, a federation's
    event thousands of pages. Here a text's glyph codes and width are worked out the first time it
    is drawn in the document and reused (a card's "+8" or "N", a slip's "♠" and "AK"), and a
    page's text goes into the page in one piece when ``flush`` is called (``Renderer.show_page``
    does): after the page's lines and shading, so the text lies over them. It is ordinary text:
    a PDF reader selects and searches it, and the tests read it back.
    """

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        # ReportLab numbers a TrueType font's glyphs per document (``_doc``): the codes cached
        # here are valid in this document only, so a layer serves one canvas.
        self.document = canvas._doc
        self.encoded: dict[tuple[str, str], tuple[tuple[tuple[str, str], ...], float]] = {}
        # By identity: hashing a ReportLab colour costs more than drawing the text.
        self.paints: dict[int, tuple[colors.Color, str]] = {}
        self.operators: list[str] = []
        self.font: tuple[str, float] | None = None  # the font subset and size now set
        self.paint = ""  # the fill colour now set
        self.stamps: dict[Hashable, str] = {}

    def encode(self, font: str, text: str) -> tuple[tuple[tuple[str, str], ...], float]:
        """The text as (font subset, escaped codes) runs, and its width at size 1."""
        key = (font, text)
        found = self.encoded.get(key)
        if found is None:
            face = pdfmetrics.getFont(font)
            runs = tuple(
                (face.getSubsetInternalName(subset, self.document), escapePDF(codes))
                for subset, codes in face.splitString(text, self.document)
            )
            found = (runs, face.stringWidth(text, 1.0))
            self.encoded[key] = found
        return found

    def width(self, text: str, font: str, size: float) -> float:
        return self.encode(font, text)[1] * size

    def draw(
        self,
        x: float,
        y: float,
        text: str,
        font: str,
        size: float,
        align: Align = "left",
        colour: colors.Color = BLACK,
        room: float = 0.0,
    ) -> float:
        """Draw ``text`` with its baseline at ``y``, starting, ending or centred at ``x``.

        A text wider than ``room`` (when given) is set smaller to fit, down to ``SMALLEST``.
        Returns the width drawn.
        """
        runs, unit = self.encode(font, text)
        width = unit * size
        if room and width > room:
            size = max(SMALLEST, size * room / width)
            width = unit * size
        if align == "right":
            x -= width
        elif align == "centre":
            x -= width / 2
        operators = self.operators
        known = self.paints.get(id(colour))
        if known is None:
            paint = f"{fp_str(colour.red, colour.green, colour.blue)} rg"
            self.paints[id(colour)] = (colour, paint)  # the colour kept, so its id stays its own
        else:
            paint = known[1]
        if paint != self.paint:
            operators.append(paint)
            self.paint = paint
        # A text object of its own, as ``drawString`` makes: readers that put a line's text
        # together (pypdf's layout mode) take the texts of one object as one run of words.
        # The font is set outside it, and only when it changes.
        if len(runs) == 1:
            name, codes = runs[0]
            if (name, size) != self.font:
                operators.append(f"{name} {size:.2f} Tf")
                self.font = (name, size)
            operators.append(f"BT 1 0 0 1 {x:.2f} {y:.2f} Tm ({codes}) Tj ET")
        elif runs:  # glyphs from several subsets of the font: each run in its own
            shown = " ".join(f"{name} {size:.2f} Tf ({codes}) Tj" for name, codes in runs)
            operators.append(f"BT 1 0 0 1 {x:.2f} {y:.2f} Tm {shown} ET")
            self.font = (runs[-1][0], size)
        return width

    def stamp(self, x: float, y: float, key: Hashable, draw: Callable[[], object]) -> None:
        """Texts that recur at many places (a board's hands on every copy of its slip), at (x, y).

        The first time ``key`` is seen, ``draw`` draws them through this layer around (0, 0);
        after that the same operators are repeated, moved to (x, y), without drawing again.
        """
        body = self.stamps.get(key)
        if body is None:
            outside = (self.operators, self.font, self.paint)
            self.operators, self.font, self.paint = [], None, ""
            draw()
            body = self.stamps[key] = " ".join(self.operators)
            self.operators, self.font, self.paint = outside
        # In a graphics state of its own, which gives back the font and colour set before.
        self.operators.append(f"q 1 0 0 1 {x:.2f} {y:.2f} cm {body} Q")

    def flush(self) -> None:
        """Put the text drawn so far into the page (in a graphics state of its own)."""
        if self.operators:
            self.canvas.addLiteral("q " + " ".join(self.operators) + " Q")
        self.operators = []
        self.font = None
        self.paint = ""


def compress_last_page(canvas: Canvas) -> None:
    """Compress the page just ended now, rather than when the document is saved.

    ReportLab keeps every page's operators as text until ``save``: a federation's score cards
    are two thousand pages of some 35 kB each. Compressed as each page ends, a page takes a tenth
    of that, so a long document's memory is mostly the finished file's. The page's stream is
    the one ``save`` would write, with the same filter.
    """
    page = canvas._doc.Pages.pages[-1]
    if page.Contents or not page.stream or not page.compression:
        return
    content = zlib.compress(page.stream.encode("utf-8"))
    stream = PDFStream(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}), content)
    stream.__Comment__ = "page stream"
    page.Contents = stream
    page.stream = None


def cut_marks(canvas: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    """A dashed line to cut along, between cards or slips printed several to a page."""
    canvas.saveState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    canvas.setDash(3, 3)
    canvas.line(x0, y0, x1, y1)
    canvas.restoreState()


def signed(value: int) -> str:
    """``+8``, ``-8``, ``0``: how points are written on score sheets."""
    return f"{value:+d}" if value else "0"


def board_ranges(numbers: Iterable[int]) -> str:
    """``1–4, 9–12``: board numbers as short ranges."""
    ordered = sorted(set(numbers))
    parts: list[str] = []
    start = previous = None
    for number in ordered:
        if previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}–{previous}")
        start = previous = number
    if start is not None:
        parts.append(str(start) if start == previous else f"{start}–{previous}")
    return ", ".join(parts)
