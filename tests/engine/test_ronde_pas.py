"""Wiezen's Ronde Pas: the worked examples, zero sum, rotation, notation, validation, rulesets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.adjudication import adjudicate
from engine.cards import ALL_CARDS, SEATS, Card, Seat
from engine.errors import InvalidResultError, ParseError, RulesetError
from engine.hands import Deal, Hand
from engine.notation import format_result_line, parse_result_line
from engine.results import (
    BoardResult,
    Contract,
    RondePasGame,
    RondePasResult,
    result_from_json,
)
from engine.ronde_pas import GAME_ORDER, game_for_all_pass, ronde_pas_scores
from engine.ruleset import Ruleset, load_builtin, load_ruleset, ruleset_to_mapping, ruleset_to_toml
from engine.scoring import score, scores_by_seat
from engine.validation import validate

FIXTURE = Path(__file__).parent / "fixtures" / "ronde_pas.json"
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
LAST_TRICK, QUEENS, FEWEST_TRICKS = (
    RondePasGame.LAST_TRICK,
    RondePasGame.QUEENS,
    RondePasGame.FEWEST_TRICKS,
)


def wiezen_ruleset(ronde_pas: bool = True, unit: int | None = None) -> Ruleset:
    """iwwa-wiezen with Ronde Pas after an all-pass (and another unit when given)."""
    document = ruleset_to_mapping(load_builtin("iwwa-wiezen"))
    document["name"] = "club-wiezen"
    document["auction"]["ronde_pas"] = ronde_pas
    if unit is not None:
        document["contracts"]["ronde_pas"] = {"unit": unit}
    return load_ruleset(document)


RONDE_PAS = wiezen_ruleset()
CASES = json.loads(FIXTURE.read_text("utf-8"))["cases"]


def refusal(ruleset: Ruleset, result: Any) -> InvalidResultError:
    with pytest.raises(InvalidResultError) as caught:
        validate(ruleset, result)
    return caught.value


# -- the worked examples of the rules text -------------------------------------------------------


def test_it_keeps_every_worked_example_of_the_text() -> None:
    queens = {
        tuple(sorted(case["result"]["queens"].values(), reverse=True))
        for case in CASES
        if case["result"]["game"] == "queens"
    }
    assert queens == {(4, 0, 0, 0), (3, 1, 0, 0), (2, 2, 0, 0), (2, 1, 1, 0), (1, 1, 1, 1)}
    games = {case["result"]["game"] for case in CASES}
    assert games == {"last_trick", "queens", "fewest_tricks"}


@pytest.mark.parametrize("case", CASES, ids=[case["source"][17:60] for case in CASES])
def test_it_scores_each_worked_example_as_the_text_says(case: dict[str, Any]) -> None:
    result = result_from_json(case["result"])

    assert isinstance(result, RondePasResult)
    assert scores_by_seat(score(RONDE_PAS, result)) == case["scores"]


def test_the_last_trick_costs_its_winner_twelve() -> None:
    assert score(RONDE_PAS, RondePasResult(LAST_TRICK, last_trick=N)) == (-12, 4, 4, 4)


def test_two_players_with_two_queens_each_lose_eight() -> None:
    result = RondePasResult(QUEENS, queens=(0, 2, 0, 2))
    assert score(RONDE_PAS, result) == (8, -8, 8, -8)


def test_players_tied_for_fewest_tricks_each_receive_from_every_other_player() -> None:
    assert score(RONDE_PAS, RondePasResult(FEWEST_TRICKS, tricks=(2, 2, 4, 5))) == (8, 8, -8, -8)
    assert score(RONDE_PAS, RondePasResult(FEWEST_TRICKS, tricks=(3, 3, 4, 3))) == (4, 4, -12, 4)


def test_a_custom_ruleset_scores_with_its_own_unit() -> None:
    ruleset = wiezen_ruleset(unit=5)

    assert ruleset.ronde_pas is not None
    assert ruleset.ronde_pas.unit == 5
    assert score(ruleset, RondePasResult(LAST_TRICK, last_trick=E)) == (5, -15, 5, 5)
    assert score(ruleset, RondePasResult(QUEENS, queens=(2, 2, 0, 0))) == (-10, -10, 10, 10)


# -- zero sum ------------------------------------------------------------------------------------


def counts(total: int, high: int) -> st.SearchStrategy[tuple[int, int, int, int]]:
    """Four counts of 0..``high`` adding up to ``total``."""
    return (
        st.tuples(st.integers(0, high), st.integers(0, high), st.integers(0, high))
        .filter(lambda three: total - high <= sum(three) <= total)
        .map(lambda three: (three[0], three[1], three[2], total - sum(three)))
    )


ronde_pas_results = st.one_of(
    st.builds(RondePasResult, st.just(LAST_TRICK), last_trick=st.sampled_from(SEATS)),
    st.builds(RondePasResult, st.just(QUEENS), queens=counts(4, 4)),
    st.builds(RondePasResult, st.just(FEWEST_TRICKS), tricks=counts(13, 13)),
)


@settings(max_examples=300)
@given(ronde_pas_results, st.integers(1, 50))
def test_every_ronde_pas_board_adds_up_to_zero(result: RondePasResult, unit: int) -> None:
    scores = score(wiezen_ruleset(unit=unit), result)

    assert sum(scores) == 0
    assert all(value % unit == 0 for value in scores)
    assert ronde_pas_scores(unit, result) == scores


@settings(max_examples=200)
@given(ronde_pas_results)
def test_the_loser_never_gains_and_the_winner_never_loses(result: RondePasResult) -> None:
    scores = score(RONDE_PAS, result)
    if result.game is QUEENS:
        assert result.queens is not None
        most = max(result.queens)
        assert all(scores[s.value] <= 0 for s in SEATS if result.queens[s.value] == most)
    elif result.game is FEWEST_TRICKS:
        assert result.tricks is not None
        fewest = min(result.tricks)
        assert all(scores[s.value] > 0 for s in SEATS if result.tricks[s.value] == fewest)
    else:
        assert result.last_trick is not None
        assert scores[result.last_trick.value] == -12


# -- rotation ------------------------------------------------------------------------------------


def test_the_games_come_in_the_order_of_the_text() -> None:
    assert GAME_ORDER == (LAST_TRICK, QUEENS, FEWEST_TRICKS)


def test_the_fourth_all_pass_plays_the_first_game_again() -> None:
    played = [game_for_all_pass(n) for n in range(1, 8)]

    assert played == [
        LAST_TRICK,
        QUEENS,
        FEWEST_TRICKS,
        LAST_TRICK,
        QUEENS,
        FEWEST_TRICKS,
        LAST_TRICK,
    ]


@pytest.mark.parametrize("number", [0, -1, True, 1.0])
def test_it_counts_the_all_passes_from_one(number: Any) -> None:
    with pytest.raises(ValueError, match="counted from 1"):
        game_for_all_pass(number)


# -- JSON ----------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(ronde_pas_results)
def test_it_reads_back_the_json_it_writes(result: RondePasResult) -> None:
    assert result_from_json(result.to_json()) == result


def test_the_json_names_the_game_and_what_decides_it() -> None:
    assert RondePasResult(LAST_TRICK, last_trick=E).to_json() == {
        "contract": "ronde_pas",
        "game": "last_trick",
        "last_trick": "E",
    }
    assert RondePasResult(QUEENS, queens=(1, 2, 1, 0)).to_json()["queens"] == {
        "N": 1,
        "E": 2,
        "S": 1,
        "W": 0,
    }


@pytest.mark.parametrize(
    ("obj", "field", "words"),
    [
        ({"contract": "ronde_pas"}, "game", "the game is missing"),
        ({"contract": "ronde_pas", "game": "hearts"}, "game", "game must be last_trick"),
        ({"contract": "ronde_pas", "game": "last_trick", "last_trick": "X"}, "last_trick", "seat"),
        ({"contract": "ronde_pas", "game": "queens", "queens": [1, 1, 1, 1]}, "queens", "every"),
        (
            {"contract": "ronde_pas", "game": "queens", "queens": {"N": 4, "E": 0, "S": 0}},
            "queens.W",
            "missing seat W",
        ),
        ({"contract": "ronde_pas", "game": "queens", "declarers": ["N"]}, "declarers", "unknown"),
    ],
)
def test_it_names_the_field_of_a_broken_json_result(
    obj: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(InvalidResultError, match=words) as caught:
        result_from_json(obj)
    assert caught.value.field == field


def test_a_board_result_cannot_be_a_ronde_pas() -> None:
    with pytest.raises(InvalidResultError, match="has its own form") as caught:
        BoardResult.from_json({"contract": "ronde_pas"})
    assert caught.value.field == "contract"


# -- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("ronde last E", "ronde last E"),
        ("rondepas laatste E", "ronde last E"),
        ("Ronde Pas laatste slag e", "ronde last E"),
        ("dernier pli E", "ronde last E"),
        ("misère totale dernier E", "ronde last E"),
        ("ronde queens N1 E2 S1 W0", "ronde queens N1 E2 S1 W0"),
        ("totale miserie dames W0, S1, E2, N1", "ronde queens N1 E2 S1 W0"),
        ("ronde pas vrouwen N 1 E 2 S 1 W 0", "ronde queens N1 E2 S1 W0"),
        ("reines N4 E0 S0 W0", "ronde queens N4 E0 S0 W0"),
        ("ronde tricks N3 E4 S2 W4", "ronde tricks N3 E4 S2 W4"),
        ("rondepas minste slagen N3 E4 S2 W4", "ronde tricks N3 E4 S2 W4"),
        ("plis N3 E4 S2 W4", "ronde tricks N3 E4 S2 W4"),
        ("moins de plis n3,e4,s2,w4", "ronde tricks N3 E4 S2 W4"),
    ],
)
def test_it_reads_ronde_pas_lines_in_english_dutch_and_french(typed: str, shown: str) -> None:
    result = parse_result_line(typed, game="wiezen")

    assert isinstance(result, RondePasResult)
    assert format_result_line(result) == shown


def test_the_documented_ronde_pas_lines_read_as_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text("utf-8")
    section = doc[doc.index("\n## Ronde Pas lines\n") : doc.index("\n## Error messages\n")]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[2].startswith("`"):
            rows.append((cells[0].strip("`"), cells[2].strip("`")))
    assert len(rows) == 7
    for typed, shown in rows:
        assert format_result_line(parse_result_line(typed, game="wiezen")) == shown


def test_a_passed_round_with_a_j_is_still_an_all_pass() -> None:
    assert parse_result_line("rondje pas", game="wiezen") == BoardResult(Contract.PASS)


@settings(max_examples=200)
@given(ronde_pas_results, st.sampled_from(["wiezen", "kleurenwiezen"]))
def test_it_reads_back_every_ronde_pas_line_it_writes(result: RondePasResult, game: str) -> None:
    line = format_result_line(result)

    assert parse_result_line(line, game=game) == result
    assert parse_result_line(line.lower(), game=game) == result


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ("ronde pas E", "ronde_pas_expected_game", 11),
        ("ronde", "ronde_pas_expected_game", 6),
        ("ronde last", "ronde_pas_expected_seat", 11),
        ("ronde last NE", "expected_end", 13),
        ("ronde queens 1,2,1,0", "expected_seat_queens", 14),
        ("ronde queens N1 N2", "seat_twice", 17),
        ("ronde queens N5", "queens_out_of_range", 15),
        ("ronde queens N1 E2 S1", "queens_seats_missing", 22),
        ("ronde tricks N14", "player_tricks_out_of_range", 15),
        ("ronde tricks N3 E4 S2 W4 dbl", "expected_end", 26),
    ],
)
def test_it_points_at_what_is_wrong_in_a_ronde_pas_line(line: str, code: str, column: int) -> None:
    with pytest.raises(ParseError) as caught:
        parse_result_line(line, game="wiezen")

    assert caught.value.code == code
    assert caught.value.params["column"] == column
    assert str(caught.value).startswith(f"column {column}: ")


def test_it_cannot_write_a_ronde_pas_without_what_decides_it() -> None:
    with pytest.raises(InvalidResultError) as caught:
        format_result_line(RondePasResult(FEWEST_TRICKS))
    assert (caught.value.code, caught.value.field) == ("ronde_pas_field_missing", "tricks")


# -- validation ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "code", "field"),
    [
        (RondePasResult(LAST_TRICK), "ronde_pas_last_trick_missing", "last_trick"),
        (RondePasResult(QUEENS), "ronde_pas_queens_missing", "queens"),
        (RondePasResult(FEWEST_TRICKS), "ronde_pas_tricks_missing", "tricks"),
        (
            RondePasResult(LAST_TRICK, last_trick=N, tricks=(13, 0, 0, 0)),
            "ronde_pas_other_field",
            "tricks",
        ),
        (RondePasResult(QUEENS, queens=(1, 1, 1, 0)), "queens_total", "queens"),
        (RondePasResult(QUEENS, queens=(5, -1, 0, 0)), "seat_queens_out_of_range", "queens.N"),
        (RondePasResult(FEWEST_TRICKS, tricks=(3, 4, 2, 3)), "tricks_total", "tricks"),
        (
            RondePasResult(FEWEST_TRICKS, tricks=(0, 0, 14, -1)),
            "seat_tricks_out_of_range",
            "tricks.S",
        ),
        (BoardResult(Contract.RONDE_PAS), "ronde_pas_as_board_result", "contract"),
    ],
)
def test_it_refuses_a_ronde_pas_result_that_cannot_be(result: Any, code: str, field: str) -> None:
    error = refusal(RONDE_PAS, result)

    assert (error.code, error.field) == (code, field)


def test_a_ronde_pas_not_yet_played_needs_no_outcome() -> None:
    validate(RONDE_PAS, RondePasResult(QUEENS), played=False)


def test_a_wiezen_ruleset_that_deals_again_refuses_ronde_pas() -> None:
    error = refusal(load_builtin("iwwa-wiezen"), RondePasResult(LAST_TRICK, last_trick=N))

    assert error.code == "ronde_pas_not_played"
    assert error.params == {"ruleset": "iwwa-wiezen"}


@pytest.mark.parametrize("name", ["whisthub", "pagat", "flemish", "iwwa"])
def test_kleurenwiezen_rulesets_refuse_ronde_pas(name: str) -> None:
    error = refusal(load_builtin(name), RondePasResult(LAST_TRICK, last_trick=N))

    assert error.code == "ronde_pas_not_wiezen"
    assert error.params == {"ruleset": name, "game": "kleurenwiezen"}
    assert not load_builtin(name).allows(Contract.RONDE_PAS)


def test_israeli_rulesets_refuse_ronde_pas() -> None:
    error = refusal(load_builtin("israeli"), RondePasResult(QUEENS, queens=(1, 1, 1, 1)))

    assert error.code == "ronde_pas_not_wiezen"


# -- rulesets ------------------------------------------------------------------------------------


def test_iwwa_wiezen_has_the_figures_and_still_deals_an_all_pass_again() -> None:
    ruleset = load_builtin("iwwa-wiezen")

    assert ruleset.ronde_pas is not None
    assert ruleset.ronde_pas.unit == 4
    assert ruleset.auction_options.get("ronde_pas") is False
    assert not ruleset.plays_ronde_pas
    assert not ruleset.allows(Contract.RONDE_PAS)


def test_a_ruleset_that_plays_ronde_pas_allows_it_and_reads_back_what_it_writes() -> None:
    assert RONDE_PAS.plays_ronde_pas
    assert RONDE_PAS.allows(Contract.RONDE_PAS)
    assert Contract.RONDE_PAS not in RONDE_PAS.allowed_contracts
    assert load_ruleset(ruleset_to_toml(RONDE_PAS)) == RONDE_PAS
    assert "ronde_pas = true" in ruleset_to_toml(RONDE_PAS)


def _document(game: str = "wiezen", **changes: Any) -> dict[str, Any]:
    document = ruleset_to_mapping(load_builtin("iwwa-wiezen" if game == "wiezen" else "whisthub"))
    document["name"] = "club"
    for key, value in changes.items():
        section, _, name = key.partition("__")
        document[section][name] = value
    return document


@pytest.mark.parametrize(
    ("document", "key", "words"),
    [
        (_document(auction__ronde_pas="sometimes"), "auction.ronde_pas", "true or false"),
        (_document(contracts__ronde_pas={"unit": 0}), "contracts.ronde_pas.unit", "at least 1"),
        (_document(contracts__ronde_pas={"unit": "4"}), "contracts.ronde_pas.unit", "whole"),
        (_document(contracts__ronde_pas={}), "contracts.ronde_pas.unit", "missing"),
        (
            _document(contracts__ronde_pas={"unit": 4, "made": 1}),
            "contracts.ronde_pas.made",
            "unknown key",
        ),
        (
            _document("kleurenwiezen", contracts__ronde_pas={"unit": 4}),
            "contracts.ronde_pas",
            "Wiezen game",
        ),
        (
            _document("kleurenwiezen", auction__ronde_pas=True),
            "auction.ronde_pas",
            "option of wiezen auctions",
        ),
    ],
)
def test_it_refuses_a_bad_ronde_pas_setting_naming_the_key(
    document: dict[str, Any], key: str, words: str
) -> None:
    with pytest.raises(RulesetError, match=words) as caught:
        load_ruleset(document)
    assert caught.value.key == key


def test_playing_ronde_pas_needs_its_figures() -> None:
    document = _document(auction__ronde_pas=True)
    del document["contracts"]["ronde_pas"]

    with pytest.raises(RulesetError, match=r"\[contracts.ronde_pas\]") as caught:
        load_ruleset(document)
    assert caught.value.key == "contracts.ronde_pas"


def test_ronde_pas_is_not_a_bid_on_the_ladder() -> None:
    document = _document(auction__ronde_pas=True)
    document["ladder"].append("ronde_pas")

    with pytest.raises(RulesetError, match="not a bid") as caught:
        load_ruleset(document)
    assert caught.value.key == f"ladder[{len(document['ladder']) - 1}]"


# -- adjudication --------------------------------------------------------------------------------


def deal_with(n: str) -> Deal:
    """North holds ``n``; the other cards go to E, S and W in card order."""
    north = [Card.parse(word) for word in n.split()]
    rest = [card for card in ALL_CARDS if card not in north]
    hands = [north, rest[0:13], rest[13:26], rest[26:39]]
    return Deal([Hand.of(hand) for hand in hands])


TOPS = deal_with("SA SK SQ HA HK HQ DA DK DQ CA CK CQ CJ")


@pytest.mark.parametrize(
    ("result", "field"),
    [
        (RondePasResult(LAST_TRICK, last_trick=E), "last_trick"),
        (RondePasResult(QUEENS, queens=(3, 1, 0, 0)), "queens.N"),
        (RondePasResult(FEWEST_TRICKS, tricks=(12, 1, 0, 0)), "tricks.N"),
    ],
)
def test_a_leader_holding_only_top_cards_wins_every_trick(
    result: RondePasResult, field: str
) -> None:
    (problem,) = adjudicate(RONDE_PAS, result, TOPS, W)

    assert (problem.code, problem.severity, problem.field) == (
        "leader_wins_every_trick",
        "impossible",
        field,
    )
    assert problem.params == {"seat": "N"}


def test_it_claims_nothing_the_cards_do_not_prove() -> None:
    possible = [
        RondePasResult(LAST_TRICK, last_trick=N),
        RondePasResult(QUEENS, queens=(4, 0, 0, 0)),
        RondePasResult(FEWEST_TRICKS, tricks=(13, 0, 0, 0)),
    ]
    for result in possible:
        assert adjudicate(RONDE_PAS, result, TOPS, W) == []
    # With East on lead, or no dealer known, North's top cards prove nothing.
    beaten = RondePasResult(FEWEST_TRICKS, tricks=(0, 5, 4, 4))
    assert adjudicate(RONDE_PAS, beaten, TOPS, N) == []
    assert adjudicate(RONDE_PAS, beaten, TOPS) == []
    ordinary = deal_with("SA SK SQ HA HK HQ DA DK DQ CA CK CQ C2")
    assert adjudicate(RONDE_PAS, beaten, ordinary, W) == []
