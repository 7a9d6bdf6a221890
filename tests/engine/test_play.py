"""The play of the cards: tricks, leads, misère discards and exposure, early ends, revokes."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, SEATS, Card, Rank, Seat, Suit
from engine.errors import (
    DealError,
    EngineError,
    IllegalCardError,
    InvalidResultError,
    RulesetError,
)
from engine.hands import Deal, Hand
from engine.play import (
    KLEURENWIEZEN_PLAY,
    WIEZEN_PLAY,
    EndPolicy,
    Phase,
    PlayState,
    TroelLead,
    new_play,
    play_rules_for,
    replay,
)
from engine.results import BoardResult, Contract, IsraeliResult
from engine.ruleset import load_builtin, load_ruleset, ruleset_to_mapping
from engine.validation import validate

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

# N holds long spades, S and W are void in spades: a spade lead can be ruffed twice.
RUFF_DEAL = Deal.from_pbn("N:AKQJT98.2.AKQ.AK 765432.AK.JT9.QJ .76543.8765.T987 .QJT98.432.65432")


def c(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def deal_with(n: str = "", e: str = "", s: str = "", w: str = "") -> Deal:
    """A deal in which each seat holds the cards given (``"SA HK"``); the other cards go, in
    card order, to the first seat that still has room."""
    fixed = {seat: cards(text) for seat, text in zip(SEATS, (n, e, s, w), strict=True)}
    taken = {card for hand in fixed.values() for card in hand}
    hands = {seat: list(fixed[seat]) for seat in SEATS}
    for card in ALL_CARDS:
        if card not in taken:
            next(seat for seat in SEATS if len(hands[seat]) < 13)
            hands[next(seat for seat in SEATS if len(hands[seat]) < 13)].append(card)
    return Deal([Hand.of(hands[seat]) for seat in SEATS])


def accept(
    trump: Suit = Suit.H, level: int = 8, declarers: tuple[Seat, ...] = (N, S)
) -> BoardResult:
    return BoardResult(Contract.ACCEPT, level, trump, declarers)


def lone(
    contract: Contract, seat: Seat, trump: Suit | None, level: int | None = None
) -> BoardResult:
    return BoardResult(contract, level, trump, (seat,))


def negative(contract: Contract, *declarers: Seat) -> BoardResult:
    return BoardResult(contract, None, None, declarers)


def play_out(state: PlayState, choose: int = 0) -> PlayState:
    """Play the first (``choose=0``) or last (``-1``) legal card until the play is over."""
    while not state.is_finished:
        state.play(state.legal_cards()[choose])
    return state


# -- tricks -----------------------------------------------------------------------------------


def test_it_gives_the_trick_to_the_highest_card_of_the_suit_led():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    for card in cards("SA S2"):
        state.play(card)
    state.play(c("D8"))  # South is void in spades and discards
    record = state.play(c("D2"))
    assert record.winner is N
    assert state.tricks[0].winner is N
    assert state.next_seat is N
    assert state.tricks_won(N) == 1


def test_it_gives_the_trick_to_a_trump_over_the_ace_of_the_suit_led():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    for card in cards("SA S2 H3"):
        state.play(card)
    record = state.play(c("D2"))
    assert record.winner is S
    assert state.next_seat is S


def test_it_gives_the_trick_to_the_highest_trump_when_two_players_ruff():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    for card in cards("SA S2 H3 HQ"):
        state.play(card)
    assert state.tricks[0].winner is W
    assert state.tricks[0].card_of(W) == c("HQ")
    assert state.tricks[0].led_suit is Suit.S


def test_it_does_not_oblige_a_void_player_to_trump_or_a_player_to_overtake():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    state.play(c("SK"))
    assert state.can_play(c("S2"))  # East need not beat the king
    state.play(c("S2"))
    assert state.can_play(c("D8"))  # South, void in spades, need not trump
    assert len(state.legal_cards()) == 13


def test_it_rejects_a_card_that_does_not_follow_suit_and_says_which_cards_do():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    state.play(c("SA"))
    with pytest.raises(IllegalCardError, match=r"E must follow suit: spades were led .*♠7"):
        state.verify_play(c("DJ"))
    assert not state.can_play(c("DJ"))
    assert state.legal_cards() == cards("S7 S6 S5 S4 S3 S2")


def test_it_rejects_a_card_from_another_players_hand():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    with pytest.raises(IllegalCardError, match="S2 is in E's hand, and it is N's turn"):
        state.play(c("S2"))
    assert state.log == ()


def test_it_rejects_a_card_already_played():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    for card in cards("SA S2 D8 D2 SK"):
        state.play(card)
    state.play(c("S3"))
    state.play(c("D7"))
    state.play(c("D3"))
    with pytest.raises(IllegalCardError, match="SA was already played by N in trick 1"):
        state.verify_play(c("SA"))


def test_it_records_every_card_in_an_immutable_log():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    first = state.play(c("SA"))
    assert (first.seat, first.card, first.trick, first.winner) == (N, c("SA"), 1, None)
    assert state.log == (first,)
    with pytest.raises(AttributeError):
        first.card = c("SK")  # type: ignore[misc]


# -- who leads --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "leader"),
    [
        (accept(Suit.H), N),
        (lone(Contract.SOLO, E, Suit.S, 6), N),
        (lone(Contract.ABONDANCE, S, Suit.C, 9), S),
        (lone(Contract.SOLO_SLIM, E, Suit.D), E),
        (negative(Contract.MISERE, S), N),
        (negative(Contract.OPEN_MISERE, E, S), N),
        (negative(Contract.PICCOLO, W), N),
    ],
)
def test_it_lets_the_right_player_lead_in_kleurenwiezen(contract, leader):
    assert PlayState(contract, RUFF_DEAL, W).next_seat is leader


def test_it_lets_the_dealers_left_lead_an_abondance_in_wiezen():
    abondance = lone(Contract.ABONDANCE, S, Suit.C, 9)
    assert PlayState(abondance, RUFF_DEAL, W, rules=WIEZEN_PLAY).next_seat is N
    slam = lone(Contract.GRAND_SOLO, S, Suit.C)
    assert PlayState(slam, RUFF_DEAL, W, rules=WIEZEN_PLAY).next_seat is S


def test_it_lets_the_israeli_declarer_lead():
    contract = IsraeliResult(E, 7, None, (2, 7, 1, 2))
    state = PlayState(contract, RUFF_DEAL)
    assert state.next_seat is E
    play_out(state)
    result = state.result()
    assert isinstance(result, IsraeliResult)
    assert result.tricks is not None
    assert sum(result.tricks) == 13


def test_it_needs_the_dealer_when_the_dealers_left_leads():
    with pytest.raises(DealError, match="dealer is needed"):
        PlayState(accept(Suit.H), RUFF_DEAL)


def test_it_picks_the_rules_of_the_rulesets_game():
    abondance = lone(Contract.ABONDANCE, S, Suit.C, 9)
    assert new_play(load_builtin("iwwa-wiezen"), abondance, RUFF_DEAL, W).next_seat is N
    assert new_play(load_builtin("whisthub"), abondance, RUFF_DEAL, W).next_seat is S


# -- troel ------------------------------------------------------------------------------------

THREE_ACES = deal_with(n="SA HA DA HK", e="CA")  # East holds the fourth ace and some hearts


def test_it_makes_the_troel_partner_lead_the_fourth_ace():
    state = PlayState(BoardResult(Contract.TROEL, 8, Suit.C, (N, E)), THREE_ACES, W)
    assert state.next_seat is E
    assert state.legal_cards() == [c("CA")]
    with pytest.raises(IllegalCardError, match="E must lead the called card CA"):
        state.verify_play(c("S2"))


def test_it_makes_the_troel_bidder_lead_the_ace_of_switched_trumps():
    state = PlayState(BoardResult(Contract.TROEL, 9, Suit.H, (E, N)), THREE_ACES, W)
    assert state.next_seat is N
    assert state.legal_cards() == [c("HA")]


def test_it_makes_the_wiezen_troel_bidder_play_the_ace_to_the_partners_trump_lead():
    contract = BoardResult(Contract.TROEL, 9, Suit.H, (N, E))
    state = PlayState(contract, THREE_ACES, W, rules=WIEZEN_PLAY)
    assert state.next_seat is E
    assert all(card.suit is Suit.H for card in state.legal_cards())
    state.play(state.legal_cards()[-1])
    state.play(state.legal_cards()[0])  # South
    state.play(state.legal_cards()[0])  # West
    assert state.next_seat is N
    assert state.legal_cards() == [c("HA")]  # not the king of hearts
    with pytest.raises(IllegalCardError, match="must play the ace of trumps HA"):
        state.verify_play(c("HK"))


def test_it_makes_the_partner_of_four_aces_lead_the_highest_missing_heart():
    deal = deal_with(n="SA HA DA CA HK", e="HQ")
    state = PlayState(BoardResult(Contract.TROEL, 8, Suit.H, (N, E)), deal, W)
    assert state.legal_cards() == [c("HQ")]


def test_it_finds_the_four_aces_partner_by_the_kings_when_the_ruleset_says_so():
    deal = deal_with(n="SA HA DA CA HK", e="HQ", s="DK")
    rules = replace(KLEURENWIEZEN_PLAY, four_aces_partner="kings", four_aces_trump=None)
    state = PlayState(BoardResult(Contract.TROEL, 8, Suit.D, (N, S)), deal, W, rules=rules)
    assert state.next_seat is S
    assert state.legal_cards() == [c("DK")]


def test_it_lets_the_kings_partner_lead_any_card_when_hearts_stay_trumps():
    deal = deal_with(n="SA HA DA CA HK", e="HQ", s="DK")
    rules = replace(KLEURENWIEZEN_PLAY, four_aces_partner="kings", four_aces_trump=Suit.H)
    state = PlayState(BoardResult(Contract.TROEL, 8, Suit.H, (N, S)), deal, W, rules=rules)
    assert state.next_seat is S
    assert len(state.legal_cards()) == 13


def test_it_lets_the_troel_partner_lead_anything_in_the_partner_any_variant():
    rules = replace(KLEURENWIEZEN_PLAY, troel_lead=TroelLead.PARTNER_ANY)
    state = PlayState(BoardResult(Contract.TROEL, 9, Suit.H, (N, E)), THREE_ACES, W, rules=rules)
    assert state.next_seat is E
    assert len(state.legal_cards()) == 13


def test_the_ruleset_chooses_who_leads_to_a_troel():
    """pagat's Kleurenwiezen variation: the troel partner always leads, and may lead any card."""
    document = ruleset_to_mapping(load_builtin("whisthub"))
    document["name"] = "club"
    document["auction"]["troel_lead"] = "partner_any"
    club = load_ruleset(document)
    assert play_rules_for(club).troel_lead is TroelLead.PARTNER_ANY
    state = new_play(club, BoardResult(Contract.TROEL, 9, Suit.H, (N, E)), THREE_ACES, W)
    assert state.next_seat is E
    assert len(state.legal_cards()) == 13
    # Without the option each game keeps its own rule.
    assert play_rules_for(load_builtin("whisthub")).troel_lead is TroelLead.CALLED_CARD
    wiezen = play_rules_for(load_builtin("iwwa-wiezen"))
    assert wiezen.troel_lead is TroelLead.PARTNER_LEADS_TRUMP


