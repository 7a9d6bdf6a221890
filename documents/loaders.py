"""Reading an event into the plain data the renderers draw: a few queries per document.

Each loader raises ``UserError`` when the event is not ready for the document (no seating yet, no
deals yet, a round that does not exist), so the TD is told what to do first.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from documents.data import (
    ABSENT,
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
from documents.game import (
    BoardDeal,
    Card,
    Deal,
    EngineError,
    Seat,
    comparison,
    parse_result_line,
    result_from_json,
)
from documents.renderers.base import signed
from tournaments import rulesets
from tournaments.errors import UserError
from tournaments.models import Entry, Event, Result, Round, Seating, Standings, TableBoard
from tournaments.services import devices
from tournaments.services import events as event_service
from tournaments.services import seating as seating_service
from tournaments.services import standings as standings_service


def imported(event: Event) -> bool:
    """Whether the event's deals came from a file rather than from Troef's dealing key."""
    return event.deal_source == Event.DealSource.IMPORTED


def event_info(event: Event) -> EventInfo:
    ruleset = event_service.ruleset_of(event)
    return EventInfo(
        slug=event.slug,
        name=event.name,
        date=event.date,
        venue=event.venue,
        game=event.game,
        ruleset_title=ruleset.title,
        balancing=ruleset.balancing,
        comparison=event.comparison,
    )


def person(entry: Entry) -> Person:
    club = entry.player.club
    return Person(
        entry.number,
        entry.player.full_name,
        club.name if club else "",
        substitute=entry.role == Entry.Role.SUBSTITUTE,
    )


def seated(seating: Seating) -> Person:
    """Who sits in a seat: the player, a substitute, or nobody (a vacant seat, printed empty)."""
    if seating.entry is None:
        return Person(seating.planned.number, "", vacant=True)
    return person(seating.entry)


def check_round(event: Event, number: int | None) -> Round:
    if number is None or not 1 <= number <= event.rounds:
        raise UserError(
            _("Choose a round from 1 to %(rounds)s.") % {"rounds": event.rounds},
            code="bad_round",
            field="round_number",
        )
    return event.round_set.get(number=number)


def recorded(result: Result) -> PlayedLine:
    scores = result.scores
    if result.kind == Result.Kind.ARTIFICIAL:
        return PlayedLine("", "", "", scores, artificial=True)
    try:
        return played_line(result_from_json(result.data), scores)
    except (EngineError, ValueError):  # a result stored in an older form: print its line as it is
        return PlayedLine("", result.notation, "", scores)


# --- score sheets ---------------------------------------------------------------------------


def score_sheets(event: Event, round_number: int | None) -> ScoreSheets:
    round_ = check_round(event, round_number)
    tables = list(round_.tables.order_by("number"))
    if not tables:
        raise UserError(
            _("Round %(n)s has no seating yet: generate the movement first.")
            % {"n": round_.number},
            code="not_ready",
        )
    seats: dict[int, dict[str, Person]] = defaultdict(dict)
    for seat in Seating.objects.filter(round=round_, table__isnull=False).select_related(
        "entry__player__club", "replaces"
    ):
        assert seat.table_id is not None
        seats[seat.table_id][seat.seat] = seated(seat)
    links: dict[int, list[TableBoard]] = defaultdict(list)
    for link in (
        TableBoard.objects.filter(table__round=round_).select_related("board").order_by("position")
    ):
        links[link.table_id].append(link)
    results = {
        (r.table_id, r.board_id): r
        for r in Result.objects.filter(table__round=round_, is_current=True)
    }
    sheets = []
    for table in tables:
        numbers = {seat: p.number for seat, p in seats[table.pk].items()}
        lines = []
        for link in links[table.pk]:
            at_table = seating_service.holders(numbers, link.position, round_.number)
            result = results.get((table.pk, link.board_id))
            lines.append(
                SheetBoard(
                    position=link.position,
                    board=link.board.number,
                    dealer=link.board.dealer,
                    holders=(at_table["N"], at_table["E"], at_table["S"], at_table["W"]),
                    out=seating_service.sitting_out(numbers, link.position, round_.number),
                    played=recorded(result) if result is not None else None,
                )
            )
        sheets.append(TableSheet(round_.number, table.number, seats[table.pk], tuple(lines)))
    ruleset = event_service.ruleset_of(event)
    return ScoreSheets(
        event=event_info(event),
        round=round_.number,
        tables=tuple(sheets),
        summary=tuple(rulesets.summary(ruleset)),
    )


# --- hand records ---------------------------------------------------------------------------


def copies_needed(plays: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Copies of each board to deal, from (round, board) for every table that plays it.

    A copy serves one table at a time: a board needs as many copies as tables play it at once.
    """
    copies: dict[int, int] = {}
    for (_round, board), count in Counter(plays).items():
        copies[board] = max(copies.get(board, 0), count)
    return copies


