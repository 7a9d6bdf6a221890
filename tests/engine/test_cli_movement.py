"""``python -m engine movement``."""

from __future__ import annotations

import io
import json
import subprocess
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["movement", *argv], stdin=io.StringIO(""), stdout=stdout, stderr=stderr)
    return status, stdout.getvalue(), stderr.getvalue()


def meetings(document: dict[str, Any]) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for plan in document["rounds"]:
        for table in plan["tables"]:
            players = [table[k] for k in ("N", "E", "S", "W", "X") if k in table]
            met.update(combinations(sorted(players), 2))
    return met


def test_it_prints_one_json_document_in_the_documented_shape() -> None:
    status, out, err = run("--players", "17", "--rounds", "3")
    assert status == 0
    assert err == ""
    assert out.count("\n") == 1
    document = json.loads(out)
    assert document["players"] == 17
    assert [plan["round"] for plan in document["rounds"]] == [1, 2, 3]
    for plan in document["rounds"]:
        assert set(plan) == {"round", "tables", "byes"}
        assert [t["table"] for t in plan["tables"]] == [1, 2, 3, 4]
        for table in plan["tables"]:
            assert set(table) == {"table", "N", "E", "S", "W"}
        seated = [table[s] for table in plan["tables"] for s in "NESW"]
        assert sorted(seated + plan["byes"]) == list(range(1, 18))
        assert len(plan["byes"]) == 1


def test_it_seats_fifth_players_under_x_with_tables_of_five() -> None:
    status, out, _ = run("--players", "22", "--rounds", "4", "--tables-of-five")
    assert status == 0
    document = json.loads(out)
    for plan in document["rounds"]:
        assert plan["byes"] == []
        assert sum("X" in table for table in plan["tables"]) == 2
        players = [
            table[k] for table in plan["tables"] for k in ("N", "E", "S", "W", "X") if k in table
        ]
        assert sorted(players) == list(range(1, 23))


def test_it_plans_the_known_maximum_for_40_players_without_a_repeat() -> None:
    status, out, err = run("--players", "40", "--rounds", "13")
    assert status == 0
    assert err == ""
    assert set(meetings(json.loads(out)).values()) == {1}


def test_it_still_prints_every_round_and_warns_when_meetings_must_repeat() -> None:
    status, out, err = run("--players", "16", "--rounds", "7")
    assert status == 0
    document = json.loads(out)
    assert len(document["rounds"]) == 7
    assert max(meetings(document).values()) == 2
    assert "warning: 7 rounds for 16 players repeat" in err
    assert "the first 5 round(s) have no repeat" in err


def test_it_gives_another_schedule_for_another_seed() -> None:
    _, first, _ = run("--players", "24", "--rounds", "5", "--seed", "1")
    _, again, _ = run("--players", "24", "--rounds", "5", "--seed", "1")
    _, other, _ = run("--players", "24", "--rounds", "5", "--seed", "2")
    assert first == again
    assert first != other


def test_it_plans_a_federation_event_of_1000_players_without_a_repeat() -> None:
    status, out, err = run("--players", "1000", "--rounds", "10")
    assert status == 0
    assert err == ""
    document = json.loads(out)
    assert document["players"] == 1000
    assert all(len(plan["tables"]) == 250 for plan in document["rounds"])
    assert set(meetings(document).values()) == {1}


def test_it_exits_2_for_a_field_beyond_the_largest_it_plans() -> None:
    status, out, err = run("--players", "4001", "--rounds", "8")
    assert status == 2
    assert out == ""
    assert "players: at most 4000 players can be planned at once, not 4001" in err


def test_it_exits_2_for_too_few_players() -> None:
    status, out, err = run("--players", "3", "--rounds", "2")
    assert status == 2
    assert out == ""
    assert "players: a movement needs at least 4 players, not 3" in err


def test_it_exits_2_for_tables_of_five_that_cannot_be_formed() -> None:
    status, _, err = run("--players", "11", "--rounds", "2", "--tables-of-five")
    assert status == 2
    assert "use byes instead" in err


def test_it_exits_2_for_zero_rounds() -> None:
    status, _, err = run("--players", "16", "--rounds", "0")
    assert status == 2
    assert "rounds: must be a whole number from 1" in err


def test_it_exits_2_without_the_rounds_option() -> None:
    status, out, _ = run("--players", "16")
    assert status == 2
    assert out == ""


def test_it_runs_with_the_system_python_from_the_repository_root() -> None:
    result = subprocess.run(
        ["python3", "-m", "engine", "movement", "--players", "20", "--rounds", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["players"] == 20
    assert set(meetings(document).values()) == {1}
