"""The plain data each document is drawn from: no database, no Django models.

``documents.loaders`` builds these from an event; benchmarks and tests may build them
in memory. Texts that the renderers print in the document's language (labels, headings) are not
here: only names, numbers and what the table recorded.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from documents.game import (
    CANONICAL_WORDS,
    LEVELS,
    AnyResult,
    BoardDeal,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasResult,
    Suit,
    format_result_line,
)

SEAT_ORDER = ("N", "E", "S", "W", "X")


@dataclass(frozen=True)
class EventInfo:
    """What every document prints about its event."""

    slug: str
    name: str
    date: dt.date
    venue: str = ""
    game: str = "kleurenwiezen"
    ruleset_title: str = ""
    balancing: bool = True
    comparison: str = "matchpoints"


@dataclass(frozen=True)
class Person:
    """Who sits in a seat, as printed: number, name and club.

    A substitute (``substitute``) is printed with that word after the name. A vacant seat
    (``vacant``) is printed as an empty line to write on; its ``number`` is that of the player the
    seat was planned for, so that the seat keeps its place in the table's rotation, but it is not
    printed.
    """

    number: int
    name: str
    club: str = ""
    substitute: bool = False
    vacant: bool = False

    @property
    def label(self) -> str:
        return "" if self.vacant else f"{self.number}. {self.name}"


# --- score sheets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedLine:
    """What a table recorded on a board, split the way the score sheet's columns are."""

    declarers: str
    contract: str
    tricks: str
    scores: tuple[int, int, int, int]  # N, E, S, W
    artificial: bool = False  # an artificial score the TD awarded: no contract to print


@dataclass(frozen=True)
class SheetBoard:
    """One line of a score sheet: a board in the table's playing order.

    ``holders`` are the player numbers at N, E, S, W on this board (at a table of five they change
    from board to board); ``out`` is the player of a table of five who sits this board out.
    """

    position: int
    board: int
    dealer: str
    holders: tuple[int | None, int | None, int | None, int | None]  # None: an empty seat
    out: int | None = None
    played: PlayedLine | None = None


@dataclass(frozen=True)
class TableSheet:
    round: int
    table: int
    seats: Mapping[str, Person]  # N, E, S, W and, at a table of five, X
    boards: tuple[SheetBoard, ...]

    @property
    def players(self) -> list[tuple[str, Person]]:
        return [(seat, self.seats[seat]) for seat in SEAT_ORDER if seat in self.seats]


@dataclass(frozen=True)
class ScoreSheets:
    event: EventInfo
    round: int
    tables: tuple[TableSheet, ...]
    summary: tuple[Mapping[str, str], ...] = ()  # rulesets.summary(): contract, made, failed


# --- hand records and dealing slips ---------------------------------------------------------


@dataclass(frozen=True)
class HandRecords:
    """Boards with their deals; ``key`` is empty until the event has revealed it.

    Deals loaded from a file have no commitment and no key: ``deal_file`` and
    ``deal_file_sha256`` name the file instead.
    """

    event: EventInfo
    boards: tuple[BoardDeal, ...]
    round: int | None = None
    commitment: str = ""
    key: str = ""
    copies: Mapping[int, int] = field(default_factory=dict)  # board -> tables that play it
    deal_file: str = ""
    deal_file_sha256: str = ""

    def copies_of(self, board: int) -> int:
        return max(1, self.copies.get(board, 1))


# --- guide cards and table cards ------------------------------------------------------------


ABSENT = "ABSENT"
"""The "seat" of a player whose planned seat is vacant or taken by a substitute that round."""


@dataclass(frozen=True)
class Placement:
    """Where a player sits in a round: a table and seat (N E S W, X for the fifth chair), a bye,
    or nowhere (``ABSENT``: someone else or nobody sits in the seat planned for them)."""

    round: int
    table: int | None
    seat: str  # N, E, S, W, X, BYE or ABSENT
    boards: tuple[int, ...] = ()


@dataclass(frozen=True)
class GuideCard:
    person: Person
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class TableRound:
    round: int
    seats: Mapping[str, Person]
    boards: tuple[int, ...]
    # The table device's link (printed as a QR code) and PIN, on a card of one round in play.
    device_url: str = ""
    device_pin: str = ""


@dataclass(frozen=True)
class TableCard:
    table: int
    rounds: tuple[TableRound, ...]


@dataclass(frozen=True)
class SeatingCards:
    event: EventInfo
    guide_cards: tuple[GuideCard, ...]
    table_cards: tuple[TableCard, ...]
    round: int | None = None  # table cards of one round only, when set


