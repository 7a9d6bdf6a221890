"""Recording results: every entry and correction is a new version; nothing is overwritten.

Two people may key the same table's board at the same moment (two TDs, or a TD and a table device).
The current version's row is locked while a new one is written, and a writer who keyed against an
older version than the current one is told instead of silently overwriting it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.engine_text import contract_name, error_message, problem_message
from tournaments.errors import ConflictError, NotAllowedError, UserError
from tournaments.game import (
    SEATS,
    AnyResult,
    BoardResult,
    Card,
    Contract,
    Deal,
    EngineError,
    ParseError,
    RondePasGame,
    RondePasResult,
    Seat,
    adjudication,
    format_result_line,
    game_for_all_pass,
    parse_result_line,
    result_from_json,
    score,
)
from tournaments.models import AuditAction, Board, Event, Result, Round, Table, TableBoard
from tournaments.result_words import award_in_words
from tournaments.services import audit, events, jobs
from tournaments.services.audit import Actor

# Contracts rare enough that a typing slip is likelier than the real thing: keyed twice on purpose.
SUSPICIOUS_CONTRACTS = frozenset(
    {Contract.SOLO_SLIM, Contract.OPEN_MISERE, Contract.SMALL_SOLO_SLIM}
)


@dataclass
class Checked:
    """A parsed, validated and scored result, with the warnings that need a confirmation."""

    result: AnyResult
    scores: tuple[int, int, int, int]
    notation: str
    warnings: list[str] = field(default_factory=list)


def check(event: Event, board: Board, text: str, *, reveal_cards: bool = True) -> Checked:
    """Parse, validate against the ruleset and the deal, and score a result line.

    Raises ``UserError`` naming the problem; returns the scores and any warnings otherwise.
    ``reveal_cards=False`` (for whoever may not see the deal yet: players at a table device, an
    assistant) words the checks against the deal without naming any card or hand.
    """
    ruleset = events.ruleset_of(event)
    try:
        result = parse_result_line(text, game=ruleset.game)
    except ParseError as exc:
        # Every language keeps the column where the line went wrong (the templates name it).
        raise UserError(error_message(exc), code="notation", field="notation") from exc
    return check_result(event, board, result, reveal_cards=reveal_cards)


def check_result(
    event: Event, board: Board, result: AnyResult, *, reveal_cards: bool = True
) -> Checked:
    ruleset = events.ruleset_of(event)
    if isinstance(result, BoardResult) and result.after_all_pass and not event.use_all_pass_rule:
        raise UserError(
            _("This event does not apply the all-pass rule: remove the all-pass flag."),
            code="all_pass_off",
            field="notation",
        )
    try:
        scores = score(ruleset, result)
    except EngineError as exc:
        raise UserError(
            error_message(exc), code="invalid_result", field=getattr(exc, "field", None)
        ) from exc
    deal = _deal(board.deal)
    warnings: list[str] = []
    turned = Card.parse(board.trump_card) if board.trump_card else None
    problems = adjudication.adjudicate(
        ruleset, result, deal, dealer=Seat[board.dealer], turned_card=turned
    )
    for problem in problems:
        if problem.severity == "impossible":
            raise UserError(
                problem_message(problem) if reveal_cards else _(_HIDDEN_IMPOSSIBLE),
                code=problem.code,
                field=problem.field,
            )
        warnings.append(problem_message(problem) if reveal_cards else _(_HIDDEN_UNUSUAL))
    if result.contract in SUSPICIOUS_CONTRACTS:
        warnings.append(
            _("A %(contract)s is rare: confirm that the sheet says so.")
            % {"contract": contract_name(result.contract)}
        )
    return Checked(result, scores, format_result_line(result), list(dict.fromkeys(warnings)))


@lru_cache(maxsize=1024)
def _deal(pbn: str) -> Deal:
    """A deal parsed from its PBN text; kept, since every table's keying checks against it."""
    return Deal.from_pbn(pbn)


