"""What each stored document was made from, as short digests, and whether the event still agrees.

A document is built once and kept. With the file, the build stores a digest of each part of the
event the document is drawn from: the seating of its round, the deals, the results, the standings,
and so on (``parts_of`` says which, for each kind). The digests are read in the same snapshot of
the database as the renderer's data, by the same code that reads them again for the reports page;
so a file stays current exactly as long as every part it was made from is unchanged, and when a
part has changed the page can say which one, in the TD's words (``explain``).

``check`` answers for a whole list of files at once, in a few queries whatever the number of
files: each source (seating, boards at the tables, deals, results, ...) is read once, for the
rounds the listed files need.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from documents import loaders
from documents.data import StandingsData
from documents.game import ruleset_to_toml
from documents.models import ReportFile
from documents.renderers.standings import SummaryRenderer
from tournaments.errors import UserError
from tournaments.models import (
    Board,
    Entry,
    Event,
    Penalty,
    Result,
    Round,
    Seating,
    SitOutScore,
    TableBoard,
)
from tournaments.services import analysis as analysis_service
from tournaments.services import events as event_service

VERSION = 1
"""How the digests are worked out; a fingerprint of another version cannot be compared."""

Kind = ReportFile.Kind

# Parts of the whole event. Each is one thing a document prints, so that a document follows
# exactly what it prints: a change to something it does not print leaves it up to date.
NAME = "name"  # the event's name (and the short name in the file's name): on every document
DATE = "date"  # the event's date: on every document but the dealing machine file
VENUE = "venue"  # the venue: in the headings of the sheets, standings, cards, summary, PBN
GAME = "game"  # the game: the summary names it; the score cards' contracts are read by it
SCORE_TABLE = "score_table"  # the ruleset's title and score table: the sheets' back, the Σ column
RULESET_TITLE = "ruleset_title"  # the ruleset's title alone: the summary
COMPARISON = "comparison"  # matchpoints, raw totals or datum: the summary
DEALS = "deals"  # every board's deal and dealer, the deals' commitment or the file they came from
COMMITMENT = "commitment"  # the commitment (or deal file) and how many boards: the summary
COPIES = "copies"  # how many tables play each board at once: the copies to deal
KEY = "key"  # the deal key, once revealed at the end of the event
PLAYERS = "players"  # every entry: number, name, club, playing or withdrawn
STANDINGS = "standings"  # the standings as printed
LEADERS = "leaders"  # the first players of the ranking, as the summary prints them
ADJUSTMENTS = "adjustments"  # penalties on boards and the TD's scores for byes
ANALYSIS = "analysis"  # the double-dummy tables stored for the boards (or a round's boards)
PROGRESS = "progress"  # the summary's figures: rounds started, tables, byes, results, players
# Parts of files made before the parts above were split: still compared, never taken now.
EVENT = "event"  # name, date and venue together
RULESET = "ruleset"  # game, ruleset and comparison together
WHOLE = frozenset(
    {
        NAME,
        DATE,
        VENUE,
        GAME,
        SCORE_TABLE,
        RULESET_TITLE,
        COMPARISON,
        DEALS,
        COMMITMENT,
        COPIES,
        KEY,
        PLAYERS,
        STANDINGS,
        LEADERS,
        ADJUSTMENTS,
        ANALYSIS,
        PROGRESS,
        EVENT,
        RULESET,
    }
)

# Parts of one round, written "seating:3".
SEATING = "seating"  # who sits where, and which boards each table plays in which order
NAMES = "names"  # names and clubs of the players seated in the round
RESULTS = "results"  # the round's current results
PER_ROUND = frozenset({SEATING, NAMES, RESULTS, DEALS, COPIES, ANALYSIS})


def part(name: str, round_number: int | None = None) -> str:
    return name if round_number is None else f"{name}:{round_number}"


FILLED_IN = frozenset({Kind.SCORE_SHEETS, Kind.ROUND_PACK})
"""Kinds that print their round's results once there are some (the score sheets)."""


