"""Deal files: PBN for hand records and other programs, ``.dlm`` for Duplimate dealing machines.

Both formats are text; ``write_*`` returns the file's text and ``read_*`` takes it back, so the
caller decides where the bytes go (the engine does no file I/O).

**PBN** (``write_pbn`` / ``read_pbn``). One record per board, records separated by a blank line::

    [Event "Club night"]
    [Site "Gent"]
    [Date "2025.03.14"]
    [Board "1"]
    [Dealer "N"]
    [Deal "N:AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7 K82..QJ984.QT865"]
    [TrumpCard "HQ"]

``TrumpCard`` is this project's tag for a Wiezen board's turned-up card (suit letter then rank, as
``Card`` prints it); it is left out when there is none. An empty Event, Site or Date is written as
``?`` (PBN's "unknown") and ``?`` reads back as empty. Deals are written from North.

Reading tolerates what other programs write: ``%`` lines, ``;`` comments to the end of a line,
``{...}`` comments (also over several lines), tags this module does not know (Vulnerable,
Generator, player names, ...), lines of section data (auction, play), the PBN ``"#"`` value that
repeats the previous record's value, a missing Dealer (then the usual rotation from board 1),
and deals written from any seat. Every record needs a Board and a Deal tag. A board that comes
again with the same deal (a file of played results) is read once; with a different deal it is an
error. Errors are ``ParseError``s whose message starts with ``line N:``, and whose ``text`` and
``position`` are the offending line and column.

**Duplimate** (``write_dlm`` / ``read_dlm``), the INI file that Duplimate dealing machines read,
in the layout BigDeal writes::

    [Document]
    Headline=Club night
    Status=Show
    Duplicates=0
    From board=1
    To board=32
    Next board to duplimate=0
    PrintOuts=0
    Crypto key=0
    Checksum=32
    Duplicates 01=0
    Board 01=dgcofinckeeafcpdocnkhhdlnb026
    ...

- ``Status`` is ``Show`` (the machine shows the cards on its screen) or ``Sealed`` (it does not).
- ``Board NN=`` holds 26 lower-case letters and a 3-digit checksum. With cards numbered in
  BigDeal's order (spades A..2, hearts, diamonds, clubs; ``Card.index``) and seats N=0, E=1,
  S=2, W=3, letter ``i`` is ``chr(ord('a') + 4 * seat(card 2i) + seat(card 2i+1))``.
- A board's checksum is the board number XOR the character codes of its 26 letters, written
  with three digits.
- The document checksum (algorithms.md leaves its formula open; this is the one BigDeal uses):
  ``Duplicates XOR From board XOR To board``, XOR 1 more when the status is ``Show``.
- A file always lists boards 1 to 99: boards outside From..To are filled with deal number 0, as
  BigDeal does, and each board has a ``Duplicates NN=0`` line. Boards must therefore be
  consecutive and within 1..99. Lines end in CR LF, as the machines' Windows software expects.
- There is no room for a turned-up card: Wiezen boards lose it in a ``.dlm`` file.

``read_dlm`` checks both kinds of checksum and returns the boards From..To with the dealer by
rotation (the format does not record dealers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.cards import SEATS, Card, Seat
from engine.deals import BoardDeal, deal_from_number, deal_number, dealer_for_board
from engine.errors import DealError, EngineError, ParseError
from engine.hands import Deal

TRUMP_CARD_TAG = "TrumpCard"
DLM_MAX_BOARD = 99


@dataclass(frozen=True)
class DealFile:
    """A set of boards with the PBN file's Event, Site and Date (``""`` when unknown)."""

    boards: tuple[BoardDeal, ...]
    event: str = ""
    site: str = ""
    date: str = ""


@dataclass(frozen=True)
class DlmFile:
    """A set of consecutive boards for a Duplimate machine, with the file's own settings."""

    boards: tuple[BoardDeal, ...]
    headline: str = ""
    sealed: bool = False
    duplicates: int = 0


# --- PBN --------------------------------------------------------------------------------------


