"""Result lines: every documented example, every alias, error positions, and the round trip."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import SEATS, SUITS, Seat, Suit
from engine.errors import EngineError, InvalidResultError, ParseError
from engine.notation import (
    CANONICAL_WORDS,
    CONTRACT_ALIASES,
    LEVELS,
    format_result_line,
    parse_result_line,
)
from engine.results import (
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
H, D, C, SP = Suit.H, Suit.D, Suit.C, Suit.S

# The levels of each contract, as the rules give them (independent of the module's own table).
RULE_LEVELS = {
    Contract.ACCEPT: range(8, 14),
    Contract.SOLO: range(5, 9),
    Contract.ABONDANCE: range(9, 13),
    Contract.TROEL: range(8, 10),
}
PAIRS = {Contract.ACCEPT, Contract.TROEL}
LONE = {
    Contract.SOLO,
    Contract.ABONDANCE,
    Contract.SOLO_SLIM,
    Contract.SMALL_SOLO_SLIM,
    Contract.GRAND_SOLO,
}
NEGATIVE = {Contract.SMALL_MISERE, Contract.PICCOLO, Contract.MISERE, Contract.OPEN_MISERE}


def accept(level: int, trump: Suit, seats: tuple[Seat, ...], tricks: int | None) -> BoardResult:
    return BoardResult(Contract.ACCEPT, level, trump, seats, tricks)


def lone(
    contract: Contract, level: int | None, trump: Suit, seat: Seat, tricks: int
) -> BoardResult:
    return BoardResult(contract, level, trump, (seat,), tricks)


def negative(contract: Contract, seats: tuple[Seat, ...], tricks: tuple[int, ...]) -> BoardResult:
    return BoardResult(contract, declarers=seats, declarer_tricks=tricks)


# What every line in the examples tables of docs/notation.md must parse to.
DOCUMENTED: dict[str, BoardResult] = {
    "NE 9H 10": accept(9, H, (N, E), 10),
    "ne 9h 10": accept(9, H, (N, E), 10),
    "N,E 9 ♥ 10": accept(9, H, (N, E), 10),
    "SW 8C 7": accept(8, C, (S, W), 7),
    "N,E vragen en meegaan 9 harten 10": accept(9, H, (N, E), 10),
    "WN emballage 10 coeur 13": accept(10, H, (W, N), 13),
    "NE 12S 10 dbl": BoardResult(Contract.ACCEPT, 12, SP, (N, E), 10, doubled=True),
    "ES 9D 9 ap": BoardResult(Contract.ACCEPT, 9, D, (E, S), 9, after_all_pass=True),
    "W sol6S 5": lone(Contract.SOLO, 6, SP, W, 5),
    "W solo 6 schoppen 5": lone(Contract.SOLO, 6, SP, W, 5),
    "E alleen 5 ruiten 7": lone(Contract.SOLO, 5, D, E, 7),
    "N seul 7 trèfle 7": lone(Contract.SOLO, 7, C, N, 7),
    "S abon10D 11": lone(Contract.ABONDANCE, 10, D, S, 11),
    "S Abondance 9 ♠ 8": lone(Contract.ABONDANCE, 9, SP, S, 8),
    "NW troel H 9": BoardResult(Contract.TROEL, 8, H, (N, W), 9),
    "NW troel9C 8": BoardResult(Contract.TROEL, 9, C, (N, W), 8),
    "EN troela ♠ 10": BoardResult(Contract.TROEL, 9, SP, (E, N), 10),
    "E slim C 13": lone(Contract.SOLO_SLIM, None, C, E, 13),
    "E Solo Slim klaveren 12": lone(Contract.SOLO_SLIM, None, C, E, 12),
    "S grand chelem pique 13": lone(Contract.SOLO_SLIM, None, SP, S, 13),
    "W sslim H 12": lone(Contract.SMALL_SOLO_SLIM, None, H, W, 12),
    "N gsolo D 13": lone(Contract.GRAND_SOLO, None, D, N, 13),
    "N,S mis 0,1": negative(Contract.MISERE, (N, S), (0, 1)),
    "N,S Grote Miserie 0,1": negative(Contract.MISERE, (N, S), (0, 1)),
    "W misère 0": negative(Contract.MISERE, (W,), (0,)),
    "N,E,S kmis 0,0,1": negative(Contract.SMALL_MISERE, (N, E, S), (0, 0, 1)),
    "E petite misère 0": negative(Contract.SMALL_MISERE, (E,), (0,)),
    "S pic 1": negative(Contract.PICCOLO, (S,), (1,)),
    "S,W piccolo 1,2": negative(Contract.PICCOLO, (S, W), (1, 2)),
    "E omis 0": negative(Contract.OPEN_MISERE, (E,), (0,)),
    "N,W miserie op tafel 0,1": negative(Contract.OPEN_MISERE, (N, W), (0, 1)),
    "W misère étalée 1": negative(Contract.OPEN_MISERE, (W,), (1,)),
    "NE 9H ?": accept(9, H, (N, E), None),
    "pass": BoardResult(Contract.PASS),
    "pas": BoardResult(Contract.PASS),
    "pass ap": BoardResult(Contract.PASS, after_all_pass=True),
}

DOCUMENTED_ISRAELI: dict[str, IsraeliResult] = {
    "N 7NT 7,2,0,3 6,2,1,4": IsraeliResult(N, 7, None, (7, 2, 0, 3), (6, 2, 1, 4)),
    "E 6♠ 3,6,3,0 3,5,3,2": IsraeliResult(E, 6, SP, (3, 6, 3, 0), (3, 5, 3, 2)),
    "w 9 sans atout 1,1,1,9 1,0,2,10": IsraeliResult(W, 9, None, (1, 1, 1, 9), (1, 0, 2, 10)),
    "S 8 harten 2,2,8,0 ?": IsraeliResult(S, 8, H, (2, 2, 8, 0), None),
}


def doc_section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def example_rows(title: str) -> list[tuple[str, str]]:
    """``(you type, shown as)`` for each row of the examples table in a section of the doc."""
    rows = []
    for line in doc_section(title).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[2].startswith("`"):
            rows.append((cells[0].strip("`"), cells[2].strip("`")))
    return rows


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.casefold().replace("œ", "oe"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# -- documented examples -----------------------------------------------------------------------


def test_it_documents_exactly_the_examples_it_checks() -> None:
    assert [typed for typed, _ in example_rows("Examples")] == list(DOCUMENTED)
    assert [typed for typed, _ in example_rows("Israeli Whist lines")] == list(DOCUMENTED_ISRAELI)


@pytest.mark.parametrize(("typed", "shown"), example_rows("Examples"))
def test_it_reads_every_documented_example_as_documented(typed: str, shown: str) -> None:
    result = parse_result_line(typed)
    assert result == DOCUMENTED[typed]
    assert format_result_line(result) == shown
    assert parse_result_line(shown) == result


@pytest.mark.parametrize(("typed", "shown"), example_rows("Israeli Whist lines"))
def test_it_reads_every_documented_israeli_example_as_documented(typed: str, shown: str) -> None:
    result = parse_result_line(typed, game="israeli")
    assert result == DOCUMENTED_ISRAELI[typed]
    assert format_result_line(result) == shown


def test_it_shows_the_contract_table_examples_in_their_own_canonical_form() -> None:
    rows = []
    for line in doc_section("Contracts").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[2].startswith("`"):
            rows.append(cells[2].strip("`"))
    assert len(rows) == len(CANONICAL_WORDS)
    contracts = set()
    for shown in rows:
        result = parse_result_line(shown)
        assert isinstance(result, BoardResult)
        assert format_result_line(result) == shown
        contracts.add(result.contract)
    assert contracts == set(CANONICAL_WORDS)


def test_it_reads_the_examples_of_the_task_notes() -> None:
    assert parse_result_line("N,S mis 0,1") == negative(Contract.MISERE, (N, S), (0, 1))
    assert parse_result_line("NW troel H 9") == BoardResult(Contract.TROEL, 8, H, (N, W), 9)
    assert format_result_line(parse_result_line("N,E,S kmis 0,0,1")) == "N,E,S smis 0,0,1"


# -- error messages ----------------------------------------------------------------------------


def documented_errors() -> list[tuple[str, int, str]]:
    """``(line, caret column, message)`` from the code blocks of the error section."""
    found = []
    blocks = re.findall(r"```\n(.*?)\n(.*?)\n```", doc_section("Error messages"), re.S)
    for line, caret_line in blocks:
        caret = caret_line.index("^")
        found.append((line, caret, caret_line[caret + 2 :]))
    return found


def test_it_documents_a_dozen_error_messages() -> None:
    assert len(documented_errors()) >= 12


@pytest.mark.parametrize(("line", "caret", "message"), documented_errors())
def test_it_gives_the_documented_message_at_the_documented_character(
    line: str, caret: int, message: str
) -> None:
    game = "israeli" if "NT 7" in line else "kleurenwiezen"
    with pytest.raises(ParseError) as caught:
        parse_result_line(line, game=game)
    assert caught.value.position == caret
    assert str(caught.value) == message
    assert caught.value.text == line
    assert message.startswith(f"column {caret + 1}: ")


@pytest.mark.parametrize(
    ("line", "position", "expected"),
    [
        ("", 0, "expected a result"),
        ("   ", 3, "expected a result"),
        ("NE", 2, "expected the contract"),
        ("NE ", 3, "expected the contract"),
        ("NX 9H 10", 1, "expected a seat"),
        ("N,,E 9H 10", 2, "expected a seat"),
        ("N,S,N mis 0,0,0", 4, "seat N is named twice"),
        ("N9H 10", 1, "expected a space after the seats"),
        ("NE 7H 7", 3, "found 7: it must be 8 to 13"),
        ("NE 9 10", 5, "expected the trump suit"),
        ("NE 9H10", 5, "expected a space after the contract"),
        ("NE 9H 10x", 8, "expected a space after the tricks"),
        ("NE 9H 10 dbl ap dbl", 16, "dbl is given twice"),
        ("NE 9H 10 ap ap", 12, "ap is given twice"),
        ("NE 9H 10 doublex", 9, "expected dbl, ap or the end of the line"),
        ("NE sol6S 5", 0, "a solo has one declarer, found 2"),
        ("NEW 9H 10", 0, "an acceptance has two declarers"),
        ("W NE 9H 10", 2, "expected the contract; several declarers are written together"),
        ("W abon8D 9", 6, "found 8: it must be 9 to 12"),
        ("W abon13D 13", 6, "found 13: it must be 9 to 12"),
        ("W sol4S 5", 5, "found 4: it must be 5 to 8"),
        ("NW troel7H 8", 8, "found 7: it must be 8 to 9"),
        ("NW troel 10 H 10", 9, "found 10: it must be 8 to 9"),
        ("W solos 5", 6, "expected the level of the solo (5 to 8) before the suit"),
        ("E slim 13", 7, "expected the trump suit (H, D, C or S) of the solo slim"),
        ("E slimCX 13", 2, "expected a contract"),
        ("N mis H 0", 6, "expected the tricks won by N"),
        ("N,S mis 0,1,", 11, "expected 2 trick counts (N, S), e.g. 0,0; found more"),
        ("N,E,S,W mis 0,0,0", 17, "expected 4 trick counts (N, E, S, W) separated by commas"),
        ("N,S pic 1,14", 10, "expected the tricks won by S, found 14: it must be 0 to 13"),
        ("W piccoloH 1", 9, "a piccolo is played without trumps"),
        ("NE 9H 99999999999999999999999", 6, "it must be 0 to 13"),
        ("pass N", 5, "expected dbl, ap or the end of the line"),
        ("passH", 4, "expected dbl, ap or the end of the line"),
        ("NE pass", 3, "pass is a line on its own"),
        ("N grand misère", 14, "expected the tricks won"),
        ("NE foo 9", 3, "expected a contract (e.g. 9H, sol6S"),
        ("NE 9♥x 10", 4, "expected the trump suit"),
        ("NE 9H 10 ×2", 9, "expected dbl, ap or the end of the line"),
        ("NE 9H 10 X2", 9, "'X2' is ambiguous"),
    ],
)
def test_it_points_at_the_offending_character(line: str, position: int, expected: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_result_line(line)
    assert caught.value.position == position, str(caught.value)
    assert expected in str(caught.value)
    assert str(caught.value).startswith(f"column {position + 1}: ")


def test_it_points_into_the_original_text_when_accents_were_folded() -> None:
    # "œ" folds to two letters and "é" to one: the column is still that of the original text.
    with pytest.raises(ParseError) as caught:
        parse_result_line("W misère étalée Z")
    assert caught.value.position == 16
    with pytest.raises(ParseError) as caught:
        parse_result_line("NE 9 cœur x")
    assert caught.value.position == 10
    assert caught.value.pointer() == "NE 9 cœur x\n          ^"


def test_it_tells_a_wiezen_player_that_a_thirteen_trick_solo_is_gsolo() -> None:
    with pytest.raises(ParseError, match="gsolo"):
        parse_result_line("E solo H 13", game="wiezen")
    assert parse_result_line("E gsolo H 13", game="wiezen") == lone(
        Contract.GRAND_SOLO, None, H, E, 13
    )


def test_it_refuses_no_trump_outside_israeli_whist() -> None:
    with pytest.raises(ParseError, match="no trump exists only in Israeli Whist"):
        parse_result_line("E sol6 sans atout 6")


def test_it_rejects_an_unknown_game_by_name() -> None:
    with pytest.raises(EngineError, match="unknown game 'bridge'; games are kleurenwiezen"):
        parse_result_line("NE 9H 10", game="bridge")


@pytest.mark.parametrize(
    ("line", "position", "expected"),
    [
        ("NE 7NT 7,2,0,3 ?", 1, "an Israeli Whist contract has one declarer"),
        ("N 4H 4,2,0,3 ?", 2, "found 4: it must be 5 to 13"),
        ("N 14H 4,2,0,3 ?", 2, "found 14: it must be 5 to 13"),
        ("N 7 7,2,0,3 ?", 4, "expected the trump suit (H, D, C, S or NT)"),
        ("N 7NT 7,2,0,3", 13, "expected the four trick counts"),
        ("N 7NT 7,2,0,3 6,2,1", 19, "expected 4 trick counts (N, E, S, W)"),
        ("N 7NT 7,2,0,3 ? dbl", 16, "expected the end of the line"),
        ("X 7NT 7,2,0,3 ?", 0, "expected the declarer's seat"),
        ("N 7NT 7,2,0,14 ?", 12, "expected the bid of W, found 14"),
    ],
)
def test_it_points_at_the_offending_character_of_an_israeli_line(
    line: str, position: int, expected: str
) -> None:
    with pytest.raises(ParseError) as caught:
        parse_result_line(line, game="israeli")
    assert caught.value.position == position, str(caught.value)
    assert expected in str(caught.value)


# -- aliases -----------------------------------------------------------------------------------


def line_for(contract: Contract, word: str) -> str:
    """A line using ``word`` for the contract, with a level wherever one must be written."""
    if contract is Contract.PASS:
        return word
    if contract is Contract.ACCEPT:
        return f"NE {word} 9 H 9"
    if contract in (Contract.SOLO, Contract.ABONDANCE):
        return f"W {word} {RULE_LEVELS[contract].start} H 9"
    if contract.has_trump:
        return f"NW {word} H 9" if contract is Contract.TROEL else f"E {word} C 13"
    return f"N {word} 0"


@pytest.mark.parametrize(("alias", "contract"), sorted(CONTRACT_ALIASES.items()))
def test_it_reads_every_contract_alias(alias: str, contract: Contract) -> None:
    for spelling in (alias, alias.upper(), alias.title()):
        result = parse_result_line(line_for(contract, spelling))
        assert result.contract is contract


def test_it_lists_every_alias_in_the_documentation_and_reads_each_as_its_contract() -> None:
    documented: dict[str, str] = {}
    for line in doc_section("Contracts").split("### Contract words")[1].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("Contract", "---"):
            continue
        words = re.sub(r"\([^)]*\)", "", cells[1])
        for word in re.split("[,;]", words):
            documented[fold(word.strip())] = cells[0]
    assert set(documented) == set(CONTRACT_ALIASES)
    for word in documented:
        contract = CONTRACT_ALIASES[word]
        assert parse_result_line(line_for(contract, word)).contract is contract


@pytest.mark.parametrize(
    ("word", "suit"),
    [
        *[(w, H) for w in ("H", "h", "♥", "♡", "hearts", "heart", "harten", "hart", "coeur")],
        *[(w, H) for w in ("cœur", "Coeurs", "HARTEN", "♥\ufe0f")],
        *[(w, D) for w in ("D", "♦", "♢", "diamonds", "diamond", "ruiten", "ruit", "carreau")],
        *[(w, D) for w in ("carreaux", "Ruiten")],
        *[(w, C) for w in ("C", "♣", "♧", "clubs", "club", "klaveren", "klaver", "trèfle")],
        *[(w, C) for w in ("trefle", "trèfles", "Klaveren")],
        *[(w, SP) for w in ("S", "♠", "♤", "spades", "spade", "schoppen", "schop", "pique")],
        *[(w, SP) for w in ("piques", "Schoppen")],
    ],
)
def test_it_reads_every_suit_word(word: str, suit: Suit) -> None:
    assert parse_result_line(f"NE 9 {word} 9") == accept(9, suit, (N, E), 9)
    assert parse_result_line(f"NE 9{word} 9") == accept(9, suit, (N, E), 9)


@pytest.mark.parametrize("letter", ["R", "K", "P", "T", "O", "Z"])
def test_it_refuses_single_letters_other_than_the_english_suit_letters(letter: str) -> None:
    with pytest.raises(ParseError, match="expected the trump suit"):
        parse_result_line(f"NE 9{letter} 9")


@pytest.mark.parametrize(
    "word", ["NT", "nt", "SA", "no trump", "notrump", "sans atout", "zonder troef"]
)
def test_it_reads_every_no_trump_word_in_israeli_whist(word: str) -> None:
    result = parse_result_line(f"N 7{word} 7,2,0,3 6,2,1,4", game="israeli")
    assert result == IsraeliResult(N, 7, None, (7, 2, 0, 3), (6, 2, 1, 4))


@pytest.mark.parametrize(
    ("line", "flags"),
    [
        ("NE 9H 9 double", (True, False)),
        ("NE 9H 9 Doubled", (True, False)),
        ("NE 9H 9 dubbel", (True, False)),
        ("NE 9H 9 contre", (True, False)),
        ("NE 9H 9 after pass", (False, True)),
        ("NE 9H 9 After All Pass", (False, True)),
        ("NE 9H 9 ap dbl", (True, True)),
        ("NE 9H 9 dbl ap", (True, True)),
    ],
)
def test_it_reads_every_flag_word(line: str, flags: tuple[bool, bool]) -> None:
    result = parse_result_line(line)
    assert isinstance(result, BoardResult)
    assert (result.doubled, result.after_all_pass) == flags


@pytest.mark.parametrize(
    "line",
    [
        "N,E 9H 10",
        "N, E 9H 10",
        "N ,E 9H 10",
        "ne 9h 10",
        "NE acc9H 10",
        "NE accept 9 H 10",
        "NE ACCEPT 9H 10",
        "NE samen 9 harten 10",
        "NE vragen 9H 10",
        "NE meegaan 9H 10",
        "NE vragen-meegaan 9H 10",
        "NE Vragen/Meegaan 9H 10",
        "NE vragenenmeegaan 9H 10",
        "\tNE  9H\t10  ",
        "NE 9 H 10",
        "NE 9 ♥ 10",
    ],
)
def test_it_reads_the_same_acceptance_however_it_is_written(line: str) -> None:
    assert parse_result_line(line) == accept(9, H, (N, E), 10)


def test_it_keeps_the_declarers_in_the_order_given() -> None:
    assert parse_result_line("S,N mis 1,0") == negative(Contract.MISERE, (S, N), (1, 0))
    assert parse_result_line("EN 9H 9") == accept(9, H, (E, N), 9)


def test_it_reads_a_suit_written_against_the_word_of_a_contract_without_level() -> None:
    assert parse_result_line("E slimC 13") == lone(Contract.SOLO_SLIM, None, C, E, 13)
    assert parse_result_line("NW troel♠ 8") == BoardResult(Contract.TROEL, 8, SP, (N, W), 8)
    assert parse_result_line("E soloslim ♣ 13") == lone(Contract.SOLO_SLIM, None, C, E, 13)


def test_it_reads_wiezen_and_kleurenwiezen_lines_alike() -> None:
    for line in ("W alleen 5 H 6", "NE 8H 8", "N,S miserie 0,0", "E gsolo S 13"):
        assert parse_result_line(line, game="wiezen") == parse_result_line(line)


def test_it_declares_the_levels_the_rules_give() -> None:
    assert LEVELS == RULE_LEVELS


# -- formatting --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "field"),
    [
        (BoardResult(Contract.ACCEPT, 7, H, (N, E), 7), "level"),
        (BoardResult(Contract.ACCEPT, None, H, (N, E), 7), "level"),
        (BoardResult(Contract.SOLO_SLIM, 13, H, (N,), 13), "level"),
        (BoardResult(Contract.SOLO, 6, None, (N,), 6), "trump"),
        (BoardResult(Contract.MISERE, None, H, (N,), None, (0,)), "trump"),
        (BoardResult(Contract.ACCEPT, 9, H, (N,), 9), "declarers"),
        (BoardResult(Contract.ACCEPT, 9, H, (N, N), 9), "declarers"),
        (BoardResult(Contract.PASS, declarers=(N,)), "declarers"),
        (BoardResult(Contract.MISERE, declarers=(N, S), declarer_tricks=(0,)), "tricks"),
        (BoardResult(Contract.MISERE, declarers=(N,), tricks=0), "tricks"),
        (BoardResult(Contract.SOLO, 6, H, (N,), 14), "tricks"),
        (BoardResult(Contract.SOLO, 6, H, (N,), None, (6,)), "tricks"),
        (BoardResult(Contract.PASS, tricks=0), "tricks"),
        (BoardResult(Contract.ISRAELI), "contract"),
        (IsraeliResult(N, 4, None, (4, 2, 0, 3)), "level"),
        (IsraeliResult(N, 7, None, (7, 2, 0, 14)), "bids.W"),
        (IsraeliResult(N, 7, None, (7, 2, 0, 3), (6, -1, 1, 4)), "tricks.E"),
    ],
)
def test_it_refuses_to_format_a_result_no_line_can_express(
    result: BoardResult | IsraeliResult, field: str
) -> None:
    with pytest.raises(InvalidResultError) as caught:
        format_result_line(result)
    assert caught.value.field == field


def test_it_formats_in_canonical_english() -> None:
    assert (
        format_result_line(parse_result_line("N,E vragen 10 ruiten 11 dubbel")) == "NE 10D 11 dbl"
    )
    assert format_result_line(parse_result_line("S,W kleine miserie 0,0")) == "S,W smis 0,0"
    assert format_result_line(parse_result_line("N,S mis ?")) == "N,S mis ?"
    assert format_result_line(IsraeliResult(E, 13, H, (0, 13, 0, 0))) == "E 13H 0,13,0,0 ?"


# -- round trip and fuzzing --------------------------------------------------------------------


@st.composite
def board_results(draw: st.DrawFn) -> BoardResult:
    contract = draw(
        st.sampled_from([c for c in Contract if c not in (Contract.ISRAELI, Contract.RONDE_PAS)])
    )
    doubled = draw(st.booleans())
    after_all_pass = draw(st.booleans())
    if contract is Contract.PASS:
        return BoardResult(Contract.PASS, doubled=doubled, after_all_pass=after_all_pass)
    if contract in PAIRS:
        count = 2
    elif contract in LONE:
        count = 1
    else:
        count = draw(st.integers(1, 4))
    declarers = tuple(draw(st.permutations(SEATS))[:count])
    level = draw(st.sampled_from(RULE_LEVELS[contract])) if contract in RULE_LEVELS else None
    trump = draw(st.sampled_from(SUITS)) if contract not in NEGATIVE else None
    tricks: int | None = None
    declarer_tricks: tuple[int, ...] = ()
    if contract in NEGATIVE:
        played = draw(st.booleans())
        if played:
            declarer_tricks = tuple(draw(st.integers(0, 13)) for _ in declarers)
    else:
        tricks = draw(st.none() | st.integers(0, 13))
    return BoardResult(
        contract, level, trump, declarers, tricks, declarer_tricks, doubled, after_all_pass
    )


def four_counts() -> st.SearchStrategy[tuple[int, int, int, int]]:
    count = st.integers(0, 13)
    return st.tuples(count, count, count, count)


israeli_results = st.builds(
    IsraeliResult,
    declarer=st.sampled_from(SEATS),
    level=st.integers(5, 13),
    trump=st.none() | st.sampled_from(SUITS),
    bids=four_counts(),
    tricks=st.none() | four_counts(),
)


def counts_adding_up_to(total: int, high: int) -> st.SearchStrategy[tuple[int, int, int, int]]:
    count = st.integers(0, high)
    return (
        st.tuples(count, count, count)
        .filter(lambda three: sum(three) <= total)
        .map(lambda three: (*three, total - sum(three)))
        .filter(lambda four: four[3] <= high)
    )


ronde_pas_results = st.one_of(
    st.builds(RondePasResult, st.just(RondePasGame.LAST_TRICK), last_trick=st.sampled_from(SEATS)),
    st.builds(RondePasResult, st.just(RondePasGame.QUEENS), queens=counts_adding_up_to(4, 4)),
    st.builds(
        RondePasResult, st.just(RondePasGame.FEWEST_TRICKS), tricks=counts_adding_up_to(13, 13)
    ),
)


@settings(max_examples=200)
@given(board_results() | ronde_pas_results, st.sampled_from(["kleurenwiezen", "wiezen"]))
def test_it_reads_back_every_result_it_writes(
    result: BoardResult | RondePasResult, game: str
) -> None:
    line = format_result_line(result)
    assert parse_result_line(line, game=game) == result
    assert format_result_line(parse_result_line(line.lower(), game=game)) == line


@settings(max_examples=200)
@given(israeli_results)
def test_it_reads_back_every_israeli_result_it_writes(result: IsraeliResult) -> None:
    assert parse_result_line(format_result_line(result), game="israeli") == result


@settings(max_examples=200)
@given(
    st.text(alphabet="NESWnesw ,?0123456789HDCShdcs♥♠abilmoprtx-/é", max_size=24),
    st.sampled_from(["kleurenwiezen", "israeli"]),
)
def test_it_answers_any_text_with_a_result_or_a_positioned_parse_error(
    text: str, game: str
) -> None:
    outcome = read_or_error(text, game)
    if isinstance(outcome, ParseError):
        assert outcome.position is not None
        assert 0 <= outcome.position <= len(text)
        assert str(outcome).startswith(f"column {outcome.position + 1}: ")
    else:
        assert parse_result_line(format_result_line(outcome), game=game) == outcome


def read_or_error(text: str, game: str) -> AnyResult | ParseError:
    try:
        return parse_result_line(text, game=game)
    except ParseError as error:
        return error