# What the checks against the deal say to whoever may not see the cards before the round closes.
_HIDDEN_IMPOSSIBLE = gettext_noop(
    "This result cannot happen with the cards dealt on this board: check the line with the sheet."
)
_HIDDEN_UNUSUAL = gettext_noop(
    "This result is unusual for the cards dealt on this board: check it and confirm."
)


RONDE_PAS_GAME_NAMES = {
    RondePasGame.LAST_TRICK: gettext_noop("lose the last trick"),
    RondePasGame.QUEENS: gettext_noop("no queens"),
    RondePasGame.FEWEST_TRICKS: gettext_noop("fewest tricks"),
}


def expected_ronde_pas_game(event: Event, table: Table, board: Board) -> RondePasGame | None:
    """The Ronde Pas game an all-passed ``board`` plays at ``table``, as the event chose.

    The same game at every table: board n plays the n-th game of the rotation. In turn at each
    table: the table's k-th all-passed board of the round plays the k-th game, counted over the
    boards it played before this one; ``None`` while one of those has no result yet (the count
    is not known).
    """
    if event.ronde_pas_games == Event.RondePasGames.BY_BOARD:
        return game_for_all_pass(board.number)
    position = (
        TableBoard.objects.filter(table=table, board=board).values_list("position", flat=True).get()
    )
    earlier = list(
        TableBoard.objects.filter(table=table, position__lt=position).values_list(
            "board_id", flat=True
        )
    )
    results = Result.objects.filter(table=table, board_id__in=earlier, is_current=True)
    if results.count() < len(earlier):
        return None
    passed = sum(1 for data in results.values_list("data", flat=True) if _is_ronde_pas(data))
    return game_for_all_pass(passed + 1)


def _is_ronde_pas(data: Any) -> bool:
    return isinstance(data, dict) and data.get("contract") == Contract.RONDE_PAS.value


def check_ronde_pas_game(event: Event, table: Table, board: Board, result: AnyResult) -> None:
    """Refuse a Ronde Pas result whose game is not the one this board plays at this table."""
    if not isinstance(result, RondePasResult):
        return
    expected = expected_ronde_pas_game(event, table, board)
    if expected is not None and result.game is not expected:
        raise UserError(
            _("Board %(b)s at table %(t)s plays the Ronde Pas game “%(game)s”, not “%(keyed)s”.")
            % {
                "b": board.number,
                "t": table.number,
                "game": _(RONDE_PAS_GAME_NAMES[expected]),
                "keyed": _(RONDE_PAS_GAME_NAMES[result.game]),
            },
            code="ronde_pas_game",
            field="notation",
        )


def _lock_board(table_id: int, board_id: int) -> bool:
    """One writer at a time on a table's board, taken before any of its versions is locked.

    Results of one round are saved side by side (the round is only locked for share), so two
    writers of the same board queue here, always in the same order of locks: round, then the
    table's board, then its versions. False when the table does not play the board.
    """
    # Without the model's ordering there is no join: only the table's board row is locked.
    return bool(
        TableBoard.objects.select_for_update(of=("self",))
        .filter(table_id=table_id, board_id=board_id)
        .order_by()
        .values_list("pk", flat=True)
    )


def _lock_current(table: Table, board: Board, *, board_locked: bool = False) -> Result | None:
    """The current version, locked. A writer that waited for the lock finds the row it waited on
    no longer current (PostgreSQL re-checks the condition): it locks the new current one.
    ``board_locked``: this transaction holds the table's board already (``check_board_at_table``).
    """
    if not board_locked:
        _lock_board(table.pk, board.pk)
    current = None
    for _attempt in range(3):
        current = (
            Result.objects.select_for_update(of=("self",))
            .filter(table=table, board=board, is_current=True)
            .first()
        )
        if current is not None or not _has_current(table, board):
            return current
    return current


def _has_current(table: Table, board: Board) -> bool:
    return Result.objects.filter(table=table, board=board, is_current=True).exists()


REASON_LENGTH = 300