def hand_records(event: Event, round_number: int | None = None) -> HandRecords:
    """The event's boards, or one round's; with how many copies of each board are in play."""
    links = TableBoard.objects.filter(table__round__event=event)
    if round_number is not None:
        links = links.filter(table__round=check_round(event, round_number))
    copies = copies_needed(links.values_list("table__round__number", "board__number"))
    boards = event.boards.order_by("number")
    if round_number is not None:
        boards = boards.filter(number__in=list(copies))
    # The deal number is worked out from the deal rather than read back: a database without
    # 30-digit decimals (SQLite) may have rounded the stored one.
    records = tuple(
        BoardDeal.of(
            board.number,
            Deal.from_pbn(board.deal),
            Seat[board.dealer],
            Card.parse(board.trump_card) if board.trump_card else None,
        )
        for board in boards
    )
    if not records:
        raise UserError(
            _("There are no deals for these boards yet: generate the deals first."),
            code="not_ready",
        )
    return HandRecords(
        event=event_info(event),
        boards=records,
        round=round_number,
        commitment=event.deal_commitment,
        key=event.deal_key if event.deal_key_revealed_at else "",
        copies=copies,
        deal_file=event.deal_file_name if imported(event) else "",
        deal_file_sha256=event.deal_file_sha256 if imported(event) else "",
    )


# --- guide cards and table cards ------------------------------------------------------------


def seating_cards(event: Event, round_number: int | None = None) -> SeatingCards:
    """Every player's rounds, and every table's rounds (only ``round_number``'s when given)."""
    if round_number is not None:
        check_round(event, round_number)
    seatings = list(
        Seating.objects.filter(round__event=event)
        .select_related("round", "table", "entry__player__club", "replaces__player__club")
        .order_by("round__number", "table__number", "seat")
    )
    if not seatings:
        raise UserError(
            _("There is no seating yet: generate the movement first."), code="not_ready"
        )
    boards: dict[int, list[int]] = defaultdict(list)
    for table_id, number in (
        TableBoard.objects.filter(table__round__event=event)
        .order_by("table_id", "position")
        .values_list("table_id", "board__number")
    ):
        boards[table_id].append(number)
    placements: dict[int, list[Placement]] = defaultdict(list)
    people: dict[int, Person] = {}
    tables: dict[int, dict[int, dict[str, Person]]] = defaultdict(dict)
    table_boards: dict[tuple[int, int], tuple[int, ...]] = {}
    for seating in seatings:
        played_in = seating.round.number
        if seating.replaces is not None:
            # The player this seat was planned for does not play the round: their card says so.
            planned = people.setdefault(seating.replaces.number, person(seating.replaces))
            placements[planned.number].append(Placement(played_in, None, ABSENT))
        if seating.entry is None:
            who = seated(seating)
        else:
            who = people.setdefault(seating.entry.number, person(seating.entry))
        table = seating.table
        if table is None:
            placements[who.number].append(Placement(played_in, None, "BYE"))
            continue
        on_table = tuple(boards[table.pk])
        if not who.vacant:
            placements[who.number].append(
                Placement(played_in, table.number, seating.seat, on_table)
            )
        tables[table.number].setdefault(played_in, {})[seating.seat] = who
        table_boards[table.number, played_in] = on_table
    guide = tuple(GuideCard(people[number], tuple(placements[number])) for number in sorted(people))
    links = _device_links(event, round_number)
    cards = []
    for number in sorted(tables):
        plans = tuple(
            TableRound(r, seats, table_boards[number, r], *links.get(number, ("", "")))
            for r, seats in sorted(tables[number].items())
            if round_number is None or r == round_number
        )
        if plans:
            cards.append(TableCard(number, plans))
    return SeatingCards(event_info(event), guide, tuple(cards), round_number)


