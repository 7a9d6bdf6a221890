"""Standings: every current result compared seat by seat, per round and cumulative.

The computation reads the whole event in a handful of queries and does the rest in memory with the
engine's exact arithmetic (``engine.comparison``); the outcome is stored in ``Standings.data`` so
that pages and the CSV read it instead of recomputing.

A player who sits out boards (a bye, or the fifth chair at a table of five) scores their own
average on them: their percentage is over the boards they played, and raw and datum totals are
scaled up to the full number of boards, so sitting out neither helps nor hurts.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from engine import comparison
from engine.comparison import Artificial, ArtificialScores, Award, Comparison, Record, Weighted
from tournaments.models import (
    Entry,
    Event,
    Penalty,
    Result,
    Round,
    Seating,
    SitOutScore,
    Standings,
    Table,
    TableBoard,
)
from tournaments.services.seating import holders, sitting_out

logger = logging.getLogger(__name__)

SEATS = ("N", "E", "S", "W")
AWARD_NAMES = frozenset(award.value for award in Award)


@dataclass
class Played:
    """One player's part in one board result."""

    entry: int
    round: int
    table: int
    board: int
    seat: str
    score: int | None  # None for an artificial score
    entry_value: comparison.Entry
    notation: str
    comparison: Comparison | None = None


@dataclass
class PlayerLine:
    entry: int
    played: list[Played] = field(default_factory=list)
    sat_out: dict[int, int] = field(default_factory=dict)  # round -> boards sat out
    meetings: dict[int, int] = field(default_factory=lambda: defaultdict(int))