def check_reason(reason: str) -> str:
    """A reason as stored with a version or a penalty: at most 300 characters."""
    reason = reason.strip()
    if len(reason) > REASON_LENGTH:
        raise UserError(
            _("Keep the reason under %(n)s characters.") % {"n": REASON_LENGTH},
            code="too_long",
            field="reason",
        )
    return reason


# The round's status, locked for share, and the table's ruling read under that lock, in one trip.
_ROUND_STATUS_FOR_SHARE = (
    f"SELECT r.status, t.ruling FROM {Round._meta.db_table} r"
    f" JOIN {Table._meta.db_table} t ON t.round_id = r.id"
    " WHERE t.id = %s FOR SHARE OF r"
)


def _check_open(table: Table) -> str:
    """Refuse a result for a round that is not in play; else the table's ruling, as it is now.

    The round's row is locked for share: results of one round are saved side by side, while
    closing the round (which locks it for update) waits for them, and they for it, so a result
    never slips into a round that is being closed. A ruling locks the round too, so the ruling
    read here stands until the save commits.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_ROUND_STATUS_FOR_SHARE, [table.pk])
            status, ruling = cursor.fetchone()
    else:  # SQLite has one writer at a time: the write itself is the lock
        status, ruling = Table.objects.values_list("round__status", "ruling").get(pk=table.pk)
    if status != Round.Status.OPEN:
        raise UserError(
            _("Round %(n)s is not in play: start or reopen it first.") % {"n": table.round.number},
            code="round_not_open",
        )
    return str(ruling)


@transaction.atomic
def record_result(
    actor: Actor,
    table: Table,
    board: Board,
    text: str,
    *,
    expected_version: int | None = None,
    confirmed: bool = False,
    reason: str = "",
    sheet: Any = None,
    submission: Any = "",
    source: str = Result.Source.PAPER,
    seat: str = "",
    reveal_cards: bool = True,
) -> Result:
    """Record a board's result at a table, or correct it (a new version; the old one is kept).

    ``expected_version`` is the version the person saw when keying (0 for "none yet"); if someone
    else has recorded a newer one since, nothing is written and ``ConflictError`` says so. A
    correction must say which version it corrects: without ``expected_version`` it is refused.
    ``confirmed`` acknowledges the warnings of a suspicious result. ``sheet`` holds the points
    written on the paper sheet (``{"N": 8, ...}``), when they were typed: a difference from
    Troef's scores stays open until the TD accepts Troef's figure or corrects the line.
    ``submission`` is the keying device's own key for this save: sent again (its answer was lost
    on the way), it gets the version that submission stored, not a conflict or a second version.

    ``source`` says where the line was keyed: from the paper sheet, at the table (``seat`` is who
    keyed it) or by an API client. A board keyed at the table and from the paper sheet is keyed
    twice: the second keying confirms the first when they agree; when they differ, the first
    stands and the second is kept beside it (``other_keying``) until the TD corrects or keeps it.
    """
    reason = check_reason(reason)
    written = check_sheet(sheet)
    submission = check_submission(submission)
    source = check_source(source)
    seat = check_seat(seat, required=source == Result.Source.DEVICE)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    check_board_at_table(table, board)
    checked = check(event, board, text, reveal_cards=reveal_cards)
    check_ronde_pas_game(event, table, board, checked.result)
    if checked.warnings and not confirmed:
        raise UserError(" ".join(checked.warnings), code="needs_confirmation", field="notation")
    current = _lock_current(table, board, board_locked=True)
    # Every version's number and submission key in one read: a resent submission is answered
    # with what it stored, and the next version's number follows the highest.
    versions = dict(
        Result.objects.filter(table=table, board=board).values_list("version", "submission")
    )
    if submission and submission in versions.values():
        sent = Result.objects.filter(table=table, board=board, submission=submission).first()
        if sent is not None:
            return sent
    if _is_second_keying(current, source, reason):
        assert current is not None
        return _second_keying(actor, event, current, checked.notation, source, seat, written)
    current_version = current.version if current else 0
    if expected_version is not None and expected_version != current_version:
        raise ConflictError(
            _(
                "Board %(b)s at table %(t)s was changed meanwhile (now: %(now)s). Check it and key again."
            )
            % {"b": board.number, "t": table.number, "now": current.notation if current else "—"},
            field="notation",
            current={
                "version": current_version,
                "notation": current.notation if current else "",
            },
        )
    if (
        source == Result.Source.DEVICE
        and current is not None
        and current.notation != checked.notation
        and not (
            current.source == Result.Source.DEVICE
            and current.kind == Result.Kind.PLAYED
            and current.status == Result.Status.ENTERED
        )
    ):
        raise NotAllowedError(
            _(
                "Board %(b)s at table %(t)s was decided or checked by the tournament director: "
                "ask the TD to change it."
            )
            % {"b": board.number, "t": table.number}
        )
    if (
        current is not None
        and current.notation == checked.notation
        and current.kind == Result.Kind.PLAYED
    ):
        # The same result keyed again: nothing changes, nothing is counted twice; points from the
        # sheet typed only now are noted with it.
        return _note_sheet(actor, event, current, written)
    if current is not None and expected_version is None:
        raise UserError(
            _(
                "Board %(b)s at table %(t)s already has a result (version %(v)s): a correction "
                "must say which version it corrects."
            )
            % {"b": board.number, "t": table.number, "v": current.version},
            code="version_required",
            field="version",
            params={"version": current.version, "notation": current.notation},
        )
    if current is not None and not reason.strip():
        raise UserError(
            _("Board %(b)s at table %(t)s already has a result: give a reason for the correction.")
            % {"b": board.number, "t": table.number},
            code="reason_required",
            field="reason",
        )
    # A correction is compared with the sheet as it was typed before, unless typed again: a
    # correction that now agrees with the sheet closes the difference.
    if not written and current is not None:
        written = {seat: int(value) for seat, value in current.sheet.items()}
    status = sheet_status(checked.scores, written)
    if (
        status == Result.SheetStatus.OPEN
        and current is not None
        and current.sheet_status == Result.SheetStatus.ACCEPTED
        and current.scores == checked.scores
        and current.sheet == written
    ):
        status = Result.SheetStatus.ACCEPTED  # the TD already accepted Troef's figure for these
    return _write(
        actor,
        event,
        table,
        board,
        current,
        checked.notation,
        checked.result.to_json(),
        checked.scores,
        reason,
        Result.Kind.PLAYED,
        sheet=written,
        status=status,
        submission=submission,
        source=source,
        seat=seat,
        version=max(versions, default=0) + 1,
    )


def check_source(source: Any) -> str:
    if source not in Result.Source.values:
        raise UserError(_("Unknown source of a result."), code="bad_request", field="source")
    return str(source)


def check_seat(seat: Any, *, required: bool = False) -> str:
    """A seat letter (N, E, S or W), or none when not ``required``."""
    if seat in (None, "") and not required:
        return ""
    if not isinstance(seat, str) or seat not in ("N", "E", "S", "W"):
        raise UserError(_("Choose a seat: N, E, S or W."), code="bad_seat", field="seat")
    return seat


_KEYED_TWICE = {
    frozenset({Result.Source.PAPER, Result.Source.DEVICE}),
    frozenset({Result.Source.API, Result.Source.DEVICE}),
}


def _is_second_keying(current: Result | None, source: str, reason: str) -> bool:
    """A line keyed from the other side (table or sheet) of a result not yet checked by a second
    keying; a line with a reason is a correction instead."""
    return (
        current is not None
        and not reason.strip()
        and current.kind == Result.Kind.PLAYED
        and current.status == Result.Status.ENTERED
        and frozenset({current.source, source}) in _KEYED_TWICE
    )


def _second_keying(
    actor: Actor,
    event: Event,
    current: Result,
    notation: str,
    source: str,
    seat: str,
    written: dict[str, int],
) -> Result:
    where = {
        "round": current.table.round.number,
        "table": current.table.number,
        "board": current.board.number,
    }
    if notation == current.notation:
        current.status = Result.Status.CONFIRMED
        current.other_keying = ""
        current.other_keying_source = ""
        current.save(update_fields=["status", "other_keying", "other_keying_source"])
        audit.record(
            actor,
            AuditAction.RESULT_CONFIRM,
            "",
            message=gettext_noop("board %(board)s table %(table)s confirmed: %(notation)s"),
            params={**where, "notation": notation},
            event=event,
            obj=current,
            data={"source": source, "seat": seat},
        )
        return _note_sheet(actor, event, current, written)
    if current.other_keying != notation or current.other_keying_source != source:
        current.other_keying = notation
        current.other_keying_source = source
        current.save(update_fields=["other_keying", "other_keying_source"])
        audit.record(
            actor,
            AuditAction.RESULT_KEYING_DIFFERS,
            "",
            message=gettext_noop(
                "round %(round)s table %(table)s board %(board)s keyed twice: %(notation)s and "
                "%(other)s"
            ),
            params={**where, "notation": current.notation, "other": notation},
            event=event,
            obj=current,
            data={"source": source, "seat": seat},
        )
    return current


@transaction.atomic
def keep_keying(actor: Actor, result: Result, reason: str = "", *, version: int) -> Result:
    """The TD checked a board keyed twice with two results: the current one stands, confirmed."""
    reason = check_reason(reason)
    result = _locked_current_version(result, version)
    if not result.other_keying:
        return result
    other = result.other_keying
    result.other_keying = ""
    result.other_keying_source = ""
    result.status = Result.Status.CONFIRMED
    result.save(update_fields=["other_keying", "other_keying_source", "status"])
    audit.record(
        actor,
        AuditAction.RESULT_KEEP_KEYING,
        "",
        event=result.event,
        obj=result,
        reason=reason,
        message=gettext_noop(
            "round %(round)s table %(table)s board %(board)s: %(notation)s kept over %(other)s"
        ),
        params={
            "round": result.table.round.number,
            "table": result.table.number,
            "board": result.board.number,
            "notation": result.notation,
            "other": other,
        },
    )
    return result


def _locked_current_version(result: Result, version: int | None) -> Result:
    """``result`` locked, if it is still the current version and the one the caller saw."""
    _lock_board(result.table_id, result.board_id)
    result = (
        Result.objects.select_for_update(of=("self",))
        .select_related("table__round", "board", "event")
        .get(pk=result.pk)
    )
    if not result.is_current or (version is not None and version != result.version):
        current = (
            Result.objects.filter(table=result.table, board=result.board, is_current=True)
            .only("version", "notation")
            .first()
        )
        raise ConflictError(
            _("Board %(b)s at table %(t)s was corrected meanwhile: look at it again.")
            % {"b": result.board.number, "t": result.table.number},
            current={
                "version": current.version if current else 0,
                "notation": current.notation if current else "",
            },
        )
    return result


@transaction.atomic
def confirm_at_table(
    actor: Actor, table: Table, board: Board, seat: str, *, version: int
) -> Result:
    """An opponent at the table confirms the result keyed there, by their seat.

    The player who keyed the result cannot confirm it; the seat must be taken at the table.
    Confirming again changes nothing.
    """
    seat = check_seat(seat, required=True)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    check_board_at_table(table, board)
    current = _lock_current(table, board, board_locked=True)
    if current is None:
        raise UserError(
            _("Board %(b)s at table %(t)s has no result to confirm yet.")
            % {"b": board.number, "t": table.number},
            code="nothing_to_confirm",
            field="board",
        )
    current = _locked_current_version(current, version)
    if current.table_confirmed_by:
        return current
    if seat == current.keyed_at_seat:
        raise UserError(
            _("The player who keyed the result cannot confirm it: an opponent confirms."),
            code="own_confirmation",
            field="seat",
        )
    if not table.seatings.filter(seat=seat).exclude(entry=None).exists():
        raise UserError(
            _("Nobody sits at %(seat)s at this table.") % {"seat": seat},
            code="bad_seat",
            field="seat",
        )
    current.table_confirmed_by = seat
    current.table_confirmed_at = timezone.now()
    current.save(update_fields=["table_confirmed_by", "table_confirmed_at"])
    audit.record(
        actor,
        AuditAction.RESULT_CONFIRM_AT_TABLE,
        "",
        event=event,
        obj=current,
        message=gettext_noop(
            "round %(round)s table %(table)s board %(board)s: %(notation)s confirmed at the table "
            "by %(seat)s"
        ),
        params={
            "round": table.round.number,
            "table": table.number,
            "board": board.number,
            "notation": current.notation,
            "seat": seat,
        },
    )
    return current


SUBMISSION = re.compile(r"[A-Za-z0-9_-]{8,64}")


def check_submission(submission: Any) -> str:
    """A keying device's key for one save: 8 to 64 letters, digits, ``-`` or ``_``, or none."""
    if submission in (None, ""):
        return ""
    if not isinstance(submission, str) or not SUBMISSION.fullmatch(submission):
        raise UserError(
            _("The submission key must be 8 to 64 letters, digits, hyphens or underscores."),
            code="bad_submission",
            field="submission",
        )
    return submission


