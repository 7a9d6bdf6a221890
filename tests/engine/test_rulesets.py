"""Rulesets as data: the built-in files, the API the auction and scorer use, broken documents."""

from __future__ import annotations

import datetime
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Suit
from engine.errors import InvalidResultError, RulesetError, UnknownRulesetError
from engine.results import Contract
from engine.ruleset import (
    SHAPES,
    Bid,
    builtin_names,
    load_builtin,
    load_ruleset,
    ruleset_to_mapping,
    ruleset_to_toml,
)
from engine.schedule import FORMULAS
from engine.tomldoc import FrozenTable, dumps

ROOT = Path(__file__).parents[2]
RULESET_FILES = ROOT / "engine" / "rulesets"
CUSTOM = Path(__file__).parent / "fixtures" / "scoring" / "st-niklaas.toml"
WHISTHUB = (RULESET_FILES / "whisthub.toml").read_text("utf-8")


def _bids(text: str) -> list[Bid]:
    return [Bid.parse(part.strip()) for part in text.split("<")]


# --- the built-in rulesets -----------------------------------------------------------------------


def test_it_lists_the_built_in_rulesets_of_the_command_line_contract() -> None:
    assert builtin_names() == (
        "whisthub",
        "whisthub-piccolo",
        "pagat",
        "flemish",
        "iwwa",
        "iwwa-wiezen",
        "israeli",
        "israeli-alt",
    )
    assert sorted(path.stem for path in RULESET_FILES.glob("*.toml")) == sorted(builtin_names())


@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_ruleset_loads_under_its_own_name(name: str) -> None:
    ruleset = load_builtin(name)

    assert ruleset.name == name
    assert ruleset.title
    assert load_builtin(name) is ruleset


def test_it_names_the_built_in_rulesets_when_asked_for_an_unknown_one() -> None:
    with pytest.raises(UnknownRulesetError) as caught:
        load_builtin("bridge")

    assert "'bridge'" in str(caught.value)
    assert "whisthub, whisthub-piccolo, pagat" in str(caught.value)


def test_it_gives_each_built_in_ruleset_its_game_and_balance() -> None:
    games = {
        name: (load_builtin(name).game, load_builtin(name).balancing) for name in builtin_names()
    }

    assert games == {
        "whisthub": ("kleurenwiezen", True),
        "whisthub-piccolo": ("kleurenwiezen", True),
        "pagat": ("kleurenwiezen", True),
        "flemish": ("kleurenwiezen", True),
        "iwwa": ("kleurenwiezen", False),
        "iwwa-wiezen": ("wiezen", True),
        "israeli": ("israeli", False),
        "israeli-alt": ("israeli", False),
    }


def test_the_whisthub_ladder_is_the_one_of_the_scoring_tables() -> None:
    expected = _bids(
        "accept 8 < solo 5 < accept 9 < solo 6 < accept 10 < solo 7 < accept 11 < small_misere < "
        "accept 12 < solo 8 < accept 13 < abondance 9 < troel < misere < abondance 10 < "
        "abondance 11 < open_misere < abondance 12 < solo_slim"
    )

    assert list(load_builtin("whisthub").ladder) == expected
    assert list(load_builtin("pagat").ladder) == expected
    with_piccolo = list(load_builtin("whisthub-piccolo").ladder)
    assert with_piccolo == [*expected[:10], Bid(Contract.PICCOLO), *expected[10:]]


def test_the_iwwa_ladder_has_no_solo_5_and_both_slims() -> None:
    expected = _bids(
        "accept 8 < accept 9 < solo 6 < accept 10 < solo 7 < accept 11 < small_misere < "
        "accept 12 < solo 8 < piccolo < accept 13 < abondance 9 < troel < misere < "
        "abondance 10 < abondance 11 < open_misere < small_solo_slim < solo_slim"
    )

    assert list(load_builtin("iwwa").ladder) == expected


