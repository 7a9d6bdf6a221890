"""Validation: a result the ruleset does not allow is refused, naming the field to fix."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import SEATS, SUITS, Seat, Suit
from engine.errors import InvalidResultError
from engine.notation import parse_result_line
from engine.results import BoardResult, Contract, IsraeliResult, result_from_json
from engine.ruleset import builtin_names, load_builtin
from engine.scoring import score
from engine.validation import validate
from tests.engine.test_scoring import board_results

ACCEPT: dict[str, Any] = {
    "contract": "accept",
    "level": 9,
    "trump": "H",
    "declarers": ["N", "E"],
    "tricks": 10,
}
MISERE: dict[str, Any] = {"contract": "misere", "declarers": ["N", "S"], "tricks": {"N": 0, "S": 1}}
ISRAELI: dict[str, Any] = {
    "contract": "israeli",
    "declarer": "N",
    "level": 7,
    "trump": "NT",
    "bids": {"N": 7, "E": 2, "S": 0, "W": 3},
    "tricks": {"N": 6, "E": 2, "S": 1, "W": 4},
}


def _refusal(ruleset: str, obj: dict[str, Any]) -> InvalidResultError:
    with pytest.raises(InvalidResultError) as caught:
        validate(load_builtin(ruleset), result_from_json(obj))
    return caught.value


@pytest.mark.parametrize(
    ("ruleset", "obj", "field", "words"),
    [
        pytest.param(
            "whisthub",
            {**MISERE, "contract": "piccolo"},
            "contract",
            "does not allow piccolo",
            id="piccolo-not-allowed",
        ),
        pytest.param(
            "pagat",
            {**MISERE, "contract": "piccolo"},
            "contract",
            "does not allow piccolo",
            id="pagat-has-no-piccolo",
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "contract": "grand_solo", "level": None, "declarers": ["N"]},
            "contract",
            "grand_solo",
            id="grand-solo-is-wiezen",
        ),
        pytest.param(
            "iwwa",
            {**ACCEPT, "contract": "solo", "level": 5, "declarers": ["N"]},
            "level",
            "level 5 is out of range",
            id="iwwa-has-no-solo-5",
        ),
        pytest.param(
            "whisthub", {**ACCEPT, "level": 14}, "level", "level 14 is out of range", id="accept-14"
        ),
        pytest.param(
            "whisthub", {**ACCEPT, "level": 7}, "level", "level 7 is out of range", id="accept-7"
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "level": None},
            "level",
            "the level is missing",
            id="level-missing",
        ),
        pytest.param(
            "whisthub", {**MISERE, "level": 8}, "level", "misere has no level", id="level-on-misere"
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "contract": "solo_slim", "declarers": ["N"], "level": 13},
            "level",
            "solo_slim has no level",
            id="level-on-solo-slim",
        ),
        pytest.param(
            "flemish",
            {**ACCEPT, "contract": "troel", "level": 8},
            "level",
            "level 8 is out of range",
            id="flemish-troel-needs-9",
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "trump": None},
            "trump",
            "the trump is missing",
            id="trump-missing",
        ),
        pytest.param(
            "whisthub", {**MISERE, "trump": "S"}, "trump", "without trumps", id="trump-on-misere"
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "declarers": ["N"]},
            "declarers",
            "accept has 2 declarers, not 1",
            id="accept-alone",
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "contract": "solo", "level": 6},
            "declarers",
            "solo has 1 declarer, not 2",
            id="solo-in-pair",
        ),
        pytest.param(
            "whisthub",
            {**MISERE, "declarers": [], "tricks": {}},
            "declarers",
            "1 to 4 declarers, not 0",
            id="misere-without-declarer",
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "tricks": 14},
            "tricks",
            "tricks 14 is out of range",
            id="tricks-14",
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "tricks": -1},
            "tricks",
            "tricks -1 is out of range",
            id="tricks-negative",
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "tricks": None},
            "tricks",
            "tricks is missing",
            id="tricks-missing",
        ),
        pytest.param(
            "whisthub",
            {**MISERE, "tricks": {"N": 7, "S": 7}},
            "tricks",
            "add up to 14, more than the 13",
            id="misere-tricks-14",
        ),
        pytest.param(
            "whisthub",
            {**MISERE, "contract": "small_misere", "tricks": {"N": 6, "S": 7}},
            "tricks",
            "add up to 13, more than the 12",
            id="small-misere-13",
        ),
        pytest.param(
            "whisthub",
            {**MISERE, "contract": "small_misere", "tricks": {"N": 13, "S": 0}},
            "tricks.N",
            "out of range 0-12",
            id="small-misere-own-13",
        ),
        pytest.param(
            "whisthub",
            {**MISERE, "tricks": {"N": 0, "S": -1}},
            "tricks.S",
            "out of range 0-13",
            id="misere-own-negative",
        ),
        pytest.param(
            "whisthub",
            {**ACCEPT, "doubled": True},
            "doubled",
            "no announced double",
            id="whisthub-has-no-double",
        ),
        pytest.param(
            "whisthub",
            {"contract": "pass", "declarers": ["N"]},
            "declarers",
            "all-pass result has no declarers",
            id="pass-with-declarers",
        ),
        pytest.param(
            "flemish",
            {"contract": "pass", "doubled": True},
            "doubled",
            "all-pass result has no doubled",
            id="pass-doubled",
        ),
        pytest.param(
            "israeli", ACCEPT, "contract", "does not allow accept", id="accept-in-israeli"
        ),
        pytest.param(
            "whisthub", ISRAELI, "contract", "not Israeli Whist", id="israeli-in-whisthub"
        ),
        pytest.param(
            "israeli",
            {**ISRAELI, "level": 4, "bids": {**ISRAELI["bids"], "N": 4}},
            "level",
            "level 4 is out of range",
            id="israeli-level-4",
        ),
        pytest.param(
            "israeli",
            {**ISRAELI, "bids": {**ISRAELI["bids"], "N": 6}},
            "bids.N",
            "bids its contract's level 7, not 6",
            id="declarer-bid-not-level",
        ),
        pytest.param(
            "israeli",
            {**ISRAELI, "bids": {**ISRAELI["bids"], "W": 4}},
            "bids",
            "add up to 13",
            id="bids-add-to-13",
        ),
        pytest.param(
            "israeli",
            {**ISRAELI, "bids": {**ISRAELI["bids"], "E": 14}},
            "bids.E",
            "out of range 0-13",
            id="bid-14",
        ),
        pytest.param(
            "israeli",
            {**ISRAELI, "tricks": {"N": 6, "E": 2, "S": 1, "W": 3}},
            "tricks",
            "add up to 12, not 13",
            id="tricks-add-to-12",
        ),
        pytest.param(
            "israeli",
            {**ISRAELI, "tricks": {"N": 6, "E": 2, "S": -1, "W": 6}},
            "tricks.S",
            "out of range",
            id="tricks-negative-israeli",
        ),
        pytest.param(
            "israeli",
            {**ISRAELI, "tricks": None},
            "tricks",
            "tricks is missing",
            id="israeli-tricks-missing",
        ),
    ],
)
def test_it_refuses_a_result_naming_the_field(
    ruleset: str, obj: dict[str, Any], field: str, words: str
) -> None:
    obj = {key: value for key, value in obj.items() if value is not None}

    refusal = _refusal(ruleset, obj)

    assert refusal.field == field
    assert words in str(refusal)


def test_it_refuses_a_seat_named_twice() -> None:
    result = BoardResult(Contract.ACCEPT, 9, Suit.H, (Seat.N, Seat.N), tricks=9)

    with pytest.raises(InvalidResultError) as caught:
        validate(load_builtin("whisthub"), result)

    assert caught.value.field == "declarers"
    assert "names N twice" in str(caught.value)


def test_it_refuses_one_trick_count_for_a_negative_contract() -> None:
    result = BoardResult(Contract.MISERE, declarers=(Seat.E,), tricks=0)

    with pytest.raises(InvalidResultError) as caught:
        validate(load_builtin("pagat"), result)

    assert caught.value.field == "tricks"


def test_it_refuses_declarer_tricks_for_a_contract_to_win_tricks() -> None:
    result = BoardResult(Contract.SOLO, 6, Suit.C, (Seat.E,), declarer_tricks=(6,))

    with pytest.raises(InvalidResultError) as caught:
        validate(load_builtin("pagat"), result)

    assert caught.value.field == "tricks"


def test_it_refuses_an_israeli_contract_written_as_a_board_result() -> None:
    result = BoardResult(Contract.ISRAELI, 7, Suit.H, (Seat.N,), tricks=7)

    with pytest.raises(InvalidResultError) as caught:
        validate(load_builtin("israeli"), result)

    assert caught.value.field == "contract"


def test_it_accepts_a_contract_not_played_yet_when_asked() -> None:
    contract = BoardResult.from_json({key: ACCEPT[key] for key in ACCEPT if key != "tricks"})
    misere = BoardResult(Contract.MISERE, declarers=(Seat.W,))

    validate(load_builtin("whisthub"), contract, played=False)
    validate(load_builtin("whisthub"), misere, played=False)
    with pytest.raises(InvalidResultError):
        validate(load_builtin("whisthub"), contract)


def test_it_accepts_the_results_of_the_command_line_contract() -> None:
    israeli = IsraeliResult.from_json(ISRAELI)

    validate(load_builtin("whisthub"), result_from_json(ACCEPT))
    validate(load_builtin("whisthub"), result_from_json(MISERE))
    validate(load_builtin("whisthub"), result_from_json({"contract": "pass"}))
    validate(load_builtin("israeli"), israeli)
    assert score(load_builtin("israeli"), israeli) == (-10, 14, -50, -10)


def test_it_accepts_the_after_all_pass_flag_under_every_ruleset() -> None:
    for name in builtin_names():
        if name.startswith("israeli"):
            continue
        validate(load_builtin(name), result_from_json({**MISERE, "after_all_pass": True}))


# --- the scorer's quick checks agree with the validation ---------------------------------------


SPOILS = ("contract", "level", "trump", "declarers", "tricks", "declarer_tricks", "doubled")


@st.composite
def near_valid_results(draw: st.DrawFn, name: str) -> BoardResult:
    """Valid results of the ruleset, about half of them with one or two fields spoiled."""
    result = draw(board_results(load_builtin(name)))
    for spoil in draw(st.lists(st.sampled_from(SPOILS), max_size=2)):
        value: Any
        if spoil == "contract":
            value = draw(st.sampled_from(list(Contract)))
        elif spoil == "level":
            value = draw(st.sampled_from([None, 4, 7, 8, 9, 13, 14]))
        elif spoil == "trump":
            value = None if result.trump is not None else draw(st.sampled_from(SUITS))
        elif spoil == "declarers":
            value = tuple(draw(st.lists(st.sampled_from(SEATS), max_size=5)))
        elif spoil == "tricks":
            value = draw(st.one_of(st.none(), st.integers(-1, 14)))
        elif spoil == "declarer_tricks":
            value = tuple(draw(st.lists(st.integers(-1, 13), max_size=4)))
        else:
            value = True
        result = replace(result, **{spoil: value})
    return result


@settings(max_examples=200)
@given(
    st.sampled_from([n for n in builtin_names() if not n.startswith("israeli")]).flatmap(
        lambda name: st.tuples(st.just(name), near_valid_results(name))
    )
)
def test_score_refuses_exactly_the_results_validation_refuses(
    pair: tuple[str, BoardResult],
) -> None:
    name, result = pair
    ruleset = load_builtin(name)
    try:
        validate(ruleset, result)
        valid = True
    except InvalidResultError:
        valid = False

    if valid:
        assert len(score(ruleset, result)) == 4
    else:
        with pytest.raises(InvalidResultError):
            score(ruleset, result)


def test_iwwa_takes_a_troel_for_8_and_for_9() -> None:
    """scoring-tables.md, iwwa: 8 tricks with the trumps kept, 9 after the partner switched."""
    iwwa = load_builtin("iwwa")
    for line, level in (("NW troel H 8", 8), ("NW troel8H 8", 8), ("NW troel9H 9", 9)):
        result = parse_result_line(line)
        assert isinstance(result, BoardResult)
        assert result.level == level
        validate(iwwa, result)
