"""Recording results: every entry and correction is a new version; nothing is overwritten.

Two people may key the same table's board at the same moment (two TDs, or a TD and a table device).
The current version's row is locked while a new one is written, and a writer who keyed against an
older version than the current one is told instead of silently overwriting it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from engine import adjudication
from engine.cards import SEATS, Card, Seat
from engine.errors import EngineError, ParseError
from engine.hands import Deal
from engine.notation import format_result_line, parse_result_line
from engine.results import AnyResult, BoardResult, Contract, result_from_json
from engine.scoring import score
from tournaments.engine_text import contract_name, error_message, problem_message
from tournaments.errors import ConflictError, UserError
from tournaments.models import Board, Event, Result, Round, Table
from tournaments.services import audit, events

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


def check(event: Event, board: Board, text: str) -> Checked:
    """Parse, validate against the ruleset and the deal, and score a result line.

    Raises ``UserError`` naming the problem; returns the scores and any warnings otherwise.
    """
    ruleset = events.ruleset_of(event)
    try:
        result = parse_result_line(text, game=ruleset.game)
    except ParseError as exc:
        # Every language keeps the column where the line went wrong (the templates name it).
        raise UserError(error_message(exc), code="notation", field="notation") from exc
    return check_result(event, board, result)


def check_result(event: Event, board: Board, result: AnyResult) -> Checked:
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
    deal = Deal.from_pbn(board.deal)
    warnings: list[str] = []
    turned = Card.parse(board.trump_card) if board.trump_card else None
    problems = adjudication.adjudicate(
        ruleset, result, deal, dealer=Seat[board.dealer], turned_card=turned
    )
    for problem in problems:
        if problem.severity == "impossible":
            raise UserError(problem_message(problem), code=problem.code, field=problem.field)
        warnings.append(problem_message(problem))
    if result.contract in SUSPICIOUS_CONTRACTS:
        warnings.append(
            _("A %(contract)s is rare: confirm that the sheet says so.")
            % {"contract": contract_name(result.contract)}
        )
    return Checked(result, scores, format_result_line(result), warnings)


def _lock_current(table: Table, board: Board) -> Result | None:
    return (
        Result.objects.select_for_update().filter(table=table, board=board, is_current=True).first()
    )


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


def _check_open(table: Table) -> None:
    # Locked so a result cannot slip into a round that someone is closing at the same moment.
    status = (
        Round.objects.select_for_update().values_list("status", flat=True).get(pk=table.round_id)
    )
    if status != Round.Status.OPEN:
        raise UserError(
            _("Round %(n)s is not in play: start or reopen it first.") % {"n": table.round.number},
            code="round_not_open",
        )


@transaction.atomic
def record_result(
    actor: Any,
    table: Table,
    board: Board,
    text: str,
    *,
    expected_version: int | None = None,
    confirmed: bool = False,
    reason: str = "",
) -> Result:
    """Record a board's result at a table, or correct it (a new version; the old one is kept).

    ``expected_version`` is the version the person saw when keying (0 for "none yet"); if someone
    else has recorded a newer one since, nothing is written and ``ConflictError`` says so.
    ``confirmed`` acknowledges the warnings of a suspicious result.
    """
    reason = check_reason(reason)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    check_board_at_table(table, board)
    checked = check(event, board, text)
    if checked.warnings and not confirmed:
        raise UserError(" ".join(checked.warnings), code="needs_confirmation", field="notation")
    current = _lock_current(table, board)
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
        current is not None
        and current.notation == checked.notation
        and current.kind == Result.Kind.PLAYED
    ):
        return current  # the same result keyed again: nothing changes, nothing is counted twice
    if current is not None and not reason.strip():
        raise UserError(
            _("Board %(b)s at table %(t)s already has a result: give a reason for the correction.")
            % {"b": board.number, "t": table.number},
            code="reason_required",
            field="reason",
        )
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
    )


def check_board_at_table(table: Table, board: Board) -> None:
    """The round is in play and the table plays the board in it; else a ``UserError`` says which."""
    _check_open(table)
    if not table.table_boards.filter(board=board).exists():
        raise UserError(
            _("Table %(t)s does not play board %(b)s in round %(r)s.")
            % {"t": table.number, "b": board.number, "r": table.round.number},
            code="wrong_board",
            field="board",
        )


def write_version(
    actor: Any,
    table: Table,
    board: Board,
    *,
    kind: str,
    notation: str,
    data: dict[str, Any],
    scores: tuple[int, int, int, int],
    reason: str,
) -> Result:
    """Add a new current version of a table's result on a board, keeping the old one."""
    current = _lock_current(table, board)
    return _write(
        actor, table.round.event, table, board, current, notation, data, scores, reason, kind
    )


def _write(
    actor: Any,
    event: Event,
    table: Table,
    board: Board,
    current: Result | None,
    notation: str,
    data: dict[str, Any],
    scores: tuple[int, int, int, int],
    reason: str,
    kind: str,
) -> Result:
    version = (
        Result.objects.filter(table=table, board=board).aggregate(top=Max("version"))["top"] or 0
    ) + 1
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
                entered_by=audit.user_of(actor),
            )
    except IntegrityError as exc:
        # Someone else inserted the first version between our check and our insert.
        raise ConflictError(
            _(
                "Board %(b)s at table %(t)s was recorded by someone else just now. Check it and key again."
            )
            % {"b": board.number, "t": table.number},
            field="notation",
        ) from exc
    action = "result.correct" if current is not None else "result.record"
    audit.record(
        actor,
        action,
        f"round {table.round.number} table {table.number} board {board.number}: {notation}"
        + (f" (was {current.notation})" if current is not None else ""),
        event=event,
        obj=result,
        reason=reason,
        data={"scores": list(scores), "version": version, "kind": kind},
    )
    standings_changed(event)
    return result


def standings_changed(event: Event) -> None:
    """Ask for the standings to be recomputed once the current transaction commits."""
    event_id = event.pk
    # Robust: a failing recomputation is logged and retried by the next change, never turned into
    # an error for a save that has already been committed.
    transaction.on_commit(lambda: _standings_changed(event_id), robust=True)


def _standings_changed(event_id: int) -> None:
    from tournaments.tasks import schedule_standings

    schedule_standings(event_id)


def history(table: Table, board: Board) -> list[Result]:
    return list(Result.objects.filter(table=table, board=board).order_by("-version"))


def stored_result(result: Result) -> AnyResult:
    return result_from_json(result.data)


def seat_scores(result: Result) -> dict[Seat, int]:
    return dict(zip(SEATS, result.scores, strict=True))


@transaction.atomic
def confirm_result(actor: Any, table: Table, board: Board, text: str) -> Result:
    """A second, blind keying of a sheet: the result is confirmed only if both keyings agree."""
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    _check_open(table)
    checked = check(event, board, text)
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
            "result.confirm",
            f"board {board.number} table {table.number} confirmed: {current.notation}",
            event=event,
            obj=current,
        )
    return current


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