def test_flemish_ranks_a_solo_with_the_acceptance_for_three_more_tricks() -> None:
    flemish = load_builtin("flemish")

    assert flemish.steps[0] == (Bid(Contract.ACCEPT, 8), Bid(Contract.SOLO, 5))
    # pagat: "a Solo 5 Clubs is lower than Accept 8 Diamonds, which is lower than Solo 8 Hearts"
    solo_5_clubs = flemish.bid_key(Contract.SOLO, 5, Suit.C)
    accept_8_diamonds = flemish.bid_key(Contract.ACCEPT, 8, Suit.D)
    solo_8_hearts = flemish.bid_key(Contract.SOLO, 8, Suit.H)
    assert solo_5_clubs < accept_8_diamonds < solo_8_hearts
    assert flemish.bid_key(Contract.SOLO, 6, Suit.H) == flemish.bid_key(Contract.ACCEPT, 9, Suit.H)


def test_a_bid_in_a_higher_suit_outranks_the_same_level_in_a_lower_one() -> None:
    pagat = load_builtin("pagat")
    accept_8_diamonds = pagat.bid_key(Contract.ACCEPT, 8, Suit.D)

    # pagat's example: East must bid 9 spades to outbid 8 diamonds.
    assert pagat.bid_key(Contract.ACCEPT, 8, Suit.S) < accept_8_diamonds
    assert pagat.bid_key(Contract.ACCEPT, 9, Suit.S) > accept_8_diamonds
    assert pagat.bid_key(Contract.SOLO, 6, Suit.C) > pagat.bid_key(Contract.ACCEPT, 9, Suit.H)
    suits = [pagat.bid_key(Contract.SOLO, 7, suit) for suit in (Suit.S, Suit.C, Suit.D, Suit.H)]
    assert suits == sorted(suits)
    assert len(set(suits)) == 4


def test_simultaneous_negative_contracts_have_equal_keys() -> None:
    whisthub = load_builtin("whisthub")

    assert whisthub.bid_key(Contract.MISERE) == whisthub.bid_key(Contract.MISERE)
    assert whisthub.bid_key(Contract.SMALL_MISERE) < whisthub.bid_key(Contract.ACCEPT, 12, Suit.S)
    assert whisthub.bid_key(Contract.TROEL, 9, Suit.H) < whisthub.bid_key(Contract.MISERE)


def test_israeli_bids_rank_by_level_then_denomination_as_in_bridge() -> None:
    israeli = load_builtin("israeli")
    key = israeli.bid_key

    assert key(Contract.ISRAELI, 6, Suit.C) < key(Contract.ISRAELI, 6, Suit.H)
    assert key(Contract.ISRAELI, 6, Suit.H) < key(Contract.ISRAELI, 7, Suit.C)
    assert key(Contract.ISRAELI, 7, Suit.S) < key(Contract.ISRAELI, 7, None)
    assert key(Contract.ISRAELI, 7, None) < key(Contract.ISRAELI, 8, Suit.C)
    assert israeli.levels(Contract.ISRAELI) == tuple(range(5, 14))


def test_it_refuses_the_key_of_a_bid_the_ruleset_does_not_have() -> None:
    iwwa = load_builtin("iwwa")

    with pytest.raises(InvalidResultError) as level:
        iwwa.bid_key(Contract.SOLO, 5, Suit.H)
    with pytest.raises(InvalidResultError) as contract:
        load_builtin("pagat").bid_key(Contract.PICCOLO)

    assert level.value.field == "level"
    assert contract.value.field == "contract"


def test_it_answers_which_contracts_and_levels_are_allowed() -> None:
    whisthub = load_builtin("whisthub")
    iwwa = load_builtin("iwwa")

    assert whisthub.levels(Contract.SOLO) == (5, 6, 7, 8)
    assert iwwa.levels(Contract.SOLO) == (6, 7, 8)
    assert whisthub.levels(Contract.MISERE) == ()
    assert whisthub.allows(Contract.SOLO, 5)
    assert not iwwa.allows(Contract.SOLO, 5)
    assert not whisthub.allows(Contract.PICCOLO)
    assert load_builtin("whisthub-piccolo").allows(Contract.PICCOLO)
    assert whisthub.allows(Contract.PASS)
    assert not whisthub.allows(Contract.ISRAELI)
    assert load_builtin("iwwa-wiezen").allows(Contract.GRAND_SOLO)