def parts_of(event: Event, kind: str, round_number: int | None) -> list[str]:
    """The parts of the event a document of ``kind`` (for ``round_number``, if any) prints.

    Score sheets print their round's results only once there are some: ``take`` leaves the
    results out of the fingerprint of a blank sheet, which the first result does not change.
    """
    every = range(1, event.rounds + 1)
    scope = every if round_number is None else (round_number,)
    deals, copies = part(DEALS, round_number), part(COPIES, round_number)
    if kind in FILLED_IN:
        assert round_number is not None
        sheets = [
            NAME,
            DATE,
            VENUE,
            SCORE_TABLE,
            part(SEATING, round_number),
            part(NAMES, round_number),
            part(RESULTS, round_number),
        ]
        if kind == Kind.SCORE_SHEETS:
            return sheets
        # With the sheets: the table cards (the seating again), hand records and dealing slips.
        return [*sheets, deals, copies, KEY, part(ANALYSIS, round_number)]
    if kind == Kind.HAND_RECORDS:
        return [NAME, DATE, deals, KEY, part(ANALYSIS, round_number)]
    if kind == Kind.DEALING_SLIPS:
        return [NAME, DATE, deals, copies]
    if kind == Kind.DEALING_MACHINE:  # the file's headline is the event's name, nothing else
        return [NAME, deals]
    if kind == Kind.PBN:  # the Event, Site and Date tags
        return [NAME, DATE, VENUE, deals]
    if kind in (Kind.GUIDE_CARDS, Kind.TABLE_CARDS):  # guide cards: always the whole event
        return [NAME, DATE, *(part(SEATING, n) for n in scope), *(part(NAMES, n) for n in scope)]
    if kind == Kind.STANDINGS:
        return [NAME, DATE, VENUE, STANDINGS]
    if kind == Kind.SCORE_CARDS:
        # The seating of a round that has started never changes (re-planning keeps it): the
        # results, the standings and the adjustments are what can change a player's card.
        # The game says how a result line splits into declarers, contract and tricks.
        results = (part(RESULTS, n) for n in every)
        return [NAME, DATE, VENUE, GAME, PLAYERS, STANDINGS, ADJUSTMENTS, *results]
    if kind == Kind.SUMMARY:
        return [
            NAME,
            DATE,
            VENUE,
            GAME,
            RULESET_TITLE,
            COMPARISON,
            PROGRESS,
            COMMITMENT,
            KEY,
            LEADERS,
        ]
    raise ValueError(f"unknown document {kind!r}")


def take(event: Event, kind: str, round_number: int | None) -> dict[str, Any]:
    """The fingerprint to store with a document made now: call it where the renderer's data is read."""
    keys = parts_of(event, kind, round_number)
    reader = _Reader(event, keys)
    if kind in FILLED_IN and not any(row[0] == round_number for row in reader.results):
        # A blank sheet: it prints no results, so entering them leaves it as it is.
        keys.remove(part(RESULTS, round_number))
    return {"version": VERSION, "parts": {key: reader.digest(key) for key in keys}}


# --- how a stored file compares with the event now ------------------------------------------

CURRENT = "current"
OUT_OF_DATE = "out_of_date"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Freshness:
    """Whether a finished file still matches the event, and if not, what changed since."""

    state: str  # CURRENT, OUT_OF_DATE or UNKNOWN
    changes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        if self.state == CURRENT:
            return _("up to date")
        if self.state == OUT_OF_DATE:
            return _("out of date")
        return _("not checked")

    @property
    def explanation(self) -> str:
        if self.state == UNKNOWN:
            return _(
                "This file was made before Troef kept track of what each document is made from, "
                "so it cannot tell whether the file still matches the event. Make it again to "
                "be sure."
            )
        return ""

    def as_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "label": self.label,
            "changes": list(self.changes),
            "explanation": self.explanation,
        }


