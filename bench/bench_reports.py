"""PDF speed: score sheets for a 400-player round (100 tables) and hand records for 32 boards.

The renderers draw from plain data, so the event is built in memory: 400 players at 100 tables
of a Whisthub Colour Whist round of four boards, every board with a result scored by the engine,
and 32 boards dealt from a key. Fonts are registered before timing (once per process, as in a
worker). Run: ``.venv/bin/python -m bench.bench_reports``.
"""

from __future__ import annotations

import datetime as dt
import os
import random

import django

from bench.common import median_seconds, report
from engine.cards import SEATS, SUITS
from engine.deals import deals_from_key
from engine.results import BoardResult, Contract
from engine.ruleset import load_builtin
from engine.scoring import score
from tournaments import rulesets
from tournaments.reports.base import register_fonts
from tournaments.reports.data import (
    EventInfo,
    HandRecords,
    Person,
    ScoreSheets,
    SheetBoard,
    TableSheet,
    played_line,
)
from tournaments.reports.hands import HandRecordRenderer
from tournaments.reports.sheets import ScoreSheetRenderer

TABLES = 100
BOARDS_PER_ROUND = 4
HAND_RECORD_BOARDS = 32
SHEETS_TARGET_SECONDS = 5.0
HANDS_TARGET_SECONDS = 2.0
FIRST = ("Zoë", "Agnès", "Émilie", "Geneviève", "Jan", "Luc", "Marie", "Benoît", "Céline", "Ivo")
LAST = ("Peeters", "Janssens", "Dubois", "Van den Broeck", "Lemaire", "De Smet", "Renard")

EVENT = EventInfo(
    slug="bench",
    name="Provinciaal kampioenschap Kleurenwiezen",
    date=dt.date(2026, 3, 14),
    venue="Zaal De Kroon, Gent",
    ruleset_title="Whisthub",
    balancing=True,
)


def score_sheets(tables: int = TABLES, boards: int = BOARDS_PER_ROUND) -> ScoreSheets:
    """A round of ``tables`` tables of four, every board played and scored by the engine."""
    ruleset = load_builtin("whisthub")
    rng = random.Random(400)
    sheets = []
    for table in range(1, tables + 1):
        seats = {
            seat: Person(
                number=(table - 1) * 4 + index + 1,
                name=f"{rng.choice(FIRST)} {rng.choice(LAST)}",
                club="WC De Troef Gent",
            )
            for index, seat in enumerate("NESW")
        }
        holders = (seats["N"].number, seats["E"].number, seats["S"].number, seats["W"].number)
        lines = []
        for position in range(1, boards + 1):
            declarer = rng.choice(SEATS)
            result = BoardResult(
                Contract.ACCEPT, rng.choice((8, 9)), rng.choice(SUITS),
                (declarer, declarer.left), tricks=rng.randint(6, 11),
            )  # fmt: skip
            lines.append(
                SheetBoard(
                    position=position,
                    board=position,
                    dealer=SEATS[(position - 1) % 4].name,
                    holders=holders,
                    played=played_line(result, score(ruleset, result)),
                )
            )
        sheets.append(TableSheet(round=1, table=table, seats=seats, boards=tuple(lines)))
    return ScoreSheets(
        event=EVENT, round=1, tables=tuple(sheets), summary=tuple(rulesets.summary(ruleset))
    )


def hand_records(boards: int = HAND_RECORD_BOARDS) -> HandRecords:
    key = "bench-key-0123456789abcdef"
    return HandRecords(
        event=EVENT,
        boards=tuple(deals_from_key(key, range(1, boards + 1))),
        commitment="0" * 64,
    )


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()  # the documents' texts go through Django's translations
    register_fonts()
    sheets = score_sheets()
    seconds = median_seconds(lambda: ScoreSheetRenderer(sheets).render(), runs=5)
    report(
        f"score sheets, {TABLES} tables ({2 * TABLES} pages)", seconds * 1000, "ms",
        SHEETS_TARGET_SECONDS * 1000, higher_is_better=False,
    )  # fmt: skip
    records = hand_records()
    seconds = median_seconds(lambda: HandRecordRenderer(records).render(), runs=5)
    report(
        f"hand records, {HAND_RECORD_BOARDS} boards", seconds * 1000, "ms",
        HANDS_TARGET_SECONDS * 1000, higher_is_better=False,
    )  # fmt: skip


if __name__ == "__main__":
    main()