def test_it_reads_the_variant_options_of_each_ruleset() -> None:
    whisthub = load_builtin("whisthub").options
    flemish = load_builtin("flemish").options
    wiezen = load_builtin("iwwa-wiezen").options

    assert (whisthub.after_all_pass, load_builtin("pagat").options.after_all_pass) == (
        "double",
        "none",
    )
    assert (whisthub.troel_tricks, whisthub.troel_switch_tricks) == (8, 9)
    assert flemish.announced_double
    assert not whisthub.announced_double
    assert (flemish.troel_tricks, flemish.troel_switch_tricks) == (9, 9)
    assert (wiezen.troel_tricks, wiezen.troel_four_aces_tricks, wiezen.troel_switch_tricks) == (
        8,
        9,
        None,
    )
    assert wiezen.trump_order == ()
    assert whisthub.trump_order == (Suit.S, Suit.C, Suit.D, Suit.H)


def test_it_keeps_the_auction_and_penalty_tables_read_only() -> None:
    whisthub = load_builtin("whisthub")

    assert whisthub.auction_options["troel_four_aces_partner"] == "highest_heart"
    assert whisthub.auction_options["pass_parole_from_level"] == 11
    assert isinstance(whisthub.penalty_options, FrozenTable)
    with pytest.raises(TypeError):
        whisthub.auction_options["wait"] = False  # type: ignore[index]  # read-only on purpose
    assert hash(whisthub) == hash(load_ruleset(ruleset_to_toml(whisthub)))


# --- custom rulesets ---------------------------------------------------------------------------


def test_it_loads_a_custom_ruleset_file() -> None:
    ruleset = load_ruleset(CUSTOM.read_text("utf-8"), source=str(CUSTOM))

    assert ruleset.name == "st-niklaas"
    assert ruleset.game == "wiezen"
    assert ruleset.ladder == (Bid(Contract.ACCEPT, 8), Bid(Contract.SOLO, 5), Bid(Contract.PICCOLO))
    assert ruleset.source == str(CUSTOM)


