"""Result lines: one board result on one short line, for keying paper score sheets quickly.

    NE 9H 10                 N and E accept 9 in hearts and win 10 tricks
    W sol6S 5                W plays a solo for 6 in spades and wins 5 tricks
    N,S mis 0,1              N and S play grand misère; N wins no trick, S wins one
    NW troel8H 9 dbl         troel in hearts, 9 tricks, doubled by an opponent
    pass                     all passed
    N 7NT 7,2,0,3 6,2,1,4    Israeli Whist: N declares 7 no trump; bids, then tricks, of N E S W
    ronde queens N1 E2 S1 W0 Wiezen's Ronde Pas after an all-pass: the queens each seat took

A line is: the declarers' seats, the contract, the tricks, then optional flags (``dbl``: an
opponent announced double; ``ap``: the previous deal at the table was passed out). Contract words
are read in English, Dutch or French, in any case and with or without accents; suits as the
letters H D C S, the symbols ♥♦♣♠ or full Dutch, French and English names. The grammar, every
alias and the error messages are described for tournament directors in docs/notation.md.

``parse_result_line`` checks the shape only (seats, levels, numbers from 0 to 13); whether the
event's ruleset allows the contract, and whether the tricks add up, is ``engine.validation``'s
business. ``format_result_line`` always writes the canonical English short form, and
``parse_result_line(format_result_line(r)) == r`` for every result the notation can express.
Every error is a ``ParseError`` whose ``position`` is the offending character of the line and
whose message starts with its column and says what was expected there. Its ``code`` and
``params`` name the message in ``engine.notation_messages.MESSAGES``, for other languages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import SEATS, Seat, Suit
from engine.errors import EngineError, InvalidResultError, ParseError
from engine.notation_messages import MESSAGES, message
from engine.results import (
    LONE_CONTRACTS,
    PAIR_CONTRACTS,
    RONDE_PAS_FIELDS,
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
)

__all__ = [
    "CANONICAL_WORDS",
    "CONTRACT_ALIASES",
    "GAMES",
    "ISRAELI_LEVELS",
    "LEVELS",
    "MESSAGES",
    "RONDE_PAS_GAME_ALIASES",
    "RONDE_PAS_WORDS",
    "format_result_line",
    "parse_result_line",
]

GAMES: Final = ("kleurenwiezen", "wiezen", "israeli")
"""The games a line can be read for; ``israeli`` lines have their own form."""

MAX_TRICKS: Final = 13

LEVELS: Final[dict[Contract, range]] = {
    Contract.ACCEPT: range(8, 14),
    Contract.SOLO: range(5, 9),
    Contract.ABONDANCE: range(9, 13),
    Contract.TROEL: range(8, 10),
}
"""The levels each contract with levels can be bid at; the other contracts have no level."""

ISRAELI_LEVELS: Final = range(5, 14)

CANONICAL_WORDS: Final[dict[Contract, str]] = {
    Contract.PASS: "pass",
    Contract.ACCEPT: "acc",
    Contract.SOLO: "sol",
    Contract.ABONDANCE: "abon",
    Contract.SOLO_SLIM: "slim",
    Contract.SMALL_SOLO_SLIM: "sslim",
    Contract.GRAND_SOLO: "gsolo",
    Contract.TROEL: "troel",
    Contract.SMALL_MISERE: "smis",
    Contract.PICCOLO: "pic",
    Contract.MISERE: "mis",
    Contract.OPEN_MISERE: "omis",
}
"""The word ``format_result_line`` writes for each contract (an acceptance is written bare: ``9H``)."""


@dataclass(frozen=True, slots=True)
class _Word:
    """What a contract word means: the contract, and the level it implies when none is written."""

    contract: Contract
    level: int | None = None


# Every alias is written lower case, without accents, words separated by one space; in a line the
# words may be separated by spaces, "/" or "-", or written together ("soloslim").
_CONTRACT_WORDS: Final[tuple[tuple[_Word, str], ...]] = (
    (_Word(Contract.PASS), "pass | pas | passe | all pass | all passed | rondje pas"),
    (
        _Word(Contract.ACCEPT),
        "acc | accept | acceptance | proposal and acceptance | samen | vraag | vragen | meegaan"
        " | vragen meegaan | vragen en meegaan | emballage",
    ),
    (_Word(Contract.SOLO), "sol | solo | alleen | alleen gaan | seul"),
    (_Word(Contract.ABONDANCE), "abon | abond | abondance"),
    (
        _Word(Contract.SOLO_SLIM),
        "slim | solo slim | slam | solo slam | grand slam | chelem | grand chelem",
    ),
    (
        _Word(Contract.SMALL_SOLO_SLIM),
        "sslim | small solo slim | kleine solo slim | small slam | petit chelem",
    ),
    (_Word(Contract.GRAND_SOLO), "gsolo | grand solo"),
    (_Word(Contract.TROEL, 8), "troel | trull | trou"),
    (_Word(Contract.TROEL, 9), "troela"),
    (
        _Word(Contract.SMALL_MISERE),
        "smis | kmis | small misere | small misery | kleine miserie | kleine misere"
        " | petite misere",
    ),
    (_Word(Contract.PICCOLO), "pic | piccolo | picco | pico"),
    (
        _Word(Contract.MISERE),
        "mis | gmis | misere | misery | miserie | grand misere | grande misere | large misere"
        " | large misery | grote miserie",
    ),
    (
        _Word(Contract.OPEN_MISERE),
        "omis | open misere | open misery | open miserie | miserie op tafel | misere ouverte"
        " | misere etalee | grande misere ouverte | grande misere etalee",
    ),
)


def _aliases(listed: str) -> list[str]:
    return [alias.strip() for alias in listed.split("|")]


# Ronde Pas lines: an optional word for Ronde Pas itself, then the game and what decides it
# (``ronde last E``, ``dames N1 E2 S1 W0``). Not contract words: nobody declares a Ronde Pas.
# "rondje pas" (with j) stays an all-pass.
RONDE_PAS_WORDS: Final[list[str]] = _aliases(
    "ronde | ronde pas | totale miserie | total misery | misere totale"
)
"""The words that may open a Ronde Pas line (lower case, without accents)."""

_RONDE_PAS_GAME_WORDS: Final[tuple[tuple[RondePasGame, str], ...]] = (
    (
        RondePasGame.LAST_TRICK,
        "last | last trick | laatste | laatste slag | dernier | dernier pli",
    ),
    (RondePasGame.QUEENS, "queens | no queens | dames | vrouwen | geen dames | reines"),
    (
        RondePasGame.FEWEST_TRICKS,
        "tricks | fewest tricks | slagen | minste slagen | plis | moins de plis",
    ),
)
RONDE_PAS_GAME_ALIASES: Final[dict[str, RondePasGame]] = {
    alias: game for game, listed in _RONDE_PAS_GAME_WORDS for alias in _aliases(listed)
}
"""Every Ronde Pas game word the parser reads, and its game."""
RONDE_PAS_CANONICAL: Final[dict[RondePasGame, str]] = {
    RondePasGame.LAST_TRICK: "last",
    RondePasGame.QUEENS: "queens",
    RondePasGame.FEWEST_TRICKS: "tricks",
}


CONTRACT_ALIASES: Final[dict[str, Contract]] = {
    alias: word.contract for word, listed in _CONTRACT_WORDS for alias in _aliases(listed)
}
"""Every contract word the parser reads (lower case, without accents), and its contract."""

_SUIT_WORDS: Final[tuple[tuple[Suit, tuple[str, ...]], ...]] = (
    (Suit.H, ("h", "♥", "♡", "hearts", "heart", "harten", "hart", "coeur", "coeurs")),
    (Suit.D, ("d", "♦", "♢", "diamonds", "diamond", "ruiten", "ruit", "carreau", "carreaux")),
    (Suit.C, ("c", "♣", "♧", "clubs", "club", "klaveren", "klaver", "trefle", "trefles")),
    (Suit.S, ("s", "♠", "♤", "spades", "spade", "schoppen", "schop", "pique", "piques")),
)
_NO_TRUMP_WORDS: Final = ("nt", "sa", "no trump", "no trumps", "sans atout", "zonder troef")
_DOUBLED_WORDS: Final = ("dbl", "double", "doubled", "dubbel", "contre")
_AFTER_PASS_WORDS: Final = ("ap", "after pass", "after all pass")
_AMBIGUOUS_FLAGS: Final = ("x2",)

_SEPARATOR: Final = r"[\s/-]*"
_LETTER: Final = "a-z"


def _key(alias: str) -> str:
    return alias.replace(" ", "")


def _alternation(aliases: Iterable[str]) -> str:
    """A regex alternative of the aliases, longest first so that ``pass`` wins over ``pas``."""
    ordered = sorted(set(aliases), key=lambda a: (-len(_key(a)), a))
    return "|".join(_SEPARATOR.join(re.escape(w) for w in alias.split(" ")) for alias in ordered)


_WORD_BY_KEY: Final[dict[str, _Word]] = {
    _key(alias): word for word, listed in _CONTRACT_WORDS for alias in _aliases(listed)
}
_SUIT_BY_KEY: Final[dict[str, Suit | None]] = {
    **{_key(alias): suit for suit, aliases in _SUIT_WORDS for alias in aliases},
    **{_key(alias): None for alias in _NO_TRUMP_WORDS},
}
_FLAG_BY_KEY: Final[dict[str, str]] = {
    **{_key(alias): "dbl" for alias in _DOUBLED_WORDS},
    **{_key(alias): "ap" for alias in _AFTER_PASS_WORDS},
    **{_key(alias): "ambiguous" for alias in _AMBIGUOUS_FLAGS},
}

# A contract word, optionally followed directly by a suit (``slimC``); neither may run on into
# further letters, so ``solos`` is a solo in spades and ``misc`` is refused, never misread.
_CONTRACT_RE: Final = re.compile(
    rf"(?P<word>{_alternation(CONTRACT_ALIASES)})"
    rf"(?P<suit>[hdcs](?![{_LETTER}])|[♥♦♣♠♡♢♧♤])?(?![{_LETTER}])"
)
_SUIT_RE: Final = re.compile(
    rf"(?:{_alternation([*(a for _, aliases in _SUIT_WORDS for a in aliases), *_NO_TRUMP_WORDS])})"
    rf"(?![{_LETTER}])"
)
_FLAG_RE: Final = re.compile(
    rf"(?:{_alternation([*_DOUBLED_WORDS, *_AFTER_PASS_WORDS, *_AMBIGUOUS_FLAGS])})"
    rf"(?![{_LETTER}0-9])"
)
_RONDE_PAS_RE: Final = re.compile(rf"(?:{_alternation(RONDE_PAS_WORDS)})(?![{_LETTER}])")
_RONDE_PAS_GAME_RE: Final = re.compile(
    rf"(?:{_alternation(RONDE_PAS_GAME_ALIASES)})(?![{_LETTER}])"
)
_RONDE_PAS_GAME_BY_KEY: Final[dict[str, RondePasGame]] = {
    _key(alias): game for alias, game in RONDE_PAS_GAME_ALIASES.items()
}
_NUMBER_RE: Final = re.compile(r"[0-9]+")
_STRAY_SEATS_RE: Final = re.compile(r"[nesw,]+(?:\s|$)")
_SEAT_LETTERS: Final = {"n": Seat.N, "e": Seat.E, "s": Seat.S, "w": Seat.W}


def _declarer_counts(contract: Contract) -> range:
    if contract in PAIR_CONTRACTS:
        return range(2, 3)
    if contract in LONE_CONTRACTS:
        return range(1, 2)
    if contract.is_negative:
        return range(1, 5)
    return range(0, 1)


def _fold(char: str) -> str:
    """Lower case without accents; ``œ`` is ``oe`` and emoji variation selectors disappear."""
    if char in "œŒ":
        return "oe"
    decomposed = unicodedata.normalize("NFD", char.casefold())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


class _Reader:
    """A cursor over the folded line that remembers where each folded character came from."""

    def __init__(self, text: str) -> None:
        self.text = text
        folded: list[str] = []
        self.origin: list[int] = []
        for index, char in enumerate(text):
            for out in _fold(char):
                folded.append(out)
                self.origin.append(index)
        self.origin.append(len(text))
        self.line = "".join(folded)
        self.pos = 0

    # -- errors -------------------------------------------------------------------------------

    def error(self, code: str, at: int | None = None, **params: str | int) -> ParseError:
        """The error ``code`` of ``engine.notation_messages`` at ``at`` (the cursor by default)."""
        return self.error_with(code, params, at)

    def error_with(
        self, code: str, params: Mapping[str, str | int], at: int | None = None
    ) -> ParseError:
        """``error`` with the parameters in a mapping; ``column`` is added to them."""
        index = self.origin[self.pos if at is None else at]
        params = {"column": index + 1, **params}
        return ParseError(message(code, params), self.text, index, code=code, params=params)

    def expected(
        self, code: str, at: int | None = None, params: Mapping[str, str | int] | None = None
    ) -> ParseError:
        """An error whose message ends with what was found instead (``found``)."""
        return self.error_with(code, {"found": self.found(at), **(params or {})}, at)

    def found(self, at: int | None = None) -> str:
        """The word at ``at``, quoted; ``""`` at the end of the line."""
        index = self.origin[self.pos if at is None else at]
        if index >= len(self.text):
            return ""
        end = index
        while end < len(self.text) and not self.text[end].isspace():
            end += 1
        return repr(self.text[index:end])

    # -- scanning -----------------------------------------------------------------------------

    def peek(self) -> str:
        return self.line[self.pos] if self.pos < len(self.line) else ""

    def at_end(self) -> bool:
        return self.pos >= len(self.line)

    def skip_spaces(self) -> None:
        while self.pos < len(self.line) and self.line[self.pos].isspace():
            self.pos += 1

    def space_before(self, part: str) -> None:
        """Require at least one space (the next part is ``part``) and skip the spaces.

        The errors are ``space_before_<part>`` and ``missing_<part>``.
        """
        if not self.at_end() and not self.peek().isspace():
            raise self.expected(f"space_before_{part}")
        self.skip_spaces()
        if self.at_end():
            raise self.error(f"missing_{part}")

    def number(self, item: str, allowed: range, **params: str | int) -> int:
        """A number in ``allowed``; the errors are ``expected_<item>``, ``<item>_out_of_range``."""
        match = _NUMBER_RE.match(self.line, self.pos)
        if match is None:
            raise self.expected(f"expected_{item}", params=params)
        digits = match.group()
        # Four digits are already out of every range; int() of a huge run of digits is slow.
        value = int(digits) if len(digits) <= 4 else allowed.stop
        if value not in allowed:
            limits: dict[str, str | int] = {
                "number": digits,
                "low": allowed.start,
                "high": allowed.stop - 1,
            }
            raise self.error_with(f"{item}_out_of_range", {**limits, **params})
        self.pos = match.end()
        return value

    def numbers(
        self, item: str, items: str, seats: Sequence[Seat], example: str
    ) -> tuple[int, ...]:
        """One number from 0 to 13 for each seat, separated by commas (spaces around are fine).

        Each number is read as ``item``; too many or too few are ``too_many_<items>`` and
        ``too_few_<items>``.
        """
        count = len(seats)
        listed: dict[str, str | int] = {
            "count": count,
            "seats": ", ".join(seat.name for seat in seats),
            "example": example,
        }
        values: list[int] = []
        while True:
            seat = seats[len(values)]
            values.append(self.number(item, range(0, MAX_TRICKS + 1), seat=seat.name))
            mark = self.pos
            self.skip_spaces()
            if self.peek() != ",":
                self.pos = mark
                break
            if len(values) == count:
                raise self.error_with(f"too_many_{items}", listed)
            self.pos += 1
            self.skip_spaces()
        if len(values) < count:
            raise self.error_with(f"too_few_{items}", {**listed, "given": len(values)})
        return tuple(values)

    def seats(self) -> tuple[Seat, ...]:
        """Seats written together (``NE``) or with commas (``N,E``), each at most once."""
        seats: list[Seat] = []
        while True:
            seat = _SEAT_LETTERS.get(self.peek())
            if seat is None:
                raise self.expected("expected_seat")
            if seat in seats:
                raise self.error("seat_twice", seat=seat.name)
            seats.append(seat)
            self.pos += 1
            mark = self.pos
            self.skip_spaces()
            if self.peek() == ",":
                self.pos += 1
                self.skip_spaces()
                continue
            self.pos = mark
            if self.peek() not in _SEAT_LETTERS:
                break
        if not self.at_end() and not self.peek().isspace():
            if self.peek().isalpha():
                raise self.expected("expected_seat")
            raise self.expected("space_after_seats")
        return tuple(seats)

    def suit(self, game: str, missing: str, **params: str | int) -> Suit | None:
        """A trump suit; ``None`` is no trump, which only Israeli Whist has.

        ``missing`` is the error when there is none: ``expected_trump`` (of a contract),
        ``expected_trump_after_level`` or, for Israeli Whist, ``expected_israeli_trump``.
        """
        match = _SUIT_RE.match(self.line, self.pos)
        if match is None:
            raise self.expected(missing, params=params)
        suit = _SUIT_BY_KEY[_key(re.sub(_SEPARATOR, "", match.group()))]
        if suit is None and game != "israeli":
            raise self.error("no_trump_not_israeli")
        self.pos = match.end()
        return suit

    def flags(self) -> tuple[bool, bool]:
        """Optional ``dbl`` and ``ap``, in any order, each once, up to the end of the line."""
        doubled = after_all_pass = False
        while True:
            self.skip_spaces()
            if self.at_end():
                return doubled, after_all_pass
            match = _FLAG_RE.match(self.line, self.pos)
            if match is None:
                raise self.expected("expected_flag")
            flag = _FLAG_BY_KEY[_key(re.sub(_SEPARATOR, "", match.group()))]
            if flag == "ambiguous":
                raise self.expected("ambiguous_flag")
            if (flag == "dbl" and doubled) or (flag == "ap" and after_all_pass):
                raise self.error("flag_twice", flag=flag)
            doubled = doubled or flag == "dbl"
            after_all_pass = after_all_pass or flag == "ap"
            self.pos = match.end()
            if not self.at_end() and not self.peek().isspace():
                raise self.expected("space_after_flag")


def parse_result_line(text: str, game: str = "kleurenwiezen") -> AnyResult:
    """Read one result line; ``game`` is ``kleurenwiezen``, ``wiezen`` or ``israeli``.

    Raises ``ParseError`` pointing at the offending character. Only the shape is checked.
    """
    if game not in GAMES:
        raise EngineError(f"unknown game {game!r}; games are {', '.join(GAMES)}")
    reader = _Reader(text)
    reader.skip_spaces()
    if reader.at_end():
        raise reader.error("empty_israeli_line" if game == "israeli" else "empty_line")
    if game == "israeli":
        return _parse_israeli(reader)
    return _parse_board(reader, game)


def _parse_board(reader: _Reader, game: str) -> BoardResult | RondePasResult:
    start = reader.pos
    ronde_pas = _parse_ronde_pas(reader)
    if ronde_pas is not None:
        return ronde_pas
    opening = _CONTRACT_RE.match(reader.line, start)
    if opening is not None:
        word = _WORD_BY_KEY[_key(re.sub(_SEPARATOR, "", opening.group("word")))]
        if word.contract is not Contract.PASS:
            raise reader.expected("seats_before_contract")
        reader.pos = opening.end()
        if opening.group("suit"):
            raise reader.expected("expected_flag", opening.start("suit"))
        doubled, after_all_pass = reader.flags()
        return BoardResult(Contract.PASS, doubled=doubled, after_all_pass=after_all_pass)

    declarers = reader.seats()
    reader.space_before("contract")
    contract, level, trump = _parse_contract(reader, game)
    counts = _declarer_counts(contract)
    if len(declarers) not in counts:
        raise reader.error(
            f"declarers_{_declarer_count_kind(counts)}",
            start,
            a_contract=contract.value,
            count=len(declarers),
        )

    reader.space_before("tricks")
    tricks: int | None = None
    declarer_tricks: tuple[int, ...] = ()
    if reader.peek() == "?":
        reader.pos += 1
    elif contract.is_negative:
        declarer_tricks = reader.numbers(
            "declarer_tricks", "trick_counts", declarers, ",".join("0" for _ in declarers)
        )
    else:
        tricks = reader.number("side_tricks", range(0, MAX_TRICKS + 1))
        mark = reader.pos
        reader.skip_spaces()
        if reader.peek() == ",":
            raise reader.error("one_trick_count", a_contract=contract.value)
        reader.pos = mark
    if not reader.at_end() and not reader.peek().isspace():
        raise reader.expected("space_after_tricks")
    doubled, after_all_pass = reader.flags()
    return BoardResult(
        contract=contract,
        level=level,
        trump=trump,
        declarers=declarers,
        tricks=tricks,
        declarer_tricks=declarer_tricks,
        doubled=doubled,
        after_all_pass=after_all_pass,
    )


def _parse_contract(reader: _Reader, game: str) -> tuple[Contract, int | None, Suit | None]:
    """The contract part: ``9H``, ``sol6S``, ``abondance 10 ruiten``, ``troel H``, ``slim C``, ``mis``."""
    if _is_digit(reader.peek()):
        return _parse_bare_accept(reader, game)
    match = _CONTRACT_RE.match(reader.line, reader.pos)
    if match is None:
        if _STRAY_SEATS_RE.match(reader.line, reader.pos):
            raise reader.error("seats_with_spaces")
        raise reader.expected("expected_contract")
    word = _WORD_BY_KEY[_key(re.sub(_SEPARATOR, "", match.group("word")))]
    contract = word.contract
    if contract is Contract.PASS:
        raise reader.error("pass_with_seats")
    glued_suit_at = match.start("suit") if match.group("suit") else None
    reader.pos = match.end("word")
    if glued_suit_at is not None and not contract.has_trump:
        raise reader.error("suit_without_trumps", glued_suit_at, a_contract=contract.value)

    level: int | None = None
    if contract in LEVELS:
        allowed = LEVELS[contract]
        if glued_suit_at is None:
            reader.skip_spaces()
        if glued_suit_at is None and _is_digit(reader.peek()):
            level = reader.number("level", allowed, the_contract=contract.value)
            reader.skip_spaces()
        elif word.level is not None:
            level = word.level
        else:
            word_part = "" if contract is Contract.ACCEPT else CANONICAL_WORDS[contract]
            raise reader.expected(
                "wiezen_solo_level_before_suit"
                if contract is Contract.SOLO and game == "wiezen"
                else "level_before_suit",
                params={
                    "the_contract": contract.value,
                    "low": allowed.start,
                    "high": allowed.stop - 1,
                    "example": f"{word_part}{allowed.start}S",
                },
            )
    trump: Suit | None = None
    if contract.has_trump:
        if contract not in LEVELS:
            reader.skip_spaces()
        trump = reader.suit(game, "expected_trump", the_contract=contract.value)
    _end_of_part(reader)
    return contract, level, trump


def _parse_bare_accept(reader: _Reader, game: str) -> tuple[Contract, int | None, Suit | None]:
    """An acceptance written as its level and suit alone: ``9H``, ``10 ♠``, ``8 harten``."""
    level = reader.number("level", LEVELS[Contract.ACCEPT], the_contract=Contract.ACCEPT.value)
    reader.skip_spaces()
    trump = reader.suit(game, "expected_trump_after_level")
    _end_of_part(reader)
    return Contract.ACCEPT, level, trump


def _is_digit(char: str) -> bool:
    return len(char) == 1 and "0" <= char <= "9"


def _end_of_part(reader: _Reader) -> None:
    if not reader.at_end() and not reader.peek().isspace():
        raise reader.expected("space_after_contract")


def _parse_ronde_pas(reader: _Reader) -> RondePasResult | None:
    """A Ronde Pas line, or ``None`` (nothing read) when the line is not one.

    Read for Kleurenwiezen too, as every contract is: that the game has no Ronde Pas is the
    ruleset's to say (``engine.validation``).
    """
    opening = _RONDE_PAS_RE.match(reader.line, reader.pos)
    if opening is not None:
        reader.pos = opening.end()
        reader.skip_spaces()
    match = _RONDE_PAS_GAME_RE.match(reader.line, reader.pos)
    if match is None:
        if opening is None:
            return None
        raise reader.expected("ronde_pas_expected_game")
    game = _RONDE_PAS_GAME_BY_KEY[_key(re.sub(_SEPARATOR, "", match.group()))]
    reader.pos = match.end()
    reader.skip_spaces()
    if game is RondePasGame.LAST_TRICK:
        seat = _SEAT_LETTERS.get(reader.peek())
        if seat is None:
            raise reader.expected("ronde_pas_expected_seat")
        reader.pos += 1
        result = RondePasResult(game, last_trick=seat)
    elif game is RondePasGame.QUEENS:
        result = RondePasResult(game, queens=_seat_counts(reader, "queens", 4))
    else:
        result = RondePasResult(game, tricks=_seat_counts(reader, "tricks", MAX_TRICKS))
    reader.skip_spaces()
    if not reader.at_end():
        raise reader.expected("expected_end")
    return result


def _seat_counts(reader: _Reader, counted: str, high: int) -> tuple[int, int, int, int]:
    """Each seat with its count, ``N1 E2 S1 W0``: in any order, apart or by commas, each once."""
    item = "queens" if counted == "queens" else "player_tricks"
    counts: dict[Seat, int] = {}
    while len(counts) < len(SEATS):
        reader.skip_spaces()
        if counts and reader.peek() == ",":
            reader.pos += 1
            reader.skip_spaces()
        seat = _SEAT_LETTERS.get(reader.peek())
        if seat is None:
            if reader.at_end() and counts:
                missing = ", ".join(other.name for other in SEATS if other not in counts)
                raise reader.error(f"{counted}_seats_missing", seats=missing)
            raise reader.expected(f"expected_seat_{counted}")
        if seat in counts:
            raise reader.error("seat_twice", seat=seat.name)
        reader.pos += 1
        reader.skip_spaces()
        counts[seat] = reader.number(item, range(0, high + 1), seat=seat.name)
    return _four(tuple(counts[seat] for seat in SEATS))


def _parse_israeli(reader: _Reader) -> IsraeliResult:
    declarer = _SEAT_LETTERS.get(reader.peek())
    if declarer is None:
        raise reader.expected("expected_israeli_declarer")
    reader.pos += 1
    if reader.peek() in _SEAT_LETTERS or reader.peek() == ",":
        raise reader.error("israeli_one_declarer")
    reader.space_before("israeli_contract")
    level = reader.number("israeli_level", ISRAELI_LEVELS)
    reader.skip_spaces()
    trump = reader.suit("israeli", "expected_israeli_trump")
    _end_of_part(reader)
    reader.space_before("bids")
    bids = reader.numbers("bid", "bids", SEATS, "7,2,0,3")
    reader.space_before("player_tricks")
    tricks: tuple[int, ...] | None = None
    if reader.peek() == "?":
        reader.pos += 1
    else:
        tricks = reader.numbers("player_tricks", "trick_counts", SEATS, "6,2,1,4")
    reader.skip_spaces()
    if not reader.at_end():
        raise reader.expected("expected_end")
    return IsraeliResult(
        declarer, level, trump, _four(bids), _four(tricks) if tricks is not None else None
    )


def _four(values: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])


def _declarer_count_kind(counts: range) -> str:
    """How many declarers a contract has, as the end of its error codes (``declarers_two``)."""
    if counts.stop - counts.start == 1:
        return {0: "none", 1: "one", 2: "two"}[counts.start]
    return "one_to_four"


def _invalid(code: str, field: str, **params: str | int) -> InvalidResultError:
    return InvalidResultError(message(code, params), field, code=code, params=params)


# -- formatting -------------------------------------------------------------------------------


def format_result_line(result: AnyResult) -> str:
    """The canonical English line of a result (``NE 9H 10``, ``N,S mis 0,1``, ``pass``).

    Raises ``InvalidResultError`` naming the field when the result has a shape no line can
    express (a level outside the contract's range, a missing trump, a wrong number of declarers).
    """
    if isinstance(result, IsraeliResult):
        return _format_israeli(result)
    if isinstance(result, RondePasResult):
        return _format_ronde_pas(result)
    _check_board_shape(result)
    contract = result.contract
    flags = [flag for flag, on in (("dbl", result.doubled), ("ap", result.after_all_pass)) if on]
    if contract is Contract.PASS:
        return " ".join(("pass", *flags))
    joiner = "," if contract.is_negative else ""
    seats = joiner.join(seat.name for seat in result.declarers)
    word = CANONICAL_WORDS[contract]
    trump = result.trump.letter if result.trump is not None else ""
    if contract is Contract.ACCEPT:
        part = f"{result.level}{trump}"
    elif contract in LEVELS:
        part = f"{word}{result.level}{trump}"
    elif contract.has_trump:
        part = f"{word} {trump}"
    else:
        part = word
    if contract.is_negative:
        tricks = ",".join(str(t) for t in result.declarer_tricks) or "?"
    else:
        tricks = "?" if result.tricks is None else str(result.tricks)
    return " ".join((seats, part, tricks, *flags))


def _format_israeli(result: IsraeliResult) -> str:
    if result.level not in ISRAELI_LEVELS:
        raise _invalid(
            "israeli_level_range", "level", low=ISRAELI_LEVELS.start, high=ISRAELI_LEVELS.stop - 1
        )
    for field, code, values in (
        ("bids", "bids_range", result.bids),
        ("tricks", "seat_tricks_range", result.tricks or ()),
    ):
        for seat, value in zip(SEATS, values, strict=False):
            if not 0 <= value <= MAX_TRICKS:
                raise _invalid(code, f"{field}.{seat.name}", seat=seat.name, high=MAX_TRICKS)
    trump = "NT" if result.trump is None else result.trump.letter
    bids = ",".join(str(b) for b in result.bids)
    tricks = "?" if result.tricks is None else ",".join(str(t) for t in result.tricks)
    return f"{result.declarer.name} {result.level}{trump} {bids} {tricks}"


def _format_ronde_pas(result: RondePasResult) -> str:
    game = result.game
    fields = {
        "last_trick": result.last_trick is not None,
        "queens": result.queens is not None,
        "tricks": result.tricks is not None,
    }
    decisive = RONDE_PAS_FIELDS[game]
    for field, present in fields.items():
        if present != (field == decisive):
            code = "ronde_pas_field_extra" if present else "ronde_pas_field_missing"
            raise _invalid(code, field, game=game.value, item=field)
    word = RONDE_PAS_CANONICAL[game]
    if result.last_trick is not None:
        return f"ronde {word} {result.last_trick.name}"
    counts = result.queens if result.queens is not None else result.tricks
    assert counts is not None, "checked above"
    high, code = (
        (4, "queens_range") if result.queens is not None else (MAX_TRICKS, "seat_tricks_range")
    )
    for seat in SEATS:
        if not 0 <= counts[seat.value] <= high:
            raise _invalid(code, f"{decisive}.{seat.name}", seat=seat.name, high=high)
    return f"ronde {word} " + " ".join(f"{seat.name}{counts[seat.value]}" for seat in SEATS)


def _check_board_shape(result: BoardResult) -> None:
    """A board result's fields must fit its contract: level, trump, declarers and tricks."""
    contract = result.contract
    if contract is Contract.ISRAELI:
        raise _invalid("israeli_not_board_result", "contract")
    if contract is Contract.RONDE_PAS:
        raise _invalid("ronde_pas_not_board_result", "contract")
    token = contract.value
    if contract in LEVELS:
        allowed = LEVELS[contract]
        if result.level not in allowed:
            raise _invalid(
                "contract_level_range",
                "level",
                a_contract=token,
                low=allowed.start,
                high=allowed.stop - 1,
                level=str(result.level),
            )
    elif result.level is not None:
        raise _invalid("contract_has_no_level", "level", a_contract=token)
    if contract.has_trump and result.trump is None:
        raise _invalid("contract_needs_trump", "trump", a_contract=token)
    if not contract.has_trump and result.trump is not None:
        raise _invalid("contract_has_no_trump", "trump", a_contract=token)
    counts = _declarer_counts(contract)
    if len(result.declarers) not in counts or len(set(result.declarers)) != len(result.declarers):
        raise _invalid(
            f"result_declarers_{_declarer_count_kind(counts)}",
            "declarers",
            a_contract=token,
            count=len(result.declarers),
        )
    _check_board_tricks(result, token)


def _check_board_tricks(result: BoardResult, token: str) -> None:
    """Trick counts: one per declarer for a negative contract, else one for the side, in range."""
    contract = result.contract
    if contract.is_negative:
        if result.tricks is not None:
            raise _invalid("misere_tricks_per_declarer", "tricks")
        if result.declarer_tricks and len(result.declarer_tricks) != len(result.declarers):
            raise _invalid("declarer_tricks_count", "tricks")
        counts_to_check: tuple[int, ...] = result.declarer_tricks
    else:
        if result.declarer_tricks:
            raise _invalid("one_trick_count_in_tricks", "tricks", a_contract=token)
        if contract is Contract.PASS and result.tricks is not None:
            raise _invalid("pass_has_no_tricks", "tricks")
        counts_to_check = () if result.tricks is None else (result.tricks,)
    for count in counts_to_check:
        if not 0 <= count <= MAX_TRICKS:
            raise _invalid("tricks_range", "tricks", high=MAX_TRICKS, count=count)
