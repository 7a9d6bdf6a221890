"""Why a Wiezen call is illegal, phase by phase: a sentence naming the player and the rule.

The machine (``engine.auction.wiezen``) picks its legal calls from ``_wiezen_tables``; these
reasons are worked out from the rules on their own, and the tests hold the two to agreeing.
"""

from __future__ import annotations

from engine.auction._common import SEAT_NAMES, SUIT_NAMES, Troel
from engine.auction._wiezen_tables import (
    ANNOUNCE,
    CARTE_BLANCHE_BIDS,
    NEGATIVE_KINDS,
    SWITCH,
    TRUMP,
    WAITED,
    WIEZEN_KINDS,
    Tables,
)
from engine.auction.calls import Call, CallKind
from engine.auction.options import AuctionOptions
from engine.cards import Suit
from engine.ruleset import Ruleset

# The calls that belong before or after the bidding, and why they cannot be made during it.
_OUTSIDE_THE_BIDDING = {
    CallKind.SWITCH: "'switch' is for the troel partner once the auction ends in troel",
    CallKind.TRUMP: "'trump' names the trumps of an abondance or slim after the auction",
    CallKind.CARTE_BLANCHE: "carte blanche is announced before the bidding begins",
}


class Explanations:
    """The explaining half of ``WiezenAuction`` (a mixin over the machine's state), and
    ``_over``, which the machine's legal calls ask too."""

    ruleset: Ruleset
    options: AuctionOptions
    troel: Troel | None
    turned: Suit
    _t: Tables
    _turn: int
    _phase: int
    _first: int
    _status: list[int]
    _spoken: list[bool]
    _solo_right: list[bool]
    _proposer: int
    _highest: int
    _high_call: Call | None
    _restricted: bool
    _troel_standing: bool
    _troel_due: int
    _troel_rank: int

    def _over(self, rank: int) -> bool:
        """Whether a bid of this rank may be made: higher than the highest, or joining an
        equal negative contract."""
        if rank > self._highest:
            return True
        return (
            rank == self._highest
            and self._high_call is not None
            and (self._high_call.kind in NEGATIVE_KINDS)
        )

    def _problem(self, call: Call) -> str | None:
        kind = call.kind
        phase = self._phase
        if kind not in WIEZEN_KINDS:
            return f"'{kind.value}' is not a Wiezen call"
        if phase == ANNOUNCE:
            return self._announce_problem(call)
        if phase == SWITCH:
            return self._switch_problem(call)
        if phase == TRUMP:
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
        if self._restricted and kind not in CARTE_BLANCHE_BIDS:
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