def test_it_rejects_a_troel_whose_partner_does_not_hold_the_called_card():
    with pytest.raises(InvalidResultError, match="N's troel partner is E, who holds CA, not S"):
        PlayState(BoardResult(Contract.TROEL, 8, Suit.C, (N, S)), THREE_ACES, W)


def test_it_rejects_a_troel_without_three_aces():
    with pytest.raises(InvalidResultError, match="three or four aces") as caught:
        PlayState(BoardResult(Contract.TROEL, 8, Suit.C, (E, S)), THREE_ACES, W)
    assert caught.value.field == "declarers"


def test_it_reads_the_troel_partner_rule_from_the_ruleset():
    rules = play_rules_for(load_builtin("whisthub"))
    assert rules.four_aces_partner == "highest_heart"
    assert rules.four_aces_trump is Suit.H


# -- misère -----------------------------------------------------------------------------------


def test_it_has_every_player_discard_a_card_before_a_small_misere():
    state = PlayState(negative(Contract.SMALL_MISERE, S), RUFF_DEAL, W)
    assert state.phase is Phase.DISCARD
    assert state.total_tricks == 12
    assert state.trick_number == 0
    order = []
    for _ in range(4):
        order.append(state.next_seat)
        assert len(state.legal_cards()) == 13
        record = state.play(state.legal_cards()[0])
        assert record.discard
        assert record.trick == 0
    assert order == [N, E, S, W]
    assert state.phase is Phase.PLAY
    assert state.next_seat is N
    assert state.discards[N] == c("SA")
    with pytest.raises(IllegalCardError, match="SA was discarded by N"):
        state.verify_play(c("SA"))
    state = PlayState(negative(Contract.SMALL_MISERE, S), RUFF_DEAL, W, end=EndPolicy.NEVER)
    play_out(state)
    assert len(state.tricks) == 12
    assert sum(state.tricks_won(seat) for seat in SEATS) == 12


