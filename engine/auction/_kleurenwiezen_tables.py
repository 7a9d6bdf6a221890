"""Kleurenwiezen's auction, shared pieces: the seats' standings and the ruleset's calls, built
once per ruleset so that listing the legal calls is only picking from tables."""

from __future__ import annotations

from engine.auction._common import BY_BID_RANK, SUIT_NAMES, Ranking
from engine.auction.calls import Call, CallKind
from engine.cards import SUITS
from engine.results import Contract
from engine.ruleset import Ruleset

# A seat's standing in the auction.
FREE = 0  # not committed: has not spoken, or only proposed
WAITED = 1  # said 'wait': may only accept a proposal or pass at the next turn
PARTNER = 2  # in a partnership (proposer or acceptor)
BOUND = 3  # bound to a suit after the partner broke the partnership by passing
SOLO = 4
ABONDANCE = 5
SLIM = 6  # solo slim or small solo slim
NEGATIVE = 7  # small misère, piccolo, misère or open misère
PASSED = 8

# Phases
BIDDING, SWITCH = 0, 1

SLIM_KINDS = (CallKind.SMALL_SOLO_SLIM, CallKind.SOLO_SLIM)
NEGATIVE_KINDS = (CallKind.SMALL_MISERE, CallKind.PICCOLO, CallKind.MISERE, CallKind.OPEN_MISERE)
SUITED_KINDS = (
    CallKind.PROPOSE,
    CallKind.ACCEPT,
    CallKind.SOLO,
    CallKind.ABONDANCE,
    CallKind.SMALL_SOLO_SLIM,
    CallKind.SOLO_SLIM,
    CallKind.SWITCH,
)
KLEURENWIEZEN_KINDS = frozenset(
    {CallKind.PASS, CallKind.WAIT, CallKind.PAROLE, *SUITED_KINDS, *NEGATIVE_KINDS}
)


class Tables:
    """The ruleset's calls, built once: for every highest rank ``h`` (index ``h + 1``), the
    lowest accept and solo per suit that outrank it, and the other bids that do."""

    def __init__(self, ruleset: Ruleset) -> None:
        ranking = self.ranking = Ranking(ruleset)
        size = ranking.size + 1
        # id(call) -> (rank, contract, ladder level, suit value or -1, negative)
        self.info: dict[int, tuple[int, Contract, int | None, int, bool]] = {}
        self.pass_ = Call(CallKind.PASS)
        self.wait = Call(CallKind.WAIT)
        self.parole = Call(CallKind.PAROLE)
        self.propose = [Call(CallKind.PROPOSE, suit) for suit in SUITS]
        self.switch = [Call(CallKind.SWITCH, suit) for suit in SUITS]
        self.accept_min = [self._lowest(CallKind.ACCEPT, v, size) for v in range(4)]
        self.solo_min = [self._lowest(CallKind.SOLO, v, size) for v in range(4)]
        # The same by highest rank first: accept_at[h + 1][suit value].
        self.accept_at = [tuple(self.accept_min[v][i] for v in range(4)) for i in range(size)]
        self.solo_at = [tuple(self.solo_min[v][i] for v in range(4)) for i in range(size)]
        abondance = [self._bids(CallKind.ABONDANCE, v, True) for v in range(4)]
        slims = [
            self._bids(CallKind.SMALL_SOLO_SLIM, v, False)
            + self._bids(CallKind.SOLO_SLIM, v, False)
            for v in range(4)
        ]
        negatives: list[tuple[int, Call]] = []
        for kind in NEGATIVE_KINDS:
            contract = kind.contract
            assert contract is not None
            for level in ranking.levels.get(contract, ()):
                call = Call(kind)
                rank = ranking.rank[contract, level, None]
                self.info[id(call)] = (rank, contract, level, -1, True)
                negatives.append((rank, call))
        self.abondance_over = [_over(abondance[v], size) for v in range(4)]
        self.slim_over = [_over(slims[v], size) for v in range(4)]
        self.negative_over = _over(negatives, size)
        first = negatives + [bid for v in BY_BID_RANK for bid in abondance[v] + slims[v]]
        self.first_over = _over(sorted(first, key=lambda bid: bid[0]), size)
        self.negative_at: list[Call | None] = [None] * size
        for rank, call in negatives:
            self.negative_at[rank + 1] = call

    def _bids(self, kind: CallKind, v: int, with_level: bool) -> list[tuple[int, Call]]:
        contract = kind.contract
        assert contract is not None
        out = []
        for level in self.ranking.levels.get(contract, ()):
            rank = self.ranking.rank[contract, level, SUITS[v]]
            call = Call(kind, SUITS[v], level if with_level else None)
            self.info[id(call)] = (rank, contract, level, v, False)
            out.append((rank, call))
        return sorted(out, key=lambda bid: bid[0])

    def _lowest(self, kind: CallKind, v: int, size: int) -> list[Call | None]:
        bids = self._bids(kind, v, True)
        out: list[Call | None] = []
        for index in range(size):
            out.append(next((call for rank, call in bids if rank > index - 1), None))
        return out


def _over(bids: list[tuple[int, Call]], size: int) -> list[tuple[Call, ...]]:
    """For every highest rank ``h`` (index ``h + 1``), the bids that outrank it, in order."""
    return [tuple(call for rank, call in bids if rank > index - 1) for index in range(size)]


def suit_name(suit_value: int) -> str:
    return SUIT_NAMES[suit_value] if suit_value >= 0 else "no suit"
