"""What every auction machine shares: the ladder as integer ranks, troel detection, and the
``verify_call`` / ``can_call`` / ``call`` protocol with its log.

Speed matters (thousands of random auctions a second for tests and benchmarks), so each machine
builds its calls once per ruleset and reuses the same ``Call`` objects; ``legal_calls`` only picks
from them, and ``call`` recognises a call taken from ``legal_calls`` by identity.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import is_
from typing import ClassVar, TypeVar, cast

from engine.auction.calls import Call, CallRecord, calls_of
from engine.auction.options import AuctionOptions
from engine.cards import SEATS, SUITS, Card, Rank, Seat, Suit
from engine.errors import IllegalCallError, ParseError, RulesetError
from engine.hands import Deal
from engine.results import BoardResult, Contract, IsraeliResult
from engine.ruleset import Ruleset

AnyContract = BoardResult | IsraeliResult

SEAT_NAMES = ("North", "East", "South", "West")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")  # by Suit.value
BY_BID_RANK = (1, 2, 3, 0)  # suit values from hearts down to spades: the order calls are listed in

T = TypeVar("T")
_CACHE_SIZE = 64
_caches: dict[str, dict[int, tuple[Ruleset, object]]] = {}


def per_ruleset(kind: str, ruleset: Ruleset, build: Callable[[Ruleset], T]) -> T:
    """``build(ruleset)``, computed once per ruleset object and kept (a few dozen at most)."""
    cache = _caches.get(kind)
    if cache is None:
        cache = _caches[kind] = {}
    entry = cache.get(id(ruleset))
    if entry is not None and entry[0] is ruleset:
        return cast(T, entry[1])  # stored by this function from build(), so it is a T
    value = build(ruleset)
    if len(cache) >= _CACHE_SIZE:
        cache.pop(next(iter(cache)))
    cache[id(ruleset)] = (ruleset, value)
    return value


def options_of(ruleset: Ruleset) -> AuctionOptions:
    """The ruleset's ``[auction]`` table, checked (``RulesetError`` naming the key otherwise)."""
    return per_ruleset("options", ruleset, _read_options)


def _read_options(ruleset: Ruleset) -> AuctionOptions:
    return AuctionOptions.from_mapping(ruleset.auction_options, "auction", ruleset.game)


