"""Hands and deals: who holds which cards.

Output is always PBN: a hand is ``AKQ.T98..5432`` (spades.hearts.diamonds.clubs, ranks from high
to low, ``T`` for ten, a void left empty) and a deal is ``N:<hand> <hand> <hand> <hand>``.

Input is more forgiving, so that a deal copied from a club's hand record or typed in by a
director can be read as it is.

**A hand** (``Hand.from_pbn``) is written in one of two forms:

1. Dotted, as in PBN: exactly four suit groups in the order spades, hearts, diamonds, clubs,
   separated by dots: ``AKQ.T98..5432``. A void is an empty group or ``-``. No spaces.
2. With suit symbols: each suit's ranks after its symbol ``♠ ♥ ♦ ♣`` (``♤ ♡ ♢ ♧`` too), every
   suit at most once, in any order: ``♠1RV ♥10 9 8 ♣AK``. A suit that is not mentioned, or is
   followed by ``-``, ``–`` or ``—``, is void. Spaces and commas may separate ranks. This is also
   the form ``Hand.pretty()`` prints (``♠AK109 ♥— ...``), so a printed hand reads back.

Suit letters are not accepted as suit labels, because ``D`` is also the Belgian queen
(``SAKD`` could be spades A K Q or spades A K and a diamond suit); write the dotted form or use
symbols instead.

**Ranks**, in both forms and in upper or lower case: ``A K Q J T 9 8 7 6 5 4 3 2``, ``10`` for
the ten, and the Belgian indices ``1`` (ace), ``R`` (king), ``D`` (queen), ``V`` (jack). A ``1``
followed by ``0`` is the ten; any other ``1`` is the ace. Inside a suit group none of these is
ambiguous, so ``1RDV10`` is A K Q J T.

**A deal** (``Deal.from_pbn``) starts with the seat of the first hand and a colon (any of
``N E S W``, upper or lower case), followed by the four hands clockwise from that seat:

- separated by whitespace, as in PBN: ``W:AT3.K8654.AT6.93 Q65.A9732.3.KJ42 ...``; any hand
  form without spaces inside works here (``N:♠AKQ♥T98♣5432 ...``);
- or separated by ``/``, which allows spaces inside the hands:
  ``N: ♠1RV ♥10 9 8 ... / ♠D 10 ... / ... / ...``.

Every mistake is reported as a ``ParseError`` whose ``position`` points at the offending
character of the text (for a hand with the wrong number of cards: the start of that hand).
A ``Deal`` built from ``Hand`` objects rather than text reports the same checks as ``DealError``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from engine.cards import ALL_CARDS, CARD_BY_SUIT_RANK, SEATS, SUITS, Card, Rank, Seat, Suit
from engine.errors import DealError, ParseError

CARDS_PER_HAND = 13

_RANK_BY_CHAR: dict[str, Rank] = {c: Rank.parse(c) for c in "AKQJT98765432RDV"}
_SUIT_BY_SYMBOL: dict[str, Suit] = {
    "♠": Suit.S,
    "♥": Suit.H,
    "♦": Suit.D,
    "♣": Suit.C,
    "♤": Suit.S,
    "♡": Suit.H,
    "♢": Suit.D,
    "♧": Suit.C,
}
_VOID_MARKS = frozenset("-–—")
_WORD = re.compile(r"\S+")
_SUIT_NAMES = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}
_SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
_RANKS_HELP = "ranks are A K Q J T 9-2, 10, or the Belgian 1 R D V"


def _sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in PBN order: spades, hearts, diamonds, clubs, each from the ace down."""
    return tuple(sorted(cards, key=lambda card: card.index))


