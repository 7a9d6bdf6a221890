"""Hand records (deal diagrams), dealing slips for dealing by hand, and the deal files.

Hand records show each board's four hands around a compass, the dealer, Wiezen's turned-up card
and the deal number; the footer gives the deal commitment, and after the event the key with which
anyone can deal the boards again and compare (or, for deals loaded from a file, the file's name
and SHA-256: such deals have no key). Dealing slips are small cards, one per copy of a
board, that a club without a dealing machine sorts the cards by.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import DatabaseError
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from documents.data import HandRecords, suit_runs
from documents.game import (
    PAIRING_NAMES,
    STRAINS,
    SUITS,
    BoardDeal,
    BoardTable,
    DealFile,
    DlmFile,
    Hand,
    Rank,
    Seat,
    Suit,
    write_dlm,
    write_pbn,
)
from documents.renderers.base import (
    BLACK,
    GREY,
    LIGHT,
    RED,
    RULE,
    RenderedFile,
    Renderer,
    cut_marks,
)

SEATS_AROUND = (Seat.N, Seat.E, Seat.S, Seat.W)


def strain_text(strain: Suit | None) -> str:
    return _("NT") if strain is None else strain.symbol


def rank_text(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.letter


def suit_line(hand: Hand, suit: Suit, spaced: bool = True) -> str:
    ranks = [rank_text(card.rank) for card in hand.cards_of(suit)]
    if not ranks:
        return "—"
    return (" " if spaced else "").join(ranks)


class HandRecordsBase(Renderer):
    data: HandRecords

    def subtitle(self) -> str:
        if self.data.round is None:
            return ""
        return _("round %(n)s") % {"n": self.data.round}

    def scope(self) -> str:
        return f"round-{self.data.round}-" if self.data.round is not None else ""

    def steps(self) -> int:
        return len(self.data.boards)

    def draw_heading(self, canvas: Canvas, title: str) -> float:
        event = self.data.event
        canvas.setFont(self.bold_font, 12)
        canvas.drawString(
            self.left, self.top - 10, self.fit(event.name, 12, self.usable_width * 0.7, True)
        )
        canvas.setFont(self.font, 9)
        canvas.drawRightString(self.right, self.top - 10, date_format(event.date, "DATE_FORMAT"))
        canvas.setFont(self.bold_font, 10)
        subtitle = self.subtitle()
        canvas.drawString(self.left, self.top - 24, title + (f" · {subtitle}" if subtitle else ""))
        return self.top - 32

    def turned_card(self, board: BoardDeal) -> str:
        if board.trump_card is None:
            return ""
        card = board.trump_card
        return _("Turned-up card: %(card)s") % {"card": card.suit.symbol + rank_text(card.rank)}


class HandRecordRenderer(HandRecordsBase):
    kind = "hand_records"
    columns = 2
    rows = 3
    hand_size = 10.0
    line_height = 11.5
    square = 40.0

    table_lines = 6  # a caption, a heading, four rows
    table_size = 6.0
    tables: Mapping[int, BoardTable] | None = None
    """Each board's double-dummy table, by board number; read from the event when not given."""

    def name(self) -> str:
        return f"{self.data.event.slug}-{self.scope()}hand-records"

    def double_dummy(self) -> Mapping[int, BoardTable]:
        """The tables to print: those given, else those stored for the event's boards."""
        if self.tables is None:
            self.tables = {}
            # Only boards read from an event carry where their deals came from (a commitment,
            # a key or a deal file); boards built in memory have no analysis to look up.
            if self.data.commitment or self.data.key or self.data.deal_file:
                self.tables = self.stored_tables()
        return self.tables

    def stored_tables(self) -> dict[int, BoardTable]:
        from tournaments.models import Event
        from tournaments.services import analysis

        try:
            event = Event.objects.filter(slug=self.data.event.slug).first()
            if event is None:
                return {}
            return analysis.tables(event, [board.board for board in self.data.boards])
        except DatabaseError:
            # A benchmark's database without the tables: the records print without analysis.
            return {}

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("hand records")

    def draw(self, canvas: Canvas) -> None:
        per_page = self.columns * self.rows
        boards = self.data.boards
        pages = max(1, (len(boards) + per_page - 1) // per_page)
        self.double_dummy()
        for page in range(pages):
            top = self.draw_heading(canvas, _("Hand records"))
            cell_width = self.usable_width / self.columns
            cell_height = (top - self.bottom - 22) / self.rows
            for index, board in enumerate(boards[page * per_page : (page + 1) * per_page]):
                row, column = divmod(index, self.columns)
                x = self.left + column * cell_width
                y = top - row * cell_height
                self.draw_board(canvas, board, x + 3, y - 3, cell_width - 6, cell_height - 6)
                self.report(page * per_page + index + 1)
            self.draw_key(canvas)
            self.footer(canvas, f"{self.data.event.name} · " + _("hand records"), page + 1)
            self.show_page(canvas)

    def draw_key(self, canvas: Canvas) -> None:
        canvas.setFont(self.font, 7)
        y = self.bottom + 6
        if self.data.deal_file:
            text = _("Deals imported from %(file)s (SHA-256 %(sha)s), not dealt by Troef.") % {
                "file": self.data.deal_file,
                "sha": self.data.deal_file_sha256,
            }
        elif self.data.key:
            first = min((b.board for b in self.data.boards), default=1)
            last = max((b.board for b in self.data.boards), default=1)
            text = _(
                "Key: %(key)s · check the deals: python3 -m engine deal --key %(key)s --boards %(boards)s"
            ) % {
                "key": self.data.key,
                "boards": f"{first}-{last}",
            }
        elif self.data.commitment:
            text = _("Deal commitment (SHA-256 of the key, revealed after the event): %(c)s") % {
                "c": self.data.commitment
            }
        else:
            return
        size = min(7.0, 7.0 * self.usable_width / self.text_width(text, 7))
        canvas.setFont(self.font, size)
        canvas.drawString(self.left, y, text)

    def draw_board(
        self, canvas: Canvas, board: BoardDeal, x: float, y: float, w: float, h: float
    ) -> None:
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.6)
        canvas.roundRect(x, y - h, w, h, 4, stroke=1, fill=0)
        canvas.setStrokeColor(BLACK)
        canvas.setFont(self.bold_font, 13)
        canvas.drawString(x + 8, y - 17, _("Board %(n)s") % {"n": board.board})
        canvas.setFont(self.font, 8)
        canvas.drawString(x + 8, y - 29, _("Dealer: %(seat)s") % {"seat": board.dealer.name})
        turned = self.turned_card(board)
        if turned:
            self.draw_suit_text(canvas, x + 8, y - 40, suit_runs(turned), 8)
        canvas.setFont(self.font, 6.5)
        canvas.setFillColor(GREY)
        canvas.drawString(x + 8, y - h + 6, _("Deal number %(n)s") % {"n": board.index})
        canvas.setFillColor(BLACK)
        table = (self.tables or {}).get(board.board)
        if table is not None:
            # The table's lines go under the hands, above the deal number.
            below = self.table_lines * (self.table_size + 1) + 2
            self.draw_double_dummy(canvas, table, x + 8, y - h + 14 + below, w - 16)
            h -= below
        block = 4 * self.line_height
        centre_x = x + w / 2
        centre_y = y - 30 - (h - 42) / 2  # the middle of the space under the board's heading
        half = self.square / 2
        hands = board.deal.hands
        # North above the square, South below it, West and East beside it.
        self.draw_hand(
            canvas, hands[0], centre_x - half, centre_y + half + 4 + block, w / 2 + half - 8
        )
        self.draw_hand(canvas, hands[2], centre_x - half, centre_y - half - 4, w / 2 + half - 8)
        side = w / 2 - half - 14
        self.draw_hand(canvas, hands[3], x + 8, centre_y + block / 2, side)
        self.draw_hand(canvas, hands[1], centre_x + half + 8, centre_y + block / 2, side)
        self.draw_compass(canvas, centre_x, centre_y, board.dealer)

    def draw_double_dummy(
        self, canvas: Canvas, table: BoardTable, x: float, top: float, width: float
    ) -> None:
        """A caption, then two small grids side by side: the pairs' tricks per strain (and who
        can make misère and piccolo), and each seat's alone, the dealer's left leading."""
        size = self.table_size
        step = size + 1
        label = size * 4
        column = min(size * 2.2, (width - 2 * label - size * 2) / (2 * len(STRAINS)))
        grid = label + column * len(STRAINS)
        y = top - size
        caption = _("Double dummy, %(seat)s leading") % {"seat": table.first_leader.name}
        self.layer.draw(x, y, caption, self.bold_font, size)
        y -= step
        rows: list[list[tuple[str, tuple[int, ...]]]] = [
            list(zip(PAIRING_NAMES, table.pairs, strict=True)),
            [(seat.name, table.first_lead_left[seat.value]) for seat in SEATS_AROUND],
        ]
        for at, (heading, lines) in enumerate(zip((_("pairs"), _("alone")), rows, strict=True)):
            left = x + at * (grid + size * 2)
            self.layer.draw(left, y, self.fit(heading, size, label - 2), self.font, size)
            for index, strain in enumerate(STRAINS):
                right = left + label + column * (index + 1)
                text = strain_text(strain)
                parts = suit_runs(text)
                self.draw_suit_text(
                    canvas, right - self.text_width(text, size, True), y, parts, size
                )
            line_y = y - step
            for name, tricks in lines:
                self.layer.draw(left, line_y, name, self.bold_font, size)
                for index, count in enumerate(tricks):
                    right = left + label + column * (index + 1)
                    figure = str(count)
                    self.layer.draw(
                        right - self.text_width(figure, size), line_y, figure, self.font, size
                    )
                line_y -= step
        misere = "".join(seat.name for seat in SEATS_AROUND if table.misere(seat)) or "—"
        piccolo = "".join(seat.name for seat in SEATS_AROUND if table.piccolo(seat)) or "—"
        text = _("Misère: %(misere)s · piccolo: %(piccolo)s") % {
            "misere": misere,
            "piccolo": piccolo,
        }
        self.layer.draw(x, y - 4 * step, self.fit(text, size, grid), self.font, size)

    def draw_compass(self, canvas: Canvas, cx: float, cy: float, dealer: Seat) -> None:
        half = self.square / 2
        canvas.setFillColor(LIGHT)
        canvas.rect(cx - half, cy - half, self.square, self.square, stroke=0, fill=1)
        canvas.setFillColor(BLACK)
        places = {
            Seat.N: (cx, cy + half - 9),
            Seat.S: (cx, cy - half + 3),
            Seat.W: (cx - half + 6, cy - 3),
            Seat.E: (cx + half - 6, cy - 3),
        }
        for seat, (px, py) in places.items():
            bold = seat is dealer
            canvas.setFont(self.bold_font if bold else self.font, 8 if bold else 7)
            canvas.drawCentredString(px, py, seat.name)

    def draw_hand(self, canvas: Canvas, hand: Hand, x: float, top: float, width: float) -> None:
        """Four lines, one per suit, from the top line's top edge down."""
        size = self.hand_size
        lines = [suit_line(hand, suit) for suit in SUITS]
        symbol_width = self.text_width("♠ ", size, bold=True)
        widest = max(self.text_width(line, size) for line in lines) + symbol_width
        if widest > width:
            lines = [suit_line(hand, suit, spaced=False) for suit in SUITS]
            widest = max(self.text_width(line, size) for line in lines) + symbol_width
            if widest > width:
                size = size * width / widest
        y = top - size
        for suit, line in zip(SUITS, lines, strict=True):
            self.draw_suit_text(canvas, x, y, [(suit, suit.symbol + " "), (None, line)], size)
            y -= self.line_height