def check_board_at_table(table: Table, board: Board) -> None:
    """The round is in play and the table plays the board in it; else a ``UserError`` says which."""
    # Read under the round's lock, which a ruling takes too: a table ruled to sit out expects no
    # result, and one keyed there would silently count for nothing.
    if _check_open(table) == Table.Ruling.SIT_OUT:
        raise UserError(
            _("Table %(t)s sits out round %(r)s: no results are kept for it.")
            % {"t": table.number, "r": table.round.number},
            code="table_sits_out",
            field="table",
        )
    if not _lock_board(table.pk, board.pk):
        raise UserError(
            _("Table %(t)s does not play board %(b)s in round %(r)s.")
            % {"t": table.number, "b": board.number, "r": table.round.number},
            code="wrong_board",
            field="board",
        )


def write_version(
    actor: Actor,
    table: Table,
    board: Board,
    *,
    kind: str,
    notation: str,
    data: dict[str, Any],
    scores: tuple[int, int, int, int],
    reason: str,
    log: bool = True,
) -> Result:
    """Add a new current version of a table's result on a board, keeping the old one.

    ``log=False`` leaves the audit entry to the caller, for an action that writes many versions
    at once and logs them as one.
    """
    current = _lock_current(table, board)
    return _write(
        actor,
        table.round.event,
        table,
        board,
        current,
        notation,
        data,
        scores,
        reason,
        kind,
        log=log,
    )


