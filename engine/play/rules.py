"""The rules of the play that differ between games and variants, as data.

Trick play itself (follow suit, no obligation to trump or to overtake, highest trump or else the
highest card of the suit led wins, the winner leads next) is the same in Kleurenwiezen, Wiezen and
Israeli Whist. What differs is who leads to the first trick, what the first trick of a troel must
look like, when an open misère hand goes face up, and which contracts may stop as soon as they
have failed. Those are the fields of ``PlayRules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum

from engine.cards import Suit
from engine.errors import RulesetError
from engine.results import Contract
from engine.ruleset import Ruleset


class TroelLead(Enum):
    """How the first trick of a troel is played.

    ``called_card``: the partner leads the called card (the fourth ace, or with four aces the
    highest heart the bidder lacks); when the partner switched trumps, the troel bidder leads the
    ace of the new trumps instead (pagat's Kleurenwiezen, Whisthub).

    ``partner_leads_trump``: the partner always leads. Trumps kept: the called card. Trumps
    switched: any card of the new trump suit, and the troel bidder must play that suit's ace to
    the first trick (pagat's Wiezen, with its common trump-switch variant).

    ``partner_any``: the partner leads any card (a Kleurenwiezen variant listed by pagat).
    """

    CALLED_CARD = "called_card"
    PARTNER_LEADS_TRUMP = "partner_leads_trump"
    PARTNER_ANY = "partner_any"


class EndPolicy(Enum):
    """When the play may stop before the last trick.

    ``never``: every trick is played. ``forced``: the play stops once one player must win every
    remaining trick whatever anyone plays (the rest is credited to that player, exactly as it
    would be played). ``decided``: also once a contract's outcome can no longer change and its
    score does not depend on the rest: a misère or piccolo declarer who has failed or can no
    longer take a trick, and a contract in ``PlayRules.flat_failures`` that can no longer be made.
    """

    NEVER = "never"
    FORCED = "forced"
    DECIDED = "decided"


SLAM_LEVELS: Mapping[Contract, int] = {
    Contract.SOLO_SLIM: 13,
    Contract.SMALL_SOLO_SLIM: 12,
    Contract.GRAND_SOLO: 13,
}
"""Tricks needed in the contracts that carry no level of their own."""


@dataclass(frozen=True)
class PlayRules:
    """What the play of one game (or one variant of it) needs to know beyond trick play.

    ``declarer_leads``: contracts in which the declarer leads to the first trick; in every other
    contract (troel apart) the player on the dealer's left leads.
    ``open_misere_exposed_after``: the number of tricks played when open misère hands go face up:
    1 (after the first trick, pagat) or 0 (before the first card, Whisthub).
    ``flat_failures``: contracts to win tricks that every table scores the same however many
    tricks short they fall, so that the play may stop as soon as they can no longer be made.
    ``four_aces_partner`` and ``four_aces_trump`` say how a troel with all four aces finds its
    partner and its trumps, as in the auction (the ruleset's ``[auction]`` keys
    ``troel_four_aces_partner`` and ``troel_four_aces_trump``): ``highest_heart`` (the highest
    heart the bidder lacks) or ``kings`` (K♥, K♦, K♣, K♠, then the queens, ...); trumps are
    ``four_aces_trump``, or the called card's suit when it is ``None``.
    """

    declarer_leads: frozenset[Contract]
    troel_lead: TroelLead
    open_misere_exposed_after: int = 1
    flat_failures: frozenset[Contract] = frozenset(
        {Contract.ABONDANCE, Contract.SOLO_SLIM, Contract.SMALL_SOLO_SLIM, Contract.GRAND_SOLO}
    )
    four_aces_partner: str = "highest_heart"
    four_aces_trump: Suit | None = None

    def __post_init__(self) -> None:
        if self.open_misere_exposed_after not in (0, 1):
            raise RulesetError(
                "must be 0 (before the first trick) or 1 (after it), not "
                f"{self.open_misere_exposed_after!r}",
                "play.open_misere_exposed_after",
            )
        if self.four_aces_partner not in FOUR_ACES_PARTNERS:
            raise RulesetError(
                f"must be one of {', '.join(FOUR_ACES_PARTNERS)}, not {self.four_aces_partner!r}",
                "auction.troel_four_aces_partner",
            )
        for contract in self.flat_failures:
            if contract.is_negative or contract in (Contract.PASS, Contract.ISRAELI):
                raise RulesetError(
                    f"{contract.value} is not a contract to win tricks", "play.flat_failures"
                )


FOUR_ACES_PARTNERS = ("highest_heart", "kings")

KLEURENWIEZEN_PLAY = PlayRules(
    declarer_leads=frozenset(
        {Contract.ABONDANCE, Contract.SOLO_SLIM, Contract.SMALL_SOLO_SLIM, Contract.GRAND_SOLO}
    ),
    troel_lead=TroelLead.CALLED_CARD,
)
"""pagat's Kleurenwiezen and Whisthub: abondance and slams are led by the declarer."""

WIEZEN_PLAY = PlayRules(
    # pagat's Wiezen: "In all contracts except Troel and Solo Slim, the player to the dealer's
    # left leads": an abondance is led by the dealer's left, unlike Kleurenwiezen.
    declarer_leads=frozenset({Contract.SOLO_SLIM, Contract.SMALL_SOLO_SLIM, Contract.GRAND_SOLO}),
    troel_lead=TroelLead.PARTNER_LEADS_TRUMP,
)
"""pagat's Wiezen: only slams are led by the declarer; the troel partner always leads."""

ISRAELI_PLAY = PlayRules(
    declarer_leads=frozenset({Contract.ISRAELI}), troel_lead=TroelLead.PARTNER_ANY
)
"""Israeli Whist: the declarer leads to the first trick."""

_BY_GAME = {"kleurenwiezen": KLEURENWIEZEN_PLAY, "wiezen": WIEZEN_PLAY, "israeli": ISRAELI_PLAY}


def play_rules(game: str) -> PlayRules:
    """The play rules of a game: ``kleurenwiezen``, ``wiezen`` or ``israeli``."""
    try:
        return _BY_GAME[game]
    except KeyError:
        raise RulesetError(
            f"unknown game {game!r}; games are {', '.join(sorted(_BY_GAME))}", "game"
        ) from None


def play_rules_for(ruleset: Ruleset) -> PlayRules:
    """The play rules of the ruleset's game, with its troel options from ``[auction]``
    (``troel_four_aces_partner``, ``troel_four_aces_trump``, ``troel_lead``)."""
    rules = play_rules(ruleset.game)
    raw = ruleset.auction_options
    partner = raw.get("troel_four_aces_partner", rules.four_aces_partner)
    if not isinstance(partner, str):
        raise RulesetError(
            f"must be one of {', '.join(FOUR_ACES_PARTNERS)}", "auction.troel_four_aces_partner"
        )
    # The auction's default too: the called card's suit (hearts, with the highest heart).
    trump_text = raw.get("troel_four_aces_trump", "called")
    if trump_text == "called":
        trump = None
    elif isinstance(trump_text, str) and trump_text in Suit.__members__:
        trump = Suit[trump_text]
    else:
        raise RulesetError(
            f'must be S, H, D, C or "called", not {trump_text!r}', "auction.troel_four_aces_trump"
        )
    lead = raw.get("troel_lead", "game")
    if lead == "game":
        troel_lead = rules.troel_lead
    elif isinstance(lead, str) and lead in {member.value for member in TroelLead}:
        troel_lead = TroelLead(lead)
    else:
        choices = ", ".join(["game", *(member.value for member in TroelLead)])
        raise RulesetError(f"must be one of {choices}, not {lead!r}", "auction.troel_lead")
    return replace(rules, four_aces_partner=partner, four_aces_trump=trump, troel_lead=troel_lead)
