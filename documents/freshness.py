"""Whether a stored document still matches its event, told from the event's audit log.

Every change a service makes to an event writes an audit entry. A document is built in one
snapshot of the database, and the build stores with the file the id of the newest entry of the
event that snapshot held (``take``). Later, the entries written since say what happened to the
event: the file is out of date when one of them changed something the document prints.

``CHANGES`` says what each action changes, as *topics* (the seating of a round, the deals, the
standings...), and ``PRINTS`` which topics each kind of document prints; ``explain`` turns the
topics that changed into sentences in the TD's words.

Two things keep the mark honest under concurrency. Entry ids come from a sequence, so on
PostgreSQL an entry may commit after the snapshot with an id below the newest one it held: the
build also stores how many of the event's entries that can change a document it saw, and a file
whose count has grown below its mark is out of date ("changes were saved while it was made").
And a blank score sheet (made before any result of its round) prints no results: the build notes
it, and results entered later leave it up to date.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Container, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from documents.models import ReportFile
from tournaments.models import AuditAction, AuditEntry, Event, Result

Kind = ReportFile.Kind
A = AuditAction

# --- topics: the parts of an event a document may print ---------------------------------------

# Of the whole event.
NAME = "name"  # the event's name: on every document
DATE = "date"  # the event's date: on every document but the dealing machine file
VENUE = "venue"  # in the headings of the sheets, standings, cards, summary and PBN
GAME = "game"  # the summary names it; the score cards' contracts are read by it
RULESET = "ruleset"  # the ruleset's title and score table: the sheets' back, the summary
COMPARISON = "comparison"  # matchpoints, raw totals or datum, as the summary names it
RANKING = "ranking"  # the comparison and tie-breaks as the standings apply them
DEALS = "deals"  # every board's deal, the commitment or the file the deals came from
KEY = "key"  # the deal key, printed once revealed at the end of the event
PLAYERS = "players"  # every entry: number, name, club, playing or withdrawn
STANDINGS = "standings"  # the standings as printed (the summary prints their leaders)
ADJUSTMENTS = "adjustments"  # penalties on boards and the TD's scores for byes
PROGRESS = "progress"  # the summary's figures: rounds, tables, byes, results, players
# Of one round ("seating:3"), or of every round when the entry does not say which.
SEATING = "seating"  # who sits where
NAMES = "names"  # names and clubs of the players seated
RESULTS = "results"  # the round's current results
TABLES = "tables"  # how many tables play each board: the copies to deal
BOARDS = "boards"  # which boards a round's tables play, when boards travel with the seating
DEVICES = "devices"  # the table devices' links and PINs on a round's table cards
ANALYSIS = "analysis"  # the double-dummy tables of the boards
# Of every document: the event restored from a backup after the file was made.
RESTORED = "restored"

PER_ROUND = frozenset({SEATING, NAMES, RESULTS, TABLES, BOARDS, DEVICES, ANALYSIS})
EVERYTHING = PER_ROUND | {
    NAME, DATE, VENUE, GAME, RULESET, COMPARISON, RANKING, DEALS, KEY, PLAYERS, STANDINGS,
    ADJUSTMENTS, PROGRESS,
}  # fmt: skip

ANALYSIS_DONE = AuditAction.ANALYSIS_DONE
"""The action of the entry written when a board's double-dummy table is stored."""

# --- what each action changes -----------------------------------------------------------------

EVERY = None  # the entry does not say its round: it concerns every round
LAST = 32767  # beyond any round: an event's number of rounds is a small integer

Rounds = Callable[[AuditEntry], Container[int] | None]
"""The rounds an entry names, from what its action's ``record`` call stores; ``EVERY`` if none."""


def _param(key: str) -> Rounds:
    """The round the entry's ``params[key]`` names."""

    def rounds(entry: AuditEntry) -> Container[int] | None:
        value = (entry.params or {}).get(key)
        return {value} if isinstance(value, int) else EVERY

    return rounds


def _data_rounds(entry: AuditEntry) -> Container[int] | None:
    value = (entry.data or {}).get("rounds")
    return {n for n in value if isinstance(n, int)} if isinstance(value, list) else EVERY


def _from_param(key: str, after: int = 0) -> Rounds:
    """Every round from the one ``params[key]`` names (plus ``after``) on."""

    def rounds(entry: AuditEntry) -> Container[int] | None:
        value = (entry.params or {}).get(key)
        return range(value + after, LAST) if isinstance(value, int) else EVERY

    return rounds


def _replanned(entry: AuditEntry) -> Container[int] | None:
    first, last = (entry.params or {}).get("first"), (entry.params or {}).get("last")
    if isinstance(first, int) and isinstance(last, int):
        return range(first, last + 1)
    return EVERY


