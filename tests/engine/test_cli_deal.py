"""``python -m engine deal``: the command-line contract of docs/engine-cli.md."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.cli import main
from engine.dealfiles import read_pbn
from engine.deals import DEAL_COUNT, deals_from_key

ROOT = Path(__file__).resolve().parents[2]
BOARD_1 = "N:AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7 K82..QJ984.QT865"
BOARD_1_NUMBER = 8769329935151910410009728500


def run(*argv: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["deal", *argv], stdin=io.StringIO(), stdout=stdout, stderr=stderr)
    return status, stdout.getvalue(), stderr.getvalue()


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


# --- numbers -----------------------------------------------------------------------------------


def test_it_prints_the_deal_of_a_number():
    assert run("--index", str(BOARD_1_NUMBER)) == (0, BOARD_1 + "\n", "")


@pytest.mark.parametrize(
    "text", ["8,769,329,935,151,910,410,009,728,500", "8_769 329935151910410009728500"]
)
def test_it_reads_a_number_with_separators(text):
    assert run("--index", text)[1] == BOARD_1 + "\n"


def test_it_prints_the_first_and_last_deals():
    assert (
        run("--index", "0")[1]
        == "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\n"
    )
    last = run("--index", str(DEAL_COUNT - 1))[1]
    assert last == "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...\n"


def test_it_prints_the_number_of_a_deal_from_any_seat():
    assert run("--pbn", BOARD_1) == (0, f"{BOARD_1_NUMBER}\n", "")
    west = "W:K82..QJ984.QT865 AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7"
    assert run("--pbn", west)[1] == f"{BOARD_1_NUMBER}\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--index", str(DEAL_COUNT)], "is beyond the last deal"),
        (["--index", "-1"], "is not a deal number"),
        (["--index", "ten"], "is not a deal number"),
        (["--pbn", BOARD_1.replace("KJ42", "KJ4")], "East's hand has 12 cards"),
        (["--pbn", "AKQ"], "starts with the first hand's seat"),
    ],
)
def test_it_exits_2_for_a_bad_number_or_deal(argv, message):
    status, stdout, stderr = run(*argv)
    assert status == 2
    assert stdout == ""
    assert message in stderr


def test_it_shows_where_a_bad_deal_goes_wrong():
    stderr = run("--pbn", BOARD_1.replace("KJ42", "KJ4X"))[2]
    assert stderr.splitlines()[-2:] == [BOARD_1.replace("KJ42", "KJ4X"), " " * 34 + "^"]


# --- deals from a key --------------------------------------------------------------------------


def test_it_prints_a_keys_deals_as_json_lines():
    status, stdout, stderr = run("--key", "abc", "--boards", "1-4")
    assert (status, stderr) == (0, "")
    lines = json_lines(stdout)
    assert [line["board"] for line in lines] == [1, 2, 3, 4]
    assert [line["dealer"] for line in lines] == ["N", "E", "S", "W"]
    assert all(set(line) == {"board", "dealer", "deal", "index"} for line in lines)
    assert lines == [b.to_json() for b in deals_from_key("abc", range(1, 5))]
    assert isinstance(lines[0]["index"], int)
    assert str(lines[0]["deal"]).startswith("N:")


def test_it_deals_the_same_boards_for_the_same_key_and_list():
    assert run("--key", "abc", "--boards", "1,3,5-8") == run("--key", "abc", "--boards", "1,3,5-8")
    some = json_lines(run("--key", "abc", "--boards", "3,7")[1])
    every = json_lines(run("--key", "abc", "--boards", "1-8")[1])
    assert some == [every[2], every[6]]


def test_a_different_key_or_owner_or_public_value_deals_differently():
    plain = json_lines(run("--key", "abc", "--boards", "1")[1])[0]["index"]
    assert json_lines(run("--key", "abd", "--boards", "1")[1])[0]["index"] != plain
    assert (
        json_lines(run("--key", "abc", "--boards", "1", "--owner", "Gent")[1])[0]["index"] != plain
    )
    assert (
        json_lines(run("--key", "abc", "--boards", "1", "--public", "7421")[1])[0]["index"] != plain
    )


def test_it_adds_the_turned_up_card_for_wiezen():
    lines = json_lines(run("--key", "abc", "--boards", "1-4", "--game", "wiezen")[1])
    assert all(set(line) == {"board", "dealer", "deal", "index", "trump_card"} for line in lines)
    expected = deals_from_key("abc", range(1, 5), trump_card=True)
    assert [line["trump_card"] for line in lines] == [str(b.trump_card) for b in expected]
    assert (
        "trump_card"
        not in json_lines(run("--key", "abc", "--boards", "1", "--game", "israeli")[1])[0]
    )


def test_it_prints_a_keys_deals_as_a_pbn_file():
    status, stdout, _ = run(
        "--key", "abc", "--boards", "1-3", "--format", "pbn", "--game", "wiezen",
        "--event", "Club night", "--date", "2025.03.14",
    )  # fmt: skip
    assert status == 0
    file = read_pbn(stdout)
    assert file.event == "Club night"
    assert file.date == "2025.03.14"
    assert list(file.boards) == deals_from_key("abc", range(1, 4), trump_card=True)


def test_it_prints_the_commitment_of_a_key():
    status, stdout, _ = run("--key", "abc", "--commitment")
    assert status == 0
    assert json_lines(stdout) == [{"commitment": hashlib.sha256(b"abc").hexdigest()}]


def test_it_makes_a_new_key_with_its_commitment():
    status, stdout, _ = run("--new-key")
    assert status == 0
    made = json_lines(stdout)[0]
    assert len(str(made["key"])) == 40
    assert made["commitment"] == hashlib.sha256(str(made["key"]).encode()).hexdigest()
    assert json_lines(run("--new-key")[1])[0]["key"] != made["key"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "give exactly one of --index, --pbn, --key, --new-key (none)"),
        (["--index", "1", "--pbn", BOARD_1], "(--index and --pbn)"),
        (["--key", "abc"], "--key needs --boards"),
        (["--key", "abc", "--boards", "3-1"], "--boards: the range '3-1' runs backwards"),
        (["--key", "abc", "--boards", "0"], "board numbers run from 1"),
        (["--key", "abc", "--boards", "1", "--commitment"], "not both"),
        (["--key", " ", "--boards", "1"], "the dealing key is empty"),
        (["--key", " ", "--commitment"], "the dealing key is empty"),
        (["--index", "1", "--boards", "1-4"], "--boards can only be used with --key"),
        (["--new-key", "--format", "pbn"], "--format can only be used with --key"),
    ],
)
def test_it_exits_2_when_misused(argv, message):
    status, stdout, stderr = run(*argv)
    assert status == 2
    assert stdout == ""
    assert message in stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["--format", "xml", "--key", "a", "--boards", "1"],
        ["--key", "a", "--boards", "1", "--game", "bridge"],
        ["--shuffle"],
    ],
)
def test_it_exits_2_for_an_unknown_option_or_choice(argv, capsys):
    assert run(*argv)[0] == 2
    assert "error:" in capsys.readouterr().err


def test_it_runs_with_the_system_python_from_the_repository():
    # The python3 a user would type, outside any virtualenv: the engine needs nothing installed.
    path = os.pathsep.join(
        entry for entry in os.environ.get("PATH", "").split(os.pathsep) if ".venv" not in entry
    )
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = path
    python = shutil.which("python3", path=path) or "/usr/bin/python3"
    done = subprocess.run(
        [python, "-m", "engine", "deal", "--key", "abc", "--boards", "2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == deals_from_key("abc", [2])[0].to_json()
    number = subprocess.run(
        [python, "-m", "engine", "deal", "--pbn", BOARD_1],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert number.stdout == f"{BOARD_1_NUMBER}\n"
