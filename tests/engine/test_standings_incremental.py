"""Standings that follow an event's changes (``Memo``) against the same standings computed afresh.

Each test plays a random sequence of saves, corrections and withdrawals of results on a random
event, keeps the unchanged records as the very same objects (as the Django side does) and checks
after every step that the memo's outcome is exactly the outcome without it.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.comparison import Artificial, Weighted
from engine.standings import (
    BoardScore,
    Field,
    Memo,
    Method,
    Standings,
    TableResult,
    board_scores_text,
    board_scores_to_json,
    standings,
)
from tests.engine.test_standings import fields, four


def played(number: int, like: TableResult, scores: tuple[int, int, int, int]) -> TableResult:
    return TableResult.played(number, like.round, like.table, like.board, like.players, scores)


@st.composite
def changes(draw: st.DrawFn, like: TableResult, number: int) -> TableResult | None:
    """What a table's result on a board becomes: a correction, an adjusted score, or nothing."""
    kind = draw(st.integers(0, 9))
    scores = four(draw(st.integers(-60, 60)) for _ in range(4))
    if kind == 0:
        return None  # the result was keyed at the wrong table and is gone
    if kind == 1:
        award = draw(st.sampled_from([Fraction(60), Fraction(50), Fraction(40)]))
        return dataclasses.replace(
            like, result=number, entries=(Artificial(award),) * 4, scores=(None,) * 4,
            head_to_head=None,
        )  # fmt: skip
    if kind == 2:
        weighted = four(Weighted.of((Fraction(1, 2), s), (Fraction(1, 2), -s)) for s in scores)
        return dataclasses.replace(
            like, result=number, entries=weighted,
            scores=four(round(w.expected_score) for w in weighted), head_to_head=scores,
        )  # fmt: skip
    return played(number, like, scores)


@st.composite
def histories(draw: st.DrawFn) -> list[Field]:
    """An event, then the same event after each of a few saves; unchanged records stay the
    very same objects from one field to the next."""
    field = draw(fields())
    steps = [field]
    removed: list[TableResult] = []
    number = 1000
    for _ in range(draw(st.integers(1, 6))):
        results = list(steps[-1].results)
        if removed and draw(st.booleans()):
            results.append(removed.pop())  # keyed again, as a new version
        elif results:
            at = draw(st.integers(0, len(results) - 1))
            number += 1
            after = draw(changes(results[at], number))
            if after is None:
                removed.append(results.pop(at))
            else:
                results[at] = after
        if draw(st.integers(0, 5)) == 0 and steps[-1].expected:
            board = draw(st.sampled_from(sorted(steps[-1].expected)))
            expected = {**steps[-1].expected, board: steps[-1].expected[board] + 1}
            steps.append(dataclasses.replace(steps[-1], results=tuple(results), expected=expected))
        else:
            steps.append(dataclasses.replace(steps[-1], results=tuple(results)))
    return steps


def afresh(field: Field) -> Standings:
    # A copy of every record: nothing the memo could recognise.
    return standings(
        dataclasses.replace(field, results=tuple(dataclasses.replace(r) for r in field.results))
    )


@settings(max_examples=300, deadline=None)
@given(histories())
def test_the_standings_after_each_save_are_those_computed_afresh(steps: list[Field]) -> None:
    memo = Memo()
    for field in steps:
        assert standings(field, memo) == afresh(field)


@settings(max_examples=100, deadline=None)
@given(histories(), st.sampled_from(list(Method)), st.sampled_from(
    [("total",), ("boards_won", "total"), ("total", "head_to_head", "tops")]
))  # fmt: skip
def test_a_change_of_method_or_tie_break_is_computed_afresh(
    steps: list[Field], method: Method, tie_break: tuple[str, ...]
) -> None:
    memo = Memo()
    standings(steps[0], memo)
    changed = dataclasses.replace(steps[-1], method=method, tie_break=tie_break)
    assert standings(changed, memo) == afresh(changed)


