"""The English error messages of result lines, by stable code.

``engine.notation`` raises ``ParseError`` (reading a line) and ``InvalidResultError`` (writing a
result no line can express) with a ``code`` from ``MESSAGES`` and the ``params`` its format string
names, so an application can show the same error in another language. Read errors all start with
the column of the offending character (``column`` is ``position + 1``).

Some parameters are codes rather than words, and ``message`` puts them into English:

- ``the_contract``: a contract token (``Contract.value``), written "the acceptance", "the solo";
- ``a_contract``: a contract token, written with its article ("an abondance", "a misère");
- ``found``: what stands at the column, quoted as Python would (``'15H'``), or ``""`` at the end of
  the line, written "the end of the line".

Seats (``N``), numbers and examples are given as the line writes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.errors import Params
from engine.results import Contract

MESSAGES: Final[Mapping[str, str]] = {
    # -- reading a line: the start ---------------------------------------------------------------
    "empty_line": "column {column}: expected a result, found an empty line: e.g. NE 9H 10 or pass",
    "empty_israeli_line": (
        "column {column}: expected a result, found an empty line: e.g. N 7NT 7,2,0,3 6,2,1,4"
    ),
    "seats_before_contract": (
        "column {column}: expected the declarers' seats (e.g. NE or N,S) before the contract, "
        "found {found}"
    ),
    "expected_seat": "column {column}: expected a seat (N, E, S or W), found {found}",
    "seat_twice": "column {column}: seat {seat} is named twice",
    "space_after_seats": "column {column}: expected a space after the seats, found {found}",
    # -- the contract ----------------------------------------------------------------------------
    "space_before_contract": (
        "column {column}: expected a space before the contract (e.g. 9H, sol6S, mis), found {found}"
    ),
    "missing_contract": (
        "column {column}: expected the contract (e.g. 9H, sol6S, mis), found the end of the line"
    ),
    "seats_with_spaces": (
        "column {column}: expected the contract; several declarers are written together (NE) "
        "or with commas (N,E), not with spaces"
    ),
    "expected_contract": (
        "column {column}: expected a contract (e.g. 9H, sol6S, abon10D, troel H, slim C, mis, "
        "pic), found {found}"
    ),
    "pass_with_seats": (
        "column {column}: pass is a line on its own: it takes no seats, contract or tricks"
    ),
    "suit_without_trumps": "column {column}: {a_contract} is played without trumps",
    "expected_level": "column {column}: expected the level of {the_contract}, found {found}",
    "level_out_of_range": (
        "column {column}: expected the level of {the_contract}, found {number}: it must be {low} "
        "to {high}"
    ),
    "level_before_suit": (
        "column {column}: expected the level of {the_contract} ({low} to {high}) before the suit, "
        "e.g. {example}, found {found}"
    ),
    "wiezen_solo_level_before_suit": (
        "column {column}: expected the level of {the_contract} ({low} to {high}) before the suit, "
        "e.g. {example}; a Wiezen solo for 13 tricks in the turned trump is gsolo, found {found}"
    ),
    "expected_trump": (
        "column {column}: expected the trump suit (H, D, C or S) of {the_contract}, found {found}"
    ),
    "expected_trump_after_level": (
        "column {column}: expected the trump suit (H, D, C or S) after the level, found {found}"
    ),
    "no_trump_not_israeli": (
        "column {column}: no trump exists only in Israeli Whist; give a suit H, D, C or S"
    ),
    "space_after_contract": "column {column}: expected a space after the contract, found {found}",
    "declarers_one": "column {column}: {a_contract} has one declarer, found {count}",
    "declarers_two": "column {column}: {a_contract} has two declarers (e.g. NE), found {count}",
    "declarers_one_to_four": (
        "column {column}: {a_contract} has one to four declarers (e.g. N or N,S), found {count}"
    ),
    # -- the tricks and the flags ----------------------------------------------------------------
    "space_before_tricks": (
        "column {column}: expected a space before the tricks won (0 to 13, or ? when not played "
        "yet), found {found}"
    ),
    "missing_tricks": (
        "column {column}: expected the tricks won (0 to 13, or ? when not played yet), found the "
        "end of the line"
    ),
    "expected_side_tricks": (
        "column {column}: expected the tricks won by the declaring side, found {found}"
    ),
    "side_tricks_out_of_range": (
        "column {column}: expected the tricks won by the declaring side, found {number}: it must "
        "be {low} to {high}"
    ),
    "one_trick_count": (
        "column {column}: {a_contract} takes one trick count, the declaring side's together; "
        "only misère contracts give each declarer's own"
    ),
    "expected_declarer_tricks": "column {column}: expected the tricks won by {seat}, found {found}",
    "declarer_tricks_out_of_range": (
        "column {column}: expected the tricks won by {seat}, found {number}: it must be {low} to "
        "{high}"
    ),
    "too_many_trick_counts": (
        "column {column}: expected {count} trick counts ({seats}), e.g. {example}; found more"
    ),
    "too_few_trick_counts": (
        "column {column}: expected {count} trick counts ({seats}) separated by commas, e.g. "
        "{example}; found {given}"
    ),
    "space_after_tricks": "column {column}: expected a space after the tricks, found {found}",
    "expected_flag": "column {column}: expected dbl, ap or the end of the line, found {found}",
    "ambiguous_flag": (
        "column {column}: {found} is ambiguous: write dbl when an opponent announced double, or "
        "ap when the previous deal was passed out"
    ),
    "flag_twice": "column {column}: {flag} is given twice",
    "space_after_flag": "column {column}: expected a space after the flag, found {found}",
    # -- Israeli Whist lines ---------------------------------------------------------------------
    "expected_israeli_declarer": (
        "column {column}: expected the declarer's seat (N, E, S or W), e.g. N 7NT 7,2,0,3 "
        "6,2,1,4, found {found}"
    ),
    "israeli_one_declarer": "column {column}: an Israeli Whist contract has one declarer",
    "space_before_israeli_contract": (
        "column {column}: expected a space before the contract (e.g. 7NT or 9H), found {found}"
    ),
    "missing_israeli_contract": (
        "column {column}: expected the contract (e.g. 7NT or 9H), found the end of the line"
    ),
    "expected_israeli_level": "column {column}: expected the contract's level, found {found}",
    "israeli_level_out_of_range": (
        "column {column}: expected the contract's level, found {number}: it must be {low} to {high}"
    ),
    "expected_israeli_trump": (
        "column {column}: expected the trump suit (H, D, C, S or NT) after the level, found {found}"
    ),
    "space_before_bids": (
        "column {column}: expected a space before the four bids in the order N, E, S, W, found "
        "{found}"
    ),
    "missing_bids": (
        "column {column}: expected the four bids in the order N, E, S, W, found the end of the line"
    ),
    "expected_bid": "column {column}: expected the bid of {seat}, found {found}",
    "bid_out_of_range": (
        "column {column}: expected the bid of {seat}, found {number}: it must be {low} to {high}"
    ),
    "too_many_bids": "column {column}: expected {count} bids ({seats}), e.g. {example}; found more",
    "too_few_bids": (
        "column {column}: expected {count} bids ({seats}) separated by commas, e.g. {example}; "
        "found {given}"
    ),
    "space_before_player_tricks": (
        "column {column}: expected a space before the four trick counts in the order N, E, S, W, "
        "or ? when not played yet, found {found}"
    ),
    "missing_player_tricks": (
        "column {column}: expected the four trick counts in the order N, E, S, W, or ? when not "
        "played yet, found the end of the line"
    ),
    "expected_player_tricks": "column {column}: expected the tricks of {seat}, found {found}",
    "player_tricks_out_of_range": (
        "column {column}: expected the tricks of {seat}, found {number}: it must be {low} to {high}"
    ),
    "expected_end": "column {column}: expected the end of the line, found {found}",
    # -- reading a line: Ronde Pas (Wiezen, after an all-pass) ------------------------------------
    "ronde_pas_expected_game": (
        "column {column}: expected the Ronde Pas game (last, queens or tricks), found {found}"
    ),
    "ronde_pas_expected_seat": (
        "column {column}: expected the seat that won the last trick (N, E, S or W), found {found}"
    ),
    "expected_seat_queens": (
        "column {column}: expected a seat and the queens it took, e.g. N1 E2 S1 W0, found {found}"
    ),
    "expected_seat_tricks": (
        "column {column}: expected a seat and the tricks it took, e.g. N3 E4 S2 W4, found {found}"
    ),
    "expected_queens": "column {column}: expected the queens of {seat}, found {found}",
    "queens_out_of_range": (
        "column {column}: expected the queens of {seat}, found {number}: it must be {low} to {high}"
    ),
    "queens_seats_missing": (
        "column {column}: expected the queens of every seat, e.g. N1 E2 S1 W0; {seats} missing"
    ),
    "tricks_seats_missing": (
        "column {column}: expected the tricks of every seat, e.g. N3 E4 S2 W4; {seats} missing"
    ),
    # -- writing a line: results no line can express ---------------------------------------------
    "israeli_not_board_result": "an Israeli Whist result is an IsraeliResult, not a BoardResult",
    "israeli_level_range": "level must be {low} to {high}",
    "bids_range": "bids.{seat} must be 0 to {high}",
    "seat_tricks_range": "tricks.{seat} must be 0 to {high}",
    "contract_level_range": "the level of {a_contract} must be {low} to {high} (got {level})",
    "contract_has_no_level": "{a_contract} has no level",
    "contract_needs_trump": "{a_contract} needs a trump suit",
    "contract_has_no_trump": "{a_contract} has no trump suit",
    "result_declarers_none": "{a_contract} has no declarers, found {count} (each seat once)",
    "result_declarers_one": "{a_contract} has one declarer, found {count} (each seat once)",
    "result_declarers_two": (
        "{a_contract} has two declarers (e.g. NE), found {count} (each seat once)"
    ),
    "result_declarers_one_to_four": (
        "{a_contract} has one to four declarers (e.g. N or N,S), found {count} (each seat once)"
    ),
    "misere_tricks_per_declarer": (
        "a misère contract gives each declarer's tricks in declarer_tricks"
    ),
    "declarer_tricks_count": "declarer_tricks must give one count for each declarer",
    "one_trick_count_in_tricks": "{a_contract} has one trick count, in tricks",
    "pass_has_no_tricks": "a passed deal has no tricks",
    "tricks_range": "tricks must be 0 to {high} (got {count})",
    "ronde_pas_not_board_result": "a Ronde Pas result is a RondePasResult, not a BoardResult",
    "ronde_pas_field_missing": "the {game} game of Ronde Pas needs {item}",
    "ronde_pas_field_extra": "the {game} game of Ronde Pas has no {item}",
    "queens_range": "queens.{seat} must be 0 to {high}",
}
"""Every code of a result line's errors and its English message, parameters named in braces."""