def _withdrawn(entry: AuditEntry) -> Container[int] | None:
    data = entry.data or {}
    seats, byes = data.get("vacated"), data.get("byes")
    if not isinstance(seats, list) or not isinstance(byes, list):
        return EVERY
    vacated = {seat.get("round") for seat in seats if isinstance(seat, dict)}
    return {n for n in vacated | set(byes) if isinstance(n, int)}


def _every(entry: AuditEntry) -> Container[int] | None:
    return EVERY


@dataclass(frozen=True)
class Change:
    """What an action changes: topics of the whole event, and topics of the rounds it names."""

    whole: frozenset[str] = frozenset()
    per_round: frozenset[str] = frozenset()
    rounds: Rounds = _every


def change(*topics: str, rounds: Rounds = _every) -> Change:
    return Change(
        whole=frozenset(t for t in topics if t not in PER_ROUND),
        per_round=frozenset(t for t in topics if t in PER_ROUND),
        rounds=rounds,
    )


# Each group: its actions, one line on why, and what they change. Actions not listed (documents
# requested, confirmations and second keyings, points of a sheet noted, access, tokens, the
# analysis queued) change nothing a document prints: a result's status is not printed.
CHANGES: dict[str, Change] = {
    # A table's score on a board: its round's sheets, the score cards, the standings; a new one
    # adds to the summary's count of results (a correction does not).
    A.RESULT_RECORD: change(RESULTS, STANDINGS, PROGRESS, rounds=_param("round")),
    A.RESULT_ARTIFICIAL_TABLE: change(RESULTS, STANDINGS, PROGRESS, rounds=_param("round")),
    # The same, under the code older entries (restored from a backup) may carry.
    A.TABLE_ARTIFICIAL: change(RESULTS, STANDINGS, PROGRESS, rounds=_param("round")),
    A.RESULT_CORRECT: change(RESULTS, STANDINGS, rounds=_param("round")),
    # Penalties on boards and scores for byes are on the score cards; fines and a table sitting
    # out only move the totals.
    A.PENALTY_RECORD: change(ADJUSTMENTS, STANDINGS),
    A.PENALTY_CANCEL: change(ADJUSTMENTS, STANDINGS),
    A.BYE_SCORE: change(ADJUSTMENTS, STANDINGS),
    A.PENALTY_FINE: change(STANDINGS),
    A.TABLE_SIT_OUT: change(STANDINGS),
    # The movement seats the rounds it names (every round when generated): the seating, the
    # tables that play each board and, when boards travel, which boards a round plays.
    A.MOVEMENT_GENERATE: change(SEATING, TABLES, BOARDS, PROGRESS),
    A.MOVEMENT_REPLAN: change(SEATING, TABLES, BOARDS, PROGRESS, rounds=_replanned),
    # A player's seats in the rounds not yet started become vacant, or are given back; the
    # standings print a withdrawn player in grey.
    A.ENTRY_WITHDRAW: change(SEATING, PLAYERS, STANDINGS, PROGRESS, rounds=_withdrawn),
    A.ENTRY_REINSTATE: change(
        SEATING, PLAYERS, STANDINGS, PROGRESS, rounds=_from_param("round", after=1)
    ),
    # A late arrival takes a vacant seat or a bye from their first round on (an extra table is
    # told apart in ``changes_of``); a removed entry leaves the seats it took.
    A.ENTRY_LATE: change(SEATING, PLAYERS, STANDINGS, PROGRESS, rounds=_from_param("round")),
    A.ENTRY_REMOVE: change(SEATING, PLAYERS, STANDINGS, PROGRESS),
    # An absentee's seat prints as an empty line, a substitute's name marked as such.
    A.SEAT_ABSENT: change(SEATING, STANDINGS, rounds=_data_rounds),
    A.SEAT_ARRIVED: change(SEATING, STANDINGS, rounds=_data_rounds),
    A.SEAT_SUBSTITUTE: change(SEATING, PLAYERS, STANDINGS, PROGRESS, rounds=_data_rounds),
    # Before play: the movement is made again with its own entry (movement.generate).
    A.ENTRY_REGISTER: change(PLAYERS, STANDINGS, PROGRESS),
    A.ENTRY_IMPORT: change(PLAYERS, STANDINGS, PROGRESS),
    # A name or club: wherever the player is printed, in rounds the entry does not name.
    A.ENTRY_EDIT: change(NAMES, PLAYERS, STANDINGS),
    # Dealt or loaded again (the same deals again change nothing: ``changes_of``).
    A.DEALS_GENERATE: change(DEALS),
    A.DEALS_IMPORT: change(DEALS),
    # Rounds started, closed and reopened, and the event's state, are the summary's figures;
    # finishing reveals the deal key, which the hand records then print.
    A.ROUND_OPEN: change(PROGRESS),
    A.ROUND_CLOSE: change(PROGRESS),
    A.ROUND_CLOSE_ANYWAY: change(PROGRESS),
    A.ROUND_REOPEN: change(PROGRESS),
    A.EVENT_START: change(PROGRESS),
    A.EVENT_FINISH: change(PROGRESS, KEY),
    # The table cards of a round print each table's device link and PIN.
    A.ROUND_DEVICE_KEYS: change(DEVICES, rounds=_param("round")),
    A.ROUND_DEVICE_PINS: change(DEVICES, rounds=_param("round")),
    # A board's double-dummy table stored, for the rounds the entry names.
    ANALYSIS_DONE: change(ANALYSIS, rounds=_data_rounds),
    # The event's settings: by the fields changed (``SETTINGS``).
    A.EVENT_UPDATE: change(),
    # A restored backup is a whole event, with new device PINs and no double-dummy tables yet.
    A.EVENT_IMPORT: change(RESTORED),
}

