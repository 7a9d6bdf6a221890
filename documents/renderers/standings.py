"""Documents that flow over pages: the standings, personal score cards and the event summary.

The standings and the summary are laid out with ReportLab's platypus (tables that break over
pages and repeat their header). The score cards, a thousand players' worth at a federation's
event, are drawn straight on the canvas a page at a time, their table running on over pages
the same way.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from documents.data import (
    EventSummary,
    ScoreCard,
    ScoreCards,
    StandingRow,
    StandingsData,
    suit_runs,
)
from documents.renderers.base import (
    BLACK,
    BOLD,
    GREY,
    LIGHT,
    RED,
    REGULAR,
    RULE,
    SMALLEST,
    Align,
    RenderedFile,
    Renderer,
    register_fonts,
)
from tournaments.audit_text import decimal_text
from tournaments.models import Event, Round

ROUNDS_PER_BAND = 12
"""Round columns printed side by side at most; more rounds continue in a second table below
(sooner, when the figures are too wide for this many to leave the names their room)."""

CELL_SIZE = 8.5
"""Type size of the tables' cells and headings."""

SMALLEST_HEADING = 6.0
"""A heading that does not fit its column on two lines is set smaller, down to this size."""

PADDING = 3.0
"""Space left and right of the text in every table cell."""

NAME_ROOM = 150.0
"""Width the name and club columns of the standings need; less turns the paper sideways."""


def figure(text: str) -> str:
    """A percentage or total kept as exact text ("52.31"), written as the document's language
    writes decimals ("52,31" in Dutch and French)."""
    return decimal_text(text) if text else text


@dataclass(frozen=True)
class HeaderCell:
    """A column heading as drawn: one or two lines, at a size that fits the column."""

    text: str
    lines: tuple[str, ...]
    size: float
    width: float  # the column's width, padding included

    @property
    def cell(self) -> str:
        return "\n".join(self.lines)


def styles() -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName=BOLD, fontSize=16, leading=20, spaceAfter=2),
        "subtitle": ParagraphStyle(
            "subtitle", fontName=REGULAR, fontSize=9, leading=12, textColor=GREY
        ),
        "heading": ParagraphStyle(
            "heading", fontName=BOLD, fontSize=11, leading=14, spaceBefore=10, spaceAfter=4
        ),
        "body": ParagraphStyle("body", fontName=REGULAR, fontSize=9, leading=12),
        "small": ParagraphStyle(
            "small", fontName=REGULAR, fontSize=7.5, leading=10, textColor=GREY
        ),
    }


def method_label(method: str) -> str:
    return {
        "matchpoints": _("matchpoints (percentages)"),
        "raw": _("raw totals"),
        "datum": _("datum (Butler)"),
    }.get(method, method)


def grid_style(header_rows: int = 1, size: float = 8.5) -> list[tuple[Any, ...]]:
    return [
        ("FONT", (0, 0), (-1, -1), REGULAR, size),
        ("FONT", (0, 0), (-1, header_rows - 1), BOLD, size),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), LIGHT),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("BOX", (0, 0), (-1, -1), 0.6, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), PADDING),
    ]