def _write(
    actor: Actor,
    event: Event,
    table: Table,
    board: Board,
    current: Result | None,
    notation: str,
    data: dict[str, Any],
    scores: tuple[int, int, int, int],
    reason: str,
    kind: str,
    *,
    sheet: dict[str, int] | None = None,
    status: str = "",
    log: bool = True,
    submission: str = "",
    source: str = Result.Source.PAPER,
    seat: str = "",
    version: int | None = None,
) -> Result:
    """Store ``version`` (by default the one after the highest) as the current version."""
    if version is None:
        top = Result.objects.filter(table=table, board=board).aggregate(top=Max("version"))["top"]
        version = (top or 0) + 1
    if current is not None:
        current.is_current = False
        current.save(update_fields=["is_current"])
    n, e, s, w = scores
    try:
        with transaction.atomic():
            result = Result.objects.create(
                event=event,
                table=table,
                board=board,
                version=version,
                kind=kind,
                notation=notation,
                data=data,
                score_n=n,
                score_e=e,
                score_s=s,
                score_w=w,
                reason=reason,
                sheet=sheet or {},
                sheet_status=status,
                entered_by=audit.user_of(actor),
                submission=submission,
                source=source,
                keyed_at_seat=seat,
            )
    except IntegrityError as exc:
        # Someone else inserted the first version between our check and our insert: the same
        # submission sent twice at once gets what the other one stored.
        if submission:
            sent = Result.objects.filter(table=table, board=board, submission=submission).first()
            if sent is not None:
                return sent
        now = Result.objects.filter(table=table, board=board, is_current=True).first()
        raise ConflictError(
            _(
                "Board %(b)s at table %(t)s was recorded by someone else just now. Check it and key again."
            )
            % {"b": board.number, "t": table.number},
            field="notation",
            current={
                "version": now.version if now else 0,
                "notation": now.notation if now else "",
            },
        ) from exc
    if not log:
        jobs.standings_changed(event)
        return result
    where = {"round": table.round.number, "table": table.number, "board": board.number}
    if current is not None:
        action = AuditAction.RESULT_CORRECT
        message = gettext_noop(
            "round %(round)s table %(table)s board %(board)s: %(notation)s (was %(was)s)"
        )
        params = {**where, "notation": notation, "was": current.notation}
    else:
        action = AuditAction.RESULT_RECORD
        message = gettext_noop("round %(round)s table %(table)s board %(board)s: %(notation)s")
        params = {**where, "notation": notation}
    if seat and current is None:
        message = gettext_noop(
            "round %(round)s table %(table)s board %(board)s: %(notation)s, keyed at the table "
            "by %(seat)s"
        )
        params = {**params, "seat": seat}
    audit.record(
        actor,
        action,
        "",
        message=message,
        params=params,
        event=event,
        obj=result,
        reason=reason,
        data={
            "scores": list(scores),
            "version": version,
            "kind": kind,
            "sheet": sheet or {},
            "source": source,
        },
    )
    # The last write: the standings row it locks is held for the commit alone.
    jobs.standings_changed_by_this_save(event)
    return result


