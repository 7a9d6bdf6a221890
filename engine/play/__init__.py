"""The play of the cards in Kleurenwiezen, Wiezen and Israeli Whist.

A ``PlayState`` takes a contract (the auction's outcome, a ``BoardResult`` or ``IsraeliResult``
without tricks), the board's deal and its dealer, and follows the play card by card:
``verify_play(card)`` raises ``IllegalCardError`` with the reason, ``can_play(card)`` answers for a
user interface, ``play(card)`` applies it and returns the immutable ``PlayRecord`` appended to
``log``. ``result()`` gives the contract with its tricks once the play is over.

Rulings, where the rules texts leave room (docs/play.md explains them for directors):

- Who leads: the player on the dealer's left, except in the contracts of
  ``PlayRules.declarer_leads`` (Kleurenwiezen: abondance and slams; Wiezen: slams only, as
  pagat's Wiezen page says) and in troel (see ``TroelLead``). In Israeli Whist the declarer leads.
- Small misère: every player first discards one card face down, in turn from the dealer's left;
  then 12 tricks are played, led by the dealer's left.
- Open misère: the declarers' hands go face up after the first trick (pagat), or before it with
  ``open_misere_exposed_after=0`` (Whisthub); ``exposed`` and ``PlayRecord.exposes`` record when.
- Early end (``EndPolicy``): the play stops when one player must win every remaining trick (they
  are credited to that player), and, by default, when a contract's outcome is settled and its
  score cannot depend on the rest: every misère declarer has taken a trick or can no longer take
  one, a piccolo declarer has taken two or can no longer take one, or an abondance or slam can no
  longer be made. The declaring side is then credited the tricks it has won plus those it is still
  certain to win (its trumps that no opponent can beat); the rest go to the opponents.
- Revokes: refused, except in a lenient replay of a paper record, where the card is accepted and
  the revoke reported (``revokes``) for the director to penalise.
"""

from __future__ import annotations

from engine.cards import Seat
from engine.hands import Deal
from engine.play.records import EarlyEnd, PlayRecord, Revoke, Trick
from engine.play.rules import (
    ISRAELI_PLAY,
    KLEURENWIEZEN_PLAY,
    WIEZEN_PLAY,
    EndPolicy,
    PlayRules,
    TroelLead,
    play_rules,
    play_rules_for,
)
from engine.play.state import AnyContract, Phase, PlayState, replay
from engine.play.troel import troel_called_card, troel_trump
from engine.ruleset import Ruleset

__all__ = [
    "ISRAELI_PLAY",
    "KLEURENWIEZEN_PLAY",
    "WIEZEN_PLAY",
    "AnyContract",
    "EarlyEnd",
    "EndPolicy",
    "Phase",
    "PlayRecord",
    "PlayRules",
    "PlayState",
    "Revoke",
    "Trick",
    "TroelLead",
    "new_play",
    "play_rules",
    "play_rules_for",
    "replay",
    "troel_called_card",
    "troel_trump",
]


def new_play(
    ruleset: Ruleset,
    contract: AnyContract,
    deal: Deal,
    dealer: Seat | None = None,
    *,
    lenient: bool = False,
    end: EndPolicy = EndPolicy.DECIDED,
) -> PlayState:
    """A ``PlayState`` with the play rules of the ruleset (``play_rules_for``)."""
    return PlayState(
        contract, deal, dealer, rules=play_rules_for(ruleset), lenient=lenient, end=end
    )