class Ranking:
    """The ladder as dense integer ranks: a bid outranks another iff its rank is greater.

    ``rank[(contract, level, trump)]`` exists for every bid the ruleset allows; contracts
    without trumps have ``trump`` ``None``, Israeli Whist has ``None`` for no trump.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        raw: dict[tuple[Contract, int | None, Suit | None], tuple[int, int]] = {}
        for bid in ruleset.ladder:
            contract = bid.contract
            levels: Iterable[int | None] = (bid.level,)
            if bid.level is None and ruleset.levels(contract):
                levels = ruleset.levels(contract)
            trumps: tuple[Suit | None, ...]
            if contract is Contract.ISRAELI:
                trumps = (None, *SUITS)
            elif contract.has_trump:
                trumps = SUITS
            else:
                trumps = (None,)
            for level in levels:
                for trump in trumps:
                    raw[contract, level, trump] = ruleset.bid_key(contract, level, trump)
        keys = sorted(set(raw.values()))
        dense = {key: index for index, key in enumerate(keys)}
        self.rank: dict[tuple[Contract, int | None, Suit | None], int] = {
            entry: dense[key] for entry, key in raw.items()
        }
        self.size = len(keys)
        self.levels: dict[Contract, tuple[int | None, ...]] = {}
        for contract, level, _ in raw:
            known = self.levels.setdefault(contract, ())
            if level not in known:
                self.levels[contract] = (*known, level)

    def has(self, contract: Contract) -> bool:
        return contract in self.levels

    def lowest(self, contract: Contract, level: int | None) -> int | None:
        """The lowest rank of the bid over every trump (``None`` if the ruleset lacks it)."""
        ranks = [r for (c, lv, _), r in self.rank.items() if c is contract and lv == level]
        return min(ranks) if ranks else None


@dataclass(frozen=True, slots=True)
class Troel:
    """A troel found from the cards: the holder of the aces, the partner and the trump."""

    bidder: Seat
    partner: Seat
    called: Card
    trump: Suit
    four_aces: bool


def find_troel(deal: Deal, options: AuctionOptions) -> Troel | None:
    """The troel of a deal, if a player holds three aces (or four, where the options allow it).

    The partner holds the fourth ace; with four aces, the highest heart the bidder lacks
    (``highest_heart``: K♥, else Q♥, ...) or the king of the highest suit the bidder lacks
    (``kings``: K♥, K♦, K♣, K♠, then the queens in that order, ...). The trump is the suit of the
    card that finds the partner, or the suit ``troel_four_aces_trump`` names.
    """
    holders = deal.holders
    counts = [0, 0, 0, 0]
    for suit in SUITS:
        counts[holders[suit.value * 13].value] += 1  # index 13·suit is that suit's ace
    bidder_value = next((v for v in range(4) if counts[v] >= 3), None)
    if bidder_value is None:
        return None
    bidder = SEATS[bidder_value]
    four = counts[bidder_value] == 4
    if four and not options.troel_four_aces:
        return None
    called: Card | None = None
    if not four:
        called = next(
            Card(suit, Rank.ACE) for suit in SUITS if holders[suit.value * 13] is not bidder
        )
    elif options.troel_four_aces_partner == "kings":
        order = [Card(SUITS[s], rank) for rank in _HONOURS_DOWN for s in BY_BID_RANK]
        called = next((c for c in order if holders[c.index] is not bidder), None)
    if called is None:
        hearts = range(Suit.H.value * 13, Suit.H.value * 13 + 13)
        index = next(i for i in hearts if holders[i] is not bidder)
        called = Card.from_index(index)
    trump = called.suit
    if four and options.troel_four_aces_trump != "called":
        trump = Suit[options.troel_four_aces_trump]
    return Troel(bidder, holders[called.index], called, trump, four)


_HONOURS_DOWN = (Rank.KING, Rank.QUEEN, Rank.JACK)


def troel_level_and_rank(ruleset: Ruleset, ranking: Ranking, troel: Troel) -> tuple[int, int]:
    """The tricks a troel needs with its called trumps, and its rank on the ladder."""
    options = ruleset.options
    level = options.troel_tricks
    if troel.four_aces and options.troel_four_aces_tricks is not None:
        level = options.troel_four_aces_tricks
    rank = ranking.rank.get((Contract.TROEL, level, troel.trump))
    if level is None or rank is None:
        raise RulesetError(
            f"the {ruleset.name} ruleset has troel but no troel {level} on its ladder",
            "options.troel_tricks",
        )
    return level, rank


def suits_held(deal: Deal | None) -> list[bool] | None:
    """``held[seat * 4 + suit]``: whether the seat holds a card of the suit (``None``: no deal)."""
    if deal is None:
        return None
    holders = deal.holders
    held = [False] * 16
    for suit in range(4):
        cards = holders[suit * 13 : suit * 13 + 13]
        for seat in range(4):
            held[seat * 4 + suit] = SEATS[seat] in cards
    return held


class Auction(ABC):
    """An auction as a state machine (the pattern of docs/auction.md).

    ``verify_call(call)`` raises ``IllegalCallError`` saying why a call is not allowed now;
    ``can_call(call)`` answers yes or no; ``call(call)`` makes it and returns the ``CallRecord``
    appended to ``log``. ``legal_calls()`` lists what the player to speak may say. A call may be a
    ``Call`` or its text. ``contract`` is ``None`` until the auction is over.
    """

    game: ClassVar[str]

    def __init__(self, ruleset: Ruleset, dealer: Seat, deal: Deal | None = None) -> None:
        if ruleset.game != self.game:
            raise RulesetError(
                f"the {ruleset.name} ruleset is for {ruleset.game}, not {self.game}", "game"
            )
        if not isinstance(dealer, Seat):
            raise TypeError(f"dealer must be a Seat, not {dealer!r}")
        self.ruleset = ruleset
        self.dealer = dealer
        self.deal = deal
        self.options = options_of(ruleset)
        self._log: list[CallRecord] = []
        self._turn = -1  # the seat value of the player to speak; -1 once the auction is over
        self._legal: Sequence[Call] | None = None
        self._result: AnyContract | None = None

    # -- the state, for callers ----------------------------------------------------------------

    @property
    def log(self) -> tuple[CallRecord, ...]:
        return tuple(self._log)

    @property
    def next_seat(self) -> Seat | None:
        """The player to speak, or ``None`` once the auction is over."""
        return None if self._turn < 0 else SEATS[self._turn]

    @property
    def is_finished(self) -> bool:
        return self._turn < 0

    @property
    def contract(self) -> AnyContract | None:
        """The final contract (no tricks yet), ``BoardResult(Contract.PASS)`` if all passed,
        ``None`` while the auction goes on."""
        return self._result

    # -- the actions ---------------------------------------------------------------------------

    def legal_calls(self) -> list[Call]:
        """Every call the player to speak may make, levels filled in (empty once over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_calls() if self._turn >= 0 else []
        return list(legal)

    def verify_call(self, call: Call | str) -> Call:
        """Raise ``IllegalCallError`` if ``call`` is not allowed now; otherwise return it as it
        will be recorded (``accept H`` becomes ``accept H 9``, the lowest level that outranks)."""
        if isinstance(call, str):
            call = Call.parse(call)
        if self._turn < 0:
            raise IllegalCallError(f"the auction is over ({self._over_text()}); no more calls")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_calls()
        if True in map(is_, legal, repeat(call)):  # a call taken from legal_calls()
            return call
        normal = self._normalize(call)
        for candidate in legal:
            if candidate == normal:
                return candidate
        problem = self._problem(normal)
        if problem is None:
            # The explanations and the list of legal calls are kept in step by the tests; this
            # is the safety net should they ever disagree.
            problem = (
                f"{self._who()} cannot say '{normal}' now; the legal calls are "
                f"{', '.join(map(str, legal))}"
            )
        raise IllegalCallError(problem)

    def can_call(self, call: Call | str) -> bool:
        try:
            self.verify_call(call)
        except (IllegalCallError, ParseError):
            return False
        return True

    def call(self, call: Call | str) -> CallRecord:
        """Make the call for the player to speak; returns the record appended to ``log``."""
        made = self.verify_call(call)
        record = CallRecord(len(self._log), SEATS[self._turn], made)
        self._legal = None
        self._apply(self._turn, made)
        self._log.append(record)
        return record

    def problem(self, call: Call | str) -> str | None:
        """Why ``call`` is not allowed now, or ``None`` if it is: the reason ``verify_call``
        gives. (It is worked out from the rules on its own, apart from ``legal_calls``, and the
        tests check that the two always agree.)"""
        try:
            if isinstance(call, str):
                call = Call.parse(call)
        except ParseError as exc:
            return str(exc)
        if self._turn < 0:
            return f"the auction is over ({self._over_text()}); no more calls"
        return self._problem(self._normalize(call))

    # -- for the machines ----------------------------------------------------------------------

    def _who(self) -> str:
        return SEAT_NAMES[self._turn] if self._turn >= 0 else "nobody"

    def _over_text(self) -> str:
        result = self._result
        if result is None:
            return "no contract"
        return describe_contract(result)

    def _normalize(self, call: Call) -> Call:
        """The call with anything the player may leave out filled in (default: as it is)."""
        return call

    @abstractmethod
    def _legal_calls(self) -> Sequence[Call]:
        """The legal calls of the player to speak (``_turn`` >= 0)."""

    @abstractmethod
    def _problem(self, call: Call) -> str | None:
        """Why a (normalized) call is illegal now, as a sentence naming the player."""

    @abstractmethod
    def _apply(self, seat: int, call: Call) -> None:
        """Make a legal call of ``seat`` and move the turn on."""


class TroelAuction(Auction):
    """An auction that a troel found in the cards can win (Wiezen and Kleurenwiezen): how it
    ends in troel, with the partner's turn to switch trumps where the ruleset allows it."""

    troel: Troel | None
    _phase: int
    _troel_standing: bool
    _troel_level: int | None
    _switch_phase: ClassVar[int]  # the machine's phase in which the troel partner may switch

    def _end_in_troel(self) -> bool:
        """End the auction if a troel stands, and say whether it did: the partner keeps or
        switches the trumps where the ruleset has ``troel_switch_tricks``, else troel is played."""
        troel = self.troel
        if not self._troel_standing or troel is None:
            return False
        if self.ruleset.options.troel_switch_tricks is not None:
            self._phase = self._switch_phase
            self._turn = troel.partner.value
            return True
        self._finish_troel(None)
        return True

    def _finish_troel(self, switched: Suit | None) -> None:
        """Make troel the contract: in the called trumps, or in the suit the partner switched to
        at the ruleset's ``troel_switch_tricks``."""
        troel = self.troel
        assert troel is not None
        level = self._troel_level
        trump = troel.trump
        if switched is not None and switched is not trump:
            trump = switched
            switch_level = self.ruleset.options.troel_switch_tricks
            level = level if switch_level is None else switch_level
        self._turn = -1
        self._result = BoardResult(Contract.TROEL, level, trump, (troel.bidder, troel.partner))


A = TypeVar("A", bound=Auction)


def replay_into(auction: A, calls: object) -> A:
    """Make every call of ``calls`` (``Call``s, ``CallRecord``s or texts) in order.

    An illegal call raises ``IllegalCallError`` naming its 0-based position.
    """
    for index, call in enumerate(calls_of(calls)):
        try:
            auction.call(call)
        except IllegalCallError as exc:
            raise IllegalCallError(f"call {index} ('{call}'): {exc}") from None
    return auction


def describe_contract(result: AnyContract) -> str:
    """``accept 9 H by N and E``, ``misere by E and S``, ``pass``: for messages."""
    if isinstance(result, IsraeliResult):
        trump = "NT" if result.trump is None else result.trump.letter
        return f"{result.level} {trump} by {result.declarer.name}"
    if result.contract is Contract.PASS:
        return "all passed"
    words = [result.contract.value]
    if result.level is not None:
        words.append(str(result.level))
    if result.trump is not None:
        words.append(result.trump.letter)
    return " ".join(words) + " by " + " and ".join(seat.name for seat in result.declarers)
