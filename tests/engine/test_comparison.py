"""Duplicate comparison: known groups worked by hand, the reference's Neuberg example, properties."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.comparison import (
    Artificial,
    ArtificialScores,
    Award,
    Comparison,
    Record,
    Weighted,
    butler,
    check_tie_break_order,
    compare,
    datum,
    display,
    event_percentage,
    matchpoints,
    neuberg,
    neuberg_percentage,
    percentage,
    rank,
    rank_labels,
    raw_average,
    raw_total,
    top,
)
from engine.errors import EngineError

F = Fraction


@dataclass(frozen=True)
class HandGroup:
    """Scores of one seat on one board, with what was worked out for them by hand."""

    scores: list[int]
    matchpoints: list[int]
    top: int
    percentages: list[Fraction]
    datum: Fraction
    datum_without_extremes: Fraction


HAND_GROUPS = [
    HandGroup(
        scores=[10, 20, 20, -5],
        matchpoints=[2, 5, 5, 0],
        top=6,
        percentages=[F(100, 3), F(250, 3), F(250, 3), F(0)],
        datum=F(45, 4),
        datum_without_extremes=F(15),
    ),
    HandGroup(
        # Seven tables; three share the bottom.
        scores=[45, -15, -15, 30, 0, -15, 60],
        matchpoints=[10, 2, 2, 8, 6, 2, 12],
        top=12,
        percentages=[F(250, 3), F(50, 3), F(50, 3), F(200, 3), F(50), F(50, 3), F(100)],
        datum=F(90, 7),
        datum_without_extremes=F(9),
    ),
    HandGroup(
        scores=[-24, -24, -24],
        matchpoints=[2, 2, 2],
        top=4,
        percentages=[F(50)] * 3,
        datum=F(-24),
        datum_without_extremes=F(-24),
    ),
    HandGroup(
        scores=[25],
        matchpoints=[0],
        top=0,
        percentages=[F(50)],
        datum=F(25),
        datum_without_extremes=F(25),
    ),
]


@pytest.fixture(params=HAND_GROUPS, ids=lambda group: str(group.scores))
def hand_group(request: pytest.FixtureRequest) -> HandGroup:
    group: HandGroup = request.param
    return group


def test_it_matchpoints_hand_worked_groups(hand_group: HandGroup) -> None:
    scores = hand_group.scores
    assert matchpoints(scores) == hand_group.matchpoints
    assert top(len(scores)) == hand_group.top
    group_top = top(len(scores))
    assert [percentage(mp, group_top) for mp in matchpoints(scores)] == hand_group.percentages


def test_it_computes_the_datum_of_hand_worked_groups(hand_group: HandGroup) -> None:
    assert datum(hand_group.scores) == hand_group.datum
    assert datum(hand_group.scores, drop_extremes=True) == hand_group.datum_without_extremes


def test_it_compares_a_hand_worked_group_in_one_call(hand_group: HandGroup) -> None:
    comparisons = compare(hand_group.scores)
    assert [c.matchpoints for c in comparisons] == hand_group.matchpoints
    assert [c.percentage for c in comparisons] == hand_group.percentages
    assert {c.top for c in comparisons} == {hand_group.top}
    assert [c.butler for c in comparisons] == [s - hand_group.datum for s in hand_group.scores]


def test_it_scores_the_reference_neuberg_example() -> None:
    # duplicate-scoring.md: E = 11, A = 10, a sole top scores 19.9 of 20.
    assert neuberg(18, actual=10, expected=11) == F(199, 10)
    assert top(11) == 20
    assert neuberg_percentage(100, actual=10, expected=11) == F(199, 2)
    assert display(neuberg_percentage(100, 10, 11), 1) == "99.5"


def test_it_neuberg_scales_a_group_with_fewer_results_than_expected() -> None:
    comparisons = compare([10, 20, -5], expected=4)
    # by hand: MP 2, 4, 0 of top 4; (M + 1) * 4 / 3 - 1 gives 3, 17/3, 1/3 of top 6.
    assert [c.matchpoints for c in comparisons] == [3, F(17, 3), F(1, 3)]
    assert {c.top for c in comparisons} == {6}
    assert [c.percentage for c in comparisons] == [50, F(850, 9), F(50, 9)]
    assert [c.percentage for c in comparisons] == [
        neuberg_percentage(p, 3, 4) for p in (50, 100, 0)
    ]


def test_it_leaves_a_full_board_unchanged_by_neuberg() -> None:
    for mp in range(0, 13):
        assert neuberg(mp, 7, 7) == mp
        assert neuberg_percentage(percentage(mp, 12), 7, 7) == percentage(mp, 12)


def test_it_gives_a_lone_result_fifty_percent() -> None:
    assert percentage(0, 0) == 50
    assert neuberg(0, actual=1, expected=5) == 4
    assert neuberg_percentage(50, actual=1, expected=5) == 50
    assert compare([17]) == [Comparison(F(17), F(0), 0, F(50), F(17))]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: neuberg(2, actual=3, expected=2), "only 2 were expected"),
        (lambda: neuberg(0, actual=0, expected=2), "at least one actual result"),
        (lambda: neuberg(5, actual=3, expected=4), "matchpoints must be 0 to 4"),
        (lambda: neuberg_percentage(101, actual=3, expected=4), "0 to 100"),
        (lambda: compare([1, 2, 3], expected=2), "the group has 3 entries"),
        (lambda: top(0), "at least one result"),
        (lambda: datum([]), "empty group"),
        (lambda: raw_average([]), "no boards"),
        (lambda: display(1, -1), "places must be 0 or more"),
    ],
)
def test_it_rejects_impossible_counts_with_a_message(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(EngineError, match=message):
        call()


def test_it_computes_butler_differences_from_the_datum() -> None:
    assert butler([10, 20, 20, -5]) == [F(-5, 4), F(35, 4), F(35, 4), F(-65, 4)]
    assert butler([10, 20, 20, -5], drop_extremes=True) == [-5, 5, 5, -20]
    # With fewer than three scores there are no extremes to drop.
    assert datum([10, 20], drop_extremes=True) == 15


# -- artificial and weighted scores ------------------------------------------------------------


def test_it_gives_the_standard_artificial_percentages() -> None:
    table = ArtificialScores()
    assert table.percentage(Award.AVERAGE_PLUS) == 60
    assert table.percentage(Award.AVERAGE) == 50
    assert table.percentage(Award.AVERAGE_MINUS) == 40


def test_it_uses_the_event_own_artificial_percentages() -> None:
    table = ArtificialScores(average_plus=F(65), average=F(50), average_minus=F(35))
    assert table.artificial(Award.AVERAGE_PLUS) == Artificial(F(65))
    assert table.artificial(Award.AVERAGE_MINUS) == Artificial(F(35))


def test_it_gives_a_non_offender_a_better_session_average_instead_of_average_plus() -> None:
    table = ArtificialScores()
    assert table.percentage(Award.AVERAGE_PLUS, session_percentage=F(63)) == 63
    assert table.percentage(Award.AVERAGE_PLUS, session_percentage=F(55)) == 60
    assert table.percentage(Award.AVERAGE_MINUS, session_percentage=F(30)) == 40


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: ArtificialScores(average_plus=F(40), average_minus=F(60)), "must not decrease"),
        (lambda: ArtificialScores(average_plus=F(120)), "average_plus must be 0 to 100"),
        (lambda: Artificial(F(-1)), "0 to 100 percent"),
        (lambda: Weighted.of((F(1, 2), 10), (F(1, 3), 0)), "add up to 1, not 5/6"),
        (lambda: Weighted.of((F(3, 2), 10), (F(-1, 2), 0)), "must be positive"),
        (lambda: Weighted(()), "at least one outcome"),
    ],
)
def test_it_rejects_broken_artificial_and_weighted_scores(build: object, message: str) -> None:
    assert callable(build)
    with pytest.raises(EngineError, match=message):
        build()


def test_it_scores_artificial_entries_as_a_share_of_the_top_and_neubergs_the_rest() -> None:
    comparisons = compare([10, 20, Artificial(F(60)), -5])
    assert [c.matchpoints for c in comparisons] == [3, F(17, 3), F(18, 5), F(1, 3)]
    assert comparisons[2].percentage == 60
    assert comparisons[2].is_artificial
    assert comparisons[2].butler is None
    assert comparisons[0].datum == F(25, 3)


def test_it_compares_a_group_of_artificial_scores_only() -> None:
    comparisons = compare([Artificial(F(60)), Artificial(F(40))])
    assert [c.matchpoints for c in comparisons] == [F(6, 5), F(4, 5)]
    assert all(c.datum is None for c in comparisons)


def test_it_matchpoints_a_weighted_adjusted_score_outcome_by_outcome() -> None:
    adjusted = Weighted.of((F(3, 10), 120), (F(7, 10), -50))
    # against 100: 30 % beaten -> 0.6; against -50: 30 % beaten, 70 % tied -> 1.3; against 200: 0.
    points = matchpoints([adjusted, 100, -50, 200])
    assert points == [F(19, 10), F(17, 5), F(7, 10), 6]
    assert sum(points) == 12
    assert adjusted.expected_score == F(1)
    assert compare([adjusted, 100, -50, 200])[0].score == 1


# -- totals and display ------------------------------------------------------------------------


def test_it_totals_an_event_percentage_over_the_boards_played() -> None:
    assert event_percentage([4, 10, 0], [6, 12, 0]) == F(700, 9)
    assert display(event_percentage([4, 10, 0], [6, 12, 0])) == "77.78"
    assert event_percentage([0], [0]) == 50


def test_it_totals_raw_scores_and_averages_them_per_board() -> None:
    assert raw_total([15, -26, 60]) == 49
    assert raw_average([15, -26, 60]) == F(49, 3)


@pytest.mark.parametrize(
    ("value", "places", "shown"),
    [
        (F(199, 2), 0, "100"),
        (F(-199, 2), 0, "-100"),
        (F(1, 3), 2, "0.33"),
        (F(2, 3), 2, "0.67"),
        (F(-1, 1000), 2, "0.00"),
        (F(1, 8), 2, "0.13"),
        (F(850, 9), 1, "94.4"),
        (7, 2, "7.00"),
    ],
)
def test_it_rounds_only_for_display_halves_away_from_zero(
    value: Fraction, places: int, shown: str
) -> None:
    assert display(value, places) == shown


@given(
    st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**5),
    st.integers(min_value=0, max_value=4),
)
def test_display_rounds_halves_away_from_zero_for_any_fraction(
    value: Fraction, places: int
) -> None:
    # The rule written out in decimal arithmetic: round the magnitude half up, then the sign.
    scaled = abs(value) * 10**places
    whole = int(scaled) + (1 if scaled - int(scaled) >= F(1, 2) else 0)
    digits = str(whole).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    assert display(value, places) == ("-" if value < 0 and whole else "") + text


# -- ranking -----------------------------------------------------------------------------------


def test_it_labels_ties_with_an_equals_sign() -> None:
    assert rank_labels([30, 10, 30, 20]) == ["1=", "4", "1=", "3"]
    assert rank_labels([F(55), F(60), F(55), F(55), F(40)]) == ["2=", "1", "2=", "2=", "5"]
    assert rank_labels([3, 1, 2, 1], higher_is_better=False) == ["4", "1=", "3", "1="]
    assert rank_labels([]) == []


def make(
    player: str,
    total: int,
    boards_won: int = 0,
    raw_total: int = 0,
    butler: int = 0,
    meetings: dict[str | int, Fraction] | None = None,
) -> Record:
    return Record(
        player=player,
        total=F(total),
        boards_won=boards_won,
        raw_total=F(raw_total),
        butler=F(butler),
        meetings=meetings or {},
    )


def test_it_ranks_by_the_tie_break_order_and_says_what_decided() -> None:
    records = [
        make("ann", 55, boards_won=5, meetings={"dirk": F(12), "ben": F(0)}),
        make("ben", 55, boards_won=6),
        make("cas", 60),
        make("dirk", 55, boards_won=5, meetings={"ann": F(-12)}),
        make("eva", 40),
        make("fien", 40),
    ]
    placings = rank(records, ("total", "boards_won", "head_to_head"))
    assert [(p.record.player, p.label, p.decided_by) for p in placings] == [
        ("cas", "1", None),
        ("ben", "2", "total"),
        ("ann", "3", "boards_won"),
        ("dirk", "4", "head_to_head"),
        ("eva", "5=", "total"),
        ("fien", "5=", "total"),
    ]
    assert [p.place for p in placings] == [1, 2, 3, 4, 5, 5]


def test_it_skips_head_to_head_unless_every_tied_pair_met() -> None:
    records = [
        make("ann", 50, meetings={"ben": F(10)}),
        make("ben", 50, meetings={"ann": F(-10)}),
        make("cas", 50),
    ]
    placings = rank(records, ("total", "head_to_head"))
    assert [p.label for p in placings] == ["1=", "1=", "1="]
    assert [p.record.player for p in placings] == ["ann", "ben", "cas"]


def test_it_ranks_a_raw_scored_evening_by_its_raw_total_then_butler() -> None:
    records = [
        make("ann", 40, raw_total=40, butler=3),
        make("ben", 40, raw_total=40, butler=7),
        make("cas", 90, raw_total=90),
    ]
    placings = rank(records, ("raw_total", "butler"))
    assert [(p.record.player, p.label, p.decided_by) for p in placings] == [
        ("cas", "1", None),
        ("ben", "2", "raw_total"),
        ("ann", "3", "butler"),
    ]


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (("total", "luck"), "unknown tie-break criterion 'luck'; criteria are total, boards_won"),
        (("total", "tops", "tops"), "'tops' is given twice"),
        ((), "a tie-break order is a list of criteria"),
        ("total", "a tie-break order is a list of criteria"),
    ],
)
def test_it_rejects_a_broken_tie_break_order(order: tuple[str, ...], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        check_tie_break_order(order)


def test_it_rejects_a_player_ranked_twice() -> None:
    with pytest.raises(EngineError, match="appears twice"):
        rank([make("ann", 1), make("ann", 2)])


def test_it_builds_a_record_from_a_players_comparisons() -> None:
    boards = [
        compare([60, 10, -5, -5])[0],  # top: 6 of 6
        compare([-5, 10, 20])[0],  # bottom: 0 of 4
        compare([10, 20, Artificial(F(60))])[2],  # average-plus: 12/5 of 4
        compare([15, 0])[0],  # top again: 2 of 2
    ]
    record = Record.from_comparisons("ann", boards, meetings={"ben": 4})
    assert record.total == (6 + 0 + F(12, 5) + 2) * 100 / (6 + 4 + 4 + 2)
    assert record.boards == 4
    assert record.boards_won == 2
    assert record.tops == 2
    assert record.raw_total == 60 - 5 + 15
    assert record.butler == (60 - 15) + (-5 - F(25, 3)) + (15 - F(15, 2))
    assert record.meetings == {"ben": F(4)}


# -- properties --------------------------------------------------------------------------------

scores = st.integers(-200, 200) | st.fractions(min_value=-200, max_value=200, max_denominator=12)
groups = st.lists(scores, min_size=1, max_size=16)


@st.composite
def weighted_scores(draw: st.DrawFn) -> Weighted:
    values = draw(st.lists(st.integers(-50, 50), min_size=1, max_size=3))
    cuts = draw(st.lists(st.integers(1, 9), min_size=len(values), max_size=len(values)))
    total = sum(cuts)
    return Weighted.of(*((F(cut, total), value) for cut, value in zip(cuts, values, strict=True)))


entries = st.lists(
    scores
    | weighted_scores()
    | st.builds(Artificial, st.fractions(min_value=0, max_value=100, max_denominator=4)),
    min_size=1,
    max_size=10,
)


@settings(max_examples=200)
@given(st.lists(scores | weighted_scores(), min_size=1, max_size=12))
def test_it_hands_out_n_times_n_minus_one_matchpoints_in_every_group(
    group: list[Fraction | int | Weighted],
) -> None:
    points = matchpoints(group)
    assert sum(points) == len(group) * (len(group) - 1)
    assert all(0 <= mp <= top(len(group)) for mp in points)


@settings(max_examples=200)
@given(groups, st.randoms(use_true_random=False))
def test_it_matchpoints_a_score_the_same_whatever_the_order(
    group: list[Fraction | int], shuffler: random.Random
) -> None:
    shuffled = list(group)
    shuffler.shuffle(shuffled)
    by_score = dict(zip(group, matchpoints(group), strict=True))
    assert dict(zip(shuffled, matchpoints(shuffled), strict=True)) == by_score


@settings(max_examples=200)
@given(entries, st.integers(0, 6), st.booleans())
def test_it_keeps_every_percentage_between_zero_and_a_hundred(
    group: list[Fraction | int | Weighted | Artificial], extra: int, drop: bool
) -> None:
    for comparison in compare(group, expected=len(group) + extra, drop_extremes=drop):
        assert 0 <= comparison.percentage <= 100
        assert 0 <= comparison.matchpoints <= comparison.top or comparison.top == 0
        assert comparison.top == 2 * (len(group) + extra - 1)


@settings(max_examples=200)
@given(st.integers(1, 30), st.integers(0, 30), st.data())
def test_it_never_neubergs_past_the_top(actual: int, more: int, data: st.DataObject) -> None:
    expected = actual + more
    mp = data.draw(st.fractions(min_value=0, max_value=top(actual), max_denominator=10))
    scaled = neuberg(mp, actual, expected)
    assert 0 <= scaled <= top(expected)
    assert percentage(scaled, top(expected)) == neuberg_percentage(
        percentage(mp, top(actual)), actual, expected
    )


@settings(max_examples=200)
@given(groups)
def test_it_makes_butler_differences_add_up_to_zero(group: list[Fraction | int]) -> None:
    assert sum(butler(group)) == 0


@settings(max_examples=200)
@given(st.lists(st.integers(0, 20), max_size=20), st.booleans())
def test_it_labels_each_place_by_how_many_did_better(values: list[int], higher: bool) -> None:
    labels = rank_labels(values, higher_is_better=higher)
    for value, label in zip(values, labels, strict=True):
        better = sum(1 for v in values if (v > value if higher else v < value))
        assert label.rstrip("=") == str(better + 1)
        assert label.endswith("=") == (values.count(value) > 1)


@settings(max_examples=200)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
        min_size=1,
        max_size=12,
    )
)
def test_it_shares_a_place_only_between_players_level_on_every_criterion(
    rows: list[tuple[int, int, int]],
) -> None:
    records = [
        Record(player=i, total=F(t), boards_won=w, tops=p) for i, (t, w, p) in enumerate(rows)
    ]
    placings = rank(records, ("total", "boards_won", "tops"))
    assert sorted(p.record.player for p in placings) == list(range(len(rows)))
    keys = [(p.record.total, p.record.boards_won, p.record.tops) for p in placings]
    assert keys == sorted(keys, reverse=True)
    for before, after, key_before, key_after in zip(
        placings, placings[1:], keys, keys[1:], strict=False
    ):
        assert (before.place == after.place) == (key_before == key_after)
        assert before.place <= after.place
