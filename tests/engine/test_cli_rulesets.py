"""The ``rulesets``, ``ladder`` and ``score`` commands, as docs/engine-cli.md describes them."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from engine.cli import main

ROOT = Path(__file__).parents[2]
CUSTOM = Path(__file__).parent / "fixtures" / "scoring" / "st-niklaas.toml"


def _run(argv: list[str], stdin: str = "") -> tuple[int, list[Any], str]:
    stdout = io.StringIO()
    stderr = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=stdout, stderr=stderr)
    lines = [json.loads(line) for line in stdout.getvalue().splitlines()]
    return status, lines, stderr.getvalue()


def _lines(*objects: object) -> str:
    return "".join((obj if isinstance(obj, str) else json.dumps(obj)) + "\n" for obj in objects)


# --- rulesets ----------------------------------------------------------------------------------


def test_it_lists_every_built_in_ruleset_with_its_game_and_title() -> None:
    status, lines, _ = _run(["rulesets"])

    assert status == 0
    assert [(line["name"], line["game"]) for line in lines] == [
        ("whisthub", "kleurenwiezen"),
        ("whisthub-piccolo", "kleurenwiezen"),
        ("pagat", "kleurenwiezen"),
        ("flemish", "kleurenwiezen"),
        ("iwwa", "kleurenwiezen"),
        ("iwwa-wiezen", "wiezen"),
        ("israeli", "israeli"),
        ("israeli-alt", "israeli"),
    ]
    assert all(set(line) == {"name", "game", "title"} and line["title"] for line in lines)


# --- ladder ------------------------------------------------------------------------------------


def test_it_prints_the_ladder_from_lowest_to_highest() -> None:
    status, lines, _ = _run(["ladder", "--ruleset", "whisthub"])

    assert status == 0
    assert lines[:3] == [
        {"contract": "accept", "level": 8},
        {"contract": "solo", "level": 5},
        {"contract": "accept", "level": 9},
    ]
    assert {"contract": "misere"} in lines
    assert lines[-1] == {"contract": "solo_slim"}
    assert len(lines) == 19


def test_it_marks_bids_of_equal_rank_in_the_flemish_ladder() -> None:
    _, lines, _ = _run(["ladder", "--ruleset", "flemish"])

    assert lines[:3] == [
        {"contract": "accept", "level": 8},
        {"contract": "solo", "level": 5, "equal_to_previous": True},
        {"contract": "accept", "level": 9},
    ]


def test_it_lists_each_israeli_level_once_per_denomination() -> None:
    _, lines, _ = _run(["ladder", "--ruleset", "israeli"])

    assert len(lines) == 9 * 5
    assert lines[:5] == [
        {"contract": "israeli", "level": 5, "trump": trump} for trump in ("C", "D", "H", "S", "NT")
    ]
    assert lines[-1] == {"contract": "israeli", "level": 13, "trump": "NT"}


def test_it_refuses_an_unknown_ruleset_with_exit_status_2() -> None:
    status, lines, stderr = _run(["ladder", "--ruleset", "bridge"])

    assert status == 2
    assert lines == []
    assert "unknown ruleset 'bridge'" in stderr


def test_it_prints_the_ladder_of_a_custom_ruleset_file() -> None:
    status, lines, _ = _run(["ladder", "--ruleset-file", str(CUSTOM)])

    assert status == 0
    assert lines == [
        {"contract": "accept", "level": 8},
        {"contract": "solo", "level": 5},
        {"contract": "piccolo"},
    ]


def test_it_refuses_a_broken_ruleset_file_naming_the_key(tmp_path: Path) -> None:
    broken = tmp_path / "club.toml"
    broken.write_text(CUSTOM.read_text("utf-8").replace("levels = [5]", "levels = [4]"), "utf-8")

    for command in ("ladder", "score"):
        status, lines, stderr = _run([command, "--ruleset-file", str(broken)])

        assert status == 2
        assert lines == []
        assert "contracts.solo.levels" in stderr
        assert "level 4 is below 5" in stderr


def test_it_refuses_a_missing_ruleset_file(tmp_path: Path) -> None:
    status, _, stderr = _run(["ladder", "--ruleset-file", str(tmp_path / "none.toml")])

    assert status == 2
    assert "cannot read ruleset file" in stderr


def test_it_needs_a_ruleset() -> None:
    status, lines, _ = _run(["ladder"])

    assert status == 2
    assert lines == []


# --- score ---------------------------------------------------------------------------------------


def test_it_scores_the_examples_of_the_command_line_contract() -> None:
    stdin = _lines(
        {"contract": "accept", "level": 9, "trump": "H", "declarers": ["N", "E"], "tricks": 10},
        {"contract": "misere", "declarers": ["N", "S"], "tricks": {"N": 0, "S": 1}},
        {"contract": "pass"},
    )

    status, lines, _ = _run(["score", "--ruleset", "whisthub"], stdin)

    assert status == 0
    assert lines == [
        {"scores": {"N": 14, "E": 14, "S": -14, "W": -14}},
        {"scores": {"N": 48, "E": 0, "S": -48, "W": 0}},
        {"scores": {"N": 0, "E": 0, "S": 0, "W": 0}},
    ]


def test_it_scores_an_israeli_result() -> None:
    stdin = _lines(
        {
            "contract": "israeli",
            "declarer": "N",
            "level": 7,
            "trump": "NT",
            "bids": {"N": 7, "E": 2, "S": 0, "W": 3},
            "tricks": {"N": 6, "E": 2, "S": 1, "W": 4},
        }
    )

    _, lines, _ = _run(["score", "--ruleset", "israeli"], stdin)

    assert lines == [{"scores": {"N": -10, "E": 14, "S": -50, "W": -10}}]


def test_a_bad_line_gives_an_error_line_and_the_run_goes_on() -> None:
    stdin = _lines(
        "{not json",
        {"contract": "solo", "level": 4, "trump": "H", "declarers": ["N"], "tricks": 5},
        {"contract": "piccolo", "declarers": ["E"], "tricks": {"E": 1}},
        [1, 2],
        {"contract": "solo", "level": 6, "trump": "H", "declarers": ["S"], "tricks": 7},
    )

    status, lines, _ = _run(["score", "--ruleset", "whisthub"], stdin)

    assert status == 0
    assert len(lines) == 5
    assert "line 1 is not valid JSON" in lines[0]["error"]
    assert "level 4 is out of range for solo" in lines[1]["error"]
    assert "does not allow piccolo" in lines[2]["error"]
    assert "error" in lines[3]
    assert lines[4] == {"scores": {"N": -5, "E": -5, "S": 15, "W": -5}}


def test_it_reads_the_results_from_a_file(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text(
        _lines(
            {"contract": "accept", "level": 8, "trump": "D", "declarers": ["N", "E"], "tricks": 13}
        ),
        "utf-8",
    )

    status, lines, _ = _run(["score", "--ruleset-file", str(CUSTOM), "--file", str(results)])

    assert status == 0
    assert lines == [{"scores": {"N": 24, "E": 24, "S": -24, "W": -24}}]


def test_it_refuses_a_results_file_it_cannot_read(tmp_path: Path) -> None:
    status, _, stderr = _run(
        ["score", "--ruleset", "pagat", "--file", str(tmp_path / "none.jsonl")]
    )

    assert status == 2
    assert "cannot read" in stderr


def test_the_commands_run_with_the_system_python_from_the_repository() -> None:
    # The python3 a user would type, outside any virtualenv: the engine needs nothing installed.
    path = os.pathsep.join(
        entry for entry in os.environ.get("PATH", "").split(os.pathsep) if ".venv" not in entry
    )
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = path
    python = shutil.which("python3", path=path) or "/usr/bin/python3"

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, "-m", "engine", *args],
            cwd=ROOT,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )

    rulesets = run("rulesets")
    ladder = run("ladder", "--ruleset", "pagat")
    scored = run(
        "score",
        "--ruleset",
        "flemish",
        stdin=_lines(
            {"contract": "troel", "level": 9, "trump": "S", "declarers": ["N", "W"], "tricks": 13}
        ),
    )
    unknown = run("score", "--ruleset", "nope")

    assert rulesets.returncode == 0, rulesets.stderr
    assert len(rulesets.stdout.splitlines()) == 8
    assert json.loads(ladder.stdout.splitlines()[0]) == {"contract": "accept", "level": 8}
    assert json.loads(scored.stdout) == {"scores": {"N": 18, "E": -18, "S": -18, "W": 18}}
    assert unknown.returncode == 2
    assert "unknown ruleset 'nope'" in unknown.stderr
