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
    Ranking,
    Troel,
    TroelAuction,
    find_troel,
    options_of,
    per_ruleset,
    replay_into,
    troel_level_and_rank,
)
from engine.auction.calls import Call, CallKind
from engine.cards import SEATS, SUITS, Rank, Seat, Suit
from engine.errors import DealError
from engine.hands import Deal
from engine.results import BoardResult, Contract, RondePasGame
from engine.ronde_pas import game_for_all_pass
from engine.ruleset import Ruleset

FREE, WAITED, PASSED = 0, 1, 2
_ANNOUNCE, _BIDDING, _SWITCH, _TRUMP = 0, 1, 2, 3

_NEGATIVE_KINDS = (CallKind.SMALL_MISERE, CallKind.PICCOLO, CallKind.MISERE, CallKind.OPEN_MISERE)
_CHOSEN_TRUMP = (Contract.ABONDANCE, Contract.SOLO_SLIM, Contract.SMALL_SOLO_SLIM)
_WIEZEN_KINDS = frozenset(
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
        *_NEGATIVE_KINDS,
    }
)
_CARTE_BLANCHE_BIDS = (CallKind.OPEN_MISERE, CallKind.SOLO_SLIM)
_FACE_RANKS = (Rank.KING, Rank.QUEEN, Rank.JACK)
# The calls that belong before or after the bidding, and why they cannot be made during it.
_OUTSIDE_THE_BIDDING = {
    CallKind.SWITCH: "'switch' is for the troel partner once the auction ends in troel",
    CallKind.TRUMP: "'trump' names the trumps of an abondance or slim after the auction",
    CallKind.CARTE_BLANCHE: "carte blanche is announced before the bidding begins",
}


class _Tables:
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
        for kind in _NEGATIVE_KINDS:
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


