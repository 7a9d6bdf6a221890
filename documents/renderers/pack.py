"""A round's documents as one PDF: score sheets, table cards, hand records and dealing slips.

The parts draw on one canvas, one after the other, so the TD prints a round with one click.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from documents.renderers.base import Progress, Renderer


class RoundPackRenderer(Renderer):
    """``data`` is the list of renderers of the parts, all on the same paper and in one language."""

    kind = "round_pack"
    data: list[Renderer]

    def __init__(
        self,
        data: list[Renderer],
        *,
        round_number: int,
        slug: str,
        paper: str = "A4",
        language: str = "nl",
        progress: Progress | None = None,
    ) -> None:
        super().__init__(data, paper=paper, language=language, progress=progress)
        self.round_number = round_number
        self.slug = slug

    def name(self) -> str:
        return f"{self.slug}-round-{self.round_number}"

    def title(self) -> str:
        return _("Round %(n)s: all documents") % {"n": self.round_number}

    def steps(self) -> int:
        return sum(part.steps() for part in self.data)

    def draw(self, canvas: Canvas) -> None:
        done = 0
        total = self.steps()
        for part in self.data:
            part.page_size = self.page_size
            part.layer = self.layer  # one text layer per canvas
            offset = done
            part.progress = lambda step, _total, offset=offset: self.report(offset + step, total)
            part.draw(canvas)
            done += part.steps()