class BadRecordError(Exception):
    """A record the standings leave out: ``message`` (untranslated) says what is wrong with it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _problem(
    result: int, board: int, table: int, round_number: int, message: str
) -> dict[str, Any]:
    return {
        "result": result,
        "board": board,
        "table": table,
        "round": round_number,
        "message": message,
    }


def _members(
    kind: str,
    scores: dict[str, int],
    data: Any,
    extra: dict[str, int] | None,
    awards: ArtificialScores,
) -> dict[str, tuple[int | None, comparison.Entry]]:
    """Each seat's score and the value it is compared with, for one result (absentees left out).

    Raises ``KeyError``, ``TypeError``, ``ValueError`` and the like on data that cannot be read.
    """
    members: dict[str, tuple[int | None, comparison.Entry]] = {}
    for seat in SEATS:
        if kind == Result.Kind.WEIGHTED:
            outcomes = [
                (
                    Fraction(item["weight"]),
                    Fraction(item["scores"][SEATS.index(seat)]) + (extra[seat] if extra else 0),
                )
                for item in data.get("weighted", [])
            ]
            weighted = Weighted(tuple(outcomes))
            members[seat] = (round(weighted.expected_score), weighted)
        elif kind == Result.Kind.ARTIFICIAL:
            award = data.get("awards", {}).get(seat, "average")
            if award is None:
                continue  # an absentee's seat: no score on this board, not counted at all
            members[seat] = (
                None,
                awards.artificial(Award(award))
                if award in AWARD_NAMES
                else Artificial(Fraction(award)),
            )
        else:
            score = scores[seat] + (extra[seat] if extra else 0)
            members[seat] = (score, score)
    return members


def _gather(
    event: Event, problems: list[dict[str, Any]] | None = None
) -> tuple[dict[int, PlayerLine], dict[tuple[int, str], list[Played]], dict[int, int], list[int]]:
    """Every player's boards, the groups compared, the tables per board and the rounds started.

    Records that cannot be counted are left out and described in ``problems``.
    """
    if problems is None:
        problems = []
    started = list(
        event.round_set.exclude(status=Round.Status.PLANNED).values_list("number", flat=True)
    )
    seats_by_table: dict[int, dict[str, int | None]] = defaultdict(dict)
    table_info: dict[int, tuple[int, int]] = {}
    byes: dict[int, list[int]] = defaultdict(list)
    for table_id, round_number, table_number, seat, entry_number, ruling in Seating.objects.filter(
        round__event=event, round__number__in=started
    ).values_list(
        "table_id", "round__number", "table__number", "seat", "entry__number", "table__ruling"
    ):
        # A table that sits out (a no-show nobody replaced) plays nothing: the players present
        # have a bye, the absentee (a vacant seat, no entry) nothing.
        if seat == Seating.Seat.BYE or ruling == Table.Ruling.SIT_OUT:
            if entry_number is not None:
                byes[round_number].append(entry_number)
            continue
        seats_by_table[table_id][seat] = entry_number  # None: a vacant seat
        table_info[table_id] = (round_number, table_number)
    positions: dict[tuple[int, int], int] = {}
    expected: dict[int, int] = defaultdict(int)  # board number -> tables that play it
    boards_in_round: dict[int, int] = defaultdict(int)
    round_boards: dict[int, set[int]] = defaultdict(set)
    for table_id, board_id, board_number, position in TableBoard.objects.filter(
        table_id__in=list(seats_by_table)
    ).values_list("table_id", "board_id", "board__number", "position"):
        positions[table_id, board_id] = position
        expected[board_number] += 1
        round_number = table_info[table_id][0]
        boards_in_round[round_number] = max(boards_in_round[round_number], position)
        round_boards[round_number].add(board_number)

    lines: dict[int, PlayerLine] = {
        number: PlayerLine(number) for number in event.entries.values_list("number", flat=True)
    }
    awards = ArtificialScores()
    # A bye counts as the player's own average, unless the TD gave it a score (with a reason).
    bye_awards: dict[tuple[int, int], Award] = {}
    for pk, number, round_number, name in SitOutScore.objects.filter(event=event).values_list(
        "pk", "entry__number", "round_number", "award"
    ):
        if name not in AWARD_NAMES:
            problems.append(
                {
                    "bye_score": pk,
                    "entry": number,
                    "round": round_number,
                    "message": gettext_noop("the score for the bye is not one Troef knows"),
                }
            )
            continue
        bye_awards[number, round_number] = Award(name)
    for round_number, numbers in byes.items():
        for number in numbers:
            award = bye_awards.get((number, round_number))
            if award is None:
                lines[number].sat_out[round_number] = boards_in_round.get(
                    round_number, event.boards_per_round
                )
                continue
            percentage = awards.percentage(award)
            for board in sorted(round_boards[round_number]):
                # At least the top of two results, so a lone table still weighs the award.
                group_top = comparison.top(max(expected[board], 2))
                lines[number].played.append(
                    Played(
                        number,
                        round_number,
                        0,
                        board,
                        "",
                        None,
                        Artificial(percentage),
                        "bye",
                        Comparison(None, percentage * group_top / 100, group_top, percentage, None),
                    )
                )
    groups: dict[tuple[int, str], list[Played]] = defaultdict(list)
    # Board penalties change the table's scores before the comparison (they move points between
    # the players of that table, as the ruleset says); fines come off the total afterwards.
    board_penalties: dict[tuple[int, int], dict[str, int]] = defaultdict(
        lambda: dict.fromkeys(SEATS, 0)
    )
    for pk, table_id, board_id, table_number, board_number, points in Penalty.objects.filter(
        event=event, is_active=True, board__isnull=False
    ).values_list("pk", "table_id", "board_id", "table__number", "board__number", "points"):
        try:
            amounts = {seat: int(amount) for seat, amount in points.get("seats", {}).items()}
        except (TypeError, ValueError, AttributeError, OverflowError):
            problems.append(
                {
                    "penalty": pk,
                    "board": board_number,
                    "table": table_number,
                    "message": gettext_noop("the penalty's points cannot be read"),
                }
            )
            continue
        for seat, amount in amounts.items():
            board_penalties[table_id, board_id][seat] += amount
    rows = Result.objects.filter(event=event, is_current=True, table_id__in=list(seats_by_table))
    # Only adjusted scores need their JSON data; decoding it for 8,000 played boards costs time.
    adjusted_data = dict(rows.exclude(kind=Result.Kind.PLAYED).values_list("pk", "data"))
    for pk, table_id, board_id, board_number, kind, notation, n, e, s, w in rows.values_list(
        "pk",
        "table_id",
        "board_id",
        "board__number",
        "kind",
        "notation",
        "score_n",
        "score_e",
        "score_s",
        "score_w",
    ):
        round_number, table_number = table_info[table_id]
        place = positions.get((table_id, board_id))
        table_seats = seats_by_table[table_id]
        # One bad row is left out and named; the rest of the event is still ranked.
        try:
            if place is None:
                raise BadRecordError(
                    gettext_noop("the table does not play this board in the seating")
                )
            if any(seat not in table_seats for seat in SEATS):
                raise BadRecordError(gettext_noop("a seat of the table has nobody in the seating"))
            at_table = holders(table_seats, place, round_number)
            if any(number is not None and number not in lines for number in at_table.values()):
                raise BadRecordError(gettext_noop("a player of the table is not registered"))
            scores = dict(zip(SEATS, (n, e, s, w), strict=True))
            members = _members(
                kind,
                scores,
                adjusted_data.get(pk, {}),
                board_penalties.get((table_id, board_id)),
                awards,
            )
        except BadRecordError as bad:
            problems.append(_problem(pk, board_number, table_number, round_number, bad.message))
            continue
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError):
            problems.append(
                _problem(
                    pk,
                    board_number,
                    table_number,
                    round_number,
                    gettext_noop("the result's data cannot be read"),
                )
            )
            continue
        sitter = sitting_out(table_seats, place, round_number)
        if sitter is not None and sitter in lines:
            lines[sitter].sat_out[round_number] = lines[sitter].sat_out.get(round_number, 0) + 1
        for seat, (score, entry_value) in members.items():
            if at_table[seat] is None:
                continue  # a vacant seat: nobody to score
            played = Played(
                at_table[seat],
                round_number,
                table_number,
                board_number,
                seat,
                score,
                entry_value,
                notation,
            )
            groups[board_number, seat].append(played)
            lines[at_table[seat]].played.append(played)
        if kind != Result.Kind.ARTIFICIAL:
            for seat in SEATS:
                for other in SEATS:
                    if other != seat and at_table[seat] is not None and at_table[other] is not None:
                        lines[at_table[seat]].meetings[at_table[other]] += (
                            scores[seat] - scores[other]
                        )
    return lines, groups, expected, sorted(started)


def decimals(event: Event) -> int:
    """Decimals the standings show: percentages to two, points whole."""
    return 2 if event.comparison == Event.Comparison.MATCHPOINTS else 0


def compute(event: Event) -> dict[str, Any]:
    """The standings of an event as a JSON-ready document."""
    problems: list[dict[str, Any]] = []
    lines, groups, expected, rounds = _gather(event, problems)
    for (board, _seat), members in groups.items():
        results = comparison.compare(
            [m.entry_value for m in members], expected=max(expected[board], len(members))
        )
        for member, result in zip(members, results, strict=True):
            member.comparison = result
    method = event.comparison
    names = {
        e.number: (e.player.full_name, e.player.club.name if e.player.club else "", e.status)
        for e in event.entries.select_related("player", "player__club")
    }
    needs_butler = method == Event.Comparison.DATUM or "butler" in (event.tie_break or [])
    records: list[Record] = []
    figures: dict[int, dict[str, Any]] = {}
    for number, line in lines.items():
        per_round: dict[int, Fraction] = {}
        by_round: dict[int, list[Played]] = defaultdict(list)
        for played in line.played:
            by_round[played.round].append(played)
        comparisons = [p.comparison for p in line.played if p.comparison is not None]
        real = [c for c in comparisons if c.score is not None]
        sat_out = sum(line.sat_out.values())
        if method == Event.Comparison.MATCHPOINTS:
            for round_number, items in by_round.items():
                per_round[round_number] = comparison.event_percentage(
                    (p.comparison.matchpoints for p in items if p.comparison),
                    (p.comparison.top for p in items if p.comparison),
                )
            total = comparison.event_percentage(
                (c.matchpoints for c in comparisons), (c.top for c in comparisons)
            )
        else:

            def value(c: Comparison) -> Fraction:
                if method == Event.Comparison.DATUM:
                    return c.butler if c.butler is not None else Fraction(0)
                return c.score if c.score is not None else Fraction(0)

            for round_number, items in by_round.items():
                per_round[round_number] = sum(
                    (value(p.comparison) for p in items if p.comparison), Fraction(0)
                )
            played_total = sum((value(c) for c in real), Fraction(0))
            total = played_total
            # Boards sat out and boards with an artificial score count as the player's own
            # average: raw and datum totals are scaled up to every board of the event.
            artificial = len(comparisons) - len(real)
            if (sat_out or artificial) and real:
                total = played_total * (len(real) + sat_out + artificial) / len(real)
        record = Record(
            player=number,
            total=total,
            boards=len(comparisons),
            boards_won=sum(1 for c in real if c.percentage > 50),
            tops=sum(1 for c in real if c.top > 0 and c.matchpoints == c.top),
            raw_total=Fraction(sum(p.score for p in line.played if p.score is not None)),
            # Butler sums are Fraction arithmetic: only worked out when something uses them.
            butler=sum((c.butler for c in real if c.butler is not None), Fraction(0))
            if needs_butler
            else Fraction(0),
            meetings={other: Fraction(value) for other, value in line.meetings.items()},
        )
        records.append(record)
        figures[number] = {"per_round": per_round, "sat_out": sat_out}
    fines: dict[int, Fraction] = defaultdict(Fraction)
    for pk, number, points in Penalty.objects.filter(
        event=event, is_active=True, board__isnull=True
    ).values_list("pk", "offender__number", "points"):
        try:
            fines[number] += Fraction(points.get("total", "0"))
        except (TypeError, ValueError, AttributeError, ZeroDivisionError):
            problems.append(
                {
                    "penalty": pk,
                    "entry": number,
                    "message": gettext_noop("the fine's points cannot be read"),
                }
            )
    if fines:
        records = [
            dataclasses.replace(r, total=r.total - fines[int(r.player)])
            if fines.get(int(r.player))
            else r
            for r in records
        ]
    order = comparison.check_tie_break_order(event.tie_break or ["total"])
    # Only players with a board to their name are ranked: a late arrival before their first round
    # is listed after the ranking, not given a place at 50 %.
    # Substitutes are not ranked: their boards count for everyone else, but they have no place.
    substitutes = set(
        event.entries.filter(role=Entry.Role.SUBSTITUTE).values_list("number", flat=True)
    )
    placings = comparison.rank(
        [r for r in records if r.boards and int(r.player) not in substitutes], order
    )
    waiting = sorted(
        int(r.player)
        for r in records
        if not r.boards and names[int(r.player)][2] == "active" and int(r.player) not in substitutes
    )
    places = decimals(event)
    rows = []
    for placing in placings:
        record = placing.record
        number = int(record.player)
        name, club, status = names[number]
        rows.append(
            {
                "place": placing.label,
                "entry": number,
                "name": name,
                "club": club,
                "withdrawn": status != "active",
                "total": comparison.display(record.total, places),
                "rounds": {
                    str(r): comparison.display(v, places)
                    for r, v in sorted(figures[number]["per_round"].items())
                },
                "boards": record.boards,
                "sat_out": figures[number]["sat_out"],
                "raw_total": comparison.display(record.raw_total, 0),
                "fines": comparison.display(fines[number], places) if fines.get(number) else "",
                "decided_by": placing.decided_by,
            }
        )
    for number in waiting:
        name, club, _status = names[number]
        rows.append(
            {"place": "", "entry": number, "name": name, "club": club, "withdrawn": False,
             "total": "", "rounds": {}, "boards": 0, "sat_out": figures[number]["sat_out"],
             "raw_total": "", "fines": "", "decided_by": None}
        )  # fmt: skip
    return {
        "method": method,
        "rounds": rounds,
        "rows": rows,
        "results": sum(len(m) for m in groups.values()) // 4,
        # Records left out because they cannot be read; the TD's event page lists them.
        "problems": problems,
    }


def failure(exc: Exception) -> dict[str, str]:
    """Why the stored standings are not current: a message for the pages and the error itself."""
    return {
        "message": gettext_noop("computing them failed; the tournament director has been told"),
        "detail": f"{type(exc).__name__}: {exc}"[:300],
        "at": timezone.now().isoformat(),
    }


def refresh(event_id: int) -> int | None:
    """Recompute and store if the stored standings are older than the latest request.

    Safe to run twice and concurrently: the row lock makes a second worker wait, then see that the
    standings already cover its request and return.
    """
    with transaction.atomic():
        state = Standings.objects.select_for_update().filter(event_id=event_id).first()
        if state is None:
            event = Event.objects.filter(pk=event_id).first()
            if event is None:
                return None  # the event is gone
            state, _created = Standings.objects.get_or_create(
                event=event, defaults={"requested": 1}
            )
            state = Standings.objects.select_for_update().get(pk=state.pk)
        if state.computed >= state.requested and state.computed_at is not None:
            return state.computed
        covered = state.requested
        event = Event.objects.get(pk=event_id)
        try:
            data = compute(event)
        except DatabaseError:
            raise  # a lock timeout or a lost connection: the task retries
        except Exception as exc:
            # A fault in the computation never freezes the pages silently: the last good standings
            # stay, marked not current with the reason, and ``computed`` stays behind so that the
            # next request (or the catch-up) tries again.
            logger.exception("standings of event %s could not be computed", event_id)
            state.data = {**state.data, "failure": failure(exc)}
            state.save(update_fields=["data"])
            return None
        state.data = data
        state.computed = covered
        state.computed_at = timezone.now()
        state.save(update_fields=["data", "computed", "computed_at"])
        return covered