def history(table: Table, board: Board) -> list[Result]:
    return list(Result.objects.filter(table=table, board=board).order_by("-version"))


def stored_result(result: Result) -> AnyResult:
    return result_from_json(result.data)


def seat_scores(result: Result) -> dict[Seat, int]:
    return dict(zip(SEATS, result.scores, strict=True))


@transaction.atomic
def confirm_result(
    actor: Actor,
    table: Table,
    board: Board,
    text: str,
    *,
    sheet: Any = None,
    reveal_cards: bool = True,
) -> Result:
    """A second, blind keying of a sheet: the result is confirmed only if both keyings agree.

    Points from the sheet typed at the second keying are noted with the result when the first
    keying had none, or other ones.
    """
    written = check_sheet(sheet)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    _check_open(table)
    checked = check(event, board, text, reveal_cards=reveal_cards)
    check_ronde_pas_game(event, table, board, checked.result)
    current = _lock_current(table, board)
    if current is None:
        raise UserError(
            _("Board %(b)s at table %(t)s has no first keying yet.")
            % {"b": board.number, "t": table.number},
            code="nothing_to_confirm",
            field="notation",
        )
    if current.notation != checked.notation:
        raise UserError(
            _(
                "This differs from the first keying. Check the sheet; the TD corrects the result if the first keying was wrong."
            ),
            code="keying_mismatch",
            field="notation",
        )
    if current.status != Result.Status.CONFIRMED:
        current.status = Result.Status.CONFIRMED
        current.save(update_fields=["status"])
        audit.record(
            actor,
            AuditAction.RESULT_CONFIRM,
            "",
            message=gettext_noop("board %(board)s table %(table)s confirmed: %(notation)s"),
            params={"board": board.number, "table": table.number, "notation": current.notation},
            event=event,
            obj=current,
        )
    return _note_sheet(actor, event, current, written)


