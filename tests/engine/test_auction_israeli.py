"""The Israeli Whist auction: contracts 5-13 with no trump highest, the declarer's own raise,
the trick bids whose total may not be 13, and Gulash card passing when everyone passes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.auction import Auction, IsraeliAuction, new_auction, replay
from engine.cards import SEATS, Card, Seat, Suit
from engine.errors import IllegalCallError
from engine.hands import Deal
from engine.results import BoardResult, Contract, IsraeliResult
from engine.ruleset import Ruleset, load_builtin
from engine.tomldoc import FrozenTable
from engine.validation import validate

DEAL = Deal.from_pbn("N:JT3.KJ87.Q85.AK5 A92.4.K742.QT742 K8765.T963.A6.83 Q4.AQ52.JT93.J96")


def with_options(**options: Any) -> Ruleset:
    return replace(load_builtin("israeli"), auction_options=FrozenTable(options))


def auction(
    calls: tuple[str, ...] = (),
    dealer: Seat = Seat.W,
    deal: Deal | None = None,
    ruleset: Ruleset | None = None,
) -> IsraeliAuction:
    return IsraeliAuction.replay(ruleset or load_builtin("israeli"), dealer, list(calls), deal)


def legal(a: IsraeliAuction) -> list[str]:
    return [str(call) for call in a.legal_calls()]


def speaker(a: Auction) -> Seat | None:
    """The player to speak (a function, so that type checkers do not narrow it between calls)."""
    return a.next_seat


def test_it_plays_an_example_in_the_manner_of_the_rules_text() -> None:
    # The text's example: first phase 5 hearts, 6 clubs, 6 hearts, 7 clubs; in the second phase
    # West, speaking last, may not bid 4; the game is under.
    first = ("bid H 5", "bid C 6", "pass", "bid H 6", "pass", "bid C 7", "pass", "pass", "pass")
    a = auction((*first, "pass"))
    assert [record.seat.name for record in a.log][:2] == ["W", "N"]  # the dealer opens
    assert speaker(a) is Seat.E  # North declares 7 clubs; East speaks first
    a.call("tricks 2")
    a.call("tricks 0")
    assert speaker(a) is Seat.W
    assert "tricks 4" not in legal(a)
    with pytest.raises(IllegalCallError, match="may not bid 4: the four bids would add up to 13"):
        a.call("tricks 4")
    a.call("tricks 3")
    assert a.contract == IsraeliResult(Seat.N, 7, Suit.C, (7, 2, 0, 3))
    assert a.over is False


def test_bids_outrank_by_tricks_then_clubs_diamonds_hearts_spades_no_trump() -> None:
    a = auction(("bid C 6",))
    offered = legal(a)
    assert offered[:6] == ["pass", "bid D 6", "bid H 6", "bid S 6", "bid NT 6", "bid C 7"]
    assert offered[-1] == "bid NT 13"
    with pytest.raises(IllegalCallError, match="'bid H 5' does not outrank 'bid C 6'"):
        a.call("bid H 5")
    with pytest.raises(IllegalCallError, match="a bid is for 5 to 13 tricks"):
        a.call("bid H 4")


def test_passing_does_not_put_a_player_out_of_the_first_phase() -> None:
    a = auction(("pass", "bid C 5", "pass", "pass"))
    assert speaker(a) is Seat.W
    a.call("bid D 5")  # West passed before and bids now
    assert speaker(a) is Seat.N


def test_the_highest_bidder_may_raise_after_the_other_three_pass() -> None:
    a = auction(("bid H 6", "pass", "pass", "pass"))
    assert speaker(a) is Seat.W
    assert "bid S 6" in legal(a)
    a.call("bid H 7")
    for _ in range(3):
        a.call("pass")
    assert speaker(a) is Seat.W
    a.call("pass")
    assert speaker(a) is Seat.N  # the second phase starts on the declarer's left


def test_four_passes_at_the_start_throw_the_cards_in() -> None:
    a = auction(("pass", "pass", "pass", "pass"))
    assert a.contract == BoardResult(Contract.PASS)


def test_the_bidding_begins_on_the_dealers_left_where_the_ruleset_says_so() -> None:
    a = auction((), ruleset=with_options(dealer_opens=False))
    assert speaker(a) is Seat.N


def test_the_trick_bids_may_add_up_to_more_than_13() -> None:
    a = auction(("bid NT 13", "pass", "pass", "pass", "pass", "tricks 0", "tricks 0"))
    assert legal(a) == [f"tricks {n}" for n in range(1, 14)]  # 0 would make 13
    a.call("tricks 2")
    assert a.over is True
    assert a.contract == IsraeliResult(Seat.W, 13, None, (0, 0, 2, 13))


def test_gulash_passes_three_cards_to_the_left_and_bids_again() -> None:
    ruleset = with_options(redeal_after_all_pass=False, gulash_rounds=1)
    a = auction(("pass",) * 4, deal=DEAL, ruleset=ruleset)
    assert speaker(a) is Seat.W
    assert len(a.legal_calls()) == 286  # every three of West's 13 cards
    with pytest.raises(IllegalCallError, match="West does not hold SA"):
        a.call("give SA S2 S3")
    given_cards = {"W": "SQ S4 HA", "N": "SJ ST S3", "E": "SA S9 S2", "S": "SK S8 S7"}
    for seat in ("W", "N", "E", "S"):
        a.call(f"give {given_cards[seat]}")
    assert a.gulashes == 1
    after = a.current_deal
    assert after is not None
    assert Card.parse("HA") in after.hand(Seat.N)  # West's ace of hearts went to North
    assert Card.parse("SA") in after.hand(Seat.S)
    assert Card.parse("SA") not in after.hand(Seat.E)
    assert speaker(a) is Seat.W
    for _ in range(4):
        a.call("pass")
    assert a.contract == BoardResult(Contract.PASS)  # no second Gulash in this ruleset


def test_gulash_without_a_deal_records_only_that_cards_were_passed() -> None:
    a = auction(("pass",) * 4, ruleset=with_options(redeal_after_all_pass=False))
    assert legal(a) == ["give"]
    with pytest.raises(IllegalCallError, match="say just 'give'"):
        a.call("give SA S2 S3")
    for _ in range(4):
        a.call("give")
    for _ in range(4):
        a.call("pass")
    for _ in range(4):
        a.call("give")
    assert a.gulashes == 2
    for _ in range(4):
        a.call("pass")
    assert a.contract == BoardResult(Contract.PASS)  # the third all-pass throws the cards in


def test_it_refuses_calls_of_the_wrong_phase() -> None:
    a = auction()
    with pytest.raises(IllegalCallError, match="in the first phase West bids"):
        a.call("tricks 3")
    with pytest.raises(IllegalCallError, match="'propose' is not an Israeli Whist call"):
        a.call("propose H")
    b = auction(("bid H 5", "pass", "pass", "pass", "pass"))
    with pytest.raises(IllegalCallError, match="in the second phase North says how many tricks"):
        b.call("pass")


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(["israeli", "israeli-alt"]),
    gulash=st.booleans(),
    dealer=st.sampled_from(SEATS),
    holders=st.one_of(st.none(), st.permutations([SEATS[i // 13] for i in range(52)])),
    data=st.data(),
)
def test_random_legal_israeli_auctions_finish_with_a_contract_the_ruleset_allows(
    name: str, gulash: bool, dealer: Seat, holders: list[Seat] | None, data: st.DataObject
) -> None:
    ruleset = load_builtin(name)
    if gulash:
        ruleset = replace(ruleset, auction_options=FrozenTable({"redeal_after_all_pass": False}))
    deal = None if holders is None else Deal.from_holders(holders)
    a = new_auction(ruleset, dealer, deal)
    universe = ["pass", "bid C 5", "bid NT 5", "bid S 9", "bid NT 13", "give", "propose H"]
    universe += [f"tricks {n}" for n in range(14)]
    for _ in range(400):
        if a.is_finished:
            break
        offered = a.legal_calls()
        assert offered
        for text in universe:
            assert (a.problem(text) is None) == a.can_call(text), (text, a.problem(text))
        # Passes are drawn often, so that the first phase ends and Gulashes happen.
        index = data.draw(st.integers(0, len(offered) - 1) | st.just(0))
        a.call(offered[index])
    assert a.is_finished
    contract = a.contract
    assert contract is not None
    validate(ruleset, contract, played=False)  # the scorer accepts it
    if isinstance(contract, IsraeliResult):
        assert ruleset.allows(Contract.ISRAELI, contract.level)
        assert sum(contract.bids) != 13
        assert contract.bids[contract.declarer.value] == contract.level
    else:
        assert contract == BoardResult(Contract.PASS)
    again = replay(ruleset, dealer, [record.call for record in a.log], deal)
    assert again.contract == contract
