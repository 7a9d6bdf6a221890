"""Guide cards (each player's round → table and seat) and table cards (who sits where, which boards).

Guide cards are printed several to a page with cut lines; a table card is a page per table, for
one round in large print or for every round as a grid. A card of one round in play carries the
table device's link as a QR code, and its PIN: a table's link is the round's, so the grid of every
round has none.
"""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.pdfgen.canvas import Canvas

from documents.data import (
    ABSENT,
    SEAT_ORDER,
    GuideCard,
    Placement,
    SeatingCards,
    TableRound,
)
from documents.renderers.base import BLACK, GREY, LIGHT, RULE, Renderer, board_ranges, cut_marks


class SeatingRenderer(Renderer):
    data: SeatingCards

    def heading(self, canvas: Canvas, x: float, y: float, width: float) -> None:
        event = self.data.event
        text = f"{event.name} · {date_format(event.date, 'DATE_FORMAT')}"
        self.layer.draw(x, y, self.fit(text, 7.5, width), self.font, 7.5, colour=GREY)


class GuideCardRenderer(SeatingRenderer):
    kind = "guide_cards"
    row_height = 15.0
    heading_height = 86.0

    def name(self) -> str:
        return f"{self.data.event.slug}-guide-cards"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("guide cards")

    def steps(self) -> int:
        return len(self.data.guide_cards)

    def rounds_on_card(self) -> int:
        return max((len(card.placements) for card in self.data.guide_cards), default=1)

    def layout(self) -> tuple[int, int, float]:
        """Columns and rows of cards per page, and the row height: as many cards as fit."""
        usable = self.top - self.bottom
        lines = self.rounds_on_card() + 1
        rows = int(usable // (self.heading_height + lines * self.row_height + 28))
        if rows >= 1:
            return 2, min(rows, 4), self.row_height
        return 2, 1, (usable - 28 - self.heading_height) / lines  # very many rounds: one row

    def draw(self, canvas: Canvas) -> None:
        columns, rows, self.line = self.layout()
        per_page = columns * rows
        cards = self.data.guide_cards
        width = self.usable_width / columns
        height = (self.top - self.bottom) / rows
        for start in range(0, max(1, len(cards)), per_page):
            for row in range(1, rows):
                cut_marks(
                    canvas, self.left, self.top - row * height, self.right, self.top - row * height
                )
            for column in range(1, columns):
                x = self.left + column * width
                cut_marks(canvas, x, self.top, x, self.bottom)
            for index, card in enumerate(cards[start : start + per_page]):
                row, column = divmod(index, columns)
                x = self.left + column * width + 12
                y = self.top - row * height - 14
                self.draw_card(canvas, card, x, y, width - 24, height - 28)
                self.report(start + index + 1)
            self.show_page(canvas)

    def draw_card(
        self, canvas: Canvas, card: GuideCard, x: float, y: float, width: float, height: float
    ) -> None:
        self.heading(canvas, x, y - 8, width)
        write = self.layer.draw
        write(x, y - 24, _("Guide card").upper(), self.bold_font, 9)
        person = card.person
        write(x, y - 44, self.fit(person.name, 15, width, True), self.bold_font, 15)
        number = _("Player %(n)s") % {"n": person.number}
        role = _("substitute") if person.substitute else ""
        about = " · ".join(p for p in (number, role, person.club) if p)
        write(x, y - 58, self.fit(about, 9, width), self.font, 9)
        widths = (0.2, 0.2, 0.22, 0.38)
        labels = (_("Round"), _("Table"), _("Seat"), _("Boards"))
        top = y - 72
        h = self.line
        canvas.setFillColor(LIGHT)
        canvas.rect(x, top - h, width, h, stroke=0, fill=1)
        canvas.setFillColor(BLACK)
        label_size = min(8.5, h * 0.6)
        cx = x
        for label, share in zip(labels, widths, strict=True):
            text = self.fit(label, label_size, share * width - 6, True)
            write(cx + 4, top - h + (h - label_size) / 2 + 1, text, self.bold_font, label_size)
            cx += share * width
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        row_y = top - h
        rules = []
        for placement in card.placements:
            values = self.placement_values(placement)
            cx = x
            for index, (value, share) in enumerate(zip(values, widths, strict=True)):
                bold = index < 3  # round, table and seat are what a player looks for
                size = min(10.0 if bold else 9.0, h * 0.66)
                text = self.fit(value, size, share * width - 6, bold)
                font = self.bold_font if bold else self.font
                write(cx + 4, row_y - h + (h - size) / 2 + 1, text, font, size)
                cx += share * width
            row_y -= h
            rules.append((x, row_y, x + width, row_y))
        canvas.lines(rules)
        canvas.rect(x, row_y, width, top - row_y, stroke=1, fill=0)
        canvas.setStrokeColor(BLACK)
        canvas.setLineWidth(1)
        if any(p.seat == "X" for p in card.placements):
            note = _("X: fifth player at a table of five; sits in for each player in turn.")
            for line in self.wrap(note, 7, width):
                row_y -= 9
                write(x, row_y, line, self.font, 7)

    def placement_values(self, placement: Placement) -> tuple[str, str, str, str]:
        if placement.seat == ABSENT:
            # In the boards column, the widest: the seat's column is too narrow for the words.
            return (str(placement.round), "—", "—", _("not playing"))
        if placement.seat == "BYE" or placement.table is None:
            return (str(placement.round), "—", _("bye"), "")
        return (
            str(placement.round),
            str(placement.table),
            placement.seat,
            board_ranges(placement.boards),
        )


class TableCardRenderer(SeatingRenderer):
    """A page per table: one round in large print, or every round as a grid."""

    kind = "table_cards"

    def name(self) -> str:
        scope = f"round-{self.data.round}-" if self.data.round is not None else ""
        return f"{self.data.event.slug}-{scope}table-cards"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("table cards")

    def steps(self) -> int:
        return len(self.data.table_cards)

    def draw(self, canvas: Canvas) -> None:
        for done, card in enumerate(self.data.table_cards, start=1):
            self.heading(canvas, self.left, self.top - 8, self.usable_width)
            canvas.setFont(self.bold_font, 48)
            canvas.drawCentredString(
                self.width / 2, self.top - 70, _("Table %(n)s") % {"n": card.table}
            )
            if self.data.round is not None and len(card.rounds) == 1:
                self.draw_one_round(canvas, card.rounds[0], self.top - 120)
            else:
                self.draw_grid(canvas, card.rounds, self.top - 100)
            self.show_page(canvas)
            self.report(done)

    def draw_one_round(self, canvas: Canvas, plan: TableRound, y: float) -> None:
        canvas.setFont(self.bold_font, 22)
        canvas.drawCentredString(self.width / 2, y, _("Round %(n)s") % {"n": plan.round})
        y -= 56
        for seat in SEAT_ORDER:
            person = plan.seats.get(seat)
            if person is None:
                continue
            canvas.setFont(self.bold_font, 26)
            canvas.drawString(self.left + 20, y, seat)
            canvas.setFont(self.font, 22)
            if person.vacant:  # nobody is seated yet: room to write who sits there
                self.blank_line(canvas, self.left + 70, self.right - 20, y)
                y -= 58
                continue
            name = self.seat_name(person)
            canvas.drawString(self.left + 70, y, self.fit(name, 22, self.usable_width - 90))
            if person.club:
                canvas.setFont(self.font, 11)
                canvas.setFillColor(GREY)
                canvas.drawString(
                    self.left + 70, y - 16, self.fit(person.club, 11, self.usable_width - 90)
                )
                canvas.setFillColor(BLACK)
            y -= 58
        if "X" in plan.seats:
            canvas.setFont(self.font, 10)
            canvas.drawString(
                self.left + 20,
                y + 20,
                _("Table of five: X sits in for N, E, S and W in turn, one board each."),
            )
            y -= 10
        canvas.setFont(self.bold_font, 22)
        boards = board_ranges(plan.boards)
        canvas.drawString(self.left + 20, y - 10, _("Boards: %(boards)s") % {"boards": boards})
        if plan.device_url:
            self.draw_device(canvas, plan, self.bottom + 10)

    # The QR code's side: large enough for a phone's camera from across the table.
    qr_size = 150.0

    def draw_device(self, canvas: Canvas, plan: TableRound, y: float) -> None:
        """The table device's link as a QR code, with the link and the PIN beside it."""
        size = self.qr_size
        widget = QrCodeWidget(plan.device_url, barLevel="M")
        x1, y1, x2, y2 = widget.getBounds()
        drawing = Drawing(size, size, transform=[size / (x2 - x1), 0, 0, size / (y2 - y1), 0, 0])
        drawing.add(widget)
        renderPDF.draw(drawing, canvas, self.left + 10, y)
        x = self.left + size + 30
        width = self.right - x
        canvas.setFont(self.bold_font, 14)
        top = y + size - 20
        for line in self.wrap(_("Key the results on a phone: scan the code."), 14, width):
            canvas.drawString(x, top, line)
            top -= 18
        canvas.setFont(self.font, 9)
        canvas.setFillColor(GREY)
        canvas.drawString(x, top - 2, self.fit(plan.device_url, 9, width))
        canvas.setFillColor(BLACK)
        canvas.setFont(self.bold_font, 14)
        canvas.drawString(x, top - 36, _("PIN"))
        canvas.setFont(self.bold_font, 30)
        canvas.drawString(x + 48, top - 40, plan.device_pin)
        canvas.setFont(self.font, 8.5)
        canvas.drawString(
            x,
            top - 62,
            self.fit(_("Only for this table, in this round, while it is in play."), 8.5, width),
        )

    def draw_grid(self, canvas: Canvas, plans: tuple[TableRound, ...], y: float) -> None:
        five = any("X" in plan.seats for plan in plans)
        seats = [s for s in SEAT_ORDER if s != "X" or five]
        widths = [0.09] + [0.75 / len(seats)] * len(seats) + [0.16]
        labels = [_("Round"), *seats, _("Boards")]
        h = min(34.0, (y - self.bottom - 10) / (len(plans) + 1))
        size = min(9.0, h / 2.6)
        canvas.setFillColor(LIGHT)
        canvas.rect(self.left, y - h, self.usable_width, h, stroke=0, fill=1)
        canvas.setFillColor(BLACK)
        write = self.layer.draw
        x = self.left
        for label, share in zip(labels, widths, strict=True):
            text = self.fit(label, size + 1, share * self.usable_width - 6, True)
            write(x + 4, y - h / 2 - 3, text, self.bold_font, size + 1)
            x += share * self.usable_width
        top = y
        y -= h
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        for plan in plans:
            x = self.left
            write(x + 4, y - h / 2 - 3, str(plan.round), self.bold_font, size + 2)
            x += widths[0] * self.usable_width
            for seat, share in zip(seats, widths[1:-1], strict=True):
                cell = share * self.usable_width - 6
                person = plan.seats.get(seat)
                if person is not None and person.vacant:
                    self.blank_line(canvas, x + 4, x + cell, y - h / 2 - size)
                elif person is not None:
                    name = person.name
                    if person.substitute:
                        name = _("%(player)s (substitute)") % {"player": person.name}
                    write(x + 4, y - h / 2 + 1, str(person.number), self.bold_font, size)
                    small = self.fit_size(name, size - 1, cell)  # "(substitute)" takes room
                    write(x + 4, y - h / 2 - size, self.fit(name, small, cell), self.font, small)
                x += share * self.usable_width
            boards = self.fit(board_ranges(plan.boards), size, widths[-1] * self.usable_width - 6)
            write(x + 4, y - h / 2 - 3, boards, self.font, size)
            y -= h
            canvas.line(self.left, y, self.right, y)
        canvas.rect(self.left, y, self.usable_width, top - y, stroke=1, fill=0)
        canvas.setStrokeColor(BLACK)
        canvas.setLineWidth(1)