def _pbn_string(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _pbn_tag(name: str, value: str) -> str:
    return f'[{name} "{_pbn_string(value)}"]'


def write_pbn(file: DealFile) -> str:
    """The PBN text of a deal file (export format, one record per board)."""
    lines = ["% PBN 2.1", "% EXPORT", "%"]
    for board in file.boards:
        lines += [
            _pbn_tag("Event", _one_line(file.event) or "?"),
            _pbn_tag("Site", _one_line(file.site) or "?"),
            _pbn_tag("Date", _one_line(file.date) or "?"),
            _pbn_tag("Board", str(board.board)),
            _pbn_tag("Dealer", board.dealer.name),
            _pbn_tag("Deal", board.deal.to_pbn()),
        ]
        if board.trump_card is not None:
            lines.append(_pbn_tag(TRUMP_CARD_TAG, str(board.trump_card)))
        lines.append("")
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_ESCAPE = re.compile(r"\\(.)")


@dataclass
class _Tag:
    value: str
    line: int
    column: int
    text: str


class _PbnReader:
    """Splits PBN text into records of tags, dropping comments and section data."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.records: list[dict[str, _Tag]] = []

    def read(self) -> list[dict[str, _Tag]]:
        record: dict[str, _Tag] = {}
        in_comment = False
        for number, raw in enumerate(self.text.splitlines(), start=1):
            if not in_comment and raw.startswith("%"):
                continue  # an escape line: PBN version, export flag, or a remark
            if not in_comment and not raw.strip():
                if record:  # a blank line ends a record
                    self.records.append(record)
                    record = {}
                continue
            line, in_comment = _strip_comments(raw, in_comment)
            if line.strip():
                self._read_line(raw, line, number, record)
        if record:
            self.records.append(record)
        return self.records

    def _read_line(self, raw: str, line: str, number: int, record: dict[str, _Tag]) -> None:
        stripped = line.lstrip()
        if not stripped.startswith("["):
            return  # section data (auction, play, ...): not needed for the deals
        position = len(line) - len(stripped)
        while position < len(line):
            if line[position].isspace():
                position += 1
                continue
            match = _TAG.match(line, position)
            if match is None:
                raise ParseError(
                    f'line {number}: a tag is written [Name "value"], e.g. [Board "1"]',
                    raw,
                    position,
                )
            name = match.group(1)
            value = _ESCAPE.sub(r"\1", match.group(2))
            if value == "#":
                previous = self.records[-1].get(name) if self.records else None
                if previous is None:
                    raise ParseError(
                        f"line {number}: {name} is '#' (as before) but no earlier record has it",
                        raw,
                        match.start(2),
                    )
                value = previous.value
            record[name] = _Tag(value, number, match.start(2), raw)
            position = match.end()


def _strip_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    """The line without ``{...}`` and ``;`` comments (outside strings); whether a ``{`` is open."""
    out = []
    in_string = False
    position = 0
    while position < len(line):
        char = line[position]
        if in_comment:
            if char == "}":
                in_comment = False
            out.append(" ")  # keep columns where they were, for error positions
        elif in_string:
            out.append(char)
            if char == "\\" and position + 1 < len(line):
                out.append(line[position + 1])
                position += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif char == "{":
            in_comment = True
            out.append(" ")
        elif char == ";":
            break
        else:
            out.append(char)
        position += 1
    return "".join(out), in_comment


def _tag_error(tag: _Tag, message: str, offset: int = 0) -> ParseError:
    return ParseError(f"line {tag.line}: {message}", tag.text, tag.column + offset)


def _board_from_record(record: dict[str, _Tag], record_line: int) -> BoardDeal:
    for required in ("Board", "Deal"):
        if required not in record:
            raise ParseError(
                f"line {record_line}: this record has no {required} tag; every board needs "
                '[Board "n"] and [Deal "N:..."]',
                "",
                None,
            )
    board_tag = record["Board"]
    try:
        board = int(board_tag.value.strip())
    except ValueError:
        raise _tag_error(board_tag, f"Board {board_tag.value!r} is not a number") from None
    if board < 1:
        raise _tag_error(board_tag, f"Board {board} is not a board number (1 or more)")
    deal_tag = record["Deal"]
    try:
        deal = Deal.from_pbn(deal_tag.value)
    except ParseError as exc:
        raise _tag_error(deal_tag, f"Deal: {exc}", exc.position or 0) from None
    dealer_tag = record.get("Dealer")
    try:
        dealer = dealer_for_board(board) if dealer_tag is None else Seat.parse(dealer_tag.value)
    except EngineError as exc:
        raise _tag_error(dealer_tag or board_tag, f"Dealer: {exc}") from None
    trump_card: Card | None = None
    trump_tag = record.get(TRUMP_CARD_TAG)
    if trump_tag is not None and trump_tag.value.strip():
        try:
            trump_card = Card.parse(trump_tag.value)
        except ParseError as exc:
            raise _tag_error(trump_tag, f"{TRUMP_CARD_TAG}: {exc}") from None
        if deal.holder(trump_card) is not dealer:
            raise _tag_error(
                trump_tag,
                f"{TRUMP_CARD_TAG} {trump_card} is {deal.holder(trump_card)}'s card, not the "
                f"dealer's ({dealer})",
            )
    try:
        return BoardDeal.of(board, deal, dealer, trump_card)
    except EngineError as exc:
        raise _tag_error(board_tag, str(exc)) from None


def read_pbn(text: str) -> DealFile:
    """The boards of a PBN file, in file order; Event, Site and Date from its first record."""
    boards: list[BoardDeal] = []
    first_seen: dict[int, tuple[BoardDeal, int]] = {}
    records = _PbnReader(text).read()
    for record in records:
        record_line = min(tag.line for tag in record.values())
        board = _board_from_record(record, record_line)
        earlier = first_seen.get(board.board)
        if earlier is not None:
            if earlier[0].deal != board.deal:
                raise _tag_error(
                    record["Deal"],
                    f"board {board.board} comes again with a different deal (first at line "
                    f"{earlier[1]})",
                )
            continue
        first_seen[board.board] = (board, record["Board"].line)
        boards.append(board)
    head = records[0] if records else {}

    def header(name: str) -> str:
        tag = head.get(name)
        return "" if tag is None or tag.value.strip() == "?" else tag.value

    return DealFile(tuple(boards), header("Event"), header("Site"), header("Date"))


# --- Duplimate .dlm ---------------------------------------------------------------------------


def _dlm_letters(deal: Deal) -> str:
    seats = [seat.value for seat in deal.holders]
    return "".join(chr(97 + 4 * seats[2 * i] + seats[2 * i + 1]) for i in range(26))


def _dlm_checksum(board: int, letters: str) -> int:
    checksum = board
    for letter in letters:
        checksum ^= ord(letter)
    return checksum


def _dlm_header_checksum(duplicates: int, first: int, last: int, sealed: bool) -> int:
    return duplicates ^ first ^ last ^ (0 if sealed else 1)


def write_dlm(file: DlmFile) -> str:
    """The ``.dlm`` text for a Duplimate machine; ``DealError`` if the boards cannot be put in one.

    Boards must be consecutive and numbered within 1..99, as the format requires.
    """
    boards = sorted(file.boards, key=lambda b: b.board)
    if not boards:
        raise DealError("a .dlm file needs at least one board")
    numbers = [board.board for board in boards]
    first, last = numbers[0], numbers[-1]
    if last > DLM_MAX_BOARD:
        raise DealError(f"a .dlm file holds boards 1 to {DLM_MAX_BOARD}; board {last} is beyond")
    for number in numbers:
        if numbers.count(number) > 1:
            raise DealError(f"board {number} is given twice; a .dlm file holds each board once")
    for number in range(first, last + 1):
        if number not in numbers:
            raise DealError(
                f"a .dlm file holds consecutive boards; board {number} is missing between "
                f"{first} and {last}"
            )
    if not 0 <= file.duplicates <= 99:
        raise DealError(f"Duplicates {file.duplicates} is outside 0..99")
    lines = [
        "[Document]",
        f"Headline={_one_line(file.headline)}",
        f"Status={'Sealed' if file.sealed else 'Show'}",
        f"Duplicates={file.duplicates}",
        f"From board={first}",
        f"To board={last}",
        "Next board to duplimate=0",
        "PrintOuts=0",
        "Crypto key=0",
        f"Checksum={_dlm_header_checksum(file.duplicates, first, last, file.sealed)}",
    ]
    by_number = {board.board: board.deal for board in boards}
    filler = deal_from_number(0)
    for number in range(1, DLM_MAX_BOARD + 1):
        letters = _dlm_letters(by_number.get(number, filler))
        lines.append(f"Duplicates {number:02d}=0")
        lines.append(f"Board {number:02d}={letters}{_dlm_checksum(number, letters):03d}")
    return "\r\n".join(lines) + "\r\n"


_DLM_BOARD = re.compile(r"[a-p]{26}\d{3}")


#: The ``key=value`` lines of a ``.dlm`` file by their lowercased key: value, line number, line.
_DlmValues = dict[str, tuple[str, int, str]]


def read_dlm(text: str) -> DlmFile:
    """The boards From..To of a ``.dlm`` file, with its headline, status and duplicates."""
    values = _dlm_values(text)
    sealed = _dlm_sealed(values)
    duplicates = _dlm_number(values, "duplicates", 0)
    first, last = _dlm_number(values, "from board"), _dlm_number(values, "to board")
    if not 1 <= first <= last <= DLM_MAX_BOARD:
        raise ParseError(
            f"boards From {first} To {last} are not a range within 1..{DLM_MAX_BOARD}", "", None
        )
    _check_dlm_header(values, duplicates, first, last, sealed)
    boards = []
    for board in range(first, last + 1):
        key = f"board {board:02d}"
        if key not in values:
            raise ParseError(f"the .dlm file has no Board {board:02d}= line", "", None)
        boards.append(_dlm_board(board, *values[key]))
    return DlmFile(tuple(boards), values.get("headline", ("", 0, ""))[0], sealed, duplicates)


def _dlm_values(text: str) -> _DlmValues:
    """The ``key=value`` lines of the file's ``[Document]`` section, which must come first."""
    values: _DlmValues = {}
    seen_document = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            if line.lower() != "[document]":
                raise ParseError(f"line {number}: unknown section {line}", raw, 0)
            seen_document = True
            continue
        if not seen_document:
            raise ParseError(f"line {number}: a .dlm file starts with [Document]", raw, 0)
        key, equals, value = line.partition("=")
        if not equals:
            raise ParseError(f"line {number}: expected Key=value", raw, 0)
        values[" ".join(key.split()).lower()] = (value.strip(), number, raw)
    if not seen_document:
        raise ParseError("line 1: a .dlm file starts with [Document]", text[:40], 0)
    return values


def _dlm_number(values: _DlmValues, key: str, default: int | None = None) -> int:
    """The whole number on a header line; ``default`` when the line is absent and may be."""
    if key not in values:
        if default is not None:
            return default
        raise ParseError(f"the .dlm file has no {key.capitalize()}= line", "", None)
    value, line, raw = values[key]
    try:
        return int(value)
    except ValueError:
        raise ParseError(
            f"line {line}: {key.capitalize()}={value!r} is not a number", raw, raw.find("=") + 1
        ) from None


def _dlm_sealed(values: _DlmValues) -> bool:
    """Whether the Status line says Sealed (rather than Show, which is also the default)."""
    status, status_line, status_raw = values.get("status", ("Show", 0, ""))
    if status.lower() not in ("show", "sealed"):
        raise ParseError(
            f"line {status_line}: Status={status!r}; it is Show or Sealed", status_raw, 0
        )
    return status.lower() == "sealed"


def _check_dlm_header(
    values: _DlmValues, duplicates: int, first: int, last: int, sealed: bool
) -> None:
    """The header's Checksum line must match its duplicates, board range and status."""
    checksum = _dlm_number(values, "checksum")
    if checksum != _dlm_header_checksum(duplicates, first, last, sealed):
        checksum_line, checksum_raw = values["checksum"][1:]
        raise ParseError(
            f"line {checksum_line}: Checksum={checksum} does not match the header (expected "
            f"{_dlm_header_checksum(duplicates, first, last, sealed)}); the file is damaged",
            checksum_raw,
            checksum_raw.find("=") + 1,
        )


def _dlm_board(board: int, value: str, line: int, raw: str) -> BoardDeal:
    column = raw.find("=") + 1
    if not _DLM_BOARD.fullmatch(value):
        raise ParseError(
            f"line {line}: Board {board:02d} needs 26 letters a-p and a 3-digit checksum",
            raw,
            column,
        )
    letters, checksum = value[:26], int(value[26:])
    if checksum != _dlm_checksum(board, letters):
        raise ParseError(
            f"line {line}: Board {board:02d} checksum {checksum:03d} does not match its cards "
            f"(expected {_dlm_checksum(board, letters):03d}); the file is damaged",
            raw,
            column + 26,
        )
    holders: list[Seat] = []
    for letter in letters:
        code = ord(letter) - 97
        holders += (SEATS[code >> 2], SEATS[code & 3])
    try:
        deal = Deal.from_holders(holders)
    except EngineError as exc:
        raise ParseError(f"line {line}: Board {board:02d}: {exc}", raw, column) from None
    return BoardDeal(board, dealer_for_board(board), deal, deal_number(deal))
