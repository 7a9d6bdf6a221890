"""Seats, suits, ranks and cards: the small value types everything else is built from."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.errors import ParseError


class Seat(Enum):
    """A seat at a table of four, clockwise: the player on N's left is E."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        return self.name

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (to the left of) this one."""
        return SEATS[(self.value + steps) % 4]

    @property
    def left(self) -> Seat:
        """The next player clockwise, who speaks and plays after this seat."""
        return self.next(1)

    @property
    def opposite(self) -> Seat:
        return self.next(2)

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ParseError(f"unknown seat {text!r}; seats are N, E, S, W", text, 0) from None

    def __str__(self) -> str:
        return self.name


SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)


class Suit(Enum):
    """A suit. ``value`` is the PBN order (S, H, D, C); ``bid_rank`` the bidding rank (H > D > C > S)."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def bid_rank(self) -> int:
        """Hearts 3, diamonds 2, clubs 1, spades 0: the order that breaks ties between equal bids."""
        return _BID_RANK[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter (English ``SHDC``, Dutch ``SHRK``/``SHKR`` aside) or a symbol."""
        key = text.strip()
        suit = _SUIT_ALIASES.get(key.upper()) or _SUIT_ALIASES.get(key)
        if suit is None:
            raise ParseError(f"unknown suit {text!r}; suits are S, H, D, C (or ♠ ♥ ♦ ♣)", text, 0)
        return suit

    def __str__(self) -> str:
        return self.name


SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.D, Suit.C)
"""Suits in PBN order (spades, hearts, diamonds, clubs), also BigDeal's card-numbering order."""

SUITS_BY_BID_RANK: tuple[Suit, ...] = (Suit.H, Suit.D, Suit.C, Suit.S)
"""Suits from the highest to the lowest bidding rank."""

_SUIT_SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_BID_RANK = {Suit.H: 3, Suit.D: 2, Suit.C: 1, Suit.S: 0}
_SUIT_ALIASES: dict[str, Suit] = {
    "S": Suit.S,
    "H": Suit.H,
    "D": Suit.D,
    "C": Suit.C,
    "♠": Suit.S,
    "♥": Suit.H,
    "♦": Suit.D,
    "♣": Suit.C,
    "♤": Suit.S,
    "♡": Suit.H,
    "♢": Suit.D,
    "♧": Suit.C,
}


class Rank(Enum):
    """A card rank; ``value`` is its strength (2 lowest, ace 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The PBN letter: ``AKQJT98765432``."""
        return _RANK_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: PBN letters, ``10`` for ten, and the Belgian indices 1, R, D, V (A, K, Q, J).

        ``1`` means ace on Belgian cards; ``10`` always means ten.
        """
        rank = _RANK_ALIASES.get(text.strip().upper())
        if rank is None:
            raise ParseError(
                f"unknown rank {text!r}; ranks are A K Q J T 9-2 (or 1 R D V, 10)", text, 0
            )
        return rank

    def __str__(self) -> str:
        return self.letter


RANKS_HIGH_TO_LOW: tuple[Rank, ...] = tuple(sorted(Rank, key=lambda r: -r.value))

_RANK_LETTERS = {
    Rank.ACE: "A",
    Rank.KING: "K",
    Rank.QUEEN: "Q",
    Rank.JACK: "J",
    Rank.TEN: "T",
    **{r: str(r.value) for r in Rank if r.value <= 9},
}
_RANK_ALIASES: dict[str, Rank] = {letter: rank for rank, letter in _RANK_LETTERS.items()}
_RANK_ALIASES.update(
    {"10": Rank.TEN, "1": Rank.ACE, "R": Rank.KING, "D": Rank.QUEEN, "V": Rank.JACK}
)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``index`` (0-51) follows BigDeal's order: spades A..2, hearts, diamonds, clubs."""

    suit: Suit
    rank: Rank

    @property
    def index(self) -> int:
        return self.suit.value * 13 + (14 - self.rank.value)

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index {index} is outside 0-51")
        return ALL_CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card as suit + rank (``SA``, ``♥10``, ``H1``) or rank + suit (``AS``, ``10♥``, ``VH``).

        Suit first is tried first, because ``D`` is both diamonds and the Belgian queen: ``DA`` is
        the ace of diamonds, ``AD`` also the ace of diamonds, ``DH`` the queen of hearts.
        """
        raw = text.strip()
        if len(raw) < 2:
            raise ParseError(
                f"{text!r} is not a card: give a suit and a rank, e.g. SA or ♥10", text, 0
            )
        suit_first = _SUIT_ALIASES.get(raw[0].upper()) or _SUIT_ALIASES.get(raw[0])
        if suit_first is not None:
            rank = _RANK_ALIASES.get(raw[1:].upper())
            if rank is not None:
                return CARD_BY_SUIT_RANK[suit_first, rank]
        suit_last = _SUIT_ALIASES.get(raw[-1].upper()) or _SUIT_ALIASES.get(raw[-1])
        if suit_last is not None:
            rank = _RANK_ALIASES.get(raw[:-1].upper())
            if rank is not None:
                return CARD_BY_SUIT_RANK[suit_last, rank]
        raise ParseError(f"{text!r} is not a card: give a suit and a rank, e.g. SA or ♥10", text, 0)

    def __str__(self) -> str:
        """``SA``, ``HT``: suit letter then PBN rank letter."""
        return self.suit.letter + self.rank.letter

    @property
    def pretty(self) -> str:
        """``♠A``, ``♥10``: for printed documents."""
        rank = "10" if self.rank is Rank.TEN else self.rank.letter
        return self.suit.symbol + rank

    def __repr__(self) -> str:
        return f"Card({self})"


ALL_CARDS: tuple[Card, ...] = tuple(
    Card(suit, rank) for suit in SUITS for rank in RANKS_HIGH_TO_LOW
)
"""All 52 cards in BigDeal's order: ``ALL_CARDS[c.index] is c``."""

CARD_BY_SUIT_RANK: dict[tuple[Suit, Rank], Card] = {(c.suit, c.rank): c for c in ALL_CARDS}
