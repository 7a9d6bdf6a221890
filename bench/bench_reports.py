"""PDF speed and memory: every printed document of a 1,000-player event, drawn from data in memory.

The renderers draw from plain data, so the events are built in memory, no database:

- a 400-player round (100 tables of four boards) of score sheets, and hand records for 32 boards;
- a 1,000-player event: 250 tables in each of 10 rounds of 8 boards (80 boards, 20,000 table
  results), every board scored by the engine: one round's score sheets, the personal score cards
  (1,000 players with 80 boards each), the dealing slips (80 boards, a copy for each of the 250
  tables that play a board at once: 20,000 slips), and then every document such an event prints
  (each round's score sheets, the guide cards and table cards, hand records, dealing slips, the
  dealing machine and PBN files, the standings, score cards and summary), one after the other.

Each figure is the median of several runs, with the peak resident memory of the process while
the document is drawn (sampled every 10 ms). Fonts are registered before timing (once per
process, as in a worker). Run: ``.venv/bin/python -m bench.bench_reports`` (``--runs 1`` for a
quick look).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import time
from collections.abc import Callable
from functools import cache

import django

from bench.common import PeakMemory, median_seconds, report
from documents.data import (
    CardLine,
    EventInfo,
    EventSummary,
    GuideCard,
    HandRecords,
    Person,
    Placement,
    PlayedLine,
    RoundFacts,
    ScoreCard,
    ScoreCards,
    ScoreSheets,
    SeatingCards,
    SheetBoard,
    StandingRow,
    StandingsData,
    TableCard,
    TableRound,
    TableSheet,
    played_line,
)
from documents.renderers.base import Renderer, register_fonts
from engine.cards import SEATS, SUITS
from engine.deals import deals_from_key
from engine.results import BoardResult, Contract
from engine.ruleset import Ruleset, load_builtin
from engine.scoring import score
from tournaments import rulesets

TABLES = 100
BOARDS_PER_ROUND = 4
HAND_RECORD_BOARDS = 32
SHEETS_TARGET_SECONDS = 5.0
HANDS_TARGET_SECONDS = 2.0

PLAYERS = 1000
ROUNDS = 10
EVENT_BOARDS_PER_ROUND = 8
EVENT_TABLES = PLAYERS // 4
EVENT_BOARDS = ROUNDS * EVENT_BOARDS_PER_ROUND
TARGETS = {"score_sheets": 2.0, "score_cards": 20.0, "documents": 60.0, "documents_mib": 1024.0}

FIRST = ("Zoë", "Agnès", "Émilie", "Geneviève", "Jan", "Luc", "Marie", "Benoît", "Céline", "Ivo")
LAST = ("Peeters", "Janssens", "Dubois", "Van den Broeck", "Lemaire", "De Smet", "Renard")
CLUBS = ("WC De Troef Gent", "Koninklijke Whistclub Ronse", "Wiezers Brugge", "", "WC Aalst")

EVENT = EventInfo(
    slug="bench",
    name="Provinciaal kampioenschap Kleurenwiezen",
    date=dt.date(2026, 3, 14),
    venue="Zaal De Kroon, Gent",
    ruleset_title="Whisthub",
    balancing=True,
)


def person(number: int) -> Person:
    rng = random.Random(number)
    return Person(number, f"{rng.choice(FIRST)} {rng.choice(LAST)}", CLUBS[number % len(CLUBS)])


def random_line(rng: random.Random) -> PlayedLine:
    """A proposal and acceptance, made or not, scored by the engine under Whisthub."""
    declarer = rng.choice(SEATS)
    result = BoardResult(
        Contract.ACCEPT, rng.choice((8, 9)), rng.choice(SUITS), (declarer, declarer.left),
        tricks=rng.randint(6, 11),
    )  # fmt: skip
    return played_line(result, score(_whisthub(), result))


@cache
def _whisthub() -> Ruleset:
    return load_builtin("whisthub")


def score_sheets(
    tables: int = TABLES, boards: int = BOARDS_PER_ROUND, round_number: int = 1
) -> ScoreSheets:
    """A round of ``tables`` tables of four, every board played and scored by the engine."""
    ruleset = load_builtin("whisthub")
    rng = random.Random(400 + round_number)
    sheets = []
    first_board = (round_number - 1) * boards
    for table in range(1, tables + 1):
        seats = {seat: person((table - 1) * 4 + index + 1) for index, seat in enumerate("NESW")}
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
                    board=first_board + position,
                    dealer=SEATS[(position - 1) % 4].name,
                    holders=holders,
                    played=played_line(result, score(ruleset, result)),
                )
            )
        sheets.append(TableSheet(round=round_number, table=table, seats=seats, boards=tuple(lines)))
    return ScoreSheets(
        event=EVENT,
        round=round_number,
        tables=tuple(sheets),
        summary=tuple(rulesets.summary(ruleset)),
    )


def hand_records(boards: int = HAND_RECORD_BOARDS, copies: int = 1) -> HandRecords:
    """``boards`` boards dealt from a key; each played at ``copies`` tables at once."""
    key = "bench-key-0123456789abcdef"
    return HandRecords(
        event=EVENT,
        boards=tuple(deals_from_key(key, range(1, boards + 1))),
        commitment="0" * 64,
        copies=dict.fromkeys(range(1, boards + 1), copies),
    )


def score_cards(players: int = PLAYERS) -> ScoreCards:
    """Each player's card: 80 boards over 10 rounds, with contract, score and percentage."""
    rng = random.Random(1000)
    cards = []
    for number in range(1, players + 1):
        lines = []
        rounds: dict[str, str] = {}
        for round_number in range(1, ROUNDS + 1):
            table = rng.randint(1, EVENT_TABLES)
            seat = rng.choice("NESW")
            for position in range(1, EVENT_BOARDS_PER_ROUND + 1):
                played = random_line(rng)
                lines.append(
                    CardLine(
                        round=round_number,
                        table=table,
                        seat=seat,
                        board=(round_number - 1) * EVENT_BOARDS_PER_ROUND + position,
                        declarers=played.declarers,
                        contract=played.contract,
                        tricks=played.tricks,
                        score=f"{played.scores[0]:+d}" if played.scores[0] else "0",
                        percentage=f"{rng.uniform(0, 100):.2f}",
                    )
                )
            rounds[str(round_number)] = f"{rng.uniform(30, 70):.2f}"
        cards.append(
            ScoreCard(
                person=person(number),
                place=str(number),
                total=f"{70 - number * 0.04:.2f}",
                rounds=rounds,
                lines=tuple(lines),
            )
        )
    return ScoreCards(EVENT, "matchpoints", tuple(cards))