@dataclass(frozen=True)
class Hand:
    """The cards one player holds (any number: a full hand of 13, or what is left during play)."""

    cards: frozenset[Card]
    _by_suit: tuple[tuple[Card, ...], ...] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not isinstance(self.cards, frozenset):
            # Accept any iterable at run time; the field's type stays what callers may rely on.
            object.__setattr__(self, "cards", frozenset(self.cards))

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Hand:
        return cls(frozenset(cards))

    def _suits(self) -> tuple[tuple[Card, ...], ...]:
        # Computed on first use: most hands made while dealing are never asked for their suits.
        by_suit = self._by_suit
        if by_suit is None:
            ordered = _sorted_cards(self.cards)
            by_suit = tuple(tuple(c for c in ordered if c.suit is suit) for suit in SUITS)
            object.__setattr__(self, "_by_suit", by_suit)
        return by_suit

    def __iter__(self) -> Iterator[Card]:
        """The cards in PBN order: spades, hearts, diamonds, clubs, each from the ace down."""
        for cards in self._suits():
            yield from cards

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def cards_of(self, suit: Suit) -> tuple[Card, ...]:
        """The cards of ``suit``, from the highest to the lowest."""
        return self._suits()[suit.value]

    def count(self, suit: Suit) -> int:
        return len(self.cards_of(suit))

    def has_suit(self, suit: Suit) -> bool:
        return bool(self.cards_of(suit))

    def to_pbn(self) -> str:
        """``AKQ.T98..5432``: spades.hearts.diamonds.clubs, a void left empty."""
        return ".".join("".join(c.rank.letter for c in cards) for cards in self._suits())

    def pretty(self) -> str:
        """``♠AKQ ♥1098 ♦— ♣5432``: for printed documents; reads back with ``from_pbn``."""
        groups = []
        for suit, cards in zip(SUITS, self._suits(), strict=True):
            ranks = "".join("10" if c.rank is Rank.TEN else c.rank.letter for c in cards)
            groups.append(suit.symbol + (ranks or "—"))
        return " ".join(groups)

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """Read a hand in any of the forms of the module documentation."""
        start, end = _strip_span(text, 0, len(text))
        hand, _ = _parse_hand(text, start, end)
        return hand

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Hand({self.to_pbn()!r})"