def test_it_exposes_open_misere_hands_after_the_first_trick():
    state = PlayState(negative(Contract.OPEN_MISERE, E, W), RUFF_DEAL, W, end=EndPolicy.NEVER)
    assert state.exposed == {}
    records = [state.play(state.legal_cards()[-1]) for _ in range(4)]
    assert [r.exposes for r in records] == [(), (), (), (E, W)]
    assert state.exposed == {E: 1, W: 1}


def test_it_exposes_open_misere_hands_before_play_under_whisthubs_rule():
    rules = replace(KLEURENWIEZEN_PLAY, open_misere_exposed_after=0)
    state = PlayState(negative(Contract.OPEN_MISERE, S), RUFF_DEAL, W, rules=rules)
    assert state.exposed == {S: 0}


# -- early end --------------------------------------------------------------------------------


def test_it_stops_when_one_player_must_win_every_remaining_trick():
    deal = deal_with(e=" ".join(f"H{r}" for r in "AKQJT98765432"))
    state = PlayState(lone(Contract.SOLO_SLIM, E, Suit.H), deal, W)
    play_out(state)
    end = state.early_end
    assert end is not None
    assert (end.reason, end.after_trick, end.remaining, end.winner) == ("rest_forced", 1, 12, E)
    assert state.result().tricks == 13


