"""Result lines: one board result on one short line, for keying paper score sheets quickly.

    NE 9H 10                 N and E accept 9 in hearts and win 10 tricks
    W sol6S 5                W plays a solo for 6 in spades and wins 5 tricks
    N,S mis 0,1              N and S play grand misère; N wins no trick, S wins one
    NW troel8H 9 dbl         troel in hearts, 9 tricks, doubled by an opponent
    pass                     all passed
    N 7NT 7,2,0,3 6,2,1,4    Israeli Whist: N declares 7 no trump; bids, then tricks, of N E S W
    ronde queens N1 E2 S1 W0 Wiezen's Ronde Pas after an all-pass: the queens each seat took

A line is: the declarers' seats, the contract, the tricks, then optional flags (``dbl``: an
opponent announced double; ``ap``: the previous deal at the table was passed out). Contract words
are read in English, Dutch or French, in any case and with or without accents; suits as the
letters H D C S, the symbols ♥♦♣♠ or full Dutch, French and English names. The grammar, every
alias and the error messages are described for tournament directors in docs/notation.md.

``parse_result_line`` checks the shape only (seats, levels, numbers from 0 to 13); whether the
event's ruleset allows the contract, and whether the tricks add up, is ``engine.validation``'s
business. ``format_result_line`` always writes the canonical English short form, and
``parse_result_line(format_result_line(r)) == r`` for every result the notation can express.
Every error is a ``ParseError`` whose ``position`` is the offending character of the line and
whose message starts with its column and says what was expected there. Its ``code`` and
``params`` name the message in ``engine.notation_messages.MESSAGES``, for other languages.

The modules: ``grammar`` (the words and the patterns that match them), ``reader`` (a cursor over
the line that raises the errors), ``parsing`` and ``formatting``.
"""

from engine.notation.formatting import format_result_line
from engine.notation.grammar import (
    CANONICAL_WORDS,
    CONTRACT_ALIASES,
    GAMES,
    ISRAELI_LEVELS,
    LEVELS,
    RONDE_PAS_GAME_ALIASES,
    RONDE_PAS_WORDS,
)
from engine.notation.parsing import parse_result_line
from engine.notation_messages import MESSAGES

__all__ = [
    "CANONICAL_WORDS",
    "CONTRACT_ALIASES",
    "GAMES",
    "ISRAELI_LEVELS",
    "LEVELS",
    "MESSAGES",
    "RONDE_PAS_GAME_ALIASES",
    "RONDE_PAS_WORDS",
    "format_result_line",
    "parse_result_line",
]
