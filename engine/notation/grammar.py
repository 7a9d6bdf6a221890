"""The words of a result line: contracts, suits and flags in three languages, and their patterns.

Every alias is kept lower case, without accents; ``LEVELS`` and ``declarer_counts`` give the shape
each contract's line takes. The reader (``engine.notation.reader``) and the parser match these
patterns; the formatter writes ``CANONICAL_WORDS``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from engine.cards import Seat, Suit
from engine.results import LONE_CONTRACTS, PAIR_CONTRACTS, Contract, RondePasGame

GAMES: Final = ("kleurenwiezen", "wiezen", "israeli")
"""The games a line can be read for; ``israeli`` lines have their own form."""

MAX_TRICKS: Final = 13

LEVELS: Final[dict[Contract, range]] = {
    Contract.ACCEPT: range(8, 14),
    Contract.SOLO: range(5, 9),
    Contract.ABONDANCE: range(9, 13),
    Contract.TROEL: range(8, 10),
}
"""The levels each contract with levels can be bid at; the other contracts have no level."""

ISRAELI_LEVELS: Final = range(5, 14)

CANONICAL_WORDS: Final[dict[Contract, str]] = {
    Contract.PASS: "pass",
    Contract.ACCEPT: "acc",
    Contract.SOLO: "sol",
    Contract.ABONDANCE: "abon",
    Contract.SOLO_SLIM: "slim",
    Contract.SMALL_SOLO_SLIM: "sslim",
    Contract.GRAND_SOLO: "gsolo",
    Contract.TROEL: "troel",
    Contract.SMALL_MISERE: "smis",
    Contract.PICCOLO: "pic",
    Contract.MISERE: "mis",
    Contract.OPEN_MISERE: "omis",
}
"""The word ``format_result_line`` writes for each contract (an acceptance is written bare: ``9H``)."""


@dataclass(frozen=True, slots=True)
class ContractWord:
    """What a contract word means: the contract, and the level it implies when none is written."""

    contract: Contract
    level: int | None = None


# Every alias is written lower case, without accents, words separated by one space; in a line the
# words may be separated by spaces, "/" or "-", or written together ("soloslim").
_CONTRACT_WORDS: Final[tuple[tuple[ContractWord, str], ...]] = (
    (ContractWord(Contract.PASS), "pass | pas | passe | all pass | all passed | rondje pas"),
    (
        ContractWord(Contract.ACCEPT),
        "acc | accept | acceptance | proposal and acceptance | samen | vraag | vragen | meegaan"
        " | vragen meegaan | vragen en meegaan | emballage",
    ),
    (ContractWord(Contract.SOLO), "sol | solo | alleen | alleen gaan | seul"),
    (ContractWord(Contract.ABONDANCE), "abon | abond | abondance"),
    (
        ContractWord(Contract.SOLO_SLIM),
        "slim | solo slim | slam | solo slam | grand slam | chelem | grand chelem",
    ),
    (
        ContractWord(Contract.SMALL_SOLO_SLIM),
        "sslim | small solo slim | kleine solo slim | small slam | petit chelem",
    ),
    (ContractWord(Contract.GRAND_SOLO), "gsolo | grand solo"),
    (ContractWord(Contract.TROEL, 8), "troel | trull | trou"),
    (ContractWord(Contract.TROEL, 9), "troela"),
    (
        ContractWord(Contract.SMALL_MISERE),
        "smis | kmis | small misere | small misery | kleine miserie | kleine misere"
        " | petite misere",
    ),
    (ContractWord(Contract.PICCOLO), "pic | piccolo | picco | pico"),
    (
        ContractWord(Contract.MISERE),
        "mis | gmis | misere | misery | miserie | grand misere | grande misere | large misere"
        " | large misery | grote miserie",
    ),
    (
        ContractWord(Contract.OPEN_MISERE),
        "omis | open misere | open misery | open miserie | miserie op tafel | misere ouverte"
        " | misere etalee | grande misere ouverte | grande misere etalee",
    ),
)


def _aliases(listed: str) -> list[str]:
    return [alias.strip() for alias in listed.split("|")]


# Ronde Pas lines: an optional word for Ronde Pas itself, then the game and what decides it
# (``ronde last E``, ``dames N1 E2 S1 W0``). Not contract words: nobody declares a Ronde Pas.
# "rondje pas" (with j) stays an all-pass.
RONDE_PAS_WORDS: Final[list[str]] = _aliases(
    "ronde | ronde pas | totale miserie | total misery | misere totale"
)
"""The words that may open a Ronde Pas line (lower case, without accents)."""

_RONDE_PAS_GAME_WORDS: Final[tuple[tuple[RondePasGame, str], ...]] = (
    (
        RondePasGame.LAST_TRICK,
        "last | last trick | laatste | laatste slag | dernier | dernier pli",
    ),
    (RondePasGame.QUEENS, "queens | no queens | dames | vrouwen | geen dames | reines"),
    (
        RondePasGame.FEWEST_TRICKS,
        "tricks | fewest tricks | slagen | minste slagen | plis | moins de plis",
    ),
)
RONDE_PAS_GAME_ALIASES: Final[dict[str, RondePasGame]] = {
    alias: game for game, listed in _RONDE_PAS_GAME_WORDS for alias in _aliases(listed)
}
"""Every Ronde Pas game word the parser reads, and its game."""
RONDE_PAS_CANONICAL: Final[dict[RondePasGame, str]] = {
    RondePasGame.LAST_TRICK: "last",
    RondePasGame.QUEENS: "queens",
    RondePasGame.FEWEST_TRICKS: "tricks",
}


CONTRACT_ALIASES: Final[dict[str, Contract]] = {
    alias: word.contract for word, listed in _CONTRACT_WORDS for alias in _aliases(listed)
}
"""Every contract word the parser reads (lower case, without accents), and its contract."""

_SUIT_WORDS: Final[tuple[tuple[Suit, tuple[str, ...]], ...]] = (
    (Suit.H, ("h", "♥", "♡", "hearts", "heart", "harten", "hart", "coeur", "coeurs")),
    (Suit.D, ("d", "♦", "♢", "diamonds", "diamond", "ruiten", "ruit", "carreau", "carreaux")),
    (Suit.C, ("c", "♣", "♧", "clubs", "club", "klaveren", "klaver", "trefle", "trefles")),
    (Suit.S, ("s", "♠", "♤", "spades", "spade", "schoppen", "schop", "pique", "piques")),
)
_NO_TRUMP_WORDS: Final = ("nt", "sa", "no trump", "no trumps", "sans atout", "zonder troef")
_DOUBLED_WORDS: Final = ("dbl", "double", "doubled", "dubbel", "contre")
_AFTER_PASS_WORDS: Final = ("ap", "after pass", "after all pass")
_AMBIGUOUS_FLAGS: Final = ("x2",)

SEPARATOR: Final = r"[\s/-]*"
_LETTER: Final = "a-z"


def alias_key(alias: str) -> str:
    """An alias as it is looked up: without its spaces."""
    return alias.replace(" ", "")


def _alternation(aliases: Iterable[str]) -> str:
    """A regex alternative of the aliases, longest first so that ``pass`` wins over ``pas``."""
    ordered = sorted(set(aliases), key=lambda a: (-len(alias_key(a)), a))
    return "|".join(SEPARATOR.join(re.escape(w) for w in alias.split(" ")) for alias in ordered)


WORD_BY_KEY: Final[dict[str, ContractWord]] = {
    alias_key(alias): word for word, listed in _CONTRACT_WORDS for alias in _aliases(listed)
}
SUIT_BY_KEY: Final[dict[str, Suit | None]] = {
    **{alias_key(alias): suit for suit, aliases in _SUIT_WORDS for alias in aliases},
    **{alias_key(alias): None for alias in _NO_TRUMP_WORDS},
}
FLAG_BY_KEY: Final[dict[str, str]] = {
    **{alias_key(alias): "dbl" for alias in _DOUBLED_WORDS},
    **{alias_key(alias): "ap" for alias in _AFTER_PASS_WORDS},
    **{alias_key(alias): "ambiguous" for alias in _AMBIGUOUS_FLAGS},
}

# A contract word, optionally followed directly by a suit (``slimC``); neither may run on into
# further letters, so ``solos`` is a solo in spades and ``misc`` is refused, never misread.
CONTRACT_RE: Final = re.compile(
    rf"(?P<word>{_alternation(CONTRACT_ALIASES)})"
    rf"(?P<suit>[hdcs](?![{_LETTER}])|[♥♦♣♠♡♢♧♤])?(?![{_LETTER}])"
)
SUIT_RE: Final = re.compile(
    rf"(?:{_alternation([*(a for _, aliases in _SUIT_WORDS for a in aliases), *_NO_TRUMP_WORDS])})"
    rf"(?![{_LETTER}])"
)
FLAG_RE: Final = re.compile(
    rf"(?:{_alternation([*_DOUBLED_WORDS, *_AFTER_PASS_WORDS, *_AMBIGUOUS_FLAGS])})"
    rf"(?![{_LETTER}0-9])"
)
RONDE_PAS_RE: Final = re.compile(rf"(?:{_alternation(RONDE_PAS_WORDS)})(?![{_LETTER}])")
RONDE_PAS_GAME_RE: Final = re.compile(rf"(?:{_alternation(RONDE_PAS_GAME_ALIASES)})(?![{_LETTER}])")
RONDE_PAS_GAME_BY_KEY: Final[dict[str, RondePasGame]] = {
    alias_key(alias): game for alias, game in RONDE_PAS_GAME_ALIASES.items()
}
NUMBER_RE: Final = re.compile(r"[0-9]+")
STRAY_SEATS_RE: Final = re.compile(r"[nesw,]+(?:\s|$)")
SEAT_LETTERS: Final = {"n": Seat.N, "e": Seat.E, "s": Seat.S, "w": Seat.W}


def declarer_counts(contract: Contract) -> range:
    """How many declarers a line of the contract names."""
    if contract in PAIR_CONTRACTS:
        return range(2, 3)
    if contract in LONE_CONTRACTS:
        return range(1, 2)
    if contract.is_negative:
        return range(1, 5)
    return range(0, 1)


def declarer_count_kind(counts: range) -> str:
    """How many declarers a contract has, as the end of its error codes (``declarers_two``)."""
    if counts.stop - counts.start == 1:
        return {0: "none", 1: "one", 2: "two"}[counts.start]
    return "one_to_four"