SETTINGS: dict[str, Change] = {
    "name": change(NAME),
    "date": change(DATE),
    "venue": change(VENUE),
    # The ruleset fits the game: a new game comes with a new ruleset.
    "game": change(GAME, RULESET),
    "ruleset_name": change(RULESET),
    "ruleset_toml": change(RULESET),
    "scoring_table_version_id": change(RULESET),
    # The standings are ranked by them, the summary names the comparison.
    "comparison": change(COMPARISON, RANKING, STANDINGS),
    "tie_break": change(RANKING, STANDINGS),
    # Before play a new shape of the event takes away the movement and the deals.
    "rounds": change(SEATING, TABLES, BOARDS, DEALS, PROGRESS),
    "boards_per_round": change(SEATING, TABLES, BOARDS, DEALS, PROGRESS),
    "board_mode": change(SEATING, TABLES, BOARDS, DEALS),
    "seating_mode": change(SEATING, TABLES, BOARDS, DEALS),
}
"""What a change of each of the event's settings (``event.update``'s ``data["changes"]``) changes.
The others (the language of documents, the all-pass rule...) are printed nowhere."""

RELEVANT = frozenset(CHANGES)
"""The actions that can make a document out of date: the only entries ``check`` reads.

A file stores how many of its event's entries of these actions its build saw: an action placed in
``CHANGES`` later makes every file made before it count more such entries than it saw, and so
shows those files as out of date ("changes were saved while this file was being made")."""

DEALT = (A.DEALS_GENERATE, A.DEALS_IMPORT)

# --- what each kind of document prints --------------------------------------------------------

_HEADING = (NAME, DATE, VENUE)
_SHEETS = (*_HEADING, RULESET, SEATING, NAMES, RESULTS)

PRINTS: dict[str, frozenset[str]] = {
    Kind.SCORE_SHEETS: frozenset(_SHEETS),
    # With the sheets: the table cards (PINs), hand records and dealing slips of the round.
    Kind.ROUND_PACK: frozenset({*_SHEETS, DEVICES, DEALS, TABLES, BOARDS, KEY, ANALYSIS}),
    Kind.HAND_RECORDS: frozenset({NAME, DATE, DEALS, BOARDS, KEY, ANALYSIS}),
    Kind.DEALING_SLIPS: frozenset({NAME, DATE, DEALS, BOARDS, TABLES}),
    Kind.DEALING_MACHINE: frozenset({NAME, DEALS, BOARDS}),  # its headline is the event's name
    Kind.PBN: frozenset({*_HEADING, DEALS, BOARDS}),  # the Event, Site and Date tags
    Kind.GUIDE_CARDS: frozenset({NAME, DATE, SEATING, NAMES}),
    Kind.TABLE_CARDS: frozenset({NAME, DATE, SEATING, NAMES, DEVICES}),
    Kind.STANDINGS: frozenset({*_HEADING, RANKING, STANDINGS}),
    # A started round's seating never changes: results, standings and adjustments do. The game
    # says how a result line splits into declarers, contract and tricks.
    Kind.SCORE_CARDS: frozenset(
        {*_HEADING, GAME, PLAYERS, RANKING, STANDINGS, ADJUSTMENTS, RESULTS}
    ),
    Kind.SUMMARY: frozenset(
        {*_HEADING, GAME, RULESET, COMPARISON, PROGRESS, DEALS, KEY, STANDINGS}
    ),
}
PRINTS = {kind: topics | {RESTORED} for kind, topics in PRINTS.items()}
"""The topics each kind of document prints: a change to anything else leaves it up to date."""