def check(event: Event, reports: Iterable[ReportFile]) -> dict[int, Freshness]:
    """For each finished file of ``event``, whether it still matches the event (by the file's id).

    Files being made, or that failed, have no entry. The whole list costs a few queries.
    """
    stored: dict[int, dict[str, str] | None] = {
        report.pk: stored_parts(report.fingerprint)
        for report in reports
        if report.status == ReportFile.Status.DONE
    }
    wanted = {key for parts in stored.values() if parts for key in parts}
    now = digests(event, wanted)
    out = {}
    for pk, parts in stored.items():
        if parts is None:
            out[pk] = Freshness(UNKNOWN)
            continue
        changed = [key for key, digest in parts.items() if now[key] != digest]
        out[pk] = Freshness(OUT_OF_DATE, tuple(explain(changed))) if changed else Freshness(CURRENT)
    return out


def stored_parts(fingerprint: Any) -> dict[str, str] | None:
    """The parts of a stored fingerprint; ``None`` when there is none this version can compare."""
    if not isinstance(fingerprint, dict) or fingerprint.get("version") != VERSION:
        return None
    parts = fingerprint.get("parts")
    if not isinstance(parts, dict) or not all(
        _known(key) and isinstance(digest, str) for key, digest in parts.items()
    ):
        return None
    return parts


def _known(key: str) -> bool:
    name, _colon, number = key.partition(":")
    if not number:
        return name in WHOLE
    return name in PER_ROUND and number.isdigit()


def explain(changed: Collection[str]) -> list[str]:
    """What changed, in the TD's words: one sentence per kind of change, rounds gathered."""
    rounds: dict[str, list[int]] = defaultdict(list)
    whole = set()
    for key in changed:
        name, _colon, number = key.partition(":")
        if number:
            rounds[name].append(int(number))
        else:
            whole.add(name)
    lines = _event_changes(whole, rounds)
    lines += _play_changes(whole, rounds)
    return lines


def _event_changes(whole: set[str], rounds: dict[str, list[int]]) -> list[str]:
    """The sentences for the event's settings, deals, key and tables."""
    lines = []
    if whole & {EVENT, NAME, DATE, VENUE}:
        lines.append(_("The event's name, date or venue changed after this file was made."))
    if whole & {RULESET, GAME, SCORE_TABLE, RULESET_TITLE, COMPARISON}:
        lines.append(_("The event's game, ruleset or comparison changed after this file was made."))
    dealt_again = DEALS in whole or COMMITMENT in whole or bool(rounds[DEALS])
    if dealt_again:
        lines.append(
            _("The deals changed after this file was made: make it again before printing.")
        )
    # Dealt again, the tables of the old deals are gone: the deals' sentence says all there is.
    if (ANALYSIS in whole or rounds[ANALYSIS]) and not dealt_again:
        lines.append(
            _(
                "Double-dummy tables were worked out after this file was made: make it again to "
                "print them."
            )
        )
    if KEY in whole:
        lines.append(
            _("The deal key was revealed after this file was made: make it again to print it.")
        )
    if rounds[SEATING]:
        numbers = sorted(rounds[SEATING])
        lines.append(
            ngettext(
                "The seating of round %(rounds)s changed after this file was made (a re-planning, "
                "a late arrival or a withdrawal): make it again before printing.",
                "The seating of rounds %(rounds)s changed after this file was made (a "
                "re-planning, a late arrival or a withdrawal): make it again before printing.",
                len(numbers),
            )
            % {"rounds": _numbers(numbers)}
        )
    if COPIES in whole or rounds[COPIES]:
        lines.append(
            _(
                "The number of tables that play each board changed after this file was made, and "
                "with it the number of copies to deal."
            )
        )
    return lines


