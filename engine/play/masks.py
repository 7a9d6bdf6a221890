"""Hands as 52-bit masks over ``Card.index``: the play's hot path.

Spades A..2 are bits 0..12, then hearts, diamonds and clubs, so that within a suit a lower bit is a
higher card.
"""

from __future__ import annotations

from engine.cards import ALL_CARDS, SEATS, Card
from engine.errors import IllegalCardError

SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
INDEX_BY_ID = {id(card): card.index for card in ALL_CARDS}
# Enum members hash and read ``.value`` slowly; the hot paths key on identity instead.
SEAT_VALUE_BY_ID = {id(seat): seat.value for seat in SEATS}
# Cards of one suit for each 13-bit pattern, high to low; filled as patterns come up.
_SUIT_CARDS: tuple[dict[int, tuple[Card, ...]], ...] = ({}, {}, {}, {})


def suit_cards(suit: int, pattern: int) -> tuple[Card, ...]:
    """The cards of one suit (``Suit.value``) for a 13-bit pattern, high to low."""
    cache = _SUIT_CARDS[suit]
    cards = cache.get(pattern)
    if cards is None:
        base = 13 * suit
        cards = tuple(ALL_CARDS[base + bit] for bit in range(13) if pattern >> bit & 1)
        cache[pattern] = cards
    return cards


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a mask in PBN order (spades, hearts, diamonds, clubs; high to low)."""
    # Unrolled over the four suits: this is the hot path of legal_cards.
    spades, hearts, diamonds, clubs = _SUIT_CARDS
    out: list[Card] = []
    pattern = mask & 0x1FFF
    if pattern:
        out += spades.get(pattern) or suit_cards(0, pattern)
    pattern = (mask >> 13) & 0x1FFF
    if pattern:
        out += hearts.get(pattern) or suit_cards(1, pattern)
    pattern = (mask >> 26) & 0x1FFF
    if pattern:
        out += diamonds.get(pattern) or suit_cards(2, pattern)
    pattern = mask >> 39
    if pattern:
        out += clubs.get(pattern) or suit_cards(3, pattern)
    return out


def lowest(mask: int) -> int:
    """Index of the lowest card (the highest bit) of a non-empty one-suit mask."""
    return mask.bit_length() - 1


def highest(mask: int) -> int:
    """Index of the highest card (the lowest bit) of a non-empty one-suit mask."""
    return (mask & -mask).bit_length() - 1


def card_index(card: Card) -> int:
    index = INDEX_BY_ID.get(id(card))
    if index is None:
        if not isinstance(card, Card):
            raise IllegalCardError(f"{card!r} is not a card")
        index = card.index
    return index