def test_it_stops_a_misere_when_its_declarer_takes_a_trick():
    state = PlayState(negative(Contract.MISERE, N), RUFF_DEAL, W)
    for card in cards("SA S2 H3 D2"):
        state.play(card)
    assert state.is_finished
    assert state.early_end is not None
    assert (state.early_end.reason, state.early_end.after_trick) == ("settled", 1)
    assert state.result().declarer_tricks == (1,)


# North holds the lowest cards of every suit; nobody else holds only top cards.
LOW_MISERE = Deal.from_pbn("N:432.432.432.5432 AQ9.KJ9.AQT.KJ98 KJT8.AQT.KJ9.AQT 765.8765.8765.76")


def test_it_stops_a_misere_once_the_declarer_can_no_longer_take_a_trick():
    state = PlayState(negative(Contract.MISERE, N), LOW_MISERE, N)
    play_out(state)
    assert state.early_end is not None
    assert (state.early_end.reason, state.early_end.after_trick) == ("settled", 1)
    assert state.result().declarer_tricks == (0,)


def test_it_plays_on_until_every_misere_declarer_is_settled():
    state = PlayState(negative(Contract.MISERE, N, S), RUFF_DEAL, W)
    for card in cards("SA S2 H3 D2"):
        state.play(card)
    # North has failed, but South (♥7 above North's ♥2) might still take a trick.
    assert state.tricks_won(N) == 1
    assert not state.is_finished
    play_out(state)
    assert state.result().declarer_tricks[0] >= 1


# North declares abondance in hearts with low trumps; East takes the first five tricks.
WEAK_ABONDANCE = Deal.from_pbn(
    "N:432.5432.432.432 AKQJT.AK.AKQ.AKQ 9876.QJT.JT9.JT9 5.9876.8765.8765"
)
# Much the same, but North holds the three top trumps: nobody can take those from it.
TOP_TRUMPS = Deal.from_pbn("N:432.AKQ.5432.432 AKQJT.2.AKQ.AKQJ 9876.JT9.JT9.T98 5.876543.876.765")