FILLED_IN = frozenset({Kind.SCORE_SHEETS, Kind.ROUND_PACK})
"""Kinds that print their round's results once there are some (the score sheets)."""

ONE_ROUND = frozenset({DEVICES})
"""Topics printed only by a document of one round: the whole event's table cards print no PIN."""


def topics_of(event: Event, kind: str, round_number: int | None) -> frozenset[str]:
    """What a document of ``kind`` prints, for this event."""
    topics = PRINTS[kind]
    if event.board_mode != Event.BoardMode.TRAVELLING or round_number is None:
        # Which boards a round plays follows the seating only when boards travel; the whole
        # event's documents print every board whoever plays it.
        topics -= {BOARDS}
    if round_number is None:
        topics -= ONE_ROUND
    return topics


# --- the mark taken with a file ---------------------------------------------------------------


def take(event: Event, kind: str, round_number: int | None) -> dict[str, Any]:
    """The mark to store with a document made now (``ReportFile`` fields): call it in the
    snapshot the renderer's data is read in."""
    seen = AuditEntry.objects.filter(event=event).aggregate(
        mark=Max("id"), count=Count("id", filter=Q(action__in=RELEVANT))
    )
    printed = True
    if kind in FILLED_IN and round_number is not None:
        printed = Result.objects.filter(
            event=event, is_current=True, table__round__number=round_number
        ).exists()
    return {
        "audit_mark": seen["mark"] or 0,
        "audit_count": seen["count"],
        "printed_results": printed,
    }


# --- how a stored file compares with the event now ------------------------------------------

CURRENT = "current"
OUT_OF_DATE = "out_of_date"
UNKNOWN = "unknown"