# --- standings, personal score cards, summary -----------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    place: str  # "3=" for a shared place
    entry: int
    name: str
    club: str
    total: str
    rounds: Mapping[str, str]  # round number (as text) -> that round's figure
    boards: int
    withdrawn: bool = False
    substitute: bool = False  # fills a seat for some rounds; never ranked
    sat_out: int = 0  # boards sat out (byes, the fifth chair at a table of five)

    @property
    def ranked(self) -> bool:
        return bool(self.place) and not self.substitute


@dataclass(frozen=True)
class StandingsData:
    event: EventInfo
    method: str
    rounds: tuple[int, ...]
    rows: tuple[StandingRow, ...]


@dataclass(frozen=True)
class CardLine:
    """One board on a personal score card."""

    round: int
    table: int
    seat: str
    board: int
    declarers: str
    contract: str
    tricks: str
    score: str
    percentage: str
    artificial: bool = False


@dataclass(frozen=True)
class ScoreCard:
    person: Person
    place: str
    total: str
    rounds: Mapping[str, str]
    lines: tuple[CardLine, ...]
    sat_out: int = 0


@dataclass(frozen=True)
class ScoreCards:
    event: EventInfo
    method: str
    cards: tuple[ScoreCard, ...]


@dataclass(frozen=True)
class RoundFacts:
    round: int
    status: str  # Round.Status value
    tables: int
    byes: int
    results: int
    expected: int


@dataclass(frozen=True)
class EventSummary:
    event: EventInfo
    status: str  # Event.Status value
    players: int
    withdrawn: int
    rounds: int
    boards_per_round: int
    boards: int
    results: int
    commitment: str
    key: str
    round_facts: tuple[RoundFacts, ...]
    standings: StandingsData
    substitutes: int = 0  # among ``players``: not ranked
    deal_file: str = ""  # deals loaded from a file: its name and SHA-256, instead of a key
    deal_file_sha256: str = ""


# --- how a recorded result is split over the sheet's columns --------------------------------


def _contract_word(result: BoardResult) -> str:
    contract = result.contract
    symbol = result.trump.symbol if result.trump is not None else ""
    if contract is Contract.ACCEPT:
        return f"{result.level}{symbol}"
    word = CANONICAL_WORDS[contract]
    if contract in LEVELS:
        return f"{word} {result.level}{symbol}"
    if contract.has_trump:
        return f"{word} {symbol}"
    return word


def played_line(result: AnyResult, scores: tuple[int, int, int, int]) -> PlayedLine:
    """A recorded result as declarers, contract and tricks, in the words of the result notation.

    The columns are the parts of a result line in its order, so a sheet read left to right is
    what the TD keys on the entry page (``W sol 6♠ 5`` is keyed as ``W sol6S 5``).
    """
    if isinstance(result, IsraeliResult):
        trump = "NT" if result.trump is None else result.trump.symbol
        tricks = "" if result.tricks is None else ",".join(str(t) for t in result.tricks)
        return PlayedLine(
            result.declarer.name,
            f"{result.level}{trump} {','.join(str(b) for b in result.bids)}",
            tricks,
            scores,
        )
    if isinstance(result, RondePasResult):
        # No declarers: "ronde queens" as the contract, what decided it as the tricks.
        words = format_result_line(result).split(" ", 2)
        return PlayedLine("", " ".join(words[:2]), words[2] if len(words) > 2 else "", scores)
    # The flags (dbl, ap) end a result line, so they follow the tricks on the sheet too.
    flags = [flag for flag, on in (("dbl", result.doubled), ("ap", result.after_all_pass)) if on]
    if result.contract is Contract.PASS:
        return PlayedLine("", "pass", " ".join(flags), scores)
    if result.contract.is_negative:
        declarers = ",".join(seat.name for seat in result.declarers)
        tricks = ",".join(str(t) for t in result.declarer_tricks)
    else:
        declarers = "".join(seat.name for seat in result.declarers)
        tricks = "" if result.tricks is None else str(result.tricks)
    return PlayedLine(declarers, _contract_word(result), " ".join((tricks, *flags)), scores)


def suit_runs(text: str) -> list[tuple[Suit | None, str]]:
    """``text`` cut into runs, each suit symbol on its own so that it can be coloured."""
    runs: list[tuple[Suit | None, str]] = []
    current = ""
    for char in text:
        suit = _SYMBOLS.get(char)
        if suit is None:
            current += char
            continue
        if current:
            runs.append((None, current))
            current = ""
        runs.append((suit, char))
    if current:
        runs.append((None, current))
    return runs


_SYMBOLS = {suit.symbol: suit for suit in Suit}
