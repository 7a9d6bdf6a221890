"""The engine's standings: the integer fast path against a slow, obviously correct reference."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import comparison
from engine.comparison import Artificial, Weighted
from engine.errors import EngineError
from engine.standings import (
    BoardScore,
    Field,
    Method,
    ScoredBye,
    SeatEntry,
    TableResult,
    board_scores_from_json,
    board_scores_to_json,
    standings,
)
from engine.standings.ranking import ranked

T = TypeVar("T")

# -- the reference: every group through engine.comparison.compare, every sum in Fractions --------


def reference(field: Field) -> dict[int, tuple[Fraction, dict[int, Fraction], list[Fraction]]]:
    """Each player's total, round figures and board percentages, the slow and plain way."""
    groups: dict[tuple[int, int], list[tuple[TableResult, int]]] = defaultdict(list)
    for result in field.results:
        for index in range(4):
            if result.entries[index] is not None:
                groups[result.board, index].append((result, index))
    boards: dict[int, list[tuple[int, comparison.Comparison, int | None]]] = defaultdict(list)
    for (board, _index), members in groups.items():
        expected = max(field.expected.get(board, 0), len(members))
        entries = [result.entries[index] for result, index in members]
        outcomes = comparison.compare([e for e in entries if e is not None], expected=expected)
        for (result, index), outcome in zip(members, outcomes, strict=True):
            player = result.players[index]
            if player is not None:
                boards[player].append((result.round, outcome, result.scores[index]))
    for bye in field.byes:
        for board in bye.boards:
            group_top = comparison.top(max(field.expected.get(board, 0), 2))
            mp = bye.percentage * group_top / 100
            boards[bye.player].append(
                (bye.round, comparison.Comparison(None, mp, group_top, bye.percentage, None), None)
            )
    out = {}
    for player in field.players:
        mine = boards.get(player, [])
        rounds: dict[int, list[comparison.Comparison]] = defaultdict(list)
        for round_number, outcome, _score in mine:
            rounds[round_number].append(outcome)

        def figure(items: list[comparison.Comparison]) -> Fraction:
            if field.method == Method.MATCHPOINTS:
                return comparison.event_percentage(
                    (c.matchpoints for c in items), (c.top for c in items)
                )
            if field.method == Method.RAW:
                return sum((c.score for c in items if c.score is not None), Fraction(0))
            return sum((c.butler for c in items if c.butler is not None), Fraction(0))

        all_items = [outcome for _r, outcome, _s in mine]
        total = figure(all_items)
        real = [c for c in all_items if c.score is not None]
        sat_out = sum(field.sat_out.get(player, {}).values())
        if field.method != Method.MATCHPOINTS and real and (sat_out or len(real) < len(mine)):
            total = total * (len(all_items) + sat_out) / len(real)
        total -= field.fines.get(player, Fraction(0))
        out[player] = (
            total,
            {number: figure(items) for number, items in rounds.items()},
            sorted(c.percentage for c in all_items),
        )
    return out


# -- random fields ------------------------------------------------------------------------------


def four(values: Iterable[T]) -> tuple[T, T, T, T]:
    n, e, s, w = values
    return (n, e, s, w)


