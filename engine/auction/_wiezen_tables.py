"""Wiezen's auction, shared pieces: the seats' standings, the phases, the kinds of call, and the
ruleset's bids for each turned-up suit, built once so that listing the legal calls is picking."""

from __future__ import annotations

from engine.auction._common import BY_BID_RANK, Ranking, options_of
from engine.auction.calls import Call, CallKind
from engine.cards import SUITS, Suit
from engine.results import Contract
from engine.ruleset import Ruleset

# A seat's standing in the auction.
FREE, WAITED, PASSED = 0, 1, 2
# Phases
ANNOUNCE, BIDDING, SWITCH, TRUMP = 0, 1, 2, 3

NEGATIVE_KINDS = (CallKind.SMALL_MISERE, CallKind.PICCOLO, CallKind.MISERE, CallKind.OPEN_MISERE)
CHOSEN_TRUMP = (Contract.ABONDANCE, Contract.SOLO_SLIM, Contract.SMALL_SOLO_SLIM)
WIEZEN_KINDS = frozenset(
    {
        CallKind.PASS,
        CallKind.WAIT,
        CallKind.PROPOSE,
        CallKind.ACCEPT,
        CallKind.SOLO,
        CallKind.ABONDANCE,
        CallKind.SMALL_SOLO_SLIM,
        CallKind.SOLO_SLIM,
        CallKind.GRAND_SOLO,
        CallKind.TROEL,
        CallKind.SWITCH,
        CallKind.TRUMP,
        CallKind.CARTE_BLANCHE,
        *NEGATIVE_KINDS,
    }
)
CARTE_BLANCHE_BIDS = (CallKind.OPEN_MISERE, CallKind.SOLO_SLIM)


class Tables:
    """The bids of a ruleset with a given turned-up suit, lowest first, with internal ranks:
    three per ladder rank, so that a proposal sits just below an acceptance and an abondance in
    trumps just above the same abondance with its trumps named later."""

    def __init__(self, ruleset: Ruleset, turned: Suit) -> None:
        ranking = self.ranking = Ranking(ruleset)
        options = options_of(ruleset)
        named = options.abondance_trump == "named"
        in_trumps = options.abondance_in_trumps
        # id(call) -> (rank, contract, level, trump suit value or -1)
        self.info: dict[int, tuple[int, Contract, int | None, int]] = {}
        self.bids: list[tuple[int, Call]] = []
        self.pass_ = Call(CallKind.PASS)
        self.wait = Call(CallKind.WAIT)
        self.carte_blanche = Call(CallKind.CARTE_BLANCHE)
        self.troel = Call(CallKind.TROEL)
        self.switch = [Call(CallKind.SWITCH, suit) for suit in SUITS]
        self.trump = [Call(CallKind.TRUMP, suit) for suit in SUITS]
        self.propose = Call(CallKind.PROPOSE)
        self.accept = Call(CallKind.ACCEPT)
        self.propose_rank = -2
        self.accept_level: int | None = None
        t = turned.value
        accepts = ranking.levels.get(Contract.ACCEPT, ())
        if accepts:
            self.accept_level = accepts[0]
            rank = 3 * ranking.rank[Contract.ACCEPT, accepts[0], turned]
            self.propose_rank = rank
            self._add(self.propose, rank, Contract.ACCEPT, accepts[0], t)
            self._add(self.accept, rank + 1, Contract.ACCEPT, accepts[0], t)
        self.solo: list[tuple[int, Call]] = []
        for level in ranking.levels.get(Contract.SOLO, ()):
            call = Call(CallKind.SOLO, None, level)
            rank = 3 * ranking.rank[Contract.SOLO, level, turned] + 1
            self._add(call, rank, Contract.SOLO, level, t)
            self.solo.append((rank, call))
        for level in ranking.levels.get(Contract.ABONDANCE, ()):
            assert level is not None
            if named:
                for v in BY_BID_RANK:
                    rank = 3 * ranking.rank[Contract.ABONDANCE, level, SUITS[v]] + 1
                    self._add(
                        Call(CallKind.ABONDANCE, SUITS[v], level),
                        rank,
                        Contract.ABONDANCE,
                        level,
                        v,
                    )
                continue
            lowest = ranking.lowest(Contract.ABONDANCE, level)
            assert lowest is not None
            self._add(
                Call(CallKind.ABONDANCE, None, level), 3 * lowest + 1, Contract.ABONDANCE, level, -1
            )
            if in_trumps:
                call = Call(CallKind.ABONDANCE, turned, level)
                self._add(call, 3 * lowest + 2, Contract.ABONDANCE, level, t)
        for kind in (CallKind.SMALL_SOLO_SLIM, CallKind.SOLO_SLIM):
            contract = kind.contract
            assert contract is not None
            for level in ranking.levels.get(contract, ()):
                if named:
                    for v in BY_BID_RANK:
                        rank = 3 * ranking.rank[contract, level, SUITS[v]] + 1
                        self._add(Call(kind, SUITS[v]), rank, contract, level, v)
                else:
                    lowest = ranking.lowest(contract, level)
                    assert lowest is not None
                    self._add(Call(kind), 3 * lowest + 1, contract, level, -1)
        for level in ranking.levels.get(Contract.GRAND_SOLO, ()):
            rank = 3 * ranking.rank[Contract.GRAND_SOLO, level, turned] + 1
            self._add(Call(CallKind.GRAND_SOLO), rank, Contract.GRAND_SOLO, level, t)
        for kind in NEGATIVE_KINDS:
            contract = kind.contract
            assert contract is not None
            for level in ranking.levels.get(contract, ()):
                rank = 3 * ranking.rank[contract, level, None] + 1
                self._add(Call(kind), rank, contract, level, -1)
        self.bids.sort(key=lambda bid: bid[0])
        # The bids anyone may make: everything but proposals, acceptances and solos.
        self.open_bids = [
            (rank, call)
            for rank, call in self.bids
            if call.kind not in (CallKind.PROPOSE, CallKind.ACCEPT, CallKind.SOLO)
        ]

    def _add(self, call: Call, rank: int, contract: Contract, level: int | None, v: int) -> None:
        self.info[id(call)] = (rank, contract, level, v)
        self.bids.append((rank, call))
