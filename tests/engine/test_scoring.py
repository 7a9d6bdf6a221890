"""Scoring: every worked example of the rules texts, and the properties every table must keep."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import SEATS, SUITS, Seat
from engine.errors import InvalidResultError
from engine.results import BoardResult, Contract, IsraeliResult, result_from_json
from engine.ruleset import SHAPES, Ruleset, builtin_names, load_builtin, load_ruleset
from engine.scoring import score, scores_by_seat

FIXTURES = Path(__file__).parent / "fixtures" / "scoring"
BOARD_RULESETS = tuple(name for name in builtin_names() if not name.startswith("israeli"))
BALANCING = tuple(name for name in BOARD_RULESETS if load_builtin(name).balancing)


def _fixture_cases() -> Iterator[Any]:
    for path in sorted(FIXTURES.glob("*.json")):
        for index, case in enumerate(json.loads(path.read_text("utf-8"))["cases"]):
            yield pytest.param(case, id=f"{path.stem}-{index}")


def _ruleset_of(case: dict[str, Any]) -> Ruleset:
    if "ruleset_file" in case:
        path = FIXTURES / case["ruleset_file"]
        return load_ruleset(path.read_text("utf-8"), source=str(path))
    return load_builtin(case["ruleset"])


CASES = list(_fixture_cases())


@pytest.mark.parametrize("case", CASES)
def test_it_scores_every_worked_example_as_its_source_says(case: dict[str, Any]) -> None:
    result = result_from_json(case["result"])

    assert scores_by_seat(score(_ruleset_of(case), result)) == case["scores"], case["source"]


def test_every_worked_example_names_its_source_and_its_ruleset() -> None:
    for param in CASES:
        (case,) = param.values
        assert case["source"].strip()
        assert ("ruleset" in case) != ("ruleset_file" in case)
        assert set(case["scores"]) == {"N", "E", "S", "W"}


def test_the_worked_examples_cover_every_built_in_ruleset() -> None:
    named = {param.values[0].get("ruleset") for param in CASES}

    assert set(builtin_names()) <= named


# --- rulings that the examples do not show ------------------------------------------------------

ACCEPT_8_MADE = {
    "contract": "accept",
    "level": 8,
    "trump": "H",
    "declarers": ["N", "S"],
    "tricks": 8,
}


def test_it_doubles_the_deal_after_an_all_pass_once_under_whisthub() -> None:
    result = BoardResult.from_json(ACCEPT_8_MADE | {"after_all_pass": True})

    assert score(load_builtin("whisthub"), result) == (16, -16, 16, -16)


def test_it_ignores_an_all_pass_before_the_deal_under_pagat() -> None:
    result = BoardResult.from_json(ACCEPT_8_MADE | {"after_all_pass": True})

    assert score(load_builtin("pagat"), result) == (8, -8, 8, -8)


def test_it_counts_an_all_pass_as_one_double_under_flemish() -> None:
    plain = BoardResult.from_json(ACCEPT_8_MADE)
    after_pass = BoardResult.from_json(ACCEPT_8_MADE | {"after_all_pass": True})
    both = BoardResult.from_json(ACCEPT_8_MADE | {"after_all_pass": True, "doubled": True})
    ruleset = load_builtin("flemish")

    assert score(ruleset, plain) == (2, -2, 2, -2)
    assert score(ruleset, after_pass) == (4, -4, 4, -4)
    assert score(ruleset, both) == (6, -6, 6, -6)


def test_it_doubles_a_passed_out_board_to_nothing() -> None:
    result = BoardResult(Contract.PASS, after_all_pass=True)

    assert score(load_builtin("whisthub"), result) == (0, 0, 0, 0)


def test_it_settles_four_simultaneous_small_miseres_each_against_the_other_three() -> None:
    result = BoardResult(
        Contract.SMALL_MISERE, declarers=tuple(SEATS), declarer_tricks=(0, 0, 1, 2)
    )

    # N and E made (+18 each from their own, -6 from each other declarer's), S and W failed.
    assert score(load_builtin("whisthub"), result) == (24, 24, -24, -24)


def test_it_pays_iwwa_opponents_only_for_declarers_who_failed() -> None:
    result = BoardResult(Contract.PICCOLO, declarers=(Seat.N, Seat.E), declarer_tricks=(1, 1))

    assert score(load_builtin("iwwa"), result) == (27, 27, 0, 0)


def test_it_multiplies_by_powers_of_two_when_the_ruleset_says_so() -> None:
    document = (FIXTURES / "st-niklaas.toml").read_text("utf-8")
    document = document.replace(
        "trump_order = []", 'trump_order = []\nmultiplier = "power"\nafter_all_pass = "double"'
    )
    ruleset = load_ruleset(document)
    result = BoardResult.from_json(ACCEPT_8_MADE | {"tricks": 13, "after_all_pass": True})

    # (2 + 2 x 5) doubled for all tricks and again after the all-pass: x4
    assert score(ruleset, result) == (48, -48, 48, -48)


def test_it_scores_troel_with_all_tricks_at_the_value_the_ruleset_gives() -> None:
    document = (Path(__file__).parents[2] / "engine" / "rulesets" / "whisthub.toml").read_text(
        "utf-8"
    )
    club = load_ruleset(
        document.replace('name = "whisthub"', 'name = "club"').replace(
            "all_tricks = 30", "all_tricks = 26"
        )
    )
    result = BoardResult.from_json(
        {"contract": "troel", "level": 8, "trump": "H", "declarers": ["E", "W"], "tricks": 13}
    )

    assert score(club, result) == (-26, 26, -26, 26)
    assert score(load_builtin("whisthub"), result) == (-30, 30, -30, 30)


def test_it_refuses_an_invalid_result_before_scoring_it() -> None:
    result = BoardResult.from_json(ACCEPT_8_MADE | {"level": 7})

    with pytest.raises(InvalidResultError) as caught:
        score(load_builtin("whisthub"), result)

    assert caught.value.field == "level"


# --- properties -------------------------------------------------------------------------------


@st.composite
def board_results(draw: st.DrawFn, ruleset: Ruleset) -> BoardResult:
    """Any result that ``ruleset`` accepts, all-passes included."""
    doubled = ruleset.options.announced_double and draw(st.booleans())
    after_all_pass = draw(st.booleans())
    if draw(st.integers(0, 15)) == 0:
        return BoardResult(Contract.PASS, after_all_pass=after_all_pass)
    bid = draw(st.sampled_from(ruleset.ladder))
    contract = bid.contract
    shape = SHAPES[contract]
    levels = ruleset.levels(contract)
    level = bid.level if bid.level is not None or not levels else draw(st.sampled_from(levels))
    count = draw(st.integers(*shape.declarers))
    declarers = tuple(draw(st.permutations(SEATS))[:count])
    if shape.negative:
        own = draw(
            st.lists(st.integers(0, shape.tricks_in_play), min_size=count, max_size=count).filter(
                lambda counts: sum(counts) <= shape.tricks_in_play
            )
        )
        return BoardResult(
            contract,
            declarers=declarers,
            declarer_tricks=tuple(own),
            doubled=doubled,
            after_all_pass=after_all_pass,
        )
    return BoardResult(
        contract,
        level=level,
        trump=draw(st.sampled_from(SUITS)),
        declarers=declarers,
        tricks=draw(st.integers(0, 13)),
        doubled=doubled,
        after_all_pass=after_all_pass,
    )


@st.composite
def israeli_results(draw: st.DrawFn, ruleset: Ruleset) -> IsraeliResult:
    declarer = draw(st.sampled_from(SEATS))
    level = draw(st.sampled_from(ruleset.levels(Contract.ISRAELI)))
    bids = [draw(st.integers(0, 13)) for _ in SEATS]
    bids[declarer.value] = level
    if sum(bids) == 13:
        other = declarer.left.value
        bids[other] = bids[other] + 1 if bids[other] < 13 else bids[other] - 1
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    tricks = (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2])
    return IsraeliResult(
        declarer,
        level,
        draw(st.sampled_from([None, *SUITS])),
        (bids[0], bids[1], bids[2], bids[3]),
        tricks,
    )


def _ruleset_and_result(names: tuple[str, ...]) -> st.SearchStrategy[tuple[Ruleset, BoardResult]]:
    return (
        st.sampled_from(names)
        .map(load_builtin)
        .flatmap(lambda ruleset: st.tuples(st.just(ruleset), board_results(ruleset)))
    )


@settings(max_examples=200)
@given(_ruleset_and_result(BALANCING))
def test_every_result_of_a_balancing_ruleset_sums_to_zero(
    pair: tuple[Ruleset, BoardResult],
) -> None:
    ruleset, result = pair

    assert sum(score(ruleset, result)) == 0


@settings(max_examples=200)
@given(_ruleset_and_result(BOARD_RULESETS))
def test_scores_are_whole_numbers(pair: tuple[Ruleset, BoardResult]) -> None:
    ruleset, result = pair

    assert all(type(points) is int for points in score(ruleset, result))


@settings(max_examples=200)
@given(_ruleset_and_result(BOARD_RULESETS), st.integers(0, 12))
def test_winning_more_tricks_never_lowers_the_declarers_score(
    pair: tuple[Ruleset, BoardResult], tricks: int
) -> None:
    ruleset, result = pair
    if result.contract is Contract.PASS or result.contract.is_negative:
        return
    fewer = score(ruleset, BoardResult(**{**_fields(result), "tricks": tricks}))
    more = score(ruleset, BoardResult(**{**_fields(result), "tricks": tricks + 1}))
    declarer = result.declarers[0].value
    opponent = next(seat.value for seat in SEATS if seat not in result.declarers)

    assert more[declarer] >= fewer[declarer]
    if ruleset.balancing:
        assert more[opponent] <= fewer[opponent]


def _fields(result: BoardResult) -> dict[str, Any]:
    return {name: getattr(result, name) for name in BoardResult.__dataclass_fields__}


@settings(max_examples=200)
@given(_ruleset_and_result(BOARD_RULESETS))
def test_a_board_result_reads_back_what_it_writes(pair: tuple[Ruleset, BoardResult]) -> None:
    _, result = pair

    assert BoardResult.from_json(result.to_json()) == result
    assert result_from_json(json.loads(json.dumps(result.to_json()))) == result


@settings(max_examples=200)
@given(
    st.sampled_from(["israeli", "israeli-alt"])
    .map(load_builtin)
    .flatmap(lambda ruleset: st.tuples(st.just(ruleset), israeli_results(ruleset)))
)
def test_every_israeli_result_scores_each_player_on_its_own_bid(
    pair: tuple[Ruleset, IsraeliResult],
) -> None:
    ruleset, result = pair
    scores = score(ruleset, result)
    assert result.tricks is not None
    exact = [bid == won for bid, won in zip(result.bids, result.tricks, strict=True)]

    assert IsraeliResult.from_json(result.to_json()) == result
    for seat in SEATS:
        if exact[seat.value] and result.bids[seat.value] > 0:
            assert scores[seat.value] > 0
        elif not exact[seat.value] and (any(exact) or ruleset.name == "israeli"):
            assert scores[seat.value] < 0 or result.bids[seat.value] == 0
    if not any(exact) and ruleset.name == "israeli-alt":
        assert scores == (0, 0, 0, 0)