def test_it_loads_the_worked_example_of_the_documentation() -> None:
    text = (ROOT / "docs" / "rulesets.md").read_text("utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.DOTALL)
    documents = [block for block in blocks if block.lstrip().startswith("#") or "name =" in block]
    complete = [block for block in documents if "[contracts." in block and "ladder" in block]

    assert complete
    for block in complete:
        ruleset = load_ruleset(block, source="docs/rulesets.md")
        assert load_ruleset(ruleset_to_toml(ruleset)) == ruleset


def test_it_loads_a_parsed_mapping_as_well_as_text() -> None:
    assert load_ruleset(tomllib.loads(WHISTHUB)) == load_builtin("whisthub")


@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_ruleset_survives_writing_and_reading(name: str) -> None:
    ruleset = load_builtin(name)

    assert load_ruleset(ruleset_to_toml(ruleset)) == ruleset
    assert load_ruleset(ruleset_to_mapping(ruleset)) == ruleset


# --- broken documents ----------------------------------------------------------------------------


def _broken(old: str, new: str, document: str = WHISTHUB) -> RulesetError:
    assert old in document
    with pytest.raises(RulesetError) as caught:
        load_ruleset(document.replace(old, new, 1), source="club.toml")
    return caught.value


def test_it_names_the_dotted_key_and_the_problem() -> None:
    error = _broken("levels = [5, 6, 7, 8]", "levels = [4, 5, 6, 7, 8]")

    assert str(error) == "contracts.solo.levels: level 4 is below 5"
    assert error.key == "contracts.solo.levels"


def test_a_bad_number_in_a_payout_names_its_key_once() -> None:
    document = ruleset_to_mapping(load_builtin("pagat"))
    document["name"] = "club"
    document["contracts"]["accept"]["failed"]["per_trick"] = "x"
    with pytest.raises(RulesetError) as caught:
        load_ruleset(document)
    assert str(caught.value) == "contracts.accept.failed.per_trick: must be a whole number, not 'x'"


@pytest.mark.parametrize(
    ("old", "new", "key", "words"),
    [
        ('name = "whisthub"', 'name = "Club Table"', "name", "not a name"),
        ('game = "kleurenwiezen"', 'game = "bridge"', "game", "must be one of"),
        ('title = "Whisthub standard (zero-sum)"', 'title = ""', "title", "empty"),
        ("balancing = true", "balancing = true\ncolour = 1", "colour", "unknown key"),
        (
            "levels = [8, 9, 10, 11, 12, 13]",
            "levels = [8, 9, 10, 11, 12, 13, 14]",
            "contracts.accept.levels",
            "level 14 is above 13",
        ),
        (
            "levels = [8, 9, 10, 11, 12, 13]",
            "levels = [9, 8, 10, 11, 12, 13]",
            "contracts.accept.levels",
            "increasing",
        ),
        (
            "levels = [5, 6, 7, 8]",
            'levels = [5, "6", 7, 8]',
            "contracts.solo.levels[1]",
            "whole number",
        ),
        (
            "[contracts.misere]",
            "[contracts.misere]\nlevels = [8]",
            "contracts.misere.levels",
            "unknown key",
        ),
        (
            "[contracts.misere]",
            "[contracts.grand_misere]",
            "contracts.grand_misere",
            "unknown contract",
        ),
        ("[contracts.misere]", "[contracts.pass]", "contracts.pass", "always allowed"),
        (
            'made = { formula = "flat", value = 12 }',
            "",
            "contracts.misere.made",
            "payout is missing",
        ),
        (
            'made = { formula = "flat", value = 12 }',
            'made = { formula = "fixed", value = 12 }',
            "contracts.misere.made.formula",
            "unknown formula 'fixed'",
        ),
        (
            'made = { formula = "flat", value = 12 }',
            "made = { value = 12 }",
            "contracts.misere.made.formula",
            "formula is missing",
        ),
        (
            'made = { formula = "flat", value = 12 }',
            'made = { formula = "flat", value = 12.5 }',
            "contracts.misere.made.value",
            "whole number",
        ),
        (
            'made = { formula = "flat", value = 12 }',
            'made = { formula = "flat", value = 12, per_trick = 1 }',
            "contracts.misere.made.per_trick",
            "unknown key",
        ),
        (
            'made = { formula = "flat", value = 12 }',
            'made = { formula = "by_level", values = { 9 = 1 } }',
            "contracts.misere.made.formula",
            "needs a contract with levels",
        ),
        (
            "values = { 8 = 8, 9 = 11, 10 = 14, 11 = 17, 12 = 20, 13 = 30 }",
            "values = { 8 = 8, 9 = 11, 10 = 14, 11 = 17, 12 = 20 }",
            "contracts.accept.made.values",
            "no value for 13 tricks (needed for accept 8 with 13 tricks)",
        ),
        (
            "base = { 5 = -3, 6 = -4, 7 = -5, 8 = -7 }",
            "base = { 5 = -3, 6 = -4, 7 = -5 }",
            "contracts.solo.failed.base",
            "no value for level 8",
        ),
        (
            "base = { 5 = -3, 6 = -4, 7 = -5, 8 = -7 }",
            "base = { five = -3 }",
            "contracts.solo.failed.base.five",
            "numbers of tricks",
        ),
        (
            "values = { 9 = 10, 10 = 15, 11 = 20, 12 = 30 }\nmax_tricks = 12",
            "values = { 9 = 10, 10 = 15, 11 = 20, 12 = 30 }\nmax_tricks = 14",
            "contracts.abondance.made.max_tricks",
            "outside 0-13",
        ),
        (
            'made = { formula = "flat", value = 12 }',
            'made = { bidders = { formula = "flat", value = 12 } }',
            "contracts.misere.made",
            "balancing ruleset gives one formula",
        ),
        ('"accept 8",', '"accept 7",', "ladder[0]", "level 7 is not in contracts.accept.levels"),
        ('"accept 8",', '"acceptance 8",', "ladder[0]", "not a contract"),
        ('"accept 8",', "", "ladder", "accept 8 is allowed but missing from the ladder"),
        ('"misere",', '"misere",\n    "piccolo",', "ladder[14]", "not an allowed contract"),
        ('"misere",', '"misere",\n    "misere",', "ladder[14]", "on the ladder twice"),
        ('"troel",', '"troel 8",\n    "troel",', "ladder", "both with and without a level"),
        (
            'after_all_pass = "double"',
            'after_all_pass = "twice"',
            "options.after_all_pass",
            "must be one of none, double",
        ),
        (
            'multiplier = "additive"',
            'multiplier = "times"',
            "options.multiplier",
            "additive, power",
        ),
        (
            'trump_order = ["S", "C", "D", "H"]',
            'trump_order = ["S", "C", "D", "NT"]',
            "options.trump_order",
            "Israeli Whist only",
        ),
        (
            'trump_order = ["S", "C", "D", "H"]',
            'trump_order = ["S", "S"]',
            "options.trump_order",
            "twice",
        ),
        (
            'trump_order = ["S", "C", "D", "H"]',
            'trump_order = ["spades"]',
            "options.trump_order",
            "not a suit",
        ),
        ("troel_switch_tricks = 9", "", "contracts.troel.levels", "troel 9 never happens"),
        (
            "troel_tricks = 8",
            "troel_tricks = 10",
            "options.troel_tricks",
            "10 is not in contracts.troel.levels",
        ),
        (
            "[contracts.misere]",
            "[israeli]\nexact_base = 1\n\n[contracts.misere]",
            "israeli",
            "only an Israeli Whist ruleset",
        ),
    ],
)
def test_it_refuses_a_broken_document_naming_the_key(
    old: str, new: str, key: str, words: str
) -> None:
    error = _broken(old, new)

    assert error.key == key
    assert words in str(error)
    assert str(error).startswith(f"{key}: ")


def test_it_refuses_a_per_side_table_without_the_opponents() -> None:
    document = (RULESET_FILES / "iwwa.toml").read_text("utf-8")

    error = _broken(
        'made = { bidders = { formula = "flat", value = 36 }, opponents = { formula = "flat", value = 0 } }',
        'made = { bidders = { formula = "flat", value = 36 } }',
        document,
    )

    assert error.key == "contracts.misere.made.opponents"


def test_it_refuses_troel_options_without_troel() -> None:
    document = tomllib.loads(WHISTHUB)
    del document["contracts"]["troel"]
    document["ladder"].remove("troel")

    with pytest.raises(RulesetError) as caught:
        load_ruleset(document)

    assert caught.value.key == "options.troel_tricks"
    assert "no troel" in str(caught.value)


def test_it_refuses_an_israeli_ruleset_without_its_score_table() -> None:
    document = (RULESET_FILES / "israeli.toml").read_text("utf-8")
    without = document[: document.index("[israeli]")]

    with pytest.raises(RulesetError) as caught:
        load_ruleset(without)

    assert caught.value.key == "israeli"


def test_it_refuses_text_that_is_not_toml_naming_the_source() -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset("name = whisthub", source="club.toml")

    assert "club.toml is not valid TOML" in str(caught.value)


# --- writing TOML ------------------------------------------------------------------------------

_SCALARS = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.text(),
    st.dates(),
    st.datetimes(timezones=st.just(datetime.UTC)),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200)
