"""``python -m engine play``: replaying recorded plays line by line."""

from __future__ import annotations

import io
import json
import random
import subprocess
from pathlib import Path

from engine.cards import SEATS, Card, Seat
from engine.cli import main
from engine.hands import Deal
from engine.play import EndPolicy, PlayState
from engine.results import BoardResult
from engine.ruleset import load_builtin, ruleset_to_toml

REPO = Path(__file__).resolve().parents[2]
RUFF_DEAL = "N:AKQJT98.2.AKQ.AK 765432.AK.JT9.QJ .76543.8765.T987 .QJT98.432.65432"
ACCEPT = {"contract": "accept", "level": 8, "trump": "H", "declarers": ["N", "S"]}
MISERE = {"contract": "misere", "declarers": ["N"]}


def run(lines: list[object], *args: str) -> tuple[int, list[dict[str, object]], str]:
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["play", *args], stdin=io.StringIO(text + "\n"), stdout=stdout, stderr=stderr)
    out = [json.loads(line) for line in stdout.getvalue().splitlines()]
    return status, out, stderr.getvalue()


def board(contract: dict[str, object], cards: list[str], dealer: str = "W") -> dict[str, object]:
    return {"dealer": dealer, "deal": RUFF_DEAL, "contract": contract, "cards": cards}


def full_play(contract: dict[str, object], seed: int, dealer: str = "W") -> list[str]:
    """Every card of a random legal play, played to the last trick."""
    rng = random.Random(seed)
    state = PlayState(
        BoardResult.from_json(contract),
        Deal.from_pbn(RUFF_DEAL),
        Seat[dealer],
        end=EndPolicy.NEVER,
    )
    while not state.is_finished:
        state.play(rng.choice(state.legal_cards()))
    return [str(record.card) for record in state.log]


def test_it_counts_the_tricks_of_a_complete_play():
    cards = full_play(ACCEPT, seed=7)
    deal = Deal.from_pbn(RUFF_DEAL)
    state = PlayState(BoardResult.from_json(ACCEPT), deal, Seat.W, end=EndPolicy.NEVER)
    for text in cards:
        state.play(Card.parse(text))
    status, (out,), _ = run([board(ACCEPT, cards)], "--ruleset", "whisthub")
    assert status == 0
    assert out["tricks"] == {seat.name: state.tricks_won(seat) for seat in SEATS}
    assert sum(out["tricks"].values()) == 13
    assert out["result"] == {**ACCEPT, "tricks": out["tricks"]["N"] + out["tricks"]["S"]}


def test_it_reports_an_early_end_and_the_credited_tricks():
    status, (out,), _ = run([board(MISERE, ["SA", "S2", "H3", "D2"])], "--ruleset", "whisthub")
    assert status == 0
    assert out["tricks"] == {"N": 1, "E": 0, "S": 0, "W": 0}
    assert out["result"] == {"contract": "misere", "declarers": ["N"], "tricks": {"N": 1}}
    assert out["ended"]["reason"] == "settled"
    assert out["ended"]["after_trick"] == 1
    assert out["ended"]["remaining"] == 12


def test_it_checks_the_whole_record_when_the_table_played_on():
    cards = full_play(MISERE, seed=3)
    status, (out,), _ = run([board(MISERE, cards)], "--ruleset", "whisthub")
    assert status == 0
    assert "ended" not in out
    assert sum(out["tricks"].values()) == 13
    assert out["result"]["tricks"] == {"N": out["tricks"]["N"]}


def test_it_plays_every_trick_when_asked_not_to_end_early():
    cards = ["SA", "S2", "H3", "D2"]
    _, (out,), _ = run([board(MISERE, cards)], "--ruleset", "whisthub", "--early-end", "never")
    assert out["next"] == "N"
    assert out["trick"] == 2


def test_it_says_who_plays_next_and_what_they_may_play():
    _, (out,), _ = run([board(ACCEPT, ["SA"])], "--ruleset", "whisthub")
    assert out == {
        "next": "E",
        "phase": "play",
        "trick": 1,
        "legal": ["S7", "S6", "S5", "S4", "S3", "S2"],
        "tricks": {"N": 0, "E": 0, "S": 0, "W": 0},
    }


def test_it_takes_the_small_misere_discards_first():
    contract = {"contract": "small_misere", "declarers": ["S"]}
    _, (out,), _ = run([board(contract, ["S8", "S7", "H7", "H8"])], "--ruleset", "whisthub")
    assert out["next"] == "N"
    assert out["phase"] == "play"
    assert "S8" not in out["legal"]
    _, (out,), _ = run([board(contract, ["S8"])], "--ruleset", "whisthub")
    assert (out["next"], out["phase"], out["trick"]) == ("E", "discard", 0)


