"""Which renderer makes each kind of document, and what each kind needs (a round or not).

The web pages, the Celery job and the ``reports`` command all go through ``renderer_for``, so a
document looks the same however it was asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from documents import loaders
from documents.models import ReportFile
from documents.renderers.base import PAGE_SIZES, Progress, Renderer
from documents.renderers.cards import GuideCardRenderer, TableCardRenderer
from documents.renderers.hands import (
    DealFileRenderer,
    DealingMachineRenderer,
    DealingSlipRenderer,
    HandRecordRenderer,
)
from documents.renderers.pack import RoundPackRenderer
from documents.renderers.sheets import ScoreSheetRenderer
from documents.renderers.standings import ScoreCardRenderer, StandingsRenderer, SummaryRenderer
from tournaments.errors import UserError
from tournaments.models import Event

Kind = ReportFile.Kind

NEEDS_ROUND = frozenset({Kind.SCORE_SHEETS, Kind.ROUND_PACK})
"""Kinds made for one round only."""

MAY_TAKE_ROUND = frozenset(
    {Kind.HAND_RECORDS, Kind.DEALING_SLIPS, Kind.TABLE_CARDS, Kind.DEALING_MACHINE, Kind.PBN}
)
"""Kinds made for one round or, without a round, for the whole event."""

ROUND_DOCUMENTS = (Kind.SCORE_SHEETS, Kind.TABLE_CARDS, Kind.HAND_RECORDS, Kind.DEALING_SLIPS)
"""A round's printed documents, in the order of the round pack and of the ``reports`` command."""

LANGUAGES = ("nl", "fr", "en")

Loader = Callable[[Event, "int | None"], Any]

SOURCES: dict[str, tuple[Loader, type[Renderer]]] = {
    Kind.SCORE_SHEETS: (loaders.score_sheets, ScoreSheetRenderer),
    Kind.HAND_RECORDS: (loaders.hand_records, HandRecordRenderer),
    Kind.DEALING_SLIPS: (loaders.hand_records, DealingSlipRenderer),
    Kind.DEALING_MACHINE: (loaders.hand_records, DealingMachineRenderer),
    Kind.PBN: (loaders.hand_records, DealFileRenderer),
    Kind.GUIDE_CARDS: (lambda event, _round: loaders.seating_cards(event), GuideCardRenderer),
    Kind.TABLE_CARDS: (loaders.seating_cards, TableCardRenderer),
    Kind.STANDINGS: (lambda event, _round: loaders.standings_data(event), StandingsRenderer),
    Kind.SCORE_CARDS: (lambda event, _round: loaders.score_cards(event), ScoreCardRenderer),
    Kind.SUMMARY: (lambda event, _round: loaders.summary(event), SummaryRenderer),
}
"""For each kind but the round pack: what reads its data, and what draws it."""


def check(event: Event, kind: str, round_number: int | None, paper: str) -> int | None:
    """The round the document is for, after checking the request; ``UserError`` says what is wrong."""
    if kind not in Kind.values:
        raise UserError(
            _("Unknown document %(kind)s.") % {"kind": kind}, code="bad_kind", field="kind"
        )
    if paper not in PAGE_SIZES:
        raise UserError(_("Choose A4 or Letter paper."), code="bad_paper", field="page_size")
    if kind in NEEDS_ROUND or (kind in MAY_TAKE_ROUND and round_number is not None):
        loaders.check_round(event, round_number)
        return round_number
    return None


def renderer_for(
    event: Event,
    kind: str,
    *,
    round_number: int | None = None,
    paper: str = "A4",
    language: str | None = None,
    progress: Progress | None = None,
) -> Renderer:
    """The renderer for a document of the event, its data loaded and checked."""
    round_number = check(event, kind, round_number, paper)
    language = language or event.language
    if language not in LANGUAGES:
        raise UserError(
            _("Documents are printed in Dutch (nl), French (fr) or English (en)."),
            code="bad_language",
            field="language",
        )
    if kind == Kind.ROUND_PACK:
        assert round_number is not None
        loaded: dict[Loader, Any] = {}  # hand records and dealing slips share their data
        parts = []
        for part in ROUND_DOCUMENTS:
            loader, renderer = SOURCES[part]
            if loader not in loaded:
                loaded[loader] = loader(event, round_number)
            parts.append(_with_tables(renderer(loaded[loader], paper=paper, language=language)))
        return RoundPackRenderer(
            parts,
            round_number=round_number,
            slug=event.slug,
            paper=paper,
            language=language,
            progress=progress,
        )
    loader, renderer = SOURCES[kind]
    return _with_tables(
        renderer(loader(event, round_number), paper=paper, language=language, progress=progress)
    )


def _with_tables(renderer: Renderer) -> Renderer:
    """The hand records' double-dummy tables read now, with the rest of the document's data (in
    the caller's snapshot, which the file's audit mark is taken in), not when drawing."""
    if isinstance(renderer, HandRecordRenderer):
        renderer.double_dummy()
    return renderer
