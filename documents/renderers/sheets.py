"""Score sheets: one page per table and round, with the ruleset's score table on the back.

The columns follow a result line (declarers, contract, tricks) and then the points of N, E, S, W,
which is the order of the entry page, so a TD keys a sheet from left to right. Once results are
recorded the same sheet prints them, with running totals and, where the ruleset balances, each
line's sum (always 0) as a check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from documents.data import ScoreSheets, SheetBoard, TableSheet, suit_runs
from documents.renderers.base import BLACK, GREY, LIGHT, RULE, Renderer, signed


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    weight: float
    x: float = 0.0
    width: float = 0.0

    @property
    def centre(self) -> float:
        return self.x + self.width / 2


class ScoreSheetRenderer(Renderer):
    kind = "score_sheets"
    data: ScoreSheets
    max_row_height = 26.0  # room to write by hand
    min_row_height = 10.5

    def name(self) -> str:
        return f"{self.data.event.slug}-round-{self.data.round}-score-sheets"

    def title(self) -> str:
        return f"{self.data.event.name} – " + _("score sheets, round %(n)s") % {
            "n": self.data.round
        }

    def steps(self) -> int:
        return len(self.data.tables)

    def draw(self, canvas: Canvas) -> None:
        for done, table in enumerate(self.data.tables, start=1):
            self.draw_front(canvas, table)
            self.show_page(canvas)
            self.draw_back(canvas)
            self.show_page(canvas)
            self.report(done)

    # --- front ---------------------------------------------------------------------------------

    def columns(self, table: TableSheet) -> list[Column]:
        five = "X" in table.seats
        columns = [
            Column("board", _("Board"), 0.95),
            Column("dealer", _("Dealer"), 1.05),
            Column("declarers", _("Declarers"), 1.35),
            Column("contract", _("Contract"), 1.8),
            Column("tricks", _("Tricks"), 1.05),
        ]
        columns += [Column(f"points:{seat}", seat, 1.1) for seat in "NESW"]
        if self.data.event.balancing:
            columns.append(Column("sum", "Σ = 0", 1.0))
        if five:
            columns.append(Column("out", _("Out"), 0.9))
        columns += [
            Column(
                f"total:{person.number}", seat if person.vacant else f"{seat} {person.number}", 1.1
            )
            for seat, person in table.players
        ]
        unit = self.usable_width / sum(c.weight for c in columns)
        placed = []
        x = self.left
        for column in columns:
            width = column.weight * unit
            placed.append(Column(column.key, column.label, column.weight, x, width))
            x += width
        return placed

    def draw_front(self, canvas: Canvas, table: TableSheet) -> None:
        event = self.data.event
        y = self.top
        canvas.setFont(self.bold_font, 12)
        canvas.drawString(
            self.left, y - 10, self.fit(event.name, 12, self.usable_width * 0.7, True)
        )
        canvas.setFont(self.font, 9)
        canvas.drawRightString(self.right, y - 10, date_format(event.date, "DATE_FORMAT"))
        y -= 34
        canvas.setFont(self.bold_font, 18)
        heading = _("Round %(round)s · Table %(table)s") % {
            "round": table.round,
            "table": table.table,
        }
        canvas.drawString(self.left, y, heading)
        canvas.setFont(self.font, 10)
        canvas.setFillColor(GREY)
        canvas.drawRightString(self.right, y, _("Score sheet"))
        y -= 13
        details = " · ".join(part for part in (event.venue, event.ruleset_title) if part)
        canvas.setFont(self.font, 8)
        canvas.drawString(self.left, y, details)
        canvas.setFillColor(BLACK)
        y = self.draw_players(canvas, table, y - 16)
        y = self.draw_grid(canvas, table, y - 6)
        self.draw_foot(canvas, table, y - 14)
        self.footer(
            canvas,
            f"{event.name} · "
            + _("round %(round)s, table %(table)s") % {"round": table.round, "table": table.table},
        )

    def draw_players(self, canvas: Canvas, table: TableSheet, y: float) -> float:
        players = table.players
        half = self.usable_width / 2
        rows = (len(players) + 1) // 2
        for index, (seat, person) in enumerate(players):
            column, row = divmod(index, rows)
            x = self.left + column * half
            line_y = y - row * 14
            canvas.setFont(self.bold_font, 11)
            canvas.drawString(x, line_y, seat)
            canvas.setFont(self.font, 10)
            if person.vacant:  # nobody is seated yet: room to write who sits there
                self.blank_line(canvas, x + 16, x + half - 24, line_y)
                continue
            # Room for the club after the name, when there is one.
            name = self.fit(self.seat_name(person), 10, half - 24 - (90 if person.club else 0))
            canvas.drawString(x + 16, line_y, name)
            if person.club:
                start = x + 16 + self.text_width(name, 10) + 6
                canvas.setFont(self.font, 7.5)
                canvas.setFillColor(GREY)
                canvas.drawString(start, line_y, self.fit(person.club, 7.5, x + half - start - 6))
                canvas.setFillColor(BLACK)
        y -= rows * 14
        if "X" in table.seats:
            canvas.setFont(self.font, 7.5)
            canvas.drawString(
                self.left,
                y,
                _(
                    "Table of five: on each board the player under “Out” sits out and X takes that seat."
                ),
            )
            y -= 11
        return y

    foot_height = 84.0  # the keying hint, the signatures and the page footer under the grid

    def row_height(self, table: TableSheet, top: float) -> float:
        """Rows as tall as the page allows (for handwriting), for the header, boards and totals."""
        available = top - self.bottom - self.foot_height
        rows = len(table.boards) + 3
        return max(self.min_row_height, min(self.max_row_height, available / rows))

    def draw_grid(self, canvas: Canvas, table: TableSheet, y: float) -> float:
        columns = self.columns(table)
        by_key = {c.key: c for c in columns}
        height = self.row_height(table, y)
        size = min(9.0, height * 0.6)
        header_size = min(7.5, size)
        top = y
        # Group headings over the points and the running totals.
        points = [c for c in columns if c.key.startswith("points:")]
        totals = [c for c in columns if c.key.startswith("total:")]
        canvas.setFillColor(LIGHT)
        canvas.rect(self.left, y - 2 * height, self.usable_width, 2 * height, stroke=0, fill=1)
        canvas.setFillColor(BLACK)
        for group, label in ((points, _("Points")), (totals, _("Running totals"))):
            start, end = group[0].x, group[-1].x + group[-1].width
            self.layer.draw(
                (start + end) / 2,
                y - height + (height - header_size) / 2 + 1,
                self.fit(label, header_size, end - start - 2, True),
                self.bold_font,
                header_size,
                "centre",
            )
        for column in columns:
            # Grouped columns have their seat under the group heading; the others span both rows.
            grouped = column.key.startswith(("points:", "total:"))
            size = self.fit_size(column.label, header_size, column.width - 3, bold=True)
            base = y - 2 * height + (height - size) / 2 + 1
            self.layer.draw(
                column.centre,
                base if grouped else base + height / 2,
                self.fit(column.label, size, column.width - 2, True),
                self.bold_font,
                size,
                "centre",
            )
        y -= 2 * height
        running: dict[int, int] = {person.number: 0 for _seat, person in table.players}
        for line in table.boards:
            self.draw_line(canvas, table, line, by_key, running, y, height, size)
            y -= height
        self.draw_totals(canvas, table, by_key, running, y, height, size)
        y -= height
        self.draw_rules(canvas, columns, top, y, height, len(table.boards))
        return y

    def draw_line(
        self,
        canvas: Canvas,
        table: TableSheet,
        line: SheetBoard,
        by_key: dict[str, Column],
        running: dict[int, int],
        y: float,
        height: float,
        size: float,
    ) -> None:
        base = y - height + (height - size) / 2 + 1
        write = self.layer.draw
        write(by_key["board"].centre, base, str(line.board), self.bold_font, size, "centre")
        write(by_key["dealer"].centre, base, line.dealer, self.font, size, "centre")
        if "out" in by_key and line.out is not None:
            write(by_key["out"].centre, base, str(line.out), self.font, size, "centre")
        played = line.played
        if played is None:
            if line.out is not None:
                self.shade(canvas, by_key.get(f"total:{line.out}"), y, height)
            return
        self.centred(canvas, by_key["declarers"], base, played.declarers, size)
        contract = by_key["contract"]
        text = _("artificial score") if played.artificial else played.contract
        runs = suit_runs(self.fit(text, size, contract.width - 4))
        width = sum(
            self.layer.width(run, self.font if suit is None else self.bold_font, size)
            for suit, run in runs
        )
        self.draw_suit_text(canvas, contract.centre - width / 2, base, runs, size)
        self.centred(canvas, by_key["tricks"], base, played.tricks, size)
        for seat, points in zip("NESW", played.scores, strict=True):
            write(by_key[f"points:{seat}"].centre, base, signed(points), self.font, size, "centre")
        if "sum" in by_key:
            total = signed(sum(played.scores))
            write(by_key["sum"].centre, base, total, self.font, size, "centre")
        for number, points in zip(line.holders, played.scores, strict=True):
            if number is not None:  # an empty seat's points are nobody's
                running[number] = running.get(number, 0) + points
        for _seat, person in table.players:
            column = by_key[f"total:{person.number}"]
            if person.number == line.out:
                self.shade(canvas, column, y, height)
                continue
            write(column.centre, base, signed(running[person.number]), self.font, size, "centre")

    def centred(self, canvas: Canvas, column: Column, y: float, text: str, size: float) -> None:
        """``text`` centred in ``column``, smaller if it would not fit (``13 dbl ap``)."""
        self.layer.draw(column.centre, y, text, self.font, size, "centre", room=column.width - 3)

    def shade(self, canvas: Canvas, column: Column | None, y: float, height: float) -> None:
        if column is None:
            return
        canvas.setFillColor(LIGHT)
        canvas.rect(column.x, y - height, column.width, height, stroke=0, fill=1)
        canvas.setFillColor(BLACK)

    def draw_totals(
        self,
        canvas: Canvas,
        table: TableSheet,
        by_key: dict[str, Column],
        running: dict[int, int],
        y: float,
        height: float,
        size: float,
    ) -> None:
        base = y - height + (height - size) / 2 + 1
        canvas.setFillColor(LIGHT)
        canvas.rect(self.left, y - height, self.usable_width, height, stroke=0, fill=1)
        canvas.setFillColor(BLACK)
        label = _("Total")
        room = by_key["board"].width - 4  # the board column: the rest of the line has figures
        write = self.layer.draw
        write(by_key["board"].x + 2, base, label, self.bold_font, size, room=room)
        if not any(line.played for line in table.boards):
            return
        seat_totals = [0, 0, 0, 0]
        for line in table.boards:
            if line.played is not None:
                seat_totals = [a + b for a, b in zip(seat_totals, line.played.scores, strict=True)]
        bold = self.bold_font
        for seat, total in zip("NESW", seat_totals, strict=True):
            write(by_key[f"points:{seat}"].centre, base, signed(total), bold, size, "centre")
        if "sum" in by_key:
            write(by_key["sum"].centre, base, signed(sum(seat_totals)), bold, size, "centre")
        for _seat, person in table.players:
            column = by_key[f"total:{person.number}"]
            write(column.centre, base, signed(running[person.number]), bold, size, "centre")

    def draw_rules(
        self,
        canvas: Canvas,
        columns: list[Column],
        top: float,
        bottom: float,
        height: float,
        lines: int,
    ) -> None:
        grouped = [c for c in columns if c.key.startswith(("points:", "total:"))]
        first_total = next(c.key for c in columns if c.key.startswith("total:"))
        strong = {"points:N", "sum", "out", first_total}
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        # Under the group headings (over the seat labels), under every line, and between the
        # columns: each weight of rule as one path.
        thin = [(c.x, top - height, c.x + c.width, top - height) for c in grouped]
        thin += [
            (self.left, top - (2 + index) * height, self.right, top - (2 + index) * height)
            for index in range(lines + 2)
        ]
        thick: list[tuple[float, float, float, float]] = []
        for column in columns[1:]:
            inside_group = column in grouped and column.key not in strong
            rule = (column.x, top - height if inside_group else top, column.x, bottom)
            (thick if column.key in strong else thin).append(rule)
        canvas.lines(thin)
        canvas.setLineWidth(1.1)
        canvas.lines(thick)
        canvas.setLineWidth(1.1)
        canvas.rect(self.left, bottom, self.usable_width, top - bottom, stroke=1, fill=0)
        canvas.setStrokeColor(BLACK)
        canvas.setLineWidth(1)

    @cached_property
    def hint_lines(self) -> list[str]:
        """The keying hint under every grid, wrapped once for the whole document."""
        hint = _(
            "Write each board as it is keyed: declarers, contract, tricks (NE 9♥ 10, W sol 6♠ 5, "
            "N,S mis 0,1, pass), then each player's points."
        )
        lines = self.wrap(hint, 7.5, self.usable_width)
        if self.data.event.balancing:
            lines += self.wrap(
                _("Every line adds up to zero: check Σ before signing."), 7.5, self.usable_width
            )
        return lines

    def draw_foot(self, canvas: Canvas, table: TableSheet, y: float) -> None:
        for line in self.hint_lines:
            self.draw_suit_text(canvas, self.left, y, suit_runs(line), 7.5)
            y -= 10
        y -= 16
        width = self.usable_width / 4
        canvas.setStrokeColor(RULE)
        for index, seat in enumerate("NESW"):
            x = self.left + index * width
            self.layer.draw(x, y, _("Signature %(seat)s") % {"seat": seat}, self.font, 8)
            canvas.line(x, y - 18, x + width - 12, y - 18)
        canvas.setStrokeColor(BLACK)

    # --- back: the score table -----------------------------------------------------------------

    def draw_back(self, canvas: Canvas) -> None:
        """The back of every sheet: the score table, printed duplex behind the front.

        It is the same on every sheet: its text is set once and repeated (``TextLayer.stamp``).
        """
        columns = self.score_table_columns
        line = self.score_table_line
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        for x, y, width, rows in columns:
            canvas.setFillColor(LIGHT)
            canvas.rect(x, y - line, width, line, stroke=0, fill=1)
            bottoms = [y - line * (index + 2) for index in range(len(rows))]
            canvas.lines([(x, bottom, x + width, bottom) for bottom in bottoms])
        canvas.setFillColor(BLACK)
        canvas.setStrokeColor(BLACK)
        canvas.setLineWidth(1)
        self.layer.stamp(0, 0, ("score table", id(self)), self.draw_back_text)
        self.footer(canvas, f"{self.data.event.name} · " + _("score table"))

    score_table_line = 13.0
    """The height of a line of the score table."""

    @cached_property
    def score_table_columns(self) -> list[tuple[float, float, float, list[Mapping[str, str]]]]:
        """The score table's columns (one, or two for a long table): x, top, width and rows."""
        y = self.top - 12 - 16 - 11 - (11 if self.data.event.balancing else 0) - 8
        rows = list(self.data.summary)
        line = self.score_table_line
        per_column = max(1, int((y - self.bottom - 20) // line) - 1)
        column_count = 1 if len(rows) <= per_column else 2
        width = min(self.usable_width / column_count, 300.0)
        columns = []
        for column in range(column_count):
            chunk = rows[column * per_column : (column + 1) * per_column]
            if chunk:
                columns.append((self.left + column * (width + 16), y, width, chunk))
        return columns

    def draw_back_text(self) -> None:
        event = self.data.event
        write = self.layer.draw
        y = self.top - 12
        write(self.left, y, _("Score table"), self.bold_font, 14)
        ruleset = self.fit(event.ruleset_title, 10, self.usable_width / 2)
        write(self.right, y, ruleset, self.font, 10, "right")
        y -= 16
        explanation = _(
            "Points for each declarer when the contract is made exactly and when it is one trick short."
        )
        write(self.left, y, explanation, self.font, 8, colour=GREY)
        if event.balancing:
            y -= 11
            balance = _("The opponents pay what the declarers win: every board sums to zero.")
            write(self.left, y, balance, self.font, 8, colour=GREY)
        line = self.score_table_line
        labels = (_("Contract"), _("Made"), _("One short"))
        for x, top, width, rows in self.score_table_columns:
            widths = (width * 0.5, width * 0.25, width * 0.25)
            y = top - line + 4
            cx = x
            for index, (label, w) in enumerate(zip(labels, widths, strict=True)):
                text = self.fit(label, 8, w - 8, True)
                if index == 0:
                    write(cx + 4, y, text, self.bold_font, 8)
                else:
                    write(cx + w - 8, y, text, self.bold_font, 8, "right")
                cx += w
            for row in rows:
                y -= line
                values = (row.get("contract", ""), row.get("made", ""), row.get("failed", ""))
                cx = x
                for index, (value, w) in enumerate(zip(values, widths, strict=True)):
                    if index == 0:
                        write(cx + 4, y, self.fit(str(value), 8.5, w - 6), self.font, 8.5)
                    else:
                        write(cx + w - 8, y, str(value), self.font, 8.5, "right")
                    cx += w