class Deal:
    """All 52 cards dealt, 13 to each seat; immutable and hashable.

    ``Deal(hands)`` takes the four hands in ``Seat.value`` order (N, E, S, W) and checks that they
    hold 52 different cards, 13 each (``DealError`` otherwise). Internally a deal is the holder of
    each card, which is what numbering and dealing work with; the ``Hand`` objects are built the
    first time they are asked for.
    """

    __slots__ = ("_hands", "_hash", "_holders", "_number")

    _holders: tuple[Seat, ...]
    _hands: tuple[Hand, Hand, Hand, Hand] | None
    _hash: int | None
    _number: int | None  # the BigDeal number, kept by engine.deals once known

    def __init__(self, hands: Sequence[Hand]) -> None:
        if len(hands) != 4:
            raise DealError(f"a deal needs four hands, one per seat; got {len(hands)}")
        holders: list[Seat | None] = [None] * 52
        for seat, hand in zip(SEATS, hands, strict=True):
            if not isinstance(hand, Hand):
                raise DealError(f"{_SEAT_NAMES[seat]}'s hand is not a Hand: {hand!r}")
            for card in hand.cards:
                other = holders[card.index]
                if other is not None:
                    raise DealError(
                        f"{card} is in both {_SEAT_NAMES[other]}'s and {_SEAT_NAMES[seat]}'s hands"
                    )
                holders[card.index] = seat
        for seat, hand in zip(SEATS, hands, strict=True):
            if len(hand) != CARDS_PER_HAND:
                raise DealError(
                    f"{_SEAT_NAMES[seat]} holds {len(hand)} cards; every hand needs "
                    f"{CARDS_PER_HAND}"
                )
        # Four hands of 13 different cards hold all 52, so no entry is left None.
        _set(self, "_holders", tuple(s for s in holders if s is not None))
        _set(self, "_hands", (hands[0], hands[1], hands[2], hands[3]))
        _set(self, "_hash", None)
        _set(self, "_number", None)

    @classmethod
    def from_holders(cls, holders: Sequence[Seat]) -> Deal:
        """The deal in which card ``i`` (BigDeal order, ``Card.index``) is held by ``holders[i]``."""
        if len(holders) != 52:
            raise DealError(f"a deal gives a holder to each of the 52 cards; got {len(holders)}")
        counts = [0, 0, 0, 0]
        for seat in holders:
            if not isinstance(seat, Seat):
                raise DealError(f"a card's holder is a Seat, not {seat!r}")
            counts[seat.value] += 1
        for seat, count in zip(SEATS, counts, strict=True):
            if count != CARDS_PER_HAND:
                raise DealError(
                    f"{_SEAT_NAMES[seat]} holds {count} cards; every hand needs {CARDS_PER_HAND}"
                )
        return _deal_from_trusted_holders(tuple(holders))

    @property
    def holders(self) -> tuple[Seat, ...]:
        """The holder of each card, by ``Card.index`` (spades A..2, hearts, diamonds, clubs)."""
        return self._holders

    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        """The four hands, indexed by ``Seat.value``: N, E, S, W."""
        hands = self._hands
        if hands is None:
            by_seat: tuple[list[Card], ...] = ([], [], [], [])
            for card, seat in zip(ALL_CARDS, self._holders, strict=True):
                by_seat[seat.value].append(card)
            hands = (
                Hand(frozenset(by_seat[0])),
                Hand(frozenset(by_seat[1])),
                Hand(frozenset(by_seat[2])),
                Hand(frozenset(by_seat[3])),
            )
            _set(self, "_hands", hands)
        return hands

    def hand(self, seat: Seat) -> Hand:
        return self.hands[seat.value]

    def holder(self, card: Card) -> Seat:
        return self._holders[card.index]

    def to_pbn(self, first: Seat = Seat.N) -> str:
        """``N:AKQ.T98..5432 ...``: the hands clockwise from ``first``."""
        # Straight from the holders: card order is PBN order, so each group comes out sorted.
        groups: list[list[str]] = [[] for _ in range(16)]
        for index, seat in enumerate(self._holders):
            groups[seat.value * 4 + index // 13].append(_RANK_LETTERS[index % 13])
        hands = []
        for offset in range(4):
            seat_value = (first.value + offset) % 4
            hands.append(".".join("".join(g) for g in groups[seat_value * 4 : seat_value * 4 + 4]))
        return f"{first.name}:{' '.join(hands)}"

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Read a deal in any of the forms of the module documentation."""
        start, end = _strip_span(text, 0, len(text))
        colon = text.find(":", start, end)
        if colon < 0:
            raise ParseError(
                "a deal starts with the first hand's seat and a colon, e.g. N:AKQ.T98..5432 ...",
                text,
                start,
            )
        seat_start, seat_end = _strip_span(text, start, colon)
        seat_text = text[seat_start:seat_end]
        if seat_text.upper() not in ("N", "E", "S", "W"):
            raise ParseError(
                f"{seat_text!r} is not a seat; a deal starts with N:, E:, S: or W:",
                text,
                seat_start,
            )
        first = Seat.parse(seat_text)
        spans = _hand_spans(text, colon + 1, end)
        if len(spans) != 4:
            position = spans[4][0] if len(spans) > 4 else end
            raise ParseError(
                f"a deal needs four hands, found {len(spans)}; separate hands by spaces, "
                "or by '/' when the hands contain spaces",
                text,
                position,
            )
        hands: list[Hand] = [Hand(frozenset())] * 4
        owner: dict[Card, Seat] = {}
        for offset, (hand_start, hand_end) in enumerate(spans):
            seat = first.next(offset)
            hand, positions = _parse_hand(text, hand_start, hand_end)
            for card, position in positions.items():
                if card in owner:
                    raise ParseError(
                        f"{card} is in both {_SEAT_NAMES[owner[card]]}'s and "
                        f"{_SEAT_NAMES[seat]}'s hands",
                        text,
                        position,
                    )
                owner[card] = seat
            if len(hand) != CARDS_PER_HAND:
                raise ParseError(
                    f"{_SEAT_NAMES[seat]}'s hand has {len(hand)} cards; every hand needs "
                    f"{CARDS_PER_HAND}",
                    text,
                    hand_start,
                )
            hands[seat.value] = hand
        return cls(hands)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self._holders == other._holders

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash(bytes(seat.value for seat in self._holders))
            _set(self, "_hash", value)
        return value

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Deal cannot be changed (tried to set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Deal cannot be changed (tried to delete {name!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (Deal.from_holders, (self._holders,))

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Deal({self.to_pbn()!r})"


_set = object.__setattr__
_RANK_LETTERS = tuple(card.rank.letter for card in ALL_CARDS[:13])


def _deal_from_trusted_holders(holders: tuple[Seat, ...], number: int | None = None) -> Deal:
    """A deal from 52 holders already known to give 13 cards to each seat.

    The dealing hot path (``engine.deals``) builds deals this way: its deals are right by
    construction, so checking them again would only cost time. ``number`` is the deal's BigDeal
    number when the caller knows it.
    """
    deal = object.__new__(Deal)
    _set(deal, "_holders", holders)
    _set(deal, "_hands", None)
    _set(deal, "_hash", None)
    _set(deal, "_number", number)
    return deal


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _hand_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Where each hand of a deal's body starts and ends: split on '/' if present, else spaces."""
    if text.find("/", start, end) < 0:
        return [(m.start(), m.end()) for m in _WORD.finditer(text, start, end)]
    spans = []
    piece_start = start
    for position in range(start, end + 1):
        if position == end or text[position] == "/":
            spans.append(_strip_span(text, piece_start, position))
            piece_start = position + 1
    return spans


def _read_rank(text: str, position: int, end: int) -> tuple[Rank, int]:
    """The rank written at ``position`` and how many characters it takes (2 for ``10``)."""
    char = text[position].upper()
    if char == "1":
        if position + 1 < end and text[position + 1] == "0":
            return Rank.TEN, 2
        return Rank.ACE, 1
    rank = _RANK_BY_CHAR.get(char)
    if rank is None:
        raise ParseError(f"{text[position]!r} is not a rank; {_RANKS_HELP}", text, position)
    return rank, 1


def _add_card(
    text: str, position: int, card: Card, positions: dict[Card, int], void: bool = False
) -> None:
    if void:
        raise ParseError(
            f"{_SUIT_NAMES[card.suit]} are marked void but {card.pretty} follows", text, position
        )
    if card in positions:
        raise ParseError(f"{card} appears twice in the hand", text, position)
    positions[card] = position


def _parse_hand(text: str, start: int, end: int) -> tuple[Hand, dict[Card, int]]:
    """Read the hand in ``text[start:end]``; return it and where each card was written."""
    if start == end:
        raise ParseError(
            "a hand is missing; write it as AKQ.T98..5432 or ♠AKQ ♥T98 ♣5432", text, start
        )
    if any(text[i] in _SUIT_BY_SYMBOL for i in range(start, end)):
        return _parse_symbol_hand(text, start, end)
    return _parse_dotted_hand(text, start, end)


def _parse_dotted_hand(text: str, start: int, end: int) -> tuple[Hand, dict[Card, int]]:
    dots = [i for i in range(start, end) if text[i] == "."]
    if len(dots) != 3:
        if text[start:end] == "-":
            message = "the hand is unknown ('-'); a deal needs all four hands"
        else:
            message = (
                f"a hand needs four suits separated by three dots (AKQ.T98..5432), found "
                f"{len(dots)} dot{'s' if len(dots) != 1 else ''}; or write it with suit symbols"
            )
        raise ParseError(message, text, dots[3] if len(dots) > 3 else start)
    positions: dict[Card, int] = {}
    bounds = [start - 1, *dots, end]
    for suit, group_start, group_end in zip(SUITS, bounds[:-1], bounds[1:], strict=True):
        position = group_start + 1
        if text[position:group_end] == "-":
            continue
        while position < group_end:
            rank, width = _read_rank(text, position, group_end)
            _add_card(text, position, CARD_BY_SUIT_RANK[suit, rank], positions)
            position += width
    return Hand(frozenset(positions)), positions


def _parse_symbol_hand(text: str, start: int, end: int) -> tuple[Hand, dict[Card, int]]:
    positions: dict[Card, int] = {}
    seen: set[Suit] = set()
    suit: Suit | None = None
    void = False
    position = start
    while position < end:
        char = text[position]
        symbol_suit = _SUIT_BY_SYMBOL.get(char)
        if symbol_suit is not None:
            if symbol_suit in seen:
                raise ParseError(
                    f"{_SUIT_NAMES[symbol_suit]} ({char}) are written twice in the hand",
                    text,
                    position,
                )
            seen.add(symbol_suit)
            suit, void = symbol_suit, False
            position += 1
        elif char.isspace() or char == ",":
            position += 1
        elif suit is None:
            raise ParseError(
                f"{char!r} comes before any suit symbol; start each suit with ♠ ♥ ♦ or ♣",
                text,
                position,
            )
        elif char in _VOID_MARKS:
            if void or any(card.suit is suit for card in positions):
                raise ParseError(
                    f"{_SUIT_NAMES[suit]} have cards, so they cannot be marked void",
                    text,
                    position,
                )
            void = True
            position += 1
        elif char == ".":
            raise ParseError(
                "a hand with suit symbols has no dots; write ♠AKQ ♥T98 or AKQ.T98..", text, position
            )
        else:
            rank, width = _read_rank(text, position, end)
            _add_card(text, position, CARD_BY_SUIT_RANK[suit, rank], positions, void)
            position += width
    return Hand(frozenset(positions)), positions
