"""The Wiezen (plain Belgian whist) auction, as pagat.com describes it.

The last card dealt, the dealer's, is turned up: its suit is trumps for a proposal and acceptance
(vragen en meegaan), a solo (alleen) and a grand solo. Bidding is ascending: each player in turn
passes or bids higher than the highest bid so far, and a player who passed is out; negative
contracts may be joined at the same level. The player on the dealer's left may wait, then only
accept or pass. Only a player whose proposal was not accepted may go solo. A player with three or
four aces must bid troel at their first turn unless something higher has been bid already. An
abondance or solo slim names its trumps once the auction is over (``trump <suit>``), unless the
ruleset's ``abondance_trump`` is ``named``. The variants of the rules text are options:
troel announced before the auction, carte blanche, the trump switch of the troel partner
(``troel_switch_tricks`` in the ruleset), abondance in trumps, and the Ronde Pas games.
"""

from __future__ import annotations

from engine.auction._common import (
    BY_BID_RANK,
    SEAT_NAMES,
    SUIT_NAMES,
    Troel,
    TroelAuction,
    find_troel,
    per_ruleset,
    replay_into,
    troel_level_and_rank,
)
from engine.auction._wiezen_tables import (
    ANNOUNCE,
    BIDDING,
    CARTE_BLANCHE_BIDS,
    FREE,
    NEGATIVE_KINDS,
    PASSED,
    SWITCH,
    TRUMP,
    WAITED,
    Tables,
)
from engine.auction._wiezen_why import Explanations
from engine.auction.calls import Call, CallKind
from engine.cards import SEATS, SUITS, Rank, Seat, Suit
from engine.errors import DealError
from engine.hands import Deal
from engine.results import BoardResult, Contract, RondePasGame
from engine.ronde_pas import game_for_all_pass
from engine.ruleset import Ruleset

_FACE_RANKS = (Rank.KING, Rank.QUEEN, Rank.JACK)