@given(st.dictionaries(st.text(max_size=8), _VALUES, max_size=4))
def test_a_free_form_table_reads_back_what_it_writes(table: dict[str, Any]) -> None:
    assert FrozenTable(tomllib.loads(dumps({"auction": table}))["auction"]) == FrozenTable(table)


# --- a ruleset written and read again is the same ruleset ------------------------------------

_BOARD_CONTRACTS = [
    c for c in Contract if c not in (Contract.PASS, Contract.ISRAELI, Contract.RONDE_PAS)
]


@st.composite
def formulas(draw: st.DrawFn, levels: tuple[int, ...]) -> dict[str, Any]:
    kinds = FORMULAS if levels else ("flat", "by_tricks")
    kind = draw(st.sampled_from(kinds))
    amount = st.integers(-100, 100)
    every_trick = {str(t): draw(amount) for t in range(14)}
    by_level = {str(level): draw(amount) for level in levels}
    formula: dict[str, Any] = {"formula": kind}
    if kind == "flat":
        formula["value"] = draw(amount)
    elif kind == "by_tricks":
        formula["values"] = every_trick
    elif kind == "by_level":
        formula["values"] = by_level
    else:
        formula["base"] = draw(st.one_of(amount, st.just(by_level)))
        formula["per_trick"] = draw(amount)
        formula["included"] = draw(st.integers(0, 2))
    if kind in ("by_tricks", "level_plus_tricks") and draw(st.booleans()):
        formula["max_tricks"] = 13
    if draw(st.booleans()):
        formula["all_tricks"] = draw(amount)
    formula["double_at_all_tricks"] = draw(st.booleans())
    if draw(st.booleans()):
        formula["overrides"] = [{"tricks": draw(st.integers(0, 13)), "value": draw(amount)}]
    return formula