# Far beyond any board's score: a longer number is a typing slip, not a sheet.
SHEET_LIMIT = 100_000


def check_sheet(sheet: Any) -> dict[str, int]:
    """The points written on the sheet as typed (``{"N": "8", ...}``), as whole numbers per seat.

    Seats left empty are left out; anything else than a whole number is refused, naming the seat.
    """
    if sheet in (None, "", {}):
        return {}
    if not isinstance(sheet, dict):
        raise UserError(
            _("The points on the sheet are not readable."), code="bad_request", field="sheet"
        )
    written: dict[str, int] = {}
    for seat in "NESW":
        value = sheet.get(seat)
        if value is None or str(value).strip() == "":
            continue
        try:
            points = int(str(value).strip())
        except ValueError:
            points = SHEET_LIMIT
        if abs(points) >= SHEET_LIMIT:
            raise UserError(
                _("The points on the sheet for %(seat)s are not a whole number: %(value)s.")
                % {"seat": seat, "value": str(value)[:12]},
                code="sheet",
                field="sheet",
            )
        written[seat] = points
    return written


def sheet_status(scores: tuple[int, int, int, int], written: dict[str, int]) -> str:
    """ "open" when a point written on the sheet differs from Troef's score for that seat."""
    differs = any(
        seat in written and written[seat] != value
        for seat, value in zip("NESW", scores, strict=True)
    )
    return Result.SheetStatus.OPEN if differs else Result.SheetStatus.NONE