def _device_links(event: Event, round_number: int | None) -> dict[int, tuple[str, str]]:
    """Each table's device link and PIN, for the table cards of one round not yet closed.

    Read only (documents are drawn in a read-only transaction): asking for the document made them
    (``documents.services.request_report``); a table without them gets a card without a QR code.
    """
    round_ = (
        event.round_set.exclude(status=Round.Status.CLOSED).filter(number=round_number).first()
        if round_number is not None
        else None
    )
    if round_ is None:
        return {}
    return {
        table.number: (devices.device_url(table), table.device_pin)
        for table in round_.tables.exclude(device_key="").order_by("number")
    }


# --- standings, personal score cards, summary -----------------------------------------------


def standings_data(event: Event) -> StandingsData:
    """The stored standings when they are up to date, else freshly computed (nothing is saved).

    As printed: the ranked players, then those without a place yet (no board played, or
    withdrawn before playing one), then the substitutes, who are never ranked.
    """
    state = Standings.objects.filter(event=event).first()
    if state is not None and state.computed_at is not None and not state.is_stale:
        data: dict[str, Any] = state.data
    else:
        data = standings_service.compute(event)
    entries = {
        number: (first, last, club or "", status, role)
        for number, first, last, club, status, role in event.entries.values_list(
            "number",
            "player__first_name",
            "player__last_name",
            "player__club__name",
            "status",
            "role",
        )
    }
    substitutes = {n for n, entry in entries.items() if entry[4] == Entry.Role.SUBSTITUTE}
    rows = [
        StandingRow(
            place=str(row["place"]),
            entry=int(row["entry"]),
            name=str(row["name"]),
            club=str(row.get("club", "")),
            total=str(row["total"]),
            rounds={str(k): str(v) for k, v in row.get("rounds", {}).items()},
            boards=int(row.get("boards", 0)),
            withdrawn=bool(row.get("withdrawn", False)),
            substitute=int(row["entry"]) in substitutes,
            sat_out=int(row.get("sat_out", 0)),
        )
        for row in data.get("rows", [])
    ]
    listed = {row.entry for row in rows}
    # A player who withdrew before playing a board has no line in the standings: they are printed
    # after the ranking all the same, so that every registered player is on the list.
    for number, (first, last, club, status, _role) in sorted(entries.items()):
        if number not in listed and status == Entry.Status.WITHDRAWN:
            rows.append(
                StandingRow("", number, f"{first} {last}".strip(), club, "", {}, 0, withdrawn=True)
            )
    return StandingsData(
        event=event_info(event),
        method=str(data.get("method", event.comparison)),
        rounds=tuple(int(r) for r in data.get("rounds", [])),
        rows=tuple(_printed_order(rows)),
    )


def _printed_order(rows: list[StandingRow]) -> list[StandingRow]:
    """The ranking without substitutes (places closed up), then unplaced players, then substitutes.

    Standings that gave a substitute a place would leave a gap where it was: the places of the
    players below close up, players level with each other still sharing theirs ("3=").
    """
    ranked = [row for row in rows if row.place and not row.substitute]
    waiting = [row for row in rows if not row.place and not row.substitute]
    substitutes = [dataclasses.replace(row, place="") for row in rows if row.substitute]
    if any(row.place for row in rows if row.substitute):
        ranked = _close_up(ranked)
    return [*ranked, *waiting, *substitutes]