def test_it_names_the_first_illegal_card_by_its_index():
    _, (out,), _ = run(
        [board(ACCEPT, ["SA", "S2", "D8", "D2", "SK", "DJ"])], "--ruleset", "whisthub"
    )
    assert out["card"] == 5
    assert out["error"].startswith("E must follow suit: spades were led")


def test_it_reports_revokes_in_lenient_mode():
    cards = ["SA", "DJ", "D8", "D2"]
    _, (out,), _ = run([board(ACCEPT, cards)], "--ruleset", "whisthub", "--lenient")
    (revoke,) = out["revoke"]
    assert {key: revoke[key] for key in ("seat", "trick", "card", "led", "index")} == {
        "seat": "E",
        "trick": 1,
        "card": "DJ",
        "led": "S",
        "index": 1,
    }
    assert revoke["held"] == ["S7", "S6", "S5", "S4", "S3", "S2"]
    assert out["next"] == "N"


def test_it_rejects_cards_after_the_last_trick():
    cards = full_play(ACCEPT, seed=11)
    _, (out,), _ = run(
        [board(ACCEPT, [*cards, "SA"])], "--ruleset", "whisthub", "--early-end", "never"
    )
    assert out["card"] == 52
    assert "too many" in out["error"]


def test_it_reads_cards_in_other_notations():
    _, (out,), _ = run([board(ACCEPT, ["♠A", "2S", "♦8", "d2"])], "--ruleset", "whisthub")
    assert out["tricks"]["N"] == 1


def test_it_plays_an_israeli_whist_contract():
    contract = {
        "contract": "israeli",
        "declarer": "E",
        "level": 7,
        "trump": "NT",
        "bids": {"N": 2, "E": 7, "S": 1, "W": 1},
    }
    line = {"deal": RUFF_DEAL, "contract": contract, "cards": []}
    _, (out,), _ = run([line], "--ruleset", "israeli")
    assert out["next"] == "E"


def test_it_answers_a_bad_line_with_an_error_and_goes_on():
    lines = [
        "not json",
        {"deal": RUFF_DEAL, "contract": ACCEPT, "cards": []},
        board({**ACCEPT, "tricks": 9}, []),
        board({"contract": "piccolo", "declarers": ["N"]}, []),
        board(ACCEPT, ["SA", 7]),
        board(ACCEPT, ["SX"]),
        {**board(ACCEPT, []), "deal": "N:AKQ"},
        {**board(ACCEPT, []), "table": 3},
        board(ACCEPT, []),
    ]
    status, out, _ = run(lines, "--ruleset", "whisthub")
    assert status == 0
    assert len(out) == len(lines)
    assert out[0]["error"].startswith("line 1 is not valid JSON")
    assert out[1]["error"] == "the dealer is missing: give N, E, S or W"
    assert "without tricks" in out[2]["error"]
    assert "does not allow piccolo" in out[3]["error"]
    assert out[4] == {"error": 'cards[1] must be a card such as "SA"', "card": 1}
    assert out[5]["card"] == 0
    assert out[5]["error"].startswith("cards[0]: 'SX' is not a card")
    assert out[6]["error"].startswith("deal: ")
    assert "unknown field 'table'" in out[7]["error"]
    assert out[8]["next"] == "N"


def test_it_reads_plays_from_a_file(tmp_path):
    path = tmp_path / "plays.jsonl"
    path.write_text(json.dumps(board(ACCEPT, ["SA"])) + "\n", encoding="utf-8")
    status, (out,), _ = run([], "--ruleset", "whisthub", "--file", str(path))
    assert status == 0
    assert out["next"] == "E"


def test_it_exits_2_for_an_unknown_ruleset_or_a_missing_file():
    status, out, err = run([board(ACCEPT, [])], "--ruleset", "no-such-rules")
    assert status == 2
    assert out == []
    assert "no-such-rules" in err
    status, _, err = run([], "--ruleset", "whisthub", "--file", "/nonexistent/plays.jsonl")
    assert status == 2
    assert "cannot read" in err


def test_it_runs_with_the_system_python():
    line = json.dumps(board(MISERE, ["SA", "S2", "H3", "D2"]))
    done = subprocess.run(
        ["python3", "-m", "engine", "play", "--ruleset", "pagat"],
        input=line + "\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["tricks"] == {"N": 1}


def test_it_reads_a_custom_ruleset_file(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text(ruleset_to_toml(load_builtin("pagat")), encoding="utf-8")
    status, (out,), _ = run([board(MISERE, ["SA", "S2", "H3", "D2"])], "--ruleset-file", str(path))
    assert status == 0
    assert out["result"]["tricks"] == {"N": 1}
    path.write_text('name = "club"\n', encoding="utf-8")
    status, out, err = run([board(MISERE, [])], "--ruleset-file", str(path))
    assert status == 2
    assert out == []
    assert err.startswith("python -m engine: error:")
