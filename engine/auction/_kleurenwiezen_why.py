"""Why a Kleurenwiezen call is illegal: one sentence that names the player and the rule.

Kept apart from the machine, which lists legal calls from tables; the tests check that both
always agree (a call is legal exactly when no explanation is found).
"""

from __future__ import annotations

from engine.auction._common import SEAT_NAMES, Troel
from engine.auction._kleurenwiezen_tables import (
    ABONDANCE,
    BOUND,
    FREE,
    KLEURENWIEZEN_KINDS,
    NEGATIVE,
    NEGATIVE_KINDS,
    PARTNER,
    SLIM,
    SLIM_KINDS,
    SOLO,
    SUITED_KINDS,
    SWITCH,
    WAITED,
    Tables,
    suit_name,
)
from engine.auction.calls import Call, CallKind
from engine.auction.options import AuctionOptions
from engine.cards import SUITS
from engine.ruleset import Ruleset


class Explanations:
    """The explaining half of ``KleurenwiezenAuction`` (a mixin over the machine's state)."""

    ruleset: Ruleset
    options: AuctionOptions
    troel: Troel | None
    _t: Tables
    _turn: int
    _phase: int
    _first: int
    _status: list[int]
    _suit: list[int]
    _former: list[int]
    _spoken: list[bool]
    _parole: list[bool]
    _taken: list[bool]
    _live: list[int]
    _proposed: list[int]
    _held: list[bool] | None
    _highest: int
    _high_negative: bool
    _high_call: Call | None
    _troel_standing: bool
    _negative_seen: bool

    def _others_open(self, x: int) -> bool:
        """Whether another player is still free to accept a proposal."""
        status = self._status
        return (
            status[(x + 1) & 3] <= WAITED
            or status[(x + 2) & 3] <= WAITED
            or status[(x + 3) & 3] <= WAITED
        )

    def _problem(self, call: Call) -> str | None:
        x = self._turn
        kind = call.kind
        if self._phase == SWITCH:
            return self._why_switch(x, call)
        if kind not in KLEURENWIEZEN_KINDS:
            return f"'{kind.value}' is not a Kleurenwiezen call"
        if kind is CallKind.SWITCH:
            return "'switch' is for the troel partner, once the auction has ended in troel"
        if kind in SUITED_KINDS and call.suit is None:
            return f"'{kind.value}' needs a suit, e.g. '{kind.value} H'"
        contract = kind.contract
        if contract is not None and not self._t.ranking.has(contract):
            return f"the {self.ruleset.name} ruleset has no {contract.value}"
        if kind is CallKind.PASS:
            return None
        status = self._status[x]
        restriction = self._restriction(x, status, kind)
        if restriction is not None:
            return restriction
        if kind is CallKind.WAIT:
            return self._why_wait(x)
        if kind is CallKind.PAROLE:
            return self._why_parole(x)
        if kind is CallKind.PROPOSE:
            return self._why_propose(x, call)
        if kind is CallKind.ACCEPT:
            return self._why_accept(x, status, call)
        if kind is CallKind.SOLO:
            return self._why_solo(x, status, call)
        return self._why_contract(x, status, call)

    def _why_switch(self, x: int, call: Call) -> str | None:
        """What the troel partner may say once the auction ended in troel: keep or switch."""
        who = SEAT_NAMES[x]
        kind = call.kind
        troel = self.troel
        assert troel is not None
        if kind is CallKind.PASS:
            return None
        if kind is CallKind.SWITCH and call.suit is not None:
            if call.suit is troel.trump:
                return (
                    f"{suit_name(troel.trump.value)} are already trumps; {who} passes to keep "
                    "them or switches to another suit"
                )
            return None
        return (
            f"the auction ended in troel; {who}, the partner, may only keep the trumps "
            "('pass') or change them ('switch <suit>')"
        )

    def _high(self) -> str:
        text = self._highest_text()
        return f"the highest bid ({text})" if text else "nothing"

    def _highest_text(self) -> str:
        troel = self.troel
        if self._troel_standing and troel is not None:
            return f"troel by {troel.bidder.name} and {troel.partner.name}"
        return "" if self._high_call is None else str(self._high_call)

    def _restriction(self, x: int, status: int, kind: CallKind) -> str | None:
        """What a player's earlier calls bind them to, if ``kind`` is outside it."""
        who = SEAT_NAMES[x]
        suit = suit_name(self._suit[x])
        negative = kind in NEGATIVE_KINDS
        options = self.options
        if status == WAITED and kind is not CallKind.ACCEPT:
            return f"{who} waited, and may now only accept a live proposal or pass"
        if status == PARTNER and kind not in (CallKind.ACCEPT, CallKind.PAROLE):
            return f"{who} speaks for the partnership in {suit} and may only raise it or pass"
        if status == BOUND and not (
            kind is CallKind.SOLO or (negative and options.negative_after_broken_partnership)
        ):
            return (
                f"{who} is bound to {suit} since {SEAT_NAMES[self._former[x]]} passed, and may "
                f"only bid a solo in {suit} or pass"
            )
        if status == SOLO and kind is not CallKind.SOLO:
            return f"{who} bid a solo in {suit} and may only raise it or pass"
        if (
            status == ABONDANCE
            and kind is not CallKind.ABONDANCE
            and kind not in SLIM_KINDS
            and not (negative and options.negative_after_abondance)
        ):
            return (
                f"{who} bid abondance in {suit} and may only raise it (a higher abondance or a "
                f"slim in {suit}) or pass"
            )
        if status == SLIM and kind not in SLIM_KINDS:
            return f"{who} bid a slim in {suit} and may only raise it or pass"
        if status == NEGATIVE and not negative:
            return f"{who} bid a negative contract and may only bid an equal or higher one or pass"
        if status in (FREE, BOUND, SOLO, ABONDANCE, SLIM, NEGATIVE) and kind is CallKind.PAROLE:
            return "only a player speaking for a partnership, as its acceptor, may pass parôle"
        return None

    def _why_wait(self, x: int) -> str | None:
        if not self.options.wait:
            return f"the {self.ruleset.name} ruleset does not allow waiting"
        if x != self._first:
            return f"only {SEAT_NAMES[self._first]}, on the dealer's left, may wait"
        if self._spoken[x]:
            return f"{SEAT_NAMES[x]} may only wait at their first turn"
        if self.troel is not None:
            return "there is no waiting after a troel: only bids above the troel can be made"
        return None

    def _why_parole(self, x: int) -> str | None:
        options = self.options
        who = SEAT_NAMES[x]
        if not options.pass_parole:
            return f"the {self.ruleset.name} ruleset does not allow pass parôle"
        if self._parole[x]:
            return f"{who} was given parôle and may only raise or pass"
        raised = self._t.accept_min[self._suit[x]][self._highest + 1]
        if raised is None:
            return f"no accept in {suit_name(self._suit[x])} outranks {self._high()}: {who} may only pass"
        assert raised.level is not None
        if raised.level < options.pass_parole_from_level:
            return (
                f"pass parôle is allowed when the partnership would have to bid "
                f"{options.pass_parole_from_level} tricks or more; {who} needs only {raised.level}"
            )
        return None

    def _why_propose(self, x: int, call: Call) -> str | None:
        assert call.suit is not None
        v = call.suit.value
        who = SEAT_NAMES[x]
        suit = suit_name(v)
        options = self.options
        if not options.proposals_after_negative and self._negative_seen:
            return (
                f"after a negative contract no new trump suit may be proposed in the "
                f"{self.ruleset.name} ruleset"
            )
        if self._taken[v]:
            return f"{suit} are already taken by another contract"
        owner = next((o for o in range(4) if o != x and self._live[o] == v), None)
        if owner is not None:
            return f"{SEAT_NAMES[owner]} has a live proposal of {suit}; {who} may accept it instead"
        count = self._proposed[x * 4 + v]
        if count >= options.proposals_per_suit:
            return f"{who} has proposed {suit} {count} times, the most the ruleset allows"
        if self._held is not None and not self._held[x * 4 + v]:
            return f"{who} holds no {suit} and cannot propose them"
        if self._t.accept_min[v][self._highest + 1] is None:
            return f"not even accept 13 in {suit} would outrank {self._high()}"
        if not self._others_open(x):
            return "nobody is left who could accept a proposal"
        return None

    def _why_accept(self, x: int, status: int, call: Call) -> str | None:
        assert call.suit is not None
        v = call.suit.value
        who = SEAT_NAMES[x]
        suit = suit_name(v)
        hi = self._highest + 1
        if status == PARTNER:
            own = self._suit[x]
            if v != own:
                return (
                    f"{who} is bound to {suit_name(own)}; a raise is 'accept {SUITS[own].letter}'"
                )
            raised = self._t.accept_min[own][hi]
            if raised is None:
                return f"no accept in {suit} outranks {self._high()}; {who} may only pass"
            if call.level != raised.level:
                return (
                    f"{who} must raise to exactly {raised.level}, the lowest level in {suit} "
                    f"that outranks {self._high()}"
                )
            return None
        if not any(o != x and self._live[o] == v for o in range(4)):
            return f"nobody has a live proposal of {suit} for {who} to accept"
        if self._taken[v]:
            return f"{suit} are already taken by another contract"
        if self._held is not None and not self._held[x * 4 + v]:
            return f"{who} holds no {suit} and cannot accept them"
        need = self._t.accept_min[v][hi]
        if need is None:
            return f"not even accept 13 in {suit} outranks {self._high()}"
        if call.level != need.level:
            return (
                f"accepting {suit} means bidding {need.level} tricks, the lowest level that "
                f"outranks {self._high()}"
            )
        return None

    def _why_solo(self, x: int, status: int, call: Call) -> str | None:
        assert call.suit is not None
        v = call.suit.value
        who = SEAT_NAMES[x]
        suit = suit_name(v)
        if status in (BOUND, SOLO):
            own = self._suit[x]
            if v != own:
                return f"{who} is bound to {suit_name(own)} and may only bid a solo in {suit_name(own)}"
        else:
            if self._taken[v]:
                return f"{suit} are already taken by another player's contract"
            if self._others_open(x):
                count = self._proposed[x * 4 + v]
                if not count:
                    return (
                        f"{who} may only bid a solo in a suit they proposed without it being "
                        "accepted, or when nobody is left who could accept a proposal"
                    )
                if count > 1 and not self.options.solo_after_repeated_proposal:
                    return (
                        f"{who} proposed {suit} more than once, and the {self.ruleset.name} "
                        "ruleset then allows no solo in it"
                    )
        need = self._t.solo_min[v][self._highest + 1]
        if need is None:
            return f"no solo in {suit} outranks {self._high()}"
        if call.level != need.level:
            return (
                f"a solo is bid at the lowest level that outranks {self._high()}: "
                f"'solo {SUITS[v].letter} {need.level}'"
            )
        return None

    def _why_contract(self, x: int, status: int, call: Call) -> str | None:
        """Abondance, the slims and the negative contracts."""
        kind = call.kind
        who = SEAT_NAMES[x]
        contract = kind.contract
        assert contract is not None
        ranking = self._t.ranking
        if kind in NEGATIVE_KINDS:
            rank = ranking.rank[contract, ranking.levels[contract][0], None]
            if rank < self._highest or (rank == self._highest and not self._high_negative):
                return f"{kind.value} does not outrank {self._high()}"
            return None
        assert call.suit is not None
        v = call.suit.value
        if status in (ABONDANCE, SLIM):
            if v != self._suit[x]:
                return f"{who} may only raise in {suit_name(self._suit[x])}"
        elif self._spoken[x]:
            return (
                f"{kind.value} may only be bid at a player's first turn (or to raise one's own "
                f"abondance); {who} has already spoken"
            )
        level = call.level if kind is CallKind.ABONDANCE else ranking.levels[contract][0]
        found = ranking.rank.get((contract, level, call.suit))
        if found is None:
            levels = ", ".join(str(lv) for lv in ranking.levels[contract])
            return (
                f"the {self.ruleset.name} ruleset has no {contract.value} {level} (levels {levels})"
            )
        if found <= self._highest:
            return f"'{call}' does not outrank {self._high()}"
        return None