class FlowRenderer(Renderer):
    """A document built from flowables; the footer names the event and numbers the pages."""

    def story(self) -> list[Flowable]:
        raise NotImplementedError

    def footer_text(self) -> str:
        return self.title()

    def render(self) -> RenderedFile:
        register_fonts()
        buffer = io.BytesIO()
        with translation.override(self.language):
            self.styles = styles()
            story = self.story()
            document = SimpleDocTemplate(
                buffer,
                pagesize=self.page_size,
                title=self.title(),
                author="Troef",
                creator="Troef",
                leftMargin=self.margin_left,
                rightMargin=self.margin_right,
                topMargin=self.margin_top,
                bottomMargin=self.margin_bottom + 6,
            )
            document.build(story, onFirstPage=self.on_page, onLaterPages=self.on_page)
        self.report(self.steps())
        return RenderedFile(self.filename(), self.content_type, buffer.getvalue())

    def on_page(self, canvas: Canvas, document: Any) -> None:
        canvas.saveState()
        self.footer(canvas, self.footer_text(), document.page)
        canvas.restoreState()

    def header_cell(self, text: str, width: float, size: float = CELL_SIZE) -> HeaderCell:
        """``text`` set to fit a column ``width`` wide: on one line, else on two, else smaller.

        Translations differ in length ("Boards", "Spellen", "Donnes"), so every heading is
        measured in the document's language rather than given a column wide enough for English.
        """
        room = width - 2 * PADDING
        candidate = size
        while True:
            if self.text_width(text, candidate, bold=True) <= room:
                return HeaderCell(text, (text,), candidate, width)
            lines = self.wrap(text, candidate, room, bold=True)
            if len(lines) == 2 and all(
                self.text_width(line, candidate, bold=True) <= room for line in lines
            ):
                return HeaderCell(text, tuple(lines), candidate, width)
            if candidate <= SMALLEST_HEADING:
                break
            candidate = max(SMALLEST_HEADING, candidate - 0.25)
        return HeaderCell(text, (self.fit(text, candidate, room, bold=True),), candidate, width)

    def header_row(
        self, texts: Sequence[str], widths: Sequence[float], row: int = 0
    ) -> tuple[list[HeaderCell], list[tuple[Any, ...]]]:
        """The headings of a table's columns, and the style that sets each at its own size."""
        cells = [self.header_cell(text, width) for text, width in zip(texts, widths, strict=True)]
        style: list[tuple[Any, ...]] = []
        for column, cell in enumerate(cells):
            if cell.size != CELL_SIZE or len(cell.lines) > 1:
                at = (column, row)
                style.append(("FONT", at, at, BOLD, cell.size, cell.size * 1.15))
        return cells, style

    def needed(self, texts: Sequence[str], bold: bool = False) -> float:
        """The width of a column that shows each of ``texts`` on one line."""
        widest = max((self.text_width(t, CELL_SIZE, bold) for t in texts), default=0.0)
        return widest + 2 * PADDING + 1

    def heading_room(self, text: str) -> float:
        """The width of a column whose heading fits at full size on at most two lines."""
        words = text.split()
        if len(words) == 1:
            return self.needed(words, bold=True)
        halves = [
            max(
                self.text_width(" ".join(words[:cut]), CELL_SIZE, True),
                self.text_width(" ".join(words[cut:]), CELL_SIZE, True),
            )
            for cut in range(1, len(words))
        ]
        return min(halves) + 2 * PADDING + 1

    def heading_block(self, title: str, subtitle: str = "") -> list[Flowable]:
        event = self.data.event
        facts = [date_format(event.date, "DATE_FORMAT"), event.venue, subtitle]
        return [
            Paragraph(escape(event.name), self.styles["title"]),
            Paragraph(escape(title), self.styles["heading"]),
            Paragraph(escape(" · ".join(f for f in facts if f)), self.styles["subtitle"]),
            Spacer(1, 8),
        ]


