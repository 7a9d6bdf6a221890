"""``python -m engine analyse``: a board's double-dummy table, the contract of docs/engine-cli.md."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import Seat
from engine.cli import analyse, main
from engine.dealfiles import DealFile, write_pbn
from engine.deals import BoardDeal, deal_for_board, deal_from_number
from engine.doubledummy import BoardTable, board_table

ROOT = Path(__file__).resolve().parents[2]
# North holds every spade, East every heart, South every diamond, West every club.
SUITED = deal_from_number(0)


def run(*argv: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["analyse", *argv], stdin=io.StringIO(), stdout=stdout, stderr=stderr)
    return status, stdout.getvalue(), stderr.getvalue()


@pytest.fixture
def pbn_file(tmp_path: Path) -> Path:
    boards = (BoardDeal.of(3, SUITED), BoardDeal.of(4, deal_from_number(1)))
    path = tmp_path / "boards.pbn"
    path.write_text(write_pbn(DealFile(boards, "Club night")), encoding="utf-8")
    return path


def test_it_prints_the_table_of_a_board_of_a_pbn_file(pbn_file):
    status, out, err = run("--pbn", str(pbn_file), "--board", "3")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["board"] == 3
    assert data["dealer"] == "S"
    assert data["deal"] == SUITED.to_pbn()
    # West, on the dealer's left, leads clubs: at clubs or no trump West takes every trick; North
    # or South ruffs the first club at spades or diamonds and runs the trumps.
    assert data["alone"]["W"]["first_lead_left"]["C"] == 13
    assert data["pairs"]["NS"] == {"S": 13, "H": 0, "D": 13, "C": 0, "NT": 0}
    assert set(data) == {"board", "dealer", "deal", "pairs", "alone", "misere"}
    assert BoardTable.from_json(data) == board_table(SUITED, Seat.S, board=3)


def test_the_table_has_every_pair_seat_lead_and_strain(pbn_file):
    data = json.loads(run("--pbn", str(pbn_file), "--board", "3")[1])
    strains = ["S", "H", "D", "C", "NT"]
    assert list(data["pairs"]) == ["NS", "NE", "NW"]
    assert all(list(row) == strains for row in data["pairs"].values())
    assert list(data["alone"]) == ["N", "E", "S", "W"]
    for seat in data["alone"].values():
        assert list(seat) == ["first_lead_left", "first_lead_self"]
        assert all(list(row) == strains for row in seat.values())
    assert all(list(seat) == ["no_trick", "one_trick"] for seat in data["misere"].values())


def test_it_analyses_the_board_an_event_key_deals(monkeypatch):
    # The key's board is dealt as `deal --key` deals it; its table is the solver's business
    # (tests/engine/test_doubledummy.py), so the table of a quick deal stands in for it here.
    asked: list[BoardDeal] = []

    def table(board: BoardDeal) -> BoardTable:
        asked.append(board)
        return board_table(SUITED, board.dealer, board=board.board, trump_card=board.trump_card)

    monkeypatch.setattr(analyse, "table_for_board", table)
    status, out, _ = run("--key", "club-key", "--board", "6", "--game", "wiezen", "--owner", "Gent")
    expected = deal_for_board("club-key", 6, "Gent", trump_card=True)
    assert status == 0
    assert asked == [expected]
    data = json.loads(out)
    assert data["deal"] == expected.deal.to_pbn()
    assert data["dealer"] == "E"
    assert data["trump_card"] == str(expected.trump_card)


def test_kleurenwiezen_boards_have_no_trump_card(monkeypatch):
    monkeypatch.setattr(
        analyse, "table_for_board", lambda board: board_table(SUITED, board.dealer, board=1)
    )
    data = json.loads(run("--key", "club-key", "--board", "1")[1])
    assert "trump_card" not in data


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--board", "1"], "exactly one of --key and --pbn"),
        (["--key", "k", "--pbn", "f.pbn", "--board", "1"], "exactly one of --key and --pbn"),
        (["--key", "k", "--board", "0"], "board number 0"),
        (["--key", " ", "--board", "1"], "key is empty"),
        (["--pbn", "/nonexistent/boards.pbn", "--board", "1"], "cannot read"),
    ],
)
def test_it_rejects_misuse_with_status_2(argv, message):
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert message in err


def test_it_names_a_board_missing_from_the_file(pbn_file):
    status, _, err = run("--pbn", str(pbn_file), "--board", "9")
    assert status == 2
    assert "has no board 9" in err


def test_key_options_are_refused_with_a_file(pbn_file):
    status, _, err = run("--pbn", str(pbn_file), "--board", "3", "--game", "wiezen")
    assert status == 2
    assert "--game can only be used with --key" in err


def test_it_runs_as_a_module(pbn_file):
    done = subprocess.run(
        [sys.executable, "-m", "engine", "analyse", "--pbn", str(pbn_file), "--board", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout)["pairs"]["NE"]["H"] == 13
