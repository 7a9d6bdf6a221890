"""A whole board through the engine: deal, auction, play, adjudication and score agree.

For every built-in ruleset, random legal auctions on random deals followed by random legal play
always end in a board result that the validator and the scorer accept, that adjudication against
the same deal finds possible, and that sums to zero where the ruleset balances.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.adjudication import adjudicate
from engine.auction import new_auction
from engine.cards import SEATS
from engine.deals import DEAL_COUNT, deal_from_number
from engine.play import new_play
from engine.results import BoardResult, Contract, IsraeliResult
from engine.ruleset import builtin_names, load_builtin
from engine.scoring import score
from engine.validation import validate


def play_board(name: str, number: int, seed: int) -> tuple[object, tuple[int, int, int, int]]:
    ruleset = load_builtin(name)
    rng = random.Random(seed)
    deal = deal_from_number(number)
    dealer = SEATS[seed % 4]
    # Wiezen's turned-up card is the dealer's last card, so a suit the dealer holds.
    turned_card = (
        rng.choice(sorted(deal.hand(dealer), key=str)) if ruleset.game == "wiezen" else None
    )
    turned = turned_card.suit if turned_card is not None else None
    auction = new_auction(ruleset, dealer, deal, turned=turned)
    for _ in range(200):
        if auction.is_finished:
            break
        legal = auction.legal_calls()
        # Mostly pass or the cheapest calls, sometimes anything: every kind of contract turns up.
        passes = [call for call in legal if str(call) == "pass"]
        roll = rng.random()
        if passes and roll < 0.45:
            auction.call(passes[0])
        elif roll < 0.85:
            auction.call(rng.choice(legal[:4]))
        else:
            auction.call(rng.choice(legal))
    assert auction.is_finished, "the auction did not finish in 200 calls"
    contract = auction.contract
    assert contract is not None
    if isinstance(contract, BoardResult) and contract.contract is Contract.PASS:
        return contract, score(ruleset, contract)
    state = new_play(
        ruleset,
        contract,
        auction.current_deal if isinstance(contract, IsraeliResult) else deal,
        dealer,
    )
    while not state.is_finished:
        state.play(rng.choice(state.legal_cards()))
    result = state.result()
    validate(ruleset, result)
    problems = [
        p
        for p in adjudicate(ruleset, result, deal, dealer=dealer, turned_card=turned_card)
        if p.severity == "impossible"
    ]
    if not isinstance(contract, IsraeliResult):
        assert problems == [], [p.message for p in problems]
    return result, score(ruleset, result)


@pytest.mark.parametrize("name", builtin_names())
@settings(max_examples=40, deadline=None)
@given(number=st.integers(0, DEAL_COUNT - 1), seed=st.integers(0, 2**32))
def test_a_random_legal_board_always_scores(name: str, number: int, seed: int) -> None:
    result, scores = play_board(name, number, seed)
    assert len(scores) == 4
    if load_builtin(name).balancing:
        assert sum(scores) == 0, (result, scores)
