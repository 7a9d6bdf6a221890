"""Calls: what a player says at their turn in an auction, and its text form.

The text form is the one of docs/engine-cli.md: a lower-case word, then a suit (``H D C S``, or
``NT`` in Israeli Whist), then a number, then cards, each only where the call has one:
``pass``, ``propose H``, ``accept D 9``, ``solo H 7``, ``abondance S 10``, ``solo_slim C``,
``misere``, ``switch C``, ``bid NT 7``, ``tricks 3``, ``give SA HK D2``.
``Call.parse(str(call)) == call`` for every call.

Which calls exist in which game, and when they are legal, is for the auction machines; the parser
only checks that a call is well formed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.cards import Card, Seat, Suit
from engine.errors import ParseError
from engine.results import Contract


class CallKind(Enum):
    """The word a call starts with."""

    PASS = "pass"
    WAIT = "wait"
    PAROLE = "parole"
    PROPOSE = "propose"
    ACCEPT = "accept"
    SOLO = "solo"
    ABONDANCE = "abondance"
    SMALL_SOLO_SLIM = "small_solo_slim"
    SOLO_SLIM = "solo_slim"
    GRAND_SOLO = "grand_solo"
    SMALL_MISERE = "small_misere"
    PICCOLO = "piccolo"
    MISERE = "misere"
    OPEN_MISERE = "open_misere"
    TROEL = "troel"
    SWITCH = "switch"
    TRUMP = "trump"
    CARTE_BLANCHE = "carte_blanche"
    BID = "bid"
    TRICKS = "tricks"
    GIVE = "give"

    @property
    def contract(self) -> Contract | None:
        """The contract a bid of this kind is for (``None`` for calls that are not bids)."""
        return _CONTRACT_OF_KIND.get(self)


_CONTRACT_OF_KIND: dict[CallKind, Contract] = {
    CallKind.ACCEPT: Contract.ACCEPT,
    CallKind.SOLO: Contract.SOLO,
    CallKind.ABONDANCE: Contract.ABONDANCE,
    CallKind.SMALL_SOLO_SLIM: Contract.SMALL_SOLO_SLIM,
    CallKind.SOLO_SLIM: Contract.SOLO_SLIM,
    CallKind.GRAND_SOLO: Contract.GRAND_SOLO,
    CallKind.SMALL_MISERE: Contract.SMALL_MISERE,
    CallKind.PICCOLO: Contract.PICCOLO,
    CallKind.MISERE: Contract.MISERE,
    CallKind.OPEN_MISERE: Contract.OPEN_MISERE,
    CallKind.TROEL: Contract.TROEL,
    CallKind.BID: Contract.ISRAELI,
}

KIND_OF_CONTRACT: dict[Contract, CallKind] = {c: k for k, c in _CONTRACT_OF_KIND.items()}

# What may follow the word: a suit ("no", "optional", "required"), a number, cards.
_NO, _OPTIONAL, _REQUIRED = 0, 1, 2
_SHAPES: dict[CallKind, tuple[int, int, bool]] = {
    CallKind.PASS: (_NO, _NO, False),
    CallKind.WAIT: (_NO, _NO, False),
    CallKind.PAROLE: (_NO, _NO, False),
    CallKind.PROPOSE: (_OPTIONAL, _NO, False),
    CallKind.ACCEPT: (_OPTIONAL, _OPTIONAL, False),
    CallKind.SOLO: (_OPTIONAL, _OPTIONAL, False),
    CallKind.ABONDANCE: (_OPTIONAL, _REQUIRED, False),
    CallKind.SMALL_SOLO_SLIM: (_OPTIONAL, _NO, False),
    CallKind.SOLO_SLIM: (_OPTIONAL, _NO, False),
    CallKind.GRAND_SOLO: (_NO, _NO, False),
    CallKind.SMALL_MISERE: (_NO, _NO, False),
    CallKind.PICCOLO: (_NO, _NO, False),
    CallKind.MISERE: (_NO, _NO, False),
    CallKind.OPEN_MISERE: (_NO, _NO, False),
    CallKind.TROEL: (_NO, _NO, False),
    CallKind.SWITCH: (_REQUIRED, _NO, False),
    CallKind.TRUMP: (_REQUIRED, _NO, False),
    CallKind.CARTE_BLANCHE: (_NO, _NO, False),
    # ``bid`` takes a suit or NT (no trump, kept as suit None) and the number of tricks.
    CallKind.BID: (_OPTIONAL, _REQUIRED, False),
    CallKind.TRICKS: (_NO, _REQUIRED, False),
    CallKind.GIVE: (_NO, _NO, True),
}

_ALIASES = {
    "parôle": "parole",
    "pass_parole": "parole",
    "passe_parole": "parole",
    "miserie": "misere",
    "misère": "misere",
    "small_misère": "small_misere",
    "open_misère": "open_misere",
    "trou": "troel",
}
_KINDS_BY_WORD = {kind.value: kind for kind in CallKind}
_SUIT_WORDS = {"H": Suit.H, "D": Suit.D, "C": Suit.C, "S": Suit.S, "♥": Suit.H, "♦": Suit.D}
_SUIT_WORDS.update({"♣": Suit.C, "♠": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C, "♤": Suit.S})


@dataclass(frozen=True, slots=True)
class Call:
    """One call. ``suit`` is ``None`` where the call has none, and for ``bid NT``; ``level`` is the
    number of tricks (for ``accept`` and ``solo`` it may be left out: the auction fills in the
    lowest level that outranks the highest bid); ``cards`` is only for ``give``.
    """

    kind: CallKind
    suit: Suit | None = None
    level: int | None = None
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        suit_shape, level_shape, takes_cards = _SHAPES[self.kind]
        if self.suit is not None and suit_shape == _NO:
            raise ValueError(f"{self.kind.value} takes no suit")
        if self.suit is None and suit_shape == _REQUIRED:
            raise ValueError(f"{self.kind.value} needs a suit")
        if self.level is not None and level_shape == _NO:
            raise ValueError(f"{self.kind.value} takes no number")
        if self.level is None and level_shape == _REQUIRED:
            raise ValueError(f"{self.kind.value} needs a number")
        if self.cards and not takes_cards:
            raise ValueError(f"{self.kind.value} takes no cards")

    @property
    def contract(self) -> Contract | None:
        return self.kind.contract

    def __str__(self) -> str:
        words = [self.kind.value]
        if self.suit is not None:
            words.append(self.suit.letter)
        elif self.kind is CallKind.BID:
            words.append("NT")
        if self.level is not None:
            words.append(str(self.level))
        words.extend(str(card) for card in self.cards)
        return " ".join(words)

    def __repr__(self) -> str:
        return f"Call({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read a call from its text form; words are case-insensitive, suits may be symbols."""
        if not isinstance(text, str):
            raise ParseError(f"a call must be text such as 'pass' or 'propose H', not {text!r}")
        words = text.split()
        if not words:
            raise ParseError("a call is empty; say for example 'pass' or 'propose H'", text, 0)
        word = words[0].lower().replace("-", "_")
        word = _ALIASES.get(word, word)
        kind = _KINDS_BY_WORD.get(word)
        if kind is None:
            known = ", ".join(k.value for k in CallKind)
            raise ParseError(f"unknown call {words[0]!r}; calls are {known}", text, 0)
        suit_shape, level_shape, takes_cards = _SHAPES[kind]
        suit, rest = _read_suit(text, kind, suit_shape, words[1:])
        level, rest = _read_level(text, kind, level_shape, rest)
        cards: tuple[Card, ...] = ()
        if takes_cards:
            cards = _read_cards(text, rest)
            rest = []
        if rest:
            raise ParseError(
                f"unexpected {rest[0]!r} in call '{text}'", text, _position(text, rest[0])
            )
        return cls(kind, suit, level, cards)


