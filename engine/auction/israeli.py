"""The Israeli Whist auction, as pagat.com describes it.

First phase: from the dealer (or, with ``dealer_opens = false``, the dealer's left) each player
in turn passes or bids a number of tricks from 5 to 13 and a trump suit or no trump, higher than
the bid before (the ruleset's ladder: more tricks, then C < D < H < S < NT). Passing does not put
a player out; the phase ends when all four pass in succession, so the highest bidder may raise
their own bid after the other three passed. Second phase: the other three players, from the
declarer's left, say how many tricks they will take (``tricks <n>``); the last may not make the
four bids add up to 13. If all four pass at once the deal is thrown in, or, with
``redeal_after_all_pass = false``, a Gulash is played: each player passes three cards to the left
(``give <card> <card> <card>``; just ``give`` without a deal) and the bidding starts again, up to
``gulash_rounds`` times.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.auction._common import (
    SEAT_NAMES,
    Auction,
    Ranking,
    per_ruleset,
    replay_into,
)
from engine.auction.calls import Call, CallKind
from engine.cards import SEATS, SUITS, Card, Seat
from engine.hands import Deal, Hand
from engine.results import BoardResult, Contract, IsraeliResult
from engine.ruleset import Ruleset

_BIDDING, _GIVING, _TRICKS = 0, 1, 2
_GIVEN_CARDS = 3
_MOST_TRICKS = 13
_ISRAELI_KINDS = frozenset({CallKind.PASS, CallKind.BID, CallKind.TRICKS, CallKind.GIVE})


class _Tables:
    """The first-phase bids, lowest first, and for every highest rank ``h`` (index ``h + 1``)
    the bids that outrank it."""

    def __init__(self, ruleset: Ruleset) -> None:
        ranking = Ranking(ruleset)
        bids: list[tuple[int, Call]] = []
        for level in ranking.levels.get(Contract.ISRAELI, ()):
            for trump in (None, *SUITS):
                rank = ranking.rank[Contract.ISRAELI, level, trump]
                bids.append((rank, Call(CallKind.BID, trump, level)))
        bids.sort(key=lambda bid: bid[0])
        self.rank = {id(call): rank for rank, call in bids}
        self.calls = [call for _, call in bids]
        self.pass_ = Call(CallKind.PASS)
        # The first-phase calls by the highest rank h (index h + 1): pass and the bids over h.
        self.over = [
            (self.pass_, *(call for rank, call in bids if rank > index - 1))
            for index in range(ranking.size + 1)
        ]
        self.give = Call(CallKind.GIVE)
        self.tricks = tuple(Call(CallKind.TRICKS, None, n) for n in range(_MOST_TRICKS + 1))
        self.gives: dict[tuple[Card, ...], Call] = {}

    def give_call(self, cards: tuple[Card, ...]) -> Call:
        call = self.gives.get(cards)
        if call is None:
            call = self.gives[cards] = Call(CallKind.GIVE, cards=cards)
        return call


class IsraeliAuction(Auction):
    """An Israeli Whist auction; ``contract`` is an ``IsraeliResult`` (with every player's trick
    bid, no tricks yet) or ``BoardResult(Contract.PASS)`` when the deal is thrown in."""

    game = "israeli"

    def __init__(self, ruleset: Ruleset, dealer: Seat, deal: Deal | None = None) -> None:
        super().__init__(ruleset, dealer, deal)
        self._t = per_ruleset("israeli", ruleset, _Tables)
        self._first = dealer.value if self.options.dealer_opens else (dealer.value + 1) % 4
        self._phase = _BIDDING
        self._highest = -1
        self._high_call: Call | None = None
        self._declarer = -1
        self._passes = 0
        self._gulashes = 0
        self._hands_now: list[set[Card]] | None = None  # built at the first Gulash
        self._given: list[tuple[Card, ...]] = [(), (), (), ()]
        self._trick_bids = [0, 0, 0, 0]
        self._turn = self._first

    @classmethod
    def replay(
        cls, ruleset: Ruleset, dealer: Seat, calls: object, deal: Deal | None = None
    ) -> IsraeliAuction:
        """The auction after ``calls`` (``IllegalCallError`` naming the first illegal one)."""
        return replay_into(cls(ruleset, dealer, deal), calls)

    @property
    def gulashes(self) -> int:
        """How many times the players have passed cards so far."""
        return self._gulashes

    @property
    def over(self) -> bool | None:
        """Whether the trick bids add up to more than 13 ("over") rather than fewer ("under");
        ``None`` until every player has bid."""
        result = self._result
        if not isinstance(result, IsraeliResult):
            return None
        return sum(result.bids) > _MOST_TRICKS

    @property
    def current_deal(self) -> Deal | None:
        """The deal as the cards now lie, after any Gulash passing (``None`` without a deal)."""
        if self._hands_now is None:
            return self.deal
        return Deal([Hand.of(cards) for cards in self._hands_now])

    @property
    def _hands(self) -> list[set[Card]] | None:
        """Each seat's cards as they now lie (``None`` without a deal)."""
        if self._hands_now is None and self.deal is not None:
            self._hands_now = [set(self.deal.hand(seat).cards) for seat in SEATS]
        return self._hands_now

    # -- legal calls ---------------------------------------------------------------------------

    def _normalize(self, call: Call) -> Call:
        if call.kind is CallKind.GIVE and call.cards:
            return Call(CallKind.GIVE, cards=tuple(sorted(call.cards, key=lambda c: c.index)))
        return call

    def _legal_calls(self) -> Sequence[Call]:
        t = self._t
        phase = self._phase
        if phase == _BIDDING:
            return t.over[self._highest + 1]
        if phase == _GIVING:
            if self._hands is None:
                return [t.give]
            hand = sorted(self._hands[self._turn], key=lambda card: card.index)
            return [t.give_call(cards) for cards in combinations(hand, _GIVEN_CARDS)]
        forbidden = self._forbidden()
        if forbidden < 0 or forbidden > _MOST_TRICKS:
            return t.tricks
        return t.tricks[:forbidden] + t.tricks[forbidden + 1 :]

    def _forbidden(self) -> int:
        """The trick bid the player to speak may not make (-1 if any bid is allowed)."""
        if self._turn != (self._declarer + 3) % 4:
            return -1
        return _MOST_TRICKS - sum(self._trick_bids)

    # -- making a call -------------------------------------------------------------------------

    def _apply(self, x: int, call: Call) -> None:
        phase = self._phase
        if phase == _BIDDING:
            if call.kind is CallKind.PASS:
                self._passes += 1
                if self._passes == 4:
                    self._end_of_bidding()
                    return
            else:
                self._highest = self._t.rank[id(call)]
                self._high_call = call
                self._declarer = x
                self._passes = 0
            self._turn = (x + 1) % 4
        elif phase == _GIVING:
            self._given[x] = call.cards
            self._turn = (x + 1) % 4
            if self._turn == self._first:
                self._pass_cards()
        else:
            assert call.level is not None
            self._trick_bids[x] = call.level
            if x == (self._declarer + 3) % 4:
                self._finish()
            else:
                self._turn = (x + 1) % 4

    def _end_of_bidding(self) -> None:
        if self._declarer >= 0:
            call = self._high_call
            assert call is not None
            assert call.level is not None
            self._trick_bids[self._declarer] = call.level
            self._phase = _TRICKS
            self._turn = (self._declarer + 1) % 4
            return
        if not self.options.redeal_after_all_pass and self._gulashes < self.options.gulash_rounds:
            self._phase = _GIVING
            self._turn = self._first
            return
        self._turn = -1
        self._result = BoardResult(Contract.PASS)

    def _pass_cards(self) -> None:
        hands = self._hands
        if hands is not None:
            for seat in range(4):
                hands[seat].difference_update(self._given[seat])
            for seat in range(4):
                hands[(seat + 1) % 4].update(self._given[seat])
        self._given = [(), (), (), ()]
        self._gulashes += 1
        self._phase = _BIDDING
        self._passes = 0
        self._turn = self._first

    def _finish(self) -> None:
        call = self._high_call
        assert call is not None
        assert call.level is not None
        bids = self._trick_bids
        self._turn = -1
        self._result = IsraeliResult(
            SEATS[self._declarer], call.level, call.suit, (bids[0], bids[1], bids[2], bids[3])
        )

    # -- why a call is illegal -----------------------------------------------------------------

    def _problem(self, call: Call) -> str | None:
        kind = call.kind
        who = SEAT_NAMES[self._turn]
        if kind not in _ISRAELI_KINDS:
            return f"'{kind.value}' is not an Israeli Whist call"
        phase = self._phase
        if phase == _BIDDING:
            if kind is CallKind.PASS:
                return None
            if kind is not CallKind.BID:
                return f"in the first phase {who} bids ('bid H 7', 'bid NT 8') or passes"
            rank = next((self._t.rank[id(c)] for c in self._t.calls if c == call), None)
            if rank is None:
                levels = sorted({c.level for c in self._t.calls if c.level is not None})
                return f"a bid is for {levels[0]} to {levels[-1]} tricks" if levels else "no bids"
            if rank <= self._highest:
                return f"'{call}' does not outrank '{self._high_call}'"
            return None
        if phase == _GIVING:
            if kind is not CallKind.GIVE:
                return (
                    f"everyone passed: each player passes three cards to the left; {who} "
                    "says 'give' and the cards"
                )
            if self._hands is None:
                if call.cards:
                    return "without a deal the cards passed are not recorded: say just 'give'"
                return None
            if len(call.cards) != _GIVEN_CARDS:
                return f"{who} passes exactly three cards: 'give SA HK D2'"
            missing = [str(card) for card in call.cards if card not in self._hands[self._turn]]
            if missing:
                return f"{who} does not hold {', '.join(missing)}"
            return None
        if kind is not CallKind.TRICKS:
            return f"in the second phase {who} says how many tricks they will take: 'tricks 3'"
        assert call.level is not None
        if call.level == self._forbidden():
            return (
                f"{who} speaks last and may not bid {call.level}: the four bids would add up to "
                f"{_MOST_TRICKS}"
            )
        return None