LATE = "late"  # entries below the mark committed after the file's snapshot


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

    Files being made, or that failed, have no entry. The whole list costs two queries: the
    entries after the oldest mark (with the event's deals entries), and a count below it.
    """
    done = [report for report in reports if report.status == ReportFile.Status.DONE]
    marked = [report for report in done if report.audit_mark is not None]
    out = {report.pk: Freshness(UNKNOWN) for report in done if report.audit_mark is None}
    if not marked:
        return out
    log = _Log(event, min(report.audit_mark or 0 for report in marked))
    for report in marked:
        changed = log.changed_for(report)
        out[report.pk] = (
            Freshness(OUT_OF_DATE, tuple(explain(changed))) if changed else Freshness(CURRENT)
        )
    return out


@dataclass(frozen=True)
class _Read:
    """One entry as ``check`` uses it: what it changed, worked out once for every file."""

    entry: AuditEntry
    whole: frozenset[str]
    per_round: tuple[tuple[str, Container[int] | None], ...]  # (topic, its rounds or EVERY)


class _Log:
    """The event's entries that can change a document, from ``low`` on, read once for every file."""

    def __init__(self, event: Event, low: int) -> None:
        self.event = event
        rows = (
            AuditEntry.objects.filter(event=event, action__in=RELEVANT)
            .filter(Q(id__gt=low) | Q(action__in=DEALT))
            .order_by("id")
            .only("id", "action", "params", "data")
        )
        entries = list(rows)
        self.after = [_read(event, entry) for entry in entries if entry.id > low]
        self.dealt = [entry for entry in entries if entry.action in DEALT]
        self.below = AuditEntry.objects.filter(
            event=event, action__in=RELEVANT, id__lte=low
        ).count()
        self.rounds = range(1, event.rounds + 1)

    def changed_for(self, report: ReportFile) -> set[str]:
        """The topics (``seating:3``) the file prints that changed after its mark."""
        mark = report.audit_mark or 0
        topics = topics_of(self.event, report.kind, report.round_number)
        if report.kind in FILLED_IN and not report.printed_results:
            topics -= {RESULTS}  # a blank sheet: the first results leave it as it is
        scope = self.rounds if report.round_number is None else (report.round_number,)
        deals = _identity(self._dealt_before(mark))
        changed: set[str] = set()
        for read in self.after:
            if read.entry.id <= mark:
                continue
            if read.entry.action in DEALT:
                if _identity(read.entry) == deals:
                    continue  # dealt again with the same deals
                deals = _identity(read.entry)
            changed |= read.whole & topics
            for topic, rounds in read.per_round:
                if topic in topics:
                    changed.update(f"{topic}:{n}" for n in scope if rounds is EVERY or n in rounds)
        seen = self.below + sum(1 for read in self.after if read.entry.id <= mark)
        if report.audit_count is not None and seen > report.audit_count:
            changed.add(LATE)
        return changed

    def _dealt_before(self, mark: int) -> AuditEntry | None:
        before = [entry for entry in self.dealt if entry.id <= mark]
        return before[-1] if before else None


def _read(event: Event, entry: AuditEntry) -> _Read:
    found = changes_of(event, entry)
    whole = frozenset().union(*(change.whole for change in found))
    per_round = tuple(
        (topic, change.rounds(entry)) for change in found for topic in change.per_round
    )
    return _Read(entry, whole, per_round)


def changes_of(event: Event, entry: AuditEntry) -> list[Change]:
    """What one entry changed: its action's ``Change``, told apart by what the entry says."""
    data = entry.data or {}
    if entry.action == A.EVENT_UPDATE:
        fields = data.get("changes")
        if not isinstance(fields, dict):
            return list(SETTINGS.values())  # an entry that does not say which: any of them
        return [SETTINGS[name] for name in fields if name in SETTINGS]
    if entry.action == A.EVENT_FINISH and not event.deal_key_revealed_at:
        return [change(PROGRESS)]  # imported deals: no key to reveal
    found = [CHANGES[entry.action]]
    if entry.action == A.ENTRY_LATE and data.get("how") == "extra_table":
        found.append(change(TABLES, BOARDS, rounds=_from_param("round")))
    return found


def _identity(entry: AuditEntry | None) -> Any:
    """The deals an entry dealt (their commitment, or their file), to tell them apart."""
    if entry is None:
        return None
    data = entry.data or {}
    return (
        entry.action,
        data.get("commitment"),
        data.get("file"),
        data.get("sha256"),
        data.get("boards"),
    )


# --- in the TD's words ------------------------------------------------------------------------


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
    if RESTORED in whole:
        # The whole event is a copy: one sentence says all there is.
        return [_("The event was restored from a backup after this file was made: make it again.")]
    lines = _event_changes(whole, rounds)
    lines += _seating_changes(rounds)
    lines += _play_changes(whole, rounds)
    if LATE in whole:
        lines.append(
            _(
                "Changes were saved while this file was being made: make it again to be sure it "
                "shows them."
            )
        )
    return lines


def _event_changes(whole: set[str], rounds: dict[str, list[int]]) -> list[str]:
    """The sentences for the event's settings, deals, key and double-dummy tables."""
    lines = []
    if whole & {NAME, DATE, VENUE}:
        lines.append(_("The event's name, date or venue changed after this file was made."))
    if whole & {GAME, RULESET, COMPARISON}:
        lines.append(_("The event's game, ruleset or comparison changed after this file was made."))
    dealt_again = DEALS in whole
    if dealt_again:
        lines.append(
            _("The deals changed after this file was made: make it again before printing.")
        )
    # Dealt again, the tables of the old deals are gone: the deals' sentence says all there is.
    if rounds[ANALYSIS] and not dealt_again:
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
    return lines


def _seating_changes(rounds: dict[str, list[int]]) -> list[str]:
    """The sentences for the seating, the boards and tables of the rounds, and the PINs."""
    lines = []
    if rounds[SEATING]:
        numbers = sorted(rounds[SEATING])
        lines.append(
            ngettext(
                "The seating of round %(rounds)s changed after this file was made (a re-planning, "
                "a late arrival, a withdrawal, a no-show or a substitute): make it again before "
                "printing.",
                "The seating of rounds %(rounds)s changed after this file was made (a "
                "re-planning, a late arrival, a withdrawal, a no-show or a substitute): make it "
                "again before printing.",
                len(numbers),
            )
            % {"rounds": _numbers(numbers)}
        )
    if rounds[BOARDS]:
        numbers = sorted(rounds[BOARDS])
        lines.append(
            ngettext(
                "The boards played in round %(rounds)s may have changed with the seating after "
                "this file was made: make it again before printing.",
                "The boards played in rounds %(rounds)s may have changed with the seating after "
                "this file was made: make it again before printing.",
                len(numbers),
            )
            % {"rounds": _numbers(numbers)}
        )
    if rounds[TABLES]:
        lines.append(
            _(
                "The number of tables that play each board may have changed after this file was "
                "made, and with it the number of copies to deal."
            )
        )
    if rounds[DEVICES]:
        lines.append(
            _(
                "Table device links or PINs were made anew after this file was made: make it "
                "again before printing the table cards."
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
    if whole & {STANDINGS, RANKING}:
        lines.append(_("The standings changed after this file was made."))
    return lines


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)
