# The compiled search (_solver.c). Hands are four 52-bit card masks over Card.index; trump is a
# Suit.value or 4 for no trump; seats are Seat.value and seat sets are bit masks.

def at_least(
    hands: tuple[int, int, int, int],
    trump: int,
    leader: int,
    counted: int,
    maximizers: int,
    k: int,
    /,
) -> bool: ...
def tricks(
    hands: tuple[int, int, int, int],
    trump: int,
    leader: int,
    counted: int,
    maximizers: int,
    guess: int,
    lower: int = 0,
    upper: int = 13,
    /,
) -> int: ...
def exactly_one(hands: tuple[int, int, int, int], declarer: int, leader: int, /) -> bool: ...
def nodes() -> int: ...
def clear() -> None: ...