@st.composite
def fields(draw: st.DrawFn) -> Field:
    """Random events: tables of four over a few boards, some results missing or adjusted."""
    method = draw(st.sampled_from(list(Method)))
    tables = draw(st.integers(1, 6))
    boards = draw(st.integers(1, 4))
    players = tuple(range(1, 4 * tables + 1))
    results = []
    expected = {}
    number = 0
    for board in range(1, boards + 1):
        expected[board] = tables
        round_number = 1 if board <= (boards + 1) // 2 else 2
        for table in range(tables):
            if draw(st.integers(0, 9)) == 0:
                continue  # a result not keyed yet: the board is Neuberg-scaled
            number += 1
            n, e, s, w = players[4 * table : 4 * table + 4]
            seats = (n, e, s, w)
            kind = draw(st.integers(0, 11))
            scores = four(draw(st.integers(-60, 60)) for _ in range(4))
            if kind == 0:
                award = draw(st.sampled_from([Fraction(60), Fraction(50), Fraction(40)]))
                results.append(
                    TableResult(
                        number,
                        round_number,
                        table + 1,
                        board,
                        seats,
                        (Artificial(award),) * 4,
                        (None,) * 4,
                    )
                )
            elif kind == 1:
                weight = Fraction(draw(st.integers(1, 9)), 10)
                other = [draw(st.integers(-60, 60)) for _ in range(4)]
                weighted = [
                    Weighted.of((weight, a), (1 - weight, b))
                    for a, b in zip(scores, other, strict=True)
                ]
                entries: tuple[SeatEntry, SeatEntry, SeatEntry, SeatEntry] = four(weighted)
                shown = four(round(entry.expected_score) for entry in weighted)
                results.append(
                    TableResult(
                        number, round_number, table + 1, board, seats, entries, shown, scores
                    )
                )
            else:
                results.append(
                    TableResult.played(number, round_number, table + 1, board, seats, scores)
                )
    byes: tuple[ScoredBye, ...] = ()
    if draw(st.booleans()):
        byes = (ScoredBye(players[0], 3, tuple(range(1, boards + 1)), Fraction(60)),)
    sat_out = {players[-1]: {1: draw(st.integers(0, 2))}}
    fines = {players[1]: Fraction(draw(st.integers(0, 20)), 4)}
    return Field(
        method=method,
        players=players,
        results=tuple(results),
        expected=expected,
        rounds=(1, 2, 3) if byes else (1, 2),
        sat_out=sat_out,
        byes=byes,
        fines=fines,
        tie_break=draw(
            st.sampled_from(
                [("total",), ("total", "boards_won", "butler"), ("total", "head_to_head", "tops")]
            )
        ),
    )


@settings(max_examples=300, deadline=None)
@given(fields())
def test_the_fast_path_agrees_with_the_reference(field: Field) -> None:
    outcome = standings(field)
    expected = reference(field)
    for player, (total, rounds, percentages) in expected.items():
        line = outcome.players[player]
        assert line.record.total == total
        assert dict(line.rounds) == rounds
        assert sorted(item.percentage for item in line.boards) == percentages


@settings(max_examples=300, deadline=None)
@given(fields())
def test_stored_board_scores_read_back_as_they_were(field: Field) -> None:
    outcome = standings(field)
    players = {number: line.boards for number, line in outcome.players.items()}
    assert board_scores_from_json(board_scores_to_json(players)) == players


@settings(max_examples=200, deadline=None)
@given(fields())
def test_matchpoints_of_a_complete_group_add_up_to_n_times_n_minus_one(field: Field) -> None:
    outcome = standings(field)
    groups: dict[tuple[int, str], list[BoardScore]] = defaultdict(list)
    for line in outcome.players.values():
        for item in line.boards:
            if item.result is not None:
                groups[item.board, item.seat].append(item)
    keyed: dict[int, int] = defaultdict(int)
    for result in field.results:
        keyed[result.board] += 1
    for (board, _seat), items in groups.items():
        if keyed[board] == field.expected[board] and all(i.value is not None for i in items):
            n = len(items)
            assert sum(item.matchpoints for item in items) == n * (n - 1)


@settings(max_examples=200, deadline=None)
@given(fields())
def test_every_ranked_player_has_a_place_and_places_never_improve_down_the_list(
    field: Field,
) -> None:
    outcome = standings(field)
    ranked = [placing.record.player for placing in outcome.placings]
    with_boards = {n for n, line in outcome.players.items() if line.boards}
    assert set(ranked) == with_boards
    places = [placing.place for placing in outcome.placings]
    assert places == sorted(places)