class StandingsRenderer(FlowRenderer):
    """The ranking, a column per round; players without a place follow it, then substitutes.

    A player is ranked once they have a board to their name (``StandingRow.place``). Those still
    without one (a late arrival, everyone before the first results, a player who withdrew before
    playing) and substitutes, who are never ranked, are listed after the ranking under a line that
    says why, with "—" for a place.
    """

    kind = "standings"
    data: StandingsData

    def __init__(self, data: StandingsData, **options: Any) -> None:
        super().__init__(data, **options)
        register_fonts()
        self.band_size = min(ROUNDS_PER_BAND, max(1, len(data.rounds)))
        with translation.override(self.language):
            if not self.fits(self.band_size):  # many round columns: turn the paper
                self.page_size = landscape(self.page_size)
            while self.band_size > 1 and not self.fits(self.band_size):
                self.band_size -= 1

    def name(self) -> str:
        return f"{self.data.event.slug}-standings"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("standings")

    def bands(self, size: int | None = None) -> list[tuple[tuple[int, ...], bool]]:
        """The round columns of each table, and whether it is the last (with the totals)."""
        rounds = self.data.rounds
        size = size or self.band_size
        bands = [tuple(rounds[i : i + size]) for i in range(0, len(rounds), size)] or [()]
        return [(band, index == len(bands) - 1) for index, band in enumerate(bands)]

    def fits(self, size: int) -> bool:
        """Whether tables of ``size`` round columns leave the names and clubs their room."""
        return all(
            self.usable_width - sum(self.figure_widths(band, last)) >= NAME_ROOM
            for band, last in self.bands(size)
        )

    def ranked(self) -> list[StandingRow]:
        return [row for row in self.data.rows if row.ranked]

    def waiting(self) -> list[StandingRow]:
        return [row for row in self.data.rows if not row.place and not row.substitute]

    def substitutes(self) -> list[StandingRow]:
        return [row for row in self.data.rows if row.substitute]

    def story(self) -> list[Flowable]:
        rounds = self.data.rounds
        title = _("Standings after round %(n)s") % {"n": max(rounds)} if rounds else _("Standings")
        story = self.heading_block(title, method_label(self.data.method))
        if not self.data.rows:
            story.append(Paragraph(escape(_("No results yet.")), self.styles["body"]))
            return story
        for index, (band, last) in enumerate(self.bands()):
            if index:
                story.append(Spacer(1, 12))
            story.append(self.table(band, last))
        story.append(Spacer(1, 6))
        notes = [_("A place shared by players who are level is written as “3=”.")]
        if self.waiting() or self.substitutes():
            notes.append(
                _(
                    "“—”: not ranked. A player is ranked from their first result on; substitutes "
                    "fill a seat for a round and are never ranked."
                )
            )
        for note in notes:
            story.append(Paragraph(escape(note), self.styles["small"]))
        return story

    # --- columns -------------------------------------------------------------------------------

    def headers(self, band: Sequence[int], last: bool) -> list[str]:
        texts = [
            _("Place"),
            _("No."),
            _("Name"),
            _("Club"),
            *(_("R%(n)s") % {"n": r} for r in band),
        ]
        if last:
            texts += [_("Total"), _("Boards")]
        return texts

    def figure_widths(self, band: Sequence[int], last: bool) -> list[float]:
        """Widths of every column but the name and the club: as wide as heading and figures need."""
        rows = self.data.rows
        texts = self.headers(band, last)
        values: list[list[str]] = [
            [row.place or "—" for row in rows],
            [str(row.entry) for row in rows],
            *([figure(row.rounds.get(str(r), "")) for row in rows] for r in band),
        ]
        if last:
            values += [
                [figure(row.total) or "—" for row in rows],
                [str(row.boards) for row in rows],
            ]
        headings = [texts[0], texts[1], *texts[4:]]
        total_column = len(values) - 2 if last else None
        return [
            max(self.heading_room(heading), self.needed(column, bold=index == total_column))
            for index, (heading, column) in enumerate(zip(headings, values, strict=True))
        ]

    def widths(self, band: Sequence[int], last: bool) -> list[float]:
        """Every column's width: the figures as wide as they need, the names and clubs the rest."""
        figures = self.figure_widths(band, last)
        rest = max(NAME_ROOM, self.usable_width - sum(figures))
        return [figures[0], figures[1], rest * 0.6, rest * 0.4, *figures[2:]]

    def header_cells(self, band: Sequence[int], last: bool) -> list[HeaderCell]:
        """The headings of one table as drawn (for the tests, which measure them)."""
        return self.header_row(self.headers(band, last), self.widths(band, last))[0]

    # --- the table -----------------------------------------------------------------------------

    def table(self, band: Sequence[int], last: bool) -> Table:
        widths = self.widths(band, last)
        cells, header_style = self.header_row(self.headers(band, last), widths)
        rows: list[list[str]] = [[cell.cell for cell in cells]]
        style = grid_style()
        style += header_style
        style += [
            ("ALIGN", (0, 0), (1, -1), "RIGHT"),
            ("ALIGN", (4, 0), (-1, -1), "RIGHT"),
        ]
        if last:
            style.append(("FONT", (-2, 1), (-2, -1), BOLD, CELL_SIZE))
        groups = [
            ("", self.ranked()),
            (_("No result yet: not ranked"), self.waiting()),
            (_("Substitutes: not ranked"), self.substitutes()),
        ]
        for label, members in groups:
            if not members:
                continue
            if label:
                at = len(rows)
                rows.append([label] + [""] * (len(widths) - 1))
                style += [
                    ("SPAN", (0, at), (-1, at)),
                    ("ALIGN", (0, at), (-1, at), "LEFT"),
                    ("FONT", (0, at), (-1, at), REGULAR, 7.5),
                    ("TEXTCOLOR", (0, at), (-1, at), GREY),
                    ("LINEABOVE", (0, at), (-1, at), 0.8, RULE),
                ]
            for row in members:
                at = len(rows)
                rows.append(self.cells(row, band, last, widths, style, at))
                if row.withdrawn or not row.place:
                    style.append(("TEXTCOLOR", (0, at), (-1, at), GREY))
                elif at % 2 == 0:
                    style.append(("BACKGROUND", (0, at), (-1, at), "#f6f6f6"))
        table = Table(rows, colWidths=widths, repeatRows=1)
        table.setStyle(TableStyle(style))
        return table

    def cells(
        self,
        row: StandingRow,
        band: Sequence[int],
        last: bool,
        widths: Sequence[float],
        style: list[tuple[Any, ...]],
        at: int,
    ) -> list[str]:
        """One player's line; a name or club too long for its column is set smaller."""
        name = row.name
        if row.withdrawn:
            name += f" ({_('withdrawn')})"
        texts = {2: name, 3: row.club}
        for column, text in texts.items():
            room = widths[column] - 2 * PADDING
            size = self.fit_size(text, CELL_SIZE, room, smallest=6.5)
            if size < CELL_SIZE:
                style.append(("FONT", (column, at), (column, at), REGULAR, size))
                texts[column] = self.fit(text, size, room)
        cells = [
            row.place or "—",
            str(row.entry),
            texts[2],
            texts[3],
            *(figure(row.rounds.get(str(r), "")) for r in band),
        ]
        if last:
            cells += [figure(row.total) or "—", str(row.boards)]
        return cells