def test_it_stops_an_abondance_once_it_can_no_longer_be_made():
    state = PlayState(lone(Contract.ABONDANCE, N, Suit.H, 9), WEAK_ABONDANCE, W)
    assert state.next_seat is N
    for card in cards("S2 SA S6 S5  DA D9 D5 D2  CA C9 C5 C2  SK S7 D6 S3  SQ S8 D7"):
        state.play(card)
    assert not state.is_finished
    state.play(c("S4"))
    end = state.early_end
    assert end is not None
    assert (end.reason, end.after_trick, end.remaining, end.declaring_credit) == (
        "defeated",
        5,
        8,
        0,
    )
    assert state.result().tricks == 0


def test_it_credits_a_defeated_declarer_with_the_trumps_nobody_can_beat():
    state = PlayState(lone(Contract.ABONDANCE, N, Suit.H, 10), TOP_TRUMPS, W)
    for card in cards("S2 SA S6 S5  DA D9 D6 D2  CA C8 C5 C2  SK S7 C6 S3"):
        state.play(card)
    end = state.early_end
    assert end is not None
    assert (end.reason, end.after_trick, end.declaring_credit) == ("defeated", 4, 3)
    assert state.result().tricks == 3


def test_it_plays_every_trick_when_told_not_to_stop_early():
    state = PlayState(negative(Contract.MISERE, N), LOW_MISERE, N, end=EndPolicy.NEVER)
    play_out(state)
    assert state.early_end is None
    assert len(state.tricks) == 13


def test_it_refuses_cards_once_the_play_is_over():
    state = play_out(PlayState(negative(Contract.MISERE, N), LOW_MISERE, N))
    assert state.next_seat is None
    assert state.legal_cards() == []
    with pytest.raises(IllegalCardError, match="the play is over"):
        state.play(c("S2"))


def test_it_refuses_a_result_before_the_play_is_over():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    state.play(c("SA"))
    with pytest.raises(EngineError, match="0 of 13 tricks played; E is to play"):
        state.result()


# -- revokes ----------------------------------------------------------------------------------


def test_it_accepts_and_reports_a_revoke_in_a_lenient_replay():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W, lenient=True)
    state.play(c("SA"))
    record = state.play(c("DJ"))
    assert record.revoke
    (revoke,) = state.revokes
    assert (revoke.seat, revoke.trick, revoke.card, revoke.led_suit) == (E, 1, c("DJ"), Suit.S)
    assert revoke.held == tuple(cards("S7 S6 S5 S4 S3 S2"))
    assert revoke.index == 1
    assert "E revoked in trick 1" in revoke.message
    state.play(c("D8"))
    assert state.play(c("D2")).winner is N


def test_it_rejects_a_revoke_outside_lenient_replay():
    state = PlayState(accept(Suit.H), RUFF_DEAL, W)
    state.play(c("SA"))
    with pytest.raises(IllegalCardError, match="must follow suit"):
        state.play(c("DJ"))
    assert state.revokes == ()


# -- replay and properties --------------------------------------------------------------------


def test_it_rebuilds_a_play_from_its_cards():
    original = play_out(PlayState(accept(Suit.H), RUFF_DEAL, W), choose=-1)
    rebuilt = replay(accept(Suit.H), RUFF_DEAL, W, [r.card for r in original.log])
    assert rebuilt.log == original.log
    assert rebuilt.result() == original.result()


def _random_deal(rng: random.Random) -> Deal:
    holders = [seat for seat in SEATS for _ in range(13)]
    rng.shuffle(holders)
    return Deal.from_holders(holders)


def _contracts(deal: Deal, rng: random.Random) -> list[BoardResult | IsraeliResult]:
    suit = rng.choice(list(Suit))
    seat = rng.choice(SEATS)
    bids = [1, 1, 1, 1]
    bids[seat.value] = 7
    out: list[BoardResult | IsraeliResult] = [
        accept(suit, rng.randint(8, 13), (seat, seat.left)),
        lone(Contract.SOLO, seat, suit, rng.randint(5, 8)),
        lone(Contract.ABONDANCE, seat, suit, rng.randint(9, 12)),
        lone(Contract.SOLO_SLIM, seat, suit),
        negative(Contract.SMALL_MISERE, *rng.sample(SEATS, rng.randint(1, 4))),
        negative(Contract.PICCOLO, *rng.sample(SEATS, rng.randint(1, 3))),
        negative(Contract.MISERE, seat),
        negative(Contract.OPEN_MISERE, *rng.sample(SEATS, 2)),
        IsraeliResult(seat, 7, rng.choice([None, suit]), (bids[0], bids[1], bids[2], bids[3])),
    ]
    aces = [deal.holder(Card(s, Rank.ACE)) for s in Suit]
    for bidder in SEATS:
        if aces.count(bidder) == 3:
            partner = next(holder for holder in aces if holder is not bidder)
            out.append(BoardResult(Contract.TROEL, 8, suit, (bidder, partner)))
    return out


