"""Table devices: the link and PIN on each table card, and the phone at the table that keys results.

Each table of a round has a secret key (in the link and the QR code on the table card) and a short
PIN printed beside it. A phone that opens the link and gives the PIN gets a grant in its session
for that table and round; the grant lasts while the round is in play and while the PIN stays the
same, so making new PINs shuts out every phone that had the old one.

Guessing PINs is throttled in the cache, as sign-ins are (``tournaments.throttle``): wrong PINs are
counted per table and client address, and per address. Once either count reaches its limit, every
PIN from there is refused until the window ends, even the right one.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import logging
import math
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from redis.exceptions import RedisError

from tournaments.engine_text import contract_name
from tournaments.errors import UserError
from tournaments.failures import FailureCounts
from tournaments.game import (
    CANONICAL_WORDS,
    LONE_CONTRACTS,
    PAIR_CONTRACTS,
    Contract,
    EngineError,
    parse_result_line,
)
from tournaments.models import AuditAction, Event, Result, Round, Seating, Table
from tournaments.result_words import result_in_words, stored_result_in_words
from tournaments.services import audit, events
from tournaments.services.audit import Actor

logger = logging.getLogger("troef.security")

# 16 random bytes: 22 characters in the link, too many to guess.
KEY_BYTES = 16
PIN_DIGITS = 5
SESSION_GRANTS = "troef_device_grants"

DEFAULTS = {
    "TABLE_FAILURES": 5,
    "ADDRESS_FAILURES": 20,
    "WINDOW_SECONDS": 10 * 60,
}


class PinLockedError(UserError):
    """Too many wrong PINs: refused for ``seconds`` more (429 with ``Retry-After``)."""

    def __init__(self, seconds: int) -> None:
        minutes = max(math.ceil(seconds / 60), 1)
        message = ngettext(
            "Too many wrong PINs: try again in %(minutes)d minute.",
            "Too many wrong PINs: try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        super().__init__(
            message, code="too_many_attempts", field="pin", params={"seconds": seconds}
        )
        self.seconds = seconds


@dataclass(frozen=True)
class Limits:
    table_failures: int
    address_failures: int
    window_seconds: int

    def __post_init__(self) -> None:
        if min(self.table_failures, self.address_failures, self.window_seconds) < 1:
            raise ValueError(f"device PIN throttle limits must be positive: {self}")


def limits() -> Limits:
    values = {**DEFAULTS, **getattr(settings, "DEVICE_PIN_THROTTLE", {})}
    return Limits(
        table_failures=int(values["TABLE_FAILURES"]),
        address_failures=int(values["ADDRESS_FAILURES"]),
        window_seconds=int(values["WINDOW_SECONDS"]),
    )


# --- keys and PINs -------------------------------------------------------------------------------


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def new_pin(digits: int = PIN_DIGITS) -> str:
    """A random PIN that is not a run (12345, 54321) or one digit repeated (11111)."""
    while True:
        pin = "".join(str(secrets.randbelow(10)) for _ in range(digits))
        if not _guessable(pin):
            return pin


def _guessable(pin: str) -> bool:
    steps = {int(b) - int(a) for a, b in itertools.pairwise(pin)}
    return len(steps) == 1 and steps <= {-1, 0, 1}


@transaction.atomic
def ensure_device_keys(actor: Actor, round_: Round) -> list[Table]:
    """Each table of the round with its device key and PIN; those without get theirs now."""
    tables = list(round_.tables.select_for_update().order_by("number"))
    made = [table for table in tables if not table.device_key or not table.device_pin]
    for table in made:
        table.device_key = table.device_key or new_key()
        table.device_pin = table.device_pin or new_pin()
        table.save(update_fields=["device_key", "device_pin"])
    if made:
        audit.record(
            actor,
            AuditAction.ROUND_DEVICE_KEYS,
            "",
            event=round_.event,
            obj=round_,
            message=gettext_noop("round %(round)s: table device links made for %(count)s tables"),
            params={"round": round_.number, "count": len(made)},
        )
    return tables


@transaction.atomic
def renew_pins(actor: Actor, round_: Round) -> list[Table]:
    """New PINs for every table of the round: phones that gave an old one must give the new one."""
    tables = list(round_.tables.select_for_update().order_by("number"))
    for table in tables:
        table.device_key = table.device_key or new_key()
        old = table.device_pin
        table.device_pin = new_pin()
        while table.device_pin == old:
            table.device_pin = new_pin()
        table.save(update_fields=["device_key", "device_pin"])
    audit.record(
        actor,
        AuditAction.ROUND_DEVICE_PINS,
        "",
        event=round_.event,
        obj=round_,
        message=gettext_noop("round %(round)s: new table device PINs for %(count)s tables"),
        params={"round": round_.number, "count": len(tables)},
    )
    return tables


def table_for_key(key: str) -> Table | None:
    """The table whose device key this is, or None (a key never matches an empty one)."""
    if not isinstance(key, str) or not key or len(key) > 32:
        return None
    # A key that is not empty names one table at most (a unique constraint): no order, no limit.
    try:
        return Table.objects.select_related("round__event").get(device_key=key)
    except Table.DoesNotExist:
        return None


def device_url(table: Table, base: str | None = None) -> str:
    """The table device's full address, as printed in the QR code."""
    root = (base or getattr(settings, "TROEF_SITE_URL", "") or "http://127.0.0.1:8000").rstrip("/")
    return f"{root}/t/{table.device_key}/"