def _play_changes(whole: set[str], rounds: dict[str, list[int]]) -> list[str]:
    """The sentences for the players, the results, the adjustments and the standings."""
    lines = []
    if PLAYERS in whole:
        lines.append(_("Players were added, withdrawn or renamed after this file was made."))
    elif set(rounds[NAMES]) - set(rounds[SEATING]):
        # Where the seating changed, other players sit there: the seating's sentence says it.
        lines.append(_("Names or clubs of players changed after this file was made."))
    if rounds[RESULTS]:
        numbers = sorted(rounds[RESULTS])
        lines.append(
            ngettext(
                "Results of round %(rounds)s were entered or corrected after this file was made.",
                "Results of rounds %(rounds)s were entered or corrected after this file was made.",
                len(numbers),
            )
            % {"rounds": _numbers(numbers)}
        )
    if ADJUSTMENTS in whole:
        lines.append(_("Penalties or scores for byes changed after this file was made."))
    if PROGRESS in whole:
        lines.append(
            _(
                "Rounds were started or closed, or players, tables or results changed, after "
                "this file was made."
            )
        )
    if STANDINGS in whole or LEADERS in whole:
        lines.append(_("The standings changed after this file was made."))
    return lines


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


# --- the digests ----------------------------------------------------------------------------


def _digest(value: Any) -> str:
    # Canonical JSON: the same data gives the same text, whatever order the database returned
    # the rows or a JSON column its keys in.
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def digests(event: Event, keys: Collection[str]) -> dict[str, str]:
    """The digest of each part in ``keys``, for the event as the database has it now."""
    reader = _Reader(event, keys)
    return {key: reader.digest(key) for key in keys}