def seating_cards(players: int = PLAYERS) -> SeatingCards:
    """Every player's ten rounds (guide cards) and every table's ten rounds (table cards)."""
    tables = players // 4
    rng = random.Random(7)
    placements: dict[int, list[Placement]] = {n: [] for n in range(1, players + 1)}
    plans: dict[int, list[TableRound]] = {t: [] for t in range(1, tables + 1)}
    for round_number in range(1, ROUNDS + 1):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        first = (round_number - 1) * EVENT_BOARDS_PER_ROUND + 1
        boards = tuple(range(first, first + EVENT_BOARDS_PER_ROUND))
        for table in range(1, tables + 1):
            seats = {}
            for index, seat in enumerate("NESW"):
                number = order[(table - 1) * 4 + index]
                seats[seat] = person(number)
                placements[number].append(Placement(round_number, table, seat, boards))
            plans[table].append(TableRound(round_number, seats, boards))
    return SeatingCards(
        EVENT,
        tuple(GuideCard(person(n), tuple(p)) for n, p in placements.items()),
        tuple(TableCard(t, tuple(p)) for t, p in plans.items()),
    )


def standings(players: int = PLAYERS) -> StandingsData:
    rng = random.Random(11)
    rows = tuple(
        StandingRow(
            place=str(n),
            entry=n,
            name=person(n).name,
            club=person(n).club,
            total=f"{70 - n * 0.04:.2f}",
            rounds={str(r): f"{rng.uniform(30, 70):.2f}" for r in range(1, ROUNDS + 1)},
            boards=EVENT_BOARDS,
        )
        for n in range(1, players + 1)
    )
    return StandingsData(EVENT, "matchpoints", tuple(range(1, ROUNDS + 1)), rows)


def summary(players: int = PLAYERS) -> EventSummary:
    tables = players // 4
    results = tables * EVENT_BOARDS_PER_ROUND
    facts = tuple(
        RoundFacts(r, "closed", tables, 0, results, results) for r in range(1, ROUNDS + 1)
    )
    return EventSummary(
        EVENT, "finished", players, 0, ROUNDS, EVENT_BOARDS_PER_ROUND, EVENT_BOARDS,
        ROUNDS * results, "ab" * 32, "bench-key-0123456789abcdef", facts, standings(players),
    )  # fmt: skip


def measure(
    name: str, work: Callable[[], object], target: float | None, runs: int
) -> tuple[float, float]:
    """Print the median time of ``work`` and the peak memory while it ran; return both.

    The processor time of a run is printed too: on a machine shared with other work the wall
    time is the processor time and the wait for a core.
    """
    warmup = 0 if runs == 1 else 1
    with PeakMemory() as memory:
        cpu = time.process_time()
        seconds = median_seconds(work, runs=runs, warmup=warmup)
        cpu = (time.process_time() - cpu) / (runs + warmup)
    report(f"{name}", seconds, "s", target, higher_is_better=False)
    print(
        f"    {cpu:,.2f} s of processor time a run; peak memory {memory.mib:,.0f} MiB "
        f"(+{memory.growth_mib:,.0f} MiB while drawing)"
    )
    return seconds, memory.mib


