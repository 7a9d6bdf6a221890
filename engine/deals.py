"""Deal numbers, and reproducible, verifiable dealing from an event key.

**Numbering** is BigDeal's ("Gödel") numbering, so numbers can be checked against BigDeal's.
Cards are taken in BigDeal's order (``Card.index``: spades A..2, hearts, diamonds, clubs). North's
13 cards are a 13-subset of the 52, East's of the 39 left, South's of the 26 left (each time
numbered 0..n-1 in card order); ``rank_h`` is that subset's lexicographic rank among all C(n, 13)
subsets, and the deal's number is ``(rank_N * C(39,13) + rank_E) * C(26,13) + rank_S``, in
``[0, DEAL_COUNT)``. Number 0 gives North all spades, East all hearts, South all diamonds and West
all clubs; number ``DEAL_COUNT - 1`` gives North all clubs, East all diamonds, South all hearts
and West all spades.

**Dealing from a key** follows BigDeal's recipe with SHA-256 and one counter per board, so that a
board's deal depends only on the key, the owner, the public value and the board number, never on
which other boards were asked for. For board ``b`` and attempt ``a = 0, 1, 2, ...``::

    digest = SHA-256( b as 4 bytes big-endian
                   || a as 4 bytes big-endian
                   || the key, UTF-8 (surrounding whitespace removed)
                   || SHA-256(owner, UTF-8)
                   || SHA-256(public value, UTF-8) )

The first 12 bytes of ``digest``, read as a big-endian number below 2**96, are the deal number if
they are below ``DEAL_COUNT``; otherwise (about one time in three) the next attempt is made. The
owner and public value enter as fixed-length hashes, so no two different (key, owner, public)
triples give the same input.

**The turned-up trump card** of a Wiezen board is the dealer's last card. It is drawn from the
same digest that gave the deal: its last 20 bytes, read as a big-endian number, modulo 13, index
the dealer's cards in card order (spades A..2, hearts, diamonds, clubs). The bias of that modulo
is below 2**-155.

**Commit and reveal.** Before the event the director publishes ``commitment(key)``, the SHA-256
of the key (UTF-8, surrounding whitespace removed), and may name a public value not known yet
(a lottery draw, a closing index on the day). After the event the key is published: anyone checks
it against the commitment and regenerates every deal.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb
from typing import Any

from engine.cards import ALL_CARDS, SEATS, Card, Seat
from engine.errors import DealError, ParseError
from engine.hands import Deal, _deal_from_trusted_holders

DEAL_COUNT = comb(52, 13) * comb(39, 13) * comb(26, 13)
"""G = 53,644,737,765,488,792,839,237,440,000: the number of different deals."""

KEY_BITS = 160
"""Entropy of a key from ``new_key``: BigDeal's 160 bits."""

MAX_BOARD = 2**32 - 1
"""The highest board number the dealing recipe can encode (4 bytes)."""

_C39 = comb(39, 13)
_C26 = comb(26, 13)
# _COLUMNS[k][m] = C(m, k) for m <= 52, k <= 13 (all that numbering needs); increasing in m, so
# unranking can bisect a column.
_COLUMNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(m, k) for m in range(53)) for k in range(14)
)
_ATTEMPT_LIMIT = 2**32
_SEATS_NES = (Seat.N, Seat.E, Seat.S)


def deal_number(deal: Deal) -> int:
    """The deal's BigDeal number, in ``[0, DEAL_COUNT)``."""
    known = deal._number
    if known is not None:
        return known
    values = [seat.value for seat in deal.holders]
    ranks = []
    for seat in (0, 1, 2):
        # The cards not given to an earlier seat, and the positions of this seat's among them.
        remaining = [value for value in values if value >= seat]
        size = len(remaining)
        rank = 0
        previous = -1
        left = 13
        for position, value in enumerate(remaining):
            if value == seat:
                # Subsets that agree so far and take an earlier next position (see _unrank).
                column = _COLUMNS[left]
                rank += column[size - 1 - previous] - column[size - position]
                previous = position
                left -= 1
        ranks.append(rank)
    number = (ranks[0] * _C39 + ranks[1]) * _C26 + ranks[2]
    object.__setattr__(deal, "_number", number)
    return number


