"""Adjudication of paper results against the deal, and penalties as ruleset data."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.adjudication import MESSAGES, Penalty, Problem, adjudicate, penalties, penalty
from engine.cards import ALL_CARDS, SEATS, Card, Seat, Suit
from engine.errors import RulesetError
from engine.hands import Deal, Hand
from engine.play import EndPolicy, PlayState
from engine.results import BoardResult, Contract, IsraeliResult
from engine.ruleset import Ruleset, load_builtin, load_ruleset, ruleset_to_mapping

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
WHISTHUB = load_builtin("whisthub")
IWWA_WIEZEN = load_builtin("iwwa-wiezen")
IWWA = load_builtin("iwwa")


def deal_with(n: str = "", e: str = "", s: str = "", w: str = "") -> Deal:
    """A deal in which each seat holds the cards given (``"SA HK"``); the other cards go, in
    card order, to the first seat that still has room."""
    given = zip(SEATS, (n, e, s, w), strict=True)
    fixed = {seat: [Card.parse(word) for word in text.split()] for seat, text in given}
    taken = {card for hand in fixed.values() for card in hand}
    hands = {seat: list(fixed[seat]) for seat in SEATS}
    for card in ALL_CARDS:
        if card not in taken:
            hands[next(seat for seat in SEATS if len(hands[seat]) < 13)].append(card)
    return Deal([Hand.of(hands[seat]) for seat in SEATS])


def codes(problems: list[Problem]) -> list[str]:
    return [problem.code for problem in problems]


# North: ♠AKQJT98 ♥2 ♦AKQ ♣KJ; East holds the two top hearts; nobody has three aces.
DEAL = Deal.from_pbn("N:AKQJT98.2.AKQ.KJ 765432.AK.JT9.AQ .76543.8765.T987 .QJT98.432.65432")


def test_it_finds_nothing_wrong_with_a_possible_result():
    result = BoardResult(Contract.ACCEPT, 9, Suit.S, (N, E), tricks=11)
    assert adjudicate(WHISTHUB, result, DEAL, W) == []


# -- troel ------------------------------------------------------------------------------------

THREE_ACES = deal_with(n="SA HA DA", e="CA")


def test_it_rejects_a_troel_without_three_aces():
    result = BoardResult(Contract.TROEL, 8, Suit.C, (E, S), tricks=8)
    (problem,) = adjudicate(WHISTHUB, result, THREE_ACES, W)
    assert (problem.code, problem.severity, problem.field) == (
        "troel_without_aces",
        "impossible",
        "declarers",
    )
    assert problem.message == (
        "Neither E (1 aces) nor S (0 aces) holds three or four aces, so they cannot play a troel."
    )


def test_it_rejects_a_troel_with_the_wrong_partner():
    result = BoardResult(Contract.TROEL, 8, Suit.C, (N, S), tricks=1)
    (problem,) = adjudicate(WHISTHUB, result, THREE_ACES, W)
    assert problem.code == "troel_wrong_partner"
    assert problem.params == {
        "bidder": "N",
        "aces": 3,
        "partner": "E",
        "called": "♣A",
        "named": "S",
    }
    assert problem.message == "N holds 3 aces, so the troel partner is E, who holds ♣A, not S."


def test_it_finds_the_partner_of_four_aces_by_the_highest_missing_heart():
    deal = deal_with(n="SA HA DA CA HK", w="HQ")
    good = BoardResult(Contract.TROEL, 8, Suit.H, (W, N), tricks=9)
    assert adjudicate(WHISTHUB, good, deal, W) == []
    wrong = BoardResult(Contract.TROEL, 8, Suit.H, (N, E), tricks=9)
    assert codes(adjudicate(WHISTHUB, wrong, deal, W)) == ["troel_wrong_partner"]


def test_it_rejects_a_troel_level_that_does_not_match_the_trumps():
    kept = BoardResult(Contract.TROEL, 9, Suit.C, (N, E), tricks=9)
    (problem,) = adjudicate(WHISTHUB, kept, THREE_ACES, W)
    assert (problem.code, problem.field, problem.params["expected"]) == (
        "troel_level_kept",
        "level",
        8,
    )
    switched = BoardResult(Contract.TROEL, 8, Suit.H, (N, E), tricks=10)
    (problem,) = adjudicate(WHISTHUB, switched, THREE_ACES, W)
    assert problem.code == "troel_level_switched"
    assert problem.message == (
        "The partner switched trumps from ♣ to ♥, so the troel is for 9 tricks, not 8."
    )
    made = BoardResult(Contract.TROEL, 9, Suit.H, (N, E), tricks=10)
    assert adjudicate(WHISTHUB, made, THREE_ACES, W) == []


def test_the_iwwa_troel_needs_8_tricks_with_the_trumps_kept_and_9_after_a_switch():
    """scoring-tables.md, iwwa: 8 tricks when the partner keeps the trump suit, 9 after the
    partner switched trumps (the general rule of the rules texts)."""
    kept = BoardResult(Contract.TROEL, 8, Suit.C, (N, E), tricks=8)
    assert adjudicate(IWWA, kept, THREE_ACES, W) == []
    kept_for_9 = BoardResult(Contract.TROEL, 9, Suit.C, (N, E), tricks=9)
    (problem,) = adjudicate(IWWA, kept_for_9, THREE_ACES, W)
    assert (problem.code, problem.params["expected"]) == ("troel_level_kept", 8)
    switched = BoardResult(Contract.TROEL, 9, Suit.H, (N, E), tricks=10)
    assert adjudicate(IWWA, switched, THREE_ACES, W) == []
    switched_for_8 = BoardResult(Contract.TROEL, 8, Suit.H, (N, E), tricks=10)
    assert codes(adjudicate(IWWA, switched_for_8, THREE_ACES, W)) == ["troel_level_switched"]
    four_aces = deal_with(n="SA HA DA CA HK", w="HQ")
    troel = BoardResult(Contract.TROEL, 8, Suit.H, (W, N), tricks=8)
    assert adjudicate(IWWA, troel, four_aces, W) == []


def test_it_rejects_a_trump_switch_where_the_ruleset_has_none():
    result = BoardResult(Contract.TROEL, 8, Suit.H, (N, E), tricks=10)
    (problem,) = adjudicate(IWWA_WIEZEN, result, THREE_ACES, W)
    assert (problem.code, problem.field) == ("troel_switch_not_allowed", "trump")


def test_it_expects_nine_tricks_for_a_wiezen_troel_with_four_aces():
    deal = deal_with(n="SA HA DA CA", e="HK")
    result = BoardResult(Contract.TROEL, 8, Suit.H, (N, E), tricks=11)
    (problem,) = adjudicate(IWWA_WIEZEN, result, deal, W)
    assert (problem.code, problem.params["expected"]) == ("troel_level_kept", 9)


def test_it_questions_a_lower_contract_when_a_player_held_three_aces():
    result = BoardResult(Contract.ACCEPT, 8, Suit.H, (E, S), tricks=8)
    (problem,) = adjudicate(WHISTHUB, result, THREE_ACES, W)
    assert (problem.code, problem.severity, problem.field) == (
        "troel_not_played",
        "suspicious",
        "contract",
    )
    assert "N holds 3 aces and had to announce troel" in problem.message
    passed = adjudicate(WHISTHUB, BoardResult(Contract.PASS), THREE_ACES, W)
    assert codes(passed) == ["troel_not_played"]


def test_it_accepts_a_contract_above_troel_over_three_aces():
    result = BoardResult(Contract.ABONDANCE, 10, Suit.S, (N,), tricks=11)
    assert adjudicate(WHISTHUB, result, THREE_ACES, W) == []


# -- trumps -----------------------------------------------------------------------------------


def test_it_rejects_an_acceptance_in_a_suit_a_declarer_does_not_hold():
    result = BoardResult(Contract.ACCEPT, 8, Suit.S, (N, S), tricks=8)
    problems = adjudicate(WHISTHUB, result, DEAL, W)
    assert codes(problems) == ["trump_not_held"]
    assert problems[0].message == (
        "S holds no ♠, so could not have proposed or accepted ♠ as trumps."
    )


def test_it_questions_a_soloist_without_a_trump():
    result = BoardResult(Contract.SOLO, 6, Suit.S, (W,), tricks=2)
    problems = adjudicate(WHISTHUB, result, DEAL, N)
    assert [(p.code, p.severity) for p in problems] == [("declarer_void_in_trump", "suspicious")]


def test_it_rejects_a_wiezen_contract_outside_the_turned_trump():
    result = BoardResult(Contract.ACCEPT, 8, Suit.S, (N, E), tricks=9)
    problems = adjudicate(IWWA_WIEZEN, result, DEAL, W, turned_card=Card.parse("D2"))
    assert codes(problems) == ["trump_not_turned"]
    assert problems[0].message == ("The turned-up card is ♦2, so accept is played in ♦, not ♠.")
    assert adjudicate(IWWA_WIEZEN, result, DEAL, W, turned_card=Card.parse("S2")) == []


# -- tricks -----------------------------------------------------------------------------------


def test_it_rejects_fewer_tricks_than_the_trumps_nobody_can_beat():
    # North's seven top spades win seven tricks whatever is played.
    result = BoardResult(Contract.SOLO, 6, Suit.S, (N,), tricks=6)
    (problem,) = adjudicate(WHISTHUB, result, DEAL, W)
    assert (problem.code, problem.field) == ("tricks_below_sure", "tricks")
    assert problem.params == {
        "seat": "N",
        "cards": "♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8",
        "minimum": 7,
        "tricks": 6,
    }


def test_it_rejects_all_tricks_for_a_side_without_the_ace_of_trumps():
    result = BoardResult(Contract.ACCEPT, 13, Suit.H, (S, W), tricks=13)
    (problem,) = adjudicate(WHISTHUB, result, DEAL, N)
    assert problem.code == "tricks_above_possible"
    assert problem.message == (
        "E holds ♥A ♥K: trumps the declaring side cannot beat, so the declaring side wins at "
        "most 11 tricks, not 13."
    )
    ok = BoardResult(Contract.ACCEPT, 10, Suit.H, (S, W), tricks=11)
    assert adjudicate(WHISTHUB, ok, DEAL, N) == []


def test_it_counts_sure_tricks_for_each_israeli_player():
    israeli = load_builtin("israeli")
    low = IsraeliResult(N, 7, Suit.S, (7, 2, 2, 1), tricks=(6, 3, 2, 2))
    (problem,) = adjudicate(israeli, low, DEAL, W)
    assert (problem.code, problem.field, problem.params["minimum"]) == (
        "player_tricks_below_sure",
        "tricks.N",
        7,
    )
    most = IsraeliResult(N, 7, Suit.S, (7, 2, 2, 1), tricks=(7, 0, 0, 6))
    assert adjudicate(israeli, most, DEAL, W) == []
    too_many = IsraeliResult(N, 7, Suit.S, (7, 2, 2, 1), tricks=(5, 8, 0, 0))
    problems = adjudicate(israeli, too_many, DEAL, W)
    assert [(p.code, p.field) for p in problems] == [
        ("player_tricks_below_sure", "tricks.N"),
        ("player_tricks_above_possible", "tricks.E"),
    ]
    assert problems[1].params["maximum"] == 6
    no_trump = IsraeliResult(N, 7, None, (7, 2, 2, 1), tricks=(0, 13, 0, 0))
    assert adjudicate(israeli, no_trump, DEAL, W) == []


def test_it_rejects_a_clean_misere_for_a_leader_holding_only_top_cards():
    tops = "SA SK SQ HA HK HQ DA DK DQ CA CK CQ CJ"
    deal = deal_with(n=tops)
    result = BoardResult(Contract.MISERE, None, None, (N,), declarer_tricks=(0,))
    (problem,) = adjudicate(WHISTHUB, result, deal, W)
    assert (problem.code, problem.field) == ("must_win_first_trick", "tricks.N")
    # With East on lead North can discard its way out; without a dealer nothing is claimed.
    assert adjudicate(WHISTHUB, result, deal, N) == []
    assert adjudicate(WHISTHUB, result, deal) == []


def test_it_lists_impossible_problems_before_suspicious_ones():
    result = BoardResult(Contract.ACCEPT, 13, Suit.S, (E, S), tricks=13)
    problems = adjudicate(WHISTHUB, result, THREE_ACES, W)
    severities = [problem.severity for problem in problems]
    assert severities == sorted(severities, key=lambda s: s != "impossible")
    assert "suspicious" in severities
    assert "impossible" in severities


def test_every_problem_code_has_a_message_and_a_json_form():
    problem = Problem("trump_not_held", "impossible", "trump", {"seat": "N", "trump": "♥"})
    assert problem.to_json() == {
        "code": "trump_not_held",
        "severity": "impossible",
        "field": "trump",
        "message": "N holds no ♥, so could not have proposed or accepted ♥ as trumps.",
        "params": {"seat": "N", "trump": "♥"},
    }
    assert all(message.endswith(".") for message in MESSAGES.values())


# -- penalties --------------------------------------------------------------------------------


def with_penalties(base: Ruleset, table: dict[str, object]) -> Ruleset:
    document = ruleset_to_mapping(base)
    document["name"] = f"{base.name}-club"
    document["penalties"] = table
    return load_ruleset(document)


REVOKE = {"revoke": {"amount": 12, "multipliers": {"solo_slim": 4, "open_misere": 2}}}


def test_it_makes_the_offender_pay_every_other_player_in_a_balancing_ruleset():
    ruleset = with_penalties(WHISTHUB, REVOKE)
    assert penalty(ruleset, "revoke", E) == (12, -36, 12, 12)
    assert sum(penalty(ruleset, "revoke", E)) == 0


def test_it_multiplies_a_penalty_in_the_contracts_the_ruleset_names():
    ruleset = with_penalties(WHISTHUB, REVOKE)
    assert penalty(ruleset, "revoke", N, Contract.SOLO_SLIM) == (-144, 48, 48, 48)
    result = BoardResult(Contract.OPEN_MISERE, None, None, (S,), declarer_tricks=(0,))
    assert penalty(ruleset, "revoke", W, result) == (24, 24, 24, -72)
    assert penalty(ruleset, "revoke", W, Contract.ACCEPT) == (12, 12, 12, -36)


def test_it_only_takes_points_off_the_offender_when_nobody_is_paid():
    ruleset = with_penalties(load_builtin("iwwa"), {"fine": {"amount": 10}})
    assert penalties(ruleset)["fine"] == Penalty("fine", 10, "nobody", {})
    assert penalty(ruleset, "fine", S) == (0, 0, -10, 0)
    paid = with_penalties(WHISTHUB, {"fine": {"amount": 5, "paid_to": "nobody"}})
    assert penalty(paid, "fine", N) == (-5, 0, 0, 0)


def test_it_names_the_missing_penalty_and_the_ones_defined():
    ruleset = with_penalties(WHISTHUB, REVOKE)
    with pytest.raises(
        RulesetError, match=r"defines no such penalty \(it defines: revoke\)"
    ) as caught:
        penalty(ruleset, "late_arrival", N)
    assert caught.value.key == "penalties.late_arrival"
    with pytest.raises(RulesetError, match="it defines: none"):
        penalty(with_penalties(WHISTHUB, {}), "revoke", N)


def test_the_built_in_rulesets_carry_default_revoke_penalties():
    assert penalty(WHISTHUB, "revoke", N) == (-36, 12, 12, 12)


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"revoke": {"amount": 0}}, "penalties.revoke.amount"),
        ({"revoke": {"amount": "ten"}}, "penalties.revoke.amount"),
        ({"revoke": {"amount": 5, "paid_to": "the_td"}}, "penalties.revoke.paid_to"),
        ({"revoke": {"amount": 5, "points": 3}}, "penalties.revoke.points"),
        (
            {"revoke": {"amount": 5, "multipliers": {"grand_slam": 2}}},
            "penalties.revoke.multipliers.grand_slam",
        ),
        (
            {"revoke": {"amount": 5, "multipliers": {"misere": 0}}},
            "penalties.revoke.multipliers.misere",
        ),
        ({"revoke": 5}, "penalties.revoke"),
        ({"Revoke": {"amount": 5}}, "penalties.Revoke"),
    ],
)
def test_it_rejects_a_broken_penalties_table_naming_the_key(table, key):
    # The ruleset loader checks the table, so a broken one never reaches a board.
    with pytest.raises(RulesetError) as caught:
        with_penalties(WHISTHUB, table)
    assert caught.value.key == key


# -- agreement with the play ------------------------------------------------------------------

TRICK_CODES = {
    "tricks_below_sure",
    "tricks_above_possible",
    "player_tricks_below_sure",
    "player_tricks_above_possible",
    "must_win_first_trick",
}


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    contract=st.sampled_from(
        [Contract.ACCEPT, Contract.SOLO_SLIM, Contract.ABONDANCE, Contract.MISERE, Contract.ISRAELI]
    ),
    policy=st.sampled_from(EndPolicy),
)
def test_it_never_calls_the_outcome_of_a_legal_play_impossible(seed, contract, policy):
    rng = random.Random(seed)
    holders = [seat for seat in SEATS for _ in range(13)]
    rng.shuffle(holders)
    deal = Deal.from_holders(holders)
    dealer, seat = rng.choice(SEATS), rng.choice(SEATS)
    trump = rng.choice(list(Suit))
    ruleset = WHISTHUB
    played: BoardResult | IsraeliResult
    if contract is Contract.ACCEPT:
        played = BoardResult(contract, 8, trump, (seat, seat.opposite))
    elif contract is Contract.ABONDANCE:
        played = BoardResult(contract, 9, trump, (seat,))
    elif contract is Contract.SOLO_SLIM:
        played = BoardResult(contract, None, trump, (seat,))
    elif contract is Contract.MISERE:
        played = BoardResult(contract, None, None, (seat, seat.left))
    else:
        ruleset = load_builtin("israeli")
        bids = [7 if other is seat else 1 for other in SEATS]
        played = IsraeliResult(seat, 7, trump, (bids[0], bids[1], bids[2], bids[3]))
    state = PlayState(played, deal, dealer, end=policy)
    while not state.is_finished:
        state.play(rng.choice(state.legal_cards()))
    problems = adjudicate(ruleset, state.result(), deal, dealer)
    assert not [p.message for p in problems if p.code in TRICK_CODES]