def _close_up(ranked: list[StandingRow]) -> list[StandingRow]:
    out: list[StandingRow] = []
    index = 0
    while index < len(ranked):
        level = [ranked[index]]
        while (
            index + len(level) < len(ranked) and ranked[index + len(level)].place == level[0].place
        ):
            level.append(ranked[index + len(level)])
        label = f"{index + 1}=" if len(level) > 1 else str(index + 1)
        out += [dataclasses.replace(row, place=label) for row in level]
        index += len(level)
    return out


def score_cards(event: Event) -> ScoreCards:
    """Each player's boards with the contract, the score and the comparison percentage.

    The comparison is the one the standings stored with them (``standings.board_scores``): nothing
    is compared again. The notations are read in one query.
    """
    scores = standings_service.board_scores(event)
    notations = dict(
        Result.objects.filter(event=event, is_current=True).values_list("pk", "notation")
    )
    standing = {row.entry: row for row in standings_data(event).rows}
    entries = {e.number: e for e in event.entries.select_related("player__club").order_by("number")}
    game = event_service.ruleset_of(event).game
    cards = []
    for number, entry in entries.items():
        played = scores.get(number, ())
        if not played and entry.status != Entry.Status.ACTIVE:
            continue
        card_lines = []
        for item in played:
            notation = "bye" if item.result is None else notations.get(item.result, "")
            split = _split_notation(notation, game, item.score)
            card_lines.append(
                CardLine(
                    round=item.round,
                    table=item.table,
                    seat=item.seat,
                    board=item.board,
                    declarers=split.declarers,
                    contract=split.contract,
                    tricks=split.tricks,
                    score=signed(item.score) if item.score is not None else "",
                    percentage=comparison.display(item.percentage, 2),
                    artificial=item.score is None,
                )
            )
        row = standing.get(number)
        cards.append(
            ScoreCard(
                person=person(entry),
                place=row.place if row else "",
                total=row.total if row else "",
                rounds=row.rounds if row else {},
                lines=tuple(card_lines),
                sat_out=row.sat_out if row else 0,
            )
        )
    return ScoreCards(event_info(event), event.comparison, tuple(cards))


def _split_notation(notation: str, game: str, score: int | None) -> PlayedLine:
    zero = (0, 0, 0, 0)
    if score is None:
        return PlayedLine("", "", "", zero, artificial=True)
    try:
        return played_line(parse_result_line(notation, game=game), zero)
    except (EngineError, ValueError):
        return PlayedLine("", notation, "", zero)


def summary(event: Event) -> EventSummary:
    byes = Counter(
        Seating.objects.filter(round__event=event, seat=Seating.Seat.BYE).values_list(
            "round__number", flat=True
        )
    )
    tables = Counter(
        Seating.objects.filter(round__event=event, seat="N").values_list("round__number", flat=True)
    )
    expected = Counter(
        TableBoard.objects.filter(table__round__event=event).values_list(
            "table__round__number", flat=True
        )
    )
    results = Counter(
        Result.objects.filter(event=event, is_current=True).values_list(
            "table__round__number", flat=True
        )
    )
    facts = tuple(
        RoundFacts(
            round=r.number,
            status=r.status,
            tables=tables[r.number],
            byes=byes[r.number],
            results=results[r.number],
            expected=expected[r.number],
        )
        for r in event.round_set.order_by("number")
    )
    entries = list(event.entries.values_list("status", "role"))
    return EventSummary(
        event=event_info(event),
        status=event.status,
        players=len(entries),
        withdrawn=sum(1 for status, _role in entries if status == Entry.Status.WITHDRAWN),
        substitutes=sum(1 for _status, role in entries if role == Entry.Role.SUBSTITUTE),
        rounds=event.rounds,
        boards_per_round=event.boards_per_round,
        boards=event.boards.count(),
        results=sum(results.values()),
        commitment=event.deal_commitment,
        key=event.deal_key if event.deal_key_revealed_at else "",
        round_facts=facts,
        standings=standings_data(event),
        deal_file=event.deal_file_name if imported(event) else "",
        deal_file_sha256=event.deal_file_sha256 if imported(event) else "",
    )