class WiezenAuction(Explanations, TroelAuction):
    """A Wiezen auction. ``turned`` is the suit of the turned-up card (the dealer's last card).
    With a deal, troel and carte blanche are found from the cards; without one they never arise."""

    game = "wiezen"
    _switch_phase = SWITCH

    def __init__(
        self,
        ruleset: Ruleset,
        dealer: Seat,
        deal: Deal | None = None,
        *,
        turned: Suit | None = None,
    ) -> None:
        super().__init__(ruleset, dealer, deal)
        if not isinstance(turned, Suit):
            raise DealError(
                "a Wiezen auction needs the turned-up trump suit (the suit of the dealer's last "
                "card), e.g. turned=Suit.H"
            )
        if deal is not None and not deal.hand(dealer).has_suit(turned):
            raise DealError(
                f"the turned-up card is the dealer's, but {SEAT_NAMES[dealer.value]} holds no "
                f"{SUIT_NAMES[turned.value]}"
            )
        self.turned = turned
        by_turned = per_ruleset("wiezen", ruleset, _empty_tables)
        tables = by_turned.get(turned)
        if tables is None:
            tables = by_turned[turned] = Tables(ruleset, turned)
        self._t = tables
        self._status = [FREE, FREE, FREE, FREE]
        self._spoken = [False, False, False, False]
        self._rank = [-1, -1, -1, -1]
        self._stamp = [0, 0, 0, 0]
        self._clock = 0
        self._highest = -1
        self._high_call: Call | None = None
        self._proposer = -1  # the seat whose proposal stands, unaccepted
        self._solo_right = [False, False, False, False]  # proposed, and nobody accepted
        self._acceptor = -1
        self._first = (dealer.value + 1) % 4
        self._phase = BIDDING
        self._restricted = False  # after carte blanche: only open misère and solo slim
        self._announcers: list[int] = []
        self._troel_standing = False
        self._troel_due = -1  # the seat that must bid troel at its first turn
        self._troel_rank = -1
        self._troel_level: int | None = None
        self._chosen: Suit | None = None
        self.troel: Troel | None = None
        if deal is not None:
            if tables.ranking.has(Contract.TROEL):
                self._find_troel(deal)
            if self.options.carte_blanche:
                self._announcers = [
                    y
                    for y in ((self._first + k) & 3 for k in range(4))
                    if not any(card.rank in _FACE_RANKS for card in deal.hand(SEATS[y]).cards)
                ]
        if self._announcers:
            self._phase = ANNOUNCE
            self._turn = self._announcers.pop(0)
        else:
            self._turn = self._first

    def _find_troel(self, deal: Deal) -> None:
        troel = self.troel = find_troel(deal, self.options)
        if troel is None:
            return
        level, rank = troel_level_and_rank(self.ruleset, self._t.ranking, troel)
        self._troel_level = level
        self._troel_rank = 3 * rank + 1
        if self.options.troel_before_auction:
            self._troel_standing = True
            self._highest = self._troel_rank
        else:
            self._troel_due = troel.bidder.value

    @classmethod
    def replay(
        cls,
        ruleset: Ruleset,
        dealer: Seat,
        calls: object,
        deal: Deal | None = None,
        *,
        turned: Suit | None = None,
    ) -> WiezenAuction:
        """The auction after ``calls`` (``IllegalCallError`` naming the first illegal one)."""
        return replay_into(cls(ruleset, dealer, deal, turned=turned), calls)

    @property
    def carte_blanche(self) -> bool:
        """Whether a player announced carte blanche (only open misère and solo slim are bid)."""
        return self._restricted

    def ronde_pas(self, passed_before: int) -> RondePasGame | None:
        """With the Ronde Pas option, the game a passed-out deal is played as (``None`` if the
        auction did not end with everyone passing, or the ruleset does not play Ronde Pas)."""
        result = self._result
        if not self.options.ronde_pas or result is None or result.contract is not Contract.PASS:
            return None
        return game_for_all_pass(passed_before + 1)

    # -- legal calls ---------------------------------------------------------------------------

    def _normalize(self, call: Call) -> Call:
        if call.kind is CallKind.SOLO and call.level is None and call.suit is None:
            for rank, solo in self._t.solo:
                if rank > self._highest:
                    return solo
        return call

    def _legal_calls(self) -> list[Call]:
        t = self._t
        x = self._turn
        phase = self._phase
        if phase == ANNOUNCE:
            return [t.pass_, t.carte_blanche]
        if phase == SWITCH:
            assert self.troel is not None
            trump = self.troel.trump.value
            return [t.pass_] + [t.switch[v] for v in BY_BID_RANK if v != trump]
        if phase == TRUMP:
            return [t.trump[v] for v in BY_BID_RANK]
        h = self._highest
        if x == self._troel_due and not self._spoken[x] and self._troel_rank > h:
            above = self._troel_rank
            return [t.troel] + [call for rank, call in t.open_bids if rank > above]
        out = [t.pass_]
        if self._restricted:
            out.extend(c for r, c in t.open_bids if c.kind in CARTE_BLANCHE_BIDS and self._over(r))
            return out
        status = self._status[x]
        proposer = self._proposer
        if proposer >= 0 and proposer != x and h == t.propose_rank:
            out.append(t.accept)
        if status == WAITED:
            return out
        if (
            not self._spoken[x]
            and x == self._first
            and self.options.wait
            and not self._troel_standing
        ):
            out.append(t.wait)
        if t.propose_rank > h:
            out.append(t.propose)
        if self._solo_right[x]:
            solo = next((call for rank, call in t.solo if rank > h), None)
            if solo is not None:
                out.append(solo)
        out.extend(call for rank, call in t.open_bids if self._over(rank))
        return out

    # -- making a call -------------------------------------------------------------------------

    def _apply(self, x: int, call: Call) -> None:
        kind = call.kind
        phase = self._phase
        if phase == ANNOUNCE:
            if kind is CallKind.CARTE_BLANCHE:
                self._restricted = True
            if self._announcers:
                self._turn = self._announcers.pop(0)
                return
            self._phase = BIDDING
            if self._restricted:
                self._troel_standing = False
                self._troel_due = -1
                self._highest = -1
            self._turn = self._first
            return
        if phase == SWITCH:
            self._finish_troel(call.suit if kind is CallKind.SWITCH else None)
            return
        if phase == TRUMP:
            self._chosen = call.suit
            self._finish()
            return
        self._spoken[x] = True
        if x == self._proposer:
            self._proposer = -1  # the proposal lapses at the proposer's next turn
            self._rank[x] = -1
        if kind is CallKind.PASS:
            self._status[x] = PASSED
            self._rank[x] = -1
        elif kind is CallKind.WAIT:
            self._status[x] = WAITED
        elif kind is CallKind.TROEL:
            troel = self.troel
            assert troel is not None
            self._rank[x] = self._troel_rank
            partner = troel.partner.value
            if self._status[partner] != PASSED:
                self._rank[partner] = self._troel_rank
            self._raise_to(self._troel_rank, call)
            self._troel_standing = True
        else:
            rank = self._t.info[id(call)][0]
            self._status[x] = FREE
            self._rank[x] = rank
            if kind is CallKind.PROPOSE:
                self._proposer = x
                self._solo_right[x] = True
            elif kind is CallKind.ACCEPT:
                proposer = self._proposer
                self._rank[proposer] = rank
                self._acceptor = x
                self._solo_right[proposer] = False
                self._proposer = -1
            elif kind in NEGATIVE_KINDS:
                self._clock += 1
                self._stamp[x] = self._clock
            self._raise_to(rank, call)
        self._advance(x)

    def _raise_to(self, rank: int, call: Call) -> None:
        if rank > self._highest:
            self._highest = rank
            self._high_call = call
            self._troel_standing = call.kind is CallKind.TROEL

    def _advance(self, x: int) -> None:
        status = self._status
        for step in (1, 2, 3, 4):
            y = (x + step) & 3
            state = status[y]
            if state == PASSED:
                continue
            rank = self._rank[y]
            if y != self._proposer and rank >= 0 and rank >= self._highest:
                continue  # their bid is the highest (a proposal lapses at the proposer's turn)
            self._turn = y
            return
        self._turn = -1
        self._finish()

    def _finish(self) -> None:
        self._turn = -1
        if self._end_in_troel():
            return
        holders = [
            y for y in range(4) if self._status[y] != PASSED and self._rank[y] == self._highest
        ]
        if not holders or self._high_call is None or self._high_call.kind is CallKind.PROPOSE:
            self._result = BoardResult(Contract.PASS)
            return
        call = self._high_call
        _, contract, level, v = self._t.info[id(call)]
        if contract.is_negative:
            holders.sort(key=lambda y: self._stamp[y])
            self._result = BoardResult(contract, level, None, tuple(SEATS[y] for y in holders))
            return
        trump = SUITS[v] if v >= 0 else self._chosen
        if trump is None:
            self._phase = TRUMP
            self._turn = holders[0]
            return
        if contract is Contract.ACCEPT:
            holders.sort(key=lambda y: y == self._acceptor)
        self._result = BoardResult(contract, level, trump, tuple(SEATS[y] for y in holders))


def _empty_tables(ruleset: Ruleset) -> dict[Suit, Tables]:
    return {}
