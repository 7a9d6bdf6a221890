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

from engine.ruleset import ruleset_to_toml
from tournaments.errors import UserError
from tournaments.models import (
    Board,
    Entry,
    Event,
    Penalty,
    ReportFile,
    Result,
    Round,
    Seating,
    SitOutScore,
    TableBoard,
)
from tournaments.reports import loaders
from tournaments.services import events as event_service

VERSION = 1
"""How the digests are worked out; a fingerprint of another version cannot be compared."""

Kind = ReportFile.Kind

# Parts of the whole event.
EVENT = "event"  # name, date, venue (and the short name in the file's name): on every document
RULESET = "ruleset"  # game, ruleset and comparison: the score table, the method
DEALS = "deals"  # every board's deal and dealer, and the deals' commitment
COPIES = "copies"  # how many tables play each board at once: the copies to deal
KEY = "key"  # the deal key, once revealed at the end of the event
PLAYERS = "players"  # every entry: number, name, club, playing or withdrawn
STANDINGS = "standings"  # the standings as printed
ADJUSTMENTS = "adjustments"  # penalties on boards and the TD's scores for byes
PROGRESS = "progress"  # the summary's figures: rounds started, tables, byes, results, players
WHOLE = frozenset({EVENT, RULESET, DEALS, COPIES, KEY, PLAYERS, STANDINGS, ADJUSTMENTS, PROGRESS})

# Parts of one round, written "seating:3".
SEATING = "seating"  # who sits where, and which boards each table plays in which order
NAMES = "names"  # names and clubs of the players seated in the round
RESULTS = "results"  # the round's current results
PER_ROUND = frozenset({SEATING, NAMES, RESULTS, DEALS, COPIES})


def part(name: str, round_number: int | None = None) -> str:
    return name if round_number is None else f"{name}:{round_number}"


def parts_of(event: Event, kind: str, round_number: int | None) -> list[str]:
    """The parts of the event a document of ``kind`` (for ``round_number``, if any) is drawn from."""
    every = range(1, event.rounds + 1)
    scope = every if round_number is None else (round_number,)
    deals, copies = part(DEALS, round_number), part(COPIES, round_number)
    if kind == Kind.SCORE_SHEETS:
        assert round_number is not None
        sheets = [part(SEATING, round_number), part(NAMES, round_number)]
        return [EVENT, RULESET, *sheets, part(RESULTS, round_number)]
    if kind == Kind.ROUND_PACK:
        assert round_number is not None
        sheets = [part(SEATING, round_number), part(NAMES, round_number)]
        return [EVENT, RULESET, *sheets, part(RESULTS, round_number), deals, copies, KEY]
    if kind == Kind.HAND_RECORDS:
        return [EVENT, deals, KEY]
    if kind == Kind.DEALING_SLIPS:
        return [EVENT, deals, copies]
    if kind in (Kind.DEALING_MACHINE, Kind.PBN):
        return [EVENT, deals]
    if kind in (Kind.GUIDE_CARDS, Kind.TABLE_CARDS):  # guide cards: always the whole event
        return [EVENT, *(part(SEATING, n) for n in scope), *(part(NAMES, n) for n in scope)]
    if kind == Kind.STANDINGS:
        return [EVENT, STANDINGS]
    if kind == Kind.SCORE_CARDS:
        # The seating of a round that has started never changes (re-planning keeps it): the
        # results, the standings and the adjustments are what can change a player's card.
        results = (part(RESULTS, n) for n in every)
        return [EVENT, RULESET, PLAYERS, STANDINGS, ADJUSTMENTS, *results]
    if kind == Kind.SUMMARY:
        return [EVENT, RULESET, PROGRESS, DEALS, KEY, STANDINGS]
    raise ValueError(f"unknown document {kind!r}")


def take(event: Event, kind: str, round_number: int | None) -> dict[str, Any]:
    """The fingerprint to store with a document made now: call it where the renderer's data is read."""
    return {"version": VERSION, "parts": digests(event, parts_of(event, kind, round_number))}


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
    lines = []
    if EVENT in whole:
        lines.append(_("The event's name, date or venue changed after this file was made."))
    if RULESET in whole:
        lines.append(_("The event's game, ruleset or comparison changed after this file was made."))
    if DEALS in whole or rounds[DEALS]:
        lines.append(
            _("The deals changed after this file was made: make it again before printing.")
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
    if STANDINGS in whole:
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
        raise ValueError(f"unknown part {name}:{n}")

    def _whole(self, name: str) -> Any:
        event = self.event
        if name == EVENT:
            return [event.slug, event.name, event.date.isoformat(), event.venue]
        if name == RULESET:
            return [event.game, event.comparison, self._ruleset()]
        if name == DEALS:
            return self._deals(None)
        if name == COPIES:
            return self._copies(None)
        if name == KEY:
            return event.deal_key if event.deal_key_revealed_at else ""
        if name == PLAYERS:
            return sorted(self.entries)
        if name == STANDINGS:
            standings = loaders.standings_data(event)
            rows = [dataclasses.asdict(row) for row in standings.rows]
            return {"method": standings.method, "rounds": standings.rounds, "rows": rows}
        if name == ADJUSTMENTS:
            return self._adjustments()
        if name == PROGRESS:
            return self._progress()
        raise ValueError(f"unknown part {name}")

    def _ruleset(self) -> str:
        # The ruleset as a document in canonical form: the same before play and once frozen.
        try:
            return ruleset_to_toml(event_service.ruleset_of(self.event))
        except UserError:  # a broken custom document: no document can be made from it either
            return f"{self.event.ruleset_name}\n{self.event.ruleset_toml}"

    def _deals(self, numbers: set[int] | None) -> Any:
        boards = [row for row in self.boards if numbers is None or row[0] in numbers]
        return {"commitment": self.event.deal_commitment, "boards": sorted(boards)}

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
        return {
            "event": [self.event.status, self.event.rounds, self.event.boards_per_round],
            "rounds": sorted(
                (n, status, tables[n], byes[n], results[n], expected[n]) for n, status in statuses
            ),
            "players": len(self.entries),
            "withdrawn": sum(1 for row in self.entries if row[4] == Entry.Status.WITHDRAWN),
        }

    # Each source, read once. Rows carry no database ids, only what is printed: boards and tables
    # made again with the same content (deals dealt again from the same key) give the same rows.

    @cached_property
    def seatings(self) -> list[tuple[Any, ...]]:
        """(round, table or 0 for a bye, seat, player number, first name, last name, club)."""
        rows = Seating.objects.filter(round__event=self.event)
        rounds = self._rounds((SEATING, NAMES), (PROGRESS,))
        if rounds is not None:
            rows = rows.filter(round__number__in=rounds)
        return [
            (r, t or 0, seat, number, first, last, club or "")
            for r, t, seat, number, first, last, club in rows.values_list(
                "round__number",
                "table__number",
                "seat",
                "entry__number",
                "entry__player__first_name",
                "entry__player__last_name",
                "entry__player__club__name",
            )
        ]

    @cached_property
    def links(self) -> list[tuple[Any, ...]]:
        """(round, table, position, board, dealer): the boards each table plays, in order."""
        rows = TableBoard.objects.filter(table__round__event=self.event)
        rounds = self._rounds((SEATING, DEALS, COPIES), (COPIES, PROGRESS))
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
        """(player number, first name, last name, club, status) of every entry."""
        return [
            (number, first, last, club or "", status)
            for number, first, last, club, status in Entry.objects.filter(
                event=self.event
            ).values_list(
                "number", "player__first_name", "player__last_name", "player__club__name", "status"
            )
        ]