def drawn(
    name: str, renderer: type[Renderer], data: object, target: float | None, runs: int
) -> None:
    """Time ``renderer`` drawing ``data`` (which is let go afterwards)."""
    measure(name, lambda: renderer(data).render(), target, runs)


def event_documents() -> list[tuple[str, Callable[[], Renderer]]]:
    """What a 1,000-player event prints, as ``bench.bench_championship`` asks the site for it."""
    from documents.renderers.cards import GuideCardRenderer, TableCardRenderer
    from documents.renderers.hands import (
        DealFileRenderer,
        DealingMachineRenderer,
        DealingSlipRenderer,
        HandRecordRenderer,
    )
    from documents.renderers.sheets import ScoreSheetRenderer
    from documents.renderers.standings import (
        ScoreCardRenderer,
        StandingsRenderer,
        SummaryRenderer,
    )

    # Each document's data is built when it is drawn, as a loader would, so that no document
    # holds another's in memory.
    def sheets(number: int) -> Callable[[], Renderer]:
        return lambda: ScoreSheetRenderer(
            score_sheets(EVENT_TABLES, EVENT_BOARDS_PER_ROUND, number)
        )

    made = [(f"score sheets round {n}", sheets(n)) for n in range(1, ROUNDS + 1)]
    whole = hand_records(EVENT_BOARDS, EVENT_TABLES)
    made += [
        ("table cards", lambda: TableCardRenderer(seating_cards())),
        ("guide cards", lambda: GuideCardRenderer(seating_cards())),
        ("hand records", lambda: HandRecordRenderer(whole)),
        ("dealing slips", lambda: DealingSlipRenderer(whole)),
        ("dealing machine file", lambda: DealingMachineRenderer(whole)),
        ("PBN", lambda: DealFileRenderer(whole)),
        ("standings", lambda: StandingsRenderer(standings())),
        ("score cards", lambda: ScoreCardRenderer(score_cards())),
        ("summary", lambda: SummaryRenderer(summary())),
    ]
    return made


def all_documents(runs: int) -> None:
    """Every document of the event one after the other: each one's time, the total and the peak."""
    totals: list[float] = []
    cpu_totals: list[float] = []
    per_document: dict[str, list[tuple[float, float]]] = {}
    peak = 0.0
    for _run in range(runs):
        with PeakMemory() as memory:
            start, cpu = time.perf_counter(), time.process_time()
            for name, make in event_documents():
                begun, cpu_begun = time.perf_counter(), time.process_time()
                make().render()
                per_document.setdefault(name, []).append(
                    (time.perf_counter() - begun, time.process_time() - cpu_begun)
                )
            totals.append(time.perf_counter() - start)
            cpu_totals.append(time.process_time() - cpu)
        peak = max(peak, memory.mib)
    for name, times in per_document.items():
        wall, cpu = sorted(times)[len(times) // 2]
        print(f"    {name}: {wall:,.2f} s ({cpu:,.2f} s of processor time; with its data built)")
    print(f"    processor time of all: {sorted(cpu_totals)[len(cpu_totals) // 2]:,.1f} s")
    report(
        f"all documents of a {PLAYERS:,}-player event", sorted(totals)[len(totals) // 2], "s",
        TARGETS["documents"], higher_is_better=False,
    )  # fmt: skip
    report(
        "all documents, peak memory", peak, "MiB", TARGETS["documents_mib"],
        higher_is_better=False,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each figure (median)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()  # the documents' texts go through Django's translations
    from documents.renderers.hands import DealingSlipRenderer, HandRecordRenderer
    from documents.renderers.sheets import ScoreSheetRenderer
    from documents.renderers.standings import ScoreCardRenderer

    register_fonts()
    runs = args.runs
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
    print(f"A {PLAYERS:,}-player event: {EVENT_TABLES} tables, {ROUNDS} rounds of 8 boards")
    drawn(
        f"score sheets, {EVENT_TABLES} tables ({2 * EVENT_TABLES} pages)",
        ScoreSheetRenderer, score_sheets(EVENT_TABLES, EVENT_BOARDS_PER_ROUND),
        TARGETS["score_sheets"], max(runs, 3),
    )  # fmt: skip
    drawn(
        f"personal score cards, {PLAYERS:,} players x {EVENT_BOARDS} boards",
        ScoreCardRenderer, score_cards(), TARGETS["score_cards"], runs,
    )  # fmt: skip
    drawn(
        f"dealing slips, {EVENT_BOARDS} boards x {EVENT_TABLES} copies "
        f"({EVENT_BOARDS * EVENT_TABLES // 10:,} pages)",
        DealingSlipRenderer, hand_records(EVENT_BOARDS, EVENT_TABLES), None, runs,
    )  # fmt: skip
    all_documents(runs)


if __name__ == "__main__":
    main()
