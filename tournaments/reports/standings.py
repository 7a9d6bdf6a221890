"""Documents that flow over pages: the standings, personal score cards and the event summary.

These are laid out with ReportLab's platypus (tables that break over pages and repeat their
header), unlike the fixed-layout sheets and cards.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from tournaments.reports.base import (
    BOLD,
    GREY,
    LIGHT,
    REGULAR,
    RULE,
    RenderedFile,
    Renderer,
    register_fonts,
)
from tournaments.reports.data import (
    EventSummary,
    ScoreCard,
    ScoreCards,
    StandingRow,
    StandingsData,
    suit_runs,
)

ROUNDS_PER_BAND = 16
"""Round columns printed side by side; more rounds continue in a second table below."""


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
        "cell": ParagraphStyle("cell", fontName=REGULAR, fontSize=8.5, leading=10),
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
    ]


def coloured(text: str) -> str:
    """Paragraph markup with ♥ and ♦ in red."""
    out = []
    for suit, run in suit_runs(text):
        if suit is not None and suit.symbol in "♥♦":
            out.append(f'<font color="#c70d1a">{escape(run)}</font>')
        else:
            out.append(escape(run))
    return "".join(out)


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
    kind = "standings"
    data: StandingsData

    def __init__(self, data: StandingsData, **options: Any) -> None:
        super().__init__(data, **options)
        if len(data.rounds) > 8:  # many round columns: turn the paper
            self.page_size = landscape(self.page_size)

    def name(self) -> str:
        return f"{self.data.event.slug}-standings"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("standings")

    def story(self) -> list[Flowable]:
        rounds = self.data.rounds
        title = _("Standings after round %(n)s") % {"n": max(rounds)} if rounds else _("Standings")
        story = self.heading_block(title, method_label(self.data.method))
        if not self.data.rows:
            story.append(Paragraph(escape(_("No results yet.")), self.styles["body"]))
            return story
        bands = [
            rounds[i : i + ROUNDS_PER_BAND] for i in range(0, len(rounds), ROUNDS_PER_BAND)
        ] or [()]
        for index, band in enumerate(bands):
            if index:
                story.append(Spacer(1, 12))
            story.append(self.table(band, last=index == len(bands) - 1))
        story.append(Spacer(1, 6))
        story.append(
            Paragraph(
                escape(_("A place shared by players who are level is written as “3=”.")),
                self.styles["small"],
            )
        )
        return story

    def table(self, band: Sequence[int], last: bool) -> Table:
        header = [
            _("Place"),
            _("No."),
            _("Name"),
            _("Club"),
            *(_("R%(n)s") % {"n": r} for r in band),
        ]
        if last:
            header += [_("Total"), _("Boards")]
        rows: list[list[str]] = [header]
        for row in self.data.rows:
            name = row.name + (f" ({_('withdrawn')})" if row.withdrawn else "")
            cells = [
                row.place,
                str(row.entry),
                name,
                row.club,
                *(row.rounds.get(str(r), "") for r in band),
            ]
            if last:
                cells += [row.total, str(row.boards)]
            rows.append(cells)
        width = self.page_size[0] - self.margin_left - self.margin_right
        fixed = [34.0, 26.0]
        figures = [40.0] * len(band) + ([52.0, 46.0] if last else [])
        rest = max(120.0, width - sum(fixed) - sum(figures))
        widths = [*fixed, rest * 0.6, rest * 0.4, *figures]
        table = Table(rows, colWidths=widths, repeatRows=1)
        style = grid_style()
        style += [
            ("ALIGN", (0, 0), (1, -1), "RIGHT"),
            ("ALIGN", (4, 0), (-1, -1), "RIGHT"),
        ]
        if last:
            style.append(("FONT", (-2, 1), (-2, -1), BOLD, 8.5))
        for index, row in enumerate(self.data.rows, start=1):
            if row.withdrawn:
                style.append(("TEXTCOLOR", (0, index), (-1, index), GREY))
            elif index % 2 == 0:
                style.append(("BACKGROUND", (0, index), (-1, index), "#f6f6f6"))
        table.setStyle(TableStyle(style))
        return table


class ScoreCardRenderer(FlowRenderer):
    kind = "score_cards"
    data: ScoreCards

    def name(self) -> str:
        return f"{self.data.event.slug}-score-cards"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("personal score cards")

    def steps(self) -> int:
        return len(self.data.cards)

    def story(self) -> list[Flowable]:
        story: list[Flowable] = []
        for index, card in enumerate(self.data.cards):
            if index:
                story.append(PageBreak())
            story += self.card(card)
            self.report(index + 1)
        if not story:
            story = self.heading_block(_("Personal score cards"))
            story.append(Paragraph(escape(_("No results yet.")), self.styles["body"]))
        return story

    def card(self, card: ScoreCard) -> list[Flowable]:
        person = card.person
        subtitle = " · ".join(
            p for p in (_("Player %(n)s") % {"n": person.number}, person.club) if p
        )
        story = self.heading_block(
            _("Personal score card: %(name)s") % {"name": person.name}, subtitle
        )
        standing = _("Place %(place)s · total %(total)s") % {
            "place": card.place or "–",
            "total": card.total or "–",
        }
        story.append(Paragraph(escape(standing), self.styles["heading"]))
        header = [
            _("Round"),
            _("Table"),
            _("Seat"),
            _("Board"),
            _("Declarers"),
            _("Contract"),
            _("Tricks"),
            _("Score"),
            "%",
        ]
        rows: list[list[Any]] = [header]
        style = grid_style()
        style.append(("ALIGN", (0, 0), (3, -1), "RIGHT"))
        style.append(("ALIGN", (6, 0), (-1, -1), "RIGHT"))
        previous: int | None = None
        for line in [*card.lines, None]:
            if previous is not None and (line is None or line.round != previous):
                figure = card.rounds.get(str(previous), "")
                rows.append(
                    ["", "", "", "", "", _("Round %(n)s") % {"n": previous}, "", "", figure]
                )
                at = len(rows) - 1
                style += [
                    ("FONT", (0, at), (-1, at), BOLD, 8.5),
                    ("BACKGROUND", (0, at), (-1, at), "#f3f3f3"),
                ]
            if line is None:
                break
            rows.append(
                [
                    str(line.round),
                    str(line.table),
                    line.seat,
                    str(line.board),
                    line.declarers,
                    Paragraph(
                        coloured(_("artificial score") if line.artificial else line.contract),
                        self.styles["cell"],
                    ),
                    line.tricks,
                    line.score,
                    line.percentage,
                ]
            )
            previous = line.round
        table = Table(
            rows, colWidths=[38, 36, 32, 38, 56, 120, 44, 52, 56], repeatRows=1, hAlign="LEFT"
        )
        table.setStyle(TableStyle(style))
        story.append(table)
        if card.sat_out:
            story.append(Spacer(1, 6))
            story.append(
                Paragraph(
                    escape(
                        _("Sat out %(n)s boards; they count at the player's own average.")
                        % {"n": card.sat_out}
                    ),
                    self.styles["small"],
                )
            )
        if not card.lines:
            story.append(Paragraph(escape(_("No boards played yet.")), self.styles["body"]))
        return story


class SummaryRenderer(FlowRenderer):
    kind = "summary"
    data: EventSummary
    leaders = 10

    def name(self) -> str:
        return f"{self.data.event.slug}-summary"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("event summary")

    def story(self) -> list[Flowable]:
        data = self.data
        event = data.event
        story = self.heading_block(_("Event summary"), self.status_label(data.status))
        game = {
            "kleurenwiezen": _("Colour Whist (Kleurenwiezen)"),
            "wiezen": _("Wiezen"),
            "israeli": _("Israeli Whist"),
        }.get(event.game, event.game)
        played = sum(1 for r in data.round_facts if r.status != "planned")
        facts = [
            (_("Game"), game),
            (_("Ruleset"), event.ruleset_title),
            (_("Comparison"), method_label(event.comparison)),
            (
                _("Players"),
                str(data.players)
                + (" " + _("(%(n)s withdrawn)") % {"n": data.withdrawn} if data.withdrawn else ""),
            ),
            (
                _("Rounds"),
                _("%(played)s of %(total)s started") % {"played": played, "total": data.rounds},
            ),
            (_("Boards per round"), str(data.boards_per_round)),
            (_("Boards dealt"), str(data.boards)),
            (_("Results recorded"), str(data.results)),
        ]
        table = Table(
            [[label, value] for label, value in facts], colWidths=[130, 300], hAlign="LEFT"
        )
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (0, -1), BOLD, 9),
                    ("FONT", (1, 0), (1, -1), REGULAR, 9),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
                    ("TOPPADDING", (0, 0), (-1, -1), 3),
                ]
            )
        )
        story.append(table)
        story.append(Paragraph(escape(_("Rounds")), self.styles["heading"]))
        rows = [[_("Round"), _("Status"), _("Tables"), _("Byes"), _("Results")]]
        for facts_row in data.round_facts:
            rows.append(
                [
                    str(facts_row.round),
                    self.round_status(facts_row.status),
                    str(facts_row.tables),
                    str(facts_row.byes),
                    f"{facts_row.results} / {facts_row.expected}",
                ]
            )
        rounds_table = Table(rows, colWidths=[50, 110, 60, 60, 80], hAlign="LEFT", repeatRows=1)
        rounds_table.setStyle(TableStyle([*grid_style(), ("ALIGN", (2, 0), (-1, -1), "RIGHT")]))
        story.append(rounds_table)
        story += self.leading_players()
        story += self.verification()
        return story

    def leading_players(self) -> list[Flowable]:
        rows_data: Sequence[StandingRow] = self.data.standings.rows[: self.leaders]
        if not rows_data:
            return []
        rows = [[_("Place"), _("Name"), _("Club"), _("Total")]]
        rows += [[r.place, r.name, r.club, r.total] for r in rows_data]
        table = Table(rows, colWidths=[40, 170, 170, 60], hAlign="LEFT", repeatRows=1)
        table.setStyle(TableStyle([*grid_style(), ("ALIGN", (-1, 0), (-1, -1), "RIGHT")]))
        return [
            CondPageBreak(120),
            Paragraph(escape(_("Leading players")), self.styles["heading"]),
            table,
        ]

    def verification(self) -> list[Flowable]:
        data = self.data
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
        return [
            KeepTogether(
                [
                    Paragraph(escape(_("Deals")), self.styles["heading"]),
                    *(Paragraph(escape(line), self.styles["small"]) for line in lines),
                ]
            )
        ]

    def status_label(self, status: str) -> str:
        return {
            "draft": _("being prepared"),
            "running": _("in play"),
            "finished": _("finished"),
        }.get(status, status)

    def round_status(self, status: str) -> str:
        return {"planned": _("planned"), "open": _("in play"), "closed": _("closed")}.get(
            status, status
        )
