"""``python -m engine auction``: the command-line contract of docs/engine-cli.md."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((Path(__file__).parent / "fixtures" / "auctions").glob("pagat-example-*.json"))
THREE_ACES_SOUTH = "N:T98.T987.T98.654 654.54.A3.KQJT98 AKQJ.AKQJ.KQJ.A7 732.632.76542.32"


def run(ruleset: str, *lines: Any) -> tuple[int, list[dict[str, Any]], str]:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["auction", "--ruleset", ruleset], io.StringIO(text), stdout, stderr)
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    return status, answers, stderr.getvalue()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_it_answers_the_contract_of_each_pagat_example(path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    line = {"dealer": example["dealer"], "deal": example["deal"], "calls": example["calls"]}
    status, answers, _ = run(example["ruleset"], line)
    assert status == 0
    assert answers == [{"contract": example["contract"]}]


def test_it_answers_who_speaks_next_and_the_legal_calls() -> None:
    status, answers, _ = run("whisthub", {"dealer": "W", "calls": ["propose H", "accept H"]})
    assert status == 0
    assert answers == [
        {
            "next": "S",
            "legal": [
                "pass",
                "propose D",
                "propose C",
                "propose S",
                "small_misere",
                "abondance S 9",
                "abondance C 9",
                "abondance D 9",
                "abondance H 9",
                "misere",
                "abondance S 10",
                "abondance C 10",
                "abondance D 10",
                "abondance H 10",
                "abondance S 11",
                "abondance C 11",
                "abondance D 11",
                "abondance H 11",
                "open_misere",
                "abondance S 12",
                "abondance C 12",
                "abondance D 12",
                "abondance H 12",
                "solo_slim S",
                "solo_slim C",
                "solo_slim D",
                "solo_slim H",
            ],
        }
    ]


def test_it_answers_all_passed_and_the_troel_partners_choice() -> None:
    _, answers, _ = run(
        "whisthub",
        {"dealer": "N", "calls": ["pass", "pass", "pass", "pass"]},
        {"dealer": "W", "deal": THREE_ACES_SOUTH, "calls": ["pass", "pass", "pass", "pass"]},
        {"dealer": "W", "deal": THREE_ACES_SOUTH, "calls": ["pass"] * 5},
    )
    assert answers == [
        {"contract": {"contract": "pass"}},
        {"next": "E", "legal": ["pass", "switch H", "switch C", "switch S"]},
        {"contract": {"contract": "troel", "level": 8, "trump": "D", "declarers": ["S", "E"]}},
    ]


def test_it_names_the_first_illegal_or_unreadable_call_by_its_index() -> None:
    _, answers, _ = run(
        "whisthub",
        {"dealer": "W", "calls": ["propose H", "solo D", "pass"]},
        {"dealer": "W", "calls": ["pass", "propose X"]},
        {"dealer": "W", "calls": ["pass", 7]},
        {"dealer": "W", "calls": ["pass", "pass", "pass", "pass", "pass"]},
        {"dealer": "W", "calls": ["pass", "pass", "pass", "bid H 7"]},
    )
    assert [answer.get("call") for answer in answers] == [1, 1, 1, 4, 3]
    assert "East may only bid a solo in a suit they proposed" in answers[0]["error"]
    assert "unexpected 'X'" in answers[1]["error"]
    assert "call 1 must be text" in answers[2]["error"]
    assert "the auction is over" in answers[3]["error"]
    assert "'bid' is not a Kleurenwiezen call" in answers[4]["error"]


def test_it_checks_the_cards_only_with_a_deal() -> None:
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    _, answers, _ = run(
        "whisthub",
        {"dealer": "W", "deal": deal, "calls": ["propose H"]},
        {"dealer": "W", "calls": ["propose H"]},
    )
    assert answers[0] == {"error": "North holds no hearts and cannot propose them", "call": 0}
    assert answers[1]["next"] == "E"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("not json", "line 1 is not valid JSON"),
        ([1, 2], "an auction must be a JSON object"),
        ({"calls": []}, "dealer: missing"),
        ({"dealer": "X", "calls": []}, "dealer: must be N, E, S or W"),
        ({"dealer": "N"}, "calls: must be a list of calls"),
        ({"dealer": "N", "calls": "pass"}, "calls: must be a list of calls"),
        ({"dealer": "N", "deal": "N:AK", "calls": []}, "deal: "),
        ({"dealer": "N", "deal": 5, "calls": []}, "deal: must be a PBN deal string"),
        ({"dealer": "N", "calls": [], "board": 3}, "unknown field 'board'"),
        ({"dealer": "N", "calls": [], "trump_card": "HQ"}, "trump_card: only Wiezen turns up"),
    ],
)
def test_it_reports_a_line_it_cannot_read_and_goes_on(line: Any, problem: str) -> None:
    status, answers, _ = run("whisthub", line, {"dealer": "N", "calls": []})
    assert status == 0
    assert len(answers) == 2
    assert problem in answers[0]["error"]
    assert "call" not in answers[0]
    assert answers[1]["next"] == "E"


def test_it_runs_wiezen_auctions_with_the_turned_up_suit() -> None:
    _, answers, _ = run(
        "iwwa-wiezen",
        {"dealer": "W", "trump_card": "C", "calls": ["propose", "accept", "pass", "pass"]},
        {
            "dealer": "W",
            "trump_card": "CQ",
            "calls": ["abondance 9", "pass", "pass", "pass", "trump S"],
        },
        {"dealer": "W", "calls": []},
        {"dealer": "W", "trump_card": "X", "calls": []},
        {"dealer": "W", "trump_card": "HA", "deal": THREE_ACES_SOUTH, "calls": []},
    )
    assert answers[0] == {
        "contract": {"contract": "accept", "level": 8, "trump": "C", "declarers": ["N", "E"]}
    }
    assert answers[1] == {
        "contract": {"contract": "abondance", "level": 9, "trump": "S", "declarers": ["N"]}
    }
    assert "trump_card: a Wiezen auction needs the turned-up card" in answers[2]["error"]
    assert "trump_card: must be a card such as HQ" in answers[3]["error"]
    assert "West does not hold HA" in answers[4]["error"]


def test_it_runs_israeli_auctions() -> None:
    calls = ["bid H 5", "bid C 6", "pass", "pass", "pass", "pass", "tricks 2", "tricks 0"]
    _, answers, _ = run("israeli", {"dealer": "W", "calls": calls})
    assert answers[0]["next"] == "W"  # North declared 6 clubs; West speaks last
    assert "tricks 5" not in answers[0]["legal"]  # 6 + 2 + 0 + 5 would make 13
    _, done, _ = run("israeli", {"dealer": "W", "calls": [*calls, "tricks 3"]})
    assert done == [
        {
            "contract": {
                "contract": "israeli",
                "declarer": "N",
                "level": 6,
                "trump": "C",
                "bids": {"N": 6, "E": 2, "S": 0, "W": 3},
            }
        }
    ]


def test_it_exits_2_for_an_unknown_ruleset() -> None:
    status, answers, stderr = run("nonesuch", {"dealer": "N", "calls": []})
    assert status == 2
    assert answers == []
    assert "unknown ruleset 'nonesuch'" in stderr


def test_it_exits_2_without_a_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["auction"], io.StringIO(""), io.StringIO(), io.StringIO())
    assert status == 2
    assert "--ruleset" in capsys.readouterr().err


def test_it_runs_with_the_system_python_from_the_repository() -> None:
    # The python3 a user would type, outside any virtualenv: the engine needs nothing installed.
    path = os.pathsep.join(
        entry for entry in os.environ.get("PATH", "").split(os.pathsep) if ".venv" not in entry
    )
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = path
    python = shutil.which("python3", path=path) or "/usr/bin/python3"
    line = json.dumps({"dealer": "W", "calls": ["propose H", "accept H", "pass", "pass"]})
    done = subprocess.run(
        [python, "-m", "engine", "auction", "--ruleset", "pagat"],
        cwd=ROOT,
        env=env,
        input=line + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "contract": {"contract": "accept", "level": 8, "trump": "H", "declarers": ["N", "E"]}
    }
