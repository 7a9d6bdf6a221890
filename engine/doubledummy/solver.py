"""Double-dummy answers for one position, from the compiled search when it is built.

A ``Position`` is four hands of as many cards each, the trump suit (``None`` for no trump) and the
seat that leads to the next trick. The questions:

- ``tricks(position, declarers)``: the most tricks the declarers (one seat, or two seats sitting
  anywhere) take when the other seats all play against them;
- ``can_take(position, declarers, k)``: whether they can make sure of ``k`` tricks;
- ``takes_no_trick`` / ``takes_exactly_one``: whether a lone declarer at no trump can make sure
  of taking no trick (misère), or exactly one (piccolo), against three who try to spoil it.

Everyone must follow suit; a player who cannot may play any card (there is no obligation to
trump); the highest trump wins a trick, else the highest card of the suit led; the winner leads.

The compiled search (``_solver.c``) is built with the package; where it could not be built,
``COMPILED`` is false and the same answers come from ``reference``, the pure-Python search, which
takes minutes on a whole deal. ``pure=True`` asks for the reference search whatever is built.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Protocol, cast

from engine.cards import SEATS, Card, Seat, Suit
from engine.doubledummy import reference
from engine.doubledummy.errors import PositionError
from engine.hands import Deal

NO_TRUMP = reference.NO_TRUMP

Hands = tuple[int, int, int, int]
"""Four 52-bit card masks over ``Card.index`` (spades A..2 are bits 0..12), by ``Seat.value``."""


class _Search(Protocol):
    def tricks(
        self,
        hands: Hands,
        trump: int,
        leader: int,
        counted: int,
        maximizers: int,
        guess: int,
        lower: int,
        upper: int,
        /,
    ) -> int: ...

    def at_least(
        self, hands: Hands, trump: int, leader: int, counted: int, maximizers: int, k: int, /
    ) -> bool: ...

    def exactly_one(self, hands: Hands, declarer: int, leader: int, /) -> bool: ...


def _load_compiled() -> ModuleType | None:
    try:
        from engine.doubledummy import _solver
    except ImportError:
        return None
    return _solver


_COMPILED_MODULE = _load_compiled()
COMPILED: bool = _COMPILED_MODULE is not None
"""Whether the compiled search is built; without it every answer comes from ``reference``."""


def _search(pure: bool) -> _Search:
    if pure or _COMPILED_MODULE is None:
        return cast(_Search, reference)
    return cast(_Search, _COMPILED_MODULE)


def nodes_searched() -> int:
    """Trick-boundary positions the compiled search has visited in this process (0 without it)."""
    if _COMPILED_MODULE is None:
        return 0
    return int(_COMPILED_MODULE.nodes())


@dataclass(frozen=True)
class Position:
    """Four hands of as many cards each, the trump suit or ``None``, and the seat on lead."""

    hands: Hands
    trump: Suit | None
    leader: Seat

    def __post_init__(self) -> None:
        if len(self.hands) != 4:
            raise PositionError(f"a position has four hands, not {len(self.hands)}")
        seen = 0
        for seat, mask in zip(SEATS, self.hands, strict=True):
            if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask < 1 << 52:
                raise PositionError(f"{seat}'s hand is not a mask of the 52 cards: {mask!r}")
            if seen & mask:
                card = Card.from_index(((seen & mask) & -(seen & mask)).bit_length() - 1)
                raise PositionError(f"{card} is in two hands")
            seen |= mask
        sizes = {mask.bit_count() for mask in self.hands}
        if len(sizes) != 1:
            counts = ", ".join(
                f"{s} {m.bit_count()}" for s, m in zip(SEATS, self.hands, strict=True)
            )
            raise PositionError(f"every hand must hold as many cards ({counts})")
        if self.trump is not None and not isinstance(self.trump, Suit):
            raise PositionError(f"the trump suit is a Suit or None, not {self.trump!r}")
        if not isinstance(self.leader, Seat):
            raise PositionError(f"the leader is a Seat, not {self.leader!r}")

    @classmethod
    def of(cls, hands: Sequence[Iterable[Card]], trump: Suit | None, leader: Seat) -> Position:
        """A position from four collections of cards, in ``Seat.value`` order (N, E, S, W)."""
        if len(hands) != 4:
            raise PositionError(f"a position has four hands, not {len(hands)}")
        masks = [0, 0, 0, 0]
        for seat, cards in zip(SEATS, hands, strict=True):
            for card in cards:
                if not isinstance(card, Card):
                    raise PositionError(f"{seat}'s hand holds {card!r}, which is not a card")
                bit = 1 << card.index
                if masks[seat.value] & bit:
                    raise PositionError(f"{card} is twice in {seat}'s hand")
                masks[seat.value] |= bit
        return cls((masks[0], masks[1], masks[2], masks[3]), trump, leader)

    @classmethod
    def from_deal(cls, deal: Deal, trump: Suit | None, leader: Seat) -> Position:
        """The position before the first card of a whole deal."""
        masks = [0, 0, 0, 0]
        for index, seat in enumerate(deal.holders):
            masks[seat.value] |= 1 << index
        return cls((masks[0], masks[1], masks[2], masks[3]), trump, leader)

    @property
    def tricks_left(self) -> int:
        return self.hands[0].bit_count()

    @property
    def _trump(self) -> int:
        return NO_TRUMP if self.trump is None else self.trump.value


def _seat_mask(declarers: Iterable[Seat]) -> int:
    mask = 0
    for seat in declarers:
        if not isinstance(seat, Seat):
            raise PositionError(f"a declarer is a Seat, not {seat!r}")
        mask |= 1 << seat.value
    if not mask or mask == 15:
        raise PositionError("the declarers are one to three seats, with someone against them")
    return mask


def tricks(
    position: Position,
    declarers: Iterable[Seat],
    *,
    guess: int | None = None,
    at_least: int = 0,
    at_most: int | None = None,
    pure: bool = False,
) -> int:
    """The most tricks the declarers take against best defence by all the other seats.

    ``guess`` (a likely answer, such as the same contract's with another leader) only makes the
    compiled search quicker, and so do ``at_least`` and ``at_most``: bounds already known to hold
    (from other answers of the same deal), which the search then need not prove. Bounds that do
    not hold give wrong answers; bounds that cross raise ``PositionError``.
    """
    mask = _seat_mask(declarers)
    hint = -1 if guess is None else guess
    upper = position.tricks_left if at_most is None else at_most
    if not 0 <= at_least <= upper <= position.tricks_left:
        raise PositionError(
            f"bounds {at_least}..{upper} are not within 0..{position.tricks_left} tricks"
        )
    return _search(pure).tricks(
        position.hands, position._trump, position.leader.value, mask, mask, hint, at_least, upper
    )


def can_take(position: Position, declarers: Iterable[Seat], k: int, *, pure: bool = False) -> bool:
    """Whether the declarers can make sure of ``k`` tricks against best defence."""
    mask = _seat_mask(declarers)
    return _search(pure).at_least(
        position.hands, position._trump, position.leader.value, mask, mask, k
    )


def _negative(position: Position, declarer: Seat) -> int:
    if position.trump is not None:
        raise PositionError("misère and piccolo are played without trumps")
    return _seat_mask((declarer,))


def takes_no_trick(position: Position, declarer: Seat, *, pure: bool = False) -> bool:
    """Whether a lone declarer can make sure of taking no trick against three (misère)."""
    mask = _negative(position, declarer)
    # The three others play to give the declarer a trick: they are the maximizers of its tricks.
    return not _search(pure).at_least(
        position.hands, NO_TRUMP, position.leader.value, mask, 15 ^ mask, 1
    )


def takes_exactly_one(position: Position, declarer: Seat, *, pure: bool = False) -> bool:
    """Whether a lone declarer can make sure of taking exactly one trick against three (piccolo)."""
    _negative(position, declarer)
    return _search(pure).exactly_one(position.hands, declarer.value, position.leader.value)
