"""The import contract (.importlinter): the engine stands alone, each Django app reaches it through
its own adapter module (game.py), services import no views and no tasks, and the service modules
import one another without a cycle."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".importlinter"


def contract_names() -> list[str]:
    parser = configparser.ConfigParser()
    parser.read(CONFIG, encoding="utf-8")
    return [
        parser[section]["name"]
        for section in parser.sections()
        if section.startswith("importlinter:contract:")
    ]


def test_the_code_keeps_every_import_contract() -> None:
    command = [
        str(Path(sys.executable).parent / "lint-imports"),
        str(CONFIG),
        "--no-cache",  # nothing written into the project, and no stale graph
        "--no-logo",
    ]
    # Wide lines: a contract's name and its verdict stay on one line of the report.
    environment = {**os.environ, "COLUMNS": "200"}
    run = subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    # Every contract of the file was checked, and kept.
    names = contract_names()
    assert len(names) >= 4
    for name in names:
        assert f"{name} KEPT" in output, output
    assert f"Contracts: {len(names)} kept, 0 broken." in output, output
