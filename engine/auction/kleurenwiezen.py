"""The Kleurenwiezen (Colour Whist) auction, as pagat.com and Whisthub describe it.

The auction has three stages (pagat): a troel announcement, found from the cards; forming
partnerships and choosing contracts, in which players who are already committed are skipped; and
raising, in which a player whose bid has been overcalled raises it (within its own kind and suit)
or passes. A player is committed once they pass, bid a contract or form a partnership; a
proposal or a wait does not commit. Which bids exist and how they rank is the ruleset's ladder;
the rules on which sources differ are ``AuctionOptions`` (docs/auction.md).
"""

from __future__ import annotations

from engine.auction._common import (
    BY_BID_RANK,
    TroelAuction,
    find_troel,
    per_ruleset,
    replay_into,
    suits_held,
    troel_level_and_rank,
)
from engine.auction._kleurenwiezen_tables import (
    ABONDANCE,
    BIDDING,
    BOUND,
    FREE,
    NEGATIVE,
    PARTNER,
    PASSED,
    SLIM,
    SLIM_KINDS,
    SOLO,
    SWITCH,
    WAITED,
    Tables,
)
from engine.auction._kleurenwiezen_why import Explanations
from engine.auction.calls import Call, CallKind
from engine.cards import SEATS, SUITS, Seat
from engine.hands import Deal
from engine.results import BoardResult, Contract
from engine.ruleset import Ruleset

_NONE_LIVE = [-1, -1, -1, -1]