# --- PINs and grants -----------------------------------------------------------------------------


def check_pin(table_key: str, pin: Any, address: str | None) -> Table:
    """The table, when ``pin`` is its PIN; else ``UserError`` (``PinLockedError`` once throttled).

    An unknown key is ``UserError`` with code ``not_found``. It is not counted: keys are too long
    to guess, and counting them would let one player lock out every phone of a hall that shares
    one address. Each PIN tried is counted before it is compared, so that tries sent in parallel
    cannot pass the limit; a right PIN is then not counted after all.
    """
    table = table_for_key(table_key)
    if table is None:
        raise UserError(_("This table link is not known."), code="not_found")
    subject = str(table.pk)
    seconds = seconds_locked(subject, address)
    if seconds:
        raise PinLockedError(seconds)
    given = pin.strip() if isinstance(pin, str) else ""
    if not given:
        raise UserError(
            _("Type the PIN printed on the table card."), code="pin_required", field="pin"
        )
    if record_failure(subject, address):
        raise PinLockedError(seconds_locked(subject, address) or limits().window_seconds)
    if not table.device_pin or not hmac.compare_digest(given, table.device_pin):
        seconds = seconds_locked(subject, address)
        if seconds:
            raise PinLockedError(seconds)
        raise UserError(
            _("This is not the PIN of table %(t)s: look at the table card again.")
            % {"t": table.number},
            code="wrong_pin",
            field="pin",
        )
    forget_try(subject, address)
    if table.round.status != Round.Status.OPEN:
        raise UserError(
            _("Round %(n)s is not in play: the table's link works only while it is.")
            % {"n": table.round.number},
            code="round_not_open",
        )
    return table


def _pin_digest(table: Table) -> str:
    # The grant remembers which PIN it was given for, not the PIN itself: a new PIN ends it.
    return hashlib.sha256(f"{table.device_key}:{table.device_pin}".encode()).hexdigest()[:16]


def grant(session: SessionBase, table: Table) -> None:
    """This browser may key the table's results, for the round and PIN it was given for."""
    # A new session key: a key planted in this browser before the PIN was given is worth nothing.
    session.cycle_key()
    grants = dict(session.get(SESSION_GRANTS) or {})
    grants[str(table.pk)] = {
        "table_id": table.pk,
        "round_id": table.round_id,
        "pin": _pin_digest(table),
        "granted_at": timezone.now().isoformat(),
    }
    session[SESSION_GRANTS] = grants


def is_granted(session: SessionBase, table: Table) -> bool:
    """Whether this browser gave the table's current PIN for its round, and the round is in play."""
    held = (session.get(SESSION_GRANTS) or {}).get(str(table.pk))
    if not isinstance(held, dict):
        return False
    return (
        held.get("round_id") == table.round_id
        and held.get("pin") == _pin_digest(table)
        and table.round.status == Round.Status.OPEN
    )


# --- the throttle --------------------------------------------------------------------------------


_COUNTS = FailureCounts("devicepin")


def _subjects(table: str, address: str | None) -> list[tuple[str, str, int]]:
    rules = limits()
    where = address or "unknown"
    subjects = [("address", where, rules.address_failures)]
    if table:
        subjects.append(("table", f"{table}@{where}", rules.table_failures))
    return subjects


def seconds_locked(table: str, address: str | None) -> int:
    """Seconds until PINs for this table from this address are checked again; 0 when they are."""
    try:
        return _COUNTS.seconds_locked(_subjects(table, address), limits().window_seconds)
    except (RedisError, OSError):
        logger.exception("device PIN throttle: cache unavailable, not checking the limits")
        return 0


def record_failure(table: str, address: str | None) -> bool:
    """Count one PIN tried; whether it is beyond a limit (and so must not even be compared)."""
    beyond = False
    try:
        window = limits().window_seconds
        for (kind, value, limit), count in _COUNTS.count(_subjects(table, address), window):
            if count == limit:
                logger.warning("device PIN locked: %d wrong PINs for %s %s", count, kind, value)
            beyond = beyond or count > limit
    except (RedisError, OSError):
        logger.exception("device PIN throttle: cache unavailable, failure not counted")
    return beyond


def forget_try(table: str, address: str | None) -> None:
    """A right PIN: the try counted before the comparison is taken back."""
    try:
        _COUNTS.take_back(_subjects(table, address))
    except (RedisError, OSError):
        logger.exception("device PIN throttle: cache unavailable")


# --- what the device shows -----------------------------------------------------------------------


_RESULTS = Result._meta.db_table
_TABLE_FIGURES = f"""
    SELECT
        COUNT(CASE WHEN is_current AND table_confirmed_by <> '' THEN 1 END),
        COUNT(CASE WHEN is_current AND status = %s THEN 1 END),
        COUNT(id),
        COUNT(CASE WHEN is_current AND other_keying <> '' THEN 1 END),
        COUNT(CASE WHEN is_current AND sheet_status = %s THEN 1 END),
        MAX(id)
    FROM {_RESULTS} WHERE table_id = %s
"""  # no user input: the table's name is the model's


