"""The Kleurenwiezen auction: pagat's eight bidding examples (fixtures), Whisthub's bidding
statements one by one, the options, the call notation and random legal auctions."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.auction import (
    Auction,
    AuctionOptions,
    Call,
    CallKind,
    CallRecord,
    KleurenwiezenAuction,
    new_auction,
    replay,
)
from engine.cards import ALL_CARDS, SEATS, SUITS, Card, Rank, Seat, Suit
from engine.errors import IllegalCallError, ParseError, RulesetError
from engine.hands import Deal, Hand
from engine.results import BoardResult, Contract
from engine.ruleset import Ruleset, load_builtin
from engine.tomldoc import FrozenTable
from engine.validation import validate

FIXTURES = Path(__file__).parent / "fixtures" / "auctions"
EXAMPLES = sorted(FIXTURES.glob("pagat-example-*.json"))


def with_options(name: str, **options: Any) -> Ruleset:
    """A built-in ruleset with its [auction] table replaced."""
    return replace(load_builtin(name), auction_options=FrozenTable(options))


def make_deal(**hands: str) -> Deal:
    """A deal in which the named seats hold the given cards ("SA HK ..."); the other cards are
    dealt round the table in card order, aces last, to fill every hand to 13."""
    fixed = {Seat[seat]: [Card.parse(c) for c in cards.split()] for seat, cards in hands.items()}
    used = {card for cards in fixed.values() for card in cards}
    rest = sorted(
        (c for c in ALL_CARDS if c not in used), key=lambda c: (c.rank is Rank.ACE, c.index)
    )
    out = {seat: list(fixed.get(seat, [])) for seat in SEATS}
    seat_index = 0
    for card in rest:
        while len(out[SEATS[seat_index % 4]]) >= 13:
            seat_index += 1
        out[SEATS[seat_index % 4]].append(card)
        seat_index += 1
    return Deal([Hand.of(out[seat]) for seat in SEATS])


def auction(
    name: str = "whisthub",
    dealer: Seat = Seat.W,
    deal: Deal | None = None,
    calls: tuple[str, ...] = (),
) -> KleurenwiezenAuction:
    result = KleurenwiezenAuction.replay(load_builtin(name), dealer, list(calls), deal)
    assert isinstance(result, KleurenwiezenAuction)
    return result


def legal(a: KleurenwiezenAuction) -> list[str]:
    return [str(call) for call in a.legal_calls()]


def speaker(a: Auction) -> Seat | None:
    """The player to speak (a function, so that type checkers do not narrow it between calls)."""
    return a.next_seat


def seats_of(a: KleurenwiezenAuction) -> str:
    return "".join(record.seat.name for record in a.log)


# -- pagat's examples -------------------------------------------------------------------------


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_it_replays_pagats_bidding_example_with_its_deal(path: Path) -> None:
    example = _load(path)
    ruleset = load_builtin(example["ruleset"])
    deal = Deal.from_pbn(example["deal"])
    a = KleurenwiezenAuction.replay(ruleset, Seat[example["dealer"]], example["calls"], deal)
    assert [record.seat.name for record in a.log] == example["speakers"]
    assert a.is_finished
    assert a.contract is not None
    assert a.contract.to_json() == example["contract"]
    if "troel" in example:
        assert a.troel is not None
        assert a.troel.bidder.name == example["troel"]["bidder"]
        assert a.troel.partner.name == example["troel"]["partner"]
        assert str(a.troel.called) == example["troel"]["called"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_it_offers_the_options_pagats_notes_list(path: Path) -> None:
    example = _load(path)
    ruleset = load_builtin(example["ruleset"])
    deal = Deal.from_pbn(example["deal"])
    assert example["checks"], "every example checks at least one point of its notes"
    for check in example["checks"]:
        calls = example["calls"][: check["after"]]
        a = KleurenwiezenAuction.replay(ruleset, Seat[example["dealer"]], calls, deal)
        assert a.next_seat is not None
        assert a.next_seat.name == check["next"], check["text"]
        offered = legal(a)
        if "legal" in check:
            assert offered == check["legal"], check["text"]
        for call in check.get("contains", []):
            assert call in offered, check["text"]
        for call in check.get("excludes", []):
            assert call not in offered, check["text"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_it_replays_pagats_example_without_a_deal_unless_it_needs_the_cards(path: Path) -> None:
    example = _load(path)
    ruleset = load_builtin(example["ruleset"])
    dealer = Seat[example["dealer"]]
    if example["needs_deal"]:
        with pytest.raises(IllegalCallError):
            KleurenwiezenAuction.replay(ruleset, dealer, example["calls"])
        return
    a = KleurenwiezenAuction.replay(ruleset, dealer, example["calls"])
    assert a.contract is not None
    assert a.contract.to_json() == example["contract"]
    assert [record.seat.name for record in a.log] == example["speakers"]


# -- Whisthub's bidding statements ------------------------------------------------------------


def test_whisthub_bidding_begins_with_the_player_on_the_dealers_left() -> None:
    for dealer in SEATS:
        assert auction(dealer=dealer).next_seat is dealer.left


def test_whisthub_each_bid_must_outrank_the_highest_and_equal_bids_go_by_suit() -> None:
    # Hearts > diamonds > clubs > spades: over 8 diamonds, hearts need 8 tricks, clubs 9.
    hearts = auction(calls=("propose D", "accept D", "propose H"))
    assert speaker(hearts) is Seat.W
    assert "accept H 8" in legal(hearts)
    clubs = auction(calls=("propose D", "accept D", "propose C"))
    assert "accept C 9" in legal(clubs)
    with pytest.raises(IllegalCallError, match="means bidding 9 tricks, the lowest level"):
        clubs.call("accept C 8")


def test_whisthub_a_partnership_may_be_raised_up_to_13_tricks() -> None:
    raises = ("accept H 9", "accept S 10", "accept H 10", "accept S 11", "accept H 11")
    a = auction(calls=("propose H", "accept H", "propose S", "accept S 9", *raises))
    a.call("accept S 12")
    a.call("accept H 12")
    a.call("accept S 13")
    a.call("accept H 13")
    assert speaker(a) is Seat.W
    assert legal(a) == ["pass"]  # nothing in spades outranks 13 hearts
    a.call("pass")
    assert speaker(a) is Seat.S  # bound to spades, but no solo outranks 13 hearts either
    assert legal(a) == ["pass"]
    a.call("pass")
    assert a.contract == BoardResult(Contract.ACCEPT, 13, Suit.H, (Seat.N, Seat.E))


def test_whisthub_a_suit_needs_a_card_of_it_to_be_proposed_or_accepted() -> None:
    deal = make_deal(N="SA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK")  # North holds only spades
    a = auction(deal=deal)
    assert legal(a)[:4] == ["pass", "wait", "propose S", "small_misere"]
    with pytest.raises(IllegalCallError, match="North holds no hearts"):
        a.call("propose H")
    c = auction(deal=deal, calls=("wait", "propose H", "pass", "pass"))
    assert speaker(c) is Seat.N
    assert legal(c) == ["pass"]
    with pytest.raises(IllegalCallError, match="North holds no hearts and cannot accept them"):
        c.call("accept H")


def test_whisthub_a_solo_can_only_be_raised_to_8_then_the_soloist_must_pass() -> None:
    a = auction(calls=("propose S", "propose C", "pass", "pass", "solo S"))
    # Nobody is left to accept a proposal, so East may go solo in any suit but spades.
    assert legal(a)[:4] == ["pass", "solo H 5", "solo D 5", "solo C 5"]
    for call in ("solo C 5", "solo S 6", "solo C 6", "solo S 7", "solo C 7", "solo S 8"):
        a.call(call)
    a.call("solo C 8")
    assert speaker(a) is Seat.N
    assert legal(a) == ["pass"]  # no solo above 8
    a.call("pass")
    assert a.contract == BoardResult(Contract.SOLO, 8, Suit.C, (Seat.E,))


def test_whisthub_several_players_may_play_small_misere_together() -> None:
    a = auction(calls=("small_misere", "small_misere", "small_misere", "pass"))
    assert a.contract == BoardResult(Contract.SMALL_MISERE, None, None, (Seat.N, Seat.E, Seat.S))


def test_whisthub_piccolo_ranks_above_solo_8_and_below_accept_13_only_when_allowed() -> None:
    assert "piccolo" not in legal(auction("whisthub"))
    a = auction("whisthub-piccolo", calls=("propose S", "propose C", "pass", "piccolo"))
    assert speaker(a) is Seat.N
    offered = legal(a)
    assert "accept C 13" in offered  # accept 13 outranks piccolo
    assert not any(call.startswith("solo") for call in offered)  # solo 8 does not
    assert offered[-2:] == ["misere", "open_misere"]


def test_whisthub_abondance_can_only_be_bid_before_any_other_bid() -> None:
    a = auction(calls=("propose H",))
    assert any(c.startswith("abondance") for c in legal(a))  # East has not bid yet
    a.call("pass")
    a.call("pass")
    a.call("pass")
    assert speaker(a) is Seat.N
    assert not any(c.startswith("abondance") for c in legal(a))
    with pytest.raises(IllegalCallError, match="first turn"):
        a.call("abondance H 9")


def test_whisthub_abondance_can_be_raised_to_12_when_overcalled() -> None:
    a = auction(calls=("abondance S 9", "abondance H 9", "pass", "pass"))
    assert legal(a) == [
        "pass",
        "abondance S 10",
        "abondance S 11",
        "abondance S 12",
        "solo_slim S",
    ]
    a.call("abondance S 12")
    a.call("pass")
    assert a.contract == BoardResult(Contract.ABONDANCE, 12, Suit.S, (Seat.N,))


def test_whisthub_solo_slim_is_the_highest_bid_and_the_higher_suit_wins() -> None:
    a = auction(calls=("solo_slim C",))
    assert legal(a) == ["pass", "solo_slim D", "solo_slim H"]
    a.call("solo_slim H")
    a.call("pass")
    a.call("pass")
    assert speaker(a) is Seat.N
    assert legal(a) == ["pass"]
    a.call("pass")
    assert a.contract == BoardResult(Contract.SOLO_SLIM, None, Suit.H, (Seat.E,))


def test_whisthub_the_acceptor_speaks_for_the_team() -> None:
    a = auction(calls=("propose H", "accept H", "propose S", "accept S 9"))
    assert speaker(a) is Seat.E  # North, the proposer, is skipped
    a.call("accept H 9")
    assert speaker(a) is Seat.W  # South, the spade proposer, is skipped
    assert seats_of(a) == "NESWE"


def test_whisthub_a_player_may_propose_the_same_suit_twice_but_not_three_times() -> None:
    first = ("propose H", "propose D", "propose C", "propose S")
    a = auction(calls=(*first, *first))
    assert speaker(a) is Seat.N
    assert "propose H" not in legal(a)
    with pytest.raises(IllegalCallError, match="North has proposed hearts 2 times"):
        a.call("propose H")


def test_whisthub_a_solo_needs_an_earlier_proposal_unless_nobody_can_accept() -> None:
    a = auction()
    with pytest.raises(IllegalCallError, match="only bid a solo in a suit they proposed"):
        a.call("solo H")
    # Two players play together and the third has passed: the fourth may go solo at once.
    b = auction(calls=("propose C", "accept C", "pass"))
    assert speaker(b) is Seat.W
    assert "solo H 5" in legal(b)
    assert "propose H" not in legal(b)  # nobody is left who could accept


def test_whisthub_several_players_may_bid_misere_at_the_same_level() -> None:
    a = auction(calls=("misere", "pass", "misere", "misere"))
    assert a.contract == BoardResult(Contract.MISERE, None, None, (Seat.N, Seat.S, Seat.W))


def test_whisthub_a_player_bound_to_a_suit_bids_only_in_it_and_no_misere() -> None:
    # Solo: bound.
    a = auction(calls=("propose H", "propose D", "pass", "pass", "solo H", "misere"))
    assert speaker(a) is Seat.N
    assert legal(a) == ["pass"]
    with pytest.raises(IllegalCallError, match="bid a solo in hearts and may only raise it"):
        a.call("open_misere")
    # In a partnership, or after the partner passed: bound.
    b = auction(calls=("propose H", "accept H", "misere", "pass"))
    assert speaker(b) is Seat.E
    assert legal(b) == ["pass"]
    b.call("pass")
    assert speaker(b) is Seat.N
    assert legal(b) == ["pass"]  # bound to hearts; no solo outranks misère
    with pytest.raises(IllegalCallError, match="bound to hearts since East passed"):
        b.call("open_misere")
    # A proposal does not bind.
    c = auction(calls=("propose H", "pass", "pass", "pass"))
    assert "misere" in legal(c)


def test_whisthub_pass_parole_from_11_tricks_gives_the_word_to_the_proposer() -> None:
    a = auction(calls=("propose C", "propose H", "accept C", "accept H", "accept C 9"))
    a.call("accept H 9")
    a.call("accept C 10")
    a.call("accept H 10")
    assert speaker(a) is Seat.S
    assert legal(a) == ["pass", "parole", "accept C 11"]
    a.call("parole")
    assert speaker(a) is Seat.N  # West, highest, is skipped; North now speaks for the clubs
    assert legal(a) == ["pass", "accept C 11"]
    b = auction(calls=("propose C", "propose H", "accept C", "accept H"))
    assert "parole" not in legal(b)  # 9 tricks: no parôle
    with pytest.raises(IllegalCallError, match="11 tricks or more; South needs only 9"):
        b.call("parole")


def test_whisthub_a_player_who_passed_cannot_bid_again_and_all_pass_is_a_redeal() -> None:
    a = auction(calls=("pass", "propose H", "pass", "pass"))
    assert speaker(a) is Seat.E
    a.call("pass")
    assert a.contract == BoardResult(Contract.PASS)
    b = auction(calls=("pass", "pass", "pass", "pass"))
    assert b.is_finished
    assert b.contract == BoardResult(Contract.PASS)


def test_whisthub_the_dealers_left_may_wait_and_then_only_accept() -> None:
    a = auction(calls=("wait", "propose D", "pass", "pass"))
    assert speaker(a) is Seat.N
    assert legal(a) == ["pass", "accept D 8"]
    a.call("accept D")
    assert a.contract == BoardResult(Contract.ACCEPT, 8, Suit.D, (Seat.E, Seat.N))
    b = auction(calls=("pass",))
    with pytest.raises(IllegalCallError, match="only North, on the dealer's left, may wait"):
        b.call("wait")
    c = auction(calls=("wait", "pass", "pass", "pass"))
    assert legal(c) == ["pass"]  # nobody is left to accept: forced to pass
    c.call("pass")
    assert c.contract == BoardResult(Contract.PASS)


THREE_ACES_SOUTH = make_deal(S="SA HA CA", E="DA D2 D3")


def test_whisthub_troel_is_automatic_and_the_fourth_ace_finds_the_partner() -> None:
    a = auction(deal=THREE_ACES_SOUTH, calls=("pass", "pass", "pass", "pass"))
    assert a.troel is not None
    assert (a.troel.bidder, a.troel.partner, a.troel.trump) == (Seat.S, Seat.E, Suit.D)
    assert speaker(a) is Seat.E  # the partner keeps the trumps or changes them
    a.call("pass")
    assert a.contract == BoardResult(Contract.TROEL, 8, Suit.D, (Seat.S, Seat.E))


def test_whisthub_changing_the_troel_trumps_raises_it_to_9_tricks() -> None:
    a = auction(deal=THREE_ACES_SOUTH, calls=("pass", "pass", "pass", "pass", "switch H"))
    assert a.contract == BoardResult(Contract.TROEL, 9, Suit.H, (Seat.S, Seat.E))
    b = auction(deal=THREE_ACES_SOUTH, calls=("pass", "pass", "pass", "pass"))
    with pytest.raises(IllegalCallError, match="diamonds are already trumps"):
        b.call("switch D")


def test_iwwa_troel_is_for_8_tricks_and_for_9_after_the_partner_switched() -> None:
    """scoring-tables.md, iwwa: the partner keeping the trumps plays for 8, switching for 9."""
    kept = auction("iwwa", deal=THREE_ACES_SOUTH, calls=("pass", "pass", "pass", "pass", "pass"))
    assert kept.contract == BoardResult(Contract.TROEL, 8, Suit.D, (Seat.S, Seat.E))
    calls = ("pass", "pass", "pass", "pass", "switch H")
    switched = auction("iwwa", deal=THREE_ACES_SOUTH, calls=calls)
    assert switched.contract == BoardResult(Contract.TROEL, 9, Suit.H, (Seat.S, Seat.E))


def test_whisthub_troel_with_four_aces_calls_the_king_of_hearts_then_the_queen() -> None:
    a = auction(deal=make_deal(N="SA HA DA CA", W="HK"))
    assert a.troel is not None
    assert (a.troel.partner, str(a.troel.called), a.troel.trump) == (Seat.W, "HK", Suit.H)
    b = auction(deal=make_deal(N="SA HA DA CA HK", E="HQ"))
    assert b.troel is not None
    assert (b.troel.partner, str(b.troel.called)) == (Seat.E, "HQ")


def test_whisthub_anyone_may_bid_above_troel_and_nothing_lower() -> None:
    a = auction(deal=THREE_ACES_SOUTH)
    offered = legal(a)
    assert "misere" in offered
    assert "abondance H 10" in offered
    assert "wait" not in offered
    assert not any(c.startswith(("propose", "abondance S 9", "small")) for c in offered)
    a.call("misere")
    a.call("abondance S 10")  # the troel partner outbids too
    a.call("pass")
    a.call("pass")
    a.call("pass")
    assert a.contract == BoardResult(Contract.ABONDANCE, 10, Suit.S, (Seat.E,))


def test_without_a_deal_there_is_no_troel_and_no_card_check() -> None:
    a = auction()
    assert a.troel is None
    a.call("propose H")
    assert speaker(a) is Seat.E


# -- options ----------------------------------------------------------------------------------


def test_it_allows_one_proposal_of_a_suit_when_the_ruleset_says_so() -> None:
    ruleset = with_options("pagat", proposals_per_suit=1)
    a = KleurenwiezenAuction.replay(ruleset, Seat.W, ["propose H", "pass", "pass", "pass"])
    assert "propose H" not in legal(a)
    assert "solo H 5" in legal(a)


def test_it_allows_a_third_proposal_when_the_ruleset_says_so() -> None:
    first = ("propose H", "propose D", "propose C", "propose S")
    a = KleurenwiezenAuction.replay(
        with_options("pagat", proposals_per_suit=3), Seat.W, [*first, *first]
    )
    assert "propose H" in legal(a)
    b = KleurenwiezenAuction.replay(load_builtin("pagat"), Seat.W, [*first, *first])
    assert "propose H" not in legal(b)


def test_it_refuses_pass_parole_where_the_ruleset_has_none_or_sets_another_level() -> None:
    calls = ["propose C", "propose H", "accept C", "accept H", "accept C 9", "accept H 9"]
    without = KleurenwiezenAuction.replay(with_options("pagat", pass_parole=False), Seat.W, calls)
    without.call("accept C 10")
    without.call("accept H 10")
    assert legal(without) == ["pass", "accept C 11"]
    early = KleurenwiezenAuction.replay(
        with_options("pagat", pass_parole_from_level=10), Seat.W, calls
    )
    assert legal(early) == ["pass", "parole", "accept C 10"]


def test_it_refuses_a_solo_after_a_repeated_proposal_when_the_ruleset_says_so() -> None:
    calls = ["propose H", "propose D", "pass", "pass", "propose H", "pass"]
    ruleset = with_options("pagat", solo_after_repeated_proposal=False)
    a = KleurenwiezenAuction.replay(ruleset, Seat.W, [*calls[:4], "propose H", "propose D"])
    assert "solo H" not in " ".join(legal(a))
    b = KleurenwiezenAuction.replay(load_builtin("pagat"), Seat.W, calls)
    assert "solo H 5" in legal(b)  # nobody could accept anyway
    c = KleurenwiezenAuction.replay(
        load_builtin("pagat"), Seat.W, [*calls[:4], "propose H", "propose D"]
    )
    assert "solo H 5" in legal(c)


def test_it_refuses_new_proposals_after_a_misere_when_the_ruleset_says_so() -> None:
    ruleset = with_options("pagat", proposals_after_negative=False)
    a = KleurenwiezenAuction.replay(ruleset, Seat.W, ["propose S", "small_misere"])
    assert not any(c.startswith("propose") for c in legal(a))
    assert "accept S 12" in legal(a)  # accepting an earlier proposal is still allowed
    with pytest.raises(IllegalCallError, match="no new trump suit may be proposed"):
        a.call("propose H")


def test_it_lets_a_broken_partnership_or_an_abondance_turn_to_misere_when_allowed() -> None:
    calls = ["propose H", "accept H", "misere", "pass", "pass"]
    strict = KleurenwiezenAuction.replay(load_builtin("pagat"), Seat.W, calls)
    assert legal(strict) == ["pass"]
    loose_rules = with_options("pagat", negative_after_broken_partnership=True)
    loose = KleurenwiezenAuction.replay(loose_rules, Seat.W, calls)
    assert legal(loose) == ["pass", "misere", "open_misere"]
    overcalled = ["abondance H 9", "misere", "pass", "pass"]
    ab_rules = with_options("pagat", negative_after_abondance=True)
    ab = KleurenwiezenAuction.replay(ab_rules, Seat.W, overcalled)
    assert "misere" in legal(ab)
    assert "misere" not in legal(
        KleurenwiezenAuction.replay(load_builtin("pagat"), Seat.W, overcalled)
    )


def test_it_makes_the_fourth_player_join_three_small_miseres_when_the_ruleset_says_so() -> None:
    calls = ["small_misere", "small_misere", "small_misere", "pass"]
    forced = KleurenwiezenAuction.replay(
        with_options("pagat", forced_fourth_small_misere=True), Seat.W, calls
    )
    assert forced.contract is not None
    assert isinstance(forced.contract, BoardResult)
    assert forced.contract.declarers == (Seat.N, Seat.E, Seat.S, Seat.W)


def test_it_has_no_troel_with_four_aces_when_the_ruleset_says_so() -> None:
    deal = make_deal(N="SA HA DA CA")
    ruleset = with_options("pagat", troel_four_aces=False)
    assert KleurenwiezenAuction(ruleset, Seat.W, deal).troel is None
    assert KleurenwiezenAuction(load_builtin("pagat"), Seat.W, deal).troel is not None


def test_it_calls_kings_with_four_aces_in_the_flemish_way_when_the_ruleset_says_so() -> None:
    deal = make_deal(N="SA HA DA CA HK", S="DK")
    ruleset = with_options("pagat", troel_four_aces_partner="kings")
    a = KleurenwiezenAuction(ruleset, Seat.W, deal)
    assert a.troel is not None
    assert (str(a.troel.called), a.troel.partner, a.troel.trump) == ("DK", Seat.S, Suit.D)


def test_it_has_no_waiting_when_the_ruleset_says_so() -> None:
    a = KleurenwiezenAuction(with_options("pagat", wait=False), Seat.W)
    assert "wait" not in legal(a)
    with pytest.raises(IllegalCallError, match="does not allow waiting"):
        a.call("wait")


def test_it_rejects_bad_auction_options_naming_the_key() -> None:
    with pytest.raises(RulesetError, match=r"auction\.proposals_per_suit: must be from 1 to 3"):
        AuctionOptions.from_mapping({"proposals_per_suit": 4})
    with pytest.raises(RulesetError, match=r"auction\.carte_blanche: is an option of wiezen"):
        AuctionOptions.from_mapping({"carte_blanche": True}, game="kleurenwiezen")
    with pytest.raises(RulesetError, match=r"auction\.wiat: unknown option"):
        AuctionOptions.from_mapping({"wiat": True})
    with pytest.raises(RulesetError, match=r"auction\.wait: must be true or false"):
        AuctionOptions.from_mapping({"wait": "yes"})
    with pytest.raises(RulesetError, match=r"auction\.proposals_per_suit"):
        KleurenwiezenAuction(with_options("pagat", proposals_per_suit=0), Seat.W)


def test_every_builtin_auction_table_is_valid_and_round_trips() -> None:
    for name in ("whisthub", "whisthub-piccolo", "pagat", "flemish", "iwwa", "iwwa-wiezen"):
        ruleset = load_builtin(name)
        options = AuctionOptions.from_mapping(ruleset.auction_options, game=ruleset.game)
        assert AuctionOptions.from_mapping(options.to_mapping(), game=ruleset.game) == options


# -- the state machine ------------------------------------------------------------------------


def test_call_returns_an_immutable_record_appended_to_the_log() -> None:
    a = auction()
    record = a.call("propose H")
    assert record == CallRecord(0, Seat.N, Call(CallKind.PROPOSE, Suit.H))
    assert a.log == (record,)
    with pytest.raises(FrozenInstanceError):
        record.seat = Seat.E  # type: ignore[misc]  # the point of the test
    second = a.call(Call(CallKind.ACCEPT, Suit.H))
    assert str(second) == "E: accept H 8"  # the level is filled in


def test_replay_rebuilds_the_same_state_from_the_log() -> None:
    a = auction(calls=("propose C", "propose H", "accept C", "accept H", "accept C 9"))
    b = replay(load_builtin("whisthub"), Seat.W, a.log)
    assert b.log == a.log
    assert b.next_seat is a.next_seat
    assert b.legal_calls() == a.legal_calls()


def test_replay_names_the_first_illegal_call() -> None:
    with pytest.raises(IllegalCallError, match=r"call 1 \('solo H'\)"):
        replay(load_builtin("whisthub"), Seat.W, ["pass", "solo H"])


def test_verify_call_explains_and_can_call_answers() -> None:
    a = auction()
    assert a.can_call("propose H")
    assert not a.can_call("accept H")
    assert not a.can_call("nonsense")
    with pytest.raises(IllegalCallError, match="nobody has a live proposal of hearts"):
        a.verify_call("accept H")
    with pytest.raises(IllegalCallError, match="'bid' is not a Kleurenwiezen call"):
        a.verify_call("bid H 7")
    with pytest.raises(IllegalCallError, match="'propose' needs a suit"):
        a.verify_call("propose")
    with pytest.raises(IllegalCallError, match="whisthub ruleset has no piccolo"):
        a.verify_call("piccolo")
    b = auction(calls=("propose H", "accept H", "propose S"))
    with pytest.raises(IllegalCallError, match="accepting spades means bidding 9 tricks"):
        b.call("accept S 8")  # West
    assert legal(b)[:3] == ["pass", "propose D", "propose C"]


def test_it_refuses_calls_after_the_auction_is_over() -> None:
    a = auction(calls=("pass", "pass", "pass", "pass"))
    assert a.legal_calls() == []
    assert a.next_seat is None
    with pytest.raises(IllegalCallError, match="the auction is over"):
        a.call("pass")


def test_it_refuses_a_ruleset_of_another_game() -> None:
    with pytest.raises(RulesetError, match="israeli ruleset is for israeli"):
        KleurenwiezenAuction(load_builtin("israeli"), Seat.N)


def test_legal_calls_is_a_copy() -> None:
    a = auction()
    calls = a.legal_calls()
    calls.clear()
    assert a.legal_calls()


# -- the notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("pass", Call(CallKind.PASS)),
        ("propose H", Call(CallKind.PROPOSE, Suit.H)),
        ("accept D 9", Call(CallKind.ACCEPT, Suit.D, 9)),
        ("solo ♥ 7", Call(CallKind.SOLO, Suit.H, 7)),
        ("Abondance s 10", Call(CallKind.ABONDANCE, Suit.S, 10)),
        ("parôle", Call(CallKind.PAROLE)),
        ("bid NT 7", Call(CallKind.BID, None, 7)),
        (
            "give SA HK D2",
            Call(CallKind.GIVE, cards=(Card.parse("SA"), Card.parse("HK"), Card.parse("D2"))),
        ),
    ],
)
def test_it_reads_calls(text: str, call: Call) -> None:
    assert Call.parse(text) == call


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "a call is empty"),
        ("bet H", "unknown call 'bet'"),
        ("switch", "'switch' needs a suit"),
        ("abondance H", "needs a number of tricks"),
        ("accept H 14", "14 tricks is more than 13"),
        ("pass H", "unexpected 'H'"),
        ("bid 7", "'bid' needs a suit"),
    ],
)
def test_it_rejects_malformed_calls_saying_why(text: str, problem: str) -> None:
    with pytest.raises(ParseError, match=problem):
        Call.parse(text)


_CALLS = st.one_of(
    st.builds(
        Call, st.sampled_from([CallKind.PASS, CallKind.WAIT, CallKind.MISERE, CallKind.TROEL])
    ),
    st.builds(Call, st.just(CallKind.PROPOSE), st.sampled_from(SUITS)),
    st.builds(
        Call,
        st.sampled_from([CallKind.ACCEPT, CallKind.SOLO]),
        st.sampled_from(SUITS),
        st.one_of(st.none(), st.integers(5, 13)),
    ),
    st.builds(
        Call,
        st.just(CallKind.BID),
        st.one_of(st.none(), st.sampled_from(SUITS)),
        st.integers(5, 13),
    ),
    st.builds(Call, st.just(CallKind.TRICKS), st.none(), st.integers(0, 13)),
    st.builds(
        Call,
        st.just(CallKind.GIVE),
        cards=st.lists(st.sampled_from(ALL_CARDS), max_size=3, unique=True).map(tuple),
    ),
)


@given(_CALLS)
def test_call_text_round_trips(call: Call) -> None:
    assert Call.parse(str(call)) == call


# -- random legal auctions --------------------------------------------------------------------

KLEURENWIEZEN_RULESETS = ["whisthub", "whisthub-piccolo", "pagat", "flemish", "iwwa"]
_VARIANTS: list[dict[str, Any]] = [
    {},
    {
        "proposals_per_suit": 1,
        "solo_after_repeated_proposal": False,
        "proposals_after_negative": False,
        "negative_after_broken_partnership": True,
        "negative_after_abondance": True,
    },
    {
        "pass_parole": False,
        "wait": False,
        "forced_fourth_small_misere": True,
        "proposals_per_suit": 3,
    },
    {"troel_four_aces_partner": "kings", "pass_parole_from_level": 9},
]
_UNIVERSE = [
    Call(CallKind.PASS),
    Call(CallKind.WAIT),
    Call(CallKind.PAROLE),
    Call(CallKind.TROEL),
    *(
        Call(kind)
        for kind in (CallKind.SMALL_MISERE, CallKind.PICCOLO, CallKind.MISERE, CallKind.OPEN_MISERE)
    ),
    *(
        Call(kind, suit)
        for kind in (
            CallKind.PROPOSE,
            CallKind.SOLO_SLIM,
            CallKind.SMALL_SOLO_SLIM,
            CallKind.SWITCH,
        )
        for suit in SUITS
    ),
    *(Call(kind, suit) for kind in (CallKind.ACCEPT, CallKind.SOLO) for suit in SUITS),
    *(
        Call(kind, suit, level)
        for kind in (CallKind.ACCEPT, CallKind.SOLO, CallKind.ABONDANCE)
        for suit in SUITS
        for level in range(5, 14)
    ),
]


def deals() -> st.SearchStrategy[Deal | None]:
    holders = st.permutations([SEATS[i // 13] for i in range(52)]).map(Deal.from_holders)
    return st.one_of(st.none(), holders)


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(KLEURENWIEZEN_RULESETS),
    variant=st.sampled_from(_VARIANTS),
    dealer=st.sampled_from(SEATS),
    deal=deals(),
    data=st.data(),
)
def test_random_legal_auctions_finish_with_a_contract_the_ruleset_allows(
    name: str, variant: dict[str, Any], dealer: Seat, deal: Deal | None, data: st.DataObject
) -> None:
    ruleset = with_options(name, **variant) if variant else load_builtin(name)
    a = new_auction(ruleset, dealer, deal)
    for _ in range(200):
        if a.is_finished:
            break
        offered = a.legal_calls()
        assert offered, "a player to speak always has a legal call"
        for call in _UNIVERSE:
            # The explanations and the list of legal calls always agree.
            assert (a.problem(call) is None) == a.can_call(call), (str(call), a.problem(call))
        # Low calls are drawn more often, so that partnerships and raises happen.
        index = data.draw(
            st.integers(0, len(offered) - 1) | st.integers(0, min(3, len(offered) - 1))
        )
        a.call(offered[index])
    assert a.is_finished
    contract = a.contract
    assert isinstance(contract, BoardResult)
    validate(ruleset, contract, played=False)  # the scorer accepts it
    if contract.contract is not Contract.PASS:
        assert ruleset.allows(contract.contract, contract.level)
        assert 1 <= len(contract.declarers) <= 4
    again = replay(ruleset, dealer, [record.call for record in a.log], deal)
    assert again.contract == contract