class WiezenAuction(TroelAuction):
    """A Wiezen auction. ``turned`` is the suit of the turned-up card (the dealer's last card).
    With a deal, troel and carte blanche are found from the cards; without one they never arise."""

    game = "wiezen"
    _switch_phase = _SWITCH

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
            tables = by_turned[turned] = _Tables(ruleset, turned)
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
        self._phase = _BIDDING
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
            self._phase = _ANNOUNCE
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
        if phase == _ANNOUNCE:
            return [t.pass_, t.carte_blanche]
        if phase == _SWITCH:
            assert self.troel is not None
            trump = self.troel.trump.value
            return [t.pass_] + [t.switch[v] for v in BY_BID_RANK if v != trump]
        if phase == _TRUMP:
            return [t.trump[v] for v in BY_BID_RANK]
        h = self._highest
        if x == self._troel_due and not self._spoken[x] and self._troel_rank > h:
            above = self._troel_rank
            return [t.troel] + [call for rank, call in t.open_bids if rank > above]
        out = [t.pass_]
        if self._restricted:
            out.extend(c for r, c in t.open_bids if c.kind in _CARTE_BLANCHE_BIDS and self._over(r))
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

    def _over(self, rank: int) -> bool:
        """Whether a bid of this rank may be made: higher than the highest, or joining an
        equal negative contract."""
        if rank > self._highest:
            return True
        return (
            rank == self._highest
            and self._high_call is not None
            and (self._high_call.kind in _NEGATIVE_KINDS)
        )

    # -- making a call -------------------------------------------------------------------------

    def _apply(self, x: int, call: Call) -> None:
        kind = call.kind
        phase = self._phase
        if phase == _ANNOUNCE:
            if kind is CallKind.CARTE_BLANCHE:
                self._restricted = True
            if self._announcers:
                self._turn = self._announcers.pop(0)
                return
            self._phase = _BIDDING
            if self._restricted:
                self._troel_standing = False
                self._troel_due = -1
                self._highest = -1
            self._turn = self._first
            return
        if phase == _SWITCH:
            self._finish_troel(call.suit if kind is CallKind.SWITCH else None)
            return
        if phase == _TRUMP:
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
            elif kind in _NEGATIVE_KINDS:
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
            self._phase = _TRUMP
            self._turn = holders[0]
            return
        if contract is Contract.ACCEPT:
            holders.sort(key=lambda y: y == self._acceptor)
        self._result = BoardResult(contract, level, trump, tuple(SEATS[y] for y in holders))

    # -- why a call is illegal -----------------------------------------------------------------

    def _problem(self, call: Call) -> str | None:
        kind = call.kind
        phase = self._phase
        if kind not in _WIEZEN_KINDS:
            return f"'{kind.value}' is not a Wiezen call"
        if phase == _ANNOUNCE:
            return self._announce_problem(call)
        if phase == _SWITCH:
            return self._switch_problem(call)
        if phase == _TRUMP:
            return self._trump_problem(call)
        return self._bidding_problem(call)

    def _announce_problem(self, call: Call) -> str | None:
        """Before the bidding: only carte blanche or pass."""
        if call.kind in (CallKind.PASS, CallKind.CARTE_BLANCHE):
            return None
        return (
            f"before the bidding {SEAT_NAMES[self._turn]} may only announce carte blanche or pass"
        )

    def _switch_problem(self, call: Call) -> str | None:
        """After an auction won by troel: the partner keeps the trumps or switches them."""
        kind = call.kind
        troel = self.troel
        assert troel is not None
        if kind is CallKind.PASS or (kind is CallKind.SWITCH and call.suit is not troel.trump):
            return None
        return (
            f"the auction ended in troel; {SEAT_NAMES[self._turn]}, the partner, may only keep "
            f"the trumps ({SUIT_NAMES[troel.trump.value]}) with 'pass' or change them with "
            "'switch <suit>'"
        )

    def _trump_problem(self, call: Call) -> str | None:
        """After an auction won by a bid without trumps: its winner names them."""
        if call.kind is CallKind.TRUMP:
            return None
        return (
            f"{SEAT_NAMES[self._turn]} won the auction and now names the trump suit: 'trump <suit>'"
        )

    def _bidding_problem(self, call: Call) -> str | None:
        """During the bidding: the call must exist in the ruleset, be well formed, and be
        allowed to this player now."""
        x = self._turn
        who = SEAT_NAMES[x]
        kind = call.kind
        misplaced = _OUTSIDE_THE_BIDDING.get(kind)
        if misplaced is not None:
            return misplaced
        contract = kind.contract
        if contract is not None and not self._t.ranking.has(contract):
            return f"the {self.ruleset.name} ruleset has no {contract.value}"
        shape = self._shape_problem(call)
        if shape is not None:
            return shape
        if self._troel_is_due(x):
            return self._troel_due_problem(call)
        if kind is CallKind.PASS:
            return None
        if self._restricted and kind not in _CARTE_BLANCHE_BIDS:
            return "after carte blanche only open misère and solo slim may be bid"
        if self._status[x] == WAITED and kind is not CallKind.ACCEPT:
            return f"{who} waited, and may now only accept a proposal or pass"
        if kind is CallKind.WAIT:
            return self._wait_problem()
        if kind is CallKind.ACCEPT:
            return self._accept_problem()
        if kind is CallKind.TROEL:
            return self._troel_problem()
        return self._bid_problem(call)

    def _troel_is_due(self, x: int) -> bool:
        """Whether the player holds the troel aces and must bid troel (or higher) now."""
        return x == self._troel_due and not self._spoken[x] and self._troel_rank > self._highest

    def _troel_due_problem(self, call: Call) -> str | None:
        """The holder of the troel aces at their first turn: troel or a higher bid."""
        if call.kind is CallKind.TROEL or self._rank_of(call) > self._troel_rank:
            return None
        who = SEAT_NAMES[self._turn]
        return (
            f"{who} holds {'four' if self._four() else 'three'} aces and must bid troel or higher"
        )

    def _wait_problem(self) -> str | None:
        """Waiting: where the ruleset allows it, for the dealer's left at the first turn."""
        x = self._turn
        if not self.options.wait:
            return f"the {self.ruleset.name} ruleset does not allow waiting"
        if x != self._first or self._spoken[x]:
            return (
                f"only {SEAT_NAMES[self._first]}, on the dealer's left, may wait, at the first turn"
            )
        if self._troel_standing:
            return "there is no waiting after a troel"
        return None

    def _accept_problem(self) -> str | None:
        """Accepting: another player's proposal that nobody has overcalled."""
        proposer = self._proposer
        if proposer < 0 or proposer == self._turn:
            return f"there is no proposal for {SEAT_NAMES[self._turn]} to accept"
        if self._highest != self._t.propose_rank:
            return f"{SEAT_NAMES[proposer]}'s proposal has been overcalled by {self._high_text()}"
        return None

    def _troel_problem(self) -> str:
        """Troel outside the first turn of the player holding the aces."""
        x = self._turn
        who = SEAT_NAMES[x]
        if self.troel is None or x != self._troel_due:
            return f"{who} does not hold three aces: only a troel found in the cards is bid"
        return f"{who} may only bid troel at the first turn, before anything higher is bid"

    def _bid_problem(self, call: Call) -> str | None:
        """A proposal, a solo or a contract: it must exist, be the player's to make and
        outrank the highest bid (a solo at the lowest level that does)."""
        kind = call.kind
        h = self._highest
        if kind is CallKind.PROPOSE and self._t.propose_rank <= h:
            return f"a proposal is the lowest bid, and {self._high_text()} has been bid already"
        if kind is CallKind.SOLO and not self._solo_right[self._turn]:
            return (
                "in Wiezen only a player whose proposal was not accepted may go solo "
                f"({SEAT_NAMES[self._turn]})"
            )
        rank = self._rank_of(call)
        if rank < 0:
            return f"the {self.ruleset.name} ruleset has no '{call}'"
        if kind is CallKind.SOLO:
            lowest = next((c for r, c in self._t.solo if r > h), None)
            if lowest is not None and lowest != call:
                return (
                    f"a solo is bid at the lowest level that outranks {self._high_call}: '{lowest}'"
                )
        if not self._over(rank):
            return f"'{call}' does not outrank {self._high_text()}"
        return None

    def _shape_problem(self, call: Call) -> str | None:
        kind = call.kind
        named = self.options.abondance_trump == "named"
        if kind in (CallKind.PROPOSE, CallKind.ACCEPT, CallKind.SOLO, CallKind.GRAND_SOLO) and (
            call.suit is not None
        ):
            return f"in Wiezen the turned-up suit is trumps: say '{kind.value}' without a suit"
        if kind is CallKind.ACCEPT and call.level is not None:
            return "in Wiezen an acceptance has no level: say 'accept'"
        if kind in (CallKind.ABONDANCE, CallKind.SOLO_SLIM, CallKind.SMALL_SOLO_SLIM):
            if named and call.suit is None:
                return f"name the trump suit with the bid: '{kind.value} H ...'"
            if not named and call.suit is not None:
                if kind is CallKind.ABONDANCE and self.options.abondance_in_trumps:
                    if call.suit is not self.turned:
                        return (
                            f"an abondance in trumps is in the turned-up suit "
                            f"({SUIT_NAMES[self.turned.value]}); other trumps are named after "
                            "the auction"
                        )
                    return None
                return f"the trumps of {kind.value} are named after the auction: say '{kind.value}' without a suit"
        return None

    def _rank_of(self, call: Call) -> int:
        for rank, bid in self._t.bids:
            if bid == call:
                return rank
        return -1

    def _high_text(self) -> str:
        if self._high_call is not None:
            return f"'{self._high_call}'"
        return "the troel" if self._troel_standing else "nothing"

    def _four(self) -> bool:
        return self.troel is not None and self.troel.four_aces


def _empty_tables(ruleset: Ruleset) -> dict[Suit, _Tables]:
    return {}
