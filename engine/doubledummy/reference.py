"""The pure-Python double-dummy search: the plain reference the compiled search is checked against.

It knows nothing of the compiled search's shortcuts (equivalent cards, sure-trick bounds,
relative-rank keys): an alpha-beta search over every legal card, with a memo of exact cards at
trick boundaries. It is correct for any position and fast enough for endings of a few cards per
hand; a whole deal takes it minutes.

Positions are as in ``engine.doubledummy.solver``: four 52-bit card masks over ``Card.index``
(spades A..2 are bits 0..12, so within a suit a lower bit is a higher card), the trump suit's
``Suit.value`` or ``NO_TRUMP``, the leader's ``Seat.value``, and seat bit masks for the seats
whose tricks are counted and for the seats that want them to be many.
"""

from __future__ import annotations

NO_TRUMP = 4

_SUIT_MASKS = tuple(0x1FFF << (13 * suit) for suit in range(4))

_Hands = tuple[int, int, int, int]


def _cards(mask: int) -> list[int]:
    """Card indexes of a mask, highest of each suit first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _legal(hand: int, lead_suit: int | None) -> list[int]:
    if lead_suit is not None:
        following = hand & _SUIT_MASKS[lead_suit]
        if following:
            return _cards(following)
    return _cards(hand)


def _beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` beats ``best``, the card now winning a trick (the same suit or a trump)."""
    suit, best_suit = card // 13, best // 13
    if suit == best_suit:
        return card < best
    return suit == trump


def _size(hands: _Hands) -> int:
    return hands[0].bit_count()


class _Search:
    """Most tricks for the counted seats, the maximizers choosing for them and the rest against."""

    def __init__(self, trump: int, counted: int, maximizers: int) -> None:
        self.trump = trump
        self.counted = counted
        self.maximizers = maximizers
        self.memo: dict[tuple[_Hands, int], tuple[int, int]] = {}

    def value(self, hands: _Hands, leader: int, alpha: int, beta: int) -> int:
        """The counted seats' tricks from this trick boundary (fail-soft alpha-beta)."""
        left = _size(hands)
        if left == 0:
            return 0
        key = (hands, leader)
        low, high = self.memo.get(key, (0, left))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        result = self._card(hands, leader, 0, None, -1, leader, alpha, beta)
        if result <= alpha:
            high = result
        elif result >= beta:
            low = result
        else:
            low = high = result
        self.memo[key] = (low, high)
        return result

    def _card(
        self,
        hands: _Hands,
        leader: int,
        position: int,
        lead_suit: int | None,
        best: int,
        winner: int,
        alpha: int,
        beta: int,
    ) -> int:
        seat = (leader + position) % 4
        maximizing = bool(self.maximizers >> seat & 1)
        result = -1 if maximizing else 99
        for card in _legal(hands[seat], lead_suit):
            after = list(hands)
            after[seat] ^= 1 << card
            played: _Hands = (after[0], after[1], after[2], after[3])
            if position == 0 or _beats(card, best, self.trump):
                new_best, new_winner = card, seat
            else:
                new_best, new_winner = best, winner
            if position == 3:
                won = self.counted >> new_winner & 1
                value = won + self.value(played, new_winner, alpha - won, beta - won)
            else:
                suit = card // 13 if position == 0 else lead_suit
                value = self._card(
                    played, leader, position + 1, suit, new_best, new_winner, alpha, beta
                )
            if maximizing:
                result = max(result, value)
                alpha = max(alpha, result)
            else:
                result = min(result, value)
                beta = min(beta, result)
            if alpha >= beta:
                break
        return result


class _ExactlyOne:
    """Whether the declarer, playing no trump against three, can take exactly one trick."""

    def __init__(self, declarer: int) -> None:
        self.declarer = declarer
        self.memo: dict[tuple[_Hands, int, int], bool] = {}

    def wins(self, hands: _Hands, leader: int, taken: int) -> bool:
        if taken > 1:
            return False
        if _size(hands) == 0:
            return taken == 1
        key = (hands, leader, taken)
        known = self.memo.get(key)
        if known is None:
            known = self._card(hands, leader, taken, 0, None, -1, leader)
            self.memo[key] = known
        return known

    def _card(
        self,
        hands: _Hands,
        leader: int,
        taken: int,
        position: int,
        lead_suit: int | None,
        best: int,
        winner: int,
    ) -> bool:
        seat = (leader + position) % 4
        for card in _legal(hands[seat], lead_suit):
            after = list(hands)
            after[seat] ^= 1 << card
            played: _Hands = (after[0], after[1], after[2], after[3])
            if position == 0 or _beats(card, best, NO_TRUMP):
                new_best, new_winner = card, seat
            else:
                new_best, new_winner = best, winner
            if position == 3:
                outcome = self.wins(played, new_winner, taken + (new_winner == self.declarer))
            else:
                suit = card // 13 if position == 0 else lead_suit
                outcome = self._card(
                    played, leader, taken, position + 1, suit, new_best, new_winner
                )
            if outcome == (seat == self.declarer):
                return outcome
        return seat != self.declarer


def tricks(
    hands: _Hands,
    trump: int,
    leader: int,
    counted: int,
    maximizers: int,
    guess: int = -1,
    lower: int = 0,
    upper: int = 13,
) -> int:
    """The counted seats' tricks with best play from both sides.

    ``guess`` and the bounds ``lower`` and ``upper`` only speed up the compiled search; this one,
    the reference, searches without them.
    """
    del guess, lower, upper
    return _Search(trump, counted, maximizers).value(hands, leader, -1, 99)


def at_least(hands: _Hands, trump: int, leader: int, counted: int, maximizers: int, k: int) -> bool:
    """Whether the maximizers can make the counted seats take at least ``k`` tricks."""
    return tricks(hands, trump, leader, counted, maximizers) >= k


def exactly_one(hands: _Hands, declarer: int, leader: int) -> bool:
    """Whether a lone declarer at no trump can take exactly one trick against three."""
    return _ExactlyOne(declarer).wins(hands, leader, 0)