@settings(max_examples=100, deadline=None)
@given(histories(), st.data())
def test_fines_substitutes_and_sat_out_boards_are_never_taken_from_the_memo(
    steps: list[Field], data: st.DataObject
) -> None:
    memo = Memo()
    standings(steps[-1], memo)
    player = data.draw(st.sampled_from(steps[-1].players))
    changed = dataclasses.replace(
        steps[-1],
        fines={**steps[-1].fines, player: Fraction(data.draw(st.integers(1, 9)), 2)},
        sat_out={**steps[-1].sat_out, player: {1: data.draw(st.integers(1, 3))}},
        unranked=frozenset({data.draw(st.sampled_from(steps[-1].players))}),
    )
    assert standings(changed, memo) == afresh(changed)


def two_rounds_of_four_tables() -> Field:
    players = tuple(range(1, 17))
    results = tuple(
        TableResult.played(
            10 * board + table, 1 if board <= 2 else 2, table, board,
            four(players[4 * (table - 1) : 4 * table]), four((table * board + i) % 7 for i in range(4)),
        )
        for board in range(1, 5)
        for table in range(1, 5)
    )  # fmt: skip
    return Field(Method.MATCHPOINTS, players, results, dict.fromkeys(range(1, 5), 4), (1, 2))


def test_a_correction_compares_only_its_own_board_again() -> None:
    field = two_rounds_of_four_tables()
    memo = Memo()
    standings(field, memo)
    before = dict(memo.groups)
    corrected = played(99, field.results[0], (9, 9, 9, 9))
    standings(dataclasses.replace(field, results=(corrected, *field.results[1:])), memo)
    for (board, index), group in memo.groups.items():
        assert (group is before[board, index]) == (board != corrected.board)


def test_a_correction_in_the_last_round_keeps_the_first_rounds_ranking() -> None:
    field = two_rounds_of_four_tables()
    memo = Memo()
    first = standings(field, memo)
    last = len(field.results) - 1
    corrected = played(99, field.results[last], (5, -5, 5, -5))
    again = standings(dataclasses.replace(field, results=(*field.results[:last], corrected)), memo)
    assert again.after_round[1] is first.after_round[1]
    assert again.after_round[2] != first.after_round[2]


def test_what_a_computation_replaced_is_held_until_released_and_one_computation_at_most() -> None:
    field = two_rounds_of_four_tables()
    memo = Memo()
    standings(field, memo)
    lines = memo.lines
    corrected = played(99, field.results[0], (9, 9, 9, 9))
    changed = dataclasses.replace(field, results=(corrected, *field.results[1:]))
    standings(changed, memo)
    assert memo.lines is not lines
    assert any(held is lines for held in memo.retired)
    memo.release()
    assert memo.retired == []
    # Not released by the caller: the next computation lets go of it before it starts.
    standings(field, memo)
    replaced_once = list(memo.retired)
    standings(changed, memo)
    assert all(all(held is not old for old in replaced_once) for held in memo.retired)
    assert standings(changed, memo) == afresh(changed)


def board_lines(outcome: Standings) -> dict[int, tuple[BoardScore, ...]]:
    return {number: line.boards for number, line in outcome.players.items()}


@settings(max_examples=100, deadline=None)
@given(histories())
def test_board_scores_as_text_are_what_json_makes_of_them(steps: list[Field]) -> None:
    memo = Memo()
    lines: dict[int, tuple[BoardScore, str]] = {}
    for field in steps:
        boards = board_lines(standings(field, memo))
        expected = json.dumps(board_scores_to_json(boards), separators=(",", ":"))
        assert board_scores_text(boards, lines) == expected
        assert board_scores_text(boards) == expected


@settings(max_examples=100, deadline=None)
@given(histories())
def test_a_board_played_in_two_rounds_is_compared_over_both(steps: list[Field]) -> None:
    memo = Memo()
    for field in steps:
        # The first result's board is played again, a round later, by the same table.
        if field.results:
            first = field.results[0]
            again = dataclasses.replace(first, result=first.result + 5000, round=first.round + 1)
            field = dataclasses.replace(field, results=(*field.results, again))
        assert standings(field, memo) == afresh(field)
    assert None in memo.parts or not steps[-1].results