def cut(field: Field, last: int) -> Field:
    """The field as it stood after round ``last``."""
    return dataclasses.replace(
        field,
        results=tuple(result for result in field.results if result.round <= last),
        rounds=tuple(number for number in field.rounds if number <= last),
        byes=tuple(bye for bye in field.byes if bye.round <= last),
        sat_out={
            player: {number: count for number, count in rounds.items() if number <= last}
            for player, rounds in field.sat_out.items()
        },
    )


@settings(max_examples=200, deadline=None)
@given(fields())
def test_the_ranking_after_each_round_is_that_of_the_rounds_played_so_far(field: Field) -> None:
    outcome = standings(field)
    for number, placings in outcome.after_round.items():
        alone = standings(cut(field, number))
        assert [(p.record.player, p.label, p.record.total) for p in placings] == [
            (p.record.player, p.label, p.record.total) for p in alone.placings
        ]
    if outcome.after_round:
        assert outcome.placings == outcome.after_round[max(outcome.after_round)]


# -- worked examples ----------------------------------------------------------------------------


def three_tables() -> Field:
    """Board 1 at three tables: North scores 30, 10 and 30; a fourth table missing on board 2."""
    players = tuple(range(1, 13))
    n1, e1, s1, w1, n2, e2, s2, w2, n3, e3, s3, w3 = players
    return Field(
        method=Method.MATCHPOINTS,
        players=players,
        results=(
            TableResult.played(1, 1, 1, 1, (n1, e1, s1, w1), (30, -10, -10, -10)),
            TableResult.played(2, 1, 2, 1, (n2, e2, s2, w2), (10, 0, -10, 0)),
            TableResult.played(3, 1, 3, 1, (n3, e3, s3, w3), (30, -10, -10, -10)),
            TableResult.played(4, 1, 1, 2, (n1, e1, s1, w1), (-20, 20, 0, 0)),
            TableResult.played(5, 1, 2, 2, (n2, e2, s2, w2), (20, -20, 0, 0)),
        ),
        expected={1: 3, 2: 3},
    )


def test_a_whole_group_is_matchpointed_two_for_a_win_one_for_a_tie() -> None:
    outcome = standings(three_tables())
    north = {item.board: item for item in outcome.players[1].boards}
    assert north[1].matchpoints == 3  # beats table 2 (2), ties table 3 (1)
    assert type(north[1].matchpoints) is int
    assert north[1].top == 4
    assert north[1].percentage == 75
    assert north[1].datum == Fraction(70, 3)
    assert north[1].butler == Fraction(20, 3)


def test_a_board_played_fewer_times_than_expected_is_neuberg_scaled() -> None:
    outcome = standings(three_tables())
    north = {item.board: item for item in outcome.players[1].boards}
    # Board 2: two of three results; North lost (0 MP of top 2): (0 + 1) * 3 / 2 - 1 = 1/2.
    assert north[2].matchpoints == Fraction(1, 2)
    assert north[2].top == 4
    # Over both boards: (3 + 1/2) / (4 + 4) = 43.75 %.
    assert outcome.players[1].record.total == Fraction(4375, 100)


def test_a_player_who_sat_out_scores_their_own_average_in_raw_totals() -> None:
    base = three_tables()
    field = Field(
        method=Method.RAW,
        players=base.players,
        results=base.results,
        expected=base.expected,
        sat_out={1: {1: 2}},
    )
    # North of table 1 scored 30 and -20 on two boards played; two more sat out: 10 * 4 / 2.
    assert standings(field).players[1].record.total == 20


def test_a_fine_comes_off_the_total_after_the_comparison() -> None:
    base = three_tables()
    field = Field(
        method=Method.MATCHPOINTS,
        players=base.players,
        results=base.results,
        expected=base.expected,
        fines={1: Fraction(5)},
    )
    line = standings(field).players[1]
    assert line.record.total == Fraction(4375, 100) - 5
    assert line.fine == 5
    assert line.rounds[1] == Fraction(4375, 100)  # the round's figure is the play's own


