"""Auctions as state machines: Kleurenwiezen, Wiezen and Israeli Whist.

    auction = new_auction(load_builtin("whisthub"), Seat.W, deal)
    auction.legal_calls()        # [Call('pass'), Call('wait'), Call('propose H'), ...]
    auction.call("propose H")    # CallRecord(index=0, seat=Seat.N, call=Call('propose H'))
    auction.contract             # None until the auction is over, then a BoardResult

Every machine follows one pattern: ``verify_call`` raises ``IllegalCallError`` saying why,
``can_call`` answers yes or no, ``call`` makes the call and appends an immutable ``CallRecord``
to ``log``; ``replay`` rebuilds an auction from its calls. docs/auction.md describes the rules.
"""

from __future__ import annotations

from engine.auction._common import (
    Auction,
    Troel,
    describe_contract,
    find_troel,
    options_of,
    replay_into,
)
from engine.auction.calls import Call, CallKind, CallRecord, calls_of
from engine.auction.israeli import IsraeliAuction
from engine.auction.kleurenwiezen import KleurenwiezenAuction
from engine.auction.options import AuctionOptions
from engine.auction.wiezen import WiezenAuction
from engine.cards import Seat, Suit
from engine.errors import RulesetError
from engine.hands import Deal
from engine.results import RondePasGame
from engine.ruleset import Ruleset

__all__ = [
    "Auction",
    "AuctionOptions",
    "Call",
    "CallKind",
    "CallRecord",
    "IsraeliAuction",
    "KleurenwiezenAuction",
    "RondePasGame",
    "Troel",
    "WiezenAuction",
    "calls_of",
    "describe_contract",
    "find_troel",
    "new_auction",
    "options_of",
    "replay",
]


def new_auction(
    ruleset: Ruleset, dealer: Seat, deal: Deal | None = None, *, turned: Suit | None = None
) -> Auction:
    """A new auction of the ruleset's game. ``turned`` is Wiezen's turned-up trump suit (needed
    there, refused elsewhere)."""
    game = ruleset.game
    if game == "wiezen":
        return WiezenAuction(ruleset, dealer, deal, turned=turned)
    if turned is not None:
        raise RulesetError(f"only Wiezen turns up a trump card; {ruleset.name} is {game}", "game")
    if game == "kleurenwiezen":
        return KleurenwiezenAuction(ruleset, dealer, deal)
    if game == "israeli":
        return IsraeliAuction(ruleset, dealer, deal)
    raise RulesetError(f"no auction for the game {game!r}", "game")


def replay(
    ruleset: Ruleset,
    dealer: Seat,
    calls: object,
    deal: Deal | None = None,
    *,
    turned: Suit | None = None,
) -> Auction:
    """The auction after ``calls`` (``Call``s, ``CallRecord``s or texts), rebuilt from the start.

    The first illegal call raises ``IllegalCallError`` naming its 0-based position.
    """
    return replay_into(new_auction(ruleset, dealer, deal, turned=turned), calls)
