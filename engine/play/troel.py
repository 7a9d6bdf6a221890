"""Troel: finding the partner and the rules of the first trick (see ``TroelLead``)."""

from __future__ import annotations

from engine.cards import ALL_CARDS, SUITS, SUITS_BY_BID_RANK, Card, Rank, Seat, Suit
from engine.errors import DealError, InvalidResultError
from engine.hands import Deal
from engine.play.masks import SUIT_MASK
from engine.play.rules import PlayRules, TroelLead

_SUIT_NAMES = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}


class FirstTrick:
    """What a troel's first trick must look like (see ``TroelLead``)."""

    __slots__ = ("ace_card", "ace_seat", "lead_card", "lead_suit", "leader", "why")

    def __init__(self, leader: int, why: str) -> None:
        self.leader = leader
        self.why = why
        self.lead_card: int | None = None
        self.lead_suit: int | None = None
        self.ace_seat: int | None = None
        self.ace_card: int | None = None


def first_trick(
    declarers: tuple[Seat, ...],
    trump: Suit,
    deal: Deal,
    hands: list[int],
    rules: PlayRules,
) -> FirstTrick:
    """Who leads a troel and what its first trick must hold; ``InvalidResultError`` when the
    declarers do not match the cards."""
    holders = deal.holders
    aces = [Card(suit, Rank.ACE) for suit in SUITS]
    bidder: Seat | None = None
    for seat in declarers:
        if sum(holders[ace.index] is seat for ace in aces) >= 3:
            bidder = seat
    if bidder is None:
        names = " and ".join(seat.name for seat in declarers)
        raise InvalidResultError(
            f"a troel needs a declarer with three or four aces; {names} do not have them",
            "declarers",
        )
    partner = next(seat for seat in declarers if seat is not bidder)
    called = troel_called_card(deal, bidder, rules.four_aces_partner)
    if holders[called.index] is not partner:
        raise InvalidResultError(
            f"{bidder.name}'s troel partner is {holders[called.index].name}, who holds "
            f"{called}, not {partner.name}",
            "declarers",
        )
    four_aces = all(holders[13 * suit.value] is bidder for suit in SUITS)
    ace = Card(trump, Rank.ACE)
    lead = rules.troel_lead
    if trump is troel_trump(called, four_aces, rules):
        # Trumps kept: the partner leads, the called card if it is a trump.
        if lead is TroelLead.PARTNER_ANY or called.suit is not trump:
            return FirstTrick(partner.value, "")
        first = FirstTrick(partner.value, f"{partner.name} must lead the called card {called}")
        first.lead_card = called.index
        return first
    if lead is TroelLead.PARTNER_ANY:
        return FirstTrick(partner.value, "")
    if lead is TroelLead.CALLED_CARD:
        first = FirstTrick(bidder.value, f"{bidder.name} must lead the ace of trumps {ace}")
        first.lead_card = ace.index
        return first
    if not hands[partner.value] & SUIT_MASK[trump.value]:
        raise InvalidResultError(
            f"{partner.name} holds no {_SUIT_NAMES[trump]}, so could not lead one to make "
            "them trumps",
            "trump",
        )
    first = FirstTrick(
        partner.value,
        f"{partner.name} leads a trump and {bidder.name} must play the ace of trumps {ace}",
    )
    first.lead_suit = trump.value
    first.ace_seat = bidder.value
    first.ace_card = ace.index
    return first


def troel_called_card(deal: Deal, bidder: Seat, four_aces_partner: str = "highest_heart") -> Card:
    """The card that finds a troel bidder's partner.

    With three aces, the fourth ace. With four aces, by ``four_aces_partner``: ``highest_heart``,
    the highest heart the bidder lacks (pagat; Whisthub's "K♥, then Q♥ and so on"), or ``kings``,
    the king of the highest-ranking suit the bidder lacks (K♥, K♦, K♣, K♠), then the queens and
    the jacks in that order, and after them the highest heart the bidder lacks.
    """
    holders = deal.holders
    for suit in SUITS:
        ace = Card(suit, Rank.ACE)
        if holders[ace.index] is not bidder:
            return ace
    if four_aces_partner == "kings":
        for rank in (Rank.KING, Rank.QUEEN, Rank.JACK):
            for suit in SUITS_BY_BID_RANK:
                card = Card(suit, rank)
                if holders[card.index] is not bidder:
                    return card
    for index in range(13 * Suit.H.value, 13 * Suit.H.value + 13):
        if holders[index] is not bidder:
            return ALL_CARDS[index]
    raise DealError(f"{bidder.name} holds all four aces and every heart: that is not a deal")


def troel_trump(called: Card, four_aces: bool, rules: PlayRules) -> Suit:
    """The trumps of a troel unless the partner switches them."""
    if four_aces and rules.four_aces_trump is not None:
        return rules.four_aces_trump
    return called.suit
