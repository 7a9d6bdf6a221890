"""PBN and Duplimate .dlm deal files: export, import, tolerance and precise errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Seat
from engine.dealfiles import DealFile, DlmFile, read_dlm, read_pbn, write_dlm, write_pbn
from engine.deals import BoardDeal, deal_from_number, deals_from_key
from engine.errors import DealError, ParseError
from engine.hands import Deal

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "deals.json").read_text("utf-8"))
BOARD_1 = "N:AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7 K82..QJ984.QT865"
BOARD_2 = "N:K962.K85.KQJT.Q4 AQT874.Q3.53.862 53.T64.A76.AT973 J.AJ972.9842.KJ5"

keys = st.text(alphabet="abcdef0123456789", min_size=1, max_size=12)
words = st.from_regex(r"[A-Za-z0-9éü'\"\\ ]{0,20}", fullmatch=True).map(
    lambda t: " ".join(t.split())
)


def pbn_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        read_pbn(text)
    return caught.value


def dlm_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        read_dlm(text)
    return caught.value


# --- PBN export --------------------------------------------------------------------------------


def test_it_writes_one_pbn_record_per_board():
    boards = (
        BoardDeal.of(1, Deal.from_pbn(BOARD_1)),
        BoardDeal.of(2, Deal.from_pbn(BOARD_2), trump_card=Card.parse("SA")),
    )
    text = write_pbn(DealFile(boards, "Club night", "Gent", "2025.03.14"))
    assert text.splitlines()[:3] == ["% PBN 2.1", "% EXPORT", "%"]
    assert '[Event "Club night"]\n[Site "Gent"]\n[Date "2025.03.14"]\n[Board "1"]\n' in text
    assert f'[Dealer "N"]\n[Deal "{BOARD_1}"]\n\n' in text
    assert f'[Dealer "E"]\n[Deal "{BOARD_2}"]\n[TrumpCard "SA"]\n\n' in text
    assert text.count("[Event ") == 2


def test_it_writes_unknown_tags_as_a_question_mark_and_escapes_quotes():
    board = BoardDeal.of(1, Deal.from_pbn(BOARD_1))
    text = write_pbn(DealFile((board,), 'The "Troef" \\ cup'))
    assert '[Event "The \\"Troef\\" \\\\ cup"]' in text
    assert '[Site "?"]' in text
    assert read_pbn(text).event == 'The "Troef" \\ cup'
    assert read_pbn(text).site == ""


@settings(max_examples=60)
@given(
    keys,
    st.lists(st.integers(1, 200), min_size=1, max_size=12, unique=True),
    st.booleans(),
    words,
    words,
)
def test_a_pbn_file_reads_back_as_written(key, numbers, wiezen, event, site):
    boards = tuple(deals_from_key(key, numbers, trump_card=wiezen))
    file = DealFile(boards, event, site, "2025.03.14")
    assert read_pbn(write_pbn(file)) == file


# --- PBN import --------------------------------------------------------------------------------


BIGDEAL_EXPORT = f"""% PBN 2.1
% EXPORT
%
[Generator "Big Deal version 2.0"]
[Event "?"]
[Site "?"]
[Date "?"]
[Board "1"]
[West "?"]
[North "?"]
[East "?"]
[South "?"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{BOARD_1}"]
[Scoring "?"]
[Declarer "?"]
[Contract "?"]
[Result "?"]

[Event "?"]
[Site "?"]
[Date "?"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "{BOARD_2}"]

"""


def test_it_reads_a_bigdeal_export():
    file = read_pbn(BIGDEAL_EXPORT)
    assert (file.event, file.site, file.date) == ("", "", "")
    assert [b.index for b in file.boards] == [e["index"] for e in FIXTURES["bigdeal"][:2]]
    assert [b.dealer for b in file.boards] == [Seat.N, Seat.E]


def test_it_ignores_comments_section_data_and_unknown_tags():
    text = f"""% a remark
{{ A comment
   over [Board "99"] several lines }}
[Event "Spring ; cup"] ; the event
[Board "3"] {{ inline }} [Vulnerable "EW"]
[Auction "S"]
pass 1H pass 2H
AP
[Deal "W:K82..QJ984.QT865 AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7"]
[Play "W"]
SK HA C4 D2
[Note "1:anything"]

[Event "#"]
[Board "4"]
[Deal "{BOARD_2}"]
[TrumpCard "HA"]
"""
    file = read_pbn(text)
    assert file.event == "Spring ; cup"
    assert [b.board for b in file.boards] == [3, 4]
    assert file.boards[0].deal.to_pbn() == BOARD_1
    assert file.boards[0].dealer is Seat.S  # no Dealer tag: the rotation from board 1
    assert file.boards[1].trump_card == Card.parse("HA")
    assert file.boards[1].dealer is Seat.W


def test_it_reads_windows_line_ends():
    file = read_pbn(BIGDEAL_EXPORT.replace("\n", "\r\n"))
    assert [b.board for b in file.boards] == [1, 2]


def test_it_reads_a_board_that_comes_again_with_the_same_deal_once():
    record = f'[Board "1"]\n[Deal "{BOARD_1}"]\n[Result "9"]\n\n'
    assert len(read_pbn(record * 3).boards) == 1


def test_it_reads_an_empty_file_as_no_boards():
    assert read_pbn("% PBN 2.1\n\n").boards == ()


@pytest.mark.parametrize(
    ("text", "line", "position", "message"),
    [
        ('[Board "1"]\n[Deal "N:AKQ"', 2, 0, 'a tag is written [Name "value"]'),
        (f'% x\n\n[Deal "{BOARD_1}"]', 3, None, "has no Board tag"),
        ('[Event "x"]\n[Board "1"]\n', 1, None, "has no Deal tag"),
        (f'[Board "one"]\n[Deal "{BOARD_1}"]', 1, 8, "Board 'one' is not a number"),
        (f'[Board "0"]\n[Deal "{BOARD_1}"]', 1, 8, "Board 0 is not a board number"),
        (f'[Board "1"]\n[Dealer "X"]\n[Deal "{BOARD_1}"]', 2, 9, "Dealer: unknown seat"),
        (f'[Board "1"]\n[Deal "{BOARD_1.replace("93", "9X")}"]', 2, 24, "Deal: 'X' is not a rank"),
        (f'[Board "1"]\n[Deal "{BOARD_1}"]\n[TrumpCard "HA"]', 3, 12, "is E's card, not the"),
        (f'[Board "1"]\n[Deal "{BOARD_1}"]\n[TrumpCard "H11"]', 3, 12, "is not a card"),
        (
            f'[Board "1"]\n[Deal "{BOARD_1}"]\n\n[Board "1"]\n[Deal "{BOARD_2}"]',
            5,
            7,
            "board 1 comes again with a different deal (first at line 1)",
        ),
        ('[Event "#"]\n[Board "1"]', 1, 8, "no earlier record has it"),
    ],
)
def test_it_names_the_line_of_a_broken_record(text, line, position, message):
    error = pbn_error(text)
    assert str(error).startswith(f"line {line}: ")
    assert message in str(error)
    assert error.position == position


# --- Duplimate .dlm ----------------------------------------------------------------------------


def bigdeal_boards(count: int) -> tuple[BoardDeal, ...]:
    return tuple(
        BoardDeal.of(e["board"], Deal.from_pbn(e["deal"])) for e in FIXTURES["bigdeal"][:count]
    )


def test_it_writes_the_dlm_header_and_every_board_up_to_99():
    text = write_dlm(DlmFile(bigdeal_boards(2), "Club night"))
    lines = text.split("\r\n")
    assert lines[:12] == [
        "[Document]",
        "Headline=Club night",
        "Status=Show",
        "Duplicates=0",
        "From board=1",
        "To board=2",
        "Next board to duplimate=0",
        "PrintOuts=0",
        "Crypto key=0",
        "Checksum=2",  # 0 ^ 1 ^ 2 ^ 1 (Show)
        "Duplicates 01=0",
        "Board 01=dgcofinckeeafcpdocnkhhdlnb026",
    ]
    assert lines[-1] == ""
    assert sum(line.startswith("Board ") for line in lines) == 99
    # Boards outside From..To carry deal 0, whose letters XOR to 14.
    assert "Board 03=aaaaaabffffffkkkkkklpppppp013" in lines
    assert "Board 99=aaaaaabffffffkkkkkklpppppp109" in lines


def test_a_dlm_letter_holds_the_seats_of_two_cards():
    # Deal 0: SA..S2 are N's (a = N,N), S2 and HA are N,E (b), then E,E (f) ...
    letters = write_dlm(DlmFile((BoardDeal.of(5, deal_from_number(0)),))).split("\r\n")[19]
    assert letters == "Board 05=aaaaaabffffffkkkkkklpppppp011"


def test_a_sealed_file_flips_the_header_checksum():
    text = write_dlm(DlmFile(bigdeal_boards(4), sealed=True, duplicates=3))
    assert "Status=Sealed\r\n" in text
    assert "Checksum=6\r\n" in text  # 3 ^ 1 ^ 4
    assert read_dlm(text).sealed
    assert read_dlm(text).duplicates == 3


def test_a_dlm_file_reads_back_as_written():
    file = DlmFile(bigdeal_boards(16), "Buenos Aires final 1", sealed=False, duplicates=1)
    assert read_dlm(write_dlm(file)) == file


@settings(max_examples=40)
@given(keys, st.integers(1, 99), st.integers(0, 20), st.booleans())
def test_any_run_of_boards_reads_back_from_dlm(key, first, count, sealed):
    last = min(99, first + count)
    boards = tuple(deals_from_key(key, range(first, last + 1)))
    file = DlmFile(boards, "Run", sealed, 0)
    assert read_dlm(write_dlm(file)) == file


def test_it_reads_a_dlm_file_with_unix_line_ends():
    text = write_dlm(DlmFile(bigdeal_boards(3))).replace("\r\n", "\n")
    assert [b.board for b in read_dlm(text).boards] == [1, 2, 3]


def test_a_dlm_file_loses_the_turned_up_card():
    boards = tuple(deals_from_key("k", range(1, 5), trump_card=True))
    back = read_dlm(write_dlm(DlmFile(boards)))
    assert [b.deal for b in back.boards] == [b.deal for b in boards]
    assert all(b.trump_card is None for b in back.boards)


@pytest.mark.parametrize(
    ("numbers", "message"),
    [
        ([1, 2, 4], "board 3 is missing"),
        ([1, 2, 2], "board 2 is given twice"),
        ([98, 99, 100], "board 100 is beyond"),
        ([], "at least one board"),
    ],
)
def test_it_refuses_boards_a_dlm_file_cannot_hold(numbers, message):
    boards = tuple(deals_from_key("k", numbers))
    with pytest.raises(DealError, match=message):
        write_dlm(DlmFile(boards))


def damaged(old: str, new: str) -> str:
    text = write_dlm(DlmFile(bigdeal_boards(2)))
    assert old in text
    return text.replace(old, new, 1)


def test_it_refuses_a_board_whose_checksum_does_not_match():
    error = dlm_error(damaged("dgcofinckeeafcpdocnkhhdlnb026", "dgcofinckeeafcpdocnkhhdlnb027"))
    assert str(error).startswith("line 12: Board 01 checksum 027 does not match")
    assert error.position == 9 + 26


def test_it_refuses_a_board_that_is_not_a_deal():
    # Swapping one letter for one that moves a card to another seat leaves 14 cards in a hand.
    letters = "dgcofinckeeafcpdocnkhhdlnb"
    changed = "a" + letters[1:]
    checksum = 1
    for letter in changed:
        checksum ^= ord(letter)
    error = dlm_error(damaged(f"{letters}026", f"{changed}{checksum:03d}"))
    assert str(error).startswith("line 12: Board 01: ")
    assert "holds 14 cards" in str(error)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("Checksum=2", "Checksum=3", "line 10: Checksum=3 does not match the header"),
        ("[Document]", "[Other]", "line 1: unknown section [Other]"),
        ("[Document]\r\n", "", "starts with [Document]"),
        ("From board=1", "From board=one", "line 5: From board='one' is not a number"),
        ("To board=2", "To board=0", "are not a range within 1..99"),
        ("Status=Show", "Status=Open", "line 3: Status='Open'; it is Show or Sealed"),
        ("Board 02=", "Board 42=", "no Board 02= line"),
        ("Board 01=dg", "Board 01=zg", "line 12: Board 01 needs 26 letters a-p"),
        ("Crypto key=0", "Crypto key", "line 9: expected Key=value"),
    ],
)
def test_it_says_what_is_wrong_with_a_damaged_dlm_file(old, new, message):
    assert message in str(dlm_error(damaged(old, new)))