def table_etag(table: Table, language: str = "") -> str:
    """A tag that changes whenever anything the device shows of the table changes: one query.

    A new version changes the highest id and the count; a confirmation (at the table or by a
    second keying), a differing keying and a sheet difference change a row in place, so they are
    counted too.
    """
    # Every phone at every table asks every few seconds: the statement is written once, not built
    # by the ORM on each poll.
    with connection.cursor() as cursor:
        cursor.execute(_TABLE_FIGURES, [Result.Status.CONFIRMED, Result.SheetStatus.OPEN, table.pk])
        row = cursor.fetchone()
    parts = [str(figure or 0) for figure in row]
    seed = ":".join([str(table.pk), table.round.status, language, *parts])
    return '"' + hashlib.sha256(seed.encode()).hexdigest()[:24] + '"'


def result_state(result: Result) -> str:
    """``waiting`` (keyed at the table, no opponent has confirmed), ``confirmed``, ``differs``
    (a second keying or the paper sheet says otherwise) or ``keyed`` (by the TD, from paper)."""
    if result.other_keying or result.sheet_status == Result.SheetStatus.OPEN:
        return "differs"
    if result.table_confirmed_by or result.status == Result.Status.CONFIRMED:
        return "confirmed"
    if result.kind != Result.Kind.PLAYED:
        return "confirmed"  # the TD's own ruling: nobody at the table confirms it
    if result.source == Result.Source.DEVICE:
        return "waiting"
    return "keyed"


def describe_result(result: Result, game: str) -> dict[str, Any]:
    return {
        "version": result.version,
        "kind": result.kind,
        "notation": result.notation,
        "words": stored_result_in_words(result.kind, result.data, "N", game),
        "scores": dict(zip("NESW", result.scores, strict=True)),
        "state": result_state(result),
        "source": result.source,
        "keyed_at_seat": result.keyed_at_seat,
        "confirmed_by": result.table_confirmed_by,
        "other_keying": result.other_keying,
    }


def table_state(table: Table) -> dict[str, Any]:
    """Everything the table's device shows: seats, the round's boards in order, results, totals."""
    round_ = table.round
    event = round_.event
    seats = {
        s.seat: s.entry for s in Seating.objects.filter(table=table).select_related("entry__player")
    }
    current = {r.board_id: r for r in Result.objects.filter(table=table, is_current=True)}
    totals = dict.fromkeys("NESW", 0)
    boards = []
    links = table.table_boards.select_related("board").order_by("position")
    if table.ruling == Table.Ruling.SIT_OUT:
        links = links.none()
    for link in links:
        result = current.get(link.board_id)
        shown = describe_result(result, event.game) if result is not None else None
        if result is not None:
            for seat, score in zip("NESW", result.scores, strict=True):
                totals[seat] += score
        boards.append(
            {
                "board": link.board.number,
                "position": link.position,
                "dealer": link.board.dealer,
                "result": shown,
            }
        )
    return {
        "event": {"slug": event.slug, "name": event.name},
        "round": {"number": round_.number, "status": round_.status},
        "table": {"number": table.number},
        "seats": [
            {
                "seat": seat,
                "number": entry.number if entry is not None else None,
                "name": entry.player.full_name if entry is not None else "",
            }
            for seat, entry in sorted(seats.items(), key=lambda item: SEAT_ORDER.index(item[0]))
            if seat in SEAT_ORDER
        ],
        "boards": boards,
        "totals": totals,
    }


SEAT_ORDER = ("N", "E", "S", "W", "X")


def tap_contracts(event: Event) -> list[dict[str, Any]]:
    """The contracts of the event's ruleset as the device's buttons build them into a line."""
    ruleset = events.ruleset_of(event)
    if ruleset.game == "israeli":
        return []  # Israeli lines (bids and tricks of every seat) are typed
    out = []
    for contract in ruleset.allowed_contracts:
        if contract not in CANONICAL_WORDS:
            continue
        counts = _declarers(contract)
        out.append(
            {
                "word": "" if contract is Contract.ACCEPT else CANONICAL_WORDS[contract],
                "name": contract_name(contract),
                "levels": list(ruleset.levels(contract)),
                "trump": contract.has_trump,
                "negative": contract.is_negative,
                "declarers": list(counts),
            }
        )
    return out


def _declarers(contract: Contract) -> tuple[int, int]:
    """How many declarers the contract has, fewest and most (as the notation reads them)."""
    if contract in PAIR_CONTRACTS:
        return (2, 2)
    if contract in LONE_CONTRACTS:
        return (1, 1)
    if contract.is_negative:
        return (1, 4)
    return (0, 0)


def line_in_words(notation: str, game: str) -> str:
    """A checked line in words (``N and E: accept 9♥, 10 tricks``)."""
    try:
        return result_in_words(parse_result_line(notation, game=game))
    except EngineError:
        return notation