def _note_sheet(actor: Actor, event: Event, result: Result, written: dict[str, int]) -> Result:
    """Keep points typed from the sheet with a result already recorded (no new version)."""
    if not written or written == result.sheet or result.kind != Result.Kind.PLAYED:
        return result
    result.sheet = written
    result.sheet_status = sheet_status(result.scores, written)
    result.save(update_fields=["sheet", "sheet_status"])
    audit.record(
        actor,
        AuditAction.RESULT_SHEET,
        "",
        event=event,
        obj=result,
        data={"sheet": written, "scores": list(result.scores)},
        message=gettext_noop(
            "points of the sheet noted for board %(board)s at table %(table)s, round %(round)s"
        ),
        params={
            "board": result.board.number,
            "table": result.table.number,
            "round": result.table.round.number,
        },
    )
    return result


@transaction.atomic
def accept_sheet_difference(
    actor: Actor, result: Result, reason: str = "", *, version: int | None = None
) -> Result:
    """The TD checked the sheet and Troef's score stands: the difference is closed, not changed.

    ``version``, when given, is the version the TD looked at: a newer one is a conflict.
    """
    reason = check_reason(reason)
    # Locked so an acceptance and a correction of the same board cannot cross.
    result = _locked_current_version(result, version)
    if result.sheet_status != Result.SheetStatus.OPEN:
        return result
    result.sheet_status = Result.SheetStatus.ACCEPTED
    result.save(update_fields=["sheet_status"])
    audit.record(
        actor,
        AuditAction.RESULT_SHEET_ACCEPT,
        "",
        event=result.event,
        obj=result,
        reason=reason,
        data={"sheet": result.sheet, "scores": list(result.scores)},
        message=gettext_noop(
            "Troef's score accepted over the sheet for board %(board)s at table %(table)s, "
            "round %(round)s"
        ),
        params={
            "board": result.board.number,
            "table": result.table.number,
            "round": result.table.round.number,
        },
    )
    return result


def open_sheet_differences(event: Event) -> int:
    """How many current results differ from their paper sheet and are not yet resolved."""
    return Result.objects.filter(
        event=event, is_current=True, sheet_status=Result.SheetStatus.OPEN
    ).count()


def describe(result: Result) -> str:
    """A result as the TD pages show it: a played line as typed, an adjusted score in words."""
    if result.kind == Result.Kind.ARTIFICIAL:
        awards = result.data.get("awards", {})
        seats = ", ".join(
            f"{seat} {'—' if awards.get(seat) is None else award_in_words(str(awards[seat]))}"
            for seat in "NESW"
        )
        return _("Artificial: %(seats)s") % {"seats": seats}
    if result.kind == Result.Kind.WEIGHTED:
        return _("Weighted: %(results)s") % {"results": result.notation}
    return result.notation


def sheet_mismatch(result: Result, sheet: Any) -> list[str]:
    """Seats whose points written on the paper sheet differ from the engine's score."""
    if not isinstance(sheet, dict):
        return []
    out = []
    for seat, value in zip("NESW", result.scores, strict=True):
        written = sheet.get(seat)
        if written in (None, ""):
            continue
        try:
            if int(written) != value:
                out.append(seat)
        except (TypeError, ValueError):
            out.append(seat)
    return out