class ScoreCardRenderer(Renderer):
    """Each player's card from a new page: the boards in a table that runs on over pages.

    Drawn straight on the canvas, a row at a time, through a text layer: a federation's event is
    a thousand cards of eighty boards, too many for flowables, which would hold every page of
    the document until the end.
    """

    kind = "score_cards"
    data: ScoreCards
    widths = (38.0, 36.0, 32.0, 38.0, 56.0, 120.0, 44.0, 52.0, 56.0)
    aligns: tuple[Align, ...] = ("right",) * 4 + ("left",) * 2 + ("right",) * 3
    contract_column = 5
    row_height = CELL_SIZE * 1.2 + 5  # the flowing tables' rows: leading and padding
    table_width = sum(widths)
    round_background = colors.Color(0.953, 0.953, 0.953)

    def name(self) -> str:
        return f"{self.data.event.slug}-score-cards"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("personal score cards")

    def steps(self) -> int:
        return len(self.data.cards)

    @property
    def table_bottom(self) -> float:
        return self.bottom + 6  # above the footer, as on the flowing documents

    def draw(self, canvas: Canvas) -> None:
        self.rules: list[float] = []
        self.page = 0
        self.headers = (
            _("Round"),
            _("Table"),
            _("Seat"),
            _("Board"),
            _("Declarers"),
            _("Contract"),
            _("Tricks"),
            _("Score"),
            "%",
        )
        if not self.data.cards:
            y = self.draw_heading(_("Personal score cards"), "")
            self.layer.draw(self.left, y - 9, _("No results yet."), self.font, 9)
            self.end_page(canvas)
        for done, card in enumerate(self.data.cards, start=1):
            self.draw_card(canvas, card)
            self.report(done)

    def end_page(self, canvas: Canvas) -> None:
        self.page += 1
        self.footer(canvas, self.title(), self.page)
        self.show_page(canvas)

    def lines(
        self, y: float, texts: Sequence[str], font: str, size: float, leading: float
    ) -> float:
        """Paragraph-like lines of ``texts`` from ``y`` down, wrapped to the page; the y under them."""
        for text in texts:
            for line in self.wrap(text, size, self.usable_width, bold=font == self.bold_font):
                y -= leading
                self.layer.draw(self.left, y + (leading - size) / 2, line, font, size)
        return y

    def draw_heading(self, title: str, subtitle: str) -> float:
        """The event, what the page is and its facts, as the flowing documents begin."""
        event = self.data.event
        y = self.lines(self.top, [event.name], self.bold_font, 16, 20) - 12
        y = self.lines(y, [title], self.bold_font, 11, 14) - 4
        facts = [date_format(event.date, "DATE_FORMAT"), event.venue, subtitle]
        text = " · ".join(f for f in facts if f)
        for line in self.wrap(text, 9, self.usable_width):
            y -= 12
            self.layer.draw(self.left, y + 2, line, self.font, 9, colour=GREY)
        return y - 8

    def draw_card(self, canvas: Canvas, card: ScoreCard) -> None:
        person = card.person
        subtitle = " · ".join(
            p for p in (_("Player %(n)s") % {"n": person.number}, person.club) if p
        )
        y = self.draw_heading(_("Personal score card: %(name)s") % {"name": person.name}, subtitle)
        standing = _("Place %(place)s · total %(total)s") % {
            "place": card.place or "–",
            "total": figure(card.total) or "–",
        }
        y = self.lines(y - 10, [standing], self.bold_font, 11, 14) - 4
        top = y
        y = self.draw_row(canvas, self.headers, y, bold=True, background=LIGHT)
        for cells, summary, artificial in self.rows(card):
            if y - self.row_height < self.table_bottom:  # the table runs on to the next page
                self.draw_box(canvas, top, y)
                self.end_page(canvas)
                top = y = self.top
                y = self.draw_row(canvas, self.headers, y, bold=True, background=LIGHT)
            background = self.round_background if summary else None
            y = self.draw_row(
                canvas, cells, y, bold=summary, background=background, plain=artificial
            )
        self.draw_box(canvas, top, y)
        notes: list[tuple[str, float, float, colors.Color]] = []
        if card.sat_out:
            note = _("Sat out %(n)s boards; they count at the player's own average.")
            notes.append((note % {"n": card.sat_out}, 7.5, 10, GREY))
        if not card.lines:
            notes.append((_("No boards played yet."), 9, 12, BLACK))
        if notes:
            y -= 6
        for note, size, leading, colour in notes:
            for line in self.wrap(note, size, self.usable_width):
                if y - leading < self.table_bottom:
                    self.end_page(canvas)
                    y = self.top
                y -= leading
                self.layer.draw(
                    self.left, y + (leading - size) / 2, line, self.font, size, colour=colour
                )
        self.end_page(canvas)

    def rows(self, card: ScoreCard) -> Iterator[tuple[tuple[str, ...], bool, bool]]:
        """Each board's cells, and after each round its result: (cells, a round's line, artificial)."""
        previous: int | None = None
        for line in [*card.lines, None]:
            if previous is not None and (line is None or line.round != previous):
                result = figure(card.rounds.get(str(previous), ""))
                label = _("Round %(n)s") % {"n": previous}
                yield ("", "", "", "", "", label, "", "", result), True, False
            if line is None:
                break
            contract = _("artificial score") if line.artificial else line.contract
            cells = (
                str(line.round),
                str(line.table),
                line.seat,
                str(line.board),
                line.declarers,
                contract,
                line.tricks,
                line.score,
                figure(line.percentage),
            )
            yield cells, False, line.artificial
            previous = line.round

    def draw_row(
        self,
        canvas: Canvas,
        cells: Sequence[str],
        y: float,
        *,
        bold: bool = False,
        background: colors.Color | None = None,
        plain: bool = False,
    ) -> float:
        """One line of the table with its top at ``y``; the y of its bottom.

        The rule under it is drawn with the page's others (``draw_box``): one path a page.
        """
        height = self.row_height
        bottom = y - height
        if background is not None:
            canvas.setFillColor(background)
            canvas.rect(self.left, bottom, self.table_width, height, stroke=0, fill=1)
            canvas.setFillColor(BLACK)
        self.rules.append(bottom)
        font = self.bold_font if bold else self.font
        base = bottom + (height - CELL_SIZE) / 2 + 1.5
        x = self.left
        draw = self.layer.draw
        for index, cell in enumerate(cells):
            width = self.widths[index]
            if not cell:
                pass
            elif index == self.contract_column and not bold and not plain:
                # The suit symbols of a contract: ♥ and ♦ in red.
                at = x + PADDING
                size = CELL_SIZE
                room = width - 2 * PADDING
                needed = self.layer.width(cell, font, size)
                if needed > room:
                    size = max(SMALLEST, size * room / needed)
                for suit, run in suit_runs(cell):
                    red = suit is not None and suit.symbol in "♥♦"
                    at += draw(at, base, run, font, size, colour=RED if red else BLACK)
            elif self.aligns[index] == "right":
                draw(
                    x + width - PADDING,
                    base,
                    cell,
                    font,
                    CELL_SIZE,
                    "right",
                    room=width - 2 * PADDING,
                )
            else:
                draw(x + PADDING, base, cell, font, CELL_SIZE, room=width - 2 * PADDING)
            x += width
        return bottom

    def draw_box(self, canvas: Canvas, top: float, bottom: float) -> None:
        """The rules under the rows of this page's part of the table, and the box around it."""
        right = self.left + self.table_width
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.3)
        canvas.lines([(self.left, y, right, y) for y in self.rules])
        self.rules = []
        canvas.setLineWidth(0.6)
        canvas.rect(self.left, bottom, self.table_width, top - bottom, stroke=1, fill=0)
        canvas.setStrokeColor(BLACK)
        canvas.setLineWidth(1)


