"""The errors people meet carry a stable code and the parameters their English message is built from."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import notation_messages
from engine.cards import Seat, Suit
from engine.errors import EngineError, InvalidResultError, MovementError, ParseError
from engine.notation import parse_result_line
from engine.results import BoardResult, Contract
from engine.ruleset import BUILTIN_NAMES, load_builtin
from engine.validation import validate
from tests.engine.error_examples import EXAMPLES, SOURCES, UNREACHABLE, raised

ALL_MESSAGES: dict[str, str] = {
    code: text for messages in SOURCES.values() for code, text in messages.items()
}


def names(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def rebuilt(error: EngineError) -> str:
    """The error's message made again from its code and parameters, as its module makes it."""
    assert error.code is not None
    if error.code in notation_messages.MESSAGES:
        return notation_messages.message(error.code, error.params)
    return ALL_MESSAGES[error.code].format(**error.params)


def assert_coded(error: EngineError) -> None:
    assert error.code in ALL_MESSAGES, str(error)
    assert set(error.params) == names(ALL_MESSAGES[error.code])
    assert rebuilt(error) == str(error)


def test_every_code_belongs_to_one_module() -> None:
    codes = [code for messages in SOURCES.values() for code in messages]
    assert len(codes) == len(set(codes))


def test_every_code_has_an_example_except_the_ones_no_line_reaches() -> None:
    assert set(EXAMPLES) == set(ALL_MESSAGES) - UNREACHABLE
    assert UNREACHABLE.issubset(notation_messages.MESSAGES)


@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_each_example_raises_its_code_with_the_parameters_of_its_message(code: str) -> None:
    error = raised(code)

    assert error.code == code
    assert_coded(error)


def test_a_result_line_error_keeps_its_position_and_names_its_column() -> None:
    error = raised("level_out_of_range")

    assert isinstance(error, ParseError)
    assert error.position == 3
    assert error.params["column"] == 4
    assert (
        str(error) == "column 4: expected the level of the acceptance, found 14: it must be 8 to 13"
    )
    assert error.params == {
        "column": 4,
        "the_contract": "accept",
        "number": "14",
        "low": 8,
        "high": 13,
    }
    assert error.pointer() == "NE 14H 10\n   ^"


def test_the_end_of_the_line_is_an_empty_found() -> None:
    error = raised("expected_flag")
    assert error.params["found"] == "'xyz'"

    with pytest.raises(ParseError) as caught:
        parse_result_line("W sol")

    assert caught.value.code == "level_before_suit"
    assert caught.value.params["found"] == ""
    assert str(caught.value).endswith("e.g. sol5S, found the end of the line")


def test_a_refused_result_keeps_its_field() -> None:
    error = raised("seat_tricks_out_of_range")

    assert isinstance(error, InvalidResultError)
    assert error.field == "tricks.N"
    assert error.params == {"seat": "N", "count": 14, "most": 13}


def test_the_old_constructors_still_work_without_a_code() -> None:
    parse = ParseError("column 1: bad", "x", 0)
    invalid = InvalidResultError("bad level", "level")
    movement = MovementError("players: too few")

    assert (parse.code, parse.params, parse.text, parse.position) == (None, {}, "x", 0)
    assert (invalid.code, invalid.params, invalid.field) == (None, {}, "level")
    assert (movement.code, movement.params, str(movement)) == (None, {}, "players: too few")


@settings(max_examples=300)
@given(
    st.text(alphabet="NESWnesw ,?0123456789HDCShdcs♥♠abilmoprtx-/é.", max_size=24),
    st.sampled_from(["kleurenwiezen", "wiezen", "israeli"]),
)
def test_every_error_of_a_result_line_is_its_coded_message(text: str, game: str) -> None:
    error = refusal(lambda: parse_result_line(text, game=game))
    if error is not None:
        assert_coded(error)
        assert isinstance(error, ParseError)
        assert error.params["column"] == (error.position or 0) + 1


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_every_refusal_of_a_ruleset_is_its_coded_message(name: str) -> None:
    ruleset = load_builtin(name)
    refused = 0
    for result in _results():
        error = refusal(lambda: validate(ruleset, result))  # noqa: B023  # called at once
        if error is not None:
            assert_coded(error)
            refused += 1
    assert refused > 100


def refusal(call: Callable[[], object]) -> EngineError | None:
    """The engine's error for ``call``, or None when it goes through."""
    try:
        call()
    except EngineError as error:
        return error
    return None


def _results() -> list[BoardResult]:
    seats: Mapping[int, tuple[Seat, ...]] = {
        0: (),
        1: (Seat.N,),
        2: (Seat.N, Seat.E),
        4: (Seat.N, Seat.E, Seat.S, Seat.W),
    }
    results = []
    for contract in Contract:
        for level in (None, 5, 9, 14):
            for trump in (None, Suit.H):
                for declarers in seats.values():
                    for tricks in (None, 7, 14):
                        for own in ((), (0,), (13, 1)):
                            results.append(
                                BoardResult(contract, level, trump, declarers, tricks, own)
                            )
    return results