def _reference_winner(trick_cards: tuple[Card, ...], leader: Seat, trump: Suit | None) -> Seat:
    def strength(card: Card) -> int:
        if card.suit is trump:
            return 100 + card.rank.value
        return card.rank.value if card.suit is trick_cards[0].suit else 0

    best = max(range(4), key=lambda i: strength(trick_cards[i]))
    return leader.next(best)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 20), policy=st.sampled_from(EndPolicy))
def test_random_legal_plays_always_end_in_a_valid_result(seed, pick, policy):
    rng = random.Random(seed)
    deal = _random_deal(rng)
    options = _contracts(deal, rng)
    contract = options[pick % len(options)]
    dealer = rng.choice(SEATS)
    state = PlayState(contract, deal, dealer, end=policy)
    while not state.is_finished:
        legal = state.legal_cards()
        assert legal
        assert all(state.can_play(card) for card in legal)
        state.play(rng.choice(legal))
    remaining = state.early_end.remaining if state.early_end else 0
    assert sum(state.tricks_won(seat) for seat in SEATS) + remaining == state.total_tricks
    assert len(state.tricks) + remaining == state.total_tricks
    for trick in state.tricks:
        assert trick.winner is _reference_winner(trick.cards, trick.leader, contract.trump)
    result = state.result()
    if isinstance(result, IsraeliResult):
        assert result.tricks is not None
        assert sum(result.tricks) == 13
        validate(load_builtin("israeli"), result)
    elif result.contract.is_negative:
        assert sum(result.declarer_tricks) <= state.total_tricks
        assert len(result.declarer_tricks) == len(result.declarers)
        validate(load_builtin("whisthub-piccolo"), result)
    else:
        assert result.tricks is not None
        assert 0 <= result.tricks <= 13
        validate(load_builtin("whisthub"), result)
    if contract.contract in (Contract.ACCEPT, Contract.SOLO, Contract.TROEL, Contract.ISRAELI):
        # Their scores count every trick: only a forced rest may end them early.
        assert state.early_end is None or state.early_end.reason == "rest_forced"
    if policy is EndPolicy.NEVER:
        full = replay(contract, deal, dealer, [r.card for r in state.log], end=EndPolicy.NEVER)
        assert full.result() == result


def test_it_reads_the_kings_variant_and_the_called_trump_from_the_auction_table():
    document = ruleset_to_mapping(load_builtin("whisthub"))
    document["name"] = "whisthub-kings"
    document["auction"] = {"troel_four_aces_partner": "kings", "troel_four_aces_trump": "called"}
    rules = play_rules_for(load_ruleset(document))
    assert (rules.four_aces_partner, rules.four_aces_trump) == ("kings", None)


@pytest.mark.parametrize(
    ("auction", "key"),
    [
        ({"troel_four_aces_partner": "queens"}, "auction.troel_four_aces_partner"),
        ({"troel_four_aces_trump": "X"}, "auction.troel_four_aces_trump"),
        ({"troel_lead": "dealer"}, "auction.troel_lead"),
    ],
)
def test_it_rejects_troel_options_it_cannot_play(auction, key):
    document = ruleset_to_mapping(load_builtin("whisthub"))
    document["name"] = "whisthub-broken"
    document["auction"] = auction
    with pytest.raises(RulesetError) as caught:
        play_rules_for(load_ruleset(document))
    assert caught.value.key == key


def test_it_rejects_play_rules_that_make_no_sense():
    with pytest.raises(RulesetError, match=r"0 \(before the first trick\) or 1"):
        replace(KLEURENWIEZEN_PLAY, open_misere_exposed_after=2)
    with pytest.raises(RulesetError, match="misere is not a contract to win tricks"):
        replace(KLEURENWIEZEN_PLAY, flat_failures=frozenset({Contract.MISERE}))