class _Reader:
    """Reads each source once (for the rounds the parts need) and works out every digest from it."""

    def __init__(self, event: Event, keys: Collection[str]) -> None:
        self.event = event
        self.whole: set[str] = set()
        self.rounds_of: dict[str, set[int]] = defaultdict(set)
        for key in keys:
            name, _colon, number = key.partition(":")
            if number:
                self.rounds_of[name].add(int(number))
            else:
                self.whole.add(name)

    def _rounds(self, per_round: tuple[str, ...], whole: tuple[str, ...]) -> set[int] | None:
        """The rounds a source is read for: ``None`` for every round."""
        if self.whole.intersection(whole):
            return None
        return set().union(*(self.rounds_of[name] for name in per_round))

    def digest(self, key: str) -> str:
        name, _colon, number = key.partition(":")
        round_number = int(number) if number else None
        if round_number is not None:
            return _digest(self._per_round(name, round_number))
        return _digest(self._whole(name))

    def _per_round(self, name: str, n: int) -> Any:
        if name == SEATING:
            return {
                "seats": sorted(row[1:4] for row in self.seatings if row[0] == n),
                "boards": sorted(row[1:] for row in self.links if row[0] == n),
            }
        if name == NAMES:
            return sorted({(row[3], *row[4:]) for row in self.seatings if row[0] == n})
        if name == RESULTS:
            return sorted(row[1:] for row in self.results if row[0] == n)
        if name == DEALS:
            numbers = {row[3] for row in self.links if row[0] == n}
            return self._deals(numbers)
        if name == COPIES:
            return self._copies(n)
        if name == ANALYSIS:
            return self._analysis({row[3] for row in self.links if row[0] == n})
        raise ValueError(f"unknown part {name}:{n}")

    def _whole(self, name: str) -> Any:
        """What a whole-event part is drawn from, for the event's own settings and ruleset."""
        event = self.event
        if name == NAME:
            return [event.slug, event.name]
        if name == DATE:
            return event.date.isoformat()
        if name == VENUE:
            return event.venue
        if name == GAME:
            return event.game
        if name == SCORE_TABLE:
            # The ruleset's document, which holds its title and score table: what the sheets
            # print of it, in any language (the printed table is translated, the document not).
            return self._ruleset()
        if name == RULESET_TITLE:
            return self._ruleset_title()
        if name == COMPARISON:
            return event.comparison
        if name == EVENT:
            return [event.slug, event.name, event.date.isoformat(), event.venue]
        if name == RULESET:
            return [event.game, event.comparison, self._ruleset()]
        return self._whole_of_play(name)

    def _whole_of_play(self, name: str) -> Any:
        """What a whole-event part is drawn from, for the deals, the players and the play."""
        event = self.event
        if name == DEALS:
            return self._deals(None)
        if name == COMMITMENT:
            return [event.deal_commitment, len(self.boards), *self._deal_file()]
        if name == LEADERS:
            leaders = [row for row in self.standings.rows if row.ranked][: SummaryRenderer.leaders]
            return [[row.place, row.name, row.club, row.total] for row in leaders]
        if name == COPIES:
            return self._copies(None)
        if name == KEY:
            return event.deal_key if event.deal_key_revealed_at else ""
        if name == PLAYERS:
            # Without the role: the digest stays the one files made before roles existed stored.
            return sorted(
                (number, first, last, club or "", status)
                for number, first, last, club, status, _role in self.entries
            )
        if name == STANDINGS:
            standings = self.standings
            rows = [dataclasses.asdict(row) for row in standings.rows]
            return {"method": standings.method, "rounds": standings.rounds, "rows": rows}
        if name == ADJUSTMENTS:
            return self._adjustments()
        if name == ANALYSIS:
            return self._analysis(None)
        if name == PROGRESS:
            return self._progress()
        raise ValueError(f"unknown part {name}")

    @cached_property
    def standings(self) -> StandingsData:
        return loaders.standings_data(self.event)

    def _ruleset_title(self) -> str:
        try:
            return event_service.ruleset_of(self.event).title
        except UserError:
            return self._ruleset()

    def _ruleset(self) -> str:
        # The ruleset as a document in canonical form: the same before play and once frozen.
        try:
            return ruleset_to_toml(event_service.ruleset_of(self.event))
        except UserError:  # a broken custom document: no document can be made from it either
            return f"{self.event.ruleset_name}\n{self.event.ruleset_toml}"

    def _deals(self, numbers: set[int] | None) -> Any:
        boards = [row for row in self.boards if numbers is None or row[0] in numbers]
        deals = {"commitment": self.event.deal_commitment, "boards": sorted(boards)}
        if self._deal_file():
            deals["file"] = self._deal_file()
        return deals

    def _analysis(self, numbers: set[int] | None) -> Any:
        return sorted(
            (number, table)
            for number, table in self.tables.items()
            if numbers is None or number in numbers
        )

    @cached_property
    def tables(self) -> dict[int, Any]:
        """The tables the hand records print (those stored for the boards' current deals), read
        once for every file and round."""
        found = analysis_service.tables(self.event)
        return {number: table.to_json() for number, table in found.items()}

    def _deal_file(self) -> list[str]:
        # Only for deals loaded from a file, which the hand records and the summary name: the
        # digests of events dealt by Troef stay those their stored files have.
        if not loaders.imported(self.event):
            return []
        return [self.event.deal_file_name, self.event.deal_file_sha256]

    def _copies(self, n: int | None) -> Any:
        plays = ((row[0], row[3]) for row in self.links if n is None or row[0] == n)
        return sorted(loaders.copies_needed(plays).items())

    def _adjustments(self) -> Any:
        penalties = Penalty.objects.filter(
            event=self.event, is_active=True, board__isnull=False
        ).values_list("table__round__number", "table__number", "board__number", "points")
        byes = SitOutScore.objects.filter(event=self.event).values_list(
            "entry__number", "round_number", "award"
        )
        return {
            "penalties": sorted((r, t, b, _digest(points)) for r, t, b, points in penalties),
            "byes": sorted(byes),
        }

    def _progress(self) -> Any:
        tables: Counter[int] = Counter()
        byes: Counter[int] = Counter()
        for row in self.seatings:
            if row[2] == "N":
                tables[row[0]] += 1
            elif row[2] == Seating.Seat.BYE:
                byes[row[0]] += 1
        expected = Counter(row[0] for row in self.links)
        results = Counter(row[0] for row in self.results)
        statuses = Round.objects.filter(event=self.event).values_list("number", "status")
        progress = {
            "event": [self.event.status, self.event.rounds, self.event.boards_per_round],
            "rounds": sorted(
                (n, status, tables[n], byes[n], results[n], expected[n]) for n, status in statuses
            ),
            "players": len(self.entries),
            "withdrawn": sum(1 for row in self.entries if row[4] == Entry.Status.WITHDRAWN),
        }
        substitutes = sum(1 for row in self.entries if row[5] == Entry.Role.SUBSTITUTE)
        if substitutes:  # only then: the digest of an event without any stays what it was
            progress["substitutes"] = substitutes
        return progress

    # Each source, read once. Rows carry no database ids, only what is printed: boards and tables
    # made again with the same content (deals dealt again from the same key) give the same rows.

    @cached_property
    def seatings(self) -> list[tuple[Any, ...]]:
        """(round, table or 0 for a bye, seat, player number, first name, last name, club[, role]).

        A vacant seat has player number 0 and no name (it prints as an empty line). A substitute's
        row ends with their role, since they are printed marked as such; a player's row has no
        role, so that its digest is the one files made before substitutes existed have stored.
        """
        rows = Seating.objects.filter(round__event=self.event)
        rounds = self._rounds((SEATING, NAMES), (PROGRESS,))
        if rounds is not None:
            rows = rows.filter(round__number__in=rounds)
        out: list[tuple[Any, ...]] = []
        for r, t, seat, number, first, last, club, role in rows.values_list(
            "round__number",
            "table__number",
            "seat",
            "entry__number",
            "entry__player__first_name",
            "entry__player__last_name",
            "entry__player__club__name",
            "entry__role",
        ):
            row = (r, t or 0, seat, number or 0, first or "", last or "", club or "")
            out.append((*row, role) if role == Entry.Role.SUBSTITUTE else row)
        return out

    @cached_property
    def links(self) -> list[tuple[Any, ...]]:
        """(round, table, position, board, dealer): the boards each table plays, in order."""
        rows = TableBoard.objects.filter(table__round__event=self.event)
        rounds = self._rounds((SEATING, DEALS, COPIES, ANALYSIS), (COPIES, PROGRESS))
        if rounds is not None:
            rows = rows.filter(table__round__number__in=rounds)
        return list(
            rows.values_list(
                "table__round__number",
                "table__number",
                "position",
                "board__number",
                "board__dealer",
            )
        )

    @cached_property
    def boards(self) -> list[tuple[Any, ...]]:
        """(board, dealer, deal, turned-up card) of every board of the event."""
        return list(
            Board.objects.filter(event=self.event).values_list(
                "number", "dealer", "deal", "trump_card"
            )
        )

    @cached_property
    def results(self) -> list[tuple[Any, ...]]:
        """(round, table, board, kind, result line, N, E, S, W) of the current results.

        The result line is the canonical form of the stored result, so it stands for the result's
        data: a correction changes the line, the kind or the scores.
        """
        rows = Result.objects.filter(event=self.event, is_current=True)
        rounds = self._rounds((RESULTS,), (PROGRESS,))
        if rounds is not None:
            rows = rows.filter(table__round__number__in=rounds)
        return list(
            rows.values_list(
                "table__round__number",
                "table__number",
                "board__number",
                "kind",
                "notation",
                "score_n",
                "score_e",
                "score_s",
                "score_w",
            )
        )

    @cached_property
    def entries(self) -> list[tuple[Any, ...]]:
        """(player number, first name, last name, club, status, role) of every entry."""
        return list(
            Entry.objects.filter(event=self.event).values_list(
                "number",
                "player__first_name",
                "player__last_name",
                "player__club__name",
                "status",
                "role",
            )
        )
