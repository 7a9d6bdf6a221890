from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments.errors import UserError
from tournaments.game import Card, EngineError, Hand, Seat, dealfiles
from tournaments.game import deals as engine_deals
from tournaments.models import AuditAction, Board, Event
from tournaments.services import analysis, audit, seating
from tournaments.services.audit import Actor

DEAL_FIELDS = (
    "deal_key",
    "deal_commitment",
    "deal_key_revealed_at",
    "deal_source",
    "deal_file_name",
    "deal_file_sha256",
)
"""The event's fields that say where its deals came from."""


def forget_deals(event: Event) -> None:
    """Clear where the deals came from (the boards are gone): the event asks for deals again."""
    event.deal_key = event.deal_commitment = ""
    event.deal_key_revealed_at = None
    event.deal_source = Event.DealSource.GENERATED
    event.deal_file_name = event.deal_file_sha256 = ""
    event.save(update_fields=list(DEAL_FIELDS))


def board_numbers(event: Event) -> range:
    return range(1, seating.board_total(event) + 1)


def _check_not_started(event: Event) -> None:
    if event.status != Event.Status.DRAFT:
        raise UserError(
            _("Play has started: the deals can no longer change."), code="event_started"
        )


@transaction.atomic
def generate_deals(actor: Actor, event: Event, *, key: str | None = None) -> list[Board]:
    """Draw a new secret key, publish its commitment and deal every board of the event from it.

    Anyone can reproduce the deals from the key alone (``python3 -m engine deal --key KEY --boards
    1-N``); the key stays secret until the event finishes.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    _check_not_started(event)
    key = (key or "").strip() or engine_deals.new_key()
    boards = _deal(event, key)
    event.deal_key = key
    event.deal_commitment = engine_deals.commitment(key)
    event.deal_key_revealed_at = None
    event.deal_source = Event.DealSource.GENERATED
    event.deal_file_name = ""
    event.deal_file_sha256 = ""
    event.save(update_fields=[*DEAL_FIELDS, "updated"])
    seating.assign_boards(event)
    audit.record(
        actor,
        AuditAction.DEALS_GENERATE,
        "",
        event=event,
        data={"commitment": event.deal_commitment, "boards": len(boards)},
        message=gettext_noop("boards dealt: %(boards)s"),
        params={"boards": len(boards)},
    )
    analysis.schedule_analysis(event, actor=actor)
    return boards


def _deal(event: Event, key: str) -> list[Board]:
    event.boards.all().delete()
    dealt = engine_deals.deals_from_key(
        key, board_numbers(event), trump_card=event.game == Event.Game.WIEZEN
    )
    return Board.objects.bulk_create(
        Board(
            event=event,
            number=board.board,
            dealer=board.dealer.name,
            deal=board.deal.to_pbn(),
            deal_index=str(board.index),
            trump_card=str(board.trump_card) if board.trump_card else "",
        )
        for board in dealt
    )


def verify(event: Event, key: str) -> bool:
    """Whether ``key`` matches the event's published commitment and reproduces every stored deal."""
    if not engine_deals.verify_commitment(key, event.deal_commitment):
        return False
    stored = {b.number: b.deal for b in event.boards.all()}
    dealt = engine_deals.deals_from_key(key, sorted(stored))
    return all(stored[b.board] == b.deal.to_pbn() for b in dealt)


# --- deals from a file ------------------------------------------------------------------------

MAX_DEAL_FILE_BYTES = 2 * 1024 * 1024
"""A PBN file of 99 boards with full play records stays far below this."""

_DLM_START = re.compile(r"^\s*\[document\]\s*$", re.IGNORECASE | re.MULTILINE)
_PBN_TAG = re.compile(r'^\s*\[\s*(?:Board|Deal)\s+"', re.MULTILINE)
_LINE_PREFIX = re.compile(r"^line (\d+): ")
_BOARD_TAG = re.compile(r'\[\s*Board\s+"\s*(\d+)\s*"\s*\]')
_DEAL_TAG = re.compile(r'\[\s*Deal\s+"([^"]*)"\s*\]')