def deal_from_number(number: int) -> Deal:
    """The deal with BigDeal number ``number``; ``DealError`` outside ``[0, DEAL_COUNT)``."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealError(f"a deal number is a whole number, not {number!r}")
    if not 0 <= number < DEAL_COUNT:
        raise DealError(f"deal number {number} is outside 0 .. {DEAL_COUNT - 1:,}")
    return _unrank(number)


def _unrank(number: int) -> Deal:
    rest, rank_s = divmod(number, _C26)
    rank_n, rank_e = divmod(rest, _C39)
    holders = [Seat.W] * 52
    remaining: list[int] = list(range(52))
    for seat, rank in zip(_SEATS_NES, (rank_n, rank_e, rank_s), strict=True):
        size = len(remaining)
        previous = -1
        chosen: list[int] = []
        # Choose the seat's 13 positions among the remaining cards one by one. With ``left``
        # still to choose after position ``previous``, the subsets whose next position is
        # below x number C(size-1-previous, left) - C(size-x, left); the next position is the
        # x at which that first exceeds ``rank``, found by bisection in the column C(., left).
        for left in range(13, 0, -1):
            column = _COLUMNS[left]
            top = column[size - 1 - previous]
            above = bisect_left(column, top - rank) - 1
            position = size - 1 - above
            rank -= top - column[above + 1]
            holders[remaining[position]] = seat
            chosen.append(position)
            previous = position
        for position in reversed(chosen):
            del remaining[position]
    return _deal_from_trusted_holders(tuple(holders), number)


def dealer_for_board(board: int) -> Seat:
    """Board 1 is dealt by N, board 2 by E, then S, W, and round again."""
    _check_board(board)
    return SEATS[(board - 1) % 4]


def _check_board(board: int) -> None:
    if isinstance(board, bool) or not isinstance(board, int):
        raise DealError(f"a board number is a whole number, not {board!r}")
    if not 1 <= board <= MAX_BOARD:
        raise DealError(f"board number {board} is outside 1 .. {MAX_BOARD}")


@dataclass(frozen=True)
class BoardDeal:
    """One board of an event: its number, dealer, deal and deal number.

    ``trump_card`` is the turned-up card of a Wiezen board (one of the dealer's cards), or None.
    """

    board: int
    dealer: Seat
    deal: Deal
    index: int
    trump_card: Card | None = None

    def __post_init__(self) -> None:
        _check_board(self.board)
        if not isinstance(self.deal, Deal):
            raise DealError(f"board {self.board}: the deal is not a Deal: {self.deal!r}")
        if self.index != deal_number(self.deal):
            raise DealError(
                f"board {self.board}: index {self.index} is not the deal's number "
                f"{deal_number(self.deal)}"
            )
        if self.trump_card is not None and self.deal.holder(self.trump_card) is not self.dealer:
            raise DealError(
                f"board {self.board}: the turned-up card {self.trump_card} is not the dealer's "
                f"({self.dealer}) but {self.deal.holder(self.trump_card)}'s"
            )

    @classmethod
    def of(
        cls, board: int, deal: Deal, dealer: Seat | None = None, trump_card: Card | None = None
    ) -> BoardDeal:
        """A board with its deal number worked out; the dealer by rotation unless given."""
        return cls(
            board,
            dealer if dealer is not None else dealer_for_board(board),
            deal,
            deal_number(deal),
            trump_card,
        )

    def to_json(self) -> dict[str, Any]:
        """``{"board", "dealer", "deal", "index"}``, and ``"trump_card"`` when there is one."""
        data: dict[str, Any] = {
            "board": self.board,
            "dealer": self.dealer.name,
            "deal": self.deal.to_pbn(),
            "index": self.index,
        }
        if self.trump_card is not None:
            data["trump_card"] = str(self.trump_card)
        return data


def new_key() -> str:
    """A fresh secret event key: 160 bits from the operating system's secure source, as hex."""
    return secrets.token_hex(KEY_BITS // 8)


def _key_bytes(key: str) -> bytes:
    if not isinstance(key, str):
        raise DealError(f"a dealing key is text, not {key!r}")
    stripped = key.strip()
    if not stripped:
        raise DealError("the dealing key is empty")
    return stripped.encode("utf-8")


def commitment(key: str) -> str:
    """SHA-256 of the key (UTF-8, surrounding whitespace removed), as 64 lower-case hex digits."""
    return hashlib.sha256(_key_bytes(key)).hexdigest()


def verify_commitment(key: str, published: str) -> bool:
    """Whether ``key`` is the key whose commitment was published (case and spaces ignored)."""
    try:
        expected = commitment(key)
    except DealError:
        return False
    return hmac.compare_digest(expected, published.strip().lower())


class _Dealer:
    """The fixed part of the hashed input of one (key, owner, public value)."""

    def __init__(self, key: str, owner: str, public: str) -> None:
        self.suffix = (
            _key_bytes(key)
            + hashlib.sha256(owner.encode("utf-8")).digest()
            + hashlib.sha256(public.encode("utf-8")).digest()
        )

    def board(self, board: int, trump_card: bool) -> BoardDeal:
        _check_board(board)
        for attempt in range(_ATTEMPT_LIMIT):
            digest = hashlib.sha256(struct.pack(">II", board, attempt) + self.suffix).digest()
            number = int.from_bytes(digest[:12], "big")
            if number < DEAL_COUNT:
                break
        else:  # pragma: no cover - each attempt fails with probability 0.32
            raise DealError(f"board {board}: no deal found in {_ATTEMPT_LIMIT} attempts")
        deal = _unrank(number)
        dealer = SEATS[(board - 1) % 4]
        turned = None
        if trump_card:
            cards = [ALL_CARDS[i] for i, seat in enumerate(deal.holders) if seat is dealer]
            turned = cards[int.from_bytes(digest[12:], "big") % 13]
        return BoardDeal(board, dealer, deal, number, turned)


def deals_from_key(
    key: str,
    boards: Iterable[int],
    owner: str = "",
    *,
    public: str = "",
    trump_card: bool = False,
) -> list[BoardDeal]:
    """The deals of ``boards`` for an event key, in the order asked for.

    The same key, owner and public value always give the same deal for a board, whatever other
    boards are asked for. ``trump_card=True`` also turns up the dealer's last card (Wiezen).
    """
    dealer = _Dealer(key, owner, public)
    return [dealer.board(board, trump_card) for board in boards]


def deal_for_board(
    key: str, board: int, owner: str = "", *, public: str = "", trump_card: bool = False
) -> BoardDeal:
    """One board's deal for an event key: the same as in ``deals_from_key``."""
    return _Dealer(key, owner, public).board(board, trump_card)


MAX_BOARDS_LISTED = 100_000
"""The most boards ``parse_boards`` expands a list to: a guard against a mistyped range."""


def parse_boards(text: str) -> list[int]:
    """Board numbers from a list such as ``1-32`` or ``1,3,5-8`` (spaces allowed), in order.

    A board listed twice, a range that runs backwards and a board 0 are errors (``ParseError``
    with the position of the offending item).
    """
    boards: list[int] = []
    seen: set[int] = set()
    position = 0
    for item in text.split(","):
        start = position + len(item) - len(item.lstrip())
        position += len(item) + 1
        item = item.strip()
        if not item:
            raise ParseError(
                "a board list is numbers and ranges separated by commas, e.g. 1-32 or 1,3,5-8",
                text,
                start,
            )
        low_text, dash, high_text = item.partition("-")
        try:
            low = int(low_text)
            high = int(high_text) if dash else low
        except ValueError:
            raise ParseError(
                f"{item!r} is not a board or a range of boards (like 5 or 5-8)", text, start
            ) from None
        if low < 1 or high > MAX_BOARD:
            raise ParseError(
                f"board numbers run from 1 to {MAX_BOARD}; {item!r} does not", text, start
            )
        if high < low:
            raise ParseError(f"the range {item!r} runs backwards; write {high}-{low}", text, start)
        if len(boards) + high - low + 1 > MAX_BOARDS_LISTED:
            raise ParseError(f"more than {MAX_BOARDS_LISTED:,} boards listed", text, start)
        for board in range(low, high + 1):
            if board in seen:
                raise ParseError(f"board {board} is listed twice", text, start)
            seen.add(board)
            boards.append(board)
    return boards