class KleurenwiezenAuction(Explanations, TroelAuction):
    """A Kleurenwiezen auction. With a deal, troel is found from the cards and a suit can only be
    proposed or accepted by a player holding a card of it; without one neither rule applies."""

    game = "kleurenwiezen"
    _switch_phase = SWITCH

    def __init__(self, ruleset: Ruleset, dealer: Seat, deal: Deal | None = None) -> None:
        super().__init__(ruleset, dealer, deal)
        tables = self._t = per_ruleset("kleurenwiezen", ruleset, Tables)
        self._held = suits_held(deal)
        self._status = [FREE, FREE, FREE, FREE]
        self._spoken = [False, False, False, False]
        self._suit = [-1, -1, -1, -1]  # the suit a seat is bound to
        self._rank = [-1, -1, -1, -1]  # the rank of a seat's standing bid
        self._bid: list[Call | None] = [None, None, None, None]
        self._live = [-1, -1, -1, -1]  # a seat's live proposal
        self._proposed = [0] * 16  # seat * 4 + suit: proposals made
        self._partner = [-1, -1, -1, -1]
        self._speaker = [False, False, False, False]
        self._proposer = [False, False, False, False]
        self._parole = [False, False, False, False]
        self._former = [-1, -1, -1, -1]  # the partner who broke the partnership
        self._taken = [False, False, False, False]  # by suit: accepted or bid solo in
        self._stamp = [0, 0, 0, 0]
        self._clock = 0
        self._highest = -1
        self._high_negative = False
        self._high_call: Call | None = None
        self._negative_seen = False
        self._phase = BIDDING
        self._first = (dealer.value + 1) % 4
        self.troel = None
        self._troel_standing = False
        self._troel_level = 0
        if deal is not None and tables.ranking.has(Contract.TROEL):
            troel = self.troel = find_troel(deal, self.options)
            if troel is not None:
                self._troel_level, self._highest = troel_level_and_rank(
                    ruleset, tables.ranking, troel
                )
                self._troel_standing = True
        self._turn = self._first

    @classmethod
    def replay(
        cls, ruleset: Ruleset, dealer: Seat, calls: object, deal: Deal | None = None
    ) -> KleurenwiezenAuction:
        """The auction after ``calls`` (``IllegalCallError`` naming the first illegal one)."""
        return replay_into(cls(ruleset, dealer, deal), calls)

    # -- questions callers ask -----------------------------------------------------------------

    @property
    def highest(self) -> str:
        """The highest bid so far, as text (empty if none)."""
        return self._highest_text()

    def partner_of(self, seat: Seat) -> Seat | None:
        """The seat's partner in a standing partnership."""
        partner = self._partner[seat.value]
        return None if partner < 0 else SEATS[partner]

    # -- legal calls ---------------------------------------------------------------------------

    def _normalize(self, call: Call) -> Call:
        if call.level is None and call.suit is not None and self._phase == BIDDING:
            table = None
            if call.kind is CallKind.ACCEPT:
                table = self._t.accept_min
            elif call.kind is CallKind.SOLO:
                table = self._t.solo_min
            if table is not None:
                lowest = table[call.suit.value][self._highest + 1]
                if lowest is not None:
                    return lowest
        return call

    def _legal_calls(self) -> list[Call]:
        t = self._t
        x = self._turn
        if self._phase == SWITCH:
            return self._switch_calls()
        status = self._status[x]
        hi = self._highest + 1
        out = [t.pass_]
        if status == FREE:
            self._add_free_calls(x, hi, out)
        elif status == WAITED:
            self._add_accepts(x, hi, out)
        elif status == PARTNER:
            self._add_partnership_raise(x, hi, out)
        elif status in (BOUND, SOLO):
            self._add_solo_raise(x, status, hi, out)
        elif status == ABONDANCE:
            self._add_abondance_raises(x, hi, out)
        elif status == SLIM:
            out.extend(t.slim_over[self._suit[x]][hi])
        elif status == NEGATIVE:
            self._add_negatives(hi, out)
        return out

    def _switch_calls(self) -> list[Call]:
        """The troel partner's calls once the auction ended in troel: keep or switch trumps."""
        assert self.troel is not None
        trump = self.troel.trump.value
        t = self._t
        return [t.pass_] + [t.switch[v] for v in BY_BID_RANK if v != trump]

    def _add_free_calls(self, x: int, hi: int, out: list[Call]) -> None:
        """What an uncommitted player may say: wait, propose, accept, go solo or bid a contract."""
        t = self._t
        options = self.options
        spoken = self._spoken[x]
        others_open = self._others_open(x)
        if not spoken and x == self._first and options.wait and self.troel is None:
            out.append(t.wait)
        if others_open and (options.proposals_after_negative or not self._negative_seen):
            self._add_proposals(x, hi, out)
        self._add_accepts(x, hi, out)
        self._add_solos(x, hi, others_open, out)
        self._add_joined_negative(hi, out)
        out.extend(t.negative_over[hi] if spoken else t.first_over[hi])

    def _add_proposals(self, x: int, hi: int, out: list[Call]) -> None:
        """The suits the player may propose: not taken, not proposed by another player, not
        proposed too often, held, and with an acceptance that would outrank the highest bid."""
        accept_row = self._t.accept_at[hi]
        taken = self._taken
        live = self._live
        proposed = self._proposed
        held = self._held
        most = self.options.proposals_per_suit
        propose = self._t.propose
        base = x * 4
        for v in BY_BID_RANK:
            if (
                taken[v]
                or accept_row[v] is None
                or v in live
                or proposed[base + v] >= most
                or (held is not None and not held[base + v])
            ):
                continue
            out.append(propose[v])

    def _add_solos(self, x: int, hi: int, others_open: bool, out: list[Call]) -> None:
        """The solos the player may bid: in a free suit, and while someone could still accept,
        only in a suit they proposed (once, unless the ruleset allows it after more)."""
        solo_row = self._t.solo_at[hi]
        taken = self._taken
        proposed = self._proposed
        base = x * 4
        for v in BY_BID_RANK:
            solo = solo_row[v]
            if solo is None or taken[v]:
                continue
            if others_open:
                count = proposed[base + v]
                if not count or (count > 1 and not self.options.solo_after_repeated_proposal):
                    continue
            out.append(solo)

    def _add_partnership_raise(self, x: int, hi: int, out: list[Call]) -> None:
        """The speaker of a partnership raises its acceptance (or passes parôle first)."""
        options = self.options
        raised = self._t.accept_min[self._suit[x]][hi]
        if raised is None:
            return
        assert raised.level is not None
        if (
            options.pass_parole
            and not self._parole[x]
            and raised.level >= options.pass_parole_from_level
        ):
            out.append(self._t.parole)
        out.append(raised)

    def _add_solo_raise(self, x: int, status: int, hi: int, out: list[Call]) -> None:
        """A solo in the player's own suit, and after a broken partnership the negative
        contracts where the ruleset allows them."""
        solo = self._t.solo_min[self._suit[x]][hi]
        if solo is not None:
            out.append(solo)
        if status == BOUND and self.options.negative_after_broken_partnership:
            self._add_negatives(hi, out)

    def _add_abondance_raises(self, x: int, hi: int, out: list[Call]) -> None:
        """A higher abondance or a slim in the player's suit, and the negative contracts where
        the ruleset allows them after abondance."""
        v = self._suit[x]
        out.extend(self._t.abondance_over[v][hi])
        out.extend(self._t.slim_over[v][hi])
        if self.options.negative_after_abondance:
            self._add_negatives(hi, out)

    def _add_accepts(self, x: int, hi: int, out: list[Call]) -> None:
        live = self._live
        if live == _NONE_LIVE:
            return
        held = self._held
        accept_row = self._t.accept_at[hi]
        for other in range(4):
            v = live[other]
            if v < 0 or other == x or self._taken[v]:
                continue
            if held is not None and not held[x * 4 + v]:
                continue
            accept = accept_row[v]
            if accept is not None:
                out.append(accept)

    def _add_negatives(self, hi: int, out: list[Call]) -> None:
        self._add_joined_negative(hi, out)
        out.extend(self._t.negative_over[hi])

    def _add_joined_negative(self, hi: int, out: list[Call]) -> None:
        """The negative contract that joins the highest bid, if that is a negative one."""
        if self._high_negative:
            joined = self._t.negative_at[hi]
            if joined is not None:
                out.append(joined)

    # -- making a call -------------------------------------------------------------------------

    def _apply(self, x: int, call: Call) -> None:
        kind = call.kind
        if self._phase == SWITCH:
            self._finish_troel(call.suit if kind is CallKind.SWITCH else None)
            return
        self._spoken[x] = True
        if kind is CallKind.PASS:
            if self._status[x] == PARTNER:
                partner = self._partner[x]
                self._status[partner] = BOUND
                self._rank[partner] = -1
                self._bid[partner] = None
                self._speaker[partner] = False
                self._partner[partner] = -1
                self._former[partner] = x
            self._status[x] = PASSED
            self._rank[x] = -1
            self._bid[x] = None
            self._partner[x] = -1
            self._speaker[x] = False
        elif kind is CallKind.WAIT:
            self._status[x] = WAITED
        elif kind is CallKind.PROPOSE:
            assert call.suit is not None
            v = call.suit.value
            self._live[x] = v
            self._proposed[x * 4 + v] += 1
        elif kind is CallKind.PAROLE:
            partner = self._partner[x]
            self._speaker[x] = False
            self._speaker[partner] = True
            self._parole[x] = self._parole[partner] = True
        else:
            self._bid_made(x, call)
        self._advance(x)

    def _bid_made(self, x: int, call: Call) -> None:
        rank, _, _, v, negative = self._t.info[id(call)]
        kind = call.kind
        status = self._status[x]
        self._rank[x] = rank
        self._bid[x] = call
        if kind is CallKind.ACCEPT:
            if status == PARTNER:
                partner = self._partner[x]
            else:
                partner = next(o for o in range(4) if o != x and self._live[o] == v)
                self._status[x] = self._status[partner] = PARTNER
                self._partner[x], self._partner[partner] = partner, x
                self._speaker[x] = True
                self._proposer[partner] = True
                self._suit[x] = self._suit[partner] = v
                self._live[partner] = -1
                self._taken[v] = True
            self._rank[partner] = rank
            self._bid[partner] = call
        elif kind is CallKind.SOLO:
            self._status[x] = SOLO
            self._suit[x] = v
            self._taken[v] = True
        elif kind is CallKind.ABONDANCE:
            self._status[x] = ABONDANCE
            self._suit[x] = v
        elif kind in SLIM_KINDS:
            self._status[x] = SLIM
            self._suit[x] = v
        else:
            self._status[x] = NEGATIVE
            self._negative_seen = True
            self._clock += 1
            self._stamp[x] = self._clock
        if rank > self._highest:
            self._highest = rank
            self._high_negative = negative
            self._troel_standing = False
            self._high_call = call

    def _advance(self, x: int) -> None:
        status = self._status
        open_stage = FREE in status or WAITED in status
        for step in (1, 2, 3, 4):
            y = (x + step) & 3
            state = status[y]
            if state == PASSED:
                continue
            if open_stage:
                if state > WAITED:
                    continue  # committed players are skipped while others are still free
            elif (state == PARTNER and not self._speaker[y]) or self._rank[y] >= self._highest:
                continue  # the partner speaks for them, or their bid is the highest
            self._live[y] = -1  # a proposal lives until its proposer's next turn
            self._turn = y
            return
        self._finish()

    def _finish(self) -> None:
        self._turn = -1
        if self._end_in_troel():
            return
        if self._highest < 0:
            self._result = BoardResult(Contract.PASS)
            return
        holders = [
            y for y in range(4) if self._status[y] != PASSED and self._rank[y] == self._highest
        ]
        call = self._bid[holders[0]]
        assert call is not None
        _, contract, level, v, negative = self._t.info[id(call)]
        if negative:
            holders.sort(key=lambda y: self._stamp[y])
            if (
                contract is Contract.SMALL_MISERE
                and len(holders) == 3
                and self.options.forced_fourth_small_misere
            ):
                holders.append(6 - sum(holders))
            self._result = BoardResult(contract, level, None, tuple(SEATS[y] for y in holders))
            return
        if contract is Contract.ACCEPT:
            holders.sort(key=lambda y: not self._proposer[y])
        self._result = BoardResult(contract, level, SUITS[v], tuple(SEATS[y] for y in holders))

    # -- why a call is illegal -----------------------------------------------------------------