@transaction.atomic
def import_deals(actor: Actor, event: Event, name: str, data: bytes) -> list[Board]:
    """Replace the event's boards with those of a PBN or Duplimate ``.dlm`` file.

    The file must hold exactly the event's boards 1..N. Each problem is a ``UserError`` naming
    the board (or the line) and what is wrong; nothing changes unless every board is right. The
    deals are then the file's: there is no key, so the commitment goes and the file's name and
    SHA-256 say where the deals came from.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    _check_not_started(event)
    name = deal_file_name(name)
    dealt = read_deal_file(name, data)
    wiezen = event.game == Event.Game.WIEZEN
    _check_boards(event, dealt, wiezen=wiezen)
    event.boards.all().delete()
    boards = Board.objects.bulk_create(
        Board(
            event=event,
            number=board.board,
            dealer=board.dealer.name,
            deal=board.deal.to_pbn(),
            deal_index=str(engine_deals.deal_number(board.deal)),
            # Only Wiezen turns a card up; another game's file may carry one all the same.
            trump_card=str(board.trump_card) if wiezen and board.trump_card else "",
        )
        for board in sorted(dealt, key=lambda b: b.board)
    )
    event.deal_key = ""
    event.deal_commitment = ""
    event.deal_key_revealed_at = None
    event.deal_source = Event.DealSource.IMPORTED
    event.deal_file_name = name
    event.deal_file_sha256 = hashlib.sha256(data).hexdigest()
    event.save(update_fields=[*DEAL_FIELDS, "updated"])
    seating.assign_boards(event)
    audit.record(
        actor,
        AuditAction.DEALS_IMPORT,
        "",
        event=event,
        data={"file": name, "sha256": event.deal_file_sha256, "boards": len(boards)},
        message=gettext_noop("deals loaded from %(file)s: %(boards)s boards"),
        params={"file": name, "boards": len(boards)},
    )
    analysis.schedule_analysis(event, actor=actor)
    return boards


def deal_file_name(name: str) -> str:
    """The file's own name, as it can be stored: no folders, no control characters."""
    base = re.split(r"[/\\]", name or "")[-1]
    base = "".join(c for c in base if unicodedata.category(c) not in ("Cc", "Cs")).strip()
    max_length = Event._meta.get_field("deal_file_name").max_length or 200
    if len(base) > max_length:
        stem, dot, extension = base.rpartition(".")
        keep = max_length - len(extension) - 1
        base = f"{stem[:keep]}.{extension}" if dot and keep > 0 else base[:max_length]
    return base or "deals"