class DealingSlipRenderer(HandRecordsBase):
    """One slip per copy of each board: the four hands, to sort a deck by when dealing by hand."""

    kind = "dealing_slips"
    columns = 2
    rows = 5

    def name(self) -> str:
        return f"{self.data.event.slug}-{self.scope()}dealing-slips"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("dealing slips")

    def slips(self) -> list[tuple[BoardDeal, int, int]]:
        out = []
        for board in self.data.boards:
            copies = self.data.copies_of(board.board)
            out += [(board, copy, copies) for copy in range(1, copies + 1)]
        return out

    def draw(self, canvas: Canvas) -> None:
        self.last: tuple[tuple[int, float], Slip] | None = None
        self.copy_text = _("copy %(copy)s of %(copies)s")
        slips = self.slips()
        per_page = self.columns * self.rows
        pages = max(1, (len(slips) + per_page - 1) // per_page)
        done_boards: set[int] = set()
        for page in range(pages):
            top = self.draw_heading(canvas, _("Dealing slips"))
            cell_width = self.usable_width / self.columns
            cell_height = (top - self.bottom - 8) / self.rows
            for row in range(1, self.rows):
                cut_marks(
                    canvas, self.left, top - row * cell_height, self.right, top - row * cell_height
                )
            cut_marks(
                canvas,
                self.left + cell_width,
                top,
                self.left + cell_width,
                top - self.rows * cell_height,
            )
            for index, (board, copy, copies) in enumerate(
                slips[page * per_page : (page + 1) * per_page]
            ):
                row, column = divmod(index, self.columns)
                x = self.left + column * cell_width + 10
                y = top - row * cell_height - 8
                self.draw_slip(canvas, board, copy, copies, x, y, cell_width - 20)
                done_boards.add(board.board)
            self.report(len(done_boards))
            self.footer(canvas, f"{self.data.event.name} · " + _("dealing slips"), page + 1)
            self.show_page(canvas)

    def draw_slip(
        self,
        canvas: Canvas,
        board: BoardDeal,
        copy: int,
        copies: int,
        x: float,
        y: float,
        width: float,
    ) -> None:
        slip = self.slip(board, width)
        self.layer.stamp(x, y, ("slip", board.board, width), lambda: self.draw_hands(canvas, slip))
        copy_text = self.copy_text % {"copy": copy, "copies": copies}
        at = x + slip.title_width + 8
        self.layer.draw(at, y - 12, f"{copy_text} · {slip.dealer}", self.font, 8)

    def draw_hands(self, canvas: Canvas, slip: Slip) -> None:
        """What every copy of a board's slip prints, from its top left corner at (0, 0)."""
        write = self.layer.draw
        write(0, -12, slip.title, self.bold_font, 12)
        line_y = -34.0
        size = slip.size
        for seat, runs in slip.lines:
            write(0, line_y, seat, self.bold_font, 12)
            for start, symbol, colour, gap, holding in runs:
                write(start, line_y, symbol, self.bold_font, size, colour=colour)
                write(start + gap, line_y, holding, self.font, size)
            line_y -= 18
        if slip.turned:
            self.draw_suit_text(canvas, 0, line_y - 2, slip.turned, 8)

    def slip(self, board: BoardDeal, width: float) -> Slip:
        """A board's slip as laid out, worked out once for all its copies."""
        if self.last is not None and self.last[0] == (board.board, width):
            return self.last[1]
        # Each suit in its own column, so that the cards of one suit line up down the slip; a
        # column is as wide as its longest holding, and one size serves the whole slip.
        cells = {
            (seat, suit): suit_line(board.deal.hand(seat), suit, spaced=False)
            for seat in SEATS_AROUND
            for suit in SUITS
        }
        size = 11.0
        widths = [
            max(
                self.text_width(suit.symbol + cells[seat, suit], size, bold=True)
                for seat in SEATS_AROUND
            )
            + 7
            for suit in SUITS
        ]
        scale = min(1.0, (width - 20) / sum(widths))
        size *= scale
        starts = [20 + sum(widths[:index]) * scale for index in range(len(SUITS))]
        title = _("Board %(n)s") % {"n": board.board}
        slip = Slip(
            title=title,
            title_width=self.text_width(title, 12, bold=True),
            dealer=_("dealer %(seat)s") % {"seat": board.dealer.name},
            size=size,
            lines=tuple(
                (
                    seat.name,
                    tuple(
                        (
                            start,
                            suit.symbol,
                            RED if suit in (Suit.H, Suit.D) else BLACK,
                            self.text_width(suit.symbol, size, bold=True),
                            cells[seat, suit],
                        )
                        for start, suit in zip(starts, SUITS, strict=True)
                    ),
                )
                for seat in SEATS_AROUND
            ),
            turned=tuple(suit_runs(self.turned_card(board))),
        )
        self.last = ((board.board, width), slip)  # the copies of a board follow each other
        return slip


@dataclass(frozen=True)
class Slip:
    """What every copy of a board's slip prints, laid out: the heading, and each seat's suits
    as (where the suit starts, its symbol, its colour, the symbol's width, the cards)."""

    title: str
    title_width: float
    dealer: str
    size: float
    lines: tuple[tuple[str, tuple[tuple[float, str, Color, float, str], ...]], ...]
    turned: tuple[tuple[Suit | None, str], ...]


class DealFileRenderer(Renderer):
    """The boards as a text file for other programs: PBN, or ``.dlm`` for a Duplimate machine."""

    kind = "pbn"
    content_type = "text/plain; charset=utf-8"
    extension = "pbn"
    data: HandRecords

    def name(self) -> str:
        scope = f"round-{self.data.round}-" if self.data.round is not None else ""
        return f"{self.data.event.slug}-{scope}boards"

    def filename(self) -> str:
        return f"{self.name()}.{self.extension}"

    def text(self) -> str:
        event = self.data.event
        return write_pbn(
            DealFile(self.data.boards, event.name, event.venue, event.date.strftime("%Y.%m.%d"))
        )

    def render(self) -> RenderedFile:
        content = self.text().encode("utf-8")
        self.report(self.steps(), self.steps())
        return RenderedFile(self.filename(), self.content_type, content)


class DealingMachineRenderer(DealFileRenderer):
    kind = "dlm"
    extension = "dlm"

    def text(self) -> str:
        # The format says nothing of an encoding: the headline is written in plain ASCII, which
        # every machine's software reads ("Zoë's cup" becomes "Zoe's cup").
        headline = unicodedata.normalize("NFKD", self.data.event.name)
        headline = "".join(c for c in headline if not unicodedata.combining(c))
        headline = headline.encode("ascii", errors="replace").decode("ascii")
        return write_dlm(DlmFile(self.data.boards, headline=headline))
