"""Partners sitting opposite: the double-dummy search agrees with DDS (through endplay).

DDS is bridge's solver: partners opposite each other, every card played as in whist. Its
``solve_board`` gives, for the player on lead (``deal.first``) and the trump suit
(``deal.trump``), the tricks the leader's side takes after each card the leader may play; the
best of them is the leader's side's double-dummy figure.
"""

from __future__ import annotations

import random

import pytest
from endplay.dds import solve_board
from endplay.types import Deal as DdsDeal
from endplay.types import Denom, Player

from engine.cards import SEATS, Card, Seat, Suit
from engine.doubledummy import Position, tricks
from engine.doubledummy.table import STRAINS

DENOMS = {Suit.S: Denom.spades, Suit.H: Denom.hearts, Suit.D: Denom.diamonds, Suit.C: Denom.clubs}
PLAYERS = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
NS = (Seat.N, Seat.S)


def pbn(hands: tuple[int, int, int, int]) -> str:
    """The hands as a PBN deal string from North (a suit with no card left is empty)."""
    text = []
    for mask in hands:
        suits = ["", "", "", ""]
        for index in range(52):
            if mask >> index & 1:
                card = Card.from_index(index)
                suits[card.suit.value] += card.rank.letter
        text.append(".".join(suits))
    return "N:" + " ".join(text)


def dds_ns_tricks(hands: tuple[int, int, int, int], strain: Suit | None, leader: Seat) -> int:
    deal = DdsDeal(pbn(hands))
    deal.first = PLAYERS[leader]
    deal.trump = Denom.nt if strain is None else DENOMS[strain]
    best = max(result for _, result in solve_board(deal))
    return best if leader in NS else hands[0].bit_count() - best


def random_hands(rng: random.Random, size: int) -> tuple[int, int, int, int]:
    masks = [0, 0, 0, 0]
    for number, index in enumerate(rng.sample(range(52), 4 * size)):
        masks[number % 4] |= 1 << index
    return (masks[0], masks[1], masks[2], masks[3])


@pytest.mark.parametrize("size", [3, 5, 7, 9])
def test_it_agrees_with_dds_on_random_endings_every_strain_and_leader(size):
    rng = random.Random(1000 + size)
    for _ in range(100):
        hands = random_hands(rng, size)
        for strain in STRAINS:
            for leader in SEATS:
                ours = tricks(Position(hands, strain, leader), NS)
                assert ours == dds_ns_tricks(hands, strain, leader), (pbn(hands), strain, leader)


def test_it_agrees_with_dds_on_whole_deals():
    rng = random.Random(7)
    hands = random_hands(rng, 13)
    for strain in (Suit.H, None):
        leader = rng.choice(SEATS)
        ours = tricks(Position(hands, strain, leader), NS)
        assert ours == dds_ns_tricks(hands, strain, leader), (pbn(hands), strain, leader)
