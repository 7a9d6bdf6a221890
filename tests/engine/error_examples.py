"""One input for each coded error a person can meet, raised through the engine's public functions.

``EXAMPLES`` maps a code to a call that raises it: a result line, a result that the ruleset or the
notation refuses, a movement or board plan that cannot be made. The engine's tests check that each
error's text is its code's message; the site's tests check that each code has a translation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

from engine import boardsets, notation_messages, validation
from engine import ruleset as rulesets
from engine.boardsets import BoardPlan, TableBoards
from engine.cards import Seat, Suit
from engine.errors import EngineError
from engine.movements import Movement, layout, plan_movement, planner, replan
from engine.notation import format_result_line, parse_result_line
from engine.results import (
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
)
from engine.ruleset import Ruleset, load_builtin, load_ruleset, ruleset_to_mapping
from engine.validation import validate

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
H = Suit.H

SOURCES: Mapping[str, Mapping[str, str]] = {
    "engine.notation_messages": notation_messages.MESSAGES,
    "engine.validation": validation.MESSAGES,
    "engine.ruleset": rulesets.MESSAGES,
    "engine.movements.layout": layout.MESSAGES,
    "engine.movements.planner": planner.MESSAGES,
    "engine.boardsets": boardsets.MESSAGES,
}
"""The modules whose errors carry codes, and their English messages."""

UNREACHABLE = frozenset(
    {
        # The reader checks a space before every part of a line, but the seats, a contract and
        # the bids already end at a space or at the end of the line.
        "space_before_contract",
        "space_before_tricks",
        "space_before_bids",
        # A contract's level is only read where a digit stands.
        "expected_level",
        # A line names each seat at most once, so a misère always has one to four declarers.
        "declarers_one_to_four",
    }
)
"""Codes of a result line that the grammar never reaches, though the checks that raise them run."""


def line(text: str, game: str = "kleurenwiezen") -> Callable[[], object]:
    return lambda: parse_result_line(text, game)


def written(result: AnyResult) -> Callable[[], object]:
    return lambda: format_result_line(result)


def checked(result: AnyResult, ruleset: str = "whisthub") -> Callable[[], object]:
    return lambda: validate(load_builtin(ruleset), result)


@cache
def _eight() -> Movement:
    return plan_movement(8, 3)


@cache
def _thirteen() -> Movement:
    """Three tables and a bye in each of four rounds."""
    return plan_movement(13, 4)


@cache
def _israeli_without_no_trump() -> Ruleset:
    document = ruleset_to_mapping(load_builtin("israeli"))
    document["name"] = "israeli-suits"
    document["options"]["trump_order"] = ["C", "D", "H", "S"]
    return load_ruleset(document)


@cache
def _wiezen_ronde_pas() -> Ruleset:
    document = ruleset_to_mapping(load_builtin("iwwa-wiezen"))
    document["name"] = "wiezen-ronde-pas"
    document["auction"]["ronde_pas"] = True
    return load_ruleset(document)


def _ronde_pas(result: AnyResult) -> Callable[[], object]:
    return lambda: validate(_wiezen_ronde_pas(), result)


LAST_TRICK, QUEENS, FEWEST_TRICKS = (
    RondePasGame.LAST_TRICK,
    RondePasGame.QUEENS,
    RondePasGame.FEWEST_TRICKS,
)


def _plan(rounds: list[list[TableBoards]], sets: int | None = None) -> Callable[[], object]:
    plan = BoardPlan(1, tuple(tuple(tables) for tables in rounds), sets)
    return lambda: boardsets.check_board_plan(_eight(), plan)


def _boards(round: int, *boards: int, board_set: int | None = None) -> list[TableBoards]:
    return [TableBoards(round, table, (board,), board_set) for table, board in enumerate(boards, 1)]


def _israeli(
    level: int = 7,
    bids: tuple[int, int, int, int] = (7, 2, 0, 3),
    tricks: tuple[int, int, int, int] | None = (6, 2, 1, 4),
) -> IsraeliResult:
    return IsraeliResult(N, level, None, bids, tricks)


def _misere(seats: tuple[Seat, ...], tricks: tuple[int, ...]) -> BoardResult:
    return BoardResult(Contract.MISERE, declarers=seats, declarer_tricks=tricks)


SOLO_6 = BoardResult(Contract.SOLO, 6, H, (N,), 6)

EXAMPLES: Mapping[str, Callable[[], object]] = {
    # -- reading a line --------------------------------------------------------------------------
    "empty_line": line(""),
    "empty_israeli_line": line("  ", "israeli"),
    "seats_before_contract": line("sol6S 5"),
    "expected_seat": line("X 9H 10"),
    "seat_twice": line("NN 9H 10"),
    "space_after_seats": line("NE. 9H 10"),
    "missing_contract": line("NE"),
    "seats_with_spaces": line("N S 9H 10"),
    "expected_contract": line("NE xyz 10"),
    "pass_with_seats": line("NE pass"),
    "suit_without_trumps": line("W misc 0"),
    "level_out_of_range": line("NE 14H 10"),
    "level_before_suit": line("W sol S 5"),
    "wiezen_solo_level_before_suit": line("W sol S 5", "wiezen"),
    "expected_trump": line("W sol6 5"),
    "expected_trump_after_level": line("NE 9X 10"),
    "no_trump_not_israeli": line("NE 9NT 10"),
    "space_after_contract": line("NE 9H, 10"),
    "declarers_one": line("NE sol6S 5"),
    "declarers_two": line("N 9H 10"),
    "missing_tricks": line("NE 9H"),
    "expected_side_tricks": line("NE 9H x"),
    "side_tricks_out_of_range": line("NE 9H 14"),
    "one_trick_count": line("NE 9H 10,1"),
    "expected_declarer_tricks": line("N,S mis 0,x"),
    "declarer_tricks_out_of_range": line("N mis 14"),
    "too_many_trick_counts": line("N mis 0,1"),
    "too_few_trick_counts": line("N,S mis 0"),
    "space_after_tricks": line("NE 9H 10x"),
    "expected_flag": line("NE 9H 10 xyz"),
    "ambiguous_flag": line("NE 9H 10 x2"),
    "flag_twice": line("NE 9H 10 dbl dbl"),
    "space_after_flag": line("NE 9H 10 dbl,"),
    "expected_israeli_declarer": line("X 7NT", "israeli"),
    "israeli_one_declarer": line("NE 7NT", "israeli"),
    "space_before_israeli_contract": line("N.7NT", "israeli"),
    "missing_israeli_contract": line("N", "israeli"),
    "expected_israeli_level": line("N NT", "israeli"),
    "israeli_level_out_of_range": line("N 4NT", "israeli"),
    "expected_israeli_trump": line("N 7X", "israeli"),
    "missing_bids": line("N 7NT", "israeli"),
    "expected_bid": line("N 7NT x", "israeli"),
    "bid_out_of_range": line("N 7NT 14", "israeli"),
    "too_many_bids": line("N 7NT 7,2,0,3,1", "israeli"),
    "too_few_bids": line("N 7NT 7,2,0 6,2,1,4", "israeli"),
    "space_before_player_tricks": line("N 7NT 7,2,0,3x", "israeli"),
    "missing_player_tricks": line("N 7NT 7,2,0,3", "israeli"),
    "expected_player_tricks": line("N 7NT 7,2,0,3 x", "israeli"),
    "player_tricks_out_of_range": line("N 7NT 7,2,0,3 14", "israeli"),
    "expected_end": line("N 7NT 7,2,0,3 6,2,1,4 x", "israeli"),
    # -- writing a line --------------------------------------------------------------------------
    "israeli_not_board_result": written(BoardResult(Contract.ISRAELI, 7, H, (N,), 7)),
    "israeli_level_range": written(_israeli(level=4, bids=(4, 2, 0, 3))),
    "bids_range": written(_israeli(bids=(7, 14, 0, 3))),
    "seat_tricks_range": written(_israeli(tricks=(14, 0, 0, 0))),
    "contract_level_range": written(BoardResult(Contract.ACCEPT, 14, H, (N, E), 10)),
    "contract_has_no_level": written(BoardResult(Contract.MISERE, 8, None, (N,), None, (0,))),
    "contract_needs_trump": written(BoardResult(Contract.SOLO, 6, None, (N,), 6)),
    "contract_has_no_trump": written(BoardResult(Contract.MISERE, None, H, (N,), None, (0,))),
    "result_declarers_none": written(BoardResult(Contract.PASS, declarers=(N,))),
    "result_declarers_one": written(BoardResult(Contract.SOLO, 6, H, (N, E), 6)),
    "result_declarers_two": written(BoardResult(Contract.ACCEPT, 9, H, (N,), 9)),
    "result_declarers_one_to_four": written(_misere((N, N), (0, 0))),
    "misere_tricks_per_declarer": written(BoardResult(Contract.MISERE, declarers=(N,), tricks=0)),
    "declarer_tricks_count": written(_misere((N, S), (0,))),
    "one_trick_count_in_tricks": written(BoardResult(Contract.SOLO, 6, H, (N,), None, (6,))),
    "pass_has_no_tricks": written(BoardResult(Contract.PASS, tricks=0)),
    "tricks_range": written(BoardResult(Contract.SOLO, 6, H, (N,), 14)),
    # -- what the ruleset allows -----------------------------------------------------------------
    "contract_not_allowed": checked(BoardResult(Contract.PICCOLO, None, None, (N,), None, (1,))),
    "israeli_as_board_result": checked(BoardResult(Contract.ISRAELI, 7, H, (N,), 7)),
    "pass_with_level": checked(BoardResult(Contract.PASS, level=8)),
    "pass_with_trump": checked(BoardResult(Contract.PASS, trump=H)),
    "pass_with_declarers": checked(BoardResult(Contract.PASS, declarers=(N,))),
    "pass_with_tricks": checked(BoardResult(Contract.PASS, tricks=0)),
    "pass_with_doubled": checked(BoardResult(Contract.PASS, doubled=True)),
    "trump_missing": checked(BoardResult(Contract.SOLO, 6, None, (N,), 6)),
    "trump_not_played": checked(BoardResult(Contract.MISERE, None, H, (N,), None, (0,))),
    "no_announced_double": checked(BoardResult(Contract.SOLO, 6, H, (N,), 6, doubled=True)),
    "level_not_bid": checked(BoardResult(Contract.MISERE, 8, None, (N,), None, (0,))),
    "level_missing": checked(BoardResult(Contract.SOLO, None, H, (N,), 6)),
    "level_not_allowed": checked(BoardResult(Contract.SOLO, 9, H, (N,), 9)),
    "declarer_count": checked(BoardResult(Contract.SOLO, 6, H, (N, E), 6)),
    "declarers_count": checked(BoardResult(Contract.ACCEPT, 9, H, (N,), 9)),
    "declarers_count_range": checked(_misere((), ())),
    "declarer_twice": checked(BoardResult(Contract.ACCEPT, 9, H, (N, N), 9)),
    "side_tricks_per_declarer": checked(BoardResult(Contract.SOLO, 6, H, (N,), None, (6,))),
    "side_tricks_missing": checked(BoardResult(Contract.SOLO, 6, H, (N,))),
    "side_tricks_range": checked(BoardResult(Contract.SOLO, 6, H, (N,), 14)),
    "negative_tricks_one_number": checked(BoardResult(Contract.MISERE, declarers=(N,), tricks=0)),
    "negative_tricks_missing": checked(_misere((N,), ())),
    "negative_tricks_declarers": checked(_misere((N, S), (0,))),
    "seat_tricks_out_of_range": checked(_misere((N,), (14,))),
    "declarer_tricks_total": checked(_misere((N, E, S, W), (13, 1, 0, 0))),
    "not_israeli_ruleset": checked(_israeli()),
    "no_such_trump": lambda: validate(_israeli_without_no_trump(), _israeli()),
    "seat_bid_out_of_range": checked(_israeli(bids=(7, 14, 0, 3)), "israeli"),
    "declarer_bid": checked(_israeli(bids=(6, 2, 0, 3)), "israeli"),
    "bids_total": checked(_israeli(bids=(7, 2, 0, 4)), "israeli"),
    "player_tricks_missing": checked(_israeli(tricks=None), "israeli"),
    "tricks_total": checked(_israeli(tricks=(6, 2, 1, 3)), "israeli"),
    # -- movements and board plans ---------------------------------------------------------------
    "too_few_players": lambda: plan_movement(3, 2),
    "too_many_players": lambda: plan_movement(4001, 2),
    "tables_of_five_impossible": lambda: plan_movement(7, 2, tables_of_five=True),
    "played_rounds_out_of_range": lambda: replan(_eight(), 4, range(1, 9)),
    "fewer_rounds_than_played": lambda: replan(_eight(), 2, range(1, 9), rounds=1),
    "players_not_a_count": lambda: plan_movement(True, 2),
    "bad_player_number": lambda: plan_movement([0, 1, 2, 3], 2),
    "players_listed_twice": lambda: plan_movement([1, 1, 2, 3, 4], 2),
    "rounds_out_of_range": lambda: plan_movement(8, 0),
    "no_such_table": lambda: boardsets.same_boards(_eight(), 2).boards_at(9, 9),
    "bad_share": lambda: boardsets.travelling_sets(_eight(), 8, 2, share=3),
    "too_few_sets_for_tables": lambda: boardsets.travelling_sets(_thirteen(), 2, 2),
    "too_few_sets_for_shared_tables": lambda: boardsets.travelling_sets(_thirteen(), 1, 2, share=2),
    "too_few_sets_for_rounds": lambda: boardsets.travelling_sets(_thirteen(), 3, 2),
    # -- Ronde Pas ---------------------------------------------------------------------------------
    "ronde_pas_expected_game": line("ronde pas E", "wiezen"),
    "ronde_pas_expected_seat": line("ronde last X", "wiezen"),
    "expected_seat_queens": line("dames 1,2,1,0", "wiezen"),
    "expected_seat_tricks": line("ronde tricks", "wiezen"),
    "expected_queens": line("ronde queens N E2", "wiezen"),
    "queens_out_of_range": line("ronde queens N5", "wiezen"),
    "queens_seats_missing": line("ronde queens N1 E2 S1", "wiezen"),
    "tricks_seats_missing": line("plis N3, E4", "wiezen"),
    "ronde_pas_not_board_result": written(BoardResult(Contract.RONDE_PAS)),
    "ronde_pas_field_missing": written(RondePasResult(QUEENS)),
    "ronde_pas_field_extra": written(RondePasResult(LAST_TRICK, N, queens=(1, 1, 1, 1))),
    "queens_range": written(RondePasResult(QUEENS, queens=(5, 0, 0, 0))),
    "ronde_pas_as_board_result": _ronde_pas(BoardResult(Contract.RONDE_PAS)),
    "ronde_pas_not_wiezen": checked(RondePasResult(LAST_TRICK, N)),
    "ronde_pas_not_played": checked(RondePasResult(LAST_TRICK, N), "iwwa-wiezen"),
    "ronde_pas_last_trick_missing": _ronde_pas(RondePasResult(LAST_TRICK)),
    "ronde_pas_queens_missing": _ronde_pas(RondePasResult(QUEENS)),
    "ronde_pas_tricks_missing": _ronde_pas(RondePasResult(FEWEST_TRICKS)),
    "ronde_pas_other_field": _ronde_pas(RondePasResult(FEWEST_TRICKS, N, tricks=(3, 4, 2, 4))),
    "seat_queens_out_of_range": _ronde_pas(RondePasResult(QUEENS, queens=(0, 5, 0, 0))),
    "queens_total": _ronde_pas(RondePasResult(QUEENS, queens=(1, 1, 1, 0))),
    "no_set_plan": lambda: boardsets.travelling_sets(_thirteen(), 5, 2),
    "no_shared_set_plan": lambda: boardsets.travelling_sets(_thirteen(), 5, 2, share=2),
    "plan_rounds_mismatch": _plan([_boards(1, 1, 1)]),
    "plan_tables_mismatch": _plan([_boards(1, 1), _boards(2, 2), _boards(3, 3)]),
    "set_at_tables": _plan(
        [_boards(r, r, r, board_set=1) for r in (1, 2, 3)],
        sets=1,
    ),
    "board_twice": _plan([_boards(1, 1, 2), _boards(2, 1, 2), _boards(3, 3, 4)]),
    "not_positive": lambda: boardsets.same_boards(_eight(), 0),
}


def raised(code: str) -> EngineError:
    """The error that ``EXAMPLES[code]`` raises."""
    try:
        EXAMPLES[code]()
    except EngineError as error:
        return error
    raise AssertionError(f"{code}: the example raised nothing")