def read_deal_file(name: str, data: bytes) -> list[engine_deals.BoardDeal]:
    """The boards of a PBN or ``.dlm`` file; the format is told by the content, else the name."""
    if len(data) > MAX_DEAL_FILE_BYTES:
        raise UserError(
            _("%(file)s is too large for a deal file (at most %(mb)s MB).")
            % {"file": name, "mb": MAX_DEAL_FILE_BYTES // (1024 * 1024)},
            code="too_large",
            field="file",
        )
    text = _decode(name, data)
    if not text.strip():
        raise UserError(_("%(file)s is empty.") % {"file": name}, code="empty", field="file")
    is_dlm = _DLM_START.search(text) is not None
    is_pbn = not is_dlm and _PBN_TAG.search(text) is not None
    if not is_dlm and not is_pbn:
        is_dlm = name.lower().endswith(".dlm")
        is_pbn = name.lower().endswith(".pbn")
    if not is_dlm and not is_pbn:
        raise UserError(
            _(
                "%(file)s is neither a PBN file (with [Board] and [Deal] tags) nor a Duplimate "
                ".dlm file (starting with [Document])."
            )
            % {"file": name},
            code="unknown_format",
            field="file",
        )
    try:
        boards = (dealfiles.read_dlm(text) if is_dlm else dealfiles.read_pbn(text)).boards
    except EngineError as error:
        raise _file_error(name, text, error, pbn=is_pbn) from None
    if not boards:
        raise UserError(
            _("%(file)s holds no boards.") % {"file": name}, code="no_boards", field="file"
        )
    return list(boards)


def _decode(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    # PBN's own character set is ISO 8859-1, which decodes any byte: a file with control
    # characters other than line ends and tabs is no text file at all.
    if any(byte < 0x20 and byte not in b"\t\n\r\f" for byte in data) or b"\x7f" in data:
        raise UserError(
            _("%(file)s is not a text file: a PBN or .dlm file is text.") % {"file": name},
            code="not_text",
            field="file",
        )
    return data.decode("latin-1")


def _file_error(name: str, text: str, error: EngineError, *, pbn: bool) -> UserError:
    """A parse error as the director reads it: the board (for PBN) and line, then the problem."""
    message = str(error)
    match = _LINE_PREFIX.match(message)
    if match is None:
        return UserError(
            _("%(file)s cannot be read: %(problem)s") % {"file": name, "problem": message},
            code="parse_error",
            field="file",
        )
    line = int(match.group(1))
    problem = message[match.end() :]
    board, deal = _record_at(text, line) if pbn else (None, None)
    if board is None:
        return UserError(
            _("Line %(line)s: %(problem)s") % {"line": line, "problem": problem},
            code="parse_error",
            field="file",
        )
    explained = _explain_deal(deal) if deal is not None and problem.startswith("Deal:") else None
    return UserError(
        _("Board %(board)s (line %(line)s): %(problem)s")
        % {"board": board, "line": line, "problem": explained or problem},
        code="parse_error",
        field="file",
    )


def _record_at(text: str, line: int) -> tuple[int | None, str | None]:
    """The Board number and Deal of the PBN record (lines between blank lines) around ``line``."""
    lines = text.splitlines()
    start = end = min(max(line - 1, 0), len(lines))
    while start > 0 and lines[start - 1].strip():
        start -= 1
    while end < len(lines) and lines[end].strip():
        end += 1
    record = "\n".join(lines[start:end])
    board, deal = _BOARD_TAG.search(record), _DEAL_TAG.search(record)
    return (
        int(board.group(1)) if board else None,
        deal.group(1) if deal else None,
    )


def _seat_name(seat: Seat) -> str:
    names = {Seat.N: _("North"), Seat.E: _("East"), Seat.S: _("South"), Seat.W: _("West")}
    return names[seat]


def _explain_deal(text: str) -> str | None:
    """The commonest mistakes in a hand-made deal, in the director's language; else None.

    The engine's message says the same in English: this covers a card dealt twice and a hand
    of the wrong size, for a deal written the usual way (``N:AKQ.T98..5432 ...``).
    """
    seat_text, colon, hands_text = text.strip().partition(":")
    try:
        first = Seat.parse(seat_text.strip())
    except EngineError:
        return None
    pieces = hands_text.split("/") if "/" in hands_text else hands_text.split()
    if not colon or len(pieces) != 4:
        return None
    try:
        hands = [Hand.from_pbn(piece) for piece in pieces]
    except EngineError:
        return None
    seats = [first.next(offset) for offset in range(4)]
    holder: dict[Card, Seat] = {}
    for seat, hand in zip(seats, hands, strict=True):
        for card in hand:
            if card in holder:
                return _("%(card)s is dealt twice, to %(first)s and to %(second)s.") % {
                    "card": card.pretty,
                    "first": _seat_name(holder[card]),
                    "second": _seat_name(seat),
                }
            holder[card] = seat
    for seat, hand in zip(seats, hands, strict=True):
        if len(hand) != 13:
            return ngettext(
                "%(seat)s has %(count)s card; every hand needs 13.",
                "%(seat)s has %(count)s cards; every hand needs 13.",
                len(hand),
            ) % {"seat": _seat_name(seat), "count": len(hand)}
    return None


def _check_boards(event: Event, dealt: Sequence[engine_deals.BoardDeal], *, wiezen: bool) -> None:
    expected = set(board_numbers(event))
    found = {board.board for board in dealt}
    missing, extra = sorted(expected - found), sorted(found - expected)
    if missing or extra:
        problems = []
        if missing:
            problems.append(_("missing: %(boards)s") % {"boards": board_list(missing)})
        if extra:
            problems.append(_("not in this event: %(boards)s") % {"boards": board_list(extra)})
        raise UserError(
            _("The file must hold boards 1 to %(n)s, each once (%(problems)s).")
            % {"n": len(expected), "problems": "; ".join(problems)},
            code="wrong_boards",
            field="file",
        )
    if wiezen:
        bare = sorted(board.board for board in dealt if board.trump_card is None)
        if bare:
            raise UserError(
                ngettext(
                    "Board %(boards)s has no turned-up card. A Wiezen event needs one for every "
                    "board: load a PBN file with TrumpCard tags (a .dlm file cannot hold them).",
                    "Boards %(boards)s have no turned-up card. A Wiezen event needs one for every "
                    "board: load a PBN file with TrumpCard tags (a .dlm file cannot hold them).",
                    len(bare),
                )
                % {"boards": board_list(bare)},
                code="no_trump_card",
                field="file",
            )


def board_list(numbers: Iterable[int]) -> str:
    """``1-4, 7, 9-10``: board numbers with runs written as ranges."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