NAMES: Final[Mapping[Contract, str]] = {
    Contract.PASS: "pass",
    Contract.ACCEPT: "acceptance",
    Contract.SOLO: "solo",
    Contract.ABONDANCE: "abondance",
    Contract.SOLO_SLIM: "solo slim",
    Contract.SMALL_SOLO_SLIM: "small solo slim",
    Contract.GRAND_SOLO: "grand solo",
    Contract.TROEL: "troel",
    Contract.SMALL_MISERE: "small misère",
    Contract.PICCOLO: "piccolo",
    Contract.MISERE: "misère",
    Contract.OPEN_MISERE: "open misère",
    Contract.RONDE_PAS: "Ronde Pas",
}
"""The contracts' English names in these messages (an Israeli contract has its own messages)."""


def with_article(contract: Contract) -> str:
    """The contract's English name after "a" or "an": "an acceptance", "a solo"."""
    name = NAMES[contract]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def message(code: str, params: Params) -> str:
    """The English message of ``code``, with contract tokens and ``found`` put into words."""
    words = dict(params)
    if "the_contract" in words:
        words["the_contract"] = f"the {NAMES[Contract(words['the_contract'])]}"
    if "a_contract" in words:
        words["a_contract"] = with_article(Contract(words["a_contract"]))
    if "found" in words:
        words["found"] = words["found"] or "the end of the line"
    return MESSAGES[code].format(**words)