class SummaryRenderer(FlowRenderer):
    kind = "summary"
    data: EventSummary
    leaders = 10

    def name(self) -> str:
        return f"{self.data.event.slug}-summary"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("event summary")

    def story(self) -> list[Flowable]:
        story = self.heading_block(_("Event summary"), self.status_label(self.data.status))
        story.append(self.facts_table())
        story.append(Paragraph(escape(_("Rounds")), self.styles["heading"]))
        story.append(self.rounds_table())
        story += self.leading_players()
        story += self.verification()
        return story

    def facts(self) -> list[tuple[str, str]]:
        data = self.data
        event = data.event
        game = {
            "kleurenwiezen": _("Colour Whist (Kleurenwiezen)"),
            "wiezen": _("Wiezen"),
            "israeli": _("Israeli Whist"),
        }.get(event.game, event.game)
        played = sum(1 for r in data.round_facts if r.status != Round.Status.PLANNED)
        players = str(data.players)
        if data.withdrawn:
            players += " " + _("(%(n)s withdrawn)") % {"n": data.withdrawn}
        if data.substitutes:
            players += " " + ngettext(
                "(%(n)s substitute, not ranked)",
                "(%(n)s substitutes, not ranked)",
                data.substitutes,
            ) % {"n": data.substitutes}
        return [
            (_("Game"), game),
            (_("Ruleset"), event.ruleset_title),
            (_("Comparison"), method_label(event.comparison)),
            (_("Players"), players),
            (
                _("Rounds"),
                _("%(played)s of %(total)s started") % {"played": played, "total": data.rounds},
            ),
            (_("Boards per round"), str(data.boards_per_round)),
            (_("Boards dealt"), str(data.boards)),
            (_("Results recorded"), str(data.results)),
        ]

    def facts_cells(self) -> list[HeaderCell]:
        """The facts' labels, the headings of their lines: the column is as wide as the longest."""
        labels = [label for label, _value in self.facts()]
        widest = max(self.text_width(label, 9, bold=True) for label in labels)
        width = min(self.usable_width / 2, widest + 2 * PADDING + 1)
        return [self.header_cell(label, width, size=9) for label in labels]

    def facts_table(self) -> Table:
        cells = self.facts_cells()
        label_width = cells[0].width
        value_width = self.usable_width - label_width
        rows: list[list[Any]] = []
        style: list[tuple[Any, ...]] = [
            ("FONT", (0, 0), (0, -1), BOLD, 9),
            ("FONT", (1, 0), (1, -1), REGULAR, 9),
            ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
            ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("LEFTPADDING", (0, 0), (-1, -1), PADDING),
            ("RIGHTPADDING", (0, 0), (-1, -1), PADDING),
        ]
        for index, (cell, (_label, value)) in enumerate(zip(cells, self.facts(), strict=True)):
            if cell.size != 9 or len(cell.lines) > 1:
                style.append(("FONT", (0, index), (0, index), BOLD, cell.size, cell.size * 1.15))
            fits = self.text_width(value, 9) <= value_width - 2 * PADDING
            rows.append(
                [cell.cell, value if fits else Paragraph(escape(value), self.styles["body"])]
            )
        table = Table(rows, colWidths=[label_width, value_width], hAlign="LEFT")
        table.setStyle(TableStyle(style))
        return table

    def round_rows(self) -> list[list[str]]:
        return [
            [
                str(facts_row.round),
                self.round_status(facts_row.status),
                str(facts_row.tables),
                str(facts_row.byes),
                f"{facts_row.results} / {facts_row.expected}",
            ]
            for facts_row in self.data.round_facts
        ]

    def rounds_widths(self) -> list[float]:
        headings = self.rounds_headers()
        rows = self.round_rows()
        return [
            max(self.heading_room(heading), self.needed([row[index] for row in rows]), 40.0)
            for index, heading in enumerate(headings)
        ]

    def rounds_headers(self) -> list[str]:
        return [_("Round"), _("Status"), _("Tables"), _("Byes"), _("Results")]

    def rounds_table(self) -> Table:
        widths = self.rounds_widths()
        cells, header_style = self.header_row(self.rounds_headers(), widths)
        rows = [[cell.cell for cell in cells], *self.round_rows()]
        table = Table(rows, colWidths=widths, hAlign="LEFT", repeatRows=1)
        table.setStyle(
            TableStyle([*grid_style(), *header_style, ("ALIGN", (2, 0), (-1, -1), "RIGHT")])
        )
        return table

    def leaders_rows(self) -> list[StandingRow]:
        """The first players of the ranking; players without a place and substitutes are not."""
        return [row for row in self.data.standings.rows if row.ranked][: self.leaders]

    def leaders_headers(self) -> list[str]:
        return [_("Place"), _("Name"), _("Club"), _("Total")]

    def leaders_widths(self) -> list[float]:
        rows = self.leaders_rows()
        headings = self.leaders_headers()
        place = max(self.heading_room(headings[0]), self.needed([r.place for r in rows]))
        total = max(self.heading_room(headings[3]), self.needed([r.total for r in rows]))
        rest = self.usable_width - place - total
        return [place, rest * 0.55, rest * 0.45, total]

    def header_cells(self) -> list[HeaderCell]:
        """Every heading of the summary's tables as drawn (for the tests, which measure them)."""
        cells = self.facts_cells()
        cells += self.header_row(self.rounds_headers(), self.rounds_widths())[0]
        if self.leaders_rows():
            cells += self.header_row(self.leaders_headers(), self.leaders_widths())[0]
        return cells

    def leading_players(self) -> list[Flowable]:
        rows_data: Sequence[StandingRow] = self.leaders_rows()
        if not rows_data:
            return []
        widths = self.leaders_widths()
        cells, header_style = self.header_row(self.leaders_headers(), widths)
        rows = [[cell.cell for cell in cells]]
        rows += [
            [
                r.place,
                self.fit(r.name, CELL_SIZE, widths[1] - 2 * PADDING),
                self.fit(r.club, CELL_SIZE, widths[2] - 2 * PADDING),
                figure(r.total),
            ]
            for r in rows_data
        ]
        table = Table(rows, colWidths=widths, hAlign="LEFT", repeatRows=1)
        table.setStyle(
            TableStyle([*grid_style(), *header_style, ("ALIGN", (-1, 0), (-1, -1), "RIGHT")])
        )
        return [
            CondPageBreak(120),
            Paragraph(escape(_("Leading players")), self.styles["heading"]),
            table,
        ]

    def deal_lines(self) -> list[str]:
        """Where the deals came from, and how anyone can check them."""
        data = self.data
        if data.deal_file and data.boards:  # a new event shape drops the boards, not the file name
            return [
                _("Deals imported from %(file)s, not dealt by Troef: there is no key.")
                % {"file": data.deal_file},
                _("SHA-256 of the file: %(sha)s") % {"sha": data.deal_file_sha256},
            ]
        if not data.commitment:
            return []
        lines = [_("Deal commitment (SHA-256 of the key): %(c)s") % {"c": data.commitment}]
        if data.key:
            lines.append(_("Key: %(key)s") % {"key": data.key})
            lines.append(
                _(
                    "Anyone can deal the boards again and compare: python3 -m engine deal --key %(key)s --boards %(boards)s"
                )
                % {"key": data.key, "boards": f"1-{data.boards}"}
            )
        else:
            lines.append(_("The key is revealed when the event finishes."))
        return lines

    def verification(self) -> list[Flowable]:
        lines = self.deal_lines()
        if not lines:
            return []
        return [
            KeepTogether(
                [
                    Paragraph(escape(_("Deals")), self.styles["heading"]),
                    *(Paragraph(escape(line), self.styles["small"]) for line in lines),
                ]
            )
        ]

    def status_label(self, status: str) -> str:
        try:
            return str(Event.Status(status).label)
        except ValueError:
            return status

    def round_status(self, status: str) -> str:
        try:
            return str(Round.Status(status).label)
        except ValueError:
            return status