def test_substitutes_are_not_ranked_and_players_without_boards_wait() -> None:
    base = three_tables()
    field = Field(
        method=Method.MATCHPOINTS,
        players=(*base.players, 13, 14),
        results=base.results,
        expected=base.expected,
        unranked=frozenset({2}),
        withdrawn=frozenset({14}),
    )
    outcome = standings(field)
    assert 2 not in [placing.record.player for placing in outcome.placings]
    assert outcome.waiting == (13,)


def test_a_scored_bye_counts_its_percentage_of_at_least_the_top_of_two() -> None:
    field = Field(
        method=Method.MATCHPOINTS,
        players=(1, 2, 3, 4, 5),
        results=(TableResult.played(1, 1, 1, 1, (1, 2, 3, 4), (10, -10, 10, -10)),),
        expected={1: 1},
        byes=(ScoredBye(5, 1, (1,), Fraction(60)),),
    )
    bye = standings(field).players[5].boards[0]
    assert bye.top == 2
    assert bye.percentage == 60
    assert bye.seat == ""
    assert bye.result is None
    assert bye.score is None


def test_a_result_naming_a_player_outside_the_field_is_refused() -> None:
    with pytest.raises(EngineError, match="player 99 of result 1 is not in the field"):
        Field(
            method=Method.RAW,
            players=(1, 2, 3),
            results=(TableResult.played(1, 1, 1, 1, (1, 2, 3, 99), (0, 0, 0, 0)),),
            expected={1: 1},
        )


def test_an_unknown_tie_break_is_refused() -> None:
    with pytest.raises(EngineError, match="unknown tie-break criterion"):
        Field(method=Method.RAW, players=(), results=(), expected={}, tie_break=("luck",))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"version": 2, "players": {}}, "version 2"),
        ({"version": 1}, "no players"),
        ({"version": 1, "players": {"1": [[1, 1, 1]]}}, "eleven figures"),
        (
            {"version": 1, "players": {"1": [[1, 1, 1, "N", 1, 10, 10, None, 2, "1", None]]}},
            "matchp",
        ),
        ({"version": 1, "players": {"1": [[1, "a", 1, "N", 1, 10, 10, 1, 2, "1", None]]}}, "whole"),
        (
            {"version": 1, "players": {"1": [[1, 1, 1, "N", 1, 10, 10, 1.5, 2, "1", None]]}},
            "fraction",
        ),
    ],
)
def test_stored_board_scores_that_cannot_be_read_say_why(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises(EngineError, match=message):
        board_scores_from_json(data)


def test_only_the_players_asked_for_are_read_back() -> None:
    outcome = standings(three_tables())
    data = board_scores_to_json({n: line.boards for n, line in outcome.players.items()})
    assert set(board_scores_from_json(data, only=[1, 5, 99])) == {1, 5}


# Totals a float cannot tell apart (1/3 and 1/3 + 10**-30), equal ones, and plain ones.
_CLOSE = Fraction(1, 3)
_TOTALS = st.sampled_from(
    [_CLOSE, _CLOSE + Fraction(1, 10**30), _CLOSE - Fraction(1, 10**30), Fraction(50), Fraction(0)]
) | st.fractions(min_value=0, max_value=100, max_denominator=7)


@given(
    st.lists(st.tuples(_TOTALS, st.integers(0, 3), st.integers(0, 2)), min_size=1, max_size=30),
    st.sampled_from([("total",), ("total", "boards_won"), ("total", "tops", "boards_won")]),
)
def test_the_ranking_by_total_is_that_of_comparison_rank(
    rows: list[tuple[Fraction, int, int]], tie_break: tuple[str, ...]
) -> None:
    records = [
        comparison.Record(player=number, total=total, boards_won=won, tops=tops)
        for number, (total, won, tops) in enumerate(rows)
    ]
    (placings,) = ranked({1: records}, tie_break, None).values()
    assert list(placings) == comparison.rank(records, tie_break)
