"""The Wiezen auction (pagat's plain Belgian whist): ascending bids in the turned-up suit, the
troel obligation, trumps named after an abondance, and the rules text's variants."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.auction import Auction, RondePasGame, WiezenAuction, new_auction, replay
from engine.cards import ALL_CARDS, SEATS, SUITS, Card, Rank, Seat, Suit
from engine.errors import DealError, IllegalCallError, RulesetError
from engine.hands import Deal, Hand
from engine.results import BoardResult, Contract
from engine.ronde_pas import game_for_all_pass
from engine.ruleset import Ruleset, load_builtin
from engine.tomldoc import FrozenTable
from engine.validation import validate


def with_options(**options: Any) -> Ruleset:
    return replace(load_builtin("iwwa-wiezen"), auction_options=FrozenTable(options))


def with_troel_switch() -> Ruleset:
    ruleset = load_builtin("iwwa-wiezen")
    return replace(ruleset, options=replace(ruleset.options, troel_switch_tricks=9))


def make_deal(**hands: str) -> Deal:
    """A deal in which the named seats hold the given cards; the other cards are dealt round the
    table in card order, aces last, to fill every hand to 13."""
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
    calls: tuple[str, ...] = (),
    deal: Deal | None = None,
    turned: Suit = Suit.H,
    ruleset: Ruleset | None = None,
) -> WiezenAuction:
    rules = ruleset or load_builtin("iwwa-wiezen")
    return WiezenAuction.replay(rules, Seat.W, list(calls), deal, turned=turned)


def legal(a: WiezenAuction) -> list[str]:
    return [str(call) for call in a.legal_calls()]


def speaker(a: Auction) -> Seat | None:
    """The player to speak (a function, so that type checkers do not narrow it between calls)."""
    return a.next_seat


THREE_ACES_SOUTH = make_deal(S="SA HA CA", E="DA")


def test_it_needs_the_turned_up_suit_held_by_the_dealer() -> None:
    with pytest.raises(DealError, match="needs the turned-up trump suit"):
        WiezenAuction(load_builtin("iwwa-wiezen"), Seat.W)
    deal = make_deal(W="S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK D2")
    with pytest.raises(DealError, match="West holds no hearts"):
        WiezenAuction(load_builtin("iwwa-wiezen"), Seat.W, deal, turned=Suit.H)
    with pytest.raises(RulesetError, match="only Wiezen turns up a trump"):
        new_auction(load_builtin("whisthub"), Seat.W, turned=Suit.H)


def test_a_proposal_and_acceptance_play_the_turned_up_suit() -> None:
    a = auction(("propose", "accept", "pass", "pass"), turned=Suit.C)
    assert a.contract == BoardResult(Contract.ACCEPT, 8, Suit.C, (Seat.N, Seat.E))


def test_bids_go_up_and_a_player_who_passed_is_out() -> None:
    a = auction(("propose", "accept"))
    assert legal(a) == [
        "pass",
        "abondance 9",
        "abondance 10",
        "misere",
        "abondance 11",
        "abondance 12",
        "open_misere",
        "grand_solo",
        "solo_slim",
    ]
    a.call("misere")
    a.call("pass")  # West
    assert speaker(a) is Seat.N  # the acceptance was overcalled: North may bid again
    a.call("pass")
    a.call("abondance 11")  # East
    a.call("pass")  # South
    assert a.is_finished is False
    assert speaker(a) is Seat.E  # West and North passed, South passed: East names the trumps
    assert legal(a) == ["trump H", "trump D", "trump C", "trump S"]


def test_only_a_player_whose_proposal_was_not_accepted_may_go_solo() -> None:
    a = auction(("pass",))
    with pytest.raises(IllegalCallError, match="only a player whose proposal was not accepted"):
        a.call("solo")
    b = auction(("propose", "pass", "pass", "pass"))
    assert speaker(b) is Seat.N
    assert "solo 5" in legal(b)
    b.call("solo")
    assert b.contract == BoardResult(Contract.SOLO, 5, Suit.H, (Seat.N,))


def test_a_proposal_nobody_accepts_and_a_pass_throw_the_cards_in() -> None:
    a = auction(("propose", "pass", "pass", "pass", "pass"))
    assert a.contract == BoardResult(Contract.PASS)


def test_the_dealers_left_may_wait_then_only_accept_or_pass() -> None:
    a = auction(("wait", "propose", "pass", "pass"))
    assert legal(a) == ["pass", "accept"]
    a.call("accept")
    assert a.contract == BoardResult(Contract.ACCEPT, 8, Suit.H, (Seat.E, Seat.N))
    b = auction(("wait", "pass", "pass", "pass"))
    assert legal(b) == ["pass"]
    b.call("pass")
    assert b.contract == BoardResult(Contract.PASS)
    c = auction(("pass",))
    with pytest.raises(IllegalCallError, match="only North, on the dealer's left, may wait"):
        c.call("wait")


def test_equal_misere_bids_are_played_together_and_a_higher_one_supersedes_them() -> None:
    a = auction(("misere", "misere", "open_misere", "pass"))
    assert speaker(a) is Seat.N
    assert legal(a)[:2] == ["pass", "open_misere"]  # North may raise to join the open misère
    a.call("open_misere")
    a.call("pass")  # East
    assert a.contract == BoardResult(Contract.OPEN_MISERE, None, None, (Seat.S, Seat.N))


def test_a_player_with_three_aces_must_bid_troel_at_the_first_turn() -> None:
    a = auction(("pass", "pass"), THREE_ACES_SOUTH)
    assert speaker(a) is Seat.S
    assert legal(a) == ["troel", "open_misere", "grand_solo", "solo_slim"]
    with pytest.raises(IllegalCallError, match="South holds three aces and must bid troel"):
        a.call("pass")
    a.call("troel")
    assert legal(a) == ["pass", "open_misere", "grand_solo", "solo_slim"]  # troel's overcalls
    a.call("pass")  # West; East, the partner, and South hold the troel
    assert a.contract == BoardResult(Contract.TROEL, 8, Suit.D, (Seat.S, Seat.E))


def test_troel_is_not_due_once_something_higher_has_been_bid() -> None:
    a = auction(("open_misere", "pass"), THREE_ACES_SOUTH)
    assert speaker(a) is Seat.S
    assert legal(a) == ["pass", "open_misere", "grand_solo", "solo_slim"]  # joining is allowed
    with pytest.raises(IllegalCallError, match="South may only bid troel at the first turn"):
        a.call("troel")


def test_troel_with_four_aces_calls_the_highest_heart_and_needs_9_tricks() -> None:
    deal = make_deal(N="SA HA DA CA HK", E="HQ")
    a = auction(("troel", "pass", "pass"), deal)  # East, the partner, holds the troel too
    assert a.troel is not None
    assert (a.troel.partner, str(a.troel.called)) == (Seat.E, "HQ")
    assert a.contract == BoardResult(Contract.TROEL, 9, Suit.H, (Seat.N, Seat.E))


def test_without_a_deal_nobody_can_bid_troel() -> None:
    a = auction()
    assert "troel" not in legal(a)
    with pytest.raises(IllegalCallError, match="North does not hold three aces"):
        a.call("troel")


def test_abondance_and_solo_slim_name_their_trumps_after_the_auction() -> None:
    a = auction(("abondance 10", "pass", "pass", "pass"))
    assert speaker(a) is Seat.N
    with pytest.raises(IllegalCallError, match="now names the trump suit"):
        a.call("pass")
    a.call("trump S")
    assert a.contract == BoardResult(Contract.ABONDANCE, 10, Suit.S, (Seat.N,))
    b = auction(("pass", "solo_slim", "pass", "pass", "trump D"))
    assert b.contract == BoardResult(Contract.SOLO_SLIM, None, Suit.D, (Seat.E,))
    c = auction(("pass",))
    with pytest.raises(IllegalCallError, match="named after the auction"):
        c.call("abondance S 9")


def test_grand_solo_plays_the_turned_up_suit() -> None:
    a = auction(("grand_solo", "pass", "pass", "pass"), turned=Suit.S)
    assert a.contract == BoardResult(Contract.GRAND_SOLO, None, Suit.S, (Seat.N,))


def test_it_refuses_a_suit_on_calls_that_play_the_turned_up_suit() -> None:
    a = auction()
    with pytest.raises(IllegalCallError, match="the turned-up suit is trumps: say 'propose'"):
        a.call("propose H")


# -- variants ---------------------------------------------------------------------------------


def test_troel_before_the_auction_can_only_be_overcalled() -> None:
    ruleset = with_options(troel_before_auction=True)
    a = auction((), THREE_ACES_SOUTH, ruleset=ruleset)
    assert speaker(a) is Seat.N
    assert legal(a) == ["pass", "open_misere", "grand_solo", "solo_slim"]
    for _ in range(4):
        a.call("pass")
    assert a.contract == BoardResult(Contract.TROEL, 8, Suit.D, (Seat.S, Seat.E))


def test_the_troel_partner_may_switch_trumps_where_the_ruleset_allows_it() -> None:
    a = auction(("pass", "pass", "troel", "pass"), THREE_ACES_SOUTH, ruleset=with_troel_switch())
    assert speaker(a) is Seat.E
    assert legal(a) == ["pass", "switch H", "switch C", "switch S"]
    a.call("switch S")
    assert a.contract == BoardResult(Contract.TROEL, 9, Suit.S, (Seat.S, Seat.E))


CARTE_BLANCHE_EAST = make_deal(E="S2 S3 S4 S5 H2 H3 H4 D2 D3 D4 C2 C3 C4")


def test_carte_blanche_leaves_only_open_misere_and_solo_slim() -> None:
    ruleset = with_options(carte_blanche=True)
    a = auction((), CARTE_BLANCHE_EAST, ruleset=ruleset)
    assert speaker(a) is Seat.E  # only a player without kings, queens and jacks may announce
    assert legal(a) == ["pass", "carte_blanche"]
    a.call("carte_blanche")
    assert a.carte_blanche
    assert speaker(a) is Seat.N
    assert legal(a) == ["pass", "open_misere", "solo_slim"]
    with pytest.raises(IllegalCallError, match="after carte blanche only open misère"):
        a.call("propose")
    for _ in range(4):
        a.call("pass")
    assert a.contract == BoardResult(Contract.PASS)


def test_carte_blanche_declined_leaves_an_ordinary_auction() -> None:
    a = auction(("pass",), CARTE_BLANCHE_EAST, ruleset=with_options(carte_blanche=True))
    assert not a.carte_blanche
    assert speaker(a) is Seat.N
    assert "propose" in legal(a)


def test_carte_blanche_outranks_troel() -> None:
    deal = make_deal(S="SA HA CA", E="S2 S3 S4 S5 H2 H3 H4 D2 D3 D4 C2 C3 C4")
    a = auction(("carte_blanche",), deal, ruleset=with_options(carte_blanche=True))
    assert legal(a) == ["pass", "open_misere", "solo_slim"]
    a.call("pass")
    a.call("pass")
    assert speaker(a) is Seat.S
    assert legal(a) == ["pass", "open_misere", "solo_slim"]  # no troel due


def test_ronde_pas_plays_the_three_games_in_turn_when_everyone_passes() -> None:
    assert [game_for_all_pass(n) for n in range(1, 5)] == [
        RondePasGame.LAST_TRICK,
        RondePasGame.QUEENS,
        RondePasGame.FEWEST_TRICKS,
        RondePasGame.LAST_TRICK,
    ]
    passed = auction(("pass",) * 4, ruleset=with_options(ronde_pas=True))
    assert passed.ronde_pas(1) is RondePasGame.QUEENS
    assert auction(("pass",) * 4).ronde_pas(1) is None  # the ruleset does not play Ronde Pas
    with pytest.raises(ValueError, match="counted from 1"):
        game_for_all_pass(0)


def test_abondance_in_trumps_outranks_the_same_abondance_with_trumps_named_later() -> None:
    ruleset = with_options(abondance_in_trumps=True)
    a = auction(("abondance 9",), ruleset=ruleset)
    assert legal(a)[1:3] == ["abondance H 9", "abondance 10"]
    a.call("abondance H 9")
    for _ in range(2):
        a.call("pass")
    a.call("pass")  # North, overcalled, passes
    assert a.contract == BoardResult(Contract.ABONDANCE, 9, Suit.H, (Seat.E,))
    with pytest.raises(IllegalCallError, match="an abondance in trumps is in the turned-up suit"):
        auction((), ruleset=ruleset).call("abondance S 9")


def test_abondance_names_its_suit_with_the_bid_where_the_ruleset_says_so() -> None:
    ruleset = with_options(abondance_trump="named")
    a = auction((), ruleset=ruleset)
    assert "abondance S 9" in legal(a)
    with pytest.raises(IllegalCallError, match="name the trump suit with the bid"):
        a.call("abondance 9")
    a.call("abondance C 9")
    for _ in range(3):
        a.call("pass")
    assert a.contract == BoardResult(Contract.ABONDANCE, 9, Suit.C, (Seat.N,))


def test_it_rejects_kleurenwiezen_options_in_a_wiezen_ruleset() -> None:
    with pytest.raises(RulesetError, match=r"auction\.pass_parole: is an option of kleurenwiezen"):
        auction(ruleset=with_options(pass_parole=True))


def test_replay_rebuilds_a_wiezen_auction() -> None:
    a = auction(("propose", "pass", "troel", "pass"), THREE_ACES_SOUTH)
    assert speaker(a) is Seat.N
    b = replay(load_builtin("iwwa-wiezen"), Seat.W, a.log, THREE_ACES_SOUTH, turned=Suit.H)
    assert b.log == a.log
    assert b.legal_calls() == a.legal_calls()


# -- random legal auctions --------------------------------------------------------------------

_VARIANTS: list[dict[str, Any]] = [
    {},
    {"troel_before_auction": True, "carte_blanche": True, "ronde_pas": True},
    {"abondance_trump": "named", "wait": False},
    {"abondance_in_trumps": True, "troel_four_aces": False},
]


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(_VARIANTS),
    switch=st.booleans(),
    dealer=st.sampled_from(SEATS),
    holders=st.one_of(st.none(), st.permutations([SEATS[i // 13] for i in range(52)])),
    data=st.data(),
)
def test_random_legal_wiezen_auctions_finish_with_a_contract_the_ruleset_allows(
    variant: dict[str, Any],
    switch: bool,
    dealer: Seat,
    holders: list[Seat] | None,
    data: st.DataObject,
) -> None:
    ruleset = with_troel_switch() if switch else load_builtin("iwwa-wiezen")
    ruleset = replace(ruleset, auction_options=FrozenTable(variant))
    deal = None if holders is None else Deal.from_holders(holders)
    turned = next(s for s in SUITS if deal is None or deal.hand(dealer).has_suit(s))
    a = WiezenAuction(ruleset, dealer, deal, turned=turned)
    universe = [
        *_UNIVERSE,
        *(f"abondance {s.letter} {level}" for s in SUITS for level in (9, 12)),
    ]
    for _ in range(200):
        if a.is_finished:
            break
        offered = a.legal_calls()
        assert offered
        for text in universe:
            assert (a.problem(text) is None) == a.can_call(text), (text, a.problem(text))
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
        if contract.contract.has_trump:
            assert contract.trump is not None
    again = replay(ruleset, dealer, [record.call for record in a.log], deal, turned=turned)
    assert again.contract == contract


_UNIVERSE = [
    "pass",
    "wait",
    "propose",
    "accept",
    "solo",
    "solo 5",
    "troel",
    "misere",
    "open_misere",
    "grand_solo",
    "solo_slim",
    "carte_blanche",
    "abondance 9",
    "abondance 10",
    "abondance 12",
    "switch H",
    "switch S",
    "trump C",
    "solo_slim H",
    "propose H",
]