def _read_suit(
    text: str, kind: CallKind, suit_shape: int, rest: list[str]
) -> tuple[Suit | None, list[str]]:
    """The suit after the word, if the call takes one (``bid NT`` has none), and the words left."""
    if rest and suit_shape != _NO:
        token = rest[0].upper()
        if token in _SUIT_WORDS:
            return _SUIT_WORDS[token], rest[1:]
        if kind is CallKind.BID and token == "NT":
            return None, rest[1:]
        if kind is CallKind.BID:
            raise ParseError(
                f"'bid' needs a suit (H, D, C, S) or NT, then the tricks: 'bid H 7'; "
                f"got {rest[0]!r}",
                text,
                _position(text, rest[0]),
            )
    elif suit_shape == _REQUIRED:
        raise ParseError(f"'{kind.value}' needs a suit: '{kind.value} H'", text, len(text))
    elif kind is CallKind.BID:
        raise ParseError("'bid' needs a suit or NT and the tricks: 'bid H 7'", text, len(text))
    return None, rest


def _read_level(
    text: str, kind: CallKind, level_shape: int, rest: list[str]
) -> tuple[int | None, list[str]]:
    """The number of tricks, if the call takes one, and the words left."""
    if rest and level_shape != _NO and rest[0].isdigit():
        level = int(rest[0])
        if level > 13:
            raise ParseError(
                f"{level} tricks is more than 13 in '{text}'", text, _position(text, rest[0])
            )
        return level, rest[1:]
    if level_shape == _REQUIRED:
        example = {CallKind.TRICKS: "tricks 3", CallKind.BID: "bid H 7"}.get(
            kind, f"{kind.value} H 9"
        )
        raise ParseError(f"'{kind.value}' needs a number of tricks: '{example}'", text, len(text))
    return None, rest


def _read_cards(text: str, words: list[str]) -> tuple[Card, ...]:
    """The cards of a ``give``, each named once."""
    cards = tuple(Card.parse(token) for token in words)
    if len(set(cards)) != len(cards):
        raise ParseError(f"'{text}' names a card twice", text, 0)
    return cards


def _position(text: str, token: str) -> int:
    found = text.find(token)
    return found if found >= 0 else 0


@dataclass(frozen=True, slots=True)
class CallRecord:
    """A call as it was made: its place in the auction's log, who made it, and what was said
    (with any level the auction filled in)."""

    index: int
    seat: Seat
    call: Call

    def __str__(self) -> str:
        return f"{self.seat.name}: {self.call}"


def calls_of(texts: object) -> list[Call]:
    """Read a list of calls (``Call``, ``CallRecord`` or text); the error names the position."""
    if not isinstance(texts, list | tuple):
        raise ParseError('calls must be a list, e.g. ["pass", "propose H"]')
    out: list[Call] = []
    for index, item in enumerate(texts):
        if isinstance(item, Call):
            out.append(item)
        elif isinstance(item, CallRecord):
            out.append(item.call)
        else:
            try:
                out.append(Call.parse(item))
            except ParseError as exc:
                raise ParseError(f"call {index}: {exc}", exc.text, exc.position) from None
    return out
