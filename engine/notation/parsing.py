"""Reading a result line: the board, Ronde Pas and Israeli Whist forms, shape checked only."""

from __future__ import annotations

import re

from engine.cards import SEATS, Seat, Suit
from engine.errors import EngineError
from engine.notation.grammar import (
    CANONICAL_WORDS,
    CONTRACT_RE,
    GAMES,
    ISRAELI_LEVELS,
    LEVELS,
    MAX_TRICKS,
    RONDE_PAS_GAME_BY_KEY,
    RONDE_PAS_GAME_RE,
    RONDE_PAS_RE,
    SEAT_LETTERS,
    SEPARATOR,
    STRAY_SEATS_RE,
    WORD_BY_KEY,
    alias_key,
    declarer_count_kind,
    declarer_counts,
)
from engine.notation.reader import Reader
from engine.results import (
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
)


def parse_result_line(text: str, game: str = "kleurenwiezen") -> AnyResult:
    """Read one result line; ``game`` is ``kleurenwiezen``, ``wiezen`` or ``israeli``.

    Raises ``ParseError`` pointing at the offending character. Only the shape is checked.
    """
    if game not in GAMES:
        raise EngineError(f"unknown game {game!r}; games are {', '.join(GAMES)}")
    reader = Reader(text)
    reader.skip_spaces()
    if reader.at_end():
        raise reader.error("empty_israeli_line" if game == "israeli" else "empty_line")
    if game == "israeli":
        return _parse_israeli(reader)
    return _parse_board(reader, game)


def _parse_board(reader: Reader, game: str) -> BoardResult | RondePasResult:
    start = reader.pos
    ronde_pas = _parse_ronde_pas(reader)
    if ronde_pas is not None:
        return ronde_pas
    opening = CONTRACT_RE.match(reader.line, start)
    if opening is not None:
        word = WORD_BY_KEY[alias_key(re.sub(SEPARATOR, "", opening.group("word")))]
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
    counts = declarer_counts(contract)
    if len(declarers) not in counts:
        raise reader.error(
            f"declarers_{declarer_count_kind(counts)}",
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


def _parse_contract(reader: Reader, game: str) -> tuple[Contract, int | None, Suit | None]:
    """The contract part: ``9H``, ``sol6S``, ``abondance 10 ruiten``, ``troel H``, ``slim C``, ``mis``."""
    if _is_digit(reader.peek()):
        return _parse_bare_accept(reader, game)
    match = CONTRACT_RE.match(reader.line, reader.pos)
    if match is None:
        if STRAY_SEATS_RE.match(reader.line, reader.pos):
            raise reader.error("seats_with_spaces")
        raise reader.expected("expected_contract")
    word = WORD_BY_KEY[alias_key(re.sub(SEPARATOR, "", match.group("word")))]
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


def _parse_bare_accept(reader: Reader, game: str) -> tuple[Contract, int | None, Suit | None]:
    """An acceptance written as its level and suit alone: ``9H``, ``10 ♠``, ``8 harten``."""
    level = reader.number("level", LEVELS[Contract.ACCEPT], the_contract=Contract.ACCEPT.value)
    reader.skip_spaces()
    trump = reader.suit(game, "expected_trump_after_level")
    _end_of_part(reader)
    return Contract.ACCEPT, level, trump


def _is_digit(char: str) -> bool:
    return len(char) == 1 and "0" <= char <= "9"


def _end_of_part(reader: Reader) -> None:
    if not reader.at_end() and not reader.peek().isspace():
        raise reader.expected("space_after_contract")


def _parse_ronde_pas(reader: Reader) -> RondePasResult | None:
    """A Ronde Pas line, or ``None`` (nothing read) when the line is not one.

    Read for Kleurenwiezen too, as every contract is: that the game has no Ronde Pas is the
    ruleset's to say (``engine.validation``).
    """
    opening = RONDE_PAS_RE.match(reader.line, reader.pos)
    if opening is not None:
        reader.pos = opening.end()
        reader.skip_spaces()
    match = RONDE_PAS_GAME_RE.match(reader.line, reader.pos)
    if match is None:
        if opening is None:
            return None
        raise reader.expected("ronde_pas_expected_game")
    game = RONDE_PAS_GAME_BY_KEY[alias_key(re.sub(SEPARATOR, "", match.group()))]
    reader.pos = match.end()
    reader.skip_spaces()
    if game is RondePasGame.LAST_TRICK:
        seat = SEAT_LETTERS.get(reader.peek())
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


def _seat_counts(reader: Reader, counted: str, high: int) -> tuple[int, int, int, int]:
    """Each seat with its count, ``N1 E2 S1 W0``: in any order, apart or by commas, each once."""
    item = "queens" if counted == "queens" else "player_tricks"
    counts: dict[Seat, int] = {}
    while len(counts) < len(SEATS):
        reader.skip_spaces()
        if counts and reader.peek() == ",":
            reader.pos += 1
            reader.skip_spaces()
        seat = SEAT_LETTERS.get(reader.peek())
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


def _parse_israeli(reader: Reader) -> IsraeliResult:
    declarer = SEAT_LETTERS.get(reader.peek())
    if declarer is None:
        raise reader.expected("expected_israeli_declarer")
    reader.pos += 1
    if reader.peek() in SEAT_LETTERS or reader.peek() == ",":
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