@st.composite
def ruleset_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A random custom Kleurenwiezen ruleset, balancing or per side, with random extra tables."""
    balancing = draw(st.booleans())
    chosen = draw(st.lists(st.sampled_from(_BOARD_CONTRACTS), min_size=1, unique=True))
    contracts: dict[str, Any] = {}
    bids: list[str] = []
    troel_levels: list[int] = []
    for contract in chosen:
        shape = SHAPES[contract]
        levels: tuple[int, ...] = ()
        if shape.level_range is not None:
            low, high = shape.level_range
            levels = tuple(sorted(draw(st.sets(st.integers(low, high), min_size=1))))
        body: dict[str, Any] = {"levels": list(levels)} if levels else {}
        for outcome in ("made", "failed"):
            if balancing:
                body[outcome] = draw(formulas(levels))
            else:
                body[outcome] = {
                    "bidders": draw(formulas(levels)),
                    "opponents": draw(formulas(levels)),
                }
        body["doubles"] = draw(st.integers(0, 2))
        contracts[contract.value] = body
        if contract is Contract.TROEL:
            troel_levels = list(levels)
            bids.append("troel")
        elif levels:
            bids.extend(f"{contract.value} {level}" for level in levels)
        else:
            bids.append(contract.value)
    order = draw(st.permutations(bids))
    options: dict[str, Any] = {
        "after_all_pass": draw(st.sampled_from(["none", "double"])),
        "announced_double": draw(st.booleans()),
        "multiplier": draw(st.sampled_from(["additive", "power"])),
        "trump_order": draw(st.permutations(["S", "H", "D", "C"])),
    }
    if troel_levels:
        options["troel_tricks"] = troel_levels[0]
        options["troel_switch_tricks"] = troel_levels[-1]
    game = draw(st.sampled_from(["kleurenwiezen", "wiezen"]))
    # The loader checks the auction table with the auction module: draw a valid one.
    auction = draw(st.fixed_dictionaries({}, optional={"troel_four_aces": st.booleans()}))
    if game == "wiezen" and draw(st.booleans()):
        contracts["ronde_pas"] = {"unit": draw(st.integers(1, 20))}
        auction["ronde_pas"] = draw(st.booleans())
    return {
        "name": "club",
        "game": game,
        "title": draw(st.text(min_size=1).filter(str.strip)),
        "balancing": balancing,
        "ladder": list(order),
        "options": options,
        "contracts": contracts,
        # The loader checks these two tables with the auction and penalty modules: draw valid ones.
        "auction": auction,
        "penalties": draw(
            st.dictionaries(
                st.sampled_from(["revoke", "troel_not_announced", "fine"]),
                st.fixed_dictionaries(
                    {"amount": st.integers(1, 50)},
                    optional={"paid_to": st.sampled_from(["each_other", "nobody"])},
                ),
                max_size=2,
            )
        ),
    }


@settings(max_examples=100)
@given(ruleset_documents())
def test_a_custom_ruleset_reads_back_what_it_writes(document: dict[str, Any]) -> None:
    ruleset = load_ruleset(document)

    assert load_ruleset(ruleset_to_toml(ruleset)) == ruleset
